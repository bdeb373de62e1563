/* Unit tests of compare_log: a --log cut off mid-run is read as a partial result (its
 * header's keys, runs of status "partial" with totals summed from their interval lines,
 * no latency, log_cut_off saying what is missing and which line was dropped), compare
 * accepts it; a complete log gives its result line; a log with nothing measured, or a
 * bad line before the last, is refused with PATH:LINE:COL. */
#include "loadgen/compare/compare.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static char path[] = "/tmp/lg_cmp_log_XXXXXX";

#define HEADER "{\"type\":\"header\",\"schema\":\"loadgen-log/1\",\"result_schema\":" \
	"\"loadgen-result/1\",\"loadgen\":{\"version\":\"t\"},\"command\":[\"loadgen\",\"4\"]," \
	"\"env\":{\"hostname\":\"h\"},\"workload\":{\"name\":\"w\"},\"config\":%s}\n"
#define IV(run, t, ops, rd, wr, max) "{\"type\":\"interval\",\"run\":" #run ",\"t_s\":" #t \
	",\"len_s\":1.0,\"ops\":" #ops ",\"bytes\":0,\"bytes_read\":" #rd ",\"bytes_written\":" \
	#wr ",\"mbps\":1.0,\"max_latency_ms\":" #max "}\n"

/* Write the log: the header with config, then text. */
static void put(const char *config, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, HEADER, config);
	fputs(text, f);
	fclose(f);
}

static const json_t *run_of(const json_t *doc, size_t r)
{
	return json_array_get(json_object_get(doc, "runs"), r);
}

static json_int_t int_of(const json_t *o, const char *key)
{
	assert_true(json_is_integer(json_object_get(o, key)));
	return json_integer_value(json_object_get(o, key));
}

static void cut_log(void **state)
{
	const json_t *run, *cut;
	struct lg_cmp_file f;
	json_t *doc;
	char err[512], note[LG_CMP_NOTE_MAX];

	(void)state;
	put("{\"clients\":4,\"repeat\":1}",
	    IV(0, 1.0, 100, 1000, 2000, 3.5)
	    "{\"type\":\"kmsg\",\"run\":0,\"t_s\":1.5,\"level\":3,\"text\":\"oops\","
	    "\"trouble\":\"oops\"}\n"
	    IV(0, 2.0, 50, 0, 4000000, 9.25)
	    "{\"type\":\"interval\",\"run\":0,\"t_s\":3.0,\"len_s\":1.0,\"op"); /* torn */
	assert_int_equal(lg_cmp_log_load(path, &doc, err, sizeof(err)), 0);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), LG_RESULT_SCHEMA);
	assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "env"),
							      "hostname")), "h");
	assert_int_equal(int_of(json_object_get(doc, "config"), "clients"), 4);
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 1);
	run = run_of(doc, 0);
	assert_string_equal(json_string_value(json_object_get(run, "status")), "partial");
	assert_int_equal(int_of(run, "ops"), 150);
	assert_int_equal(int_of(run, "bytes_read"), 1000);
	assert_int_equal(int_of(run, "bytes_written"), 4002000);
	assert_float_equal(json_real_value(json_object_get(run, "duration_s")), 2.0, 1e-9);
	assert_float_equal(json_real_value(json_object_get(run, "throughput_mbps")),
			   4003000 / 1e6 / 2.0, 1e-9);
	assert_float_equal(json_real_value(json_object_get(run, "ops_per_s")), 75.0, 1e-9);
	assert_float_equal(json_real_value(json_object_get(run, "max_latency_ms")), 9.25, 1e-9);
	/* no latency made up: null percentiles, no histograms, no rows per type */
	assert_true(json_is_null(json_object_get(run, "latency_ns")));
	assert_null(json_object_get(run, "ops_by_type"));
	assert_null(json_object_get(run, "client_count")); /* not a sweep: config says */
	assert_int_equal(json_array_size(json_object_get(run, "timeline")), 2);
	assert_null(json_object_get(json_array_get(json_object_get(run, "timeline"), 0), "type"));
	assert_int_equal(int_of(json_object_get(run, "kernel_messages"), "count"), 1);
	assert_int_equal(int_of(json_object_get(run, "kernel_messages"), "trouble"), 1);
	cut = json_object_get(doc, "log_cut_off");
	assert_int_equal(int_of(cut, "dropped_line"), 5);
	assert_int_equal(int_of(cut, "lines"), 4);
	assert_int_equal(int_of(cut, "intervals"), 2);
	assert_float_equal(json_real_value(json_object_get(cut, "after_s")), 2.0, 1e-9);
	assert_string_equal(json_string_value(json_array_get(json_object_get(cut, "missing"), 0)),
			    "latency_ns");
	assert_true(lg_cmp_partial_note(doc, note, sizeof(note)));
	assert_string_equal(note, "partial run (log cut off after 2.0 s): totals from the "
			    "timeline (2 intervals: 150 ops, 1000 bytes read, 4002000 bytes "
			    "written); latency percentiles not available");
	/* compare reads it like any result */
	assert_int_equal(lg_cmp_file_init(path, doc, &f, err, sizeof(err)), 0);
	assert_int_equal(f.nruns, 1);
	assert_float_equal(f.mbps[0], 4003000 / 1e6 / 2.0, 1e-9);
	lg_cmp_file_release(&f);
}

/* A sweep with a fixed repeat: the run index names its count; a run cut before its
 * first interval is not one of the runs. */
