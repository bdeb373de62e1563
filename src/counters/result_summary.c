/* Stalls, fairness and the summary of repeated runs, as JSON (corruptions: in
 * corrupt_notes.c). */
#include "result_summary.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/workload.h"

#define I(x) ((json_int_t)(x))

/* json_real refuses NaN and infinities (a stddev of one run is NaN): those become null. */
static json_t *real_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

double lg_run_mbps(const struct lg_run *run)
{
	double b = (double)(run->bytes_read + run->bytes_written);

	return run->duration_s > 0 ? b / run->duration_s / 1e6 : 0;
}

double lg_run_ops_per_s(const struct lg_run *run)
{
	return run->duration_s > 0 ? (double)run->ops / run->duration_s : 0;
}

int lg_runs_summarize(const struct lg_run *runs, size_t n, struct lg_stat_summary *mbps,
		      struct lg_stat_summary *ops)
{
	double *m = malloc((n ? n : 1) * sizeof(*m)), *o = malloc((n ? n : 1) * sizeof(*o));
	int rc = -ENOMEM;

	if (m && o) {
		for (size_t i = 0; i < n; i++) {
			m[i] = lg_run_mbps(&runs[i]);
			o[i] = lg_run_ops_per_s(&runs[i]);
		}
		rc = lg_stat_summarize(m, n, mbps);
		if (!rc)
			rc = lg_stat_summarize(o, n, ops);
	}
	free(m);
	free(o);
	return rc;
}

json_t *lg_stalls_json(const struct lg_run *run)
{
	struct lg_stalls st;
	const char *type;

	lg_run_stalls(run, &st);
	type = st.slow_ops && run->type_names && st.slowest_type < run->ntypes ?
		       run->type_names[st.slowest_type] : NULL;
	return json_pack("{s:f, s:{s:I, s:f, s:f, s:f}, s:{s:I, s:f, s:f, s:f, s:o, s:o, s:o}}",
			 "threshold_ms", (double)run->stall_ns / 1e6,
			 "idle_intervals",
			 "count", I(st.idle_intervals), "total_s", st.idle_s,
			 "longest_s", st.longest_idle_s, "longest_at_s", st.longest_idle_at_s,
			 "slow_ops",
			 "count", I(st.slow_ops), "total_s", st.slow_total_s,
			 "longest_ms", (double)st.slowest_ns / 1e6, "longest_at_s", st.slowest_at_s,
			 "longest_type", type ? json_string(type) : json_null(),
			 "longest_client", st.slow_ops ? json_integer(st.slowest_client) : json_null(),
			 "longest_line", st.slow_ops ? json_integer(st.slowest_line) : json_null());
}

json_t *lg_fairness_json(const struct lg_run *run)
{
	struct lg_fairness f;

	if (lg_run_fairness(run, &f))
		return NULL;
	return json_pack("{s:s, s:f, s:f, s:f, s:f}", "metric", f.metric, "min", f.min,
			 "median", f.median, "max", f.max, "jain_index", f.jain);
}

static json_t *summary_one(const struct lg_stat_summary *s)
{
	return json_pack("{s:I, s:f, s:o, s:f, s:f, s:[o, o], s:o}", "n", I(s->n), "mean",
			 s->mean, "stddev", real_or_null(s->stddev), "min", s->min, "max", s->max,
			 "ci95", real_or_null(s->ci95_lo), real_or_null(s->ci95_hi),
			 "cv_pct", real_or_null(lg_stat_cv_pct(s)));
}

bool lg_run_measured(const struct lg_run *run)
{
	return run->status != LG_RUN_FAILED && run->duration_s > 0;
}

size_t lg_runs_with_clients(const struct lg_run *runs, size_t n, unsigned clients,
			    struct lg_run *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (runs[i].nclients == clients && lg_run_measured(&runs[i]))
			out[k++] = runs[i];
	for (size_t i = 0; k == 0 && i < n; i++) /* none measured: all, as they are */
		if (runs[i].nclients == clients)
			out[k++] = runs[i];
	return k;
}

int lg_count_summary(const struct lg_run *runs, size_t n, struct lg_count_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->clients = runs[0].nclients;
	out->n = n;
	lg_histogram_init(&out->all);
	for (size_t i = 0; i < n; i++) {
		lg_histogram_add(&out->all, &runs[i].all);
		out->lost = out->lost || runs[i].nlost_ranks;
	}
	if (lg_runs_summarize(runs, n, &out->mbps, &out->ops))
		return -ENOMEM;
	/* the rate that varies: MB/s, or ops/s for workloads that move no data */
	out->cv_pct = lg_stat_cv_pct(out->mbps.mean > 0 ? &out->mbps : &out->ops);
	return 0;
}

