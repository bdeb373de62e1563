/* Change points by E-divisive means, and Mann-Kendall/Sen trends (see the header for
 * the method and references).
 *
 * The divergence of a split of a segment v[0..m-1] at tau, X = v[0..tau-1] (a values),
 * Y = v[tau..m-1] (k values), with d(i, j) = |v_i - v_j|:
 *
 *   E = 2 B / (a k) - WX / C(a, 2) - WY / C(k, 2),   Q = a k / (a + k) E,
 *
 * B the sum of d over pairs across the split, WX and WY over pairs inside X and Y.
 * Moving v_t from Y to X changes them by the distances from v_t to the values before
 * it (left) and after it (right): WX += left, WY -= right, B += right - left. left comes
 * from a Fenwick tree of counts and sums by rank (the values before t that are smaller,
 * and the rest); left + right is v_t's distance to all values, which depends on its
 * rank only and is computed once per segment. A permutation reorders values and ranks
 * together, so a permutation's scan costs O(m log m) like the first one.
 *
 * Each segment is tested with its own generator, seeded from the seed and the segment's
 * bounds, so the answer does not depend on the order segments are visited in. */
#include "loadgen/inference/changepoint.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rmath.h"

/* Scratch for testing one segment, sized for the whole series. */
struct scan {
	double *v;      /* the segment's values minus their mean, in scan order */
	size_t *rk;     /* rank of v[i] in the segment (ties in any order) */
	double *row;    /* row[r]: sum of distances from the value of rank r to all */
	size_t *fen_n;  /* Fenwick tree of counts by rank (1-based) */
	double *fen_s;  /* Fenwick tree of sums by rank */
	struct rank_pair { double v; size_t i; } *sorted; /* for ranking */
	double pairs;   /* sum of d over all pairs of the segment */
};

/* A split found in one segment. */
struct split {
	size_t index; /* first value of the second part, in the series */
	double q;     /* its divergence */
	double p;     /* its permutation p */
};

void lg_cp_opts_default(struct lg_cp_opts *o)
{
	*o = (struct lg_cp_opts){ .alpha = 0.01, .permutations = 499, .min_size = 5,
				  .seed = 0x6c6f616467656eULL };
}

/* splitmix64: small, fast and good enough to shuffle a few thousand values. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int cmp_rank_pair(const void *pa, const void *pb)
{
	const struct rank_pair *a = pa, *b = pb;

	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static void scan_free(struct scan *s)
{
	free(s->v);
	free(s->rk);
	free(s->row);
	free(s->fen_n);
	free(s->fen_s);
	free(s->sorted);
}

static int scan_alloc(struct scan *s, size_t n)
{
	*s = (struct scan){ 0 };
	s->v = malloc(n * sizeof(*s->v));
	s->rk = malloc(n * sizeof(*s->rk));
	s->row = malloc(n * sizeof(*s->row));
	s->fen_n = malloc((n + 1) * sizeof(*s->fen_n));
	s->fen_s = malloc((n + 1) * sizeof(*s->fen_s));
	s->sorted = malloc(n * sizeof(*s->sorted));
	if (!s->v || !s->rk || !s->row || !s->fen_n || !s->fen_s || !s->sorted) {
		scan_free(s);
		return -ENOMEM;
	}
	return 0;
}

/* Loads x[0..m-1] into the scratch: centred values (distances do not change, and
 * large values such as bytes per second keep their small differences), ranks, and
 * each rank's distance to all values from prefix sums of the sorted values. */
static void scan_load(struct scan *s, const double *x, size_t m)
{
	double mean = 0, below = 0, total = 0;

	for (size_t i = 0; i < m; i++)
		mean += x[i];
	mean /= (double)m;
	for (size_t i = 0; i < m; i++) {
		s->v[i] = x[i] - mean;
		s->sorted[i] = (struct rank_pair){ .v = s->v[i], .i = i };
		total += s->v[i];
	}
	qsort(s->sorted, m, sizeof(*s->sorted), cmp_rank_pair);
	s->pairs = 0;
	for (size_t r = 0; r < m; r++) {
		double v = s->sorted[r].v, above = total - below - v;

		s->rk[s->sorted[r].i] = r;
		s->row[r] = v * (double)r - below + above - v * (double)(m - 1 - r);
		s->pairs += s->row[r];
		below += v;
	}
	s->pairs /= 2;
}

