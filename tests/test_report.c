/* Report: exact text of the progress line, the table and the Throughput line for a
 * hand-built run. Expected latencies are worked out by hand from the bucket layout. */
#include "loadgen/output/report.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char *const names[] = { "ReadX", "WriteX", "Unlink" };

static void op(struct lg_client_stats *cs, size_t type, uint64_t ns, uint64_t rd, uint64_t wr)
{
	cs->types[type].count++;
	cs->types[type].bytes_read += rd;
	cs->types[type].bytes_written += wr;
	lg_histogram_record(&cs->types[type].hist, ns);
}

static void unexpected(struct lg_client_stats *cs, size_t type, uint32_t line, int got,
		       int expect)
{
	cs->types[type].errors++;
	cs->types[type].errnos[got]++;
	if (cs->nnotes < LG_FIRST_ERRORS)
		cs->notes[cs->nnotes++] = (struct lg_error_note){
			.line = line, .type = (uint16_t)type, .got = got, .expect = expect };
}

/* ReadX: 1, 3 ms (client 0) and 2 ms (client 1), 64 KiB each; WriteX: one 0.5 ms write
 * of 1 MB that failed with ENOSPC; ReadX once succeeded where ENOENT was expected. */
static void make_run(struct lg_run *run)
{
	memset(run, 0, sizeof(*run));
	run->status = LG_RUN_COMPLETE;
	run->duration_s = 2.0;
	run->nclients = 2;
	run->ntypes = 3;
	run->type_names = names;
	run->clients = calloc(2, sizeof(*run->clients));
	assert_non_null(run->clients);
	assert_int_equal(lg_client_stats_create(0, 3, &run->clients[0]), 0);
	assert_int_equal(lg_client_stats_create(1, 3, &run->clients[1]), 0);
	op(run->clients[0], 0, 1000000, 65536, 0);
	op(run->clients[0], 0, 3000000, 65536, 0);
	op(run->clients[1], 0, 2000000, 65536, 0);
	op(run->clients[1], 1, 500000, 0, 1000000);
	unexpected(run->clients[0], 0, 7, 0, ENOENT);
	unexpected(run->clients[1], 1, 42, ENOSPC, 0);
	assert_int_equal(lg_run_merge(run), 0);
}

