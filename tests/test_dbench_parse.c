/* dbench_parse.c: splitting a line into fields (blanks, quotes, the word-at-a-time
 * path against the byte path, NUL bytes, too many fields), numbers as dbench reads
 * them but strictly, and the maps (string and number keys, growth, the small-key
 * array). */
#include "dbench_parse.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int split(const char *line, struct lg_dbench_line *l, char *scratch)
{
	return lg_dbench_split(line, line + strlen(line), scratch, l);
}

static void test_split(void **state)
{
	struct lg_dbench_line l;
	char scratch[256];

	(void)state;
	assert_int_equal(split("NTCreateX \"\\clients\\client1\" 0x1 0x2 16385 NT_STATUS_OK",
			       &l, scratch), 0);
	assert_int_equal(l.n, 6);
	assert_string_equal(l.tok[0], "NTCreateX");
	assert_string_equal(l.tok[1], "\\clients\\client1");
	assert_int_equal(l.len[1], 16);
	assert_string_equal(l.tok[5], "NT_STATUS_OK");
	assert_int_equal(l.len[5], 12);
	/* blanks: spaces, tabs, CR; quotes group blanks and vanish anywhere */
	assert_int_equal(split(" \t a\tb\r \"c d\"e\"\"  \r", &l, scratch), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.tok[0], "a");
	assert_string_equal(l.tok[1], "b");
	assert_string_equal(l.tok[2], "c de");
	assert_int_equal(l.len[2], 4);
	assert_int_equal(split("", &l, scratch), 0);
	assert_int_equal(l.n, 0);
	assert_int_equal(split("   ", &l, scratch), 0);
	assert_int_equal(l.n, 0);
	/* '!' (0x21) sits among the bytes the word test flags: still text */
	assert_int_equal(split("a!b!c!d!e!f!g!h!i ok", &l, scratch), 0);
	assert_string_equal(l.tok[0], "a!b!c!d!e!f!g!h!i");
	assert_int_equal(split("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", &l, scratch), 0);
	assert_int_equal(l.n, 16);
	assert_int_equal(split("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", &l, scratch),
			 -E2BIG);
}

/* Every field length around the eight-byte steps, with a blank at each position. */
static void test_split_lengths(void **state)
{
	char line[64], scratch[128];
	struct lg_dbench_line l;

	(void)state;
	for (size_t a = 1; a < 20; a++) {
		for (size_t b = 1; b < 20; b++) {
			memset(line, 'x', a);
			line[a] = ' ';
			memset(line + a + 1, 'y', b);
			line[a + 1 + b] = '\0';
			assert_int_equal(split(line, &l, scratch), 0);
			assert_int_equal(l.n, 2);
			assert_int_equal(l.len[0], a);
			assert_int_equal(l.len[1], b);
			assert_int_equal(strspn(l.tok[0], "x"), a);
			assert_int_equal(strspn(l.tok[1], "y"), b);
		}
	}
}

static void test_split_nul(void **state)
{
	const char line[] = "abcdefghij k\0lmnop";
	struct lg_dbench_line l;
	char scratch[64];

	(void)state;
	assert_int_equal(lg_dbench_split(line, line + sizeof(line) - 1, scratch, &l), -EINVAL);
	/* a line that ends before the NUL is fine */
	assert_int_equal(lg_dbench_split(line, line + 12, scratch, &l), 0);
	assert_int_equal(l.n, 2);
}

