/* Statistics against published and independently computed values.
 *
 * References: t quantiles from printed t tables; incomplete beta identities that hold
 * exactly; Welch examples with published results (R's t.test output, the worked
 * example of Wikipedia's "Student's t-test" article). Values quoted to more digits than
 * published were computed independently, by Simpson integration of the t density in
 * Python (no shared code with the continued fraction tested here). */
#include "loadgen/inference/inference.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void near(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s = %.10g, want %.10g (tolerance %g)", what, got, want, tol);
}

static void test_descriptive(void **state)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double big[] = { 1e9 + 0.1, 1e9 + 0.2, 1e9 + 0.3 };
	struct lg_stat_summary s;

	(void)state;
	near(lg_stat_mean(x, N(x)), 5.0, 1e-12, "mean");
	near(lg_stat_stddev(x, N(x)), sqrt(32.0 / 7.0), 1e-12, "sample stddev");
	/* two-pass: no cancellation for large values close together */
	near(lg_stat_stddev(big, N(big)), 0.1, 1e-6, "stddev of close large values");
	assert_true(isnan(lg_stat_mean(x, 0)));
	assert_true(isnan(lg_stat_stddev(x, 1)));

	assert_int_equal(lg_stat_summarize(x, N(x), &s), 0);
	assert_int_equal(s.n, 8);
	near(s.min, 2, 0, "min");
	near(s.max, 9, 0, "max");
	/* 95 % CI: 5 +/- t(0.975, 7) * s / sqrt(8), t(0.975, 7) = 2.364624 */
	near(s.ci95_lo, 5 - 2.364624 * sqrt(32.0 / 7.0) / sqrt(8), 1e-5, "ci95 low");
	near(s.ci95_hi, 5 + 2.364624 * sqrt(32.0 / 7.0) / sqrt(8), 1e-5, "ci95 high");

	assert_int_equal(lg_stat_summarize(x, 1, &s), 0);
	assert_int_equal(s.n, 1);
	near(s.mean, 2, 0, "mean of one");
	assert_true(isnan(s.stddev) && isnan(s.ci95_lo) && isnan(s.ci95_hi));
	assert_int_equal(lg_stat_summarize(x, 0, &s), -EINVAL);
}

static void test_constant_sample(void **state)
{
	const double c[] = { 100.1, 100.1, 100.1, 100.1 };
	const double bad[] = { 1, NAN };
	struct lg_stat_summary s;

	(void)state;
	assert_int_equal(lg_stat_summarize(c, N(c), &s), 0);
	assert_true(s.mean == 100.1 && s.stddev == 0.0);
	assert_true(s.ci95_lo == 100.1 && s.ci95_hi == 100.1);
	assert_int_equal(lg_stat_summarize(bad, N(bad), &s), -EINVAL);
}

static void test_betainc(void **state)
{
	const double xs[] = { 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99 };

	(void)state;
	for (size_t i = 0; i < N(xs); i++) {
		double x = xs[i];

		near(lg_stat_betainc(1, 1, x), x, 1e-12, "I_x(1,1) = x");
		near(lg_stat_betainc(3, 1, x), pow(x, 3), 1e-12, "I_x(3,1) = x^3");
		near(lg_stat_betainc(2.5, 1, x), pow(x, 2.5), 1e-12, "I_x(2.5,1) = x^2.5");
		near(lg_stat_betainc(1, 4, x), 1 - pow(1 - x, 4), 1e-12, "I_x(1,b)");
		/* symmetry I_x(a,b) = 1 - I_(1-x)(b,a) */
		near(lg_stat_betainc(2.3, 7.1, x) + lg_stat_betainc(7.1, 2.3, 1 - x), 1.0, 1e-12,
		     "symmetry");
	}
	near(lg_stat_betainc(0.5, 0.5, 0.5), 0.5, 1e-12, "I_0.5(0.5,0.5)");
	near(lg_stat_betainc(7, 7, 0.5), 0.5, 1e-12, "I_0.5(7,7)");
	near(lg_stat_betainc(1000, 1000, 0.5), 0.5, 1e-10, "I_0.5(1000,1000)");
	/* I_0.3(2,3) = 1 - (1-x)^4 - 4x(1-x)^3 = 0.3483 exactly */
	near(lg_stat_betainc(2, 3, 0.3), 0.3483, 1e-12, "I_0.3(2,3)");
	/* arcsine law: I_x(1/2,1/2) = (2/pi) asin(sqrt(x)) */
	near(lg_stat_betainc(0.5, 0.5, 0.2), 2 / M_PI * asin(sqrt(0.2)), 1e-12, "arcsine");
	/* by numerical integration (Simpson, 200000 intervals) */
	near(lg_stat_betainc(5, 2.5, 0.7), 0.5410033833, 1e-9, "I_0.7(5,2.5)");
	near(lg_stat_betainc(3, 10, 0.2), 0.4416542515, 1e-9, "I_0.2(3,10)");
	near(lg_stat_betainc(2, 3, 0), 0, 0, "x = 0");
	near(lg_stat_betainc(2, 3, 1), 1, 0, "x = 1");
	assert_true(isnan(lg_stat_betainc(0, 1, 0.5)));
	assert_true(isnan(lg_stat_betainc(1, 1, 1.5)));
	assert_true(isnan(lg_stat_betainc(1, 1, NAN)));
}

