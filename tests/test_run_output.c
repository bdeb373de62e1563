/* run_output.c: the result document with each run's monitor parts added to that run
 * (and to no other), or NULL when adding them fails; --log's header line (its keys, in
 * order, and their values) and result line, the file closed and cfg->runlog cleared;
 * no --log, nothing done; and the messages when the log cannot be created or
 * written. */
#include "loadgen/output/run_output.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "skip_part.h"

#include "loadgen/model/clock.h"
#include "loadgen/env/monitor.h"
#include "loadgen/output/result_json.h"

static const char *const names[] = { "ReadX" };
static char *argv_[] = { "loadgen", "--log", "run.log", "1", NULL };
static char dir[] = "/tmp/lg_test_run_output_XXXXXX";
static char path[sizeof(dir) + 32]; /* dir/run.log */
static json_t *env;                  /* the config's recorded environment */
static struct lg_workload *wl;
static unsigned allocs, fail_at;     /* jansson allocations so far; fail that one (0: none) */

static void *counting_malloc(size_t n)
{
	return ++allocs == fail_at ? NULL : malloc(n);
}

static struct lg_config make_config(const char *log_path)
{
	return (struct lg_config){ .clients = 1, .mode = "threads", .directory = dir,
				   .time_s = 1, .seed = 7, .repeat = 1, .argc = 4,
				   .argv = argv_, .env = env, .log_path = log_path };
}

/* A run of one ReadX of 1 ms in one interval, and with monitored, its monitor through
 * the run: start, the interval, end. */
static void make_run(struct lg_run *run, bool monitored)
{
	struct lg_interval iv = { .t_s = 1.0, .ops = 1, .len_s = 1.0, .max_latency_ns = 1000000 };
	struct lg_config cfg = make_config(NULL);

	*run = (struct lg_run){ .duration_s = 1.0, .nclients = 1, .ntypes = 1,
				.type_names = names, .clients = calloc(1, sizeof(*run->clients)) };
	assert_non_null(run->clients);
	assert_int_equal(lg_client_stats_create(0, 1, &run->clients[0]), 0);
	run->clients[0]->types[0].count = 1;
	lg_histogram_record(&run->clients[0]->types[0].hist, 1000000);
	assert_int_equal(lg_run_merge(run), 0);
	assert_int_equal(lg_run_add_interval(run, &iv), 0);
	cfg.monitor = monitored;
	assert_int_equal(lg_monitor_create(&cfg, dir, &run->mon), 0);
	lg_monitor_begin(run->mon, lg_now_ns());
	lg_monitor_interval(run->mon, &run->timeline[0], 0, lg_now_ns());
	lg_monitor_end(run->mon);
}

/* The lowest free descriptor: the next open takes it. */
static int lowest_free_fd(void)
{
	int fd = open("/dev/null", O_RDONLY);

	close(fd);
	return fd;
}

/* The lines of the log at path, parsed; fails on a line that is not a JSON object. */
static size_t read_log(json_t **lines, size_t max)
{
	char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	assert_non_null(f);
	while (n < max && fgets(buf, sizeof(buf), f)) {
		lines[n] = json_loads(buf, 0, NULL);
		assert_true(json_is_object(lines[n]));
		n++;
	}
	fclose(f);
	return n;
}

/* The header line: its keys in order, its own three first, then those of the result
 * document, the same as there. */
static void check_header(json_t *h, const struct lg_config *cfg)
{
	static const char *const order[] = { "type", "schema", "result_schema", "loadgen",
					     "command", "env", "config", "workload" };
	json_t *doc = lg_result_json_build(cfg, wl, NULL, 0);
	void *it = json_object_iter(h);

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		assert_non_null(it);
		assert_string_equal(json_object_iter_key(it), order[i]);
		if (i >= 3)
			assert_true(json_equal(json_object_iter_value(it),
					       json_object_get(doc, order[i])));
		it = json_object_iter_next(h, it);
	}
	assert_null(it);
	json_decref(doc);
	assert_string_equal(json_string_value(json_object_get(h, "type")), "header");
	assert_string_equal(json_string_value(json_object_get(h, "schema")), "loadgen-log/1");
	assert_string_equal(json_string_value(json_object_get(h, "result_schema")),
			    "loadgen-result/1");
	assert_true(json_equal(json_object_get(h, "env"), env));
}

/* With each allocation after those of the plain document (the monitor's) failing in
 * turn: the first that still gave a document, or 0 (none did: NULL, never a document
 * without the monitor's parts). */
static unsigned doc_despite_failure(const struct lg_config *cfg, const struct lg_run *runs,
				    size_t n)
{
	unsigned plain, total, first = 0;

	json_set_alloc_funcs(counting_malloc, free);
	allocs = fail_at = 0;
	json_decref(lg_result_json_build(cfg, wl, runs, n));
	plain = allocs;
	allocs = 0;
	json_decref(lg_run_output_result(cfg, wl, runs, n));
	total = allocs;
	for (fail_at = plain + 1; fail_at <= total && !first; fail_at++) {
		json_t *doc;

		allocs = 0;
		doc = lg_run_output_result(cfg, wl, runs, n);
		first = doc ? fail_at : 0;
		json_decref(doc);
	}
	json_set_alloc_funcs(malloc, free);
	assert_true(total > plain);
	return first;
}

/* Run 1 has a monitor, run 0 none: only run 1 gains its parts, exactly those
 * lg_monitor_json adds to the plain document; NULL when they cannot be added. */
