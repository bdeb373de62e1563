/* The power of Welch's test, and from it the minimum detectable effect and the runs a
 * comparison would need.
 *
 * Power at a true difference delta is P(|T'| > t_crit), T' noncentral t with Welch's
 * degrees of freedom and ncp = delta / se: the same formula as R's power.t.test with
 * strict = TRUE, with Welch's se and df in place of the pooled ones. Power grows with
 * delta, so the smallest delta of a given power is found by bisection. */
#include "loadgen/inference/inference.h"

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

/* The test a search is about: Welch's on two samples or the paired one, at level alpha.
 * The searches vary delta or the size; the rest stays as given here. */
struct design {
	bool fixed;   /* a t test of given se and df (the sizes do not matter) */
	double se;    /* its standard error (fixed only) */
	double df;    /* its degrees of freedom (fixed only) */
	bool paired;  /* the paired test (sd in sa), else Welch's (sa and sb) */
	double sa;    /* standard deviation of the first sample, or of the differences */
	double sb;    /* standard deviation of the second sample (Welch only) */
	double alpha; /* significance level */
};

/* Power of design d at difference delta with sizes na and nb (nb: Welch only). */
static double design_power(const struct design *d, double delta, size_t na, size_t nb)
{
	if (d->fixed)
		return power_se(delta, d->se, d->df, d->alpha);
	return d->paired ? lg_stat_paired_power(delta, d->sa, na, d->alpha)
			 : lg_stat_welch_power(delta, d->sa, na, d->sb, nb, d->alpha);
}

/* The smallest delta that d detects with the given power at sizes na, nb; se (> 0) is
 * where the search starts. Power grows with delta: double, then bisect. */
static double smallest_delta(const struct design *d, size_t na, size_t nb, double se,
			     double power)
{
	double lo = 0, hi = se;

	while (design_power(d, hi, na, nb) < power)
		hi *= 2.0;
	for (int i = 0; i < BISECT_ITER && hi - lo > 1e-12 * hi; i++) {
		double mid = lo + (hi - lo) / 2.0;

		if (design_power(d, mid, na, nb) < power)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* The smallest size n (on both sides) at which d detects delta with the given power;
 * 0 when more than max would be needed. Power grows with n: double until enough, then
 * bisect (lo too few, hi enough). */
static size_t smallest_n(const struct design *d, double delta, double power, size_t max)
{
	size_t lo = 1, hi = 2;

	if (delta == 0 || !isfinite(delta) || max < 2)
		return 0;
	while (design_power(d, delta, hi, hi) < power) {
		if (hi >= max)
			return 0;
		lo = hi;
		hi = hi * 2 > max ? max : hi * 2;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (mid >= 2 && design_power(d, delta, mid, mid) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

double lg_stat_mde(double sa, size_t na, double sb, size_t nb, double alpha, double power)
{
	struct design d = { .sa = sa, .sb = sb, .alpha = alpha };
	double se;

	if (na < 2 || nb < 2 || !(power > alpha && power < 1))
		return NAN;
	se = sqrt(sa * sa / (double)na + sb * sb / (double)nb);
	return se > 0 ? smallest_delta(&d, na, nb, se, power) : 0.0;
}

size_t lg_stat_runs_needed(double delta, double sa, double sb, double alpha, double power,
			   size_t max)
{
	struct design d = { .sa = sa, .sb = sb, .alpha = alpha };

	if (!(sa * sa + sb * sb > 0))
		return 2;
	return smallest_n(&d, delta, power, max);
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
	struct design d = { .paired = true, .sa = sd, .alpha = alpha };

	if (n < 2 || !(power > alpha && power < 1) || !(sd >= 0))
		return NAN;
	return sd > 0 ? smallest_delta(&d, n, n, sd / sqrt((double)n), power) : 0.0;
}

size_t lg_stat_pairs_needed(double delta, double sd, double alpha, double power, size_t max)
{
	struct design d = { .paired = true, .sa = sd, .alpha = alpha };

	if (!(sd > 0))
		return 2;
	return smallest_n(&d, delta, power, max);
}

/* --- A t test whose standard error comes from elsewhere (a calibration) --- */

double lg_stat_se_mde(double se, double df, double alpha, double power)
{
	struct design d = { .fixed = true, .se = se, .df = df, .alpha = alpha };

	if (!(df > 0) || !(se >= 0) || !(alpha > 0 && power > alpha && power < 1))
		return NAN;
	return se > 0 ? smallest_delta(&d, 0, 0, se, power) : 0.0;
}
