/* loadgen ab's pairing and statistics (src/app/ab/ab_stats.c, the paired power in
 * src/inference/power.c) against independently computed values.
 *
 * Reference numbers were computed with SciPy 1.x (Debian python3-scipy), code shared
 * with loadgen: none (SciPy uses Boost's distributions, loadgen R's):
 *   stats.ttest_rel(b, a)                  -> the paired t and p
 *   stats.wilcoxon(b - a, method='exact')  -> the exact signed-rank p (no ties), and
 *   method='approx', correction=True with ties, as R's wilcox.test
 *   stats.t.interval(0.95, n-1, mean, sd/sqrt(n)) -> the CI of the mean difference
 *   power(delta) = nct.sf(tc, n-1, ncp) + nct.cdf(-tc, n-1, ncp), tc = t.ppf(0.975, n-1),
 *   ncp = delta / (sd / sqrt(n)); the MDE by brentq(power - 0.8), pairs needed by counting
 *   stats.linregress(range(n), y) with t.ppf(0.975, n-2) * stderr -> the drift slope, CI, p
 * Holm's adjusted p-values were worked out by hand with R's p.adjust(p, "holm") rule
 * (sort, multiply the i-th smallest by m - i + 1, cumulative maximum, cap at 1) and
 * checked with a ten-line Python version of that rule; the numbers are written below.
 */
#include "loadgen/app/ab.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void near(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s = %.12g, want %.12g (tolerance %g)", what, got, want, tol);
}

/* Two variants: A B, B A, A B, ... and so each takes each position equally often. */
static void test_order_balanced(void **state)
{
	size_t o[2], first[2] = { 0 };

	(void)state;
	for (size_t r = 0; r < 10; r++) {
		lg_ab_order(2, r, 0, o);
		assert_int_equal(o[0], r % 2);
		assert_int_equal(o[1], 1 - r % 2);
		first[o[0]]++;
	}
	assert_int_equal(first[0], 5);
	assert_int_equal(first[1], 5);
}

/* Seeded: a permutation each round, the same for the same seed, both orders occur,
 * and another seed gives another sequence. */
static void test_order_seeded(void **state)
{
	size_t o[2], p[2], first[2] = { 0 }, differ = 0;

	(void)state;
	for (size_t r = 0; r < 64; r++) {
		lg_ab_order(2, r, 42, o);
		assert_true((o[0] == 0 && o[1] == 1) || (o[0] == 1 && o[1] == 0));
		lg_ab_order(2, r, 42, p);
		assert_int_equal(o[0], p[0]);
		first[o[0]]++;
		lg_ab_order(2, r, 43, p);
		differ += p[0] != o[0];
	}
	assert_true(first[0] >= 16 && first[1] >= 16);
	assert_true(differ > 0);
}

/* B about 1 % below A every round: the paired test sees it (scipy ttest_rel). */
static void test_paired_analysis(void **state)
{
	const double a[] = { 101.2, 99.8, 100.5, 102.1, 98.9, 100.0, 101.7, 99.5 };
	const double b[] = { 99.9, 99.1, 99.0, 101.0, 98.7, 98.8, 100.9, 98.2 };
	struct lg_ab_analysis an;

	(void)state;
	assert_int_equal(lg_ab_analyze(a, b, N(a), 0.05, 2.0, &an), 0);
	assert_true(an.tested);
	near(an.t.t, -6.780337231507975, 1e-9, "paired t");
	near(an.t.p, 0.00025777679913785364, 1e-11, "paired p");
	near(an.t.diff.mean, -1.0125, 1e-12, "mean difference");
	near(an.t.diff.ci95_lo, -1.365606633549471, 1e-9, "CI low");
	near(an.t.diff.ci95_hi, -0.6593933664505276, 1e-9, "CI high");
	/* two differences are -1.3: a tie, so R (and loadgen) use the normal approximation
	 * with continuity correction: scipy wilcoxon(d, method='approx', correction=True) */
	near(an.rank.p, 0.014147403886021537, 1e-10, "signed-rank p (ties)");
	assert_false(an.rank.exact);
	near(an.rank.stat, 0, 0, "V");
	assert_int_equal(an.verdict, LG_VERDICT_SLOWER);
	assert_false(an.rank_disagrees);
	near(an.change_pct, 100.0 * -1.0125 / 100.4625, 1e-9, "change %");
	assert_true(lg_ab_slower_than(&an, 0.05, 0.5));
	assert_false(lg_ab_slower_than(&an, 0.05, 2.0));
	/* swapped: faster */
	assert_int_equal(lg_ab_analyze(b, a, N(a), 0.05, 2.0, &an), 0);
	assert_int_equal(an.verdict, LG_VERDICT_FASTER);
	assert_false(lg_ab_slower_than(&an, 0.05, 0.0));
}

