/* loadgen ab's statistics: the paired analysis of the per-round differences and the
 * drift both variants share (the order of the rounds: ab_order.c).
 *
 * The verdict comes from the paired t-test (as compare's comes from Welch's); the
 * signed-rank test is its check that does not assume normal differences. The drift is
 * the least-squares slope of the per-round mean of the variants: it is what two
 * separate batches would have mistaken for a difference, and pairing removes it. */
#include "loadgen/ab.h"

#include <errno.h>
#include <math.h>
#include <string.h>

void lg_ab_drift_fit(const double *y, size_t n, struct lg_ab_drift *out)
{
	double mx = ((double)n - 1) / 2.0, my, sxx = 0, sxy = 0, sse = 0, se, tq;

	*out = (struct lg_ab_drift){ NAN, NAN, NAN, NAN, NAN, NAN };
	if (n < 3)
		return;
	my = lg_stat_mean(y, n);
	for (size_t i = 0; i < n; i++) {
		sxx += ((double)i - mx) * ((double)i - mx);
		sxy += ((double)i - mx) * (y[i] - my);
	}
	out->slope = sxy / sxx;
	for (size_t i = 0; i < n; i++) {
		double r = y[i] - (my + out->slope * ((double)i - mx));

		sse += r * r;
	}
	se = sqrt(sse / (double)(n - 2) / sxx);
	tq = lg_stat_t_quantile(0.975, (double)(n - 2));
	out->ci95_lo = out->slope - tq * se;
	out->ci95_hi = out->slope + tq * se;
	out->p = se > 0 ? lg_stat_t_two_sided(out->slope / se, (double)(n - 2))
			: (out->slope != 0 ? 0.0 : 1.0);
	out->slope_pct = my != 0 ? 100.0 * out->slope / my : NAN;
	out->total_pct = out->slope_pct * (double)(n - 1);
}

/* The verdict and its checks, once the tests are set. */
static void decide(struct lg_ab_analysis *an, double alpha)
{
	bool sig = an->t.p < alpha;

	an->verdict = !an->tested ? LG_VERDICT_NONE
		      : !sig ? LG_VERDICT_SAME
		      : an->t.diff.mean > 0 ? LG_VERDICT_FASTER : LG_VERDICT_SLOWER;
	an->rank_disagrees = an->tested && an->rank.min_p < alpha &&
			     (an->rank.p < alpha) != sig;
}

int lg_ab_analyze(const double *a, const double *b, size_t n, double alpha,
		  double target_pct, struct lg_ab_analysis *out)
{
	double d[LG_AB_MAX_ROUNDS], y[LG_AB_MAX_ROUNDS], scale, mde;

	memset(out, 0, sizeof(*out));
	if (n == 0 || n > LG_AB_MAX_ROUNDS)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(a[i]) || !isfinite(b[i]))
			return -EINVAL;
		d[i] = b[i] - a[i];
		y[i] = (a[i] + b[i]) / 2.0;
	}
	out->n = n;
	out->mean_a = lg_stat_mean(a, n);
	out->mean_b = lg_stat_mean(b, n);
	scale = out->mean_a != 0 ? 100.0 / out->mean_a : NAN;
	out->change_pct = (out->mean_b - out->mean_a) * scale;
	out->target_pct = target_pct;
	out->mde_pct = out->ci95_lo_pct = out->ci95_hi_pct = NAN;
	out->tested = lg_stat_paired_t(d, n, &out->t) == 0 &&
		      lg_stat_signed_rank(d, n, &out->rank) == 0;
	if (out->tested) {
		out->ci95_lo_pct = out->t.diff.ci95_lo * scale;
		out->ci95_hi_pct = out->t.diff.ci95_hi * scale;
		mde = lg_stat_paired_mde(out->t.diff.stddev, n, alpha, LG_COMPARE_POWER);
		out->mde_pct = mde * fabs(scale);
		out->pairs_needed = lg_stat_pairs_needed(target_pct / fabs(scale),
							 out->t.diff.stddev, alpha,
							 LG_COMPARE_POWER, LG_AB_MAX_PLAN);
	}
	lg_ab_drift_fit(y, n, &out->drift);
	decide(out, alpha);
	return 0;
}

bool lg_ab_slower_than(const struct lg_ab_analysis *an, double alpha, double pct)
{
	return an->tested && an->t.p < alpha && an->t.diff.mean < 0 && -an->change_pct > pct;
}