static char *capture_print(const struct lg_run *run)
{
	struct lg_config cfg = { .clients = run->nclients, .mode = "threads" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lg_report_print(f, &cfg, run);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void assert_line(const char *text, const char *line)
{
	char want[512];

	snprintf(want, sizeof(want), "\n%s\n", line);
	if (!strstr(text, want))
		fail_msg("line not found: [%s]\nin:\n%s", line, text);
}

static void test_progress(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	lg_report_progress(f, 4, 1234, 12.5, "execute", 7, 0, 1.5);
	lg_report_progress(f, 128, 12345678, 1234.567, "warmup", 120, 0, 0.0004);
	lg_report_progress(f, 1, 10, 1, "execute", 0.25, 2, 0); /* --interval < 1 */
	lg_report_progress(f, 1, 10, 1, "execute", 12.5, 2, 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "   4     1234   12.50 MB/sec  execute   7 sec  latency 1.500 ms\n"
				 " 128 12345678 1234.57 MB/sec  warmup 120 sec  latency 0.000 ms\n"
				 "   1       10    1.00 MB/sec  execute   0.25 sec  latency 0.000 ms\n"
				 "   1       10    1.00 MB/sec  execute  12.50 sec  latency 0.000 ms\n");
	free(buf);
}

static void test_print(void **state)
{
	struct lg_run run;
	char *out;

	(void)state;
	make_run(&run);
	out = capture_print(&run);
	assert_line(out, " Operation                Count AvgLat ms    p50 ms    p99 ms  p99.9 ms MaxLat ms");
	assert_line(out, " -------------------------------------------------------------------------"
			 "-------"); /* as wide as the header */
	/* p50 is rank 2 (2 ms): bucket [1998848, 2015231], midpoint 2007039. p99 is rank 3
	 * (3 ms): bucket [2981888, 3014655], midpoint 2998271, under the max so kept. */
	assert_line(out, " ReadX                        3     2.000     2.007     2.998     2.998     3.000");
	/* One value: every percentile clamps to it. */
	assert_line(out, " WriteX                       1     0.500     0.500     0.500     0.500     0.500");
	assert_null(strstr(out, "Unlink")); /* no ops: no row */
	assert_line(out, " Unexpected results       Count  By result");
	assert_line(out, " ReadX                        1  OK=1");
	assert_line(out, " WriteX                       1  ENOSPC=1");
	assert_line(out, " client 0: line 7: ReadX got OK, expected ENOENT");
	assert_line(out, " client 1: line 42: WriteX got ENOSPC, expected OK");
	/* (3 * 65536 + 1e6) bytes / 2 s / 1e6 */
	assert_line(out, "Throughput 0.598304 MB/sec  2 clients  2 threads  max_latency=3.000 ms");
	/* 4 ops, 2 of them unexpected results: ops/sec of the 2 others, the failed beside */
	assert_line(out, "Ops 1.0 ops/sec  failed 2 ops (1.0/sec)  read 196608 bytes  written "
			 "1000000 bytes  2.000 s");
	assert_line(out, "Failed: 2 unexpected results");
	assert_null(strstr(out, "Interrupted"));
	assert_null(strstr(out, "more"));
	/* The table comes first and the summary last. */
	assert_true(strstr(out, "Operation") < strstr(out, "Throughput"));
	free(out);
	lg_run_clear(&run);
}

static void test_interrupted_no_errors(void **state)
{
	struct lg_run run;
	char *out;

	(void)state;
	make_run(&run);
	for (unsigned c = 0; c < 2; c++)
		lg_client_stats_reset(run.clients[c]);
	op(run.clients[1], 2, 250000, 0, 0);
	run.status = LG_RUN_INTERRUPTED;
	run.duration_s = 0.5;
	assert_int_equal(lg_run_merge(&run), 0);
	out = capture_print(&run);
	assert_line(out, " Unlink                       1     0.250     0.250     0.250     0.250     0.250");
	assert_null(strstr(out, "ReadX"));
	assert_null(strstr(out, "Unexpected"));
	assert_null(strstr(out, " client "));
	assert_line(out, "Throughput 0 MB/sec  2 clients  2 threads  max_latency=0.250 ms");
	assert_line(out, "Ops 2.0 ops/sec  read 0 bytes  written 0 bytes  0.500 s");
	assert_non_null(strstr(out, "\nInterrupted: "));
	free(out);
	lg_run_clear(&run);
}

/* The throughput line names what runs the clients, singular for one: "1 client  1
 * thread", "4 clients  4 processes", never "1 clients" or "procs" for threads. */
static void test_clients_wording(void **state)
{
	struct lg_config cfg = { .clients = 1, .mode = "threads" };
	struct lg_run run;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&run, 0, sizeof(run));
	run.nclients = 1;
	assert_int_equal(lg_run_merge(&run), 0);
	run.duration_s = 1.0; /* measured (nothing): a run that did not is said otherwise */
	for (int k = 0; k < 4; k++) {
		static const char *const want[] = {
			"Throughput 0 MB/sec  1 client  1 thread  max_latency=0.000 ms",
			"Throughput 0 MB/sec  1 client  1 process  max_latency=0.000 ms",
			"Throughput 0 MB/sec  4 clients  4 threads  max_latency=0.000 ms",
			"Throughput 0 MB/sec  4 clients  4 processes  max_latency=0.000 ms",
		};

		run.nclients = k < 2 ? 1 : 4;
		cfg.clients = run.nclients;
		cfg.processes = k % 2;
		cfg.mode = cfg.processes ? "processes" : "threads";
		f = open_memstream(&buf, &len);
		assert_non_null(f);
		lg_report_print(f, &cfg, &run);
		assert_int_equal(fclose(f), 0);
		assert_line(buf, want[k]);
		free(buf);
		buf = NULL;
	}
	lg_run_clear(&run);
}

/* Nothing measured (stopped during warm-up): no division by zero, no rows. */
static void test_empty_run(void **state)
{
	struct lg_run run;
	char *out;

	(void)state;
	memset(&run, 0, sizeof(run));
	run.nclients = 3;
	assert_int_equal(lg_run_merge(&run), 0);
	out = capture_print(&run);
	/* the reason, not an empty table and zeros (issue 25, item 10) */
	assert_line(out, "Nothing was measured: the measured phase did not begin");
	assert_null(strstr(out, "Throughput"));
	assert_null(strstr(out, "Operation"));
	assert_null(strstr(out, "Jain"));
	free(out);
	lg_run_clear(&run);
}

/* Interrupted in warm-up, or failed in setup: said, with no table, throughput or
 * fairness of zeros. */
static void test_nothing_measured(void **state)
{
	struct lg_run run;
	char *out;

	(void)state;
	make_run(&run);
	run.duration_s = 0;
	run.status = LG_RUN_INTERRUPTED;
	out = capture_print(&run);
	assert_line(out, "Interrupted before the measured phase began: nothing was measured");
	assert_null(strstr(out, "Throughput"));
	assert_null(strstr(out, "Operation"));
	assert_null(strstr(out, "Jain"));
	free(out);
	run.status = LG_RUN_FAILED;
	run.failure = "setup failed: the filesystem of d is full (ENOSPC)";
	out = capture_print(&run);
	assert_line(out, "Failed: setup failed: the filesystem of d is full (ENOSPC)");
	assert_null(strstr(out, "Throughput"));
	assert_null(strstr(out, "Jain"));
	free(out);
	lg_run_clear(&run);
}

/* A failing op repeated gives identical notes: one line with the count. */
static void test_repeated_notes(void **state)
{
	struct lg_run run;
	char *out, *p;
	int lines = 0;

	(void)state;
	make_run(&run);
	for (unsigned c = 0; c < 2; c++)
		lg_client_stats_reset(run.clients[c]);
	for (int i = 0; i < 20; i++) {
		op(run.clients[0], 1, 1000, 0, 0);
		unexpected(run.clients[0], 1, 30, ENOSPC, 0);
	}
	assert_int_equal(lg_run_merge(&run), 0);
	out = capture_print(&run);
	for (p = out; (p = strstr(p, "line 30: WriteX got ENOSPC")) != NULL; p++)
		lines++;
	assert_int_equal(lines, 1);
	assert_line(out, " client 0: line 30: WriteX got ENOSPC, expected OK (\u00d78)");
	assert_line(out, " ... and 12 more");
	free(out);
	lg_run_clear(&run);
}

/* FAILURE lines of an untimed phase name only the counts that are not zero. */
static void test_untimed_no_zeros(void **state)
{
	struct lg_untimed_stats *u;
	struct lg_run run;
	char *out;

	(void)state;
	make_run(&run);
	u = &run.clients[0]->untimed[LG_UNTIMED_SETUP];
	u->errors = 2;
	u->errnos[ENOENT] = 2;
	u = &run.clients[1]->untimed[LG_UNTIMED_CLEANUP];
	u->skipped[LG_SKIP_NOT_OPEN] = 3;
	assert_int_equal(lg_run_merge(&run), 0);
	out = capture_print(&run);
	assert_line(out, "FAILURE: 2 unexpected results in setup ENOENT=2");
	assert_line(out, "FAILURE: 3 ops not executed (slot not open) in cleanup");
	assert_null(strstr(out, " 0 ops not executed"));
	assert_null(strstr(out, " 0 unexpected"));
	free(out);
	lg_run_clear(&run);
}

/* Two runs at each of two client counts, the second count's throughputs mb2a, mb2b. */
static void scaling_runs(struct lg_run *runs, double mb2a, double mb2b)
{
	const double mb[4] = { 100, 100.01, mb2a, mb2b };

	memset(runs, 0, 4 * sizeof(*runs));
	for (int i = 0; i < 4; i++) {
		runs[i].nclients = i < 2 ? 1 : 2;
		runs[i].duration_s = 1;
		runs[i].bytes_written = (uint64_t)(mb[i] * 1e6);
		runs[i].ops = 10;
		lg_histogram_init(&runs[i].all);
		lg_histogram_record(&runs[i].all, 1000);
	}
}

/* The scaling table's legend for "!" only when a row has the mark. */
static void test_scaling_legend(void **state)
{
	struct lg_run runs[4];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	scaling_runs(runs, 200, 200.02);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	lg_report_scaling(f, runs, 4);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "Scaling"));
	assert_null(strstr(buf, "!"));
	assert_null(strstr(buf, "CV above"));
	free(buf);
	scaling_runs(runs, 150, 250);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	lg_report_scaling(f, runs, 4);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, " !\n"));
	assert_non_null(strstr(buf, "(! CV above"));
	free(buf);
}