static void test_t_cdf(void **state)
{
	(void)state;
	/* closed forms: df = 1 is Cauchy, df = 2 has cdf 1/2 + t / (2 sqrt(2 + t^2)) */
	near(lg_stat_t_cdf(0.5, 1), 0.5 + atan(0.5) / M_PI, 1e-12, "Cauchy cdf");
	near(lg_stat_t_cdf(-3, 1), 0.5 + atan(-3) / M_PI, 1e-12, "Cauchy cdf, t < 0");
	near(lg_stat_t_cdf(1, 2), 0.5 + 1 / (2 * sqrt(3)), 1e-12, "df = 2 cdf");
	near(lg_stat_t_cdf(0, 7), 0.5, 1e-15, "cdf(0) = 1/2");
	near(lg_stat_t_cdf(2, 3), 0.9303370157, 1e-9, "cdf(2, 3)");
	near(lg_stat_t_cdf(-1.5, 7.5), 0.0872402853, 1e-9, "cdf(-1.5, 7.5)");
	near(lg_stat_t_cdf(1.959963985, 1e15), 0.975, 1e-9, "normal limit");
	near(lg_stat_t_two_sided(2.228138852, 10), 0.05, 1e-9, "two-sided at t975(10)");
	/* a far tail keeps its relative precision: 1 - cdf would give 0 here */
	near(lg_stat_t_two_sided(1e10, 1) / (2 / (M_PI * 1e10)), 1.0, 1e-6, "far tail");
	near(lg_stat_t_cdf(INFINITY, 3), 1, 0, "cdf(+inf)");
	near(lg_stat_t_cdf(-INFINITY, 3), 0, 0, "cdf(-inf)");
	assert_true(isnan(lg_stat_t_cdf(1, 0)));
	assert_true(isnan(lg_stat_t_cdf(NAN, 3)));
}

static void test_t_quantile(void **state)
{
	/* t(0.975, df) from printed tables */
	static const struct {
		double df, t;
	} table[] = {
		{ 1, 12.7062 }, { 2, 4.3027 }, { 3, 3.1824 }, { 5, 2.5706 }, { 7, 2.3646 },
		{ 10, 2.2281 }, { 20, 2.0860 }, { 30, 2.0423 }, { 120, 1.9799 },
		{ 1e6, 1.9600 }, { 1e13, 1.9600 },
	};

	(void)state;
	for (size_t i = 0; i < N(table); i++) {
		double t = lg_stat_t_quantile(0.975, table[i].df);

		near(t, table[i].t, 5e-5, "t(0.975, df)");
		near(lg_stat_t_quantile(0.025, table[i].df), -t, 1e-9, "symmetry");
		near(lg_stat_t_cdf(t, table[i].df), 0.975, 1e-12, "cdf(quantile)");
	}
	/* more digits, by integration of the density */
	near(lg_stat_t_quantile(0.975, 1), 12.706205, 1e-6, "t975(1)");
	near(lg_stat_t_quantile(0.975, 30), 2.042272, 1e-6, "t975(30)");
	near(lg_stat_t_quantile(0.975, 1e6), 1.959966, 1e-6, "t975(1e6)");
	near(lg_stat_t_quantile(0.995, 4), 4.604095, 1e-6, "t995(4)");
	near(lg_stat_t_quantile(0.9, 24.5), 1.317, 1e-3, "fractional df");
	near(lg_stat_t_quantile(0.5, 3), 0, 0, "median");
	/* Cauchy quantile is tan(pi (p - 1/2)) */
	near(lg_stat_t_quantile(1e-6, 1), tan(M_PI * (1e-6 - 0.5)), 1e-3, "Cauchy tail");
	assert_true(isnan(lg_stat_t_quantile(0, 3)));
	assert_true(isnan(lg_stat_t_quantile(1, 3)));
	assert_true(isnan(lg_stat_t_quantile(0.9, -1)));
}

