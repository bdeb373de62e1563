/* dbench_names.c: NT status words to expected results, NTCreateX dispositions to open
 * flags, SMB paths to path templates, DOS wildcards to fnmatch patterns. */
#include "load/dbench/dbench_names.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/model/workload.h"

static void test_status(void **state)
{
	int32_t expect = 7;
	bool ok = false;

	(void)state;
	assert_int_equal(lg_dbench_status("NT_STATUS_OK", &expect, &ok), 0);
	assert_true(ok);
	assert_int_equal(expect, LG_EXPECT_OK);
	assert_int_equal(lg_dbench_status("NT_STATUS_OBJECT_NAME_NOT_FOUND", &expect, &ok), 0);
	assert_false(ok);
	assert_int_equal(expect, ENOENT);
	assert_int_equal(lg_dbench_status("0xC0000035", &expect, &ok), 0); /* by code */
	assert_int_equal(expect, EEXIST);
	assert_int_equal(lg_dbench_status("0x00000000", &expect, &ok), 0);
	assert_true(ok);
	assert_int_equal(lg_dbench_status("SUCCESS", &expect, &ok), 0);
	assert_true(ok);
	assert_int_equal(lg_dbench_status("ERROR", &expect, &ok), 0);
	assert_int_equal(expect, LG_EXPECT_ANY);
	assert_false(ok);
	assert_int_equal(lg_dbench_status("*", &expect, &ok), 0);
	assert_int_equal(expect, LG_EXPECT_ANY);
	assert_int_equal(lg_dbench_status("NT_STATUS_SHARING_VIOLATION", &expect, &ok), 0);
	assert_int_equal(expect, LG_EXPECT_ANY); /* no POSIX counterpart: not checked */
	assert_int_equal(lg_dbench_status("NT_STATUS_NONSENSE", &expect, &ok), -EINVAL);
	assert_int_equal(lg_dbench_status("0x", &expect, &ok), -EINVAL);
	assert_int_equal(lg_dbench_status("0x1FFFFFFFF", &expect, &ok), -EINVAL);
	assert_int_equal(lg_dbench_status("0xC0000034z", &expect, &ok), -EINVAL);
	assert_true(lg_dbench_status_like("NT_STATUS_X"));
	assert_true(lg_dbench_status_like("0x1"));
	assert_true(lg_dbench_status_like("*"));
	assert_false(lg_dbench_status_like("16385"));
	assert_false(lg_dbench_status_like("nt_status_ok"));
}

static void test_create_flags(void **state)
{
	int32_t f;

	(void)state;
	assert_int_equal(lg_dbench_create_flags(0, 1, &f), 0); /* FILE_OPEN */
	assert_int_equal(f, O_RDWR);
	assert_int_equal(lg_dbench_create_flags(0, 2, &f), 0); /* FILE_CREATE */
	assert_int_equal(f, O_RDWR | O_CREAT);
	assert_int_equal(lg_dbench_create_flags(0, 3, &f), 0); /* FILE_OPEN_IF */
	assert_int_equal(f, O_RDWR | O_CREAT);
	assert_int_equal(lg_dbench_create_flags(0, 4, &f), 0); /* FILE_OVERWRITE */
	assert_int_equal(f, O_RDWR | O_TRUNC);
	assert_int_equal(lg_dbench_create_flags(0, 5, &f), 0); /* FILE_OVERWRITE_IF */
	assert_int_equal(f, O_RDWR | O_CREAT | O_TRUNC);
	assert_int_equal(lg_dbench_create_flags(0, 0, &f), 0); /* FILE_SUPERSEDE */
	assert_int_equal(f, O_RDWR | O_CREAT | O_TRUNC);
	assert_int_equal(lg_dbench_create_flags(1, 2, &f), 0); /* a directory, created */
	assert_int_equal(f, O_RDONLY | O_DIRECTORY | O_CREAT);
	assert_int_equal(lg_dbench_create_flags(1, 1, &f), 0);
	assert_int_equal(f, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lg_dbench_create_flags(0, 6, &f), -EINVAL);
}

static void test_path(void **state)
{
	char out[LG_DBENCH_MAX_PATH + 1];
	const char *why = NULL;

	(void)state;
	assert_int_equal(lg_dbench_path("\\clients\\client1\\~dmtmp\\WORD", out, sizeof(out),
					&why), 0);
	assert_string_equal(out, "clients/client${client}/~dmtmp/WORD");
	assert_int_equal(lg_dbench_path("\\\\a\\client10\\client1x", out, sizeof(out), &why), 0);
	assert_string_equal(out, "a/client10/client1x"); /* whole components only */
	assert_int_equal(lg_dbench_path("x/${y}", out, sizeof(out), &why), -EINVAL);
	assert_non_null(strstr(why, "${"));
	assert_int_equal(lg_dbench_path("abcdef", out, 4, &why), -EINVAL);
	assert_string_equal(why, "too long");
	assert_int_equal(lg_dbench_path("a\\..\\..\\etc", out, sizeof(out), &why), -EINVAL);
}

static void test_wildcard(void **state)
{
	char dir[64], pat[64];

	(void)state;
	assert_false(lg_dbench_wildcard("\\clients\\client1\\file.txt", dir, pat));
	assert_true(lg_dbench_wildcard("\\clients\\client1\\<.TMP", dir, pat));
	assert_string_equal(dir, "\\clients\\client1");
	assert_string_equal(pat, "*.TMP");
	assert_true(lg_dbench_wildcard("\\a\\f>\"x[1]*", dir, pat));
	assert_string_equal(pat, "f?.x\\[1]*");
	assert_true(lg_dbench_wildcard("*", dir, pat));
	assert_string_equal(dir, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_create_flags),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_wildcard),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
