/* The data object of `loadgen report`: what the page's charts and tables show.
 *
 * Everything is derived from the result JSON (already checked by lg_cmp_file_init) and
 * reduced to what is drawn, so the page stays small however many clients and intervals
 * a run had: a percentile curve per op type instead of the raw buckets, one rate per
 * client, per-interval series. Latency histograms of several runs are merged exactly:
 * each stored bucket is put back into a struct lg_histogram (the layout is fixed, so
 * a bucket's bounds name its index) and the runs are added with lg_histogram_add, the
 * same merge the engine uses; percentiles then come from lg_histogram_percentile. Only
 * runs at one client count are merged: a sweep's file has a curve per count (groups).
 * The comparisons are report_html_cmp.c's. Keys that newer results may carry
 * (summary.by_clients, hosts, the timeline's sys) are passed on when present and
 * ignored when not. */
#include "loadgen/compare/report_html.h"
#include "loadgen/model/errf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/histogram.h"
#include "loadgen/inference/inference.h"
#include "report_html_priv.h"

#define ALL_OPS "all ops" /* label of the merge of every op type */

/* The percentiles of each latency curve: dense where latency usually bends. */
static const double curve_pcts[] = {
	0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 97, 98, 99, 99.3, 99.5,
	99.7, 99.8, 99.9, 99.93, 99.95, 99.97, 99.98, 99.99,
};
#define NPCTS (sizeof(curve_pcts) / sizeof(curve_pcts[0]))

/* Timeline keys copied into per-run series: JSON key in the result, key in the page. */
static const struct {
	const char *from; /* key of a timeline entry */
	const char *to;   /* name of the series in the page's data */
} series_keys[] = {
	{ .from = "t_s", .to = "t" },
	{ .from = "mbps", .to = "mbps" },
	{ .from = "p99_ms", .to = "p99_ms" },
	{ .from = "max_latency_ms", .to = "max_ms" },
};
#define NSERIES (sizeof(series_keys) / sizeof(series_keys[0]))

/* The building of one file's part; err names the file. */
struct build {
	const struct lg_cmp_file *f; /* the file (borrowed) */
	char *err;                   /* message buffer (borrowed) */
	size_t errlen;               /* its size */
	struct lg_histogram *h;      /* scratch: one run's histogram of one type (owned) */
	struct lg_histogram *merged; /* scratch: one type over all runs (owned) */
	struct lg_histogram *all;    /* scratch: every type over all runs (owned) */
};

__attribute__((format(printf, 3, 4)))
static int fail(struct build *b, int rc, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(b->err, b->errlen, "%s: ", b->f->path);

	va_start(ap, fmt);
	lg_verrf(b->err, b->errlen, n > 0 ? (size_t)n : 0, rc, fmt, ap);
	va_end(ap);
	return rc;
}

static uint64_t u64(const json_t *j, uint64_t dflt)
{
	return json_is_integer(j) && json_integer_value(j) >= 0 ? (uint64_t)json_integer_value(j)
								 : dflt;
}

/* --- Latency --- */

/* Put run r's histogram of label back into b->h. 0 (b->h->count 0 when the run has
 * none), or -EINVAL when a bucket is not one of loadgen's. */
static int decode_hist(struct build *b, size_t r, const char *label)
{
	const json_t *run = json_array_get(b->f->runs, r);
	const json_t *t = json_object_get(json_object_get(run, "ops_by_type"), label);
	const json_t *lat = json_object_get(t, "latency_ns"), *e;
	uint64_t lo = UINT64_MAX, hi = 0, min, max;
	double mean;
	size_t i;

	lg_histogram_init(b->h);
	json_array_foreach(json_object_get(t, "histogram"), i, e) {
		uint64_t low = u64(json_array_get(e, 0), 0), high = u64(json_array_get(e, 1), 0);
		uint64_t count = u64(json_array_get(e, 2), 0), l, h;
		size_t idx = lg_histogram_bucket(low);

		lg_histogram_bucket_bounds(idx, &l, &h);
		if (l != low || h != high)
			return fail(b, -EINVAL, "runs[%zu].ops_by_type.%s.histogram[%zu]: [%llu, %llu]"
				    " is not a bucket of loadgen's histogram layout", r, label, i,
				    (unsigned long long)low, (unsigned long long)high);
		if (count == 0)
			continue;
		b->h->buckets[idx] += count;
		b->h->count += count;
		lo = low < lo ? low : lo;
		hi = high > hi ? high : hi;
	}
	if (b->h->count == 0)
		return 0;
	/* the exact extremes, where recorded and consistent with the buckets */
	min = u64(json_object_get(lat, "min"), lo);
	max = u64(json_object_get(lat, "max"), hi);
	b->h->min_ns = lg_histogram_bucket(min) == lg_histogram_bucket(lo) ? min : lo;
	b->h->max_ns = lg_histogram_bucket(max) == lg_histogram_bucket(hi) ? max : hi;
	mean = json_number_value(json_object_get(lat, "mean")) * (double)b->h->count;
	/* only the mean uses the sum; a hostile value must not overflow the conversion */
	b->h->sum_ns = isfinite(mean) && mean >= 0 && mean < 1.8e19 ? (uint64_t)mean : 0;
	return 0;
}