static void cut_sweep(void **state)
{
	json_t *doc;
	char err[512], note[LG_CMP_NOTE_MAX];

	(void)state;
	put("{\"clients\":1,\"client_counts\":[1,2],\"repeat\":2}",
	    IV(0, 1.0, 1, 0, 0, 1) IV(1, 1.0, 2, 0, 0, 1) IV(2, 1.0, 3, 0, 0, 1)
	    IV(2, 2.0, 4, 0, 0, 1)
	    "{\"type\":\"kmsg\",\"run\":3,\"t_s\":-0.5,\"level\":3,\"text\":\"x\"}\n");
	assert_int_equal(lg_cmp_log_load(path, &doc, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 3);
	assert_int_equal(int_of(run_of(doc, 0), "client_count"), 1);
	assert_int_equal(int_of(run_of(doc, 1), "client_count"), 1);
	assert_int_equal(int_of(run_of(doc, 2), "client_count"), 2);
	assert_int_equal(int_of(run_of(doc, 2), "ops"), 7);
	assert_true(json_is_null(json_object_get(json_object_get(doc, "log_cut_off"),
						 "dropped_line")));
	assert_true(lg_cmp_partial_note(doc, note, sizeof(note)));
	assert_non_null(strstr(note, "partial runs (log cut off after 2.0 s of run 3): totals "
				    "from the timeline (4 intervals: 10 ops,"));
	json_decref(doc);
}

/* Runs as the lines name them: a gap, a large index, lines out of order; no more runs
 * than the lines give. */
static void runs_as_named(void **state)
{
	json_t *doc;
	char err[512], note[LG_CMP_NOTE_MAX];

	(void)state;
	put("{}", IV(999999, 1.0, 5, 0, 0, 1) IV(0, 1.0, 1, 0, 0, 1) IV(7, 1.0, 3, 0, 0, 1)
	    IV(0, 2.0, 2, 0, 0, 1));
	assert_int_equal(lg_cmp_log_load(path, &doc, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 3);
	assert_int_equal(int_of(run_of(doc, 0), "ops"), 3);
	assert_int_equal(int_of(run_of(doc, 1), "ops"), 3);
	assert_int_equal(int_of(run_of(doc, 2), "ops"), 5);
	assert_true(lg_cmp_partial_note(doc, note, sizeof(note)));
	assert_non_null(strstr(note, "(log cut off after 1.0 s of run 1000000)"));
	json_decref(doc);
	put("{}", IV(1000000, 1.0, 5, 0, 0, 1));
	assert_int_equal(lg_cmp_log_load(path, &doc, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2:1: interval line: \"run\" is not a run index"));
}

static void complete_log(void **state)
{
	json_t *doc;
	char err[512], note[LG_CMP_NOTE_MAX];

	(void)state;
	put("{}", IV(0, 1.0, 1, 0, 0, 1)
	    "{\"type\":\"result\",\"result\":{\"schema\":\"loadgen-result/1\",\"runs\":[]}}\n");
	assert_int_equal(lg_cmp_log_load(path, &doc, err, sizeof(err)), 0);
	assert_null(json_object_get(doc, "log_cut_off"));
	assert_false(lg_cmp_partial_note(doc, note, sizeof(note)));
	assert_true(json_is_array(json_object_get(doc, "runs")));
	json_decref(doc);
}

/* lg_cmp_log_load refuses the log with err starting "PATH:where". */
static void refused(const char *where, const char *why)
{
	json_t *doc = NULL;
	char err[512], want[300];

	assert_int_equal(lg_cmp_log_load(path, &doc, err, sizeof(err)), -EINVAL);
	assert_null(doc);
	snprintf(want, sizeof(want), "%s:%s", path, where);
	if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, why))
		fail_msg("got \"%s\", want \"%s ... %s\"", err, want, why);
}

static void nothing_to_read(void **state)
{
	FILE *f;

	(void)state;
	put("{}", "{\"type\":\"kmsg\",\"run\":0,\"t_s\":-1.0,\"level\":3,\"text\":\"x\"}\n");
	refused("3:1: ", "cut off before its first interval");
	put("{}", "{\"type\":\"kmsg\",\"run\":0,\"t_s\":-1.0,\"le");
	refused("2:38: ", "cut off before its first interval");
	put("{}", "");
	refused("2:1: ", "cut off before its first interval");
	f = fopen(path, "w");
	fputs("{\"type\":\"header\",\"schema\":\"loadgen-log/1\",\"conf", f);
	fclose(f);
	refused("1:48: ", "cut off in its header line");
	/* a bad line that is not the last is no crash's doing */
	put("{}", IV(0, 1.0, 1, 0, 0, 1) "{oops\n" IV(0, 2.0, 1, 0, 0, 1));
	refused("3:", "");
	put("{}", IV(0, 1.0, -1, 0, 0, 1) IV(0, 2.0, 1, 0, 0, 1));
	refused("2:1: ", "\"ops\" is not a non-negative integer");
	put("{}", "{\"type\":\"interval\",\"run\":\"x\"}\n");
	refused("2:1: ", "\"run\" is not a run index");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cut_log),
		cmocka_unit_test(cut_sweep),
		cmocka_unit_test(runs_as_named),
		cmocka_unit_test(complete_log),
		cmocka_unit_test(nothing_to_read),
	};
	int fd = mkstemp(path), rc;

	if (fd < 0)
		return 1;
	close(fd);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
