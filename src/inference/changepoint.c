/* Change points by E-divisive means (see the header for the method and references; the
 * trend test is in cp_trend.c).
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
 * A window Y = v[tau..tau+w-1] slides the same way: its inner sum changes by the
 * distances of the value leaving and of the value coming in to the rest of the window,
 * and the sum across is wx[tau+w] - wx[tau] - (window's inner sum), from the prefix sums
 * wx of the first pass.
 *
 * Each segment is tested with its own generator, seeded from the seed and the segment's
 * bounds, so the answer does not depend on the order segments are visited in. */
#include "loadgen/inference/changepoint.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rmath.h"

/* Scratch for testing one segment, sized for the whole series. */
struct scan {
	double *v;      /* the segment's values minus their mean, in scan order */
	size_t *rk;     /* rank of v[i] in the segment (ties in any order) */
	double *row;    /* row[r]: sum of distances from the value of rank r to all */
	double *wx;     /* wx[t]: sum of d over pairs inside v[0..t-1], t <= m */
	struct fen { double n, sum; } *fen; /* Fenwick tree of counts and sums by rank
					       (1-based) */
	struct rank_pair { double v; size_t i; } *sorted; /* for ranking */
	double pairs;   /* sum of d over all pairs of the segment */
};

/* A split found in one segment. */
struct split {
	size_t index; /* first value of the second part, in the series */
	double q;     /* its divergence */
	double p;     /* its permutation p */
	double adj_p; /* p of Q at index against its adjacent segments (prune) */
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
	free(s->wx);
	free(s->fen);
	free(s->sorted);
}