/* {count, max_ms, ms: [one per curve_pcts]} of h; NULL on -ENOMEM. */
static json_t *curve_json(const struct lg_histogram *h)
{
	json_t *ms = json_array();

	for (size_t i = 0; ms && i < NPCTS; i++) {
		if (!push(ms, json_real((double)lg_histogram_percentile(h, curve_pcts[i]) / 1e6))) {
			json_decref(ms);
			ms = NULL;
		}
	}
	return json_pack("{s:I, s:f, s:f, s:o}", "count", (json_int_t)h->count, "mean_ms",
			 lg_histogram_mean(h) / 1e6, "max_ms", (double)h->max_ns / 1e6, "ms", ms);
}

/* One curve per op type that has histograms, merged over the runs of g (one client
 * count: a sweep's counts are never merged), and "all ops". */
static int latency_json(struct build *b, const struct lg_cmp_group *g, json_t **out)
{
	json_t *labels = lg_cmp_op_labels(b->f, b->f), *v, *lat = json_object();
	const char *label;
	int rc = labels && lat ? 0 : -ENOMEM;

	lg_histogram_init(b->all);
	json_object_foreach(rc ? NULL : labels, label, v) {
		lg_histogram_init(b->merged);
		for (size_t i = 0; rc == 0 && i < g->n; i++) {
			rc = decode_hist(b, g->runs[i], label);
			lg_histogram_add(b->merged, b->h);
		}
		if (rc)
			break;
		if (b->merged->count == 0)
			continue;
		lg_histogram_add(b->all, b->merged);
		if (json_object_set_new(lat, label, curve_json(b->merged))) {
			rc = -ENOMEM;
			break;
		}
	}
	if (rc == 0 && b->all->count && json_object_set_new(lat, ALL_OPS, curve_json(b->all)))
		rc = -ENOMEM;
	json_decref(labels);
	if (rc)
		json_decref(lat);
	*out = rc ? NULL : lat;
	return rc == -ENOMEM ? fail(b, rc, "%s", strerror(ENOMEM)) : rc;
}

/* --- Throughput, timeline, clients --- */

/* The runs' values with their mean, stddev and 95 % CI; those are null when the runs
 * are at several client counts (mixed): no one mean describes a sweep (its means per
 * count are in by_clients). */
static json_t *summary_json(const double *x, size_t n, bool mixed)
{
	struct lg_stat_summary s;
	json_t *vals = json_array();

	(void)lg_stat_summarize(x, n, &s); /* n >= 1 and finite values: cannot fail */
	if (mixed)
		s.mean = s.stddev = s.ci95_lo = s.ci95_hi = NAN;
	for (size_t i = 0; vals && i < n; i++)
		if (!push(vals, json_real(x[i]))) {
			json_decref(vals);
			vals = NULL;
		}
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)s.n,
			 "mean", num(s.mean), "stddev", num(s.stddev), "ci95_lo", num(s.ci95_lo),
			 "ci95_hi", num(s.ci95_hi), "min", num(s.min), "values", vals);
}

/* A number or null from a timeline entry. */
static json_t *entry_num(const json_t *e, const char *key)
{
	const json_t *v = json_object_get(e, key);

	return json_is_number(v) ? num(json_number_value(v)) : json_null();
}

/* ops/s of an interval: its ops over its length. */
static json_t *entry_rate(const json_t *e)
{
	double len = json_number_value(json_object_get(e, "len_s"));
	const json_t *ops = json_object_get(e, "ops");

	return json_is_number(ops) && len > 0 ? num(json_number_value(ops) / len) : json_null();
}