const char *lg_cv_warning(double cv_pct)
{
	if (!(cv_pct > LG_CV_WARN_PCT))
		return NULL;
	return "runs vary more than a few percent: usual causes are too short a run (-t),"
	       " caches (a longer --warmup, --drop-caches) and a busy machine";
}

static json_t *count_json(const struct lg_count_summary *c)
{
	const char *warn = lg_cv_warning(c->cv_pct);

	/* runs that lost a rank have no histogram: the p99 is the other runs', or none */
	json_t *p99 = c->lost && !c->all.count ? json_null()
			: json_integer(I(lg_histogram_percentile(&c->all, 99.0)));

	return json_pack("{s:I, s:I, s:o, s:o, s:{s:o, s:I}, s:o, s:o}", "clients",
			 I(c->clients), "runs", I(c->n), "throughput_mbps", summary_one(&c->mbps),
			 "ops_per_s", summary_one(&c->ops), "latency_ns", "p99", p99,
			 "max", I(c->all.max_ns),
			 "cv_pct", real_or_null(c->cv_pct),
			 "cv_warning", warn ? json_string(warn) : json_null());
}

/* The runs' distinct client counts, in the order first run. */
static size_t distinct_counts(const struct lg_run *runs, size_t n, unsigned *counts)
{
	size_t k = 0, j;

	for (size_t i = 0; i < n; i++) {
		for (j = 0; j < k && counts[j] != runs[i].nclients; j++)
			;
		if (j == k)
			counts[k++] = runs[i].nclients;
	}
	return k;
}

/* by_clients: one summary per client count. */
static json_t *by_clients_json(const struct lg_run *runs, size_t n)
{
	unsigned *counts = calloc(n, sizeof(*counts));
	struct lg_run *sel = calloc(n, sizeof(*sel));
	struct lg_count_summary *cs = malloc(sizeof(*cs));
	json_t *a = counts && sel && cs ? json_array() : NULL;
	size_t k = a ? distinct_counts(runs, n, counts) : 0;

	for (size_t i = 0; a && i < k; i++) {
		size_t m = lg_runs_with_clients(runs, n, counts[i], sel);

		if (lg_count_summary(sel, m, cs) || json_array_append_new(a, count_json(cs))) {
			json_decref(a);
			a = NULL;
		}
	}
	free(counts);
	free(sel);
	free(cs);
	return a;
}

json_t *lg_summary_json(const struct lg_run *runs, size_t n)
{
	json_t *by, *doc, *one;

	if (n == 0 || !(by = by_clients_json(runs, n)))
		return NULL;
	if (json_array_size(by) > 1) /* a sweep: no summary across client counts */
		return json_pack("{s:o}", "by_clients", by);
	/* one count: its summary, over the same runs, also at the top (the older shape) */
	one = json_array_get(by, 0);
	doc = json_pack("{s:O, s:O, s:O, s:O, s:o}", "throughput_mbps",
			json_object_get(one, "throughput_mbps"), "ops_per_s",
			json_object_get(one, "ops_per_s"), "cv_pct", json_object_get(one, "cv_pct"),
			"cv_warning", json_object_get(one, "cv_warning"), "by_clients", by);
	return doc;
}

size_t lg_utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned char lo = 0x80, hi = 0xBF;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xE0)
		lo = 0xA0;
	else if (s[0] == 0xED)
		hi = 0x9F;
	else if (s[0] == 0xF0)
		lo = 0x90;
	else if (s[0] == 0xF4)
		hi = 0x8F;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

bool lg_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; *p; p += n)
		if (!(n = lg_utf8_len(p)))
			return false;
	return true;
}

const char *lg_run_note_path(const struct lg_run *run, unsigned client, uint32_t path,
			     char *buf, size_t len)
{
	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (path == LG_NOTE_NO_PATH || !run->path_names || path >= run->npaths ||
	    lg_path_expand(run->path_names[path], client,
			   lg_peer_id(client, run->peer_shift, run->nclients), buf, len) < 0)
		buf[0] = '\0';
	return buf;
}

json_t *lg_skipped_json(const uint64_t skipped[LG_SKIP_REASONS])
{
	json_t *o = json_object();

	for (unsigned r = 0; o && r < LG_SKIP_REASONS; r++) {
		if (json_object_set_new(o, lg_skip_reason_name(r),
					json_integer((json_int_t)skipped[r]))) {
			json_decref(o);
			o = NULL;
		}
	}
	return o;
}

static const char *expect_name(int32_t expect)
{
	return expect == LG_EXPECT_ANY ? "any" : lg_errno_name(expect);
}

static const char *label(const struct lg_run *run, unsigned type)
{
	return run->type_names && type < run->ntypes && run->type_names[type]
		       ? run->type_names[type] : "?";
}

