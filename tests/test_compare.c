/* compare's evaluation on hand-built result documents: checking files, verdicts,
 * --min-effect, --fail-if-slower, setup differences and merged latency histograms. */
#include "loadgen/compare/compare.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct lg_cmp_opts default_opts = { .alpha = LG_COMPARE_ALPHA };

/* A run with the given rates and one op type "read" with histogram hist (or none) and
 * largest latency max_ns. */
static json_t *make_run(double mbps, double ops, json_t *hist, json_int_t max_ns)
{
	json_t *types = json_object();

	if (hist)
		json_object_set_new(types, "read",
				    json_pack("{s:I, s:{s:I, s:I}, s:o}", "count", (json_int_t)4,
					      "latency_ns", "min", (json_int_t)1000, "max", max_ns,
					      "histogram", hist));
	return json_pack("{s:s, s:f, s:f, s:o}", "status", "complete", "throughput_mbps",
			 mbps, "ops_per_s", ops, "ops_by_type", types);
}

/* A result document with one run per value of mbps (ops/s = 10 x MB/s, or ops[]). */
static json_t *make_doc(const double *mbps, const double *ops, size_t n, const char *kernel)
{
	json_t *runs = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(runs, make_run(mbps[i], ops ? ops[i] : 10 * mbps[i],
						     json_pack("[[I,I,I],[I,I,I]]", 1000LL, 1000LL,
							       3LL, 2000LL, 2015LL, 1LL),
						     2015));
	return json_pack("{s:s, s:{s:s, s:s, s:s}, s:{s:s, s:s, s:{s:s}}, s:{s:I, s:f},"
			 " s:o}",
			 "schema", LG_RESULT_SCHEMA,
			 "env", "kernel", kernel, "hostname", "box", "start_time", kernel,
			 "workload", "name", "w", "sha256", "aa", "params", "size", "4k",
			 "config", "clients", (json_int_t)4, "time_s", 10.0,
			 "runs", runs);
}

static void load(struct lg_cmp_file *f, const double *mbps, const double *ops, size_t n)
{
	char err[256];

	if (lg_cmp_file_init("mem.json", make_doc(mbps, ops, n, "6.1.0"), f, err, sizeof(err)))
		fail_msg("init: %s", err);
}

static enum lg_verdict verdict_of(const double *a, size_t na, const double *b, size_t nb,
				  const struct lg_cmp_opts *opts, struct lg_cmp_result *r)
{
	struct lg_cmp_file fa, fb;

	load(&fa, a, NULL, na);
	load(&fb, b, NULL, nb);
	lg_cmp_decide(&fa, &fb, opts, r);
	lg_cmp_file_release(&fa);
	lg_cmp_file_release(&fb);
	return r->verdict;
}

static void test_verdicts(void **state)
{
	const double base[] = { 100, 101, 99, 100 }, half[] = { 50, 51, 49, 50 };
	const double same[] = { 100.5, 99.5, 100, 101, 99 }, fast[] = { 110, 111, 109, 110 };
	struct lg_cmp_result r;

	(void)state;
	assert_int_equal(verdict_of(base, 4, base, 4, &default_opts, &r), LG_VERDICT_SAME);
	assert_true(r.metric[LG_CMP_MBPS].welch.p > 0.99);
	assert_int_equal(verdict_of(base, 4, same, 5, &default_opts, &r), LG_VERDICT_SAME);
	assert_int_equal(verdict_of(base, 4, half, 4, &default_opts, &r), LG_VERDICT_SLOWER);
	assert_int_equal(r.decided_by, LG_CMP_MBPS);
	assert_true(fabs(r.metric[LG_CMP_MBPS].change_pct + 50) < 1e-9);
	assert_true(r.metric[LG_CMP_MBPS].welch.p < 1e-4);
	assert_true(r.metric[LG_CMP_MBPS].welch.t < 0);
	/* 95 % CI of {100, 101, 99, 100}: 100 +/- 3.182446 * 0.816497 / 2 */
	assert_true(fabs(r.metric[LG_CMP_MBPS].base.ci95_hi - 101.299228) < 1e-6);
	assert_int_equal(verdict_of(base, 4, fast, 4, &default_opts, &r), LG_VERDICT_FASTER);
	assert_string_equal(lg_verdict_name(LG_VERDICT_FASTER), "faster");
	assert_string_equal(lg_verdict_name(LG_VERDICT_SLOWER), "slower");
	assert_string_equal(lg_verdict_name(LG_VERDICT_SAME), "no significant difference");
	assert_string_equal(lg_verdict_name(LG_VERDICT_NONE), "no verdict");
}

