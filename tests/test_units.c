/* Tests for lg_parse_size, lg_parse_duration and lg_parse_count. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/model/units.h"

/* Assert that s parses as a size equal to want. */
static void size_ok(const char *s, uint64_t want)
{
	const char *why = NULL;
	uint64_t v = 12345;

	if (lg_parse_size(s, &v, &why) != 0)
		fail_msg("size '%s' rejected: %s", s, why);
	if (v != want)
		fail_msg("size '%s' = %llu, want %llu", s, (unsigned long long)v,
			 (unsigned long long)want);
}

/* Assert that s is rejected as a size with rc, leaving *out alone and setting why. */
static void size_bad(const char *s, int rc)
{
	const char *why = NULL;
	uint64_t v = 777;
	int got = lg_parse_size(s, &v, &why);

	if (got != rc)
		fail_msg("size '%s': rc %d, want %d", s, got, rc);
	assert_non_null(why);
	assert_int_equal(v, 777);
}

static void duration_ok(const char *s, uint64_t want)
{
	const char *why = NULL;
	uint64_t v = 0;

	if (lg_parse_duration(s, &v, &why) != 0)
		fail_msg("duration '%s' rejected: %s", s, why);
	if (v != want)
		fail_msg("duration '%s' = %llu, want %llu", s, (unsigned long long)v,
			 (unsigned long long)want);
}

static void duration_bad(const char *s, int rc)
{
	const char *why = NULL;
	uint64_t v = 0;
	int got = lg_parse_duration(s, &v, &why);

	if (got != rc)
		fail_msg("duration '%s': rc %d, want %d", s, got, rc);
	assert_non_null(why);
}

static void count_bad(const char *s, int rc)
{
	const char *why = NULL;
	uint64_t v = 0;
	int got = lg_parse_count(s, &v, &why);

	if (got != rc)
		fail_msg("count '%s': rc %d, want %d", s, got, rc);
	assert_non_null(why);
}

static void test_size_plain(void **state)
{
	(void)state;
	size_ok("0", 0);
	size_ok("1", 1);
	size_ok("4096", 4096);
	size_ok("007", 7);
	size_ok("4096B", 4096);
	size_ok("18446744073709551615", UINT64_MAX);
}

static void test_size_binary_units(void **state)
{
	(void)state;
	size_ok("1K", 1024);
	size_ok("4KiB", 4096);
	size_ok("1M", 1048576);
	size_ok("2MiB", 2097152);
	size_ok("1G", 1073741824ULL);
	size_ok("3GiB", 3ULL << 30);
	size_ok("1T", 1ULL << 40);
	size_ok("5TiB", 5ULL << 40);
	size_ok("64 KiB", 65536);
	size_ok("64\tK", 65536);
}

static void test_size_decimal_units(void **state)
{
	(void)state;
	size_ok("1KB", 1000);
	size_ok("1kB", 1000);
	size_ok("2MB", 2000000);
	size_ok("3GB", 3000000000ULL);
	size_ok("4TB", 4000000000000ULL);
}

static void test_size_garbage(void **state)
{
	(void)state;
	size_bad("", -EINVAL);
	size_bad("-1", -EINVAL);
	size_bad("+1", -EINVAL);
	size_bad(" 1", -EINVAL);
	size_bad("1 ", -EINVAL);
	size_bad("1.5K", -EINVAL);
	size_bad("1,5K", -EINVAL);
	size_bad("0x10", -EINVAL);
	size_bad("K", -EINVAL);
	size_bad("4k", -EINVAL);  /* lower-case k alone is ambiguous: refused */
	size_bad("4kib", -EINVAL);
	size_bad("4KiBB", -EINVAL);
	size_bad("4 K B", -EINVAL);
	size_bad("4P", -EINVAL);
	size_bad("4b", -EINVAL);
	size_bad("1e3", -EINVAL);
}

static void test_size_overflow(void **state)
{
	(void)state;
	size_bad("18446744073709551616", -ERANGE);
	size_bad("99999999999999999999999", -ERANGE);
	size_bad("16777216TiB", -ERANGE); /* 2^24 * 2^40 = 2^64 */
	size_ok("16777215TiB", 16777215ULL << 40);
	size_bad("18446744073709552KB", -ERANGE);
}