/* Exact signed-rank p for a small n (scipy: wilcoxon([.3,-.1,.5,.9,.2]) -> 0.125). */
static void test_signed_rank_small(void **state)
{
	const double a[] = { 10, 10, 10, 10, 10 };
	const double b[] = { 10.3, 9.9, 10.5, 10.9, 10.2 };
	struct lg_ab_analysis an;

	(void)state;
	assert_int_equal(lg_ab_analyze(a, b, N(a), 0.05, 2.0, &an), 0);
	near(an.rank.stat, 14, 0, "V (sum of positive ranks)");
	near(an.rank.p, 0.125, 1e-12, "exact p");
	assert_true(an.rank.min_p >= 0.05); /* n = 5 cannot reach 0.05 two-sided */
}

/* Paired power and MDE: scipy nct + brentq. */
static void test_paired_mde(void **state)
{
	(void)state;
	near(lg_stat_paired_power(1.0, 1.0, 8, 0.05), 0.680833958386018, 1e-7, "power");
	near(lg_stat_paired_mde(1.0, 8, 0.05, 0.8), 1.1560346777725306, 1e-7, "mde 1/8");
	near(lg_stat_paired_mde(0.5, 5, 0.05, 0.8), 0.8409984829777786, 1e-7, "mde .5/5");
	near(lg_stat_paired_mde(2.0, 20, 0.05, 0.8), 1.3208833092460315, 1e-7, "mde 2/20");
	assert_int_equal(lg_stat_pairs_needed(0.5, 1.0, 0.05, 0.8, 10000), 34);
	assert_int_equal(lg_stat_pairs_needed(0.5, 1.0, 0.05, 0.8, 20), 0);
	assert_true(isnan(lg_stat_paired_mde(1.0, 1, 0.05, 0.8)));
	near(lg_stat_paired_mde(0.0, 5, 0.05, 0.8), 0, 0, "constant differences");
}

/* Drift: least-squares slope with its CI and p (scipy linregress). */
static void test_drift(void **state)
{
	const double y[] = { 10.0, 10.4, 10.1, 10.9, 11.2, 11.0, 11.8 };
	struct lg_ab_drift d;

	(void)state;
	lg_ab_drift_fit(y, N(y), &d);
	near(d.slope, 0.275, 1e-12, "slope");
	near(d.ci95_lo, 0.14164336423537421, 1e-9, "slope CI low");
	near(d.ci95_hi, 0.40835663576462583, 1e-9, "slope CI high");
	near(d.p, 0.0031897024513856927, 1e-10, "slope p");
	near(d.total_pct, 100.0 * 0.275 * 6 / (75.4 / 7), 1e-9, "first to last %");
	lg_ab_drift_fit(y, 2, &d);
	assert_true(isnan(d.slope));
}

/* A drift shared by both variants leaves the difference alone: A/A with a strong trend
 * and a balanced order is no significant difference, though the drift is. */
static void test_drift_cancels(void **state)
{
	double a[10], b[10];
	const double noise[10] = { .1, -.2, .15, -.05, .0, .1, -.1, .05, -.15, .1 };
	struct lg_ab_analysis an;

	(void)state;
	for (size_t r = 0; r < 10; r++) {
		a[r] = 100 - 3.0 * (double)r + noise[r];
		b[r] = 100 - 3.0 * (double)r + noise[9 - r];
	}
	assert_int_equal(lg_ab_analyze(a, b, 10, 0.05, 2.0, &an), 0);
	assert_int_equal(an.verdict, LG_VERDICT_SAME);
	assert_true(an.drift.p < 0.001);
	assert_true(an.drift.slope < -2.9 && an.drift.slope > -3.1);
}

