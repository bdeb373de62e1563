/* The data object of `loadgen report` on hand-built result documents: latency curves
 * from histograms merged across runs (equal to one histogram of all values), refusal of
 * buckets that are not loadgen's, verdicts and numbers from compare_eval.c, per-interval
 * series with stalls, per-client means, optional keys of newer results, and no data
 * object rather than a short one when memory runs out. */
#include "loadgen/compare/report_html.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/model/histogram.h"

static unsigned allocs, fail_at; /* jansson allocations so far; fail that one (0: none) */

static void *counting_malloc(size_t n)
{
	return ++allocs == fail_at ? NULL : malloc(n);
}

/* The buckets of h as the result file stores them: [[low, high, count], ...]. */
static json_t *buckets_json(const struct lg_histogram *h)
{
	json_t *a = json_array();
	uint64_t low, high;

	for (size_t i = 0; i < LG_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		lg_histogram_bucket_bounds(i, &low, &high);
		json_array_append_new(a, json_pack("[I, I, I]", (json_int_t)low, (json_int_t)high,
						   (json_int_t)h->buckets[i]));
	}
	return a;
}

/* A run whose "read" latencies are n values from first, each step ns apart, and one
 * timeline of intervals (ops, max latency ms). */
static json_t *make_run(double mbps, uint64_t first, uint64_t step, size_t n,
			struct lg_histogram *all)
{
	struct lg_histogram h;

	lg_histogram_init(&h);
	for (size_t i = 0; i < n; i++) {
		lg_histogram_record(&h, first + i * step);
		lg_histogram_record(all, first + i * step);
	}
	return json_pack("{s:s, s:f, s:f, s:{s:{s:I, s:{s:I, s:I, s:f}, s:o}},"
			 " s:[{s:f, s:f, s:I, s:f, s:f, s:f}, {s:f, s:f, s:I, s:f, s:f, s:f}],"
			 " s:[{s:I, s:f}, {s:I, s:f}], s:{s:f}}",
			 "status", "complete", "throughput_mbps", mbps, "ops_per_s", 10 * mbps,
			 "ops_by_type", "read", "count", (json_int_t)n, "latency_ns", "min",
			 (json_int_t)h.min_ns, "max", (json_int_t)h.max_ns, "mean",
			 lg_histogram_mean(&h), "histogram", buckets_json(&h),
			 "timeline", "t_s", 1.0, "len_s", 1.0, "ops", (json_int_t)100, "mbps", mbps,
			 "p99_ms", 0.5, "max_latency_ms", 2.0,
			 "t_s", 2.0, "len_s", 0.5, "ops", (json_int_t)0, "mbps", 0.0, "p99_ms", 0.0,
			 "max_latency_ms", 0.0,
			 "clients", "id", (json_int_t)0, "throughput_mbps", mbps / 2, "id",
			 (json_int_t)1, "throughput_mbps", mbps / 2 + 1,
			 "fairness", "jain_index", 0.99);
}

static json_t *make_doc(const double *mbps, size_t nruns, uint64_t first,
			struct lg_histogram *all, const char *kernel)
{
	json_t *runs = json_array();

	for (size_t r = 0; r < nruns; r++)
		json_array_append_new(runs, make_run(mbps[r], first * (r + 1), 37 + 1000 * r,
						     500 + 300 * r, all));
	return json_pack("{s:s, s:{s:s}, s:{s:s}, s:{s:f}, s:o}", "schema", LG_RESULT_SCHEMA,
			 "env", "kernel", kernel, "workload", "name", "w", "config",
			 "stall_threshold_s", 1.0, "runs", runs);
}

static json_t *data_of(json_t *doc, const char *path, struct lg_cmp_file *f)
{
	char err[256];
	json_t *data;

	assert_int_equal(lg_cmp_file_init(path, doc, f, err, sizeof(err)), 0);
	data = lg_report_data(f, 1, err, sizeof(err));
	assert_non_null(data);
	return data;
}

