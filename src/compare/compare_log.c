/* A --log file as a result, for `loadgen compare` and `loadgen report`.
 *
 * A complete log ends with its result line, and that is the result. A log cut off
 * mid-run (rank 0 or the machine died, every process was killed) is what survives of
 * the run, so it is read for what it holds rather than refused: a partial result built
 * from its lines — the header's env, config and workload; each run's timeline from its
 * interval lines, with totals summed from them; its kernel messages. What only the end
 * of a run gives (latency histograms and percentiles, the rows per op type and per
 * client, errors, the system summary) is not in the log and is not made up: every run
 * says status "partial", and the document's "log_cut_off" says where the log ends and
 * which keys are missing, so report and compare can tell their reader. A last line cut
 * in the middle of its write is dropped, and said. */
#include "loadgen/compare/compare.h"
#include "loadgen/model/errf.h"
#include "loadgen/env/runlog.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUT_KEY "log_cut_off"  /* the document's note of what a cut-off log held */
#define MAX_RUNS 1000000       /* a run index beyond this is not loadgen's */

/* Result keys a cut-off log cannot give (only the end of a run writes them). */
static const char *const missing_keys[] = {
	"latency_ns", "ops_by_type", "clients", "timeline[].p99_ms", "errors", "skipped",
	"stalls", "fairness", "error_notes", "phases", "sys_summary", "vmstat_diff", "busy",
	"summary",
};

/* One run of the log, as its lines add up. */
struct log_run {
	uint64_t index;    /* its "run" in the log */
	json_t *timeline;  /* its interval lines, without type and run (owned) */
	json_t *messages;  /* its kernel message lines, likewise (owned) */
	uint64_t ops;      /* sum of the intervals' ops */
	uint64_t rd, wr;   /* sums of their bytes_read and bytes_written */
	double dur_s;      /* sum of their len_s */
	double max_ms;     /* the largest of their max_latency_ms */
	uint64_t trouble;  /* kernel messages with a sign of trouble */
};

/* Where the log stops: the dropped line's end, or the line after the last one. */
static void cut_at(const struct lg_runlog_info *info, size_t *line, size_t *col)
{
	*line = info->torn_tail ? info->torn_line : info->lines + 1;
	*col = info->torn_tail ? info->torn_bytes + 1 : 1;
}