/* k = 2..8 variants, unseeded: every round a permutation, and over each block of k
 * rounds (the first four blocks) each variant in each position exactly once. */
static void test_order_latin(void **state)
{
	size_t o[LG_AB_MAX_VARIANTS];

	(void)state;
	for (size_t k = 2; k <= LG_AB_MAX_VARIANTS; k++) {
		for (size_t block = 0; block < 4; block++) {
			size_t at[LG_AB_MAX_VARIANTS][LG_AB_MAX_VARIANTS] = { { 0 } };

			for (size_t r = block * k; r < (block + 1) * k; r++) {
				size_t seen[LG_AB_MAX_VARIANTS] = { 0 };

				lg_ab_order(k, r, 0, o);
				for (size_t pos = 0; pos < k; pos++) {
					assert_true(o[pos] < k);
					seen[o[pos]]++;
					at[o[pos]][pos]++;
				}
				for (size_t v = 0; v < k; v++)
					assert_int_equal(seen[v], 1);
			}
			for (size_t v = 0; v < k; v++)
				for (size_t pos = 0; pos < k; pos++)
					if (at[v][pos] != 1)
						fail_msg("k=%zu rounds %zu..%zu: variant %zu at position "
							 "%zu %zu times", k, block * k, (block + 1) * k - 1,
							 v, pos, at[v][pos]);
		}
	}
}

/* Unseeded, what runs just before: each variant follows every other equally often, in
 * k rounds (even k) or 2k (odd k), and never itself. */
static void test_order_carryover(void **state)
{
	size_t o[LG_AB_MAX_VARIANTS];

	(void)state;
	for (size_t k = 2; k <= LG_AB_MAX_VARIANTS; k++) {
		size_t rounds = k % 2 ? 2 * k : k, times = k % 2 ? 2 : 1;
		size_t after[LG_AB_MAX_VARIANTS][LG_AB_MAX_VARIANTS] = { { 0 } };

		for (size_t r = 0; r < rounds; r++) {
			lg_ab_order(k, r, 0, o);
			for (size_t pos = 1; pos < k; pos++)
				after[o[pos - 1]][o[pos]]++;
		}
		for (size_t u = 0; u < k; u++)
			for (size_t v = 0; v < k; v++)
				if (after[u][v] != (u == v ? 0 : times))
					fail_msg("k=%zu: %zu right after %zu %zu times in %zu rounds",
						 k, v, u, after[u][v], rounds);
	}
}

/* Seeded, k = 2..8: each round a permutation, and the first position is not fixed. */
static void test_order_seeded_many(void **state)
{
	size_t o[LG_AB_MAX_VARIANTS];

	(void)state;
	for (size_t k = 2; k <= LG_AB_MAX_VARIANTS; k++) {
		size_t first[LG_AB_MAX_VARIANTS] = { 0 }, firsts = 0;

		for (size_t r = 0; r < 16 * k; r++) {
			size_t seen[LG_AB_MAX_VARIANTS] = { 0 };

			lg_ab_order(k, r, 9, o);
			for (size_t pos = 0; pos < k; pos++)
				seen[o[pos]]++;
			for (size_t v = 0; v < k; v++)
				assert_int_equal(seen[v], 1);
			first[o[0]]++;
		}
		for (size_t v = 0; v < k; v++)
			firsts += first[v] > 0;
		assert_true(firsts == k);
	}
}

static void check_holm(const double *p, size_t m, const double *want)
{
	double adj[16];

	lg_ab_holm(p, m, adj);
	for (size_t i = 0; i < m; i++) {
		if (isnan(want[i])) {
			if (!isnan(adj[i]))
				fail_msg("holm: p[%zu] = NaN gave %g, want NaN", i, adj[i]);
			continue;
		}
		near(adj[i], want[i], 1e-12, "Holm-adjusted p");
	}
}