/* At most LG_FIRST_ERRORS notes in all, then a count of the rest; long labels widen
 * the first column instead of running into the counts. */
static void test_many_notes_long_label(void **state)
{
	static const char *const long_names[] = { "a_rather_long_label_name_here" };
	struct lg_run run;
	char *out, *p;
	int lines = 0;

	(void)state;
	memset(&run, 0, sizeof(run));
	run.duration_s = 1;
	run.nclients = 2;
	run.ntypes = 1;
	run.type_names = long_names;
	run.clients = calloc(2, sizeof(*run.clients));
	assert_non_null(run.clients);
	for (unsigned c = 0; c < 2; c++) {
		assert_int_equal(lg_client_stats_create(c, 1, &run.clients[c]), 0);
		for (uint32_t i = 0; i < 10; i++) {
			op(run.clients[c], 0, 1000, 0, 0);
			unexpected(run.clients[c], 0, 100 + i, EIO, 0);
		}
	}
	assert_int_equal(lg_run_merge(&run), 0);
	out = capture_print(&run);
	for (p = out; (p = strstr(p, " got EIO, expected OK\n")) != NULL; p++)
		lines++;
	assert_int_equal(lines, LG_FIRST_ERRORS);
	assert_line(out, " ... and 12 more");
	assert_line(out, " Operation                          Count AvgLat ms    p50 ms    p99 ms  p99.9 ms MaxLat ms");
	assert_line(out, " a_rather_long_label_name_here         20     0.001     0.001     0.001     0.001     0.001");
	free(out);
	lg_run_clear(&run);
}

