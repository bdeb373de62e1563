/* Unit tests of the per-interval latency windows. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "counters/window.h"

static struct lg_window w1, w2;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* p99 of two windows added up is within the window's bucket error of the exact p99. */
static void test_percentile_accuracy(void **state)
{
	enum { N = 20000 };
	static uint64_t v[N];
	struct lg_window_sum sum;
	uint64_t seed = 42, exact, got;

	(void)state;
	lg_window_clear(&w1);
	lg_window_clear(&w2);
	for (int i = 0; i < N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = 1000 + (seed >> 33) % 5000000; /* 1 us .. 5 ms */
		lg_window_record(i % 2 ? &w1 : &w2, v[i]);
	}
	memset(&sum, 0, sizeof(sum));
	lg_window_add(&sum, &w1);
	lg_window_add(&sum, &w2);
	assert_int_equal(sum.count, N);
	qsort(v, N, sizeof(v[0]), cmp_u64);
	for (double p = 50; p <= 99.9; p += 49.9 / 2) {
		exact = v[(size_t)ceil(p / 100 * N) - 1];
		got = lg_window_percentile(&sum, p);
		assert_true(fabs((double)got - (double)exact) <= 0.032 * (double)exact);
	}
}

static void test_clear_and_empty(void **state)
{
	struct lg_window_sum sum;

	(void)state;
	lg_window_record(&w1, 12345);
	lg_window_clear(&w1);
	memset(&sum, 0, sizeof(sum));
	lg_window_add(&sum, &w1);
	assert_int_equal(sum.count, 0);
	assert_int_equal(lg_window_percentile(&sum, 99), 0);
	lg_window_record(&w1, 7);
	memset(&sum, 0, sizeof(sum));
	lg_window_add(&sum, &w1);
	/* small values: buckets are 1 ns wide, merged by 4 -> within [4, 7] */
	assert_in_range(lg_window_percentile(&sum, 99), 4, 7);
	lg_window_record(&w1, UINT64_MAX); /* past the range: top bucket, no crash */
	memset(&sum, 0, sizeof(sum));
	lg_window_add(&sum, &w1);
	assert_int_equal(sum.count, 2);
	assert_true(lg_window_percentile(&sum, 100) > LG_HIST_MAX_NS / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentile_accuracy),
		cmocka_unit_test(test_clear_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