static size_t pct_index(const json_t *data, double pct)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(data, "percentiles"), i, v)
		if (json_real_value(v) == pct)
			return i;
	fail_msg("percentile %g not in the curve", pct);
	return 0;
}

/* The latency curves of file fi's group gi (its runs at one client count). */
static const json_t *latency_of(const json_t *data, size_t fi, size_t gi)
{
	const json_t *f = json_array_get(json_object_get(data, "files"), fi);

	return json_object_get(json_array_get(json_object_get(f, "groups"), gi), "latency");
}

/* The per-client MB/s of file fi's group gi (client id i's mean over that group's runs). */
static double per_client_of(const json_t *data, size_t fi, size_t gi, size_t i)
{
	const json_t *f = json_array_get(json_object_get(data, "files"), fi);
	const json_t *g = json_array_get(json_object_get(f, "groups"), gi);

	return json_real_value(json_array_get(json_object_get(json_object_get(g, "per_client"),
							      "mbps"), i));
}

/* The curve of three runs equals one histogram of every value of all three. */
static void test_merge_equals_one_histogram(void **state)
{
	const double mbps[] = { 100, 110, 90 };
	const double pcts[] = { 0, 50, 90, 99, 99.9, 99.99 };
	struct lg_histogram all;
	struct lg_cmp_file f;
	json_t *data, *curve;

	(void)state;
	lg_histogram_init(&all);
	data = data_of(make_doc(mbps, 3, 20000, &all, "6.1"), "a.json", &f);
	curve = json_object_get(json_object_get(latency_of(data, 0, 0), "read"), "ms");
	assert_non_null(curve);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		double got = json_real_value(json_array_get(curve, pct_index(data, pcts[i])));

		assert_true(fabs(got * 1e6 - (double)lg_histogram_percentile(&all, pcts[i])) < 0.5);
	}
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		latency_of(data, 0, 0), "all ops"), "count")), (json_int_t)all.count);
	assert_int_equal(json_array_size(json_object_get(json_array_get(json_object_get(
		data, "files"), 0), "groups")), 1);
	json_decref(data);
	lg_cmp_file_release(&f);
}

/* Intervals: ops/s from ops and length; a stall where nothing completed. */
static void test_series_and_clients(void **state)
{
	const double mbps[] = { 100, 120 };
	struct lg_histogram all;
	struct lg_cmp_file f;
	json_t *data, *file, *s;

	(void)state;
	lg_histogram_init(&all);
	data = data_of(make_doc(mbps, 2, 1000, &all, "6.1"), "a.json", &f);
	file = json_array_get(json_object_get(data, "files"), 0);
	s = json_object_get(json_object_get(json_array_get(json_object_get(file, "runs"), 1),
					    "series"), "ops_s");
	assert_true(json_real_value(json_array_get(s, 0)) == 100.0);
	assert_true(json_real_value(json_array_get(s, 1)) == 0.0);
	s = json_object_get(json_object_get(json_array_get(json_object_get(file, "runs"), 1),
					    "series"), "stall");
	assert_true(json_is_false(json_array_get(s, 0)));
	assert_true(json_is_true(json_array_get(s, 1)));
	assert_true(fabs(per_client_of(data, 0, 0, 0) - 55.0) < 1e-9); /* (50+60)/2 */
	assert_true(fabs(per_client_of(data, 0, 0, 1) - 56.0) < 1e-9);
	assert_null(json_object_get(file, "hosts"));
	assert_null(json_object_get(file, "by_clients"));
	json_decref(data);
	lg_cmp_file_release(&f);
}

