/* errnames.c: errno values to their names and back, for every value counted per errno,
 * with glibc's other spellings accepted and unknown values and names handled. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/counters/counters.h"

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(lg_errno_name(0), "OK");
	assert_string_equal(lg_errno_name(ENOENT), "ENOENT");
	assert_string_equal(lg_errno_name(EEXIST), "EEXIST");
	assert_string_equal(lg_errno_name(ENOSPC), "ENOSPC");
	assert_string_equal(lg_errno_name(EAGAIN), "EAGAIN");
	assert_string_equal(lg_errno_name(9999), "E9999"); /* no name: the number */
}

static void test_values(void **state)
{
	(void)state;
	assert_int_equal(lg_errno_value("ENOENT"), ENOENT);
	assert_int_equal(lg_errno_value("EDQUOT"), EDQUOT);
	assert_int_equal(lg_errno_value("EWOULDBLOCK"), EAGAIN); /* glibc says EAGAIN */
	assert_int_equal(lg_errno_value("ENOTSUP"), EOPNOTSUPP);
	assert_int_equal(lg_errno_value("EDEADLOCK"), EDEADLK);
	assert_int_equal(lg_errno_value("enoent"), -1); /* names are upper case */
	assert_int_equal(lg_errno_value("ENOSUCH"), -1);
	assert_int_equal(lg_errno_value(""), -1);
	assert_int_equal(lg_errno_value("OK"), -1);
}

/* Every value that has a name comes back from it. */
static void test_round_trip(void **state)
{
	int named = 0;

	(void)state;
	for (int e = 1; e < LG_ERRNO_MAX; e++) {
		const char *n = lg_errno_name(e);

		if (n[1] >= '0' && n[1] <= '9')
			continue;
		named++;
		assert_int_equal(lg_errno_value(n), e);
	}
	assert_true(named > 120);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