static int scan_alloc(struct scan *s, size_t n)
{
	*s = (struct scan){ 0 };
	s->v = malloc(n * sizeof(*s->v));
	s->rk = malloc(n * sizeof(*s->rk));
	s->row = malloc(n * sizeof(*s->row));
	s->wx = malloc((n + 1) * sizeof(*s->wx));
	s->fen = malloc((n + 1) * sizeof(*s->fen));
	s->sorted = malloc(n * sizeof(*s->sorted));
	if (!s->v || !s->rk || !s->row || !s->wx || !s->fen || !s->sorted) {
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

/* The distance from v (of rank r) to the values in the Fenwick tree: those of smaller
 * rank are below it, the rest (of count n and sum sum together) above it. */
static double fen_dist(const struct scan *s, double v, size_t r, double n, double sum)
{
	double cl = 0, sl = 0;

	for (size_t j = r; j > 0; j -= j & -j) {
		cl += s->fen[j].n;
		sl += s->fen[j].sum;
	}
	return v * cl - sl + (sum - sl) - v * (n - cl);
}

/* Puts v (of rank r) into the tree (sign 1) or takes it out (sign -1). */
static void fen_add(struct scan *s, size_t m, double v, size_t r, double sign)
{
	for (size_t j = r + 1; j <= m; j += j & -j) {
		s->fen[j].n += sign;
		s->fen[j].sum += sign * v;
	}
}

/* Q of X = v[0..a-1] and Y (k values) from the sums of distances inside X (wx), inside
 * Y (wy) and across (b) */
static double divergence(double a, double k, double wx, double wy, double b)
{
	return a * k / (a + k) * (2 * b / (a * k) - wx / (a * (a - 1) / 2) -
				  wy / (k * (k - 1) / 2));
}

/* Windows up to this wide are summed directly: w - 1 distances are fewer operations
 * than a Fenwick tree's 4 log m. */
#define SHORT_WINDOW 40

/* The largest Q of X = v[0..t-1] against the window Y = v[t..t+w-1], over t >= min_size,
 * and its t in *tau; the window's inner sum slides by the distances of the value
 * leaving and the value coming in to the rest. */
static double window_short(struct scan *s, size_t m, size_t min_size, size_t w, size_t *tau)
{
	const double *v = s->v;
	double ww = 0, best = -INFINITY;

	for (size_t i = min_size; i < min_size + w; i++)
		for (size_t j = i + 1; j < min_size + w; j++)
			ww += fabs(v[i] - v[j]);
	for (size_t t = min_size;; t++) {
		double q = divergence((double)t, (double)w, s->wx[t], ww,
				      s->wx[t + w] - s->wx[t] - ww);

		if (q > best) {
			best = q;
			*tau = t;
		}
		if (t + w >= m)
			return best;
		for (size_t j = t + 1; j < t + w; j++)
			ww += fabs(v[t + w] - v[j]) - fabs(v[t] - v[j]);
	}
}

/* The same with the window's values in the Fenwick tree. */
static double window_fenwick(struct scan *s, size_t m, size_t min_size, size_t w, size_t *tau)
{
	double ww = 0, sum = 0, best = -INFINITY;

	memset(s->fen, 0, (m + 1) * sizeof(*s->fen));
	for (size_t t = min_size; t < min_size + w; t++) {
		ww += fen_dist(s, s->v[t], s->rk[t], (double)(t - min_size), sum);
		fen_add(s, m, s->v[t], s->rk[t], 1);
		sum += s->v[t];
	}
	for (size_t t = min_size;; t++) {
		double q = divergence((double)t, (double)w, s->wx[t], ww,
				      s->wx[t + w] - s->wx[t] - ww);

		if (q > best) {
			best = q;
			*tau = t;
		}
		if (t + w >= m)
			return best;
		fen_add(s, m, s->v[t], s->rk[t], -1);
		sum -= s->v[t];
		ww -= fen_dist(s, s->v[t], s->rk[t], (double)(w - 1), sum);
		ww += fen_dist(s, s->v[t + w], s->rk[t + w], (double)(w - 1), sum);
		fen_add(s, m, s->v[t + w], s->rk[t + w], 1);
		sum += s->v[t + w];
	}
}

/* The largest Q of a split at tau (the size of X = v[0..tau-1]) with Y = v[tau..kappa-1],
 * each at least min_size long, and where (tau) in *tau; or, when fixed is not 0, Q of
 * the split at tau = fixed with kappa = m. kappa is m (Y runs to the end) or
 * tau + w for the widths w = min_size 2^j below m / 2: Matteson & James search every
 * kappa, which costs m^2 per scan; the grid costs m log m per width and still finds a
 * short excursion (a regression fixed a few results later), which a Y running to the
 * end dilutes. */
static double scan_best(struct scan *s, size_t m, size_t min_size, size_t fixed, size_t *tau)
{
	double wy = s->pairs, b = 0, best = -INFINITY, sum = 0;

	memset(s->fen, 0, (m + 1) * sizeof(*s->fen));
	*tau = 0;
	s->wx[0] = 0;
	for (size_t t = 0; t < m; t++) {
		double v = s->v[t], left, right, q;
		size_t r = s->rk[t];

		left = fen_dist(s, v, r, (double)t, sum);
		right = s->row[r] - left;
		s->wx[t + 1] = s->wx[t] + left;
		wy -= right;
		b += right - left;
		fen_add(s, m, v, r, 1);
		sum += v;
		if (fixed && t + 1 == fixed)
			return divergence((double)fixed, (double)(m - fixed), s->wx[t + 1], wy, b);
		if (fixed || t + 1 < min_size || t + 1 + min_size > m)
			continue;
		q = divergence((double)(t + 1), (double)(m - t - 1), s->wx[t + 1], wy, b);
		if (q > best) {
			best = q;
			*tau = t + 1;
		}
	}
	for (size_t w = min_size; 2 * w < m; w *= 2) {
		size_t t = 0;
		double q = w <= SHORT_WINDOW ? window_short(s, m, min_size, w, &t)
					     : window_fenwick(s, m, min_size, w, &t);

		if (q > best) {
			best = q;
			*tau = t;
		}
	}
	return best;
}

/* The permutation p of q, the statistic of the segment loaded in s (m values): the
 * share of shuffles, the data counted, whose statistic (the best split's Q, or Q at the
 * split fixed) is at least q. p <= alpha allows at most alpha (P + 1) - 1 shuffles as
 * extreme as the data; once more are seen p cannot reach alpha and the rest are skipped
 * (most tests are of segments with nothing left to find), so only a p <= alpha is exact. */
static double perm_p(struct scan *s, size_t m, double q, size_t fixed,
		     const struct lg_cp_opts *o, uint64_t rng)
{
	double limit = o->alpha * (double)(o->permutations + 1) - 1;
	size_t count = 0, dummy;
	unsigned done;

	for (done = 0; done < o->permutations && (double)count <= limit; done++) {
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
		/* a shuffle as extreme as the data counts, with slack for rounding (the
		 * same arrangement summed in another order) */
		if (scan_best(s, m, o->min_size, fixed, &dummy) >= q - 1e-12 * fabs(q))
			count++;
	}
	return (double)(count + 1) / (double)(done + 1);
}

/* The best split of x[lo..hi-1] and its permutation p. false when the segment is too
 * short to split or constant (then there is nothing to test). */
static bool test_segment(const double *x, size_t lo, size_t hi, const struct lg_cp_opts *o,
			 struct scan *s, struct split *out)
{
	size_t m = hi - lo, tau;
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
	q = scan_best(s, m, o->min_size, 0, &tau);
	*out = (struct split){ .index = lo + tau, .q = q, .p = perm_p(s, m, q, 0, o, rng) };
	return true;
}

/* The permutation p of Q at the split mid of x[lo..hi-1]. */
static double test_fixed(const double *x, size_t lo, size_t mid, size_t hi,
			 const struct lg_cp_opts *o, struct scan *s)
{
	uint64_t rng = ~o->seed ^ (lo * 0x9e3779b97f4a7c15ULL) ^
		       (mid * 0xd6e8feb86659fd93ULL) ^ (hi * 0xc2b2ae3d27d4eb4fULL);
	size_t dummy;
	double q;

	scan_load(s, x + lo, hi - lo);
	q = scan_best(s, hi - lo, o->min_size, mid - lo, &dummy);
	return perm_p(s, hi - lo, q, mid - lo, o, rng);
}

/* Binary segmentation can split a few results off a step and then cut the sliver off
 * again, which gives two change points for one step. So once every split is made, each
 * change point is tested at its place against its two adjacent segments; the least
 * supported one with p > alpha is dropped (its segments merge), its neighbours are
 * tested again, until every one left has p <= alpha. found[0..*n-1] is sorted. */
static void prune(const double *x, size_t len, const struct lg_cp_opts *o, struct scan *s,
		  struct split *found, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		found[i].adj_p = NAN;
	for (;;) {
		size_t worst = SIZE_MAX;

		for (size_t i = 0; i < *n; i++) {
			size_t lo = i ? found[i - 1].index : 0;
			size_t hi = i + 1 < *n ? found[i + 1].index : len;

			if (isnan(found[i].adj_p))
				found[i].adj_p = test_fixed(x, lo, found[i].index, hi, o, s);
			if (found[i].adj_p > o->alpha &&
			    (worst == SIZE_MAX || found[i].adj_p > found[worst].adj_p))
				worst = i;
		}
		if (worst == SIZE_MAX)
			return;
		memmove(found + worst, found + worst + 1, (*n - worst - 1) * sizeof(*found));
		(*n)--;
		if (worst > 0)
			found[worst - 1].adj_p = NAN;
		if (worst < *n)
			found[worst].adj_p = NAN;
	}
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
	if (!(df > 0)) /* after constant at 0 (a benchmark that failed): before's df */
		df = (double)(c->before_n - 1);
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

	if (!x || !o || !nout || (max && !out) || !(o->alpha < 1) || o->permutations == 0 ||
	    !(o->alpha * (double)(o->permutations + 1) >= 1) || o->min_size < 2)
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
	prune(x, n, o, &s, found, &nfound);
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
