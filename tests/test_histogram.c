/* Histogram: layout, exact fields, merge, edge cases, and percentile accuracy measured
 * against the exact percentiles of sorted random samples. */
#include "loadgen/model/histogram.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define NSAMPLES 200000

/* splitmix64: a small, seedable generator so failures reproduce. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static double rng_unit(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(uint64_t *s)
{
	return sqrt(-2.0 * log(rng_unit(s))) * cos(2.0 * M_PI * rng_unit(s));
}

enum dist { D_SMALL, D_UNIFORM, D_LOGNORMAL, D_WIDE, D_BIMODAL };

static uint64_t sample(enum dist d, uint64_t *s)
{
	switch (d) {
	case D_SMALL: /* the exact (one value per bucket) region and just above it */
		return rng_next(s) % 300;
	case D_UNIFORM:
		return rng_next(s) % 1000000;
	case D_LOGNORMAL: /* median 100 us, long tail */
		return (uint64_t)exp(log(100e3) + 1.5 * rng_normal(s));
	case D_WIDE: /* log-uniform from 1 ns to 2 hours */
		return (uint64_t)exp(rng_unit(s) * log(7.2e12));
	case D_BIMODAL: /* page-cache hits and disk misses */
		return rng_next(s) % 10 ? 2000 + rng_next(s) % 500 :
					  5000000 + rng_next(s) % 3000000;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Exact percentile of sorted v: the value of rank ceil(pct/100 * n). */
static uint64_t exact_percentile(const uint64_t *v, size_t n, double pct)
{
	double x = pct / 100.0 * (double)n;
	double r = ceil(x - x * 1e-12);
	size_t rank = r < 1 ? 1 : (size_t)r;

	return v[(rank > n ? n : rank) - 1];
}

static void check_distribution(enum dist d, uint64_t seed)
{
	static const double pcts[] = { 50, 90, 99, 99.9, 99.99, 1, 25, 75 };
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));
	struct lg_histogram *h = malloc(sizeof(*h));
	uint64_t sum = 0;

	assert_non_null(v);
	assert_non_null(h);
	lg_histogram_init(h);
	for (size_t i = 0; i < NSAMPLES; i++) {
		v[i] = sample(d, &seed);
		sum += v[i];
		assert_true(lg_histogram_record(h, v[i]));
	}
	qsort(v, NSAMPLES, sizeof(*v), cmp_u64);
	assert_int_equal(h->count, NSAMPLES);
	assert_int_equal(h->sum_ns, sum);
	assert_int_equal(h->min_ns, v[0]);
	assert_int_equal(h->max_ns, v[NSAMPLES - 1]);
	assert_int_equal(lg_histogram_percentile(h, 0), v[0]);
	assert_int_equal(lg_histogram_percentile(h, 100), v[NSAMPLES - 1]);
	assert_true(fabs(lg_histogram_mean(h) - (double)sum / NSAMPLES) < 1e-6 * (double)sum);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		uint64_t want = exact_percentile(v, NSAMPLES, pcts[i]);
		uint64_t got = lg_histogram_percentile(h, pcts[i]);
		double err = fabs((double)got - (double)want);

		if (want < 2 * LG_HIST_SUB)
			assert_int_equal(got, want); /* one value per bucket: exact */
		else if (err > 0.01 * (double)want)
			fail_msg("dist %d p%g: got %llu want %llu", (int)d, pcts[i],
				 (unsigned long long)got, (unsigned long long)want);
	}
	free(h);
	free(v);
}

static void test_accuracy_small(void **state)
{
	(void)state;
	check_distribution(D_SMALL, 1);
}

static void test_accuracy_uniform(void **state)
{
	(void)state;
	check_distribution(D_UNIFORM, 2);
}

static void test_accuracy_lognormal(void **state)
{
	(void)state;
	check_distribution(D_LOGNORMAL, 3);
}

static void test_accuracy_wide(void **state)
{
	(void)state;
	check_distribution(D_WIDE, 4);
}

static void test_accuracy_bimodal(void **state)
{
	(void)state;
	check_distribution(D_BIMODAL, 5);
}

/* Buckets tile [0, LG_HIST_MAX_NS] without gaps or overlaps, each at most 1/SUB of its
 * lower bound wide, and lg_histogram_bucket agrees with the bounds. */
static void test_bucket_layout(void **state)
{
	uint64_t low, high, prev_high = 0;

	(void)state;
	for (size_t i = 0; i < LG_HIST_BUCKETS; i++) {
		lg_histogram_bucket_bounds(i, &low, &high);
		assert_true(low <= high);
		if (i == 0)
			assert_int_equal(low, 0);
		else
			assert_int_equal(low, prev_high + 1);
		if (low >= 2 * LG_HIST_SUB)
			assert_true(high - low + 1 <= low / LG_HIST_SUB);
		else
			assert_int_equal(high, low);
		assert_int_equal(lg_histogram_bucket(low), i);
		assert_int_equal(lg_histogram_bucket(high), i);
		assert_int_equal(lg_histogram_bucket(low + (high - low) / 2), i);
		prev_high = high;
	}
	assert_int_equal(prev_high, LG_HIST_MAX_NS);
	assert_int_equal(lg_histogram_bucket(LG_HIST_MAX_NS + 1), LG_HIST_BUCKETS - 1);
	assert_int_equal(lg_histogram_bucket(UINT64_MAX), LG_HIST_BUCKETS - 1);
}

