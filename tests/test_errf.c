/* errf.c: the message helper every module reports through -- formatted into the
 * caller's buffer, cut to fit and always terminated, after a prefix when one is
 * there, nothing written without a buffer, and the return code handed back. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/model/errf.h"

/* lg_verrf through a variadic wrapper, as the loaders call it after their prefix. */
static int after_prefix(char *err, size_t len, size_t off, int rc, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int after_prefix(char *err, size_t len, size_t off, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rc = lg_verrf(err, len, off, rc, fmt, ap);
	va_end(ap);
	return rc;
}

static void test_format_and_rc(void **state)
{
	char err[64];

	(void)state;
	assert_int_equal(lg_errf(err, sizeof(err), -EINVAL, "%s:%d:%d: bad %s", "t.yaml", 3, 7,
				 "size"), -EINVAL);
	assert_string_equal(err, "t.yaml:3:7: bad size");
	assert_int_equal(lg_errf(err, sizeof(err), -ENOMEM, "out of memory"), -ENOMEM);
	assert_string_equal(err, "out of memory");
	assert_int_equal(lg_errf(err, sizeof(err), 0, "%s", ""), 0);
	assert_string_equal(err, "");
}

/* A message longer than the buffer is cut to fit, terminated, and nothing past the
 * buffer is touched. */
static void test_cut_to_fit(void **state)
{
	char buf[16];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(lg_errf(buf, 8, -EINVAL, "%s", "0123456789"), -EINVAL);
	assert_string_equal(buf, "0123456");
	assert_int_equal(buf[8], 'x');
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(lg_errf(buf, 1, -EINVAL, "anything"), -EINVAL);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'x');
}

/* No buffer, or one of no bytes: nothing is written, the code still comes back. */
static void test_no_buffer(void **state)
{
	char buf[4] = "abc";

	(void)state;
	assert_int_equal(lg_errf(NULL, 100, -EIO, "x"), -EIO);
	assert_int_equal(lg_errf(buf, 0, -EIO, "x"), -EIO);
	assert_string_equal(buf, "abc");
}

/* After a prefix: the message goes at err + off; a prefix that filled the buffer
 * leaves it as it is. */
static void test_after_prefix(void **state)
{
	char err[32] = "f.txt:9: ";

	(void)state;
	assert_int_equal(after_prefix(err, sizeof(err), strlen(err), -EINVAL, "bad %s '%s'",
				      "op", "Frob"), -EINVAL);
	assert_string_equal(err, "f.txt:9: bad op 'Frob'");
	strcpy(err, "f.txt:9: ");
	assert_int_equal(after_prefix(err, 12, 9, -EINVAL, "%s", "message"), -EINVAL);
	assert_string_equal(err, "f.txt:9: me");
	strcpy(err, "0123456789");
	assert_int_equal(after_prefix(err, 10, 10, -E2BIG, "%s", "more"), -E2BIG);
	assert_int_equal(after_prefix(err, 10, 11, -E2BIG, "%s", "more"), -E2BIG);
	assert_string_equal(err, "0123456789");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_and_rc),
		cmocka_unit_test(test_cut_to_fit),
		cmocka_unit_test(test_no_buffer),
		cmocka_unit_test(test_after_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