/* An interval with a stall: no op completed, or an op as slow as the threshold. */
static json_t *entry_stall(const json_t *e, double threshold_ms)
{
	const json_t *ops = json_object_get(e, "ops"), *max = json_object_get(e, "max_latency_ms");

	return json_boolean((json_is_integer(ops) && json_integer_value(ops) == 0) ||
			    (threshold_ms > 0 && json_is_number(max) &&
			     json_number_value(max) >= threshold_ms));
}

/* {t: [...], mbps: [...], ops_s, p99_ms, max_ms, stall, sys?} of one run. */
static json_t *run_series(const json_t *run, double threshold_ms)
{
	const json_t *tl = json_object_get(run, "timeline"), *e;
	json_t *s = json_object(), *a[NSERIES + 3];
	bool ok = s != NULL, any_sys = false;
	size_t i, k;

	/* the arrays belong to s at once (json_object_set_new steals even on failure) */
	for (k = 0; k < NSERIES + 3; k++) {
		a[k] = ok ? json_array() : NULL; /* none made that nothing would own */
		ok = ok && json_object_set_new(s, k < NSERIES ? series_keys[k].to :
						  k == NSERIES ? "ops_s" :
						  k == NSERIES + 1 ? "stall" : "sys", a[k]) == 0;
	}
	json_array_foreach(ok && json_is_array(tl) ? tl : NULL, i, e) {
		const json_t *sys = json_object_get(e, "sys");

		for (k = 0; ok && k < NSERIES; k++)
			ok = push(a[k], entry_num(e, series_keys[k].from));
		any_sys = any_sys || json_is_object(sys);
		ok = ok && push(a[NSERIES], entry_rate(e)) &&
		     push(a[NSERIES + 1], entry_stall(e, threshold_ms)) &&
		     push(a[NSERIES + 2], json_is_object(sys) ? json_deep_copy(sys) : json_null());
	}
	if (ok && !any_sys) /* only newer results have system metrics */
		json_object_del(s, "sys");
	if (!ok) {
		json_decref(s);
		return NULL;
	}
	return s;
}

/* acc[key] += x, where acc[key] is [sum, count] (created at [0, 0]). 0 or -ENOMEM. */
static int accumulate(json_t *acc, const char *key, double x)
{
	json_t *a = json_object_get(acc, key);

	if (!a && json_object_set_new(acc, key, a = json_pack("[f, i]", 0.0, 0)))
		return -ENOMEM;
	if (json_array_set_new(a, 0, json_real(json_number_value(json_array_get(a, 0)) + x)) ||
	    json_array_set_new(a, 1, json_integer(json_integer_value(json_array_get(a, 1)) + 1)))
		return -ENOMEM;
	return 0;
}

/* The mean of an accumulate() entry. */
static double acc_mean(const json_t *a)
{
	return json_number_value(json_array_get(a, 0)) /
	       (double)json_integer_value(json_array_get(a, 1));
}

/* Per-client MB/s of the runs of g (one client count: a sweep's runs at 1 and at 8
 * clients are never averaged together), by client id, and each of those runs'
 * fairness. */
static json_t *clients_json(const struct lg_cmp_file *f, const struct lg_cmp_group *g)
{
	json_t *ids = json_object(), *jain = json_array(), *out, *run, *c, *v;
	const char *id;
	size_t i;
	bool ok = ids && jain;

	for (size_t r = 0; r < g->n; r++) {
		run = json_array_get(f->runs, g->runs[r]);
		ok = ok && push(jain, entry_num(json_object_get(run, "fairness"), "jain_index"));
		json_array_foreach(json_object_get(run, "clients"), i, c) {
			char key[32];
			const json_t *mb = json_object_get(c, "throughput_mbps");

			if (!ok || !json_is_number(mb))
				continue;
			snprintf(key, sizeof(key), "%lld",
				 (long long)u64(json_object_get(c, "id"), i));
			ok = accumulate(ids, key, json_number_value(mb)) == 0;
		}
	}
	out = ok ? json_pack("{s:[], s:[], s:o}", "id", "mbps", "jain", jain) : NULL;
	if (!ok)
		json_decref(jain); /* else json_pack took it, even when it failed */
	json_object_foreach(out ? ids : NULL, id, v) {
		if (!push(json_object_get(out, "id"), json_integer(atoll(id))) ||
		    !push(json_object_get(out, "mbps"), json_real(acc_mean(v)))) {
			json_decref(out);
			out = NULL;
			break;
		}
	}
	json_decref(ids);
	return out;
}

/* --- One file --- */