static void test_min_effect(void **state)
{
	const double base[] = { 100, 101, 99, 100 }, small[] = { 97, 98, 96, 97 };
	struct lg_cmp_opts o = { .alpha = LG_COMPARE_ALPHA, .min_effect_pct = 5 };
	struct lg_cmp_result r;

	(void)state;
	assert_int_equal(verdict_of(base, 4, small, 4, &default_opts, &r), LG_VERDICT_SLOWER);
	assert_false(r.below_min_effect);
	assert_int_equal(verdict_of(base, 4, small, 4, &o, &r), LG_VERDICT_SAME);
	assert_true(r.below_min_effect);
	assert_true(r.metric[LG_CMP_MBPS].welch.p < 0.05); /* still significant */
	assert_string_equal(lg_cmp_verdict_name(&r), "significant, but smaller than "
			    "--min-effect");
	o.min_effect_pct = 2.9;
	assert_int_equal(verdict_of(base, 4, small, 4, &o, &r), LG_VERDICT_SLOWER);
}

static void test_too_few_runs(void **state)
{
	const double base[] = { 100, 101, 99, 100 }, one[] = { 10 };
	struct lg_cmp_result r;

	(void)state;
	assert_int_equal(verdict_of(base, 4, one, 1, &default_opts, &r), LG_VERDICT_NONE);
	assert_false(r.metric[LG_CMP_MBPS].tested);
	assert_false(lg_cmp_slower_than(&r, 0.05, 0));
	assert_int_equal(verdict_of(one, 1, base, 4, &default_opts, &r), LG_VERDICT_NONE);
	assert_int_equal(verdict_of(one, 1, one, 1, &default_opts, &r), LG_VERDICT_NONE);
}

/* Set the status of run r of doc. */
static json_t *with_status(json_t *doc, size_t r, const char *status)
{
	json_object_set_new(json_array_get(json_object_get(doc, "runs"), r), "status",
			    json_string(status));
	return doc;
}

/* A run that failed in setup measured nothing: left out, not a 0 MB/s sample that reads
 * as a slowdown; a run cut short still counts, unless it was cut before measuring. */
