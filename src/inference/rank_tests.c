/* Rank tests and the paired t-test: checks that do not assume normal per-run values.
 *
 * Ranks are computed by counting (O(n^2)): comparisons have tens of runs, and counting
 * needs no scratch memory. The statistics and p-values follow R's wilcox.test: the exact
 * distribution (pwilcox, psignrank) without ties for n < 50, else the normal
 * approximation with the tie and continuity corrections. */
#include "loadgen/inference/inference.h"

#include <errno.h>
#include <math.h>

#include "rmath.h"

#define EXACT_MAX 50 /* R's limit for the exact distributions */

static bool all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

/* The value of element i of the concatenation a ++ b. */
static double at(const double *a, size_t na, const double *b, size_t i)
{
	return i < na ? a[i] : b[i - na];
}

/* Mid-rank of v among the n values of a ++ b, and how many equal it. */
static double mid_rank(const double *a, size_t na, const double *b, size_t n, double v,
		       double *ties)
{
	double less = 0, equal = 0;

	for (size_t j = 0; j < n; j++) {
		double w = at(a, na, b, j);

		less += w < v;
		equal += w == v;
	}
	*ties = equal;
	return less + (equal + 1.0) / 2.0;
}

/* Two-sided p of a normal statistic z (already centred), with continuity correction. */
static double normal_p(double z, double sigma)
{
	double c = z > 0 ? 0.5 : (z < 0 ? -0.5 : 0.0);

	if (!(sigma > 0))
		return 1.0;
	z = (z - c) / sigma;
	return fmin(1.0, 2.0 * fmin(pnorm(z, 0, 1, 1, 0), pnorm(z, 0, 1, 0, 0)));
}

int lg_stat_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			 struct lg_rank_test *out)
{
	size_t n = na + nb;
	double ranks_a = 0, tie_sum = 0, m = (double)na, k = (double)nb, u, p, sigma;

	if (!a || !b || na == 0 || nb == 0 || !all_finite(a, na) || !all_finite(b, nb))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		double t, r = mid_rank(a, na, b, n, at(a, na, b, i), &t);

		ranks_a += i < na ? r : 0;
		tie_sum += t * t - 1.0; /* summed over a group of t: t^3 - t */
	}
	u = ranks_a - m * (m + 1.0) / 2.0;
	out->stat = u;
	out->exact = na < EXACT_MAX && nb < EXACT_MAX && tie_sum == 0;
	out->min_p = fmin(1.0, 2.0 * pwilcox(0, m, k, 1, 0));
	if (out->exact) {
		p = u > m * k / 2.0 ? pwilcox(u - 1.0, m, k, 0, 0) : pwilcox(u, m, k, 1, 0);
		out->p = fmin(1.0, 2.0 * p);
		return 0;
	}
	sigma = sqrt(m * k / 12.0 * ((m + k + 1.0) - tie_sum / ((m + k) * (m + k - 1.0))));
	out->p = normal_p(u - m * k / 2.0, sigma);
	return 0;
}

int lg_stat_signed_rank(const double *d, size_t n, struct lg_rank_test *out)
{
	double v = 0, tie_sum = 0, nz = 0, p, sigma;

	if (!d || !all_finite(d, n))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		nz += d[i] != 0;
	for (size_t i = 0; i < n; i++) {
		double less = 0, equal = 0, ai = fabs(d[i]);

		if (d[i] == 0)
			continue;
		for (size_t j = 0; j < n; j++) {
			if (d[j] == 0)
				continue;
			less += fabs(d[j]) < ai;
			equal += fabs(d[j]) == ai;
		}
		v += d[i] > 0 ? less + (equal + 1.0) / 2.0 : 0;
		tie_sum += equal * equal - 1.0;
	}
	out->stat = v;
	out->exact = nz < EXACT_MAX && tie_sum == 0 && nz == (double)n;
	out->min_p = nz > 0 ? fmin(1.0, 2.0 * psignrank(0, nz, 1, 0)) : 1.0;
	if (nz == 0) {
		out->p = 1.0;
		return 0;
	}
	if (out->exact) {
		p = v > nz * (nz + 1.0) / 4.0 ? psignrank(v - 1.0, nz, 0, 0)
					      : psignrank(v, nz, 1, 0);
		out->p = fmin(1.0, 2.0 * p);
		return 0;
	}
	sigma = sqrt(nz * (nz + 1.0) * (2.0 * nz + 1.0) / 24.0 - tie_sum / 48.0);
	out->p = normal_p(v - nz * (nz + 1.0) / 4.0, sigma);
	return 0;
}

int lg_stat_paired_t(const double *d, size_t n, struct lg_paired_t *out)
{
	struct lg_paired_t r = { 0 };

	if (n < 2 || lg_stat_summarize(d, n, &r.diff) != 0)
		return -EINVAL;
	r.df = (double)(n - 1);
	if (!(r.diff.stddev > 0)) {
		/* Every difference the same: certain unless they are all zero. */
		r.t = r.diff.mean == 0 ? 0.0 : copysign(INFINITY, r.diff.mean);
		r.p = r.diff.mean == 0 ? 1.0 : 0.0;
	} else {
		r.t = r.diff.mean / (r.diff.stddev / sqrt((double)n));
		r.p = lg_stat_t_two_sided(r.t, r.df);
	}
	*out = r;
	return 0;
}
