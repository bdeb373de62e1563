/* result_summary.c: throughput and ops/s of a run, the summary of repeated runs (mean,
 * stddev, min, max, CI, with null where one run has no spread), fairness over clients,
 * stalls, and corruption notes as the result file states them, and the UTF-8 check that
 * tells a refused name (null) from a failed allocation. Runs are built by hand so each
 * figure can be worked out on paper. */
#include "counters/result_summary.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/counters/ranks.h"

static double real(const json_t *o, const char *a, const char *b)
{
	const json_t *v = json_object_get(o, a);

	if (b)
		v = json_object_get(v, b);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static void test_rates(void **state)
{
	struct lg_run r = { .duration_s = 2, .ops = 500, .bytes_read = 3000000,
			    .bytes_written = 1000000 };
	struct lg_run zero = { 0 };

	(void)state;
	assert_true(fabs(lg_run_mbps(&r) - 2.0) < 1e-12);   /* 4 MB in 2 s */
	assert_true(fabs(lg_run_ops_per_s(&r) - 250) < 1e-12);
	assert_true(lg_run_mbps(&zero) == 0 && lg_run_ops_per_s(&zero) == 0);
}

/* Three runs of 1, 2 and 3 MB/s: mean 2, stddev 1, CI 2 -+ t(0.975, 2) / sqrt(3). */
static void test_summary(void **state)
{
	struct lg_run runs[3] = {
		{ .duration_s = 1, .ops = 10, .bytes_written = 1000000 },
		{ .duration_s = 1, .ops = 20, .bytes_written = 2000000 },
		{ .duration_s = 1, .ops = 30, .bytes_written = 3000000 },
	};
	json_t *s = lg_summary_json(runs, 3), *one;
	const json_t *ci;

	(void)state;
	assert_non_null(s);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "throughput_mbps"),
							     "n")), 3);
	assert_true(fabs(real(s, "throughput_mbps", "mean") - 2) < 1e-12);
	assert_true(fabs(real(s, "throughput_mbps", "stddev") - 1) < 1e-12);
	assert_true(real(s, "throughput_mbps", "min") == 1 && real(s, "throughput_mbps", "max") == 3);
	assert_true(fabs(real(s, "ops_per_s", "mean") - 20) < 1e-12);
	ci = json_object_get(json_object_get(s, "throughput_mbps"), "ci95");
	assert_true(fabs(json_number_value(json_array_get(ci, 0)) -
			 (2 - 4.302652729911275 / sqrt(3))) < 1e-9);
	json_decref(s);
	one = lg_summary_json(runs, 1); /* one run: no spread, null not NaN */
	assert_true(json_is_null(json_object_get(json_object_get(one, "throughput_mbps"),
						 "stddev")));
	json_decref(one);
	assert_null(lg_summary_json(runs, 0));
}

/* A run interrupted in its warm-up measured nothing (0 s): its 0 MB/s is no sample, so
 * the summary is of the others (before, --repeat 3 stopped in the second warm-up said
 * "mean 966, CV 141 %" of runs at 1933 and 0); a failed run neither. When no run
 * measured anything, the summary is of them all, as they are. */
static void test_summary_leaves_out_unmeasured(void **state)
{
	struct lg_run runs[4] = {
		{ .nclients = 2, .duration_s = 1, .ops = 10, .bytes_written = 1000000 },
		{ .nclients = 2, .duration_s = 1, .ops = 30, .bytes_written = 3000000 },
		{ .nclients = 2, .status = LG_RUN_INTERRUPTED },
		{ .nclients = 2, .status = LG_RUN_FAILED, .duration_s = 1 },
	};
	json_t *s = lg_summary_json(runs, 4), *by;

	(void)state;
	assert_false(lg_run_measured(&runs[2]));
	assert_false(lg_run_measured(&runs[3]));
	assert_non_null(s);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "throughput_mbps"),
							     "n")), 2);
	assert_true(fabs(real(s, "throughput_mbps", "mean") - 2) < 1e-12);
	assert_true(real(s, "throughput_mbps", "min") == 1);
	by = json_array_get(json_object_get(s, "by_clients"), 0);
	assert_int_equal(json_integer_value(json_object_get(by, "runs")), 2);
	assert_true(fabs(real(by, "ops_per_s", "mean") - 20) < 1e-12);
	json_decref(s);
	s = lg_summary_json(runs + 2, 1); /* nothing measured: the run as it is */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "throughput_mbps"),
							     "n")), 1);
	assert_true(real(s, "throughput_mbps", "mean") == 0);
	json_decref(s);
}

