/* The result file, schema "loadgen-result/1".
 *
 * Each part of the document has a small builder returning a new reference or NULL.
 * They are combined with json_pack, which takes over ("steals") every "o" value even
 * when it fails, so one NULL anywhere makes the whole build fail without leaking the
 * rest. Counts are JSON integers; rates, durations and means are reals. Strings from
 * outside (argv, paths, labels, parameters) are repaired to valid UTF-8 first, because
 * jansson refuses anything else and one odd byte must not cost the user the results.
 * Keys keep insertion order (jansson >= 2.8), so files read in a stable order. */
#include "loadgen/output/result_json.h"
#include "loadgen/model/errf.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loadgen/counters/ranks.h"
#include "loadgen/env/sysinfo.h"
#include "counters/bphases.h"
#include "counters/result_summary.h"

#ifndef LOADGEN_VERSION
#define LOADGEN_VERSION "0.0.0"
#endif

#define SCHEMA "loadgen-result/1"

#define I(x) ((json_int_t)(x)) /* json_pack "I" takes json_int_t; uint64 counts fit */

/* json_real refuses NaN and infinities; a rate over a zero-length interval must not
 * fail the whole document. */
static double fin(double x)
{
	return isfinite(x) ? x : 0.0;
}

static double per_s(double x, double secs)
{
	return secs > 0 ? fin(x / secs) : 0.0;
}

/* A JSON string of s with each invalid byte replaced by U+FFFD; JSON null for NULL.
 * NULL only when out of memory. */
static json_t *jstr(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *buf, *o;
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	o = buf = malloc(3 * strlen(s) + 1); /* each bad byte grows to 3 */
	if (!buf)
		return NULL;
	while (*p) {
		size_t n = lg_utf8_len(p);

		if (n) {
			memcpy(o, p, n);
			o += n;
			p += n;
		} else {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			p++;
		}
	}
	*o = '\0';
	j = json_string(buf);
	free(buf);
	return j;
}

/* obj[key] = v, with key repaired like jstr. Takes v. 0 or -ENOMEM. */
static int put(json_t *obj, const char *key, json_t *v)
{
	json_t *k = jstr(key ? key : "?");
	int rc = -ENOMEM;

	if (k && v && json_object_set_new(obj, json_string_value(k), v) == 0)
		rc = 0;
	else if (!k)
		json_decref(v);
	json_decref(k);
	return rc;
}

static const char *type_label(const struct lg_run *run, size_t i)
{
	return run->type_names && i < run->ntypes && run->type_names[i] ? run->type_names[i]
									 : "?";
}

static json_t *latency_json(const struct lg_histogram *h)
{
	return json_pack("{s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "min", I(lg_histogram_percentile(h, 0)),
			 "mean", fin(lg_histogram_mean(h)),
			 "p50", I(lg_histogram_percentile(h, 50)),
			 "p90", I(lg_histogram_percentile(h, 90)),
			 "p99", I(lg_histogram_percentile(h, 99)),
			 "p999", I(lg_histogram_percentile(h, 99.9)),
			 "p9999", I(lg_histogram_percentile(h, 99.99)),
			 "max", I(lg_histogram_percentile(h, 100)));
}

/* Non-empty buckets as [low_ns, high_ns, count]. The top bucket also holds values past
 * the range, so its high end is stretched to the true maximum. */
