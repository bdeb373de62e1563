/* Unit tests of the workload model: builders and path confinement (expansion:
 * test_path_tmpl.c). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/model/workload.h"

static void test_path_check_accepts(void **state)
{
	const char *why = NULL;
	const char *ok[] = { "a", "a/b", "./a", "a/../b", "a//b/", "client${client}/f",
			     "a/b/../../c" };

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		assert_int_equal(lg_path_check(ok[i], &why), 0);
}

static void test_path_check_rejects(void **state)
{
	const char *why = NULL;
	const char *bad[] = { "", "/etc/passwd", "..", "../x", "a/../../x", ".", "a/..",
			      "./../a", "a/b/../../.." };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(lg_path_check(bad[i], &why), -EINVAL);
		assert_non_null(why);
	}
	lg_path_check("/x", &why);
	assert_non_null(strstr(why, "absolute"));
	lg_path_check("a/../../x", &why);
	assert_non_null(strstr(why, ".."));
}

static void test_builders(void **state)
{
	struct lg_workload *wl;
	struct lg_op op = { .kind = LG_OP_WRITE, .size = 65536 };
	uint32_t a, b, c, idx;
	uint16_t t1, t2;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	assert_int_equal(lg_workload_path(wl, "x/y", &a), 0);
	assert_int_equal(lg_workload_path(wl, "x/z", &b), 0);
	assert_int_equal(lg_workload_path(wl, "x/y", &c), 0);
	assert_int_equal(a, 0);
	assert_int_equal(b, 1);
	assert_int_equal(c, 0);
	assert_int_equal(lg_workload_type(wl, "write", &t1), 0);
	assert_int_equal(lg_workload_type(wl, "read", &t2), 0);
	assert_int_equal(t2, 1);
	assert_int_equal(lg_workload_slot(wl, "f", &a), 0);
	assert_int_equal(lg_workload_find_slot(wl, "f", &b), 0);
	assert_int_equal(a, b);
	assert_int_equal(lg_workload_find_slot(wl, "g", &b), -ENOENT);
	for (int i = 0; i < 100; i++)
		assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &op, &idx), 0);
	assert_int_equal(idx, 99);
	assert_int_equal(wl->nops[LG_PHASE_RUN], 100);
	assert_int_equal(wl->max_io, 65536);
	op.kind = LG_OP_TRUNCATE;
	op.size = 1 << 30; /* not an I/O size: does not grow the buffer */
	assert_int_equal(lg_workload_add_op(wl, LG_PHASE_SETUP, &op, NULL), 0);
	assert_int_equal(wl->max_io, 65536);
	assert_int_equal(lg_workload_set_param(wl, "size", "4KiB"), 0);
	assert_string_equal(wl->params[0].value, "4KiB");
	lg_workload_destroy(wl);
	lg_workload_destroy(NULL);
}

/* Many slot names that differ only in their last digits (as dbench's handles do),
 * across several rebuilds of the index: each is found at the index it got, once. */
static void test_slot_index(void **state)
{
	struct lg_workload *wl = NULL;
	char name[16];
	uint32_t idx;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	for (uint32_t i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "%u", 10000 + i);
		assert_int_equal(lg_workload_slot(wl, name, &idx), 0);
		assert_int_equal(idx, i);
	}
	for (uint32_t i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "%u", 10000 + i);
		assert_int_equal(lg_workload_find_slot(wl, name, &idx), 0);
		assert_int_equal(idx, i);
		assert_int_equal(lg_workload_slot(wl, name, &idx), 0);
		assert_int_equal(idx, i);
		snprintf(name, sizeof(name), "%u", 20000 + i);
		assert_int_equal(lg_workload_find_slot(wl, name, &idx), -ENOENT);
	}
	assert_int_equal(wl->nslots, 5000);
	lg_workload_destroy(wl);
}

/* Columns noted for some ops only: the others, and ops past the last noted, have 0. */
static void test_cols(void **state)
{
	struct lg_workload *wl;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	assert_int_equal(lg_workload_col(wl, LG_PHASE_RUN, 0), 0);
	assert_int_equal(lg_workload_set_col(wl, LG_PHASE_RUN, 2, 17), 0);
	assert_int_equal(lg_workload_set_col(wl, LG_PHASE_RUN, 100, 5), 0);
	assert_int_equal(lg_workload_set_col(wl, LG_PHASE_RUN, 2, 18), 0);
	assert_int_equal(lg_workload_col(wl, LG_PHASE_RUN, 0), 0);
	assert_int_equal(lg_workload_col(wl, LG_PHASE_RUN, 2), 18);
	assert_int_equal(lg_workload_col(wl, LG_PHASE_RUN, 99), 0);
	assert_int_equal(lg_workload_col(wl, LG_PHASE_RUN, 100), 5);
	assert_int_equal(lg_workload_col(wl, LG_PHASE_RUN, 101), 0);
	assert_int_equal(lg_workload_col(wl, LG_PHASE_SETUP, 2), 0);
	lg_workload_destroy(wl);
}

static void test_sha256(void **state)
{
	struct lg_workload *wl;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	assert_int_equal(lg_workload_set_source(wl, "n", "s", "abc", 3), 0);
	/* FIPS 180-2 example */
	assert_string_equal(wl->sha256,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_string_equal(wl->name, "n");
	lg_workload_destroy(wl);
}

/* --sync-open, --direct: every open of a file's data gets the flag; an open of a
 * directory or of a name only (O_PATH) does not, an unnamed file (O_TMPFILE) does; the
 * new kinds have names. */
static void test_add_open_flags(void **state)
{
	static const int flags[] = { O_RDWR, O_RDONLY | O_DIRECTORY, O_PATH,
				     O_WRONLY | O_TMPFILE };
	static const bool gets[] = { true, false, false, true };
	struct lg_workload *wl;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	for (size_t i = 0; i < 4; i++) {
		struct lg_op op = { .kind = LG_OP_OPEN, .flags = flags[i] };

		assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &op, NULL), 0);
	}
	lg_workload_add_open_flags(wl, O_DIRECT);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(wl->ops[LG_PHASE_RUN][i].flags,
				 flags[i] | (gets[i] ? O_DIRECT : 0));
	lg_workload_destroy(wl);
	assert_string_equal(lg_op_kind_name(LG_OP_REMOVEXATTR), "removexattr");
	assert_string_equal(lg_op_kind_name(LG_OP_LOOP), "repeat");
	for (int k = 0; k < LG_OP_KIND_COUNT; k++)
		assert_non_null(lg_op_kind_name((enum lg_op_kind)k)); /* each has one */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_check_accepts),
		cmocka_unit_test(test_add_open_flags),
		cmocka_unit_test(test_path_check_rejects),
		cmocka_unit_test(test_builders),
		cmocka_unit_test(test_slot_index),
		cmocka_unit_test(test_cols),
		cmocka_unit_test(test_sha256),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
