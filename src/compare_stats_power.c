/* The power of Welch's test, and from it the minimum detectable effect and the runs a
 * comparison would need.
 *
 * Power at a true difference delta is P(|T'| > t_crit), T' noncentral t with Welch's
 * degrees of freedom and ncp = delta / se: the same formula as R's power.t.test with
 * strict = TRUE, with Welch's se and df in place of the pooled ones. Power grows with
 * delta, so the smallest delta of a given power is found by bisection. */
#include "loadgen/compare_stats.h"

#include <math.h>

#include "rmath.h"

#define BISECT_ITER 200

/* Welch-Satterthwaite degrees of freedom of variances va = sa^2/na and vb = sb^2/nb. */
static double welch_df(double va, size_t na, double vb, size_t nb)
{
	double se2 = va + vb, ua = va / se2, ub = vb / se2;

	return 1.0 / (ua * ua / (double)(na - 1) + ub * ub / (double)(nb - 1));
}

/* Power for a standard error se and df degrees of freedom. */
static double power_se(double delta, double se, double df, double alpha)
{
	double tc = qt(1.0 - alpha / 2.0, df, 1, 0), ncp = fabs(delta) / se;

	return pnt(tc, df, ncp, 0, 0) + pnt(-tc, df, ncp, 1, 0);
}

double lg_stat_welch_power(double delta, double sa, size_t na, double sb, size_t nb,
			   double alpha)
{
	double va, vb;

	if (na < 2 || nb < 2 || !(alpha > 0 && alpha < 1))
		return NAN;
	va = sa * sa / (double)na;
	vb = sb * sb / (double)nb;
	if (!(va + vb > 0))
		return delta != 0 ? 1.0 : alpha;
	return power_se(delta, sqrt(va + vb), welch_df(va, na, vb, nb), alpha);
}

double lg_stat_mde(double sa, size_t na, double sb, size_t nb, double alpha, double power)
{
	double lo = 0, hi, se;

	if (na < 2 || nb < 2 || !(power > alpha && power < 1))
		return NAN;
	se = sqrt(sa * sa / (double)na + sb * sb / (double)nb);
	if (!(se > 0))
		return 0.0;
	hi = se;
	while (lg_stat_welch_power(hi, sa, na, sb, nb, alpha) < power)
		hi *= 2.0;
	for (int i = 0; i < BISECT_ITER && hi - lo > 1e-12 * hi; i++) {
		double mid = lo + (hi - lo) / 2.0;

		if (lg_stat_welch_power(mid, sa, na, sb, nb, alpha) < power)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

size_t lg_stat_runs_needed(double delta, double sa, double sb, double alpha, double power,
			   size_t max)
{
	size_t lo = 1, hi = 2;

	if (!(sa * sa + sb * sb > 0))
		return 2;
	if (delta == 0 || !isfinite(delta) || max < 2)
		return 0;
	/* Power grows with n: double until enough, then bisect (lo too few, hi enough). */
	while (lg_stat_welch_power(delta, sa, hi, sb, hi, alpha) < power) {
		if (hi >= max)
			return 0;
		lo = hi;
		hi = hi * 2 > max ? max : hi * 2;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (mid >= 2 && lg_stat_welch_power(delta, sa, mid, sb, mid, alpha) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* --- The paired (one-sample) t-test --- */

double lg_stat_paired_power(double delta, double sd, size_t n, double alpha)
{
	if (n < 2 || !(alpha > 0 && alpha < 1) || !(sd >= 0))
		return NAN;
	if (!(sd > 0))
		return delta != 0 ? 1.0 : alpha;
	return power_se(delta, sd / sqrt((double)n), (double)(n - 1), alpha);
}

double lg_stat_paired_mde(double sd, size_t n, double alpha, double power)
{
	double lo = 0, hi;

	if (n < 2 || !(power > alpha && power < 1) || !(sd >= 0))
		return NAN;
	if (!(sd > 0))
		return 0.0;
	hi = sd / sqrt((double)n);
	while (lg_stat_paired_power(hi, sd, n, alpha) < power)
		hi *= 2.0;
	for (int i = 0; i < BISECT_ITER && hi - lo > 1e-12 * hi; i++) {
		double mid = lo + (hi - lo) / 2.0;

		if (lg_stat_paired_power(mid, sd, n, alpha) < power)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

size_t lg_stat_pairs_needed(double delta, double sd, double alpha, double power, size_t max)
{
	size_t lo = 1, hi = 2;

	if (!(sd > 0))
		return 2;
	if (delta == 0 || !isfinite(delta) || max < 2)
		return 0;
	while (lg_stat_paired_power(delta, sd, hi, alpha) < power) {
		if (hi >= max)
			return 0;
		lo = hi;
		hi = hi * 2 > max ? max : hi * 2;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (mid >= 2 && lg_stat_paired_power(delta, sd, mid, alpha) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
