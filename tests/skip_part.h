/* A part of a cmocka test that cannot run on this machine (no root, no /dev/full, ...).
 *
 * cmocka counts a skipped test as passed in its exit status, so CTest would report the
 * executable as passed without that part. LG_SKIP_PART says why and remembers it;
 * lg_test_exit then turns a run without failures into exit status 77, which CTest
 * reports as skipped (SKIP_RETURN_CODE 77 in tests/CMakeLists.txt). */
#ifndef LOADGEN_TEST_SKIP_PART_H
#define LOADGEN_TEST_SKIP_PART_H

static int lg_parts_skipped; /* parts skipped so far in this executable */

#define LG_SKIP_PART(why)                                     \
	do {                                                  \
		print_message("SKIP: %s\n", why);              \
		lg_parts_skipped++;                           \
	} while (0)

/* main's exit status from cmocka_run_group_tests' (failures): 77 when none failed and a
 * part was skipped. */
static inline int lg_test_exit(int failed)
{
	return failed ? failed : lg_parts_skipped ? 77 : 0;
}

#endif
