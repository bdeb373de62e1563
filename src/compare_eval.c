/* Evaluation behind `loadgen compare`: load and check result files, decide verdicts,
 * list differences of setup, merge latency histograms.
 *
 * Files are checked completely when loaded (every run's numbers, every histogram
 * entry), so a malformed file is refused up front with the path of the bad value, and
 * the later steps can read the document without checking again. */
#include "loadgen/compare.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 8    /* nesting followed when comparing setup objects */
#define KEY_MAX 256    /* longest dotted key reported ("env.mount_options") */

/* Keys that differ between any two runs, so listing them would hide the differences
 * that matter. */
static const char *const volatile_keys[] = {
	"env.start_time", "env.command_line", "workload.source",
};

/* The top-level objects whose keys describe the setup. */
static const char *const setup_sections[] = { "env", "workload", "config", "loadgen" };

__attribute__((format(printf, 4, 5)))
static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* --- Checking a file --- */

/* A non-negative JSON integer; *v gets its value. */
static bool get_count(const json_t *j, uint64_t *v)
{
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

/* [low_ns, high_ns, count] with low <= high. */
static bool bucket_ok(const json_t *b)
{
	uint64_t low, high, count;

	return json_is_array(b) && json_array_size(b) == 3 &&
	       get_count(json_array_get(b, 0), &low) && get_count(json_array_get(b, 1), &high) &&
	       get_count(json_array_get(b, 2), &count) && low <= high;
}

/* One ops_by_type entry: latency_ns (integers where present) and histogram. */
static int check_type(const struct lg_cmp_file *f, size_t r, const char *label,
		      const json_t *t, char *err, size_t errlen)
{
	const char *const lat_keys[] = { "min", "p50", "p99", "max" };
	const json_t *lat = json_object_get(t, "latency_ns"), *h = json_object_get(t, "histogram");
	uint64_t v;
	size_t i;

	if (!json_is_object(t))
		return fail(err, errlen, -EINVAL, "%s: runs[%zu].ops_by_type.%s: not an object",
			    f->path, r, label);
	if (lat && !json_is_object(lat))
		return fail(err, errlen, -EINVAL,
			    "%s: runs[%zu].ops_by_type.%s.latency_ns: not an object", f->path, r,
			    label);
	for (i = 0; lat && i < sizeof(lat_keys) / sizeof(lat_keys[0]); i++) {
		const json_t *x = json_object_get(lat, lat_keys[i]);

		if (x && !get_count(x, &v))
			return fail(err, errlen, -EINVAL,
				    "%s: runs[%zu].ops_by_type.%s.latency_ns.%s: not a"
				    " non-negative integer", f->path, r, label, lat_keys[i]);
	}
	if (h && !json_is_array(h))
		return fail(err, errlen, -EINVAL,
			    "%s: runs[%zu].ops_by_type.%s.histogram: not an array", f->path, r,
			    label);
	for (i = 0; h && i < json_array_size(h); i++) {
		if (!bucket_ok(json_array_get(h, i)))
			return fail(err, errlen, -EINVAL,
				    "%s: runs[%zu].ops_by_type.%s.histogram[%zu]: expected"
				    " [low_ns, high_ns, count] with low_ns <= high_ns",
				    f->path, r, label, i);
	}
	return 0;
}

/* A per-run rate: a finite, non-negative number. */
static int get_rate(const struct lg_cmp_file *f, size_t r, const json_t *run,
		    const char *key, double *out, char *err, size_t errlen)
{
	const json_t *j = json_object_get(run, key);
	double v = json_is_number(j) ? json_number_value(j) : NAN;

	if (!isfinite(v) || v < 0)
		return fail(err, errlen, -EINVAL, "%s: runs[%zu].%s: %s", f->path, r, key,
			    j ? "not a non-negative number" : "missing");
	*out = v;
	return 0;
}

static int check_run(struct lg_cmp_file *f, size_t r, char *err, size_t errlen)
{
	const json_t *run = json_array_get(f->runs, r), *types, *t;
	const char *label;
	int rc;

	if (!json_is_object(run))
		return fail(err, errlen, -EINVAL, "%s: runs[%zu]: not an object", f->path, r);
	rc = get_rate(f, r, run, "throughput_mbps", &f->mbps[r], err, errlen);
	if (rc == 0)
		rc = get_rate(f, r, run, "ops_per_s", &f->ops[r], err, errlen);
	if (rc)
		return rc;
	types = json_object_get(run, "ops_by_type");
	if (types && !json_is_object(types))
		return fail(err, errlen, -EINVAL, "%s: runs[%zu].ops_by_type: not an object",
			    f->path, r);
	json_object_foreach((json_t *)types, label, t) {
		rc = check_type(f, r, label, t, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

/* The document's outer shape: an object of our schema with a non-empty runs array. */
static int check_doc(struct lg_cmp_file *f, char *err, size_t errlen)
{
	const json_t *schema;

	if (!json_is_object(f->doc))
		return fail(err, errlen, -EINVAL,
			    "%s: not a loadgen result (the top level is not an object)", f->path);
	schema = json_object_get(f->doc, "schema");
	if (!json_is_string(schema))
		return fail(err, errlen, -EINVAL, "%s: no \"schema\": not a loadgen result",
			    f->path);
	if (strcmp(json_string_value(schema), LG_RESULT_SCHEMA) != 0)
		return fail(err, errlen, -EINVAL, "%s: unknown schema \"%s\" (expected \"%s\")",
			    f->path, json_string_value(schema), LG_RESULT_SCHEMA);
	f->runs = json_object_get(f->doc, "runs");
	if (!f->runs)
		return fail(err, errlen, -EINVAL, "%s: no \"runs\" in the result", f->path);
	if (!json_is_array(f->runs))
		return fail(err, errlen, -EINVAL, "%s: \"runs\" is not an array", f->path);
	if (json_array_size(f->runs) == 0)
		return fail(err, errlen, -EINVAL, "%s: \"runs\" is empty: nothing to compare",
			    f->path);
	return 0;
}

int lg_cmp_file_init(const char *path, json_t *doc, struct lg_cmp_file *out, char *err,
		     size_t errlen)
{
	int rc;

	memset(out, 0, sizeof(*out));
	out->path = path;
	out->doc = doc;
	rc = check_doc(out, err, errlen);
	if (rc)
		goto fail;
	out->nruns = json_array_size(out->runs);
	out->mbps = calloc(out->nruns, sizeof(double));
	out->ops = calloc(out->nruns, sizeof(double));
	if (!out->mbps || !out->ops) {
		rc = fail(err, errlen, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
		goto fail;
	}
	for (size_t r = 0; r < out->nruns; r++) {
		rc = check_run(out, r, err, errlen);
		if (rc)
			goto fail;
	}
	return 0;
fail:
	lg_cmp_file_release(out);
	return rc;
}

int lg_cmp_file_load(const char *path, struct lg_cmp_file *out, char *err, size_t errlen)
{
	json_error_t je;
	struct stat st;
	json_t *doc;
	FILE *f;

	memset(out, 0, sizeof(*out));
	f = fopen(path, "r");
	if (!f)
		return fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	/* fopen opens directories for reading; only the first read would fail */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return fail(err, errlen, -EISDIR, "%s: %s", path, strerror(EISDIR));
	}
	doc = json_loadf(f, 0, &je);
	fclose(f);
	if (!doc) {
		/* jansson counts columns from 1, but says 0 before the first character */
		if (je.line > 0)
			return fail(err, errlen, -EINVAL, "%s:%d:%d: %s", path, je.line,
				    je.column > 0 ? je.column : 1, je.text);
		return fail(err, errlen, -EINVAL, "%s: %s", path, je.text);
	}
	return lg_cmp_file_init(path, doc, out, err, errlen);
}

void lg_cmp_file_release(struct lg_cmp_file *f)
{
	if (!f)
		return;
	json_decref(f->doc);
	free(f->mbps);
	free(f->ops);
	memset(f, 0, sizeof(*f));
}

/* --- Decisions --- */

static void compare_metric(const double *base, size_t nbase, const double *other,
			   size_t nother, struct lg_cmp_metric_result *m)
{
	memset(m, 0, sizeof(*m));
	/* cannot fail: n >= 1 and every value was checked finite on load */
	(void)lg_stat_summarize(base, nbase, &m->base);
	(void)lg_stat_summarize(other, nother, &m->other);
	m->change_pct = m->base.mean != 0 ? 100.0 * (m->other.mean - m->base.mean) / m->base.mean
					  : NAN;
	m->tested = lg_stat_welch_summary(&m->other, &m->base, &m->welch) == 0;
}

void lg_cmp_decide(const struct lg_cmp_file *base, const struct lg_cmp_file *other,
		   const struct lg_cmp_opts *opts, struct lg_cmp_result *out)
{
	const struct lg_cmp_metric_result *m;
	double effect;

	memset(out, 0, sizeof(*out));
	compare_metric(base->mbps, base->nruns, other->mbps, other->nruns,
		       &out->metric[LG_CMP_MBPS]);
	compare_metric(base->ops, base->nruns, other->ops, other->nruns,
		       &out->metric[LG_CMP_OPS]);
	/* A workload that moves no data (create/stat/unlink) has 0 MB/s in every run:
	 * its throughput is what it does per second. */
	m = &out->metric[LG_CMP_MBPS];
	out->decided_by = m->base.mean == 0 && m->other.mean == 0 ? LG_CMP_OPS : LG_CMP_MBPS;
	m = &out->metric[out->decided_by];
	if (!m->tested) {
		out->verdict = LG_VERDICT_NONE;
		return;
	}
	if (!(m->welch.p < opts->alpha)) {
		out->verdict = LG_VERDICT_SAME;
		return;
	}
	/* from a zero baseline any change is infinitely large */
	effect = isnan(m->change_pct) ? INFINITY : fabs(m->change_pct);
	if (effect < opts->min_effect_pct) {
		out->verdict = LG_VERDICT_SAME;
		out->below_min_effect = true;
		return;
	}
	out->verdict = m->other.mean > m->base.mean ? LG_VERDICT_FASTER : LG_VERDICT_SLOWER;
}

bool lg_cmp_slower_than(const struct lg_cmp_result *r, double alpha, double pct)
{
	const struct lg_cmp_metric_result *m = &r->metric[r->decided_by];

	/* slower means other < base, so base > 0 and change_pct is a number */
	return m->tested && m->welch.p < alpha && m->other.mean < m->base.mean &&
	       -m->change_pct > pct;
}

const char *lg_verdict_name(enum lg_verdict v)
{
	switch (v) {
	case LG_VERDICT_SAME:
		return "no significant difference";
	case LG_VERDICT_FASTER:
		return "faster";
	case LG_VERDICT_SLOWER:
		return "slower";
	case LG_VERDICT_NONE:
		break;
	}
	return "no verdict";
}

const char *lg_cmp_verdict_name(const struct lg_cmp_result *r)
{
	if (r->verdict == LG_VERDICT_SAME && r->below_min_effect)
		return "significant, but smaller than --min-effect";
	return lg_verdict_name(r->verdict);
}

const char *lg_cmp_metric_key(enum lg_cmp_metric m)
{
	return m == LG_CMP_OPS ? "ops_per_s" : "throughput_mbps";
}

const char *lg_cmp_metric_unit(enum lg_cmp_metric m)
{
	return m == LG_CMP_OPS ? "ops/s" : "MB/s";
}

/* --- Setup differences --- */

struct diff_walk {
	lg_cmp_diff_fn fn; /* the caller's callback */
	void *ctx;         /* its argument */
	size_t n;          /* differences found */
};

static bool is_volatile(const char *key)
{
	for (size_t i = 0; i < sizeof(volatile_keys) / sizeof(volatile_keys[0]); i++)
		if (strcmp(key, volatile_keys[i]) == 0)
			return true;
	return false;
}

/* 10 and 10.0 are the same number, though jansson's json_equal says otherwise. */
static bool same_value(const json_t *a, const json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal((json_t *)a, (json_t *)b);
}

static void diff_objects(struct diff_walk *w, const char *prefix, const json_t *a,
			 const json_t *b, int depth)
{
	const char *k;
	json_t *va;

	json_object_foreach((json_t *)a, k, va) {
		const json_t *vb = json_object_get(b, k);
		char key[KEY_MAX];

		if (!vb)
			continue;
		snprintf(key, sizeof(key), "%s.%s", prefix, k);
		if (is_volatile(key))
			continue;
		if (json_is_object(va) && json_is_object(vb) && depth < MAX_DEPTH) {
			diff_objects(w, key, va, vb, depth + 1);
		} else if (!same_value(va, vb)) {
			w->fn(key, va, vb, w->ctx);
			w->n++;
		}
	}
}

size_t lg_cmp_setup_diffs(const struct lg_cmp_file *base, const struct lg_cmp_file *other,
			  lg_cmp_diff_fn fn, void *ctx)
{
	struct diff_walk w = { .fn = fn, .ctx = ctx };

	for (size_t i = 0; i < sizeof(setup_sections) / sizeof(setup_sections[0]); i++) {
		const json_t *a = json_object_get(base->doc, setup_sections[i]);
		const json_t *b = json_object_get(other->doc, setup_sections[i]);

		if (json_is_object(a) && json_is_object(b))
			diff_objects(&w, setup_sections[i], a, b, 1);
	}
	return w.n;
}

/* --- Latency --- */

/* One histogram bucket: values low_ns..high_ns, count of them. */
struct bucket {
	uint64_t low;   /* lowest value in the bucket, ns */
	uint64_t high;  /* highest value in the bucket, ns */
	uint64_t count; /* values recorded in it */
};

static const json_t *type_in_run(const json_t *run, const char *label)
{
	return json_object_get(json_object_get(run, "ops_by_type"), label);
}

json_t *lg_cmp_op_labels(const struct lg_cmp_file *base, const struct lg_cmp_file *other)
{
	const struct lg_cmp_file *files[] = { base, other };
	json_t *set = json_object(), *run, *t;
	const char *label;
	size_t r;

	for (size_t i = 0; set && i < 2; i++) {
		json_array_foreach(files[i]->runs, r, run) {
			json_object_foreach(json_object_get(run, "ops_by_type"), label, t) {
				if (!json_object_get(set, label) &&
				    json_object_set_new(set, label, json_true()) != 0) {
					json_decref(set);
					return NULL;
				}
			}
		}
	}
	return set;
}

static int cmp_bucket(const void *pa, const void *pb)
{
	const struct bucket *a = pa, *b = pb;

	if (a->low != b->low)
		return a->low < b->low ? -1 : 1;
	return a->high < b->high ? -1 : a->high > b->high;
}

/* Value at percentile pct of the merged buckets b[0..n-1] (sorted, total count > 0),
 * the way lg_histogram_percentile answers: the midpoint of the bucket holding the
 * rank, clamped to the exact [min, max]. */
static uint64_t merged_percentile(const struct bucket *b, size_t n, uint64_t total,
				  double pct, uint64_t min, uint64_t max)
{
	double x = pct / 100.0 * (double)total;
	double rank = ceil(x - x * 1e-12); /* 99% of 100 must be rank 99, not 100 */
	uint64_t seen = 0, mid;
	size_t i;

	rank = rank < 1 ? 1 : rank;
	for (i = 0; i + 1 < n; i++) {
		seen += b[i].count;
		if ((double)seen >= rank)
			break;
	}
	mid = b[i].low + (b[i].high - b[i].low) / 2;
	return mid < min ? min : mid > max ? max : mid;
}

/* Add every run's buckets of label to *out (n entries, sorted, identical buckets
 * merged). 0 or -ENOMEM. */
static int merge_buckets(const struct lg_cmp_file *f, const char *label, struct bucket **out,
			 size_t *n)
{
	struct bucket *b;
	size_t total = 0, k = 0, r, i;
	const json_t *run, *e;

	json_array_foreach(f->runs, r, run)
		total += json_array_size(json_object_get(type_in_run(run, label), "histogram"));
	*out = NULL;
	*n = 0;
	if (total == 0)
		return 0;
	b = calloc(total, sizeof(*b));
	if (!b)
		return -ENOMEM;
	json_array_foreach(f->runs, r, run) {
		json_array_foreach(json_object_get(type_in_run(run, label), "histogram"), i, e) {
			get_count(json_array_get(e, 0), &b[k].low);
			get_count(json_array_get(e, 1), &b[k].high);
			get_count(json_array_get(e, 2), &b[k].count);
			k++;
		}
	}
	qsort(b, total, sizeof(*b), cmp_bucket);
	k = 0;
	for (i = 1; i < total; i++) {
		if (b[i].low == b[k].low && b[i].high == b[k].high)
			b[k].count += b[i].count;
		else
			b[++k] = b[i];
	}
	*out = b;
	*n = k + 1;
	return 0;
}

/* min and max over the runs' latency_ns; UINT64_MAX / 0 when none says. Also the
 * single run's latency_ns when exactly one run has the label. */
static const json_t *extremes(const struct lg_cmp_file *f, const char *label, uint64_t *min,
			      uint64_t *max)
{
	const json_t *run, *only = NULL;
	size_t r, nwith = 0;
	uint64_t v;

	*min = UINT64_MAX;
	*max = 0;
	json_array_foreach(f->runs, r, run) {
		const json_t *t = type_in_run(run, label), *lat = json_object_get(t, "latency_ns");

		if (!t)
			continue;
		nwith++;
		only = lat;
		if (get_count(json_object_get(lat, "min"), &v) && v < *min)
			*min = v;
		if (get_count(json_object_get(lat, "max"), &v) && v > *max)
			*max = v;
	}
	return nwith == 1 ? only : NULL;
}

int lg_cmp_latency(const struct lg_cmp_file *f, const char *label, struct lg_cmp_latency *out)
{
	const json_t *single;
	struct bucket *b;
	uint64_t min, max, total = 0;
	size_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	single = extremes(f, label, &min, &max);
	rc = merge_buckets(f, label, &b, &n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++)
		total += b[i].count;
	if (total == 0) {
		/* no histograms (hand-written or trimmed files): a single run's own
		 * percentiles are still right; several runs' cannot be combined */
		out->max_ns = max;
		out->have_pct = single &&
				get_count(json_object_get(single, "p50"), &out->p50_ns) &&
				get_count(json_object_get(single, "p99"), &out->p99_ns);
		free(b);
		return 0;
	}
	if (max == 0) /* no recorded max: the top of the highest bucket */
		for (size_t i = 0; i < n; i++)
			max = b[i].high > max ? b[i].high : max;
	min = min == UINT64_MAX ? b[0].low : min;
	out->have_pct = true;
	out->count = total;
	out->p50_ns = merged_percentile(b, n, total, 50, min, max);
	out->p99_ns = merged_percentile(b, n, total, 99, min, max);
	out->max_ns = max;
	free(b);
	return 0;
}