static void test_number(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(lg_dbench_number("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(lg_dbench_number("65536", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(lg_dbench_number("0x40", &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(lg_dbench_number("0XfF", &v), 0);
	assert_int_equal(v, 255);
	assert_int_equal(lg_dbench_number("010", &v), 0); /* octal, as strtoll base 0 */
	assert_int_equal(v, 8);
	assert_int_equal(lg_dbench_number("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(lg_dbench_number("18446744073709551616", &v), -ERANGE);
	assert_int_equal(lg_dbench_number("99999999999999999999999", &v), -ERANGE);
	assert_int_equal(lg_dbench_number("0x10000000000000000", &v), -ERANGE);
	assert_int_equal(lg_dbench_number("0xffffffffffffffff", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(lg_dbench_number("*", &v), -ENOTSUP);
	assert_int_equal(lg_dbench_number("+5", &v), -ENOTSUP);
	assert_int_equal(lg_dbench_number("-5", &v), -EINVAL);
	assert_int_equal(lg_dbench_number("12a", &v), -EINVAL);
	assert_int_equal(lg_dbench_number("0x", &v), -EINVAL);
	assert_int_equal(lg_dbench_number("0xg", &v), -EINVAL);
	assert_int_equal(lg_dbench_number("08", &v), -EINVAL);
	assert_int_equal(lg_dbench_number("", &v), -EINVAL);
	assert_int_equal(lg_dbench_number(" 1", &v), -EINVAL);
}

static void test_map_strings(void **state)
{
	struct lg_dbench_map m = { 0 };
	uint32_t v[2];
	char key[32];

	(void)state;
	assert_int_equal(lg_dbench_map_get(&m, "a", 1, lg_dbench_hash("a", 1), v), -ENOENT);
	for (uint32_t i = 0; i < 5000; i++) { /* past several doublings */
		size_t n = (size_t)snprintf(key, sizeof(key), "\\clients\\client1\\f%u", i);
		uint32_t put[2] = { i, i * 2 };

		assert_int_equal(lg_dbench_map_put(&m, key, n, lg_dbench_hash(key, n), put), 0);
	}
	for (uint32_t i = 0; i < 5000; i++) {
		size_t n = (size_t)snprintf(key, sizeof(key), "\\clients\\client1\\f%u", i);

		assert_int_equal(lg_dbench_map_get(&m, key, n, lg_dbench_hash(key, n), v), 0);
		assert_int_equal(v[0], i);
		assert_int_equal(v[1], i * 2);
	}
	/* a prefix of a key, and the same bytes with another length, are other keys */
	assert_int_equal(lg_dbench_map_get(&m, "\\clients\\client1\\f1", 17,
					   lg_dbench_hash("\\clients\\client1\\f1", 17), v),
			 -ENOENT);
	assert_int_not_equal(lg_dbench_hash("abcdefgh", 8), lg_dbench_hash("abcdefgh\0", 9));
	assert_int_not_equal(lg_dbench_hash("abcdefghi", 9), lg_dbench_hash("abcdefghj", 9));
	lg_dbench_map_free(&m);
	assert_int_equal(m.cap, 0);
	lg_dbench_map_free(&m); /* twice is fine */
}

static void test_map_numbers(void **state)
{
	struct lg_dbench_map m = { 0 };
	uint32_t v;

	(void)state;
	assert_int_equal(lg_dbench_map_get_num(&m, 7, &v), -ENOENT);
	assert_int_equal(lg_dbench_map_put_num(&m, 7, 70), 0);
	assert_int_equal(lg_dbench_map_put_num(&m, 0, 1), 0);
	assert_int_equal(lg_dbench_map_put_num(&m, LG_DBENCH_SMALL_KEYS - 1, 3), 0);
	for (uint64_t k = 0; k < 3000; k++) /* beyond the small keys: hashed */
		assert_int_equal(lg_dbench_map_put_num(&m, UINT64_MAX - k, (uint32_t)k), 0);
	assert_int_equal(lg_dbench_map_get_num(&m, 7, &v), 0);
	assert_int_equal(v, 70);
	assert_int_equal(lg_dbench_map_get_num(&m, 0, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(lg_dbench_map_get_num(&m, LG_DBENCH_SMALL_KEYS - 1, &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(lg_dbench_map_get_num(&m, 8, &v), -ENOENT);
	assert_int_equal(lg_dbench_map_get_num(&m, LG_DBENCH_SMALL_KEYS, &v), -ENOENT);
	for (uint64_t k = 0; k < 3000; k++) {
		assert_int_equal(lg_dbench_map_get_num(&m, UINT64_MAX - k, &v), 0);
		assert_int_equal(v, k);
	}
	assert_int_equal(lg_dbench_map_put_num(&m, 7, 71), 0); /* overwrite a small key */
	assert_int_equal(lg_dbench_map_get_num(&m, 7, &v), 0);
	assert_int_equal(v, 71);
	lg_dbench_map_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_lengths),
		cmocka_unit_test(test_split_nul),
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_map_strings),
		cmocka_unit_test(test_map_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