static void welch_ok(const double *a, size_t na, const double *b, size_t nb, double t,
		     double df, double p, double tol)
{
	struct lg_welch w;

	assert_int_equal(lg_stat_welch(a, na, b, nb, &w), 0);
	assert_int_equal(w.kind, LG_WELCH_OK);
	near(w.t, t, tol, "Welch t");
	near(w.df, df, tol, "Welch df");
	near(w.p, p, tol, "Welch p");
}

static void test_welch_published(void **state)
{
	/* R: t.test(ts1, ts2) -> t = -1.8325, df = 17.9, p-value = 0.08356 */
	const double r1[] = { 11, 9, 10, 11, 10, 12, 9, 11, 12, 9 };
	const double r2[] = { 11, 13, 10, 13, 12, 9, 11, 12, 12, 11 };
	/* Wikipedia, "Student's t-test", worked example, unequal variances:
	 * t ~ 1.959, df ~ 7.031, p = 0.090 */
	const double s1[] = { 30.02, 29.99, 30.11, 29.97, 30.01, 29.99 };
	const double s2[] = { 29.89, 29.93, 29.72, 29.98, 30.02, 29.98 };
	/* The A1/A2 data of Wikipedia's "Welch's t-test" example. Integration of the
	 * density gives t = -2.455356, df = 24.988529, p = 0.021378. */
	const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
			      23.1, 19.6, 19.0, 21.7, 21.4 };
	const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
			      21.9, 22.1, 22.9, 20.5, 24.4 };

	(void)state;
	welch_ok(r1, N(r1), r2, N(r2), -1.8325, 17.9, 0.08356, 5e-4);
	welch_ok(r1, N(r1), r2, N(r2), -1.832541665, 17.900310146, 0.083559792, 1e-8);
	welch_ok(s1, N(s1), s2, N(s2), 1.959, 7.031, 0.090, 1e-3);
	welch_ok(s1, N(s1), s2, N(s2), 1.959005808, 7.030559960, 0.090773324, 1e-8);
	welch_ok(a1, N(a1), a2, N(a2), -2.455356398, 24.988529290, 0.021378001, 1e-8);
	/* swapping the samples flips t only */
	welch_ok(a2, N(a2), a1, N(a1), 2.455356398, 24.988529290, 0.021378001, 1e-8);
}

static void test_welch_degenerate(void **state)
{
	const double c1[] = { 100, 100, 100 }, c2[] = { 50, 50, 50, 50 };
	const double v[] = { 99, 100, 101 };
	struct lg_welch w;

	(void)state;
	assert_int_equal(lg_stat_welch(c1, N(c1), c1, N(c1), &w), 0);
	assert_int_equal(w.kind, LG_WELCH_SAME_CONST);
	assert_true(w.p == 1.0 && w.t == 0.0);
	assert_int_equal(lg_stat_welch(c2, N(c2), c1, N(c1), &w), 0);
	assert_int_equal(w.kind, LG_WELCH_DIFF_CONST);
	assert_true(w.p == 0.0 && isinf(w.t) && w.t < 0);
	/* one constant sample: an ordinary test with df = n - 1 of the other */
	assert_int_equal(lg_stat_welch(v, N(v), c1, N(c1), &w), 0);
	assert_int_equal(w.kind, LG_WELCH_OK);
	near(w.t, 0, 1e-12, "t vs constant");
	near(w.df, 2, 1e-12, "df vs constant");
	near(w.p, 1, 1e-12, "p vs constant");
	/* n < 2: no variance, no test */
	assert_int_equal(lg_stat_welch(v, 1, c1, N(c1), &w), -EINVAL);
	assert_int_equal(lg_stat_welch(v, N(v), c1, 1, &w), -EINVAL);
	assert_int_equal(lg_stat_welch(v, 0, c1, 0, &w), -EINVAL);
}

