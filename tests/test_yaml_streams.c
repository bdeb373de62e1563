/* Tests of a recorded program's streams in YAML (yaml_streams.c): what 'streams', 'after'
 * and 'think' compile to, that the writer gives the same workload back, and every load
 * error with its line and column (a wait that can never end above all). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"
#include "loadgen/load/yaml_write.h"

static char err[512];

static int load(const char *text, struct lg_workload **wl)
{
	return lg_yaml_load("t.yaml", text, strlen(text), NULL, 0, 4, wl, err, sizeof(err));
}

static struct lg_workload *load_ok(const char *text)
{
	struct lg_workload *wl = NULL;

	if (load(text, &wl) != 0)
		fail_msg("load failed: %s", err);
	return wl;
}

/* The load fails with a message that starts with want. */
static void load_fails(const char *text, const char *want)
{
	struct lg_workload *wl = NULL;

	assert_int_equal(load(text, &wl), -EINVAL);
	assert_null(wl);
	if (strncmp(err, want, strlen(want)))
		fail_msg("got   '%s'\nwant  '%s...'", err, want);
}

static const char two[] =
	"recorded:\n"
	"  command: \"sh -c x\"\n"
	"  exit_status: 1\n"
	"setup:\n"
	"  - mkdir: \"${client}\"\n"
	"streams:\n"
	"  - name: \"10 sh\"\n"
	"    steps:\n"
	"      - think: 5us\n"
	"      - create: {path: \"${client}/a\", as: t10.fd3}\n"
	"      - write: {file: t10.fd3, size: 10}\n"
	"      - close: t10.fd3\n"
	"  - name: \"11 cat\"\n"
	"    steps:\n"
	"      - after: {stream: \"10 sh\", calls: 3}\n"
	"      - open: {path: \"${client}/a\", as: t11.fd3, flags: [read]}\n"
	"      - think: 2ms\n"
	"      - read: {file: t11.fd3, size: 10}\n"
	"      - close: t11.fd3\n";

/* Each stream is a range of the run phase; after names its stream by index and the
 * calls it waits for; think holds ns; recorded keeps its pairs in order. */
static void test_streams_compile(void **state)
{
	struct lg_workload *wl = load_ok(two);
	const struct lg_op *run = wl->ops[LG_PHASE_RUN];

	(void)state;
	assert_int_equal(wl->nstreams, 2);
	assert_string_equal(wl->streams[0].name, "10 sh");
	assert_int_equal(wl->streams[0].first, 0);
	assert_int_equal(wl->streams[0].nops, 4);
	assert_int_equal(wl->streams[0].calls, 3);
	assert_int_equal(wl->streams[0].think_ns, 5000);
	assert_int_equal(wl->streams[1].first, 4);
	assert_int_equal(wl->streams[1].nops, 5);
	assert_int_equal(wl->streams[1].calls, 3);
	assert_int_equal(wl->streams[1].think_ns, 2000000);
	assert_int_equal(run[0].kind, LG_OP_THINK);
	assert_int_equal(run[0].size, 5000);
	assert_int_equal(run[4].kind, LG_OP_AFTER);
	assert_int_equal(run[4].slot, 0);
	assert_int_equal(run[4].count, 3);
	assert_int_equal(run[5].kind, LG_OP_OPEN);
	assert_int_equal(wl->nrecorded, 2);
	assert_string_equal(wl->recorded[0].name, "command");
	assert_string_equal(wl->recorded[0].value, "sh -c x");
	assert_string_equal(wl->recorded[1].value, "1");
	assert_string_equal(lg_op_kind_name(LG_OP_AFTER), "after");
	assert_string_equal(lg_op_kind_name(LG_OP_THINK), "think");
	lg_workload_destroy(wl);
}

/* A thread may use a file its sibling, written later, opens: no 'used before opened'. */
static void test_sibling_opens_later(void **state)
{
	struct lg_workload *wl = load_ok(
		"streams:\n"
		"  - name: a\n"
		"    steps:\n"
		"      - after: {stream: b, calls: 1}\n"
		"      - write: {file: t1.fd4, size: 1}\n"
		"  - name: b\n"
		"    steps:\n"
		"      - create: {path: \"${client}/x\", as: t1.fd4}\n"
		"      - after: {stream: a, calls: 1}\n"
		"      - close: t1.fd4\n");

	(void)state;
	assert_int_equal(wl->nstreams, 2);
	assert_int_equal(wl->ops[LG_PHASE_RUN][1].slot, wl->ops[LG_PHASE_RUN][2].slot);
	lg_workload_destroy(wl);
}

/* 'calls: end' waits for the whole stream, its last think time too; a cycle through an
 * end is found as well. */