static struct lg_client_stats *client(unsigned id, uint64_t bytes)
{
	struct lg_client_stats *cs;

	assert_int_equal(lg_client_stats_create(id, 1, &cs), 0);
	cs->types[0].count = bytes / 1000;
	cs->types[0].bytes_written = bytes;
	return cs;
}

/* Clients of 1, 1 and 4 MB: Jain's index (6^2) / (3 * 18) = 2/3. */
static void test_fairness(void **state)
{
	struct lg_client_stats *cs[3] = { client(0, 1000000), client(1, 1000000),
					  client(2, 4000000) };
	const char *names[] = { "write" };
	struct lg_run r = { .duration_s = 1, .nclients = 3, .clients = cs, .ntypes = 1,
			    .type_names = names, .bytes_written = 6000000 };
	json_t *f;

	(void)state;
	f = lg_fairness_json(&r);
	assert_non_null(f);
	assert_string_equal(json_string_value(json_object_get(f, "metric")), "throughput_mbps");
	assert_true(fabs(real(f, "jain_index", NULL) - 2.0 / 3) < 1e-12);
	assert_true(fabs(real(f, "min", NULL) - 1) < 1e-12);
	assert_true(fabs(real(f, "median", NULL) - 1) < 1e-12);
	assert_true(fabs(real(f, "max", NULL) - 4) < 1e-12);
	json_decref(f);
	r.bytes_written = 0; /* a run that moves no data: judged by ops/s */
	f = lg_fairness_json(&r);
	assert_string_equal(json_string_value(json_object_get(f, "metric")), "ops_per_s");
	assert_true(fabs(real(f, "max", NULL) - 4000) < 1e-9);
	json_decref(f);
	for (int i = 0; i < 3; i++)
		lg_client_stats_destroy(cs[i]);
}

static void test_corruption(void **state)
{
	struct lg_corruption_note n = { .offset = 4096, .expected_hash = 0xabc,
					.found_hash = 0x1, .found_magic = 0, .line = 9,
					.bad_offset = 4100, .expected_byte = 7, .found_byte = 0,
					.writer = 3 };
	char exp[96], found[96];
	struct lg_client_stats *cs = client(1, 0);
	const char *names[] = { "read" };
	struct lg_rank_info ranks[2] = { { .host = "h1" }, { .host = "h2", .host_index = 1 } };
	struct lg_multi m = { .nranks = 2, .per_rank = 2, .nhosts = 2, .ranks = ranks };
	struct lg_run r = { .nclients = 1, .clients = &cs, .ntypes = 1, .type_names = names };
	json_t *a, *o;

	(void)state;
	lg_corruption_describe(&n, exp, sizeof(exp), found, sizeof(found));
	assert_string_equal(exp, "client 3, offset 4096, xxh64 0x0000000000000abc");
	assert_string_equal(found, "no loadgen header, xxh64 0x0000000000000001");
	n.found_magic = 1;
	n.found_client = 5;
	n.found_offset = 8192;
	lg_corruption_describe(&n, exp, sizeof(exp), found, sizeof(found));
	assert_string_equal(found, "client 5, offset 8192, xxh64 0x0000000000000001");
	strcpy(n.path, "c2/f\xff");
	cs->corrupt[0] = n;
	cs->ncorrupt = 1;
	a = lg_corruption_notes_json(&r);
	assert_int_equal(json_array_size(a), 1);
	o = json_array_get(a, 0);
	assert_int_equal(json_integer_value(json_object_get(o, "client")), 1);
	assert_string_equal(json_string_value(json_object_get(o, "path")), "c2/f?");
	assert_string_equal(json_string_value(json_object_get(o, "type")), "read");
	assert_int_equal(json_integer_value(json_object_get(o, "bad_offset")), 4100);
	/* one host: rank 0, no host name */
	o = json_object_get(json_array_get(a, 0), "writer");
	assert_int_equal(json_integer_value(json_object_get(o, "client")), 3);
	assert_int_equal(json_integer_value(json_object_get(o, "rank")), 0);
	assert_true(json_is_null(json_object_get(o, "host")));
	json_decref(a);
	/* two ranks of two clients: writer 3 on rank 1 (h2), reader 1 on rank 0 (h1) */
	r.multi = &m;
	a = lg_corruption_notes_json(&r);
	o = json_object_get(json_array_get(a, 0), "writer");
	assert_int_equal(json_integer_value(json_object_get(o, "client")), 3);
	assert_int_equal(json_integer_value(json_object_get(o, "rank")), 1);
	assert_string_equal(json_string_value(json_object_get(o, "host")), "h2");
	o = json_object_get(json_array_get(a, 0), "reader");
	assert_int_equal(json_integer_value(json_object_get(o, "client")), 1);
	assert_int_equal(json_integer_value(json_object_get(o, "rank")), 0);
	assert_string_equal(json_string_value(json_object_get(o, "host")), "h1");
	json_decref(a);
	/* stale metadata: the writer's file, and the errno */
	n = (struct lg_corruption_note){ .reason = LG_CORRUPT_STALE, .writer = 3, .err = ENOENT };
	lg_corruption_describe(&n, exp, sizeof(exp), found, sizeof(found));
	assert_string_equal(exp, "client 3's file");
	assert_string_equal(found, "ENOENT");
	assert_string_equal(lg_corruption_reason_name(LG_CORRUPT_STALE), "stale metadata");
	lg_client_stats_destroy(cs);
}

