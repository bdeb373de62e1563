/* Tests for lg_edit_distance and the lg_suggest "did you mean" search. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/model/suggest.h"

static const char *const ops[] = {
	"open", "create", "close", "write", "read", "fsync", "fdatasync", "unlink", "mkdir",
	"rmdir", "rename", "stat", "fstat", "truncate", "readdir", "sync_file_range",
	"fadvise", "syncfs", "sleep", NULL,
};

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(lg_edit_distance("", "", 5), 0);
	assert_int_equal(lg_edit_distance("abc", "", 5), 3);
	assert_int_equal(lg_edit_distance("", "abc", 5), 3);
	assert_int_equal(lg_edit_distance("write", "write", 5), 0);
	assert_int_equal(lg_edit_distance("wirte", "write", 5), 1);   /* swap */
	assert_int_equal(lg_edit_distance("writ", "write", 5), 1);    /* insertion */
	assert_int_equal(lg_edit_distance("writte", "write", 5), 1);  /* deletion */
	assert_int_equal(lg_edit_distance("wrxte", "write", 5), 1);   /* substitution */
	assert_int_equal(lg_edit_distance("WRITE", "write", 5), 0);   /* case is free */
	assert_int_equal(lg_edit_distance("kitten", "sitting", 5), 3);
	assert_int_equal(lg_edit_distance("ca", "abc", 5), 3);        /* OSA, not full DL */
	/* capped: anything beyond the cap is cap + 1 */
	assert_int_equal(lg_edit_distance("abcdef", "uvwxyz", 2), 3);
	assert_int_equal(lg_edit_distance("a", "abcdefgh", 3), 4);
}

static void test_long_words(void **state)
{
	char big[LG_SUGGEST_MAX_LEN + 2];

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(lg_edit_distance(big, "a", 100), 101);
	assert_int_equal(lg_edit_distance("a", big, 100), 101);
	big[LG_SUGGEST_MAX_LEN] = '\0'; /* exactly the limit is still compared */
	assert_int_equal(lg_edit_distance(big, big, 0), 0);
}

/* The suggestion for word among ops, or NULL. */
static const char *best(const char *word)
{
	struct lg_suggest s;

	lg_suggest_init(&s, word);
	lg_suggest_add_all(&s, ops);
	return lg_suggest_best(&s);
}

static void test_suggest(void **state)
{
	(void)state;
	assert_string_equal(best("wirte"), "write");
	assert_string_equal(best("Write"), "write");
	assert_string_equal(best("mkdri"), "mkdir");
	assert_string_equal(best("fdatsync"), "fdatasync");
	assert_string_equal(best("sync_filerange"), "sync_file_range");
	assert_string_equal(best("fadvice"), "fadvise");
	/* nothing alike: no suggestion rather than a silly one */
	assert_null(best("frobnicate"));
	assert_null(best("xyz"));
	assert_null(best(""));
	/* short words allow one edit only */
	assert_null(best("rd"));
}

static void test_first_closest_wins(void **state)
{
	static const char *const c[] = { "abcx", "abcd", "abc", NULL };
	struct lg_suggest s;

	(void)state;
	lg_suggest_init(&s, "abcd");
	lg_suggest_add(&s, NULL);
	lg_suggest_add_all(&s, c); /* the word itself is not a suggestion */
	assert_string_equal(lg_suggest_best(&s), "abcx");
	assert_int_equal(s.dist, 1);
	assert_int_equal(s.ties, 1);
}

static void test_hint(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(lg_suggest_hint("wirte", ops, buf, sizeof(buf)),
			    "; did you mean 'write'?");
	assert_string_equal(lg_suggest_hint("zzzzzz", ops, buf, sizeof(buf)), "");
	/* a short buffer is cut, never overrun */
	assert_int_equal(strlen(lg_suggest_hint("wirte", ops, buf, 8)), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_long_words),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_first_closest_wins),
		cmocka_unit_test(test_hint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