/* Holm against R's p.adjust(p, "holm"), worked out by hand. */
static void test_holm(void **state)
{
	(void)state;
	/* sorted .005 .01 .03 .04 -> x4 x3 x2 x1 = .02 .03 .06 .04, cumulative max */
	check_holm((const double[]){ 0.01, 0.04, 0.03, 0.005 }, 4,
		   (const double[]){ 0.03, 0.06, 0.06, 0.02 });
	/* capped at 1 */
	check_holm((const double[]){ 0.5, 0.02, 0.7 }, 3, (const double[]){ 1, 0.06, 1 });
	check_holm((const double[]){ 0.6, 0.7 }, 2, (const double[]){ 1, 1 });
	/* ties take the larger factor: .01 x3, then .02 x2 for both */
	check_holm((const double[]){ 0.02, 0.02, 0.01 }, 3,
		   (const double[]){ 0.04, 0.04, 0.03 });
	/* a NaN (an untested comparison) stays NaN and does not count: m = 2 */
	check_holm((const double[]){ 0.01, NAN, 0.04 }, 3,
		   (const double[]){ 0.02, NAN, 0.04 });
	check_holm((const double[]){ 0.03 }, 1, (const double[]){ 0.03 });
	/* seven comparisons (eight variants), unsorted */
	check_holm((const double[]){ 0.042, 0.001, 0.074, 0.039, 0.008, 0.06, 0.041 }, 7,
		   (const double[]){ 0.195, 0.007, 0.195, 0.195, 0.048, 0.195, 0.195 });
}

/* The verdicts and --fail-if-slower follow the adjusted p: p = .03 alone is slower, next
 * to a comparison with p = .2 it is adjusted to .06 and is not; next to p = .01 it stays
 * at .03 (the cumulative maximum of .02 and .03). */
static void test_adjust_verdicts(void **state)
{
	struct lg_ab_analysis an[2];

	(void)state;
	memset(an, 0, sizeof(an));
	for (size_t i = 0; i < 2; i++) {
		an[i].tested = true;
		an[i].n = 6;
		an[i].t.diff.mean = -1.0;
		an[i].change_pct = -5.0;
		an[i].rank.p = an[i].rank.min_p = 1.0;
	}
	an[0].t.p = 0.03;
	an[1].t.p = 0.2;
	lg_ab_adjust(an, 1, 0.05);
	near(an[0].p_adjusted, 0.03, 0, "one comparison: p itself");
	assert_int_equal(an[0].verdict, LG_VERDICT_SLOWER);
	lg_ab_adjust(an, 2, 0.05);
	near(an[0].p_adjusted, 0.06, 1e-15, "p = .03 next to .2");
	assert_int_equal(an[0].verdict, LG_VERDICT_SAME);
	assert_false(lg_ab_slower_than(&an[0], 0.05, 2.0));
	assert_int_equal(an[1].verdict, LG_VERDICT_SAME);
	an[1].t.p = 0.01;
	an[1].t.diff.mean = 1.0;
	lg_ab_adjust(an, 2, 0.05);
	near(an[0].p_adjusted, 0.03, 1e-15, "p = .03 next to .01");
	near(an[1].p_adjusted, 0.02, 1e-15, "p = .01 next to .03");
	assert_int_equal(an[0].verdict, LG_VERDICT_SLOWER);
	assert_int_equal(an[1].verdict, LG_VERDICT_FASTER);
	assert_true(lg_ab_slower_than(&an[0], 0.05, 2.0));
	assert_false(lg_ab_slower_than(&an[0], 0.05, 5.0));
}

static void test_bad_input(void **state)
{
	const double a[] = { 1, NAN }, b[] = { 1, 2 };
	struct lg_ab_analysis an;

	(void)state;
	assert_int_equal(lg_ab_analyze(a, b, 0, 0.05, 2.0, &an), -EINVAL);
	assert_int_equal(lg_ab_analyze(a, b, 2, 0.05, 2.0, &an), -EINVAL);
	assert_int_equal(lg_ab_analyze(b, b, 1, 0.05, 2.0, &an), 0);
	assert_false(an.tested);
	assert_int_equal(an.verdict, LG_VERDICT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_balanced),
		cmocka_unit_test(test_order_seeded),
		cmocka_unit_test(test_paired_analysis),
		cmocka_unit_test(test_signed_rank_small),
		cmocka_unit_test(test_paired_mde),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_drift_cancels),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_order_latin),
		cmocka_unit_test(test_order_carryover),
		cmocka_unit_test(test_order_seeded_many),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_adjust_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