static bool count_of(const json_t *o, const char *key, uint64_t *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

static bool secs_of(const json_t *o, const char *key, double *v)
{
	const json_t *j = json_object_get(o, key);

	*v = json_is_number(j) ? json_number_value(j) : NAN;
	return isfinite(*v) && *v >= 0;
}

/* The copy of a line a result holds: without the log's own keys. NULL on -ENOMEM. */
static json_t *entry_of(const json_t *line)
{
	json_t *e = json_copy((json_t *)line);

	if (e) {
		json_object_del(e, "type");
		json_object_del(e, "run");
	}
	return e;
}

/* Interval line k (0-based) into its run. 0, -EINVAL (err: PATH:LINE:COL) or -ENOMEM. */
static int add_interval(const char *path, size_t k, const json_t *o, struct log_run *r,
			char *err, size_t errlen)
{
	static const char *const counts[] = { "ops", "bytes_read", "bytes_written" };
	uint64_t v[3];
	double t, len, max = 0;

	for (size_t i = 0; i < 3; i++)
		if (!count_of(o, counts[i], &v[i]))
			return lg_errf(err, errlen, -EINVAL, "%s:%zu:1: interval line: \"%s\" is "
				       "not a non-negative integer", path, k + 1, counts[i]);
	if (!secs_of(o, "t_s", &t) || !secs_of(o, "len_s", &len))
		return lg_errf(err, errlen, -EINVAL, "%s:%zu:1: interval line: \"t_s\" and "
			       "\"len_s\" must be non-negative numbers", path, k + 1);
	if (json_object_get(o, "max_latency_ms") && !secs_of(o, "max_latency_ms", &max))
		return lg_errf(err, errlen, -EINVAL, "%s:%zu:1: interval line: \"max_latency_ms\""
			       " is not a non-negative number", path, k + 1);
	if (json_array_append_new(r->timeline, entry_of(o)))
		return lg_errf(err, errlen, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
	r->ops += v[0];
	r->rd += v[1];
	r->wr += v[2];
	r->dur_s += len;
	r->max_ms = max > r->max_ms ? max : r->max_ms;
	return 0;
}

/* A sweep's runs are each count's --repeat runs in order, so with a fixed repeat the
 * run index names its count. Otherwise the log does not say (one count: compare goes
 * by config.clients; a sweep with --repeat auto: no way to tell). 0 when unknown. */
static json_int_t count_of_run(const json_t *config, size_t run)
{
	const json_t *counts = json_object_get(config, "client_counts");
	json_int_t repeat = json_integer_value(json_object_get(config, "repeat"));

	if (!json_is_array(counts) || json_object_get(config, "repeat_auto") || repeat < 1)
		return 0;
	return json_integer_value(json_array_get(counts, run / (size_t)repeat));
}

static json_t *run_json(const struct log_run *r, json_int_t clients)
{
	double bytes = (double)(r->rd + r->wr), d = r->dur_s;
	json_t *o = json_pack(
		"{s:s, s:n, s:f, s:I, s:I, s:I, s:f, s:f, s:f, s:n, s:O, s:{s:b, s:s, s:I, s:I,"
		" s:n, s:O}}",
		"status", "partial", "failure", "duration_s", d, "bytes_read", (json_int_t)r->rd,
		"bytes_written", (json_int_t)r->wr, "ops", (json_int_t)r->ops, "throughput_mbps",
		d > 0 ? bytes / 1e6 / d : 0.0, "ops_per_s", d > 0 ? (double)r->ops / d : 0.0,
		"max_latency_ms", r->max_ms, "latency_ns", "timeline", r->timeline,
		"kernel_messages", "readable", 1, "note", "as far as the log goes", "count",
		(json_int_t)json_array_size(r->messages), "trouble", (json_int_t)r->trouble,
		"lost", "messages", r->messages);

	if (o && clients > 0 &&
	    json_object_set_new(o, "client_count", json_integer(clients))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* "partial run (log cut off after 7.0 s): totals from the timeline (...); latency
 * percentiles not available" for the runs[0..n-1] of a log. */
static void note_of(const struct log_run *runs, size_t n, double after_s, char *buf,
		    size_t len)
{
	uint64_t ops = 0, rd = 0, wr = 0;
	size_t nint = 0;
	char at[64] = "";

	for (size_t r = 0; r < n; r++) {
		ops += runs[r].ops;
		rd += runs[r].rd;
		wr += runs[r].wr;
		nint += json_array_size(runs[r].timeline);
	}
	if (n > 1) /* the run it was in, counted from 1 as the text report does */
		snprintf(at, sizeof(at), " of run %" PRIu64, runs[n - 1].index + 1);
	snprintf(buf, len, "partial run%s (log cut off after %.1f s%s): totals from the "
		 "timeline (%zu interval%s: %" PRIu64 " ops, %" PRIu64 " bytes read, %" PRIu64
		 " bytes written); latency percentiles not available", n > 1 ? "s" : "", after_s,
		 at, nint, nint == 1 ? "" : "s", ops, rd, wr);
}

static json_t *cut_json(const struct lg_runlog_info *info, const struct log_run *runs,
		       size_t nruns, double after_s)
{
	json_t *missing = json_array();
	char note[LG_CMP_NOTE_MAX];

	for (size_t i = 0; missing && i < sizeof(missing_keys) / sizeof(*missing_keys); i++)
		if (json_array_append_new(missing, json_string(missing_keys[i]))) {
			json_decref(missing);
			missing = NULL;
		}
	note_of(runs, nruns, after_s, note, sizeof(note));
	return json_pack("{s:s, s:I, s:o, s:o, s:I, s:I, s:f, s:o}", "note", note,
			 "lines", (json_int_t)info->lines,
			 "dropped_line", info->torn_tail ? json_integer((json_int_t)info->torn_line)
							: json_null(),
			 "dropped_bytes", info->torn_tail ? json_integer((json_int_t)info->torn_bytes)
							 : json_null(),
			 "runs", (json_int_t)nruns, "intervals", (json_int_t)info->intervals,
			 "after_s", after_s, "missing", missing);
}

/* The document: the header's keys, runs[0..n-1], and the note. NULL on -ENOMEM. */
static json_t *doc_of(const json_t *header, const struct lg_runlog_info *info,
		      const struct log_run *runs, size_t n)
{
	static const char *const keys[] = { "loadgen", "command", "env", "workload", "config" };
	const json_t *schema = json_object_get(header, "result_schema");
	json_t *doc = json_pack("{s:s, s:[]}", "schema", json_is_string(schema)
			      ? json_string_value(schema) : LG_RESULT_SCHEMA, "runs");
	json_t *a = json_object_get(doc, "runs");
	double after_s = 0;

	for (size_t i = 0; doc && i < sizeof(keys) / sizeof(*keys); i++) {
		json_t *v = json_object_get(header, keys[i]);

		if (v && json_object_set(doc, keys[i], v)) {
			json_decref(doc);
			doc = NULL;
		}
	}
	for (size_t r = 0; doc && r < n; r++) {
		if (json_array_append_new(a, run_json(&runs[r], count_of_run(
				json_object_get(header, "config"), runs[r].index)))) {
			json_decref(doc);
			doc = NULL;
		}
		if (json_array_size(runs[r].timeline)) /* the last interval of the last run */
			secs_of(json_array_get(runs[r].timeline,
					       json_array_size(runs[r].timeline) - 1), "t_s",
				&after_s);
	}
	if (doc && json_object_set_new(doc, CUT_KEY, cut_json(info, runs, n, after_s))) {
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The "type" of a line that belongs to a run (interval, kmsg), else NULL. */
static const char *run_line(const json_t *o)
{
	const char *type = json_string_value(json_object_get(o, "type"));

	if (type && (strcmp(type, "interval") == 0 || strcmp(type, "kmsg") == 0))
		return type;
	return NULL; /* the header, and lines of later versions */
}

/* The runs the interval lines name, each once in ascending index, into *out (*n of
 * them, each with its arrays): as many as the lines say, whatever index they give. 0,
 * or -errno with err. */
static int runs_named(const char *path, const json_t *lines, struct log_run **out,
		      size_t *n, char *err, size_t errlen)
{
	uint64_t *idx = calloc(json_array_size(lines) + 1, sizeof(*idx)), r;
	const json_t *o;
	size_t k, m = 0;
	int rc = idx ? 0 : -ENOMEM;

	*out = NULL;
	*n = 0;
	json_array_foreach(rc ? NULL : lines, k, o) {
		const char *type = run_line(o);

		if (!type)
			continue;
		if (!count_of(o, "run", &r) || r >= MAX_RUNS) {
			rc = lg_errf(err, errlen, -EINVAL, "%s:%zu:1: %s line: \"run\" is not a run"
				     " index", path, k + 1, type);
			break;
		}
		if (strcmp(type, "interval") == 0)
			idx[m++] = r;
	}
	if (!rc) {
		qsort(idx, m, sizeof(*idx), cmp_u64);
		for (k = 0; k < m; k++)
			if (k == 0 || idx[k] != idx[*n - 1])
				idx[(*n)++] = idx[k];
		*out = calloc(*n + 1, sizeof(**out));
		rc = *out ? 0 : -ENOMEM;
	}
	for (k = 0; !rc && k < *n; k++) {
		(*out)[k].index = idx[k];
		(*out)[k].timeline = json_array();
		(*out)[k].messages = json_array();
		if (!(*out)[k].timeline || !(*out)[k].messages)
			rc = -ENOMEM;
	}
	free(idx);
	if (rc == -ENOMEM)
		lg_errf(err, errlen, rc, "%s: %s", path, strerror(ENOMEM));
	return rc;
}

/* The run of index r among runs[0..n-1], or NULL. */
static struct log_run *run_at(struct log_run *runs, size_t n, uint64_t r)
{
	return bsearch(&r, runs, n, sizeof(*runs), cmp_u64); /* index is the first member */
}

/* Sort the kept lines into runs[0..n-1]. 0, or -errno with err. */
static int fill_runs(const char *path, const json_t *lines, struct log_run *runs, size_t n,
		     char *err, size_t errlen)
{
	const json_t *o;
	size_t k;
	int rc = 0;

	json_array_foreach(lines, k, o) {
		const char *type = run_line(o);
		struct log_run *run;
		uint64_t r;

		if (!type || !count_of(o, "run", &r)) /* run was checked by runs_named */
			continue;
		run = run_at(runs, n, r);
		if (!run) /* a kernel message of a run that measured nothing yet */
			continue;
		if (strcmp(type, "interval") == 0) {
			rc = add_interval(path, k, o, run, err, errlen);
		} else {
			run->trouble += json_is_string(json_object_get(o, "trouble"));
			if (json_array_append_new(run->messages, entry_of(o)))
				rc = lg_errf(err, errlen, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* The partial result of a log cut off mid-run (its lines read into lines). */
static int partial_doc(const char *path, const struct lg_runlog_info *info, json_t *lines,
		       json_t **out, char *err, size_t errlen)
{
	const json_t *header = json_array_get(lines, 0);
	const char *type = json_string_value(json_object_get(header, "type"));
	size_t line, col, n = 0;
	struct log_run *runs = NULL;
	int rc = 0;

	cut_at(info, &line, &col);
	if (!type || strcmp(type, "header") != 0)
		return lg_errf(err, errlen, -EINVAL, "%s:%zu:%zu: the log is cut off in its header "
			       "line: nothing to read", path, line, col);
	if (info->intervals == 0)
		return lg_errf(err, errlen, -EINVAL, "%s:%zu:%zu: the log is cut off before its "
			       "first interval: no measurement to read", path, line, col);
	rc = runs_named(path, lines, &runs, &n, err, errlen);
	if (!rc)
		rc = fill_runs(path, lines, runs, n, err, errlen);
	if (!rc && !(*out = doc_of(header, info, runs, n)))
		rc = lg_errf(err, errlen, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
	for (size_t r = 0; runs && r < n; r++) {
		json_decref(runs[r].timeline);
		json_decref(runs[r].messages);
	}
	free(runs);
	return rc;
}

int lg_cmp_log_load(const char *path, json_t **out, char *err, size_t errlen)
{
	struct lg_runlog_info info;
	json_t *lines = NULL;
	int rc;

	*out = NULL;
	/* first without the lines: a complete log needs only its last */
	rc = lg_runlog_read(path, out, &info, NULL, err, errlen);
	if (rc || info.complete)
		return rc;
	json_decref(*out);
	*out = NULL;
	rc = lg_runlog_read(path, out, &info, &lines, err, errlen);
	if (rc == 0 && info.complete) /* it was still being written: now it is whole */
		goto out;
	json_decref(*out);
	*out = NULL;
	if (rc == 0)
		rc = partial_doc(path, &info, lines, out, err, errlen);
out:
	json_decref(lines);
	return rc;
}

bool lg_cmp_partial_note(const json_t *doc, char *buf, size_t len)
{
	const json_t *cut = json_object_get(doc, CUT_KEY), *run;
	size_t i, n = 0;

	if (json_is_string(json_object_get(cut, "note"))) {
		snprintf(buf, len, "%s", json_string_value(json_object_get(cut, "note")));
		return true;
	}
	json_array_foreach(json_object_get(doc, "runs"), i, run) {
		const char *st = json_string_value(json_object_get(run, "status"));

		n += st && strcmp(st, "partial") == 0;
	}
	if (n)
		snprintf(buf, len, "%zu of %zu run%s partial", n,
			 json_array_size(json_object_get(doc, "runs")),
			 json_array_size(json_object_get(doc, "runs")) == 1 ? "" : "s");
	return n > 0;
}

void lg_cmp_log_notes(FILE *f, const char *prog, const char *path, const json_t *doc)
{
	const json_t *cut = json_object_get(doc, CUT_KEY);
	const json_t *line = json_object_get(cut, "dropped_line");
	char note[LG_CMP_NOTE_MAX];

	if (!cut)
		return;
	if (json_is_integer(line))
		fprintf(f, "%s: %s:%" JSON_INTEGER_FORMAT ": the last line is cut short (%"
			JSON_INTEGER_FORMAT " bytes of a write the run's end interrupted): "
			"dropped\n", prog, path, json_integer_value(line),
			json_integer_value(json_object_get(cut, "dropped_bytes")));
	if (lg_cmp_partial_note(doc, note, sizeof(note)))
		fprintf(f, "%s: %s: %s\n", prog, path, note);
}