/* The header: workload, command line, config and env as they are in the file. */
static json_t *header_json(const json_t *doc)
{
	const char *const keys[] = { "workload", "config", "env", "loadgen" };
	json_t *h = json_object(), *cmd = json_object_get(doc, "command");

	for (size_t i = 0; h && i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = json_object_get(doc, keys[i]);

		if (json_is_object(v) && json_object_set_new(h, keys[i], json_deep_copy(v))) {
			json_decref(h);
			return NULL;
		}
	}
	if (h && json_is_array(cmd) && json_object_set_new(h, "command", json_deep_copy(cmd))) {
		json_decref(h);
		return NULL;
	}
	return h;
}

/* Per-host throughput of a multi-host result into *out: each host's MB/s, the mean over
 * the runs that have runs[].hosts (MPI results); a file with hosts[] at the top as it
 * is. *out is NULL when there is none. 0 or -ENOMEM. */
static int hosts_of(const json_t *doc, json_t **out)
{
	const json_t *run, *h, *top = json_object_get(doc, "hosts");
	json_t *sum, *v;
	const char *name;
	size_t r, i;
	int rc = 0;

	*out = NULL;
	if (json_is_array(top))
		return (*out = json_deep_copy(top)) ? 0 : -ENOMEM;
	if (!(sum = json_object()))
		return -ENOMEM;
	json_array_foreach(json_object_get(doc, "runs"), r, run) {
		json_array_foreach(json_object_get(run, "hosts"), i, h) {
			const char *host = json_string_value(json_object_get(h, "host"));
			json_t *mb = json_object_get(h, "throughput_mbps");

			if (!rc && host && json_is_number(mb))
				rc = accumulate(sum, host, json_number_value(mb));
		}
	}
	if (!rc && json_object_size(sum) && !(*out = json_array()))
		rc = -ENOMEM;
	json_object_foreach(rc ? NULL : sum, name, v) {
		if (json_array_append_new(*out, json_pack("{s:s, s:f}", "host", name,
							  "throughput_mbps", acc_mean(v)))) {
			rc = -ENOMEM;
			break;
		}
	}
	json_decref(sum);
	if (rc) {
		json_decref(*out);
		*out = NULL;
	}
	return rc;
}

/* Optional keys of newer results, copied when present. 0 or -ENOMEM. */
static int copy_optional(const json_t *doc, json_t *out)
{
	const json_t *by = json_object_get(json_object_get(doc, "summary"), "by_clients");
	json_t *hosts;

	/* every result has by_clients; a chart against clients needs a sweep */
	if (json_array_size(by) > 1 &&
	    json_object_set_new(out, "by_clients", json_deep_copy(by)))
		return -ENOMEM;
	if (hosts_of(doc, &hosts))
		return -ENOMEM;
	if (hosts && json_object_set_new(out, "hosts", hosts))
		return -ENOMEM;
	return 0;
}