/* R's own examples: ?wilcox.test's depression scores (Hollander & Wolfe), paired. R
 * prints V = 40, p-value = 0.03906 for wilcox.test(x, y, paired = TRUE), and
 * t = 3.0354, df = 8, p-value = 0.01618 for t.test(x, y, paired = TRUE). More digits:
 * scipy 1.10 (stats.wilcoxon, stats.ttest_rel), code independent of R's. */
static const double dep_x[] = { 1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30 };
static const double dep_y[] = { 0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29 };

static void test_paired(void **state)
{
	double d[N(dep_x)];
	struct lg_rank_test r;
	struct lg_paired_t pt;

	(void)state;
	for (size_t i = 0; i < N(d); i++)
		d[i] = dep_x[i] - dep_y[i];
	assert_int_equal(lg_stat_signed_rank(d, N(d), &r), 0);
	assert_true(r.exact);
	near(r.stat, 40, 0, "V");
	near(r.p, 0.0390625, 1e-12, "signed-rank exact p");
	near(r.min_p, 2.0 / 512.0, 1e-15, "smallest p with n = 9");
	assert_int_equal(lg_stat_paired_t(d, N(d), &pt), 0);
	near(pt.t, 3.0353754156485917, 1e-9, "paired t");
	near(pt.df, 8, 0, "paired df");
	near(pt.p, 0.016176627434908095, 1e-9, "paired p");
	assert_int_equal(lg_stat_paired_t(d, 1, &pt), -EINVAL);
}

static void test_signed_rank_ties(void **state)
{
	/* A zero (dropped) and tied |d| = 2: the normal approximation with tie and
	 * continuity corrections. scipy: wilcoxon(d, method='approx', correction=True). */
	const double d[] = { 1.5, -0.5, 2.0, 2.0, 3.0, -1.0, 0.0, 2.5 };
	const double zeros[] = { 0, 0, 0 };
	struct lg_rank_test r;

	(void)state;
	assert_int_equal(lg_stat_signed_rank(d, N(d), &r), 0);
	assert_false(r.exact);
	near(r.stat, 25, 0, "V with ties"); /* 28 - min(W+, W-) = 28 - 3 */
	near(r.p, 0.07540356287126336, 1e-9, "signed-rank approx p");
	assert_int_equal(lg_stat_signed_rank(zeros, N(zeros), &r), 0);
	near(r.p, 1, 0, "no non-zero difference");
}