/* A bucket that is not one of loadgen's is refused, naming the file and the bucket. */
static void test_foreign_bucket(void **state)
{
	const double mbps[] = { 100 };
	struct lg_histogram all;
	struct lg_cmp_file f;
	char err[256];
	json_t *doc, *h;

	(void)state;
	lg_histogram_init(&all);
	doc = make_doc(mbps, 1, 1000, &all, "6.1");
	h = json_object_get(json_object_get(json_object_get(json_array_get(json_object_get(
		doc, "runs"), 0), "ops_by_type"), "read"), "histogram");
	json_array_set_new(h, 0, json_pack("[i, i, i]", 1000, 1000, 1));
	assert_int_equal(lg_cmp_file_init("odd.json", doc, &f, err, sizeof(err)), 0);
	assert_null(lg_report_data(&f, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "odd.json: runs[0].ops_by_type.read.histogram[0]"));
	assert_non_null(strstr(err, "not a bucket"));
	lg_cmp_file_release(&f);
}

/* The comparison carries compare_eval.c's verdict and numbers. */
static void test_comparison(void **state)
{
	const double a[] = { 100, 101, 99, 100 }, b[] = { 80, 81, 79, 80 };
	const struct lg_cmp_opts opts = { .alpha = LG_COMPARE_ALPHA };
	struct lg_histogram all;
	struct lg_cmp_file f[2];
	struct lg_cmp_result r;
	char err[256];
	json_t *data, *c, *m;

	(void)state;
	lg_histogram_init(&all);
	assert_int_equal(lg_cmp_file_init("a.json", make_doc(a, 4, 1000, &all, "6.1"), &f[0],
					  err, sizeof(err)), 0);
	assert_int_equal(lg_cmp_file_init("b.json", make_doc(b, 4, 1000, &all, "6.6"), &f[1],
					  err, sizeof(err)), 0);
	lg_cmp_decide(&f[0], &f[1], &opts, &r);
	data = lg_report_data(f, 2, err, sizeof(err));
	assert_non_null(data);
	c = json_array_get(json_object_get(data, "comparisons"), 0);
	assert_string_equal(json_string_value(json_object_get(c, "verdict")),
			    lg_verdict_name(r.verdict));
	assert_string_equal(json_string_value(json_object_get(c, "verdict")), "slower");
	m = json_array_get(json_object_get(c, "metrics"), LG_CMP_MBPS);
	assert_true(json_real_value(json_object_get(m, "p_value")) == r.metric[LG_CMP_MBPS].welch.p);
	assert_true(json_real_value(json_object_get(m, "change_pct")) == -20.0);
	m = json_array_get(json_object_get(c, "setup_differences"), 0);
	assert_string_equal(json_string_value(json_object_get(m, "key")), "env.kernel");
	json_decref(data);
	lg_cmp_file_release(&f[0]);
	lg_cmp_file_release(&f[1]);
}

/* Runs at several client counts are compared count by count, as loadgen compare does:
 * the baseline's runs at 1 client are not mixed into the comparison at 4 (mixed, the
 * page said "faster" where compare says "no significant difference"), and a file of
 * another workload is not compared at all. Nor is a sweep given one mean of all its
 * runs. */
