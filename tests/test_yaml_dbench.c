/* yaml_dbench.c: the YAML forms of dbench's ops through lg_yaml_load -- ntcreate's
 * flags (create, truncate, directory) as open flags and whether it binds a slot, find's
 * pattern and max, lock/unlock ranges -- and their errors. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"

static char err[512];

static int load(const char *yaml, struct lg_workload **wl)
{
	*wl = NULL;
	return lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, 1, wl, err, sizeof(err));
}

#define OP(wl, i) (&(wl)->ops[LG_PHASE_RUN][i])

static void test_fields(void **state)
{
	struct lg_workload *wl;

	(void)state;
	assert_int_equal(load("run:\n"
		"  - ntcreate: {path: d, as: d, flags: [directory, create]}\n"
		"  - ntcreate: {path: d/f, as: f, flags: [create, truncate]}\n"
		"  - ntcreate: {path: d/gone, expect: ENOENT}\n"
		"  - find: {path: \"d/*.TMP\", max: 100, expect: ENOENT}\n"
		"  - find: d/f\n"
		"  - lock: {file: f, offset: 4096, size: 1}\n"
		"  - unlock: {file: f}\n"
		"  - statfs: {}\n"
		"  - setinfo: f\n"
		"  - deltree: d\n", &wl), 0);
	assert_int_equal(OP(wl, 0)->kind, LG_OP_NTCREATE);
	assert_int_equal(OP(wl, 0)->flags, O_RDONLY | O_DIRECTORY | O_CREAT);
	assert_int_equal(OP(wl, 1)->flags, O_RDWR | O_CREAT | O_TRUNC);
	assert_int_not_equal(OP(wl, 1)->slot, LG_NO_SLOT);
	assert_int_equal(OP(wl, 2)->slot, LG_NO_SLOT); /* no 'as': closed again at once */
	assert_int_equal(OP(wl, 2)->expect, ENOENT);
	assert_int_equal(OP(wl, 3)->kind, LG_OP_FIND);
	assert_string_equal(wl->paths[OP(wl, 3)->path], "d");
	assert_string_equal(wl->paths[OP(wl, 3)->path2], "*.TMP");
	assert_int_equal(OP(wl, 3)->size, 100);
	assert_int_equal(OP(wl, 4)->path2, LG_NO_SLOT); /* no wildcard: a stat */
	assert_int_equal(OP(wl, 5)->offset, 4096);
	assert_int_equal(OP(wl, 5)->size, 1);
	assert_int_equal(OP(wl, 6)->kind, LG_OP_UNLOCK);
	assert_int_equal(OP(wl, 6)->offset, 0);
	assert_int_equal(OP(wl, 6)->size, 0); /* to the end of the file */
	assert_int_equal(OP(wl, 7)->kind, LG_OP_STATFS);
	assert_int_equal(OP(wl, 8)->kind, LG_OP_SETINFO);
	assert_int_equal(OP(wl, 9)->kind, LG_OP_DELTREE);
	lg_workload_destroy(wl);
}

static void test_errors(void **state)
{
	struct lg_workload *wl;

	(void)state;
	assert_int_equal(load("run:\n  - ntcreate: {path: f, flags: [sideways]}\n", &wl),
			 -EINVAL);
	assert_non_null(strstr(err, "t.yaml:2:"));
	assert_non_null(strstr(err, "sideways"));
	assert_int_equal(load("run:\n  - lock: {file: nope}\n", &wl), -EINVAL);
	assert_non_null(strstr(err, "nope"));
	assert_int_equal(load("run:\n  - ntcreate: {path: f, as: f}\n"
			      "  - lock: {file: f, offset: 9223372036854775807, size: 2}\n",
			      &wl), -EINVAL);
	assert_non_null(strstr(err, "t.yaml:3:"));
	assert_int_equal(load("run:\n  - find: {path: \"d/${x}*\"}\n", &wl), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