static void test_duration(void **state)
{
	(void)state;
	duration_ok("0", 0);
	duration_ok("5", 5000000000ULL);
	duration_ok("7ns", 7);
	duration_ok("7us", 7000);
	duration_ok("7ms", 7000000);
	duration_ok("7s", 7000000000ULL);
	duration_ok("2m", 120000000000ULL);
	duration_ok("1h", 3600000000000ULL);
	duration_ok("10 ms", 10000000);
	duration_ok("18446744073709551615ns", UINT64_MAX);
}

static void test_duration_bad(void **state)
{
	(void)state;
	duration_bad("", -EINVAL);
	duration_bad("-1s", -EINVAL);
	duration_bad("1.5s", -EINVAL);
	duration_bad("10sec", -EINVAL);
	duration_bad("10 ", -EINVAL);
	duration_bad("ms", -EINVAL);
	duration_bad("10MS", -EINVAL);
	duration_bad("18446744073709551616ns", -ERANGE);
	duration_bad("18446744074s", -ERANGE);
	duration_bad("5124096h", -ERANGE);
}

static void test_count(void **state)
{
	const char *why = NULL;
	uint64_t v = 1;

	(void)state;
	assert_int_equal(lg_parse_count("0", &v, &why), 0);
	assert_int_equal(v, 0);
	assert_int_equal(lg_parse_count("16", &v, &why), 0);
	assert_int_equal(v, 16);
	assert_int_equal(lg_parse_count("18446744073709551615", &v, &why), 0);
	assert_int_equal(v, UINT64_MAX);
	count_bad("", -EINVAL);
	count_bad("-3", -EINVAL);
	count_bad("3.0", -EINVAL);
	count_bad("3K", -EINVAL);
	count_bad("3 ", -EINVAL);
	count_bad("abc", -EINVAL);
	count_bad("18446744073709551616", -ERANGE);
}

/* Assert the hint for a bad value s (a duration if dur) is want ("" for none). */
static void hint_is(const char *s, bool dur, const char *want)
{
	char buf[160];
	int rc = lg_units_hint(s, dur, buf, sizeof(buf));

	if (strcmp(buf, want) != 0 || rc != (*want ? 0 : -ENOENT))
		fail_msg("hint for '%s': rc %d '%s', want '%s'", s, rc, buf, want);
}

static void test_hints(void **state)
{
	(void)state;
	/* fractions: the same quantity in a smaller unit, when it is whole */
	hint_is("1.5s", true, "did you mean '1500ms'?");
	hint_is("1.5", true, "did you mean '1500ms'?");
	hint_is("0.25m", true, "did you mean '15s'?");
	hint_is("2,5ms", true, "did you mean '2500us'?");
	hint_is("1.5GiB", false, "did you mean '1536MiB'?");
	hint_is("0.5K", false, "did you mean '512B'?");
	hint_is("1.5MB", false, "did you mean '1500kB'?");
	hint_is("1.3K", false, "");     /* 1331.2 bytes: no whole number */
	hint_is("1.5ns", true, "");
	/* units spelt another way */
	hint_is("64kb", false, "did you mean '64KiB' (powers of 1024) or '64kB' (powers of "
		"1000)?");
	hint_is("64 mb", false, "did you mean '64MiB' (powers of 1024) or '64MB' (powers of "
		"1000)?");
	hint_is("64kib", false, "did you mean '64KiB'?");
	hint_is("10sec", true, "did you mean '10s'?");
	hint_is("3 mins", true, "did you mean '3m'?");
	hint_is("20mss", true, "did you mean '20ms'?");
	hint_is("64MB", true, "");      /* a size where a time belongs */
	hint_is("abc", true, "");
	hint_is("5 parsecs", true, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_plain),
		cmocka_unit_test(test_size_binary_units),
		cmocka_unit_test(test_size_decimal_units),
		cmocka_unit_test(test_size_garbage),
		cmocka_unit_test(test_size_overflow),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_duration_bad),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_hints),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