/* Strings from the workload may hold bytes that are not UTF-8 (result_json.c repairs
 * them); here a name jansson would refuse becomes JSON null rather than failing the file.
 * NULL only when out of memory: a valid name is never turned into null. */
static json_t *str_or_null(const char *s)
{
	return lg_utf8_valid(s) ? json_string(s) : json_null();
}

/* The buffers loadgen reads into and writes from are page-aligned: only the offset and
 * size can be wrong. */
const char *lg_error_note_hint(const struct lg_error_note *n, char *buf, size_t len)
{
	if (n->direct_align == 0)
		snprintf(buf, len, "%s", ""); /* no hint */
	else if (n->direct_align == LG_NOTE_ALIGN_UNKNOWN)
		snprintf(buf, len, "O_DIRECT: the offset and size must be multiples of the "
			 "device's logical block size");
	else
		snprintf(buf, len, "O_DIRECT: the offset and size must be multiples of %" PRIu32
			 " bytes", n->direct_align);
	return buf;
}

json_t *lg_error_note_json(const struct lg_run *run, unsigned client, const char *phase,
			   const struct lg_error_note *n)
{
	char path[4096], hint[128];

	lg_run_note_path(run, client, n->path, path, sizeof(path));
	lg_error_note_hint(n, hint, sizeof(hint));
	return json_pack("{s:I, s:s, s:I, s:o, s:o, s:s, s:s, s:o}",
			 "client", (json_int_t)client, "phase", phase, "line", (json_int_t)n->line,
			 "type", str_or_null(label(run, n->type)),
			 "path", path[0] ? str_or_null(path) : json_null(),
			 "got", lg_errno_name(n->got), "expected", expect_name(n->expect),
			 "hint", hint[0] ? json_string(hint) : json_null());
}

/* Append to a the note of client if set. 0 or -ENOMEM. */
static int add_not_open(json_t *a, const struct lg_run *run, unsigned client,
			const char *phase, const struct lg_skip_note *n)
{
	if (!n->set)
		return 0;
	return json_array_append_new(a, json_pack("{s:I, s:s, s:I, s:o, s:s, s:I}",
		"client", (json_int_t)client, "phase", phase, "line", (json_int_t)n->line,
		"type", str_or_null(label(run, n->type)),
		"slot_event", lg_slot_event_name(n->event),
		"slot_line", (json_int_t)n->slot_line)) ? -ENOMEM : 0;
}

