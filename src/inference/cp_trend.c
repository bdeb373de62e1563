/* The Mann-Kendall trend test and Sen's slope of a series (lg_cp_trend, declared in
 * changepoint.h with the change points it complements).
 *
 * S counts rising minus falling pairs; its variance under no trend is n (n - 1) (2n + 5)
 * / 18 less what groups of tied values take away, and p comes from the normal
 * approximation with continuity correction. Sen's slope is the median of the n (n - 1)
 * / 2 pairwise slopes, its interval two order statistics of them (Gilbert 1987): they
 * are found by selection (expected O(N)) rather than by sorting all of them. */
#include "loadgen/inference/changepoint.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rmath.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Partially orders a[0..n-1] so that a[k] is its k-th smallest (0-based), with nothing
 * larger before it and nothing smaller after it (Hoare's selection). */
static double select_kth(double *a, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (lo < hi) {
		double x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi];
		double pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
		ptrdiff_t i = lo, j = hi;

		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				double t = a[i];

				a[i++] = a[j];
				a[j--] = t;
			}
		}
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			break;
	}
	return a[k];
}

/* The order statistic at 0-based position pos of a[0..n-1], interpolated linearly
 * between neighbours when pos is fractional; pos is clamped to [0, n-1]. */
static double order_stat(double *a, size_t n, double pos)
{
	size_t k;
	double v, next, f;

	pos = fmin(fmax(pos, 0), (double)(n - 1));
	k = (size_t)pos;
	f = pos - (double)k;
	v = select_kth(a, n, k);
	if (f == 0 || k + 1 >= n)
		return v;
	next = a[k + 1];
	for (size_t i = k + 2; i < n; i++)
		next = fmin(next, a[i]);
	return v + f * (next - v);
}

int lg_cp_trend(const double *x, size_t n, struct lg_cp_trend *out)
{
	double *slopes, *sorted, s = 0, var, mean = 0, sd, z, npairs, c, slope, lo, hi;
	size_t np = 0;

	if (!x || !out || n < 3)
		return -EINVAL;
	if (n > LG_CP_TREND_MAX)
		return -E2BIG;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -EINVAL;
		mean += x[i];
	}
	mean /= (double)n;
	npairs = (double)n * (double)(n - 1) / 2;
	slopes = malloc((size_t)npairs * sizeof(*slopes));
	sorted = malloc(n * sizeof(*sorted));
	if (!slopes || !sorted) {
		free(slopes);
		free(sorted);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double d = x[j] - x[i];

			s += (d > 0) - (d < 0);
			slopes[np++] = d / (double)(j - i);
		}
	/* Var(S) under no trend, less what groups of tied values take away */
	var = (double)n * (double)(n - 1) * (double)(2 * n + 5);
	memcpy(sorted, x, n * sizeof(*x));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	for (size_t i = 0, j; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && sorted[j] == sorted[i]; j++)
			;
		t = (double)(j - i);
		var -= t * (t - 1) * (2 * t + 5);
	}
	var /= 18;
	sd = sqrt(fmax(var, 0));
	z = s > 0 ? (s - 1) / sd : s < 0 ? (s + 1) / sd : 0;
	/* Sen's interval: the slopes of ranks (N - C) / 2 and (N + C) / 2 + 1 (1-based),
	 * C = z(0.975) sd(S) */
	c = qnorm(0.975, 0, 1, 1, 0) * sd;
	slope = np % 2 ? order_stat(slopes, np, (double)(np / 2))
		       : (order_stat(slopes, np, (double)(np / 2 - 1)) +
			  order_stat(slopes, np, (double)(np / 2))) / 2;
	lo = order_stat(slopes, np, (npairs - c) / 2 - 1);
	hi = order_stat(slopes, np, (npairs + c) / 2);
	*out = (struct lg_cp_trend){
		.n = n, .s = s,
		.p = sd > 0 ? fmin(1, 2 * pnorm(-fabs(z), 0, 1, 1, 0)) : 1,
		.slope_pct = 100 * slope / mean,
		.ci_lo_pct = 100 * (mean > 0 ? lo : hi) / mean,
		.ci_hi_pct = 100 * (mean > 0 ? hi : lo) / mean,
	};
	if (mean == 0)
		out->slope_pct = out->ci_lo_pct = out->ci_hi_pct = NAN;
	free(slopes);
	free(sorted);
	return 0;
}