/* The largest Q over splits leaving at least min_size values on each side, and where
 * (the size of the first part) in *tau. */
static double scan_best(struct scan *s, size_t m, size_t min_size, size_t *tau)
{
	double wx = 0, wy = s->pairs, b = 0, best = -INFINITY, sum = 0;

	memset(s->fen_n, 0, (m + 1) * sizeof(*s->fen_n));
	memset(s->fen_s, 0, (m + 1) * sizeof(*s->fen_s));
	*tau = 0;
	for (size_t t = 0; t + min_size < m; t++) {
		double v = s->v[t], sl = 0, left, right, a, k, q;
		size_t r = s->rk[t], cl = 0;

		/* the values before t with a smaller rank: Fenwick prefix 1..r */
		for (size_t j = r; j > 0; j -= j & -j) {
			cl += s->fen_n[j];
			sl += s->fen_s[j];
		}
		left = v * (double)cl - sl + (sum - sl) - v * (double)(t - cl);
		right = s->row[r] - left;
		wx += left;
		wy -= right;
		b += right - left;
		for (size_t j = r + 1; j <= m; j += j & -j) {
			s->fen_n[j]++;
			s->fen_s[j] += v;
		}
		sum += v;
		a = (double)(t + 1);
		k = (double)m - a;
		if (t + 1 < min_size)
			continue;
		q = a * k / (a + k) *
		    (2 * b / (a * k) - wx / (a * (a - 1) / 2) - wy / (k * (k - 1) / 2));
		if (q > best) {
			best = q;
			*tau = t + 1;
		}
	}
	return best;
}

/* The best split of x[lo..hi-1] and its permutation p. false when the segment is too
 * short to split or constant (then there is nothing to test). */
static bool test_segment(const double *x, size_t lo, size_t hi, const struct lg_cp_opts *o,
			 struct scan *s, struct split *out)
{
	size_t m = hi - lo, tau, dummy, count = 0;
	uint64_t rng = o->seed ^ (lo * 0x9e3779b97f4a7c15ULL) ^ (hi * 0xc2b2ae3d27d4eb4fULL);
	double q;
	bool constant = true;

	if (m < 2 * o->min_size)
		return false;
	for (size_t i = lo + 1; i < hi && constant; i++)
		constant = x[i] == x[lo];
	if (constant)
		return false;
	scan_load(s, x + lo, m);
	q = scan_best(s, m, o->min_size, &tau);
	for (unsigned p = 0; p < o->permutations; p++) {
		/* Fisher-Yates on values and their ranks together; the modulo bias of a
		 * 64-bit draw over a few thousand values is below 1e-15 */
		for (size_t i = m - 1; i > 0; i--) {
			size_t j = (size_t)(rng_next(&rng) % (i + 1));
			double tv = s->v[i];
			size_t tr = s->rk[i];

			s->v[i] = s->v[j];
			s->v[j] = tv;
			s->rk[i] = s->rk[j];
			s->rk[j] = tr;
		}
		/* a permutation as extreme as the data counts, with slack for rounding
		 * (the same arrangement summed in another order) */
		if (scan_best(s, m, o->min_size, &dummy) >= q - 1e-12 * fabs(q))
			count++;
	}
	*out = (struct split){ .index = lo + tau, .q = q,
			       .p = (double)(count + 1) / (double)(o->permutations + 1) };
	return true;
}

/* Mean and variance of the mean of x[0..n-1], n >= 2. */
static void mean_var(const double *x, size_t n, double *mean, double *var_mean)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var_mean = ss / (double)(n - 1) / (double)n;
}