static json_t *histogram_json(const struct lg_histogram *h)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < LG_HIST_BUCKETS; i++) {
		uint64_t low, high;

		if (!h->buckets[i])
			continue;
		lg_histogram_bucket_bounds(i, &low, &high);
		if (i == LG_HIST_BUCKETS - 1 && h->max_ns > high)
			high = h->max_ns;
		if (json_array_append_new(a, json_pack("[I, I, I]", I(low), I(high),
							 I(h->buckets[i]))) != 0) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

static json_t *errnos_json(const struct lg_type_stats *t)
{
	json_t *o = json_object();

	for (int e = 0; o && e < LG_ERRNO_MAX; e++) {
		if (t->errnos[e] && put(o, lg_errno_name(e), json_integer(I(t->errnos[e])))) {
			json_decref(o);
			o = NULL;
		}
	}
	return o;
}

/* One op type; svc (may be NULL) adds the service time of a rate-limited run, whose
 * latency_ns counts from each op's intended start. "corruptions" and "service_ns" are
 * left out when there is nothing to say, never because they could not be built. */
static json_t *type_json(const struct lg_type_stats *t, const struct lg_histogram *svc)
{
	json_t *corrupt = NULL, *service = NULL;
	uint64_t skipped = 0;

	for (unsigned r = 0; r < LG_SKIP_REASONS; r++)
		skipped += t->skipped[r];
	if ((t->corruptions && !(corrupt = json_integer(I(t->corruptions)))) ||
	    (svc && !(service = latency_json(svc)))) {
		json_decref(corrupt);
		return NULL;
	}
	return json_pack("{s:I, s:I, s:I, s:o, s:I, s:o*, s:I, s:I, s:I, s:o, s:o, s:o, s:o*}",
			 "count", I(t->count),
			 "errors", I(t->errors),
			 "skipped", I(skipped),
			 "skipped_by_reason", lg_skipped_json(t->skipped),
			 "short_writes", I(t->short_writes),
			 "corruptions", corrupt,
			 "bytes", I(t->bytes_read + t->bytes_written),
			 "bytes_read", I(t->bytes_read),
			 "bytes_written", I(t->bytes_written),
			 "errors_by_errno", errnos_json(t),
			 "latency_ns", latency_json(&t->hist),
			 "histogram", histogram_json(&t->hist),
			 "service_ns", service);
}

static json_t *types_json(const struct lg_run *run)
{
	json_t *o = json_object();

	for (size_t i = 0; o && run->totals && i < run->ntypes; i++) {
		const struct lg_type_stats *t = &run->totals[i];

		const struct lg_histogram *svc = run->svc_totals ? &run->svc_totals[i] : NULL;

		bool skipped = false;

		for (unsigned r = 0; r < LG_SKIP_REASONS; r++)
			skipped = skipped || t->skipped[r];
		if ((t->count || t->errors || skipped) &&
		    put(o, type_label(run, i), type_json(t, svc))) {
			json_decref(o);
			o = NULL;
		}
	}
	return o;
}

static json_t *row_latency_json(const struct lg_client_row *r)
{
	return json_pack("{s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "min", I(r->min_ns),
			 "mean", fin(r->mean_ns),
			 "p50", I(r->p50_ns),
			 "p90", I(r->p90_ns),
			 "p99", I(r->p99_ns),
			 "p999", I(r->p999_ns),
			 "p9999", I(r->p9999_ns),
			 "max", I(r->max_ns));
}

/* --per-client all: the client's overall histogram and each of its rows with theirs,
 * so that anyone can merge the clients again and check the totals bucket by bucket. */
static int client_histograms(json_t *j, const struct lg_run *run,
			     const struct lg_client_stats *cs)
{
	struct lg_histogram *h = malloc(sizeof(*h)); /* ~20 KiB: not on the stack */
	json_t *types = json_object();

	if (!h || !types) {
		free(h);
		json_decref(types);
		return -ENOMEM;
	}
	lg_client_stats_sum(cs, h, NULL, NULL);
	for (size_t i = 0; i < cs->ntypes && i < run->ntypes; i++) {
		const struct lg_type_stats *t = &cs->types[i];

		json_t *row;

		if (!t->count && !t->errors)
			continue;
		row = json_pack("{s:I, s:I, s:I, s:I}", "count", I(t->count), "errors",
				I(t->errors), "bytes_read", I(t->bytes_read), "bytes_written",
				I(t->bytes_written));
		/* one value at a time: set_new and put take row and histogram even when they
		 * fail, json_pack with a NULL "o" would not say what it freed */
		if (row && json_object_set_new(row, "histogram", histogram_json(&t->hist))) {
			json_decref(row);
			row = NULL;
		}
		if (put(types, type_label(run, i), row)) {
			free(h);
			json_decref(types);
			return -ENOMEM;
		}
	}
	if (json_object_set_new(j, "histogram", histogram_json(h))) {
		free(h);
		json_decref(types);
		return -ENOMEM;
	}
	free(h);
	return json_object_set_new(j, "types", types) ? -ENOMEM : 0; /* takes types */
}

static json_t *client_json(const struct lg_run *run, const struct lg_client_stats *cs,
			   double secs)
{
	const struct lg_client_row *r = &cs->row;
	json_t *j;

	j = json_pack("{s:I, s:I, s:I, s:I, s:I, s:f, s:o, s:o}",
		      "id", I(cs->id),
		      "ops", I(r->ops),
		      "errors", I(r->errors),
		      "skipped", I(r->skipped),
		      "bytes", I(r->bytes),
		      "throughput_mbps", per_s((double)r->bytes / 1e6, secs),
		      "latency_ns", row_latency_json(r),
		      "barrier_phases", lg_client_bphases_json(run, cs));
	if (j && run->per_client == LG_PER_CLIENT_ALL && cs->ntypes && client_histograms(j, run, cs)) {
		json_decref(j);
		j = NULL;
	}
	return j;
}

static json_t *clients_json(const struct lg_run *run)
{
	json_t *a = json_array();

	for (unsigned c = 0; a && run->clients && c < run->nclients; c++) {
		if (!run->clients[c])
			continue;
		if (json_array_append_new(a, client_json(run, run->clients[c], run->duration_s))) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

static json_t *timeline_json(const struct lg_run *run)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < run->ntimeline; i++) {
		const struct lg_interval *iv = &run->timeline[i];

		if (json_array_append_new(a, json_pack("{s:f, s:f, s:I, s:I, s:I, s:I, s:f, s:f, s:f}",
			"t_s", fin(iv->t_s), "len_s", fin(iv->len_s), "ops", I(iv->ops),
			"bytes", I(iv->bytes), "bytes_read", I(iv->bytes_read),
			"bytes_written", I(iv->bytes_written), "mbps", fin(iv->mbps),
			"p99_ms", (double)iv->p99_ns / 1e6,
			"max_latency_ms", (double)iv->max_latency_ns / 1e6))) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

static json_t *notes_json(const struct lg_run *run)
{
	json_t *a = json_array();

	for (unsigned c = 0; a && run->clients && c < run->nclients; c++) {
		const struct lg_client_stats *cs = run->clients[c];

		for (size_t k = 0; a && cs && k < cs->nnotes && k < LG_FIRST_ERRORS; k++) {
			if (json_array_append_new(a, lg_error_note_json(run, cs->id, "run",
									&cs->notes[k]))) {
				json_decref(a);
				a = NULL;
			}
		}
	}
	return a;
}

/* Client processes that died: which, and how. */
static json_t *lost_json(const struct lg_run *run)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < run->nlost; i++) {
		const struct lg_lost *l = &run->lost[i];
		const char *abbrev = l->signal ? sigabbrev_np(l->signal) : NULL;
		char sig[32];
		json_t *o;

		snprintf(sig, sizeof(sig), "SIG%s", abbrev ? abbrev : "?");
		o = json_pack("{s:I, s:o, s:o}", "client", I(l->client),
			      "signal", l->signal ? json_string(sig) : json_null(),
			      "exit_status", l->signal ? json_null() : json_integer(l->exit_status));

		if (json_array_append_new(a, o)) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

/* Ranks lost during the run: which, on which host, and after which interval. */
static json_t *lost_ranks_json(const struct lg_run *run)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < run->nlost_ranks; i++) {
		const struct lg_lost_rank *l = &run->lost_ranks[i];

		if (json_array_append_new(a, json_pack("{s:I, s:s, s:o}", "rank", I(l->rank),
						       "host", l->host, "time_s", l->time_s >= 0
						       ? json_real(l->time_s) : json_null()))) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

/* The figures a run with a lost rank does not have (its keys null or empty): what only
 * the end-of-run merge of every rank's clients gives. */
static json_t *missing_json(const struct lg_run *run)
{
	static const char *const keys[] = { "latency_ns", "ops_by_type", "clients", "errors",
					    "error_notes", "fairness", "hosts", "sys_summary" };
	json_t *a = json_array();

	for (size_t i = 0; a && run->nlost_ranks && i < sizeof(keys) / sizeof(keys[0]); i++)
		json_array_append_new(a, json_string(keys[i]));
	return a;
}

/* A run with a lost rank: the figures it does not have are null (missing_json). */
static json_t *lost_run(json_t *o, const struct lg_run *run)
{
	if (!o || !run->nlost_ranks)
		return o;
	if (json_object_set_new(o, "latency_ns", json_null()) ||
	    json_object_set_new(o, "errors", json_null()) ||
	    json_object_set_new(o, "fairness", json_null())) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *run_json(const struct lg_run *run)
{
	double secs = run->duration_s, bytes = (double)(run->bytes_read + run->bytes_written);
	uint64_t skipped = 0;

	for (unsigned r = 0; r < LG_SKIP_REASONS; r++)
		skipped += run->skipped[r];
	return lost_run(json_pack("{s:s, s:o, s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:o, s:I,"
			 " s:f, s:f, s:f, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "status", lg_run_status_name(run),
			 "failure", lg_failure_json(run),
			 "duration_s", fin(secs),
			 "end_sync_s", fin(run->end_sync_s),
			 "buffered_throughput_mbps",
			 per_s(bytes / 1e6, secs - run->end_sync_s),
			 "bytes_read", I(run->bytes_read),
			 "bytes_written", I(run->bytes_written),
			 "ops", I(run->ops),
			 "errors", I(run->errors),
			 "skipped", I(skipped),
			 "skipped_by_reason", lg_skipped_json(run->skipped),
			 "short_writes", I(run->short_writes),
			 "throughput_mbps",
			 per_s((double)(run->bytes_read + run->bytes_written) / 1e6, secs),
			 "ops_per_s", per_s((double)run->ops, secs),
			 "max_latency_ms", (double)run->all.max_ns / 1e6,
			 "corruptions", I(run->corruptions),
			 "verified_bytes", I(run->verified_bytes),
			 "peer_verified_bytes", I(run->peer_verified_bytes),
			 "corruption_notes", lg_corruption_notes_json(run),
			 "latency_ns", latency_json(&run->all),
			 "ops_by_type", types_json(run),
			 "clients", clients_json(run),
			 "timeline", timeline_json(run),
			 "stalls", lg_stalls_json(run),
			 "fairness", lg_fairness_json(run),
			 "error_notes", notes_json(run),
			 "not_open_notes", lg_not_open_json(run),
			 "phases", lg_phases_json(run),
			 "barrier_phases", lg_bphases_json(run),
			 "cleanup_left", run->cleanup_left >= 0 ? json_integer(I(run->cleanup_left))
								 : json_null(),
			 "lost_clients", lost_json(run),
			 "lost_ranks", lost_ranks_json(run),
			 "missing", missing_json(run)), run);
}

static json_t *params_json(const struct lg_workload *wl)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < wl->nparams; i++) {
		if (put(o, wl->params[i].name, jstr(wl->params[i].value))) {
			json_decref(o);
			o = NULL;
		}
	}
	return o;
}

static json_t *workload_json(const struct lg_workload *wl)
{
	if (!wl)
		return json_null();
	return json_pack("{s:o, s:o, s:s, s:o}", "name", jstr(wl->name), "source",
			 jstr(wl->source), "sha256", wl->sha256, "params", params_json(wl));
}

static json_t *command_json(const struct lg_config *cfg)
{
	json_t *a = json_array();

	for (int i = 0; a && i < cfg->argc && cfg->argv; i++) {
		if (json_array_append_new(a, jstr(cfg->argv[i]))) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

/* The seed goes out as its two's-complement json_int_t: a reader casting back to
 * uint64 gets it exactly, even above INT64_MAX. */
static json_t *config_json(const struct lg_config *cfg)
{
	return json_pack("{s:I, s:o, s:f, s:f, s:b, s:o, s:I, s:f, s:b, s:b, s:b, s:b, s:b, s:b,"
			 " s:b, s:I, s:f, s:f, s:s, s:o}",
			 "clients", I(cfg->clients),
			 "mode", jstr(cfg->mode),
			 "time_s", fin(cfg->time_s),
			 "warmup_s", cfg->run_once ? 0.0 : fin(cfg->warmup_s),
			 "run_once", (int)cfg->run_once,
			 "directory", jstr(cfg->directory),
			 "seed", I(cfg->seed),
			 "rate_mbps", fin(cfg->rate_mbps),
			 "sync_open", (int)cfg->sync_open,
			 "sync_dirs", (int)cfg->sync_dirs,
			 "fsync_writes", (int)cfg->fsync_writes,
			 "direct", (int)cfg->direct,
			 "end_sync", (int)cfg->end_sync,
			 "drop_caches", (int)cfg->drop_caches,
			 "verify", (int)cfg->verify,
			 "repeat", I(cfg->repeat),
			 "interval_s", fin(cfg->interval_s),
			 "stall_threshold_s", fin(cfg->stall_threshold_s),
			 "resolve", lg_resolve_names[cfg->resolve],
			 /* a recorded program's think time: what --replay-timing said (afap
			    without it); null: the workload has no streams */
			 "replay_timing", cfg->replay_timing ? jstr(cfg->replay_timing)
				 : cfg->streams ? json_string("afap") : json_null());
}

/* What sweeps, --repeat auto and --rate-ops add: each run's client count, the counts
 * of the sweep, the repeat rule and the ops rate. 0 or -ENOMEM. */
static int add_sweep_keys(json_t *doc, const struct lg_config *cfg, const struct lg_run *runs,
			  size_t nruns)
{
	json_t *config = json_object_get(doc, "config"), *counts = json_array();
	json_t *a = json_object_get(doc, "runs");
	int rc = counts ? 0 : -1;

	for (size_t i = 0; rc == 0 && i < nruns; i++)
		rc = json_object_set_new(json_array_get(a, i), "client_count",
					 json_integer(I(runs[i].nclients)));
	for (size_t i = 0; rc == 0 && i < cfg->nsweep; i++)
		rc = json_array_append_new(counts, json_integer(I(cfg->sweep[i])));
	if (rc == 0 && cfg->nsweep > 1)
		rc = json_object_set(config, "client_counts", counts);
	json_decref(counts);
	if (rc == 0)
		rc = json_object_set_new(config, "rate_ops", json_real(fin(cfg->rate_ops)));
	if (rc == 0 && cfg->repeat_rule.is_auto)
		rc = json_object_set_new(config, "repeat_auto",
					 json_pack("{s:f, s:I, s:I}", "ci_pct", cfg->repeat_rule.pct,
						   "min", I(LG_REPEAT_AUTO_MIN), "max",
						   I(cfg->repeat_rule.max)));
	return rc ? -ENOMEM : 0;
}

json_t *lg_result_json_build(const struct lg_config *cfg, const struct lg_workload *wl,
			     const struct lg_run *runs, size_t nruns)
{
	json_t *doc, *summary;
	json_t *env = NULL, *a = json_array();

	for (size_t i = 0; a && i < nruns; i++) {
		if (json_array_append_new(a, run_json(&runs[i]))) {
			json_decref(a);
			a = NULL;
		}
	}
	if (cfg->env)
		env = json_incref(cfg->env);
	else if (lg_sysinfo_json(cfg->directory, cfg->argc, cfg->argv, NULL, &env) != 0)
		env = NULL;
	summary = lg_summary_json(runs, nruns); /* NULL without runs: no "summary" then */
	doc = json_pack("{s:s, s:{s:s}, s:o, s:o, s:o, s:o, s:o, s:o*}",
			 "schema", SCHEMA,
			 "loadgen", "version", LOADGEN_VERSION,
			 "command", command_json(cfg),
			 "env", env,
			 "workload", workload_json(wl),
			 "config", config_json(cfg),
			 "runs", a,
			 "summary", summary);
	/* with runs, no summary means it could not be built: no document rather than one
	 * silently without it */
	if (doc && ((nruns && !summary) || add_sweep_keys(doc, cfg, runs, nruns))) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
