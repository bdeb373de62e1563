/* compare.c, the `loadgen compare` command line: options and their errors (exit 2 with
 * the offending argument), unreadable files named, the text verdict, --json on stdout
 * as one document, and --fail-if-slower's exit status. stdout and stderr are captured
 * through files. (compare_eval.c, the evaluation, is tested in test_compare.c.) */
#include "loadgen/compare/compare.h"

#include <fcntl.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir_fixture.h"

static char out[2][16384]; /* the last call's stdout and stderr */

/* `loadgen compare ARGS...` (NULL-terminated), capturing stdout and stderr. */
static int compare(const char *first, ...)
{
	char *argv[16] = { "compare" }, cap[2][128];
	int argc = 1, saved[2], rc;
	const char *a = first;
	va_list ap;

	va_start(ap, first);
	for (; a; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < 2; i++) {
		int fd;

		snprintf(cap[i], sizeof(cap[i]), "%s/%s", dir, i ? "err" : "out");
		fd = open(cap[i], O_RDWR | O_CREAT | O_TRUNC, 0644);
		saved[i] = dup(1 + i);
		dup2(fd, 1 + i);
		close(fd);
	}
	rc = lg_compare_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(cap[i], "r");
		size_t n = fread(out[i], 1, sizeof(out[i]) - 1, f);

		out[i][n] = '\0';
		fclose(f);
		dup2(saved[i], 1 + i);
		close(saved[i]);
	}
	return rc;
}

/* A result file with one run per value of mbps, run i at clients[i] clients and with a
 * sys_summary whose gauge "g" is gauge[i] (clients, gauge NULL: without); returns its
 * path (static per name). */
static const char *result_at(const char *name, const double *mbps, const int *clients,
			     const double *gauge, size_t n)
{
	static char paths[4][128];
	static int k;
	json_t *runs = json_array(), *doc, *run;
	char *p = paths[k++ % 4];

	for (size_t i = 0; i < n; i++) {
		run = json_pack("{s:s, s:f, s:f, s:{s:{s:i, s:{s:i, s:i, s:i, s:i}, s:[[i, i, i]]}}}",
				"status", "complete", "throughput_mbps", mbps[i], "ops_per_s",
				mbps[i] * 10, "ops_by_type", "read", "count", 1, "latency_ns", "min",
				1000, "p50", 1000, "p99", 1000, "max", 1000, "histogram", 1000, 1000, 1);
		if (clients)
			json_object_set_new(run, "client_count", json_integer(clients[i]));
		if (gauge)
			json_object_set_new(run, "sys_summary", json_pack("{s:f, s:{s:f}}", "seconds",
						1.0, "gauges", "g", gauge[i]));
		json_array_append_new(runs, run);
	}
	doc = json_pack("{s:s, s:{s:s}, s:{s:s}, s:{s:s, s:s}, s:{s:i}, s:o}",
			"schema", "loadgen-result/1", "loadgen", "version", "0.1.0",
			"env", "kernel", "6.1.0", "workload", "name", "w", "sha256", "aa",
			"config", "clients", 1, "runs", runs);
	snprintf(p, 128, "%s/%s", dir, name);
	assert_int_equal(json_dump_file(doc, p, 0), 0);
	json_decref(doc);
	return p;
}

/* A result file of one client count without system counters. */
static const char *result(const char *name, const double *mbps, size_t n)
{
	return result_at(name, mbps, NULL, NULL, n);
}

static const double BASE[] = { 100, 101, 99, 100 }, HALF[] = { 50, 51, 49, 50 };