static void test_failed_runs_left_out(void **state)
{
	const double base[] = { 100, 101, 99, 100 }, other[] = { 100, 99, 101, 0 };
	const double all[] = { 0, 0 };
	struct lg_cmp_file fa, fb;
	struct lg_cmp_result r;
	char err[256];
	json_t *doc;

	(void)state;
	load(&fa, base, NULL, 4);
	assert_int_equal(lg_cmp_file_init("f.json", with_status(make_doc(other, NULL, 4, "6.1.0"),
								  3, "failed"),
					  &fb, err, sizeof(err)), 0);
	assert_int_equal(fb.nruns, 3);
	assert_int_equal(fb.nfailed, 1);
	assert_int_equal(json_array_size(fb.runs), 3);
	assert_int_equal(fb.groups[0].n, 3);
	lg_cmp_decide(&fa, &fb, &default_opts, &r);
	assert_int_equal(r.verdict, LG_VERDICT_SAME);
	assert_int_equal(r.metric[LG_CMP_MBPS].other.n, 3);
	lg_cmp_file_release(&fb);
	/* interrupted: included */
	assert_int_equal(lg_cmp_file_init("i.json", with_status(make_doc(other, NULL, 4, "6.1.0"),
								  3, "interrupted"),
					  &fb, err, sizeof(err)), 0);
	assert_int_equal(fb.nruns, 4);
	assert_int_equal(fb.nfailed, 0);
	lg_cmp_file_release(&fb);
	/* but not when it was interrupted before its measured phase (0 s): nothing measured */
	doc = with_status(make_doc(other, NULL, 4, "6.1.0"), 3, "interrupted");
	json_object_set_new(json_array_get(json_object_get(doc, "runs"), 3), "duration_s",
			    json_real(0));
	assert_int_equal(lg_cmp_file_init("w.json", doc, &fb, err, sizeof(err)), 0);
	assert_int_equal(fb.nruns, 3);
	assert_int_equal(fb.nfailed, 1);
	lg_cmp_decide(&fa, &fb, &default_opts, &r);
	assert_int_equal(r.metric[LG_CMP_MBPS].other.n, 3);
	assert_int_equal(r.verdict, LG_VERDICT_SAME);
	lg_cmp_file_release(&fb);
	lg_cmp_file_release(&fa);
	/* nothing measured at all: refused, naming the file (-ENODATA: report shows it) */
	assert_int_equal(lg_cmp_file_init("z.json", with_status(with_status(
		make_doc(all, NULL, 2, "6.1.0"), 0, "failed"), 1, "failed"), &fb, err, sizeof(err)),
			 -ENODATA);
	assert_non_null(strstr(err, "z.json: every run failed in its setup"));
}

static void test_fail_if_slower(void **state)
{
	const double base[] = { 100, 101, 99, 100 }, half[] = { 50, 51, 49, 50 };
	const double small[] = { 97, 98, 96, 97 }, fast[] = { 110, 111, 109, 110 };
	struct lg_cmp_result r;

	(void)state;
	verdict_of(base, 4, half, 4, &default_opts, &r);
	assert_true(lg_cmp_slower_than(&r, 0.05, 5));
	assert_true(lg_cmp_slower_than(&r, 0.05, 49.9));
	assert_false(lg_cmp_slower_than(&r, 0.05, 50.1));
	verdict_of(base, 4, small, 4, &default_opts, &r);
	assert_false(lg_cmp_slower_than(&r, 0.05, 5));
	assert_true(lg_cmp_slower_than(&r, 0.05, 0));
	assert_false(lg_cmp_slower_than(&r, 1e-6, 0)); /* p ~ 0.002: not at alpha 1e-6 */
	verdict_of(base, 4, fast, 4, &default_opts, &r);
	assert_false(lg_cmp_slower_than(&r, 0.05, 0));
}

static void test_ops_decide_without_bytes(void **state)
{
	const double zero[] = { 0, 0, 0 }, a[] = { 1000, 1010, 990 }, b[] = { 500, 505, 495 };
	struct lg_cmp_file fa, fb;
	struct lg_cmp_result r;

	(void)state;
	load(&fa, zero, a, 3);
	load(&fb, zero, b, 3);
	lg_cmp_decide(&fa, &fb, &default_opts, &r);
	assert_int_equal(r.decided_by, LG_CMP_OPS);
	assert_int_equal(r.verdict, LG_VERDICT_SLOWER);
	assert_true(isnan(r.metric[LG_CMP_MBPS].change_pct));
	assert_true(lg_cmp_slower_than(&r, 0.05, 40));
	assert_string_equal(lg_cmp_metric_key(r.decided_by), "ops_per_s");
	lg_cmp_file_release(&fa);
	lg_cmp_file_release(&fb);
}

static void test_constant_runs(void **state)
{
	const double c100[] = { 100, 100, 100 }, c90[] = { 90, 90, 90 };
	struct lg_cmp_result r;

	(void)state;
	assert_int_equal(verdict_of(c100, 3, c100, 3, &default_opts, &r), LG_VERDICT_SAME);
	assert_int_equal(r.metric[LG_CMP_MBPS].welch.kind, LG_WELCH_SAME_CONST);
	assert_true(r.metric[LG_CMP_MBPS].welch.p == 1.0);
	assert_int_equal(verdict_of(c100, 3, c90, 3, &default_opts, &r), LG_VERDICT_SLOWER);
	assert_int_equal(r.metric[LG_CMP_MBPS].welch.kind, LG_WELCH_DIFF_CONST);
}