static void test_comparison_by_clients(void **state)
{
	const double a[] = { 50, 51, 49, 50, 100, 101, 99, 100 }, b[] = { 100, 101, 99, 100 };
	const char *const names[] = { "a.json", "b.json", "c.json" };
	struct lg_histogram all;
	struct lg_cmp_file f[3];
	char err[256];
	json_t *docs[3], *data, *cmps, *c, *m;
	size_t r;

	(void)state;
	lg_histogram_init(&all);
	docs[0] = make_doc(a, 8, 1000, &all, "6.1");
	docs[1] = make_doc(b, 4, 1000, &all, "6.1");
	docs[2] = make_doc(b, 4, 1000, &all, "6.1");
	json_array_foreach(json_object_get(docs[0], "runs"), r, c)
		json_object_set_new(c, "client_count", json_integer(r < 4 ? 1 : 4));
	json_array_foreach(json_object_get(docs[1], "runs"), r, c)
		json_object_set_new(c, "client_count", json_integer(4));
	json_object_set_new(json_object_get(docs[2], "workload"), "name", json_string("x"));
	for (int i = 0; i < 3; i++)
		assert_int_equal(lg_cmp_file_init(names[i], docs[i], &f[i], err, sizeof(err)), 0);
	data = lg_report_data(f, 3, err, sizeof(err));
	assert_non_null(data);
	cmps = json_object_get(data, "comparisons");
	assert_int_equal(json_array_size(cmps), 2);
	c = json_array_get(cmps, 0);
	assert_string_equal(json_string_value(json_object_get(c, "file")), "b.json");
	assert_int_equal(json_integer_value(json_object_get(c, "clients")), 4);
	assert_string_equal(json_string_value(json_object_get(c, "verdict")),
			    "no significant difference");
	m = json_array_get(json_object_get(c, "metrics"), LG_CMP_MBPS);
	assert_true(json_real_value(json_object_get(m, "change_pct")) == 0.0);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(m, "runs"), 0)), 4);
	c = json_array_get(cmps, 1);
	assert_string_equal(json_string_value(json_object_get(c, "file")), "c.json");
	assert_string_equal(json_string_value(json_object_get(c, "skipped")),
			    "a different workload");
	assert_null(json_object_get(c, "verdict"));
	/* a sweep's runs have no one mean (it would mix 1 and 4 clients: 75 MB/s); a file of
	 * one count keeps its own */
	m = json_object_get(json_array_get(json_object_get(data, "files"), 0), "mbps");
	assert_true(json_is_null(json_object_get(m, "mean")));
	assert_true(json_is_null(json_object_get(m, "ci95_lo")));
	assert_int_equal(json_array_size(json_object_get(m, "values")), 8);
	m = json_object_get(json_array_get(json_object_get(data, "files"), 1), "mbps");
	assert_true(json_real_value(json_object_get(m, "mean")) == 100.0);
	json_decref(data);
	for (int i = 0; i < 3; i++)
		lg_cmp_file_release(&f[i]);
}

/* A sweep's runs are grouped by client count, each group with its runs and the latency
 * of those runs alone: the runs at 1 client are never merged with those at 4. */
static void test_groups_by_clients(void **state)
{
	const double mbps[] = { 50, 51, 100, 101, 99 };
	const unsigned counts[] = { 1, 1, 4, 4, 4 };
	const double pcts[] = { 0, 50, 90, 99 };
	struct lg_histogram h[2];
	struct lg_cmp_file f;
	json_t *doc = json_pack("{s:s, s:{s:s}, s:[]}", "schema", LG_RESULT_SCHEMA,
				"workload", "name", "w", "runs"), *data, *g, *curve;

	(void)state;
	lg_histogram_init(&h[0]);
	lg_histogram_init(&h[1]);
	for (size_t r = 0; r < 5; r++) {
		json_t *run = make_run(mbps[r], counts[r] == 1 ? 1000 : 90000, 37 + 100 * r,
				       400 + 100 * r, &h[counts[r] == 4]);

		json_object_set_new(run, "client_count", json_integer(counts[r]));
		json_array_append_new(json_object_get(doc, "runs"), run);
	}
	data = data_of(doc, "sw.json", &f);
	g = json_object_get(json_array_get(json_object_get(data, "files"), 0), "groups");
	assert_int_equal(json_array_size(g), 2);
	for (size_t i = 0; i < 2; i++) {
		const json_t *runs = json_object_get(json_array_get(g, i), "runs");

		assert_int_equal(json_integer_value(json_object_get(json_array_get(g, i),
								    "clients")), i ? 4 : 1);
		assert_int_equal(json_array_size(runs), i ? 3 : 2);
		assert_int_equal(json_integer_value(json_array_get(runs, 0)), i ? 2 : 0);
		assert_int_equal(json_integer_value(json_object_get(json_object_get(latency_of(
			data, 0, i), "all ops"), "count")), (json_int_t)h[i].count);
		curve = json_object_get(json_object_get(latency_of(data, 0, i), "read"), "ms");
		for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++)
			assert_true(fabs(json_real_value(json_array_get(curve, pct_index(data,
				pcts[k]))) * 1e6 - (double)lg_histogram_percentile(&h[i], pcts[k])) < 0.5);
		/* per client too: client 0 has half of each run's MB/s, averaged over the
		 * runs of this count only (over all five it would be 40.1) */
		assert_true(fabs(per_client_of(data, 0, i, 0) - (i ? 50.0 : 25.25)) < 1e-9);
		assert_int_equal(json_array_size(json_object_get(json_object_get(json_array_get(
			g, i), "per_client"), "jain")), i ? 3 : 2);
	}
	json_decref(data);
	lg_cmp_file_release(&f);
}