static void test_mann_whitney(void **state)
{
	/* No ties: exact. scipy: mannwhitneyu(a, b, method='exact') U = 2, p = 4/231. */
	const double a[] = { 10.1, 10.4, 9.8, 10.9, 10.2, 10.6 };
	const double b[] = { 11.0, 10.8, 11.4, 10.7, 11.9 };
	const double bad[] = { 1, INFINITY };
	struct lg_rank_test r;

	(void)state;
	assert_int_equal(lg_stat_mann_whitney(a, N(a), b, N(b), &r), 0);
	assert_true(r.exact);
	near(r.stat, 2, 0, "U");
	near(r.p, 0.017316017316017316, 1e-12, "exact p");
	near(r.min_p, 2.0 / 462.0, 1e-15, "smallest p for 6 and 5 runs: 2 / C(11, 5)");
	/* Swapped: U of the other sample, the same p. */
	assert_int_equal(lg_stat_mann_whitney(b, N(b), a, N(a), &r), 0);
	near(r.stat, 28, 0, "U swapped");
	near(r.p, 0.017316017316017316, 1e-12, "exact p swapped");
	/* Ties (1.06, 1.29 twice): normal approximation. scipy: method='asymptotic',
	 * use_continuity=True: U = 58, p = 0.13291945818531892. */
	assert_int_equal(lg_stat_mann_whitney(dep_x, N(dep_x), dep_y, N(dep_y), &r), 0);
	assert_false(r.exact);
	near(r.stat, 58, 0, "U with ties");
	near(r.p, 0.13291945818531892, 1e-9, "approx p");
	/* Three runs a side can never reach p < 0.05: the smallest p is 2/20. */
	assert_int_equal(lg_stat_mann_whitney(a, 3, b, 3, &r), 0);
	near(r.min_p, 0.1, 1e-15, "smallest p for 3 and 3 runs");
	near(r.p, 0.1, 1e-15, "complete separation of 3 and 3");
	assert_int_equal(lg_stat_mann_whitney(a, 0, b, 3, &r), -EINVAL);
	assert_int_equal(lg_stat_mann_whitney(bad, 2, b, 3, &r), -EINVAL);
}

static void test_effect_size(void **state)
{
	const double a[] = { 10.1, 10.4, 9.8, 10.9, 10.2, 10.6 };
	const double b[] = { 11.0, 10.8, 11.4, 10.7, 11.9 };
	struct lg_stat_summary sa, sb;

	(void)state;
	assert_int_equal(lg_stat_summarize(a, N(a), &sa), 0);
	assert_int_equal(lg_stat_summarize(b, N(b), &sb), 0);
	/* numpy: pooled sd of ddof=1 variances, J = 1 - 3 / (4 * 9 - 1) */
	near(lg_stat_hedges_g(&sa, &sb), 1.7262238328042026, 1e-12, "Hedges' g");
	near(lg_stat_cv_pct(&sa), 100 * sa.stddev / sa.mean, 1e-12, "CV");
}

static void test_power(void **state)
{
	(void)state;
	/* R: power.t.test(n = 20, delta = 1, sd = 1) gives power = 0.8689528 (one tail;
	 * the other adds ~2e-7). scipy's noncentral t, both tails: 0.8689530275835381. */
	near(lg_stat_welch_power(1, 1, 20, 1, 20, 0.05), 0.8689530275835381, 1e-8,
	     "power, n = 20");
	/* Unequal sizes and spreads, Welch df; scipy.stats.nct, both tails. */
	near(lg_stat_welch_power(2.0, 1.5, 5, 3.0, 7, 0.05), 0.27559051123396094, 1e-8,
	     "Welch power");
	/* MDE at 80 %: scipy brentq on the same power function. */
	near(lg_stat_mde(1.5, 5, 3.0, 7, 0.05, 0.8), 4.13594057511503, 1e-7, "MDE");
	near(lg_stat_mde(2.0, 3, 2.0, 3, 0.05, 0.8), 6.141784532727384, 1e-7, "MDE n = 3");
	near(lg_stat_mde(0, 3, 0, 3, 0.05, 0.8), 0, 0, "MDE of constant samples");
	assert_true(isnan(lg_stat_mde(1, 1, 1, 3, 0.05, 0.8)));
	/* R: power.t.test(power = .90, delta = 1) gives n = 22.02110 per group: 23 runs. */
	assert_int_equal(lg_stat_runs_needed(1, 1, 1, 0.05, 0.9, 1000), 23);
	/* 2 % of 1000 with spreads 15 and 25: scipy, smallest n with power >= 0.8. */
	assert_int_equal(lg_stat_runs_needed(20, 15, 25, 0.05, 0.8, 1000), 18);
	assert_int_equal(lg_stat_runs_needed(20, 15, 25, 0.05, 0.8, 10), 0);
	assert_int_equal(lg_stat_runs_needed(1, 0, 0, 0.05, 0.8, 10), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_constant_sample),
		cmocka_unit_test(test_betainc),
		cmocka_unit_test(test_t_cdf),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_welch_published),
		cmocka_unit_test(test_welch_degenerate),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_signed_rank_ties),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_effect_size),
		cmocka_unit_test(test_power),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