/* lg_cmp_file_init refuses doc with a message that names the file and contains want. */
static void refused(json_t *doc, const char *want)
{
	struct lg_cmp_file f;
	char err[256] = "";

	assert_int_equal(lg_cmp_file_init("bad.json", doc, &f, err, sizeof(err)), -EINVAL);
	if (strncmp(err, "bad.json: ", 10) != 0 || !strstr(err, want))
		fail_msg("error '%s' lacks 'bad.json: ...%s'", err, want);
	assert_null(f.doc);
}

/* doc with runs[r].client_count set to cc (a new reference). */
static json_t *with_count(json_t *doc, size_t r, json_t *cc)
{
	json_object_set_new(json_array_get(json_object_get(doc, "runs"), r), "client_count", cc);
	return doc;
}

static void test_bad_files(void **state)
{
	const double v[] = { 1, 2 };
	json_t *doc;

	(void)state;
	refused(json_pack("[i]", 1), "not a loadgen result");
	refused(json_pack("{s:i}", "runs", 1), "no \"schema\"");
	refused(json_pack("{s:s, s:[]}", "schema", "loadgen-result/2", "runs"),
		"unknown schema \"loadgen-result/2\"");
	refused(json_pack("{s:s}", "schema", LG_RESULT_SCHEMA), "no \"runs\"");
	refused(json_pack("{s:s, s:{}}", "schema", LG_RESULT_SCHEMA, "runs"), "not an array");
	refused(json_pack("{s:s, s:[]}", "schema", LG_RESULT_SCHEMA, "runs"), "empty");
	refused(json_pack("{s:s, s:[i]}", "schema", LG_RESULT_SCHEMA, "runs", 3),
		"runs[0]: not an object");
	doc = make_doc(v, NULL, 2, "k");
	json_object_del(json_array_get(json_object_get(doc, "runs"), 1), "ops_per_s");
	refused(doc, "runs[1].ops_per_s: missing");
	doc = make_doc(v, NULL, 2, "k");
	json_object_set_new(json_array_get(json_object_get(doc, "runs"), 0), "throughput_mbps",
			    json_real(-1));
	refused(doc, "runs[0].throughput_mbps: not a non-negative number");
	doc = make_doc(v, NULL, 2, "k");
	json_array_append_new(json_object_get(json_object_get(json_object_get(
		json_array_get(json_object_get(doc, "runs"), 1), "ops_by_type"), "read"),
		"histogram"), json_pack("[i, i]", 1, 2));
	refused(doc, "runs[1].ops_by_type.read.histogram[2]");
	/* a client count that is none (2^32 was taken as 0, -3 fell back to the clients) */
	refused(with_count(make_doc(v, NULL, 2, "k"), 1, json_integer(4294967296LL)),
		"runs[1].client_count: not a client count");
	refused(with_count(make_doc(v, NULL, 2, "k"), 0, json_integer(-3)),
		"runs[0].client_count: not a client count");
	refused(with_count(make_doc(v, NULL, 2, "k"), 0, json_string("4")),
		"runs[0].client_count: not a client count");
}

struct seen {
	char keys[8][64]; /* keys reported, in order */
	size_t n;
};

static void collect(const char *key, const json_t *base, const json_t *other, void *ctx)
{
	struct seen *s = ctx;

	assert_non_null(base);
	assert_non_null(other);
	if (s->n < N(s->keys))
		snprintf(s->keys[s->n++], sizeof(s->keys[0]), "%s", key);
}

