/* Drift, first-run and nested-batch statistics against values computed independently
 * with SciPy on the same fixed samples (scipy.stats.linregress, f_oneway, t.sf, nct,
 * and the method-of-moments variance components written out in NumPy). */
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
		fail_msg("%s = %.12g, want %.12g (tolerance %g)", what, got, want, tol);
}

static void test_trend(void **state)
{
	/* linregress(range(6), y): slope -0.882857142857143, p 0.00019235100770897574,
	 * t -13.163842575827283; slope / mean -0.9031786627694558 % */
	const double y[] = { 100, 99, 98.5, 97, 96.2, 95.8 };
	const double flat[] = { 5, 5, 5, 5 }, line[] = { 1, 2, 3, 4 };
	struct lg_stat_trend t;

	(void)state;
	assert_int_equal(lg_stat_trend(y, N(y), &t), 0);
	near(t.slope, -0.882857142857143, 1e-12, "slope");
	near(t.t, -13.163842575827283, 1e-9, "t");
	near(t.p, 0.00019235100770897574, 1e-12, "p");
	near(t.slope_pct, -0.9031786627694558, 1e-9, "slope %");
	near(t.df, 4, 0, "df");
	assert_int_equal(lg_stat_trend(flat, N(flat), &t), 0);
	near(t.p, 1, 0, "flat p");
	assert_int_equal(lg_stat_trend(line, N(line), &t), 0);
	near(t.p, 0, 0, "perfect line p");
	assert_int_equal(lg_stat_trend(y, 2, &t), -EINVAL);
}

static void test_first_apart(void **state)
{
	/* rest = y[1:]: d -10.125, t -10.60538946546923, p 0.0017912743534212535 */
	const double y[] = { 90, 100, 101, 99, 100.5 };
	const double same[] = { 7, 7, 7 }, lone[] = { 8, 7, 7 };
	struct lg_stat_first f;

	(void)state;
	assert_int_equal(lg_stat_first_apart(y, N(y), &f), 0);
	near(f.diff, -10.125, 1e-12, "diff");
	near(f.t, -10.60538946546923, 1e-9, "t");
	near(f.p, 0.0017912743534212535, 1e-12, "p");
	near(f.diff_pct, -10.125 / 100.125 * 100, 1e-9, "diff %");
	assert_int_equal(lg_stat_first_apart(same, N(same), &f), 0);
	near(f.p, 1, 0, "constant p");
	assert_int_equal(lg_stat_first_apart(lone, N(lone), &f), 0);
	near(f.p, 0, 0, "constant rest, other first p");
	assert_int_equal(lg_stat_first_apart(y, 2, &f), -EINVAL);
}

static void test_nested(void **state)
{
	/* f_oneway: F 16.625, p 0.002193625791017142; msw 0.857142857142857, msb 14.25,
	 * n0 3.3, var_between 4.058441558441558 */
	const double y[] = { 10, 11, 12, 14, 15, 13, 9, 10, 11, 10 };
	const size_t off[] = { 0, 3, 6, 10 }, bad[] = { 0, 3, 3, 10 };
	struct lg_stat_nested m;

	(void)state;
	assert_int_equal(lg_stat_nested(y, off, 3, &m), 0);
	near(m.f, 16.625, 1e-9, "F");
	near(m.p, 0.002193625791017142, 1e-12, "p");
	near(m.ms_within, 0.8571428571428571, 1e-12, "ms within");
	near(m.ms_between, 14.25, 1e-12, "ms between");
	near(m.n0, 3.3, 1e-12, "n0");
	near(m.var_between, 4.058441558441558, 1e-12, "var between");
	near(m.grand_mean, 11.5, 1e-12, "grand mean");
	assert_int_equal(lg_stat_nested(y, bad, 3, &m), -EINVAL);
	assert_int_equal(lg_stat_nested(y, off, 1, &m), -EINVAL);
}

static void test_se_mde(void **state)
{
	/* brentq on the noncentral t power (scipy.stats.nct), alpha 0.05, power 0.8 */
	(void)state;
	near(lg_stat_se_mde(1.0, 4.0, 0.05, 0.8), 3.761059553825027, 1e-8, "mde se 1 df 4");
	near(lg_stat_se_mde(2.5, 10.0, 0.05, 0.8), 7.774920253887727, 1e-8, "mde se 2.5 df 10");
	near(lg_stat_se_mde(0, 10.0, 0.05, 0.8), 0, 0, "mde of no spread");
	assert_true(isnan(lg_stat_se_mde(1.0, 0, 0.05, 0.8)));
	/* 2 t.sf(3 / 1.2, 7) */
	near(lg_stat_t_test_p(3, 1.2, 7), 0.040992218585752874, 1e-12, "t test p");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trend),
		cmocka_unit_test(test_first_apart),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_se_mde),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