static void test_stalls(void **state)
{
	struct lg_client_stats *cs = client(0, 0);
	const char *names[] = { "fsync" };
	struct lg_run r = { .duration_s = 10, .nclients = 1, .clients = &cs, .ntypes = 1,
			    .type_names = names, .stall_ns = 1000000000 };
	json_t *s;

	(void)state;
	cs->slow_count = 2;
	cs->slow_total_ns = 3500000000;
	cs->slowest = (struct lg_slow_op){ .end_ns = 4000000000, .lat_ns = 2500000000,
					   .line = 12, .type = 0 };
	s = lg_stalls_json(&r);
	assert_non_null(s);
	assert_true(real(s, "threshold_ms", NULL) == 1000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "slow_ops"),
							     "count")), 2);
	assert_true(fabs(real(s, "slow_ops", "total_s") - 3.5) < 1e-9);
	assert_true(fabs(real(s, "slow_ops", "longest_ms") - 2500) < 1e-9);
	assert_string_equal(json_string_value(json_object_get(json_object_get(s, "slow_ops"),
							      "longest_type")), "fsync");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "slow_ops"),
							     "longest_line")), 12);
	json_decref(s);
	lg_client_stats_destroy(cs);
}

/* What jansson takes is what lg_utf8_valid says: so a name that is refused (and becomes
 * null in a note) is told apart from one that could not be allocated. */
static void test_utf8(void **state)
{
	static const char *const bad[] = {
		"\xff", "a\xc3", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xe2\x82", "\x80",
	};
	static const char *const good[] = { "", "ReadX", "d\xc3\xa9j\xc3\xa0", "\xe2\x82\xac",
					    "\xf0\x9f\x98\x80", "\xed\x9f\xbf" };
	const char *names[] = { "Read\xff" };
	struct lg_run r = { .ntypes = 1, .type_names = names };
	struct lg_error_note n = { .line = 3, .type = 0, .got = 0, .expect = ENOENT,
				   .path = LG_NOTE_NO_PATH };
	json_t *j;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = json_string(bad[i]);
		assert_null(j);
		assert_false(lg_utf8_valid(bad[i]));
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		j = json_string(good[i]);
		assert_non_null(j);
		assert_true(lg_utf8_valid(good[i]));
		json_decref(j);
	}
	assert_int_equal(lg_utf8_len((const unsigned char *)"\xe2\x82\xac"), 3);
	j = lg_error_note_json(&r, 1, "run", &n);
	assert_true(json_is_null(json_object_get(j, "type"))); /* refused, not out of memory */
	assert_int_equal(json_integer_value(json_object_get(j, "line")), 3);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_summary_leaves_out_unmeasured),
		cmocka_unit_test(test_fairness),
		cmocka_unit_test(test_corruption),
		cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
