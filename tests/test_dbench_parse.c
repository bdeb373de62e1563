/* dbench_parse.c: splitting a line into fields (blanks, quotes, in place or copied,
 * the word-at-a-time splitter against the copying one, NUL bytes, too many fields), numbers as dbench reads
 * them but strictly, and the maps (string and number keys, growth, the small-key
 * array). */
#include "load/dbench/dbench_parse.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* line split by lg_dbench_split, or by lg_dbench_split_copy when it must; the
 * fields are NUL-terminated copies in scratch either way, to compare as strings. Fails
 * the test when the line's end is not its first '\n' (or its end). */
static int split(const char *line, struct lg_dbench_line *l, char *scratch)
{
	const char *end = line + strlen(line), *nl = strchr(line, '\n'), *eol;
	int rc = lg_dbench_split(line, end, l, &eol);

	assert_ptr_equal(eol, nl ? nl : end);
	if (rc == LG_DBENCH_SPLIT_COPY)
		return lg_dbench_split_copy(line, eol, scratch, l);
	if (rc == 0)
		lg_dbench_terminate(l, scratch);
	return rc;
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
	/* the line ends at its newline; an unclosed quote at the line's end */
	assert_int_equal(split("a b\nc d e", &l, scratch), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(split("a \"b c\n\"d", &l, scratch), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.tok[1], "b c");
	assert_int_equal(split("\"\" \"", &l, scratch), 0); /* two empty fields */
	assert_int_equal(l.n, 2);
	assert_int_equal(l.len[0] + l.len[1], 0);
}

/* The fields of client.txt's lines are spans of the text itself: quoted as a whole or
 * not quoted at all. Quotes inside a field are for the copying splitter. */
static void test_split_in_place(void **state)
{
	const char line[] = "QUERY_PATH_INFORMATION \"\\clients\\client1\\~dmtmp\" 1004 "
			    "NT_STATUS_OK\r\nClose 1";
	const char *inside = "a\"b c\"", *after = "\"a\"b", *eol;
	struct lg_dbench_line l;

	(void)state;
	assert_int_equal(lg_dbench_split(line, line + sizeof(line) - 1, &l, &eol), 0);
	assert_int_equal(l.n, 4);
	assert_false(l.terminated);
	assert_ptr_equal(l.tok[1], line + 24);
	assert_int_equal(l.len[1], 23);
	assert_ptr_equal(l.tok[3], strstr(line, "NT_STATUS_OK"));
	assert_ptr_equal(eol, strchr(line, '\n'));
	assert_int_equal(lg_dbench_split(inside, inside + strlen(inside), &l, &eol),
			 LG_DBENCH_SPLIT_COPY);
	assert_int_equal(lg_dbench_split(after, after + strlen(after), &l, &eol),
			 LG_DBENCH_SPLIT_COPY);
}

/* Random lines of the bytes that matter: the in-place splitter gives what the copying
 * one gives, or leaves the line to it. */
static void test_split_same_as_copy(void **state)
{
	static const char bytes[] = "ab\"  \t\r!\x01\n";
	char line[48], scratch[128], scratch2[128];
	struct lg_dbench_line fast, copy;
	unsigned seed = 12345, in_place = 0;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		size_t len = (seed = seed * 1103515245 + 12345) >> 16 & 31;
		const char *eol;
		int rc;

		for (size_t j = 0; j < len; j++)
			line[j] = bytes[((seed = seed * 1103515245 + 12345) >> 16) % (sizeof(bytes) - 1)];
		rc = lg_dbench_split(line, line + len, &fast, &eol);
		if (rc == LG_DBENCH_SPLIT_COPY)
			continue;
		assert_int_equal(lg_dbench_split_copy(line, eol, scratch2, &copy), rc);
		if (rc)
			continue;
		in_place++;
		lg_dbench_terminate(&fast, scratch);
		assert_int_equal(fast.n, copy.n);
		for (unsigned f = 0; f < fast.n; f++)
			assert_string_equal(fast.tok[f], copy.tok[f]);
	}
	assert_true(in_place > 100000);
}