static void test_empty(void **state)
{
	struct lg_histogram *h = malloc(sizeof(*h));

	(void)state;
	assert_non_null(h);
	lg_histogram_init(h);
	assert_int_equal(h->count, 0);
	assert_int_equal(h->min_ns, UINT64_MAX);
	assert_int_equal(h->max_ns, 0);
	assert_int_equal(lg_histogram_percentile(h, 0), 0);
	assert_int_equal(lg_histogram_percentile(h, 50), 0);
	assert_int_equal(lg_histogram_percentile(h, 100), 0);
	assert_true(lg_histogram_mean(h) == 0.0);
	free(h);
}

static void test_single_value(void **state)
{
	struct lg_histogram *h = malloc(sizeof(*h));

	(void)state;
	assert_non_null(h);
	lg_histogram_init(h);
	assert_true(lg_histogram_record(h, 123456789));
	/* One value: every percentile is that value, thanks to the [min, max] clamp. */
	assert_int_equal(lg_histogram_percentile(h, 0), 123456789);
	assert_int_equal(lg_histogram_percentile(h, 50), 123456789);
	assert_int_equal(lg_histogram_percentile(h, 99.9), 123456789);
	assert_int_equal(lg_histogram_percentile(h, 100), 123456789);
	assert_int_equal(lg_histogram_percentile(h, -5), 123456789);
	assert_int_equal(lg_histogram_percentile(h, 250), 123456789);
	assert_int_equal(lg_histogram_percentile(h, NAN), 123456789);
	free(h);
}

static void test_out_of_range(void **state)
{
	struct lg_histogram *h = malloc(sizeof(*h));

	(void)state;
	assert_non_null(h);
	lg_histogram_init(h);
	assert_true(lg_histogram_record(h, 0));
	assert_true(lg_histogram_record(h, LG_HIST_MAX_NS));
	assert_false(lg_histogram_record(h, LG_HIST_MAX_NS + 1));
	assert_false(lg_histogram_record(h, UINT64_C(1) << 50));
	assert_int_equal(h->count, 4);
	assert_int_equal(h->min_ns, 0);
	assert_int_equal(h->max_ns, UINT64_C(1) << 50);
	assert_int_equal(h->buckets[0], 1);
	assert_int_equal(h->buckets[LG_HIST_BUCKETS - 1], 3);
	assert_int_equal(lg_histogram_percentile(h, 100), UINT64_C(1) << 50);
	/* Past the range the answer is only "in the top bucket": within its bounds. */
	uint64_t low, high, p = lg_histogram_percentile(h, 50);

	lg_histogram_bucket_bounds(LG_HIST_BUCKETS - 1, &low, &high);
	assert_true(p >= low && p <= high);
	free(h);
}

/* Adding the histograms of parts equals recording everything into one. */
static void test_merge(void **state)
{
	struct lg_histogram *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct lg_histogram *all = malloc(sizeof(*all)), *e = malloc(sizeof(*e));
	uint64_t seed = 42;

	(void)state;
	assert_true(a && b && all && e);
	lg_histogram_init(a);
	lg_histogram_init(b);
	lg_histogram_init(all);
	lg_histogram_init(e);
	for (int i = 0; i < 50000; i++) {
		uint64_t v = sample(i % 3 ? D_LOGNORMAL : D_WIDE, &seed);

		lg_histogram_record(i % 4 ? a : b, v);
		lg_histogram_record(all, v);
	}
	lg_histogram_record(b, LG_HIST_MAX_NS + 7); /* out of range merges too */
	lg_histogram_record(all, LG_HIST_MAX_NS + 7);
	lg_histogram_add(a, e); /* adding an empty one changes nothing */
	lg_histogram_add(e, b); /* adding into an empty one copies */
	assert_memory_equal(e, b, sizeof(*b));
	lg_histogram_add(a, b);
	assert_memory_equal(a, all, sizeof(*all));
	assert_int_equal(lg_histogram_percentile(a, 99), lg_histogram_percentile(all, 99));
	free(a);
	free(b);
	free(all);
	free(e);
}

/* 99.9 % of 1000 values is rank 999, not 1000, even though 99.9 / 100 * 1000 is not
 * exactly 999 in binary floating point. Small values are exact, so ranks show. */
static void test_rank_rounding(void **state)
{
	struct lg_histogram *h = malloc(sizeof(*h));

	(void)state;
	assert_non_null(h);
	lg_histogram_init(h);
	lg_histogram_record(h, 5);
	for (int i = 0; i < 998; i++)
		lg_histogram_record(h, 10);
	lg_histogram_record(h, 100);
	assert_int_equal(lg_histogram_percentile(h, 0.1), 5);   /* rank 1 */
	assert_int_equal(lg_histogram_percentile(h, 0.2), 10);  /* rank 2 */
	assert_int_equal(lg_histogram_percentile(h, 99.9), 10); /* rank 999 */
	assert_int_equal(lg_histogram_percentile(h, 99.91), 100); /* rank 1000 */
	assert_int_equal(lg_histogram_percentile(h, 50), 10);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_layout),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_single_value),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_rank_rounding),
		cmocka_unit_test(test_accuracy_small),
		cmocka_unit_test(test_accuracy_uniform),
		cmocka_unit_test(test_accuracy_lognormal),
		cmocka_unit_test(test_accuracy_wide),
		cmocka_unit_test(test_accuracy_bimodal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