json_t *lg_not_open_json(const struct lg_run *run)
{
	json_t *a = json_array();

	for (unsigned c = 0; a && run->clients && c < run->nclients; c++) {
		const struct lg_client_stats *cs = run->clients[c];
		int rc;

		if (!cs)
			continue;
		rc = add_not_open(a, run, cs->id, "run", &cs->not_open);
		for (unsigned p = 0; !rc && p < LG_UNTIMED_COUNT; p++)
			rc = add_not_open(a, run, cs->id, lg_untimed_name(p),
					  &cs->untimed[p].not_open);
		if (rc) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

/* One untimed phase over all clients. */
static json_t *phase_json(const struct lg_run *run, unsigned p)
{
	uint64_t errnos[LG_ERRNO_MAX] = { 0 };
	json_t *by = json_object(), *notes = json_array();

	for (unsigned c = 0; by && notes && run->clients && c < run->nclients; c++) {
		const struct lg_client_stats *cs = run->clients[c];

		for (int e = 0; cs && e < LG_ERRNO_MAX; e++)
			errnos[e] += cs->untimed[p].errnos[e];
		for (size_t k = 0; cs && k < cs->untimed[p].nnotes && k < LG_FIRST_ERRORS; k++)
			if (json_array_append_new(notes, lg_error_note_json(
				run, cs->id, lg_untimed_name(p), &cs->untimed[p].notes[k])))
				goto nomem;
	}
	for (int e = 0; by && e < LG_ERRNO_MAX; e++)
		if (errnos[e] && json_object_set_new(by, lg_errno_name(e),
						     json_integer((json_int_t)errnos[e])))
			goto nomem;
	return json_pack("{s:I, s:o, s:o, s:I, s:o}", "errors", (json_int_t)run->untimed_errors[p],
			 "errors_by_errno", by, "skipped", lg_skipped_json(run->untimed_skipped[p]),
			 "short_writes", (json_int_t)run->untimed_short[p], "error_notes", notes);
nomem:
	json_decref(by);
	json_decref(notes);
	return NULL;
}

json_t *lg_phases_json(const struct lg_run *run)
{
	json_t *o = json_object();

	for (unsigned p = 0; o && p < LG_UNTIMED_COUNT; p++) {
		if (json_object_set_new(o, lg_untimed_name(p), phase_json(run, p))) {
			json_decref(o);
			o = NULL;
		}
	}
	return o;
}

/* Append "; N what[ in phase]" (no "; " first) to f->text when n > 0. */
static void failure_item(struct lg_run_failures *f, uint64_t n, const char *what,
			 const char *phase)
{
	size_t len = strlen(f->text);

	if (!n || len + 1 >= sizeof(f->text))
		return;
	snprintf(f->text + len, sizeof(f->text) - len, "%s%" PRIu64 " %s%s%s",
		 len ? "; " : "", n, what, phase ? " in " : "", phase ? phase : "");
	f->count += n;
}

/* The errno most of errnos[] counts, or -1 when none. */
static int top_errno(const uint64_t errnos[LG_ERRNO_MAX])
{
	int top = -1;

	for (int e = 0; e < LG_ERRNO_MAX; e++)
		if (errnos[e] && (top < 0 || errnos[e] > errnos[top]))
			top = e;
	return top;
}

/* The first phase with a failure so far (f->count grew since before): remember it. */
static void failure_phase(struct lg_run_failures *f, uint64_t before, int phase,
			  const uint64_t errnos[LG_ERRNO_MAX])
{
	if (f->phase >= 0 || f->count == before)
		return;
	f->phase = phase;
	f->err = top_errno(errnos);
}

void lg_run_failures(const struct lg_run *run, struct lg_run_failures *f)
{
	uint64_t errnos[LG_ERRNO_MAX] = { 0 }, before = 0;

	memset(f, 0, sizeof(*f));
	f->phase = f->err = -1;
	for (size_t i = 0; run->totals && i < run->ntypes; i++)
		for (int e = 0; e < LG_ERRNO_MAX; e++)
			errnos[e] += run->totals[i].errnos[e];
	failure_item(f, run->errors, "unexpected results", NULL);
	failure_item(f, run->skipped[LG_SKIP_NOT_OPEN], "ops not executed (slot not open)",
		     NULL);
	failure_phase(f, before, LG_UNTIMED_COUNT, errnos);
	for (unsigned p = 0; p < LG_UNTIMED_COUNT; p++) {
		before = f->count;
		memset(errnos, 0, sizeof(errnos));
		for (unsigned c = 0; c < run->nclients && run->clients; c++)
			for (int e = 0; run->clients[c] && e < LG_ERRNO_MAX; e++)
				errnos[e] += run->clients[c]->untimed[p].errnos[e];
		failure_item(f, run->untimed_errors[p], "unexpected results", lg_untimed_name(p));
		failure_item(f, run->untimed_skipped[p][LG_SKIP_NOT_OPEN],
			     "ops not executed (slot not open)", lg_untimed_name(p));
		if (p == LG_UNTIMED_SETUP) /* setup's files are not what the workload says */
			failure_item(f, run->untimed_short[p], "short writes", lg_untimed_name(p));
		failure_phase(f, before, (int)p, errnos);
	}
	before = f->count;
	failure_item(f, run->corruptions, "corrupt blocks", NULL);
	failure_item(f, run->nlost, "client processes lost", NULL);
	memset(errnos, 0, sizeof(errnos));
	failure_phase(f, before, LG_UNTIMED_COUNT, errnos);
}

const char *lg_run_status_name(const struct lg_run *run)
{
	static const char *const names[] = {
		[LG_RUN_COMPLETE] = "complete",   [LG_RUN_INTERRUPTED] = "interrupted",
		[LG_RUN_PARTIAL] = "partial",     [LG_RUN_ABORTED] = "aborted",
		[LG_RUN_FAILED] = "failed",
	};
	struct lg_run_failures f;

	if ((unsigned)run->status >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	if (run->status != LG_RUN_COMPLETE)
		return names[run->status];
	lg_run_failures(run, &f);
	return f.count ? "failed" : "complete";
}

/* Why a run failed: a setup that could not go on says so itself (run->failure); a run
 * that ran to its end with failures gets the same words as its FAILURE line. */
json_t *lg_failure_json(const struct lg_run *run)
{
	struct lg_run_failures f;
	const char *phase;

	lg_run_failures(run, &f);
	if (run->status == LG_RUN_FAILED)
		return json_pack("{s:s, s:o, s:I, s:o}",
				 "phase", lg_untimed_name((unsigned)run->failure_phase),
				 "errno", run->failure_errno ? json_string(lg_errno_name(
							     run->failure_errno)) : json_null(),
				 "count", (json_int_t)f.count,
				 "message", str_or_null(run->failure ? run->failure
								     : "the run failed"));
	if (!f.count)
		return json_null();
	phase = f.phase == LG_UNTIMED_COUNT ? "run" : lg_untimed_name((unsigned)f.phase);
	return json_pack("{s:s, s:o, s:I, s:s}", "phase", phase,
			 "errno", f.err < 0 ? json_null() : json_string(lg_errno_name(f.err)),
			 "count", (json_int_t)f.count, "message", f.text);
}
