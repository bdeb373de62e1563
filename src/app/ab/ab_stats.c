/* loadgen ab's statistics: the paired analysis of the per-round differences, Holm's
 * adjustment across comparisons, and the drift all variants share.
 *
 * The verdict comes from the paired t-test (as compare's comes from Welch's), its p
 * Holm-adjusted when several variants are compared with A, so that the chance of any
 * false "faster" or "slower" stays at alpha; the signed-rank test is its check that
 * does not assume normal differences. The drift is the least-squares slope of the
 * per-round mean of the variants: it is what two separate batches would have mistaken
 * for a difference, and pairing removes it. (The order of the rounds: ab_order.c.) */
#include "loadgen/app/ab.h"

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

/* The verdict (on the adjusted p) and its check: whether the signed-rank test agrees
 * with the t-test, both unadjusted (it checks the t-test's assumption, not the family). */
static void decide(struct lg_ab_analysis *an, double alpha)
{
	an->verdict = !an->tested ? LG_VERDICT_NONE
		      : !(an->p_adjusted < alpha) ? LG_VERDICT_SAME
		      : an->t.diff.mean > 0 ? LG_VERDICT_FASTER : LG_VERDICT_SLOWER;
	an->rank_disagrees = an->tested && an->rank.min_p < alpha &&
			     (an->rank.p < alpha) != (an->t.p < alpha);
}

/* How many of p[0..m-1] are below x (NaN never is). */
static size_t count_below(const double *p, size_t m, double x)
{
	size_t k = 0;

	for (size_t i = 0; i < m; i++)
		k += p[i] < x;
	return k;
}

/* Holm in the form that needs no sorting (m is small): adj_i is the largest
 * (n - rank_j) p_j over the p_j <= p_i, where rank_j counts the p's below p_j. Tied p's
 * share the lowest rank, which is the largest factor, as R's cumulative maximum gives. */
void lg_ab_holm(const double *p, size_t m, double *adj)
{
	size_t n = count_below(p, m, INFINITY);

	for (size_t i = 0; i < m; i++) {
		double worst = 0;

		for (size_t j = 0; j < m; j++)
			if (p[j] <= p[i])
				worst = fmax(worst, (double)(n - count_below(p, m, p[j])) * p[j]);
		adj[i] = p[i] < INFINITY ? fmin(1.0, worst) : NAN;
	}
}

void lg_ab_adjust(struct lg_ab_analysis *an, size_t m, double alpha)
{
	double p[LG_AB_MAX_VARIANTS] = { 0 }, adj[LG_AB_MAX_VARIANTS];

	m = m < LG_AB_MAX_VARIANTS ? m : LG_AB_MAX_VARIANTS;
	for (size_t i = 0; i < m; i++)
		p[i] = an[i].tested ? an[i].t.p : NAN;
	lg_ab_holm(p, m, adj);
	for (size_t i = 0; i < m; i++) {
		an[i].p_adjusted = adj[i];
		decide(&an[i], alpha);
	}
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
	out->mde_pct = out->ci95_lo_pct = out->ci95_hi_pct = out->p_adjusted = NAN;
	out->tested = lg_stat_paired_t(d, n, &out->t) == 0 &&
		      lg_stat_signed_rank(d, n, &out->rank) == 0;
	if (out->tested) {
		out->p_adjusted = out->t.p;
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
	return an->tested && an->p_adjusted < alpha && an->t.diff.mean < 0 &&
	       -an->change_pct > pct;
}