/* Every field length around the eight-byte steps, with a blank at each position, in a
 * buffer that ends where the line does (ASan sees a read past it). */
static void test_split_lengths(void **state)
{
	char scratch[128];
	struct lg_dbench_line l;

	(void)state;
	for (size_t a = 1; a < 20; a++) {
		for (size_t b = 1; b < 20; b++) {
			char *line = malloc(a + 1 + b);
			const char *eol;

			assert_non_null(line);
			memset(line, 'x', a);
			line[a] = ' ';
			memset(line + a + 1, 'y', b);
			assert_int_equal(lg_dbench_split(line, line + a + 1 + b, &l, &eol), 0);
			assert_ptr_equal(eol, line + a + 1 + b);
			assert_int_equal(l.n, 2);
			assert_int_equal(l.len[0], a);
			assert_int_equal(l.len[1], b);
			lg_dbench_terminate(&l, scratch);
			assert_int_equal(strspn(l.tok[0], "x"), a);
			assert_int_equal(strspn(l.tok[1], "y"), b);
			free(line);
		}
	}
}

static void test_split_nul(void **state)
{
	const char line[] = "abcdefghij k\0lmnop\nq";
	struct lg_dbench_line l;
	const char *eol;
	char scratch[64];

	(void)state;
	assert_int_equal(lg_dbench_split(line, line + sizeof(line) - 1, &l, &eol),
			 LG_DBENCH_SPLIT_COPY);
	assert_ptr_equal(eol, line + 18);
	assert_int_equal(lg_dbench_split_copy(line, eol, scratch, &l), -EINVAL);
	/* a line that ends before the NUL is fine */
	assert_int_equal(lg_dbench_split(line, line + 12, &l, &eol), 0);
	assert_int_equal(l.n, 2);
}

static int number(const char *s, uint64_t *v)
{
	return lg_dbench_number(s, strlen(s), v);
}

static void test_number(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(number("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(number("65536", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(number("0x40", &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(number("0XfF", &v), 0);
	assert_int_equal(v, 255);
	assert_int_equal(number("010", &v), 0); /* octal, as strtoll base 0 */
	assert_int_equal(v, 8);
	assert_int_equal(number("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(number("18446744073709551616", &v), -ERANGE);
	assert_int_equal(number("99999999999999999999999", &v), -ERANGE);
	assert_int_equal(number("0x10000000000000000", &v), -ERANGE);
	assert_int_equal(number("0xffffffffffffffff", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(number("*", &v), -ENOTSUP);
	assert_int_equal(number("+5", &v), -ENOTSUP);
	assert_int_equal(number("-5", &v), -EINVAL);
	assert_int_equal(number("12a", &v), -EINVAL);
	assert_int_equal(number("0x", &v), -EINVAL);
	assert_int_equal(number("0xg", &v), -EINVAL);
	assert_int_equal(number("08", &v), -EINVAL);
	assert_int_equal(number("", &v), -EINVAL);
	assert_int_equal(number(" 1", &v), -EINVAL);
	/* the length bounds the number: no NUL needed */
	assert_int_equal(lg_dbench_number("123 NT", 3, &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(lg_dbench_number("0x1f0", 4, &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(lg_dbench_number("0177", 3, &v), 0);
	assert_int_equal(v, 15);
	assert_int_equal(number("0777777777777777777777", &v), 0); /* 2^63 - 1 */
	assert_int_equal(v, INT64_MAX);
	assert_int_equal(number("01777777777777777777777", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(number("02000000000000000000000", &v), -ERANGE);
	assert_int_equal(number("9999999999999999999", &v), 0); /* 19 digits: unchecked */
	assert_int_equal(v, UINT64_C(9999999999999999999));
	assert_int_equal(number("00000000000000000000001", &v), 0);
	assert_int_equal(v, 1);
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
		cmocka_unit_test(test_split_in_place),
		cmocka_unit_test(test_split_same_as_copy),
		cmocka_unit_test(test_split_lengths),
		cmocka_unit_test(test_split_nul),
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_map_strings),
		cmocka_unit_test(test_map_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
