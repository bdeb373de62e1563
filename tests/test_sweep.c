/* Client sweeps: NCLIENTS lists, ranges and auto; --repeat's value and its stopping rule;
 * when a summary warns about variation. Expected counts are worked out by hand from the
 * rules in include/loadgen/model/sweep.h and docs/running.md's Usage section. */
#include "loadgen/model/sweep.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "counters/result_summary.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void expect_counts(const char *arg, unsigned ncpu, const unsigned *want, size_t nwant)
{
	unsigned got[LG_SWEEP_MAX];
	char err[256];
	size_t n;

	if (lg_sweep_parse(arg, ncpu, 100000, got, &n, err, sizeof(err)))
		fail_msg("%s: %s", arg, err);
	assert_int_equal(n, nwant);
	assert_memory_equal(got, want, nwant * sizeof(*want));
}

static void test_lists_and_ranges(void **state)
{
	const unsigned one[] = { 48 }, list[] = { 1, 2, 4, 8, 16, 32, 48 };
	const unsigned r16[] = { 1, 2, 4, 8, 16 }, r64[] = { 1, 2, 4, 8, 16, 32, 64 };
	const unsigned r48[] = { 1, 2, 4, 8, 16, 32, 48 }, r3[] = { 3, 6, 12, 20 };
	const unsigned same[] = { 5 }, dup[] = { 4, 2 };

	(void)state;
	expect_counts("48", 2, one, N(one));
	expect_counts("1,2,4,8,16,32,48", 2, list, N(list));
	expect_counts("1..16", 2, r16, N(r16));
	expect_counts("1..64", 2, r64, N(r64));
	expect_counts("1..48", 2, r48, N(r48));
	expect_counts("3..20", 2, r3, N(r3));
	expect_counts("5..5", 2, same, N(same));
	expect_counts("4,2,4", 2, dup, N(dup));
}

static void test_auto(void **state)
{
	const unsigned c1[] = { 1, 2 }, c2[] = { 1, 2, 4 }, c6[] = { 1, 2, 4, 6, 8, 12 };
	const unsigned c48[] = { 1, 2, 4, 8, 16, 32, 48, 64, 96 };

	(void)state;
	expect_counts("auto", 1, c1, N(c1));
	expect_counts("auto", 2, c2, N(c2));
	expect_counts("auto", 6, c6, N(c6));
	expect_counts("auto", 48, c48, N(c48));
}

static void test_bad(void **state)
{
	const char *const bad[] = { "", "0", "-1", "1,,2", "1,", "a", "4..2", "1..", "..4",
				    "1..2..4", "100001", "2 ", "1..0", "auto2" };
	unsigned got[LG_SWEEP_MAX];
	char err[256];
	size_t n;

	(void)state;
	for (size_t i = 0; i < N(bad); i++) {
		if (lg_sweep_parse(bad[i], 2, 100000, got, &n, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' accepted", bad[i]);
		assert_non_null(strstr(err, "invalid NCLIENTS"));
	}
	/* 1..2^40 would need 41 counts: fine; 65 distinct counts are too many */
	assert_int_equal(lg_sweep_parse("1..100000", 2, 100000, got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 18);
}

static void test_repeat_parse(void **state)
{
	struct lg_repeat r;

	(void)state;
	assert_int_equal(lg_repeat_parse("5", &r), 0);
	assert_true(!r.is_auto && r.max == 5);
	assert_int_equal(lg_repeat_parse("auto", &r), 0);
	assert_true(r.is_auto && r.max == LG_REPEAT_AUTO_MAX && r.pct == LG_REPEAT_AUTO_PCT);
	assert_int_equal(lg_repeat_parse("auto:5", &r), 0);
	assert_true(r.is_auto && r.pct == 5 && r.max == LG_REPEAT_AUTO_MAX);
	assert_int_equal(lg_repeat_parse("auto:0.5:10", &r), 0);
	assert_true(r.is_auto && r.pct == 0.5 && r.max == 10);
	assert_int_equal(lg_repeat_parse("auto:5:2", &r), -EINVAL);  /* MAX below 3 */
	assert_int_equal(lg_repeat_parse("auto:0", &r), -EINVAL);
	assert_int_equal(lg_repeat_parse("auto:x", &r), -EINVAL);
	assert_int_equal(lg_repeat_parse("auto:5:", &r), -EINVAL);
	assert_int_equal(lg_repeat_parse("0", &r), -EINVAL);
	assert_int_equal(lg_repeat_parse("10001", &r), -EINVAL);
	assert_int_equal(lg_repeat_parse("autox", &r), -EINVAL);
}

static void test_repeat_done(void **state)
{
	const struct lg_repeat fixed = { .max = 4 }, rule = { .is_auto = true, .pct = 2,
							       .max = 10 };
	/* 100, 101, 99: mean 100, s = 1, half-width t(.975, 2) * 1 / sqrt(3) = 2.484 % */
	const double a[] = { 100, 101, 99, 100, 100 };
	const double flat[] = { 50, 50, 50 };
	double ci;

	(void)state;
	assert_false(lg_repeat_done(&fixed, a, 3, &ci));
	assert_true(lg_repeat_done(&fixed, a, 4, &ci));
	assert_false(lg_repeat_done(&rule, flat, 2, &ci)); /* at least 3, however flat */
	assert_true(lg_repeat_done(&rule, flat, 3, &ci));
	assert_true(ci == 0);
	assert_false(lg_repeat_done(&rule, a, 3, &ci));
	assert_true(fabs(ci - 4.302653 / sqrt(3)) < 1e-5);
	/* + 100, 100: s = sqrt(0.5), half-width t(.975, 4) * s / sqrt(5) = 1.756 % */
	assert_true(lg_repeat_done(&rule, a, 5, &ci));
	assert_true(fabs(ci - 2.776445 * sqrt(0.5) / sqrt(5)) < 1e-5);
}

static void test_cv_warning(void **state)
{
	(void)state;
	assert_null(lg_cv_warning(NAN));
	assert_null(lg_cv_warning(LG_CV_WARN_PCT));
	assert_non_null(strstr(lg_cv_warning(LG_CV_WARN_PCT + 0.1), "too short a run"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_and_ranges),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_repeat_parse),
		cmocka_unit_test(test_repeat_done),
		cmocka_unit_test(test_cv_warning),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
