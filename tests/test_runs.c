/* The runs of an invocation (src/app/runs.c): loading the built-in workload, the checks
 * before a run (preflight), and the exit status for what the runs found. The sweep and
 * repeat loops run the engine and are covered by the integration tests (test_sweep.py,
 * test_repeat.py). */
#include "app/runs.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/run/engine.h"
#include "loadgen/run/coord.h"

/* A config for one client on one host in dir (no options). */
static struct lg_config config_in(const char *dir)
{
	struct lg_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.directory = dir;
	cfg.clients = 1;
	cfg.repeat = 1;
	return cfg;
}

/* Whether every open of wl carries flags. */
static int opens_carry(const struct lg_workload *wl, int flags)
{
	size_t opens = 0;

	for (int p = 0; p < LG_PHASE_COUNT; p++)
		for (size_t i = 0; i < wl->nops[p]; i++)
			if (wl->ops[p][i].kind == LG_OP_OPEN || wl->ops[p][i].kind == LG_OP_NTCREATE) {
				if (wl->ops[p][i].flags & O_DIRECTORY)
					continue;
				if ((wl->ops[p][i].flags & flags) != flags)
					return 0;
				opens++;
			}
	return opens > 0;
}

static void test_builtin_loads_and_preflight_adds_flags(void **state)
{
	char dir[] = "/tmp/lg_test_runs_XXXXXX", err[2048] = "";
	struct lg_workload *wl = NULL;
	struct lg_config cfg;
	uint64_t hash = LG_HASH_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	cfg = config_in(dir);
	if (lg_runs_load_workload(&cfg, &wl, &hash, err, sizeof(err)))
		fail_msg("builtin workload: %s", err);
	assert_non_null(wl);
	assert_int_not_equal(hash, LG_HASH_INIT); /* the ranks compare it */
	assert_false(opens_carry(wl, O_SYNC));
	cfg.sync_open = true;
	assert_int_equal(lg_runs_preflight(&cfg, wl, err, sizeof(err)), 0);
	assert_true(opens_carry(wl, O_SYNC));
	lg_workload_destroy(wl);
	rmdir(dir);
}

static void test_preflight_refusals(void **state)
{
	char dir[] = "/tmp/lg_test_runs_XXXXXX", json[128], msg[2048];
	struct lg_config cfg;

	(void)state;
	assert_non_null(mkdtemp(dir));
	cfg = config_in("/nonexistent/lg_test_runs");
	assert_int_equal(lg_runs_preflight(&cfg, NULL, msg, sizeof(msg)), -ENOTDIR);
	assert_memory_equal(msg, "-D ", 3);
	cfg = config_in(dir);
	snprintf(json, sizeof(json), "%s/no/such/dir/r.json", dir);
	cfg.json_path = json;
	assert_int_equal(lg_runs_preflight(&cfg, NULL, msg, sizeof(msg)), -EINVAL);
	assert_memory_equal(msg, "--json ", 7);
	cfg = config_in(dir);
	cfg.html_path = json;
	assert_int_equal(lg_runs_preflight(&cfg, NULL, msg, sizeof(msg)), -EINVAL);
	assert_memory_equal(msg, "--html ", 7);
	rmdir(dir);
}

static void test_exit_status(void **state)
{
	struct lg_run runs[3];

	(void)state;
	memset(runs, 0, sizeof(runs));
	for (size_t i = 0; i < 3; i++)
		runs[i].status = LG_RUN_COMPLETE;
	assert_int_equal(lg_runs_status(runs, 3), 0);
	runs[1].status = LG_RUN_PARTIAL;
	assert_int_equal(lg_runs_status(runs, 3), LG_EXIT_ERRORS);
	runs[1].status = LG_RUN_COMPLETE;
	runs[2].errors = 1;
	assert_int_equal(lg_runs_status(runs, 3), LG_EXIT_ERRORS);
	assert_int_equal(lg_runs_status(runs, 2), 0); /* only the runs counted */
	runs[0].corruptions = 1; /* corruption outranks errors */
	assert_int_equal(lg_runs_status(runs, 3), LG_EXIT_CORRUPT);
	lg_engine_interrupt(); /* an interrupt outranks both; last, it cannot be undone */
	assert_int_equal(lg_runs_status(runs, 3), LG_EXIT_INTERRUPT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_loads_and_preflight_adds_flags),
		cmocka_unit_test(test_preflight_refusals),
		cmocka_unit_test(test_exit_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
