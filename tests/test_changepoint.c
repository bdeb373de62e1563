/* E-divisive change points and the Mann-Kendall trend on synthetic series: Gaussian noise
 * from a seeded xorshift and Box-Muller, so every run sees the same numbers.
 *
 * The figures in docs/change-points.md come from this file's printed lines:
 *   build/tests/test_changepoint | grep -v '^\['
 * (the false-alarm rate of test_aa over 20 and 200 series, the detection rates of
 * test_detection, the coverage of the interval of test_ci_coverage, test_timing). */
#include "loadgen/inference/changepoint.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Timings mean something only in an optimised build without sanitizers (CI also runs
 * this test at -O0 under ASan and TSan, many times slower) */
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define TIMED 1
#else
#define TIMED 0
#endif

static uint64_t rng_state;

/* xorshift64 */
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void seed(uint64_t s)
{
	rng_state = s * 0x9e3779b97f4a7c15ULL + 1;
	for (int i = 0; i < 8; i++)
		rnd();
}

/* a standard normal value by Box-Muller (one of the pair is enough here) */
static double gauss(void)
{
	double u1 = ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
	double u2 = (double)(rnd() >> 11) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* x[i] = level(i) (1 + noise N(0, 1)), level 100 changed by step_pct[j] from at[j] on */
static void series(double *x, size_t n, double noise, const size_t *at, const double *step_pct,
		   size_t steps)
{
	for (size_t i = 0; i < n; i++) {
		double level = 100;

		for (size_t j = 0; j < steps; j++)
			if (i >= at[j])
				level *= 1 + step_pct[j] / 100;
		x[i] = level * (1 + noise * gauss());
	}
}

static size_t find(const double *x, size_t n, struct lg_changepoint *cp, size_t max)
{
	struct lg_cp_opts o;
	size_t k;

	lg_cp_opts_default(&o);
	assert_int_equal(lg_cp_find(x, n, &o, cp, max, &k), 0);
	return k;
}

static void assert_near_index(size_t got, size_t want)
{
	if (got + 1 < want || got > want + 1)
		fail_msg("change point at %zu, want %zu +/- 1", got, want);
}

/* (a) one step of -10 % at 20 in 40 results with 3 % noise */
static void test_one_step(void **state)
{
	const size_t at[] = { 20 };
	const double step[] = { -10 };
	struct lg_changepoint cp[8];
	double x[40];
	size_t k;

	(void)state;
	seed(1);
	series(x, N(x), 0.03, at, step, 1);
	k = find(x, N(x), cp, N(cp));
	assert_int_equal(k, 1);
	assert_near_index(cp[0].index, 20);
	printf("# one step: at %zu, p %.3f, %.2f %% [%.2f, %.2f]\n", cp[0].index, cp[0].p,
	       cp[0].change_pct, cp[0].ci_lo_pct, cp[0].ci_hi_pct);
	assert_true(cp[0].p <= 0.01);
	assert_true(cp[0].ci_lo_pct <= cp[0].change_pct && cp[0].change_pct <= cp[0].ci_hi_pct);
	assert_true(cp[0].ci_lo_pct < -10 && -10 < cp[0].ci_hi_pct);
	assert_true(cp[0].ci_hi_pct < 0);
	assert_int_equal(cp[0].before_n + cp[0].after_n, 40);
	assert_int_equal(cp[0].before_n, cp[0].index);
}

/* (b) -10 % at 15, then +8 % at 30 */
static void test_two_steps(void **state)
{
	const size_t at[] = { 15, 30 };
	const double step[] = { -10, 8 };
	struct lg_changepoint cp[8];
	double x[40];
	size_t k;

	(void)state;
	seed(2);
	series(x, N(x), 0.03, at, step, 2);
	k = find(x, N(x), cp, N(cp));
	assert_int_equal(k, 2);
	assert_near_index(cp[0].index, 15);
	assert_near_index(cp[1].index, 30);
	assert_true(cp[0].change_pct < 0 && cp[1].change_pct > 0);
	/* adjacent segments: the second's before is the first's after */
	assert_int_equal(cp[0].after_n, cp[1].before_n);
	assert_true(cp[0].after_mean == cp[1].before_mean);
	assert_true(cp[1].ci_lo_pct < 8 && 8 < cp[1].ci_hi_pct);
}

/* the number of series out of count (40 results, 3 % noise, no step) with a change point */
static size_t aa_alarms(size_t count, uint64_t first_seed)
{
	struct lg_changepoint cp[8];
	double x[40];
	size_t alarms = 0;

	for (size_t s = 0; s < count; s++) {
		seed(first_seed + s);
		series(x, N(x), 0.03, NULL, NULL, 0);
		alarms += find(x, N(x), cp, N(cp)) > 0;
	}
	return alarms;
}

/* The divergence Q of X = x[0..tau-1] against Y = x[tau..kappa-1], from its
 * definition: O(n^2) pairs */
static double brute_q(const double *x, size_t tau, size_t kappa)
{
	double a = (double)tau, k = (double)(kappa - tau), b = 0, wx = 0, wy = 0;

	for (size_t i = 0; i < kappa; i++)
		for (size_t j = i + 1; j < kappa; j++) {
			double d = fabs(x[i] - x[j]);

			if (j < tau)
				wx += d;
			else if (i >= tau)
				wy += d;
			else
				b += d;
		}
	return a * k / (a + k) * (2 * b / (a * k) - wx / (a * (a - 1) / 2) - wy / (k * (k - 1) / 2));
}

/* The best split of x[0..n-1] by the definition, over the splits the header names: Y to
 * the end, or Y of min_size 2^j values (2^(j+1) min_size < n) */
static double brute_best(const double *x, size_t n, size_t min_size, size_t *tau,
			 size_t *kappa)
{
	double best = -INFINITY;

	for (size_t t = min_size; t + min_size <= n; t++) {
		for (size_t w = min_size; 2 * w < n; w *= 2)
			if (t + w <= n && brute_q(x, t, t + w) > best) {
				best = brute_q(x, t, t + w);
				*tau = t;
				*kappa = t + w;
			}
		if (brute_q(x, t, n) > best) {
			best = brute_q(x, t, n);
			*tau = t;
			*kappa = n;
		}
	}
	return best;
}

/* x[0..n-1] rounded to whole numbers, so that there are ties: the first split
 * lg_cp_find makes is the best by the definition, with its Q; *kappa says which kind of
 * split that is */
static void check_best_split(double *x, size_t n, size_t want_k, size_t *kappa)
{
	struct lg_changepoint cp[16];
	size_t k, tau = 0, first = 0;
	double best;

	for (size_t i = 0; i < n; i++)
		x[i] = round(x[i]);
	best = brute_best(x, n, 5, &tau, kappa);
	k = find(x, n, cp, 16);
	assert_int_equal(k, want_k);
	while (first < k && cp[first].index != tau)
		first++;
	if (first == k)
		fail_msg("no change point at %zu, the best split by the definition", tau);
	if (!(fabs(cp[first].stat - best) <= 1e-9 * best))
		fail_msg("Q %.12g, by definition %.12g", cp[first].stat, best);
}

/* The scans against the definition for each kind of split: one step (Y to the end), a
 * short excursion (Y a window of 10, summed directly) and a long one (a window of 80,
 * summed in the Fenwick tree) */
static void test_stat_brute(void **state)
{
	const size_t at[] = { 13 }, at2[] = { 9, 19 }, at3[] = { 40, 120 };
	const double step[] = { -12 }, step2[] = { -10, 11.1 }, step3[] = { -8, 8.7 };
	double x[170];
	size_t kappa;

	(void)state;
	seed(3);
	series(x, 37, 0.03, at, step, 1);
	check_best_split(x, 37, 1, &kappa);
	assert_int_equal(kappa, 37);
	seed(6);
	series(x, 37, 0.03, at2, step2, 2);
	check_best_split(x, 37, 2, &kappa);
	assert_int_equal(kappa, 19);
	seed(7);
	series(x, 170, 0.03, at3, step3, 2);
	check_best_split(x, 170, 2, &kappa);
	assert_int_equal(kappa, 120);
}

/* (f) a regression fixed 10 results later: -10 % at 15, back at 25. A second part that
 * always ran to the end of the segment would mix the 10 low results with the 15 after
 * them and miss most of these. */
static void test_excursion(void **state)
{
	const size_t at[] = { 15, 25 };
	const double step[] = { -10, 100.0 / 9 };
	struct lg_changepoint cp[8];
	double x[40];
	size_t both = 0, count = 200;

	(void)state;
	for (size_t s = 0; s < count; s++) {
		size_t k, a = 0, b = 0;

		seed(7000 + s);
		series(x, N(x), 0.03, at, step, 2);
		k = find(x, N(x), cp, N(cp));
		for (size_t i = 0; i < k; i++) {
			a |= cp[i].index + 1 >= 15 && cp[i].index <= 16;
			b |= cp[i].index + 1 >= 25 && cp[i].index <= 26;
		}
		both += a && b;
		if (s == 0) {
			assert_int_equal(k, 2);
			assert_true(a && b);
		}
	}
	printf("# excursion: -10 %% at 15, back at 25 (noise 3 %%): both ends found within 1 "
	       "in %zu of %zu\n", both, count);
	assert_true(both >= 190);
}

/* Many steps: 6 alternating steps of 5 % in 400 results (segments of 57), 50 series.
 * Binary segmentation alone sometimes gives two change points for one step (a split a
 * few results off, then the sliver cut off); the pruning of change points that their
 * adjacent segments do not support removes most of those (without it: 39 of 50). */
static void test_many_steps(void **state)
{
	struct lg_changepoint cp[64];
	double x[400];
	size_t exact = 0, total = 0, count = TIMED ? 50 : 10; /* 23 s at -O0 with ASan */

	(void)state;
	for (size_t s = 0; s < count; s++) {
		size_t k;

		seed(8000 + s);
		for (size_t i = 0; i < N(x); i++)
			x[i] = (i * 7 / N(x) % 2 ? 95 : 100) * (1 + 0.03 * gauss());
		k = find(x, N(x), cp, N(cp));
		exact += k == 6;
		total += k;
	}
	printf("# many steps: 6 steps of 5 %% in 400 results: exactly 6 found in %zu of %zu "
	       "series, %.2f on average\n", exact, count, (double)total / (double)count);
	assert_true(exact >= count * 86 / 100);
}

/* (c) A/A: no step, so every change point is a false alarm; alpha 0.01 expects 1 % */
static void test_aa(void **state)
{
	size_t a20, a200;

	(void)state;
	a20 = aa_alarms(20, 1000);
	printf("# A/A: %zu of 20 series with a change point\n", a20);
	assert_true(a20 <= 2);
	a200 = aa_alarms(200, 2000);
	printf("# A/A: %zu of 200 series with a change point (%.1f %%)\n", a200, a200 / 2.0);
	/* P(Binomial(200, 0.01) >= 8) is 0.001 */
	assert_true(a200 < 8);
	a200 = aa_alarms(1000, 3000);
	printf("# A/A: %zu of 1000 series with a change point (%.1f %%)\n", a200, a200 / 10.0);
	/* P(Binomial(1000, 0.01) >= 20) is 0.003; and a permutation test far more
	 * conservative than its alpha would be a bug too (P(<= 2) is 0.003) */
	assert_true(a200 > 2 && a200 < 20);
}

/* (d) a slow drift of -0.5 % of the start per result: E-divisive cuts it into steps
 * (it has no other way to describe it), the trend test calls it a drift */
static void test_drift(void **state)
{
	struct lg_changepoint cp[8];
	struct lg_cp_trend t;
	double x[40], truth;
	size_t k;

	(void)state;
	seed(4);
	for (size_t i = 0; i < N(x); i++)
		x[i] = (100 - 0.5 * (double)i) * (1 + 0.03 * gauss());
	k = find(x, N(x), cp, N(cp));
	assert_int_equal(lg_cp_trend(x, N(x), &t), 0);
	/* the slope relative to the series' mean, 100 - 0.5 * 19.5 */
	truth = -0.5 / 90.25 * 100;
	printf("# drift: %zu change points; trend %.3f %%/result [%.3f, %.3f], p %.2g "
	       "(truth %.3f)\n", k, t.slope_pct, t.ci_lo_pct, t.ci_hi_pct, t.p, truth);
	assert_true(k >= 1);
	for (size_t i = 0; i < k; i++)
		assert_true(cp[i].change_pct < 0);
	assert_true(t.p < 0.001);
	assert_true(t.ci_lo_pct < truth && truth < t.ci_hi_pct);
	assert_true(t.ci_hi_pct < 0);
	assert_int_equal(t.n, 40);

	/* and no trend in a flat series */
	seed(5);
	series(x, N(x), 0.03, NULL, NULL, 0);
	assert_int_equal(lg_cp_trend(x, N(x), &t), 0);
	assert_true(t.p > 0.05);
	assert_true(t.ci_lo_pct < 0 && 0 < t.ci_hi_pct);
}

/* The trend of two fixed series against the same computation written out in Python
 * (statistics.NormalDist), independently of this code. x has ties (values and slopes):
 * S -46, Var(S) 208.667, p 0.0018382004675736585, Sen -0.52777..., interval
 * [-0.666..., -0.333...], mean 97.41666...; up rises with no tie among its slopes:
 * S 67, Var(S) 408.333, p 0.0010901934763789534. */
static void test_trend_values(void **state)
{
	const double x[] = { 100, 99, 101, 98, 98, 97, 99, 96, 95, 97, 94, 95 };
	const double up[] = { 49.616, 51.067, 50.261, 50.427, 49.805, 51.18, 53.468, 52.736,
			      53.955, 53.073, 53.592, 53.578, 51.101, 55.183, 54.96 };
	const double flat[] = { 3, 3, 3, 3 };
	const double bad[] = { 1, NAN, 2 };
	struct lg_cp_trend t;

	(void)state;
	assert_int_equal(lg_cp_trend(x, N(x), &t), 0);
	assert_true(t.s == -46);
	assert_true(fabs(t.p - 0.0018382004675736585) < 1e-12);
	assert_true(fabs(t.slope_pct - -0.5417735956658112) < 1e-12);
	assert_true(fabs(t.ci_lo_pct - -0.6843455945252351) < 1e-12);
	assert_true(fabs(t.ci_hi_pct - -0.34217279726261757) < 1e-12);
	assert_int_equal(lg_cp_trend(up, N(up), &t), 0);
	assert_true(t.s == 67);
	assert_true(fabs(t.p - 0.0010901934763789534) < 1e-12);
	assert_true(fabs(t.slope_pct - 0.7203425501465559) < 1e-12);
	assert_true(fabs(t.ci_lo_pct - 0.3888395533838095) < 1e-12);
	assert_true(fabs(t.ci_hi_pct - 0.9068117109022987) < 1e-12);
	assert_int_equal(lg_cp_trend(flat, N(flat), &t), 0);
	assert_true(t.p == 1 && t.slope_pct == 0 && t.ci_lo_pct == 0 && t.ci_hi_pct == 0);
	assert_int_equal(lg_cp_trend(x, 2, &t), -EINVAL);
	assert_int_equal(lg_cp_trend(bad, N(bad), &t), -EINVAL);
	assert_int_equal(lg_cp_trend(x, LG_CP_TREND_MAX + 1, &t), -E2BIG);
}

/* The 95 % interval of the change covers the true change in about 95 % of series. A
 * step this large is always found where it is; a series where a second, false split
 * (alpha in each half) changed the segments is left out of the count. */
static void test_ci_coverage(void **state)
{
	const size_t at[] = { 20 };
	const double step[] = { -30 };
	struct lg_changepoint cp[8];
	double x[40];
	size_t covered = 0, count = 0, extra = 0;

	(void)state;
	for (size_t s = 0; s < 400; s++) {
		size_t k;

		seed(5000 + s);
		series(x, N(x), 0.03, at, step, 1);
		k = find(x, N(x), cp, N(cp));
		assert_true(k >= 1);
		if (k > 1) {
			extra++;
			continue;
		}
		assert_int_equal(cp[0].index, 20);
		count++;
		covered += cp[0].ci_lo_pct < -30 && -30 < cp[0].ci_hi_pct;
	}
	printf("# interval coverage: %zu of %zu (%.1f %%); %zu series with an extra split\n",
	       covered, count, 100.0 * (double)covered / (double)count, extra);
	assert_true(extra <= 12);
	/* 92 % to 98 % */
	assert_true(covered >= count * 92 / 100 && covered <= count * 98 / 100);
}

/* How often a step of a given size is found in 40 results (3 % noise, step at 20),
 * within one result of where it is: figures for the docs, loosely asserted. */
static void test_detection(void **state)
{
	const double steps[] = { -3, -5, -10 };
	const size_t at[] = { 20 };
	struct lg_changepoint cp[8];
	double x[40];

	(void)state;
	for (size_t j = 0; j < N(steps); j++) {
		size_t found = 0, near = 0, count = 200;

		for (size_t s = 0; s < count; s++) {
			size_t k;

			seed(9000 + s);
			series(x, N(x), 0.03, at, &steps[j], 1);
			k = find(x, N(x), cp, N(cp));
			found += k > 0;
			for (size_t i = 0; i < k; i++)
				if (cp[i].index + 1 >= 20 && cp[i].index <= 21) {
					near++;
					break;
				}
		}
		printf("# detection: step %g %% (noise 3 %%, 20+20): found in %zu of %zu, "
		       "within 1 of the step in %zu\n", steps[j], found, count, near);
		if (steps[j] == -10)
			assert_true(found == count && near >= 190);
	}
}

/* (e) short, constant and bad input; options out of range; too small an out array */
static void test_edges(void **state)
{
	const size_t at[] = { 20 };
	const double step[] = { -10 };
	struct lg_changepoint cp[8];
	struct lg_cp_opts o, bad;
	double x[40], c[40];
	size_t k = 99;

	(void)state;
	lg_cp_opts_default(&o);
	seed(1);
	series(x, N(x), 0.03, at, step, 1);
	assert_int_equal(lg_cp_find(x, 2 * o.min_size - 1, &o, cp, N(cp), &k), 0);
	assert_int_equal(k, 0);
	assert_int_equal(lg_cp_find(x, 0, &o, cp, N(cp), &k), 0);
	assert_int_equal(k, 0);
	for (size_t i = 0; i < N(c); i++)
		c[i] = 42.5;
	assert_int_equal(lg_cp_find(c, N(c), &o, cp, N(cp), &k), 0);
	assert_int_equal(k, 0);
	c[7] = NAN;
	assert_int_equal(lg_cp_find(c, N(c), &o, cp, N(cp), &k), -EINVAL);
	c[7] = INFINITY;
	assert_int_equal(lg_cp_find(c, N(c), &o, cp, N(cp), &k), -EINVAL);
	bad = o;
	bad.min_size = 1;
	assert_int_equal(lg_cp_find(x, N(x), &bad, cp, N(cp), &k), -EINVAL);
	bad = o;
	bad.alpha = 0;
	assert_int_equal(lg_cp_find(x, N(x), &bad, cp, N(cp), &k), -EINVAL);
	bad = o;
	bad.permutations = 0;
	assert_int_equal(lg_cp_find(x, N(x), &bad, cp, N(cp), &k), -EINVAL);
	assert_int_equal(lg_cp_find(x, N(x), &o, NULL, 0, &k), -ENOSPC);
	assert_int_equal(k, 1);
	/* a benchmark that failed: 0 from 20 on; the interval of -100 % is -100 % */
	for (size_t i = 20; i < N(c); i++)
		c[i] = 0;
	for (size_t i = 0; i < 20; i++)
		c[i] = x[i];
	assert_int_equal(lg_cp_find(c, N(c), &o, cp, N(cp), &k), 0);
	assert_int_equal(k, 1);
	assert_int_equal(cp[0].index, 20);
	assert_true(cp[0].change_pct == -100 && cp[0].ci_lo_pct == -100 &&
		    cp[0].ci_hi_pct == -100);
	/* the same seed, the same answer; min_size 2 still works */
	o.min_size = 2;
	assert_int_equal(lg_cp_find(x, N(x), &o, cp, N(cp), &k), 0);
	assert_true(k >= 1);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* n = 2,000 with four steps, defaults: well under 2 s; the place of each; and the time
 * with 0, 10 and 30 steps of 5 % for the header's figures */
static void test_timing(void **state)
{
	const size_t at[] = { 400, 900, 1300, 1700 }, many[] = { 0, 10, 30 };
	const double step[] = { -5, 5, -3, 4 };
	struct lg_changepoint cp[64];
	struct lg_cp_trend t;
	size_t n = 2000, k, k4;
	double *x = malloc(n * sizeof(*x)), t0, t1, t2;

	(void)state;
	assert_non_null(x);
	seed(77);
	series(x, n, 0.03, at, step, N(at));
	t0 = seconds();
	k = find(x, n, cp, N(cp));
	t1 = seconds();
	assert_int_equal(lg_cp_trend(x, n, &t), 0);
	t2 = seconds();
	printf("# timing: n %zu, %zu change points in %.3f s; trend in %.3f s\n", n, k,
	       t1 - t0, t2 - t1);
	for (size_t i = 0; i < k; i++)
		printf("#   at %zu: %+.2f %% [%+.2f, %+.2f], p %.3f\n", cp[i].index,
		       cp[i].change_pct, cp[i].ci_lo_pct, cp[i].ci_hi_pct, cp[i].p);
	for (size_t j = 0; j < N(at) && j < k; j++)
		if (cp[j].index + 10 < at[j] || cp[j].index > at[j] + 10)
			k = 0;
	k4 = k;
	if (!TIMED) {
		free(x);
		assert_int_equal(k4, N(at));
		return;
	}
	for (size_t j = 0; j < N(many); j++) {
		seed(78);
		for (size_t i = 0; i < n; i++)
			x[i] = (i * (many[j] + 1) / n % 2 ? 95 : 100) * (1 + 0.03 * gauss());
		t0 = seconds();
		k = find(x, n, cp, N(cp));
		printf("# timing: n %zu, %zu steps of 5 %%: %zu change points in %.3f s\n", n,
		       many[j], k, seconds() - t0);
	}
	free(x);
	/* each step found within 10 of its place (k set to 0 above otherwise) */
	assert_int_equal(k4, N(at));
	/* the plain build takes a fifth of this on 2 shared cores */
	assert_true(t1 - t0 < 2 && t2 - t1 < 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_step),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_stat_brute),
		cmocka_unit_test(test_excursion),
		cmocka_unit_test(test_many_steps),
		cmocka_unit_test(test_aa),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_trend_values),
		cmocka_unit_test(test_ci_coverage),
		cmocka_unit_test(test_detection),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_timing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