static void test_setup_diffs(void **state)
{
	const double v[] = { 1, 2 };
	struct lg_cmp_file a, b;
	struct seen s = { .n = 0 };
	char err[256];
	json_t *doc = make_doc(v, NULL, 2, "6.6.0");

	(void)state;
	load(&a, v, NULL, 2);
	/* 4 vs 4.0 is no difference; a key only one file has is not compared */
	json_object_set_new(json_object_get(doc, "config"), "clients", json_real(4.0));
	json_object_set_new(json_object_get(doc, "env"), "fs_type", json_string("xfs"));
	json_object_set_new(json_object_get(json_object_get(doc, "workload"), "params"), "size",
			    json_string("8k"));
	assert_int_equal(lg_cmp_file_init("b.json", doc, &b, err, sizeof(err)), 0);
	assert_int_equal(lg_cmp_setup_diffs(&a, &b, collect, &s), 2);
	assert_string_equal(s.keys[0], "env.kernel"); /* start_time differs too: volatile */
	assert_string_equal(s.keys[1], "workload.params.size");
	s.n = 0;
	assert_int_equal(lg_cmp_setup_diffs(&a, &a, collect, &s), 0);
	lg_cmp_file_release(&a);
	lg_cmp_file_release(&b);
	lg_cmp_file_release(NULL);
}

static void test_latency_merge(void **state)
{
	struct lg_cmp_file f;
	struct lg_cmp_latency l;
	char err[256];
	json_t *runs = json_array(), *labels;

	(void)state;
	/* run 1: 1 at 1000, 3 in [3000, 3015]; run 2: 4 in [3000, 3015]; merged 1 + 7 */
	json_array_append_new(runs, make_run(1, 1, json_pack("[[I,I,I],[I,I,I]]", 1000LL,
							     1000LL, 1LL, 3000LL, 3015LL, 3LL),
					     3015));
	json_array_append_new(runs, make_run(1, 1, json_pack("[[I,I,I]]", 3000LL, 3015LL, 4LL),
					     5000));
	assert_int_equal(lg_cmp_file_init("m.json", json_pack("{s:s, s:o}", "schema",
							      LG_RESULT_SCHEMA, "runs", runs),
					  &f, err, sizeof(err)), 0);
	assert_int_equal(lg_cmp_latency(&f, "read", &l), 0);
	assert_true(l.have_pct);
	assert_int_equal(l.count, 8);
	assert_int_equal(l.p50_ns, 3007); /* rank 4 falls in [3000, 3015]: its midpoint */
	assert_int_equal(l.p99_ns, 3007);
	assert_int_equal(l.max_ns, 5000); /* the largest of the runs' maxima */
	assert_int_equal(lg_cmp_latency(&f, "write", &l), 0);
	assert_false(l.have_pct);
	assert_int_equal(l.max_ns, 0);
	lg_cmp_file_release(&f);

	/* a midpoint above the recorded maximum is clamped to it, as in a live run */
	runs = json_array();
	json_array_append_new(runs, make_run(1, 1, json_pack("[[I,I,I]]", 3000LL, 3015LL, 4LL),
					     3001));
	assert_int_equal(lg_cmp_file_init("m.json", json_pack("{s:s, s:o}", "schema",
							      LG_RESULT_SCHEMA, "runs", runs),
					  &f, err, sizeof(err)), 0);
	assert_int_equal(lg_cmp_latency(&f, "read", &l), 0);
	assert_int_equal(l.p50_ns, 3001);
	assert_int_equal(l.max_ns, 3001);
	labels = lg_cmp_op_labels(&f, &f);
	assert_int_equal(json_object_size(labels), 1);
	assert_non_null(json_object_get(labels, "read"));
	json_decref(labels);
	lg_cmp_file_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_min_effect),
		cmocka_unit_test(test_too_few_runs),
		cmocka_unit_test(test_failed_runs_left_out),
		cmocka_unit_test(test_fail_if_slower),
		cmocka_unit_test(test_ops_decide_without_bytes),
		cmocka_unit_test(test_constant_runs),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_setup_diffs),
		cmocka_unit_test(test_latency_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
