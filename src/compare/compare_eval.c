/* Evaluation behind `loadgen compare`: load and check result files, decide verdicts
 * (setup differences: compare_diffs.c; merged latency histograms: compare_latency.c).
 *
 * Files are checked completely when loaded (every run's numbers, every histogram
 * entry), so a malformed file is refused up front with the path of the bad value, and
 * the later steps can read the document without checking again. */
#include "loadgen/compare/compare.h"
#include "loadgen/model/errf.h"
#include "loadgen/env/runlog.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
		return lg_errf(err, errlen, -EINVAL, "%s: runs[%zu].ops_by_type.%s: not an object",
			    f->path, r, label);
	if (lat && !json_is_object(lat))
		return lg_errf(err, errlen, -EINVAL,
			    "%s: runs[%zu].ops_by_type.%s.latency_ns: not an object", f->path, r,
			    label);
	for (i = 0; lat && i < sizeof(lat_keys) / sizeof(lat_keys[0]); i++) {
		const json_t *x = json_object_get(lat, lat_keys[i]);

		if (x && !get_count(x, &v))
			return lg_errf(err, errlen, -EINVAL,
				    "%s: runs[%zu].ops_by_type.%s.latency_ns.%s: not a"
				    " non-negative integer", f->path, r, label, lat_keys[i]);
	}
	if (h && !json_is_array(h))
		return lg_errf(err, errlen, -EINVAL,
			    "%s: runs[%zu].ops_by_type.%s.histogram: not an array", f->path, r,
			    label);
	for (i = 0; h && i < json_array_size(h); i++) {
		if (!bucket_ok(json_array_get(h, i)))
			return lg_errf(err, errlen, -EINVAL,
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
		return lg_errf(err, errlen, -EINVAL, "%s: runs[%zu].%s: %s", f->path, r, key,
			    j ? "not a non-negative number" : "missing");
	*out = v;
	return 0;
}

static int check_run(struct lg_cmp_file *f, size_t r, char *err, size_t errlen)
{
	const json_t *run = json_array_get(f->runs, r), *types, *t, *cc;
	const char *label;
	int rc;

	if (!json_is_object(run))
		return lg_errf(err, errlen, -EINVAL, "%s: runs[%zu]: not an object", f->path, r);
	rc = get_rate(f, r, run, "throughput_mbps", &f->mbps[r], err, errlen);
	if (rc == 0)
		rc = get_rate(f, r, run, "ops_per_s", &f->ops[r], err, errlen);
	if (rc)
		return rc;
	/* runs are grouped by it: a wrong one would move the run to another count silently */
	cc = json_object_get(run, "client_count");
	if (cc && !(json_is_integer(cc) && json_integer_value(cc) >= 1 &&
		    json_integer_value(cc) <= UINT_MAX))
		return lg_errf(err, errlen, -EINVAL, "%s: runs[%zu].client_count: not a client "
			       "count (a whole number from 1)", f->path, r);
	types = json_object_get(run, "ops_by_type");
	if (types && !json_is_object(types))
		return lg_errf(err, errlen, -EINVAL, "%s: runs[%zu].ops_by_type: not an object",
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
		return lg_errf(err, errlen, -EINVAL,
			    "%s: not a loadgen result (the top level is not an object)", f->path);
	schema = json_object_get(f->doc, "schema");
	if (!json_is_string(schema))
		return lg_errf(err, errlen, -EINVAL, "%s: no \"schema\": not a loadgen result",
			    f->path);
	if (strcmp(json_string_value(schema), LG_RESULT_SCHEMA) != 0)
		return lg_errf(err, errlen, -EINVAL, "%s: unknown schema \"%s\" (expected \"%s\")",
			    f->path, json_string_value(schema), LG_RESULT_SCHEMA);
	f->runs = json_object_get(f->doc, "runs");
	if (!f->runs)
		return lg_errf(err, errlen, -EINVAL, "%s: no \"runs\" in the result", f->path);
	if (!json_is_array(f->runs))
		return lg_errf(err, errlen, -EINVAL, "%s: \"runs\" is not an array", f->path);
	if (json_array_size(f->runs) == 0)
		return lg_errf(err, errlen, -EINVAL, "%s: \"runs\" is empty: nothing to compare",
			    f->path);
	return 0;
}

/* The client count of run r: its "client_count", else the length of its per-client
 * rows, else the file's config.clients; 0 when none says. */
static unsigned run_clients(const struct lg_cmp_file *f, size_t r)
{
	const json_t *run = json_array_get(f->runs, r), *j = json_object_get(run, "client_count");
	uint64_t v;

	if (get_count(j, &v))
		return (unsigned)v;
	if (json_is_array(json_object_get(run, "clients")))
		return (unsigned)json_array_size(json_object_get(run, "clients"));
	if (get_count(json_object_get(json_object_get(f->doc, "config"), "clients"), &v))
		return (unsigned)v;
	return 0;
}

static int cmp_unsigned(const void *pa, const void *pb)
{
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;

	return a < b ? -1 : a > b;
}

/* Fill group g with the runs of f that have count c (per-run counts in cnt). */
static int fill_group(struct lg_cmp_file *f, const unsigned *cnt, unsigned c,
		      struct lg_cmp_group *g)
{
	size_t k = 0;

	for (size_t r = 0; r < f->nruns; r++)
		g->n += cnt[r] == c;
	g->clients = c;
	g->runs = calloc(g->n, sizeof(*g->runs));
	g->mbps = calloc(g->n, sizeof(*g->mbps));
	g->ops = calloc(g->n, sizeof(*g->ops));
	if (!g->runs || !g->mbps || !g->ops)
		return -ENOMEM;
	for (size_t r = 0; r < f->nruns; r++) {
		if (cnt[r] != c)
			continue;
		g->runs[k] = r;
		g->mbps[k] = f->mbps[r];
		g->ops[k++] = f->ops[r];
	}
	return 0;
}

/* Group the runs by client count, in ascending count. 0 or -ENOMEM. */
static int make_groups(struct lg_cmp_file *f)
{
	unsigned *cnt = calloc(f->nruns, sizeof(*cnt)), *sorted = calloc(f->nruns, sizeof(*cnt));
	size_t i, k = 0;
	int rc = -ENOMEM;

	if (!cnt || !sorted)
		goto out;
	for (i = 0; i < f->nruns; i++)
		cnt[i] = sorted[i] = run_clients(f, i);
	qsort(sorted, f->nruns, sizeof(*sorted), cmp_unsigned);
	f->groups = calloc(f->nruns, sizeof(*f->groups));
	if (!f->groups)
		goto out;
	for (i = 0; i < f->nruns; i++) {
		if (i > 0 && sorted[i] == sorted[i - 1])
			continue;
		rc = fill_group(f, cnt, sorted[i], &f->groups[k++]);
		f->ngroups = k;
		if (rc)
			goto out;
	}
	rc = 0;
out:
	free(cnt);
	free(sorted);
	return rc;
}

/* A run "failed" for errors in its measured phase (or in cleanup) did measure; a result
 * without a duration goes by its status. */
bool lg_cmp_run_measured_nothing(const json_t *run)
{
	const char *st = json_string_value(json_object_get(run, "status"));
	const json_t *d = json_object_get(run, "duration_s");

	if (json_is_number(d))
		return !(json_number_value(d) > 0);
	return st && strcmp(st, "failed") == 0;
}

/* Leave out the runs that measured nothing (lg_cmp_run_measured_nothing): their 0 MB/s
 * would read as a slowdown. f->runs becomes an array of the others, with f->mbps and
 * f->ops compacted alike; f->nfailed counts what was left out. Runs were
 * checked before, so messages name their index in the file. */
static int drop_failed(struct lg_cmp_file *f, char *err, size_t errlen)
{
	json_t *kept = json_array(), *run;
	size_t r, n = 0;

	if (!kept)
		return lg_errf(err, errlen, -ENOMEM, "%s: %s", f->path, strerror(ENOMEM));
	json_array_foreach(f->runs, r, run) {
		if (lg_cmp_run_measured_nothing(run)) {
			f->nfailed++;
			continue;
		}
		if (json_array_append(kept, run)) {
			json_decref(kept);
			return lg_errf(err, errlen, -ENOMEM, "%s: %s", f->path, strerror(ENOMEM));
		}
		f->mbps[n] = f->mbps[r];
		f->ops[n++] = f->ops[r];
	}
	json_decref(f->runs);
	f->runs = kept;
	f->nruns = n;
	if (n == 0) /* -ENODATA: a sound result all the same (loadgen report shows it) */
		return lg_errf(err, errlen, -ENODATA,
			    "%s: every run failed in its setup or was interrupted before measuring:"
			    " nothing was measured", f->path);
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
	if (rc) {
		out->runs = NULL; /* not owned yet */
		goto fail;
	}
	json_incref(out->runs);
	out->nruns = json_array_size(out->runs);
	out->mbps = calloc(out->nruns, sizeof(double));
	out->ops = calloc(out->nruns, sizeof(double));
	if (!out->mbps || !out->ops) {
		rc = lg_errf(err, errlen, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
		goto fail;
	}
	for (size_t r = 0; r < out->nruns; r++) {
		rc = check_run(out, r, err, errlen);
		if (rc)
			goto fail;
	}
	rc = drop_failed(out, err, errlen);
	if (rc)
		goto fail;
	rc = make_groups(out);
	if (rc == 0)
		rc = lg_cmp_file_set_batches(out);
	if (rc) {
		lg_errf(err, errlen, rc, "%s: %s", path, strerror(-rc));
		goto fail;
	}
	return 0;
fail:
	lg_cmp_file_release(out);
	return rc;
}

int lg_cmp_file_load(const char *path, struct lg_cmp_file *out, char *err, size_t errlen)
{
	json_t *doc;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = lg_cmp_doc_load(path, &doc, err, errlen);
	return rc ? rc : lg_cmp_file_init(path, doc, out, err, errlen);
}

int lg_cmp_doc_load(const char *path, json_t **out, char *err, size_t errlen)
{
	json_error_t je;
	struct stat st;
	json_t *doc;
	FILE *f;

	*out = NULL;
	f = fopen(path, "r");
	if (!f)
		return lg_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	/* fopen opens directories for reading; only the first read would fail */
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return lg_errf(err, errlen, -EISDIR, "%s: %s", path, strerror(EISDIR));
	}
	if (lg_runlog_is_log(f)) {
		fclose(f);
		return lg_cmp_log_load(path, out, err, errlen);
	}
	doc = json_loadf(f, 0, &je);
	fclose(f);
	if (!doc) {
		/* jansson counts columns from 1, but says 0 before the first character */
		if (je.line > 0)
			return lg_errf(err, errlen, -EINVAL, "%s:%d:%d: %s", path, je.line,
				    je.column > 0 ? je.column : 1, je.text);
		return lg_errf(err, errlen, -EINVAL, "%s: %s", path, je.text);
	}
	*out = doc;
	return 0;
}

void lg_cmp_file_release(struct lg_cmp_file *f)
{
	if (!f)
		return;
	json_decref(f->runs);
	json_decref(f->doc);
	free(f->mbps);
	free(f->ops);
	for (size_t i = 0; i < f->ngroups; i++) {
		free(f->groups[i].runs);
		free(f->groups[i].mbps);
		free(f->groups[i].ops);
		free(f->groups[i].boff);
		free(f->groups[i].bmbps);
		free(f->groups[i].bops);
	}
	free(f->own_path);
	free(f->groups);
	memset(f, 0, sizeof(*f));
}

/* --- Decisions --- */

/* What the data could have seen: the minimum detectable effect, and the runs per side
 * that would detect the change worth knowing about (target_pct). */
static void power_of(struct lg_cmp_metric_result *m, double alpha)
{
	double sa = m->base.stddev, sb = m->other.stddev, base = fabs(m->base.mean);

	m->mde_pct = base > 0 ? 100.0 * lg_stat_mde(sa, m->base.n, sb, m->other.n, alpha,
						     LG_COMPARE_POWER) / base
			      : NAN;
	m->runs_needed = base > 0 ? lg_stat_runs_needed(m->target_pct / 100.0 * base, sa, sb,
							alpha, LG_COMPARE_POWER,
							LG_COMPARE_MAX_RUNS)
				  : 0;
}

static void compare_metric(const double *base, size_t nbase, const double *other,
			   size_t nother, const struct lg_cmp_opts *opts,
			   struct lg_cmp_metric_result *m)
{
	memset(m, 0, sizeof(*m));
	/* cannot fail: n >= 1 and every value was checked finite on load */
	(void)lg_stat_summarize(base, nbase, &m->base);
	(void)lg_stat_summarize(other, nother, &m->other);
	m->change_pct = m->base.mean != 0 ? 100.0 * (m->other.mean - m->base.mean) / m->base.mean
					  : NAN;
	m->tested = lg_stat_welch_summary(&m->other, &m->base, &m->welch) == 0;
	m->effect_g = lg_stat_hedges_g(&m->base, &m->other);
	m->mde_pct = NAN;
	m->target_pct = opts->min_effect_pct > 0 ? opts->min_effect_pct : LG_COMPARE_TARGET_PCT;
	if (!m->tested)
		return;
	(void)lg_stat_mann_whitney(other, nother, base, nbase, &m->mwu);
	power_of(m, opts->alpha);
}

bool lg_cmp_metric_significant(const struct lg_cmp_metric_result *m,
			       const struct lg_cmp_opts *opts)
{
	/* from a zero baseline any change is infinitely large */
	double effect = isnan(m->change_pct) ? INFINITY : fabs(m->change_pct);

	return m->tested && m->welch.p < opts->alpha && effect >= opts->min_effect_pct;
}

bool lg_cmp_metric_rank_disagrees(const struct lg_cmp_metric_result *m, double alpha)
{
	bool welch = m->welch.p < alpha, rank = m->mwu.p < alpha;

	return m->tested && m->mwu.min_p < alpha && welch != rank &&
	       m->welch.kind == LG_WELCH_OK;
}

/* Where Welch's test and the rank test part ways: said, not settled by picking one. */
static void check_rank(struct lg_cmp_result *out, double alpha)
{
	const struct lg_cmp_metric_result *m = &out->metric[out->decided_by];

	out->rank_too_few = !(m->mwu.min_p < alpha);
	out->rank_disagrees = lg_cmp_metric_rank_disagrees(m, alpha);
}

static void decide(const double *bm, const double *bo, size_t nb, const double *om,
		   const double *oo, size_t no, const struct lg_cmp_opts *opts,
		   struct lg_cmp_result *out)
{
	const struct lg_cmp_metric_result *m;

	memset(out, 0, sizeof(*out));
	compare_metric(bm, nb, om, no, opts, &out->metric[LG_CMP_MBPS]);
	compare_metric(bo, nb, oo, no, opts, &out->metric[LG_CMP_OPS]);
	/* A workload that moves no data (create/stat/unlink) has 0 MB/s in every run:
	 * its throughput is what it does per second. */
	m = &out->metric[LG_CMP_MBPS];
	out->decided_by = m->base.mean == 0 && m->other.mean == 0 ? LG_CMP_OPS : LG_CMP_MBPS;
	m = &out->metric[out->decided_by];
	lg_cmp_drift_of(out->decided_by == LG_CMP_OPS ? bo : bm, nb, opts->alpha, &out->drift[0]);
	lg_cmp_drift_of(out->decided_by == LG_CMP_OPS ? oo : om, no, opts->alpha, &out->drift[1]);
	if (!m->tested) {
		out->verdict = LG_VERDICT_NONE;
		return;
	}
	check_rank(out, opts->alpha);
	if (!(m->welch.p < opts->alpha)) {
		out->verdict = LG_VERDICT_SAME;
		return;
	}
	if (!lg_cmp_metric_significant(m, opts)) { /* p < alpha, but below min_effect_pct */
		out->verdict = LG_VERDICT_SAME;
		out->below_min_effect = true;
		return;
	}
	out->verdict = m->other.mean > m->base.mean ? LG_VERDICT_FASTER : LG_VERDICT_SLOWER;
}

void lg_cmp_decide(const struct lg_cmp_file *base, const struct lg_cmp_file *other,
		   const struct lg_cmp_opts *opts, struct lg_cmp_result *out)
{
	decide(base->mbps, base->ops, base->nruns, other->mbps, other->ops, other->nruns, opts,
	       out);
	out->clients = base->ngroups == 1 && other->ngroups == 1 &&
				       base->groups[0].clients == other->groups[0].clients
			       ? base->groups[0].clients
			       : 0;
}

void lg_cmp_decide_group(const struct lg_cmp_group *base, const struct lg_cmp_group *other,
			 const struct lg_cmp_opts *opts, struct lg_cmp_result *out)
{
	bool by_batch = base->nbatches >= 2 && other->nbatches >= 2;
	bool one = (base->nbatches >= 2) != (other->nbatches >= 2); /* k batches against 1 */

	if (by_batch || one)
		decide(base->bmbps, base->bops, base->nbatches, other->bmbps, other->bops,
		       other->nbatches, opts, out);
	else
		decide(base->mbps, base->ops, base->n, other->mbps, other->ops, other->n, opts,
		       out);
	out->clients = base->clients;
	out->by_batch = by_batch || one;
	lg_cmp_batches_of(base, other, opts, out);
	if (one)
		lg_cmp_predict_batch(opts, out);
}

const struct lg_cmp_group *lg_cmp_group_of(const struct lg_cmp_file *f, unsigned clients)
{
	if (f->ngroups == 1 && clients == LG_CMP_ANY_CLIENTS)
		return &f->groups[0];
	for (size_t i = 0; i < f->ngroups; i++)
		if (f->groups[i].clients == clients)
			return &f->groups[i];
	return NULL;
}

/* The workload's name in a result, or "". */
static const char *workload_name(const struct lg_cmp_file *f)
{
	const char *s = json_string_value(json_object_get(json_object_get(f->doc, "workload"),
							  "name"));
	return s ? s : "";
}

const char *lg_cmp_incomparable(const struct lg_cmp_file *base,
				const struct lg_cmp_file *other)
{
	if (strcmp(workload_name(base), workload_name(other)) != 0)
		return "a different workload";
	/* two single runs or repeats at different client counts: compared as they are, the
	 * count listed among the setup differences */
	if (base->ngroups == 1 && other->ngroups == 1)
		return NULL;
	for (size_t i = 0; i < other->ngroups; i++)
		if (lg_cmp_group_of(base, other->groups[i].clients))
			return NULL;
	return "no client count in common";
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