/* A result whose runs measured nothing (lg_cmp_file_init: -ENODATA) is kept as a file of
 * no runs, and its data says what went wrong: each such run's status, failure and
 * notes (the first 20, with their total); a measured file lists its own such runs. */
static void test_unmeasured(void **state)
{
	const double mbps[] = { 100, 120 };
	struct lg_histogram all;
	struct lg_cmp_file f;
	json_t *doc, *notes = json_array(), *data, *file, *u;
	char err[256];

	(void)state;
	lg_histogram_init(&all);
	doc = make_doc(mbps, 2, 1000, &all, "6.1");
	for (int i = 0; i < 25; i++)
		json_array_append_new(notes, json_pack("{s:i, s:s}", "client", i, "got",
						       "ENOSPC"));
	for (size_t r = 0; r < 2; r++) {
		json_t *run = json_array_get(json_object_get(doc, "runs"), r);

		json_object_set_new(run, "status", json_string(r ? "interrupted" : "failed"));
		json_object_set_new(run, "duration_s", json_real(0));
		json_object_set_new(run, "failure", json_pack("{s:s, s:s}", "phase", "setup",
							      "errno", "ENOSPC"));
		json_object_set_new(run, "error_notes", json_deep_copy(notes));
	}
	json_decref(notes);
	assert_int_equal(lg_cmp_file_init("f.json", json_incref(doc), &f, err, sizeof(err)),
			 -ENODATA);
	f = (struct lg_cmp_file){ .path = "f.json", .doc = doc }; /* as loadgen report does */
	data = lg_report_data(&f, 1, err, sizeof(err));
	assert_non_null(data);
	file = json_array_get(json_object_get(data, "files"), 0);
	assert_true(json_is_false(json_object_get(file, "measured")));
	assert_int_equal(json_array_size(json_object_get(file, "groups")), 0);
	assert_int_equal(json_array_size(json_object_get(file, "unmeasured")), 2);
	u = json_array_get(json_object_get(file, "unmeasured"), 1);
	assert_int_equal(json_integer_value(json_object_get(u, "index")), 1);
	assert_string_equal(json_string_value(json_object_get(u, "status")), "interrupted");
	assert_string_equal(json_string_value(json_object_get(json_object_get(u, "failure"),
							      "errno")), "ENOSPC");
	assert_int_equal(json_array_size(json_object_get(u, "error_notes")), 20);
	assert_int_equal(json_integer_value(json_object_get(u, "error_notes_total")), 25);
	json_decref(data);
	lg_cmp_file_release(&f);
	/* a measured file lists its own run that measured nothing (run 1's setup failed) */
	doc = make_doc(mbps, 2, 1000, &all, "6.1");
	json_object_set_new(json_array_get(json_object_get(doc, "runs"), 1), "status",
			    json_string("failed"));
	data = data_of(doc, "a.json", &f);
	file = json_array_get(json_object_get(data, "files"), 0);
	assert_true(json_is_true(json_object_get(file, "measured")));
	assert_int_equal(json_integer_value(json_object_get(file, "nruns")), 1);
	assert_int_equal(json_array_size(json_object_get(file, "unmeasured")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(
		file, "unmeasured"), 0), "index")), 1);
	json_decref(data);
	lg_cmp_file_release(&f);
}

