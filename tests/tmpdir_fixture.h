/* The cmocka fixture of unit tests that need a directory of their own: make_dir gives
 * each test a fresh /tmp/lg-unit.XXXXXX in dir, remove_dir removes it with everything
 * in it. Register them with cmocka_unit_test_setup_teardown(test, make_dir, remove_dir). */
#ifndef LOADGEN_TEST_TMPDIR_FIXTURE_H
#define LOADGEN_TEST_TMPDIR_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[64]; /* the current test's directory */

static int make_dir(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/lg-unit.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

#endif