static void test_after_end(void **state)
{
	struct lg_workload *wl = load_ok(
		"streams:\n"
		"  - name: a\n    steps:\n      - stat: x\n      - think: 1ms\n"
		"  - name: b\n    steps:\n      - after: {stream: a, calls: end}\n"
		"      - stat: y\n");

	(void)state;
	assert_int_equal(wl->ops[LG_PHASE_RUN][2].kind, LG_OP_AFTER);
	assert_true(wl->ops[LG_PHASE_RUN][2].count == LG_AFTER_END);
	lg_workload_destroy(wl);
	load_fails("streams:\n"
		   "  - name: a\n    steps:\n      - after: {stream: b, calls: end}\n"
		   "      - stat: x\n"
		   "  - name: b\n    steps:\n      - stat: y\n      - after: {stream: a, calls: 1}\n",
		   "t.yaml:4:9: stream 'a' would wait forever: its 'after' waits for the end, "
		   "after call 1 of stream 'b'");
}

/* What the writer writes loads to the same ops and streams. */
static void test_write_round_trip(void **state)
{
	struct lg_workload *a = load_ok(two), *b = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(lg_yaml_write(f, a, err, sizeof(err)), 0);
	fclose(f);
	if (load(text, &b))
		fail_msg("reload failed: %s\n%s", err, text);
	assert_int_equal(b->nstreams, a->nstreams);
	assert_int_equal(b->nops[LG_PHASE_RUN], a->nops[LG_PHASE_RUN]);
	for (size_t i = 0; i < a->nops[LG_PHASE_RUN]; i++) {
		assert_int_equal(b->ops[LG_PHASE_RUN][i].kind, a->ops[LG_PHASE_RUN][i].kind);
		assert_int_equal(b->ops[LG_PHASE_RUN][i].size, a->ops[LG_PHASE_RUN][i].size);
		assert_int_equal(b->ops[LG_PHASE_RUN][i].count, a->ops[LG_PHASE_RUN][i].count);
		assert_int_equal(b->ops[LG_PHASE_RUN][i].slot, a->ops[LG_PHASE_RUN][i].slot);
	}
	assert_int_equal(b->nrecorded, 2);
	assert_string_equal(b->recorded[1].name, "exit_status");
	free(text);
	lg_workload_destroy(a);
	lg_workload_destroy(b);
}

#define S1 "streams:\n  - name: a\n    steps:\n      - stat: x\n"

static void test_errors(void **state)
{
	(void)state;
	/* the waits form a cycle: each stream's first step waits for the other */
	load_fails("streams:\n"
		   "  - name: a\n    steps:\n      - after: {stream: b, calls: 1}\n"
		   "      - stat: x\n"
		   "  - name: b\n    steps:\n      - after: {stream: a, calls: 1}\n"
		   "      - stat: y\n",
		   "t.yaml:4:9: stream 'a' would wait forever: its 'after' waits for call 1 of "
		   "stream 'b'");
	load_fails(S1 "  - name: b\n    steps:\n      - after: {stream: c, calls: 1}\n",
		   "t.yaml:7:25: 'after' names stream 'c', which the workload does not have");
	load_fails(S1 "  - name: b\n    steps:\n      - after: {stream: a, calls: 2}\n",
		   "t.yaml:7:25: 'after' waits for call 2 of stream 'a', which makes 1");
	load_fails(S1 "  - name: b\n    steps:\n      - after: {stream: b, calls: 1}\n"
		   "      - stat: z\n",
		   "t.yaml:7:25: 'after' in stream 'b' waits for its own calls");
	load_fails(S1 "  - name: a\n    steps:\n      - stat: y\n",
		   "t.yaml:5:11: duplicate stream name 'a'");
	load_fails(S1 "  - name: b\n    steps:\n      - after: {stream: a, calls: 0}\n",
		   "t.yaml:7:35: 'calls' must be at least 1");
	load_fails(S1 "  - name: b\n    steps:\n      - after: {stream: a}\n",
		   "t.yaml:7:9: 'after' needs 'calls'");
	load_fails("run:\n  - after: {stream: a, calls: 1}\n  - stat: x\n",
		   "t.yaml:2:5: 'after' is a step of a recorded program's streams");
	load_fails("setup:\n  - think: 1ms\nrun:\n  - stat: x\n",
		   "t.yaml:2:5: 'think' is a step of a recorded program's streams: it belongs "
		   "in a stream's 'steps' (under the top-level 'streams'), not in 'setup'");
	load_fails(S1 "run:\n  - stat: x\n",
		   "t.yaml:2:3: a workload has 'run' or 'streams'");
	load_fails("streams:\n  - name: a\n    steps:\n      - write: {file: f, size: 1}\n",
		   "t.yaml:4:9: file 'f' is used, but no step of setup or of any stream opens it");
	load_fails("streams:\n  - name: a\n    steps:\n      - think: 1ms\n",
		   "t.yaml:2:3: 'streams' must contain at least one call to measure");
	load_fails("streams: []\n", "t.yaml:1:10: 'streams' must be a non-empty list");
	load_fails("streams:\n  - steps: []\n", "t.yaml:2:5: a stream needs a 'name'");
	load_fails(S1 "  - name: b\n    steps:\n      - repeat: {count: 2, do: [stat: x]}\n",
		   "t.yaml:7:1: 'repeat' in stream 'b'");
	load_fails("recorded: [a]\n" S1, "t.yaml:1:11: 'recorded' must be a mapping");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streams_compile),
		cmocka_unit_test(test_sibling_opens_later),
		cmocka_unit_test(test_after_end),
		cmocka_unit_test(test_write_round_trip),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