/* A note of EINVAL on an O_DIRECT file says what alignment is likely wanting: the one
 * the run learnt, or the device's logical block size; other notes say nothing more. In
 * the measured phase's notes and in an untimed phase's. */
static void test_direct_hint(void **state)
{
	struct lg_untimed_stats *u;
	struct lg_run run;
	char *out;

	(void)state;
	make_run(&run);
	run.clients[0]->notes[0].got = EINVAL;
	run.clients[0]->notes[0].direct_align = 4096;
	run.clients[1]->notes[0].got = EINVAL;
	run.clients[1]->notes[0].direct_align = LG_NOTE_ALIGN_UNKNOWN;
	u = &run.clients[1]->untimed[LG_UNTIMED_SETUP];
	u->errors = 1;
	u->errnos[EINVAL] = 1;
	u->notes[u->nnotes++] = (struct lg_error_note){ .line = 3, .type = 1, .got = EINVAL,
							.path = LG_NOTE_NO_PATH,
							.direct_align = 512 };
	u->notes[u->nnotes++] = (struct lg_error_note){ .line = 4, .type = 1, .got = EINVAL,
							.path = LG_NOTE_NO_PATH };
	assert_int_equal(lg_run_merge(&run), 0);
	out = capture_print(&run);
	assert_line(out, " client 0: line 7: ReadX got EINVAL, expected ENOENT (O_DIRECT: the "
			 "offset and size must be multiples of 4096 bytes)");
	assert_line(out, " client 1: line 42: WriteX got EINVAL, expected OK (O_DIRECT: the "
			 "offset and size must be multiples of the device's logical block size)");
	assert_line(out, " client 1: line 3: WriteX got EINVAL, expected OK (O_DIRECT: the "
			 "offset and size must be multiples of 512 bytes)");
	assert_line(out, " client 1: line 4: WriteX got EINVAL, expected OK");
	free(out);
	lg_run_clear(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_interrupted_no_errors),
		cmocka_unit_test(test_empty_run),
		cmocka_unit_test(test_clients_wording),
		cmocka_unit_test(test_many_notes_long_label),
		cmocka_unit_test(test_direct_hint),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_repeated_notes),
		cmocka_unit_test(test_untimed_no_zeros),
		cmocka_unit_test(test_scaling_legend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