static json_t *runs_json(const struct lg_cmp_file *f, double threshold_ms)
{
	json_t *a = json_array(), *run;
	size_t r;

	json_array_foreach(a ? f->runs : NULL, r, run) {
		const json_t *st = json_object_get(run, "status");

		if (!push(a, json_pack("{s:s, s:o}", "status",
				       json_is_string(st) ? json_string_value(st) : "complete",
				       "series", run_series(run, threshold_ms)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The file's runs by client count, in ascending count: [{clients, runs: [indexes into
 * the file's runs], latency, per_client}], one entry when all runs are at one count.
 * The page draws a sweep's counts apart over time, in latency and per client; they are
 * never averaged or merged. */
static int groups_json(struct build *b, json_t **out)
{
	json_t *a = json_array(), *lat, *runs;
	int rc = a ? 0 : fail(b, -ENOMEM, "%s", strerror(ENOMEM));

	for (size_t g = 0; rc == 0 && g < b->f->ngroups; g++) {
		const struct lg_cmp_group *grp = &b->f->groups[g];

		if ((rc = latency_json(b, grp, &lat)))
			break;
		runs = json_array();
		for (size_t i = 0; runs && i < grp->n; i++)
			if (!push(runs, json_integer((json_int_t)grp->runs[i]))) {
				json_decref(runs);
				runs = NULL;
			}
		if (!push(a, json_pack("{s:I, s:o, s:o, s:o}", "clients",
				       (json_int_t)grp->clients, "runs", runs, "latency", lat,
				       "per_client", clients_json(b->f, grp))))
			rc = fail(b, -ENOMEM, "%s", strerror(ENOMEM));
	}
	if (rc)
		json_decref(a);
	*out = rc ? NULL : a;
	return rc;
}

/* A file that measured nothing (nruns 0: lg_report_html's init_file): its header and
 * its runs that measured nothing, no figures. */
static json_t *hollow_json(struct build *b)
{
	json_t *out = json_pack("{s:s, s:I, s:b, s:o, s:o, s:[], s:[]}", "name", b->f->path,
				"nruns", (json_int_t)0, "measured", 0, "header",
				header_json(b->f->doc), "unmeasured",
				lg_report_unmeasured(b->f->doc), "runs", "groups");

	if (!out)
		fail(b, -ENOMEM, "%s", strerror(ENOMEM));
	return out;
}

/* {note, after_s, missing} of a partial file (a log cut off mid-run, runs that lost
 * clients), the banner of its part of the page; null for a whole result. */
static json_t *partial_json(const json_t *doc)
{
	const json_t *cut = json_object_get(doc, "log_cut_off");
	char note[LG_CMP_NOTE_MAX];

	if (!lg_cmp_partial_note(doc, note, sizeof(note)))
		return json_null();
	return json_pack("{s:s, s:O?, s:O?}", "note", note, "after_s",
			 json_object_get(cut, "after_s"), "missing", json_object_get(cut, "missing"));
}

static json_t *file_json(struct build *b)
{
	const json_t *cfg = json_object_get(b->f->doc, "config");
	double thr = json_number_value(json_object_get(cfg, "stall_threshold_s")) * 1e3;
	double iv = json_number_value(json_object_get(cfg, "interval_s"));
	json_t *groups = NULL, *out;

	if (b->f->nruns == 0)
		return hollow_json(b);
	if (groups_json(b, &groups))
		return NULL;
	out = json_pack("{s:s, s:I, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name",
			b->f->path, "nruns", (json_int_t)b->f->nruns, "measured", 1,
			"interval_s", iv > 0 ? json_real(iv) : json_null(),
			"unmeasured", lg_report_unmeasured(b->f->doc),
			"header", header_json(b->f->doc),
			"mbps", summary_json(b->f->mbps, b->f->nruns, b->f->ngroups > 1),
			"ops_s", summary_json(b->f->ops, b->f->nruns, b->f->ngroups > 1),
			"stall_threshold_ms", thr > 0 ? json_real(thr) : json_null(),
			"runs", runs_json(b->f, thr), "groups", groups);
	if (out && (copy_optional(b->f->doc, out) ||
		    json_object_set_new(out, "partial", partial_json(b->f->doc)))) {
		json_decref(out);
		out = NULL;
	}
	if (!out)
		fail(b, -ENOMEM, "%s", strerror(ENOMEM));
	return out;
}

/* --- The whole object --- */

static json_t *pcts_json(void)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < NPCTS; i++)
		if (!push(a, json_real(curve_pcts[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static int add_files(const struct lg_cmp_file *files, size_t n, json_t *arr, char *err,
		     size_t errlen)
{
	struct build b = { .err = err, .errlen = errlen };
	int rc = 0;

	b.h = malloc(sizeof(*b.h));
	b.merged = malloc(sizeof(*b.merged));
	b.all = malloc(sizeof(*b.all));
	for (size_t i = 0; rc == 0 && i < n; i++) {
		b.f = &files[i];
		if (!b.h || !b.merged || !b.all)
			rc = fail(&b, -ENOMEM, "%s", strerror(ENOMEM));
		else if (!push(arr, file_json(&b)))
			rc = -EINVAL; /* err already says why */
	}
	free(b.h);
	free(b.merged);
	free(b.all);
	return rc;
}

json_t *lg_report_data(const struct lg_cmp_file *files, size_t n, char *err, size_t errlen)
{
	json_t *arr = json_array(), *cmps = json_array(), *doc;

	snprintf(err, errlen, "%s", strerror(ENOMEM));
	if (!arr || !cmps || add_files(files, n, arr, err, errlen)) {
		json_decref(arr);
		json_decref(cmps);
		return NULL;
	}
	for (size_t i = 1; i < n; i++)
		if (lg_report_add_comparisons(cmps, &files[0], &files[i])) {
			snprintf(err, errlen, "%s", strerror(ENOMEM));
			json_decref(arr);
			json_decref(cmps);
			return NULL;
		}
	doc = json_pack("{s:s, s:s, s:o, s:o, s:o}", "schema", LG_REPORT_SCHEMA, "generator",
			"loadgen " LOADGEN_VERSION, "percentiles", pcts_json(), "files", arr,
			"comparisons", cmps);
	if (!doc)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	return doc;
}