static void test_result(void **state)
{
	struct lg_run runs[2];
	struct lg_config cfg = make_config(NULL);
	json_t *doc, *want;

	(void)state;
	make_run(&runs[0], false);
	make_run(&runs[1], true);
	assert_null(runs[0].mon);
	assert_non_null(runs[1].mon);
	doc = lg_run_output_result(&cfg, wl, runs, 2);
	want = lg_result_json_build(&cfg, wl, runs, 2);
	assert_non_null(doc);
	assert_int_equal(lg_monitor_json(runs[1].mon,
					 json_array_get(json_object_get(want, "runs"), 1)), 0);
	assert_true(json_equal(doc, want));
	assert_non_null(json_object_get(json_array_get(json_object_get(doc, "runs"), 1),
					"kernel_messages"));
	json_decref(doc);
	json_decref(want);
	assert_int_equal(doc_despite_failure(&cfg, runs, 2), 0);
	lg_monitor_destroy(runs[1].mon);
	lg_run_clear(&runs[0]);
	lg_run_clear(&runs[1]);
}

/* The header first, the result last; without a result (the run could not start), the
 * header alone. Each time the log is closed and cfg->runlog cleared. */
static void test_log_lines(void **state)
{
	struct lg_config cfg = make_config(path);
	json_t *doc = json_pack("{s:s, s:i}", "schema", "loadgen-result/1", "x", 5);
	json_t *lines[3];
	char err[256] = "";
	int fd = lowest_free_fd();

	(void)state;
	assert_int_equal(lg_run_output_log_open(&cfg, wl, err, sizeof(err)), 0);
	assert_non_null(cfg.runlog);
	assert_int_not_equal(lowest_free_fd(), fd);
	assert_int_equal(read_log(lines, 3), 1); /* the header is there before any run */
	json_decref(lines[0]);
	assert_int_equal(lg_run_output_log_close(&cfg, doc, err, sizeof(err)), 0);
	assert_null(cfg.runlog);
	assert_int_equal(lowest_free_fd(), fd); /* closed */
	assert_int_equal(doc->refcount, 1); /* still only the caller's */
	assert_int_equal(read_log(lines, 3), 2);
	check_header(lines[0], &cfg);
	assert_string_equal(json_string_value(json_object_get(lines[1], "type")), "result");
	assert_int_equal(json_object_size(lines[1]), 2);
	assert_true(json_equal(json_object_get(lines[1], "result"), doc));
	json_decref(lines[0]);
	json_decref(lines[1]);
	json_decref(doc);
	assert_int_equal(lg_run_output_log_open(&cfg, wl, err, sizeof(err)), 0);
	assert_int_equal(lg_run_output_log_close(&cfg, NULL, err, sizeof(err)), 0);
	assert_null(cfg.runlog);
	assert_int_equal(lg_run_output_log_close(&cfg, NULL, err, sizeof(err)), 0); /* again */
	assert_int_equal(lowest_free_fd(), fd);
	assert_int_equal(read_log(lines, 3), 1);
	assert_string_equal(json_string_value(json_object_get(lines[0], "type")), "header");
	json_decref(lines[0]);
	assert_string_equal(err, "");
}

/* No --log: nothing done. A log in a directory that does not exist, and one whose
 * lines cannot be written: "PATH: why". */
static void test_log_errors(void **state)
{
	char missing[sizeof(path) + 16], want[sizeof(missing) + 64], err[256] = "untouched";
	struct lg_config cfg = make_config(NULL);
	json_t *doc = json_object();

	(void)state;
	assert_int_equal(lg_run_output_log_open(&cfg, wl, err, sizeof(err)), 0);
	assert_null(cfg.runlog);
	assert_int_equal(lg_run_output_log_close(&cfg, doc, err, sizeof(err)), 0);
	assert_string_equal(err, "untouched");
	snprintf(missing, sizeof(missing), "%s/nodir/run.log", dir);
	cfg.log_path = missing;
	snprintf(want, sizeof(want), "%s: No such file or directory", missing);
	assert_int_equal(lg_run_output_log_open(&cfg, wl, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, want);
	assert_null(cfg.runlog);
	json_decref(doc);
	if (access("/dev/full", W_OK)) {
		LG_SKIP_PART("no writable /dev/full: a log whose header cannot be written");
		return;
	}
	/* created, but its header cannot be written: open says so, and close says it
	 * again (the write error it remembered) */
	cfg.log_path = "/dev/full";
	assert_int_equal(lg_run_output_log_open(&cfg, wl, err, sizeof(err)), -ENOSPC);
	assert_string_equal(err, "/dev/full: No space left on device");
	assert_non_null(cfg.runlog); /* left for the caller to close */
	strcpy(err, "");
	assert_int_equal(lg_run_output_log_close(&cfg, NULL, err, sizeof(err)), -ENOSPC);
	assert_string_equal(err, "/dev/full: No space left on device");
	assert_null(cfg.runlog);
}

static int setup(void **state)
{
	static const char text[] = "name: smoke\n";

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/run.log", dir);
	env = json_pack("{s:s, s:s}", "hostname", "testhost", "kernel", "6.1.0");
	return env && !lg_workload_create(&wl) &&
	       !lg_workload_set_source(wl, "smoke", "tests/smoke.yaml", text, sizeof(text) - 1) ?
	       0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	lg_workload_destroy(wl);
	json_decref(env);
	unlink(path); /* left by a failed test */
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result),
		cmocka_unit_test(test_log_lines),
		cmocka_unit_test(test_log_errors),
	};

	return lg_test_exit(cmocka_run_group_tests(tests, setup, teardown));
}