/* Means, change and Fieller's 95 % interval of the ratio of after to before, the
 * segments x[lo..mid-1] and x[mid..hi-1]: the rho with (my - rho mx)^2 <= t^2 (vy +
 * rho^2 vx), t with Welch-Satterthwaite df of my - rho mx at rho = my / mx. */
static void describe(const double *x, size_t lo, size_t mid, size_t hi, struct lg_changepoint *c)
{
	double mx, vx, my, vy, r, df, t, a, root, r1, r2;

	mean_var(x + lo, mid - lo, &mx, &vx);
	mean_var(x + mid, hi - mid, &my, &vy);
	c->before_mean = mx;
	c->after_mean = my;
	c->before_n = mid - lo;
	c->after_n = hi - mid;
	r = my / mx;
	c->change_pct = 100 * (r - 1);
	if (vx == 0 && vy == 0) {
		c->ci_lo_pct = c->ci_hi_pct = c->change_pct;
		return;
	}
	df = (vy + r * r * vx) * (vy + r * r * vx) /
	     (vy * vy / (double)(c->after_n - 1) + pow(r, 4) * vx * vx / (double)(c->before_n - 1));
	t = qt(0.975, df, 1, 0);
	a = mx * mx - t * t * vx;
	if (!(a > 0)) {
		/* before's mean is within noise of 0: the interval is unbounded */
		c->ci_lo_pct = -INFINITY;
		c->ci_hi_pct = INFINITY;
		return;
	}
	root = t * sqrt(vy * a + my * my * vx);
	r1 = (mx * my - root) / a;
	r2 = (mx * my + root) / a;
	c->ci_lo_pct = 100 * (fmin(r1, r2) - 1);
	c->ci_hi_pct = 100 * (fmax(r1, r2) - 1);
}

static int cmp_split(const void *pa, const void *pb)
{
	const struct split *a = pa, *b = pb;

	return (a->index > b->index) - (a->index < b->index);
}

int lg_cp_find(const double *x, size_t n, const struct lg_cp_opts *o,
	       struct lg_changepoint *out, size_t max, size_t *nout)
{
	struct scan s;
	struct split *found = NULL, sp;
	size_t (*stack)[2] = NULL, depth = 0, nfound = 0, cap;
	int ret = 0;

	if (!x || !o || !nout || (max && !out) || !(o->alpha > 0 && o->alpha < 1) ||
	    o->permutations == 0 || o->min_size < 2)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	*nout = 0;
	if (n < 2 * o->min_size)
		return 0;
	/* segments never get shorter than min_size, so there are at most n / min_size */
	cap = n / o->min_size + 1;
	found = malloc(cap * sizeof(*found));
	stack = malloc(cap * sizeof(*stack));
	if (!found || !stack || scan_alloc(&s, n)) {
		free(found);
		free(stack);
		return -ENOMEM;
	}
	stack[depth][0] = 0;
	stack[depth++][1] = n;
	while (depth) {
		size_t lo = stack[depth - 1][0], hi = stack[depth - 1][1];

		depth--;
		if (!test_segment(x, lo, hi, o, &s, &sp) || sp.p > o->alpha)
			continue;
		found[nfound++] = sp;
		stack[depth][0] = lo;
		stack[depth++][1] = sp.index;
		stack[depth][0] = sp.index;
		stack[depth++][1] = hi;
	}
	qsort(found, nfound, sizeof(*found), cmp_split);
	for (size_t i = 0; i < nfound && i < max; i++) {
		size_t lo = i ? found[i - 1].index : 0, hi = i + 1 < nfound ? found[i + 1].index : n;

		out[i] = (struct lg_changepoint){ .index = found[i].index, .p = found[i].p,
						  .stat = found[i].q };
		describe(x, lo, found[i].index, hi, &out[i]);
	}
	*nout = nfound;
	if (nfound > max)
		ret = -ENOSPC;
	scan_free(&s);
	free(found);
	free(stack);
	return ret;
}

/* --- Mann-Kendall and Sen's slope --- */

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
