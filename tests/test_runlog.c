/* Unit tests of runlog: lines written whole and read back; a complete log gives its
 * result, a truncated one (no result line, a torn last line) says what it holds and
 * hands out its whole lines, a bad line in the middle is an error with path:line:col. */
#include "loadgen/env/runlog.h"

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

static char path[] = "/tmp/lg_runlog_XXXXXX";

static void write_log(bool with_result)
{
	struct lg_runlog *log;
	char err[256];

	assert_int_equal(lg_runlog_open(path, &log, err, sizeof(err)), 0);
	assert_int_equal(lg_runlog_put(log, "header", json_pack("{s:s}", "schema", LG_LOG_SCHEMA)), 0);
	assert_int_equal(lg_runlog_next_run(log), 0);
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(lg_runlog_put(log, "interval", json_pack("{s:i, s:f}", "run", 0,
									   "t_s", (double)i)), 0);
		lg_runlog_sync(log);
	}
	assert_int_equal(lg_runlog_put(log, "kmsg", json_pack("{s:s}", "text", "x")), 0);
	if (with_result)
		assert_int_equal(lg_runlog_put(log, "result", json_pack("{s:{s:s}}", "result",
									"schema", "r")), 0);
	assert_int_equal(lg_runlog_close(log), 0);
}

static void complete_log(void **state)
{
	struct lg_runlog_info info;
	json_t *doc;
	char err[256];
	FILE *f;

	(void)state;
	write_log(true);
	f = fopen(path, "r");
	assert_true(lg_runlog_is_log(f));
	fclose(f);
	assert_int_equal(lg_runlog_read(path, &doc, &info, NULL, err, sizeof(err)), 0);
	assert_true(info.complete);
	assert_int_equal(info.lines, 6);
	assert_int_equal(info.intervals, 3);
	assert_int_equal(info.kmsgs, 1);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "r");
	json_decref(doc);
}

static void truncated_log(void **state)
{
	static const char torn[] = "{\"type\":\"interval\",\"run\":0,\"t_"; /* cut short */
	struct lg_runlog_info info;
	json_t *doc, *lines;
	char err[256];
	FILE *f;

	(void)state;
	write_log(false);
	f = fopen(path, "a");
	fputs(torn, f);
	fclose(f);
	assert_int_equal(lg_runlog_read(path, &doc, &info, NULL, err, sizeof(err)), 0);
	assert_null(doc);
	assert_false(info.complete);
	assert_true(info.torn_tail);
	assert_int_equal(info.torn_line, 6);
	assert_int_equal(info.torn_bytes, strlen(torn));
	assert_int_equal(info.intervals, 3);
	assert_float_equal(info.last_t_s, 3.0, 1e-9);
	/* the lines kept: every whole one, in order, the torn one not */
	assert_int_equal(lg_runlog_read(path, &doc, &info, &lines, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(lines), 5);
	assert_string_equal(json_string_value(json_object_get(json_array_get(lines, 0), "type")),
			    "header");
	assert_float_equal(json_number_value(json_object_get(json_array_get(lines, 3), "t_s")),
			   3.0, 1e-9);
	assert_string_equal(json_string_value(json_object_get(json_array_get(lines, 4), "type")),
			    "kmsg");
	json_decref(lines);
}

static void bad_middle_line(void **state)
{
	struct lg_runlog_info info;
	json_t *doc, *lines;
	char err[256], want[300];
	FILE *f;

	(void)state;
	f = fopen(path, "w");
	fputs("{\"type\":\"header\",\"schema\":\"loadgen-log/1\"}\n{oops\n{\"type\":\"kmsg\"}\n", f);
	fclose(f);
	lines = (json_t *)path; /* not NULL: to see it set */
	assert_int_equal(lg_runlog_read(path, &doc, &info, &lines, err, sizeof(err)), -EINVAL);
	assert_null(lines); /* nothing half read is handed out */
	snprintf(want, sizeof(want), "%s:2:", path);
	assert_memory_equal(err, want, strlen(want));
	f = fopen(path, "r");
	assert_true(lg_runlog_is_log(f));
	fclose(f);
}

static void not_a_log(void **state)
{
	FILE *f = fopen(path, "w");
	struct lg_runlog *log;
	char err[256];

	(void)state;
	fputs("{\n  \"schema\": \"loadgen-result/1\"\n}\n", f);
	fclose(f);
	f = fopen(path, "r");
	assert_false(lg_runlog_is_log(f));
	fclose(f);
	assert_int_equal(lg_runlog_open("/nonexistent/dir/log", &log, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/dir/log: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(complete_log),
		cmocka_unit_test(truncated_log),
		cmocka_unit_test(bad_middle_line),
		cmocka_unit_test(not_a_log),
	};
	int fd = mkstemp(path), rc;

	if (fd < 0)
		return 1;
	close(fd);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return rc;
}
