/* yaml_reopen.c: an open of a file slot that is provably still open is refused at
 * load time with the line of the earlier open; where control flow, another phase, or
 * an open that may have failed leaves it unproven, the workload loads (the run-time
 * check has it). */
#include <errno.h>
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
	return lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, 1, wl, err, sizeof(err));
}

/* An input and the start of the message it must be refused with. */
static const char *const refused[][2] = {
	{ "run:\n  - create: {path: a, as: f}\n  - write: {file: f, size: 1}\n"
	  "  - open: {path: a, as: f}\n", "t.yaml:4:25: file 'f' is opened again while still "
	  "open: the open at line 2 is not closed before this one; close it first" },
	{ "run:\n  - repeat:\n      count: 2\n      do:\n        - create: {path: a, as: f}\n"
	  "        - create: {path: b, as: f}\n", "t.yaml:6:33: file 'f' is opened again" },
	{ "setup: [create: {path: a, as: f}, close: f]\nrun:\n  - open: {path: a, as: f}\n"
	  "  - choose: [{do: [stat: a]}]\n  - open: {path: a, as: g}\n  - open: {path: a, as: g}\n",
	  "t.yaml:6:25: file 'g' is opened again while still open: the open at line 5" },
};

static void test_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct lg_workload *wl = NULL;

		if (load(refused[i][0], &wl) != -EINVAL ||
		    strncmp(err, refused[i][1], strlen(refused[i][1])) != 0)
			fail_msg("input %zu:\n%s\nmessage:\n  %s\nwant:\n  %s", i, refused[i][0],
				 err, refused[i][1]);
		assert_null(wl);
	}
}

/* Opening a slot again is only refused where it is proven to be still open. */
static void test_not_proven(void **state)
{
	static const char *const ok[] = {
		/* closed between */
		"run:\n  - create: {path: a, as: f}\n  - close: f\n  - open: {path: a, as: f}\n",
		/* the first open may have failed */
		"run:\n  - open: {path: a, as: f, expect: any}\n  - create: {path: a, as: f}\n",
		"run:\n  - open: {path: a, as: f, expect: ENOENT}\n  - create: {path: a, as: f}\n",
		/* control flow between the two: left to the run-time check */
		"run:\n  - create: {path: a, as: f}\n  - repeat: {count: 1, do: [close: f]}\n"
		"  - open: {path: a, as: f}\n",
		"run:\n  - create: {path: a, as: f}\n  - choose: [{do: [close: f]}, {do: [stat: a]}]\n"
		"  - open: {path: a, as: f}\n",
		/* each phase on its own; a repeat body opening and closing once per pass */
		"setup: [create: {path: a, as: f}]\nrun: [open: {path: a, as: f}, close: f]\n",
		"run: [repeat: {count: 3, do: [create: {path: a, as: f}, close: f]}]\n",
		/* two slots */
		"run: [create: {path: a, as: f}, create: {path: b, as: g}, close: f, close: g]\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		{
		struct lg_workload *wl = NULL;

		if (load(ok[i], &wl))
			fail_msg("input %zu refused: %s", i, err);
		lg_workload_destroy(wl);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_not_proven),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