static void test_usage(void **state)
{
	const char *b = result("b.json", BASE, 4);

	(void)state;
	assert_int_equal(compare("--help", NULL), 0);
	assert_non_null(strstr(out[0], "Usage: loadgen compare"));
	assert_int_equal(compare(b, NULL), 2);
	assert_non_null(strstr(out[1], "need a baseline and at least one file"));
	assert_int_equal(compare("--min-effect", "-3", b, b, NULL), 2);
	assert_non_null(strstr(out[1], "invalid --min-effect (want a percentage >= 0): '-3'"));
	assert_int_equal(compare("--fail-if-slower", "x", b, b, NULL), 2);
	assert_non_null(strstr(out[1], "'x'"));
	assert_int_equal(compare("--colour", b, b, NULL), 2);
	assert_non_null(strstr(out[1], "--colour"));
	assert_int_equal(compare(b, "/nonexistent/r.json", NULL), 2);
	assert_non_null(strstr(out[1], "/nonexistent/r.json"));
}

static void test_verdicts(void **state)
{
	const char *b = result("b.json", BASE, 4), *h = result("h.json", HALF, 4);
	json_t *doc;

	(void)state;
	assert_int_equal(compare(b, h, NULL), 0);
	assert_non_null(strstr(out[0], "Verdict: slower (decided on MB/s: -50.0 %"));
	assert_int_equal(compare("--fail-if-slower", "10%", b, h, NULL), 3);
	assert_int_equal(compare("--fail-if-slower", "60", b, h, NULL), 0); /* by less */
	assert_int_equal(compare("--min-effect", "60", b, h, NULL), 0);
	assert_non_null(strstr(out[0], "significant, but smaller than --min-effect (50.0 % < 60 %)"));
	assert_int_equal(compare("--json", b, h, NULL), 0);
	doc = json_loads(out[0], 0, NULL); /* stdout is one JSON document and nothing else */
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")),
			    LG_COMPARE_SCHEMA);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(doc, "comparisons"), 0), "verdict")), "slower");
	json_decref(doc);
}

/* Below the verdicts of a sweep, the system counters of each client count compare only
 * the runs at that count: the baseline's runs at 1 client (g = 10) are not mixed into
 * the comparison at 4 (g 40 -> 44, not 25 -> 44). */
/* --fail-if-slower and a comparison without a verdict (one run): it cannot tell, so it
 * does not pass (5); a file that is slower still says so (3). */
static void test_fail_if_slower_undecided(void **state)
{
	const char *b = result("b.json", BASE, 4), *h = result("h.json", HALF, 4);
	const char *one = result("one.json", HALF, 1);

	(void)state;
	assert_int_equal(compare(b, one, NULL), 0); /* without the gate: only reported */
	assert_int_equal(compare("--fail-if-slower", "5", b, one, NULL),
			 LG_COMPARE_EXIT_UNDECIDED);
	assert_non_null(strstr(out[1], "one.json: no verdict (a file has fewer than 2 runs), "
				       "so --fail-if-slower cannot tell"));
	assert_int_equal(compare("--fail-if-slower", "5", b, one, h, NULL),
			 LG_COMPARE_EXIT_SLOWER);
	assert_int_equal(compare("--fail-if-slower", "5", b, h, one, NULL),
			 LG_COMPARE_EXIT_SLOWER);
	assert_int_equal(compare("--json", "--fail-if-slower", "5", b, one, NULL),
			 LG_COMPARE_EXIT_UNDECIDED);
	assert_non_null(strstr(out[0], "\"exit_status\": 5"));
}

static void test_sys_by_clients(void **state)
{
	const int sweep[] = { 1, 1, 4, 4 }, four[] = { 4, 4 };
	const double g_base[] = { 10, 10, 40, 40 }, g_other[] = { 44, 44 };
	const char *b = result_at("sweep.json", BASE, sweep, g_base, 4);
	const char *o = result_at("four.json", BASE, four, g_other, 2);

	(void)state;
	assert_int_equal(compare(b, o, NULL), 0);
	assert_non_null(strstr(out[0], "four.json at 4 clients: "));
	assert_non_null(strstr(out[0], "sweep.json at 4 clients:\n  System counters"));
	assert_non_null(strstr(out[0], "+10.0%  g "));
	assert_null(strstr(out[0], "+76.0%"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_usage, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_verdicts, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_fail_if_slower_undecided, make_dir,
						remove_dir),
		cmocka_unit_test_setup_teardown(test_sys_by_clients, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