/* Every optional part the page takes: a sweep's by_clients, hosts per run (MPI) in a,
 * hosts at the top in b, system counters in the timeline. */
static void add_optional(json_t *a, json_t *b)
{
	json_t *run, *tl;
	size_t r;

	json_object_set_new(a, "summary", json_pack("{s:[{s:i}, {s:i}]}", "by_clients",
						    "clients", 1, "clients", 2));
	json_array_foreach(json_object_get(a, "runs"), r, run) {
		json_object_set_new(run, "hosts", json_pack("[{s:s, s:f}, {s:s, s:f}]",
			"host", "n1", "throughput_mbps", 40.0 + (double)r, "host", "n2",
			"throughput_mbps", 60.0));
		tl = json_object_get(run, "timeline");
		json_object_set_new(json_array_get(tl, 0), "sys", json_pack("{s:f, s:{s:f}}",
			"seconds", 1.0, "gauges", "cpu.user_pct", 12.5));
	}
	json_object_set_new(b, "hosts", json_pack("[{s:s, s:f}]", "host", "n3",
						  "throughput_mbps", 80.0));
}

/* With each of jansson's allocations failing in turn, the data object is NULL (out of
 * memory, said in err) or equal to the one built without failures: no part dropped,
 * no mean off. */
static void test_nomem(void **state)
{
	const double a[] = { 100, 110 }, b[] = { 90, 95 };
	struct lg_histogram all;
	struct lg_cmp_file f[2];
	char err[256];
	json_t *da = make_doc(a, 2, 1000, &all, "6.1"), *db = make_doc(b, 2, 1000, &all, "6.6");
	json_t *full, *data, *file;
	unsigned total, nulls = 0, wrong = 0;

	(void)state;
	lg_histogram_init(&all);
	add_optional(da, db);
	assert_int_equal(lg_cmp_file_init("a.json", da, &f[0], err, sizeof(err)), 0);
	assert_int_equal(lg_cmp_file_init("b.json", db, &f[1], err, sizeof(err)), 0);
	json_set_alloc_funcs(counting_malloc, free);
	allocs = fail_at = 0;
	full = lg_report_data(f, 2, err, sizeof(err));
	total = allocs;
	for (fail_at = 1; fail_at <= total; fail_at++) {
		allocs = 0;
		data = lg_report_data(f, 2, err, sizeof(err));
		nulls += data == NULL;
		if (!data && !strstr(err, strerror(ENOMEM)))
			fail_msg("allocation %u failed: %s", fail_at, err);
		if (data && !json_equal(data, full)) {
			print_message("allocation %u failed: the data differs\n", fail_at);
			wrong++;
		}
		json_decref(data);
	}
	json_set_alloc_funcs(malloc, free);
	assert_non_null(full);
	assert_true(nulls > 0);
	assert_int_equal(wrong, 0);
	file = json_array_get(json_object_get(full, "files"), 0);
	assert_int_equal(json_array_size(json_object_get(file, "by_clients")), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(file, "hosts"), 0), "host")), "n1");
	assert_true(json_real_value(json_object_get(json_array_get(json_object_get(file, "hosts"),
								    0), "throughput_mbps")) == 40.5);
	assert_true(per_client_of(full, 0, 0, 1) == 53.5); /* (51 + 56) / 2 */
	file = json_array_get(json_object_get(full, "files"), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(file, "hosts"), 0), "host")), "n3");
	json_decref(full);
	lg_cmp_file_release(&f[0]);
	lg_cmp_file_release(&f[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_equals_one_histogram),
		cmocka_unit_test(test_series_and_clients),
		cmocka_unit_test(test_foreign_bucket),
		cmocka_unit_test(test_comparison),
		cmocka_unit_test(test_comparison_by_clients),
		cmocka_unit_test(test_groups_by_clients),
		cmocka_unit_test(test_unmeasured),
		cmocka_unit_test(test_nomem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
