/* Version order: a shuffled list sorted by qsort with lg_version_cmp comes out in the
 * expected order, and the order is total (antisymmetric, transitive) on that list. */
#include "loadgen/model/version.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* in order; every neighbour pair is one rule of the header */
static const char *const expected[] = {
	"2.6.32",
	"3.10.0-1160.el7.x86_64",
	"5.15.0-91-generic",
	"6.1.0-rc8",
	"6.1.0",
	"6.1.0-13-amd64",
	"6.1.0-18-amd64",
	"6.1.0-18-cloud-amd64",
	"6.1.1",
	"6.9",
	"6.9.12",
	"6.10-rc1",
	"6.10-rc2",
	"6.10-rc10",
	"6.10",
	"6.010.1",
	"6.10.1",
	"6.10.2",
	"6.10.10",
	"6.10.10+",
	"10.0~beta1",
	"10.0",
	"linux-6.9",
	"linux-6.10",
	"v6.9",
	"v6.10-rc1",
	"v6.10",
};

static int cmp(const void *a, const void *b)
{
	return lg_version_cmp(*(const char *const *)a, *(const char *const *)b);
}

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void test_sort(void **state)
{
	const char *list[N(expected)];
	uint64_t r = 12345;

	(void)state;
	memcpy(list, expected, sizeof(list));
	for (size_t i = N(list) - 1; i > 0; i--) {
		size_t j;
		const char *t;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		j = (size_t)(r % (i + 1));
		t = list[i];
		list[i] = list[j];
		list[j] = t;
	}
	qsort(list, N(list), sizeof(list[0]), cmp);
	for (size_t i = 0; i < N(list); i++)
		if (strcmp(list[i], expected[i]))
			fail_msg("position %zu: %s, want %s", i, list[i], expected[i]);
}

static void test_total(void **state)
{
	size_t n = N(expected);

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int ij = sign(lg_version_cmp(expected[i], expected[j]));

			assert_int_equal(ij, -sign(lg_version_cmp(expected[j], expected[i])));
			assert_int_equal(ij, (i > j) - (i < j));
			for (size_t k = 0; k < n; k++)
				if (ij < 0 && lg_version_cmp(expected[j], expected[k]) < 0)
					assert_true(lg_version_cmp(expected[i], expected[k]) < 0);
		}
}

static void test_edges(void **state)
{
	(void)state;
	assert_int_equal(lg_version_cmp("6.10", "6.10"), 0);
	assert_true(lg_version_cmp("", "0") < 0);
	assert_true(lg_version_cmp(NULL, "") < 0);
	assert_int_equal(lg_version_cmp(NULL, NULL), 0);
	/* equal by value, different strings: never 0 */
	assert_true(lg_version_cmp("6.010", "6.10") != 0);
	assert_int_equal(sign(lg_version_cmp("6.010", "6.10")), -sign(lg_version_cmp("6.10", "6.010")));
	/* numbers longer than any integer type */
	assert_true(lg_version_cmp("1.99999999999999999999999", "1.100000000000000000000000") < 0);
	assert_true(lg_version_cmp("6.10-RC1", "6.10") < 0);
	assert_true(lg_version_cmp("6.10rc1", "6.10") < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_total),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
