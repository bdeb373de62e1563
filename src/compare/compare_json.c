/* `loadgen compare --json`: the same comparisons as the text report, as one document.
 *
 * Each compared file gets its setup differences and one entry per client count in
 * `by_clients`; when a file has exactly one count in common with the baseline, that
 * entry's keys are also the file's own (the shape older readers know). */
#include "compare_priv.h"
#include "loadgen/compare/compare_sys.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* json_real refuses NaN and infinities; they mean "not defined" here. */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *summary_json(const struct lg_stat_summary *s, const double *values)
{
	json_t *vals = json_array();

	for (size_t i = 0; vals && i < s->n; i++) {
		if (json_array_append_new(vals, json_real(values[i]))) {
			json_decref(vals);
			vals = NULL;
		}
	}
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)s->n,
			 "mean", num(s->mean), "stddev", num(s->stddev), "min", num(s->min),
			 "max", num(s->max), "ci95",
			 s->n >= 2 ? json_pack("[o, o]", num(s->ci95_lo), num(s->ci95_hi))
				   : json_null(),
			 "cv_pct", num(lg_stat_cv_pct(s)), "values", vals);
}

static json_t *rank_json(const struct lg_cmp_metric_result *m)
{
	if (!m->tested)
		return json_null();
	return json_pack("{s:s, s:o, s:o, s:b, s:o}", "test", "mann-whitney-u", "u",
			 num(m->mwu.stat), "p_value", num(m->mwu.p), "exact", (int)m->mwu.exact,
			 "min_p", num(m->mwu.min_p));
}

static json_t *metric_json(const struct lg_cmp_metric_result *m, const double *bv,
			   const double *ov)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "baseline", summary_json(&m->base, bv),
			 "other", summary_json(&m->other, ov),
			 "change_pct", num(m->change_pct),
			 "t", m->tested ? num(m->welch.t) : json_null(),
			 "df", m->tested ? num(m->welch.df) : json_null(),
			 "p_value", m->tested ? num(m->welch.p) : json_null(),
			 "rank_test", rank_json(m),
			 "effect_size_g", num(m->effect_g),
			 "mde_pct", num(m->mde_pct),
			 "target_pct", num(m->target_pct),
			 "runs_needed", m->tested && m->runs_needed
						? json_integer((json_int_t)m->runs_needed)
						: json_null());
}

static void diff_json(const char *key, const json_t *base, const json_t *other, void *ctx)
{
	json_t *a = ctx;

	/* an allocation failure leaves the entry out; the caller checks the count */
	json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "key", key, "baseline",
					   json_deep_copy(base), "other", json_deep_copy(other)));
}

static json_t *lat_side(const struct lg_cmp_latency *l)
{
	return json_pack("{s:I, s:o, s:o, s:I}", "count", (json_int_t)l->count,
			 "p50_ns", l->have_pct ? json_integer((json_int_t)l->p50_ns) : json_null(),
			 "p99_ns", l->have_pct ? json_integer((json_int_t)l->p99_ns) : json_null(),
			 "max_ns", (json_int_t)l->max_ns);
}

static json_t *latency_json(const struct cmp_table *t, size_t i, const struct cmp_cell *c)
{
	const struct lg_cmp_file *base = &t->files[0], *other = &t->files[i];
	json_t *labels = lg_cmp_op_labels(base, other), *out = json_object(), *v;
	const char *label;

	json_object_foreach(labels, label, v) {
		struct lg_cmp_latency b, o;

		if (!out || lg_cmp_latency_group(base, c->bg, label, &b) ||
		    lg_cmp_latency_group(other, c->og, label, &o) ||
		    json_object_set_new(out, label, json_pack("{s:o, s:o}", "baseline",
							       lat_side(&b), "other",
							       lat_side(&o)))) {
			json_decref(out);
			out = NULL;
			break;
		}
	}
	if (!labels) {
		json_decref(out);
		out = NULL;
	}
	json_decref(labels);
	return out;
}

static json_t *drift_json(const struct lg_cmp_drift *d)
{
	if (!d->tested)
		return json_null();
	return json_pack("{s:o, s:o, s:b, s:o, s:o, s:b}",
			 "trend_pct_per_run", num(d->trend.slope_pct), "trend_p", num(d->trend.p),
			 "drifts", (int)d->drifts, "first_run_pct", num(d->first.diff_pct),
			 "first_run_p", num(d->first.p), "first_run_apart", (int)d->first_apart);
}

static json_t *nested_json(const struct lg_cmp_result *r, int side)
{
	const struct lg_stat_nested *n = &r->nested[side];

	if (!r->nested_ok[side])
		return json_null();
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o}", "batches", (json_int_t)n->k,
			 "runs", (json_int_t)n->n, "var_between", num(n->var_between),
			 "var_within", num(n->var_within), "f", num(n->f), "p_value", num(n->p));
}

/* unit, batches and variance_components of a cell, added to o. */
static int batches_json(json_t *o, const struct lg_cmp_result *r)
{
	return json_object_set_new(o, "unit", json_string(r->by_batch ? "batch" : "run")) ||
	       json_object_set_new(o, "batches",
				   json_pack("{s:I, s:I}", "baseline", (json_int_t)r->batches[0],
					     "other", (json_int_t)r->batches[1])) ||
	       json_object_set_new(o, "variance_components",
				   json_pack("{s:o, s:o}", "baseline", nested_json(r, 0), "other",
					     nested_json(r, 1))) ||
	       json_object_set_new(o, "calibration_used",
				   r->calibrated
					   ? json_pack("{s:s, s:I, s:f}", "file", r->calib_path,
						       "batches", (json_int_t)r->calib_batches,
						       "sd_between_pct", r->calib_sd_pct)
					   : json_null()) ||
	       json_object_set_new(o, "batches_needed",
				   (r->by_batch || r->calibrated) &&
						   r->metric[r->decided_by].runs_needed
					   ? json_integer((json_int_t)r->metric[r->decided_by]
								  .runs_needed)
					   : json_null());
}

static json_t *cell_json(const struct cmp_table *t, size_t i, const struct cmp_cell *c)
{
	const struct lg_cmp_result *r = &c->r;
	const struct lg_cmp_metric_result *m = &r->metric[r->decided_by];

	json_t *o = json_pack("{s:I, s:I, s:I, s:{s:o, s:o}, s:s, s:o, s:o, s:s, s:b, s:b, s:b,"
			 " s:b, s:o, s:o}",
			 "clients", (json_int_t)c->bg->clients,
			 "baseline_runs", (json_int_t)c->bg->n, "runs", (json_int_t)c->og->n,
			 "metrics",
			 "throughput_mbps", metric_json(&r->metric[LG_CMP_MBPS], c->bg->mbps,
							c->og->mbps),
			 "ops_per_s", metric_json(&r->metric[LG_CMP_OPS], c->bg->ops, c->og->ops),
			 "decided_by", lg_cmp_metric_key(r->decided_by),
			 "change_pct", num(m->change_pct),
			 "p_value", m->tested ? num(m->welch.p) : json_null(),
			 "verdict", lg_cmp_verdict_name(r),
			 "below_min_effect", (int)r->below_min_effect,
			 "rank_test_disagrees", (int)r->rank_disagrees,
			 "rank_test_too_few_runs", (int)r->rank_too_few,
			 "slower_than_limit", (int)c->slower,
			 "mde_pct", m->tested ? num(m->mde_pct) : json_null(),
			 "latency", latency_json(t, i, c));

	if (o && (json_object_set_new(o, "drift", json_pack("{s:o, s:o}", "baseline",
							     drift_json(&r->drift[0]), "other",
							     drift_json(&r->drift[1]))) ||
		  batches_json(o, r))) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

/* by_clients of file i, and the one cell when there is exactly one. */
static json_t *cells_json(const struct cmp_table *t, size_t i, json_t **only)
{
	json_t *a = json_array();
	size_t n = 0;

	*only = NULL;
	for (size_t g = 0; a && g < t->files[0].ngroups; g++) {
		const struct cmp_cell *c = &t->cells[i][g];

		if (!c->present)
			continue;
		if (json_array_append_new(a, cell_json(t, i, c))) {
			json_decref(a);
			return NULL;
		}
		*only = n++ == 0 ? json_array_get(a, json_array_size(a) - 1) : NULL;
	}
	return a;
}

/* "partial" of a file: {note, missing (the result keys a cut-off log cannot give, or
 * null)}, or null for a whole result. */
static json_t *partial_json(const struct lg_cmp_file *f)
{
	const json_t *missing = json_object_get(json_object_get(f->doc, "log_cut_off"), "missing");
	char note[LG_CMP_NOTE_MAX];

	if (!lg_cmp_partial_note(f->doc, note, sizeof(note)))
		return json_null();
	return json_pack("{s:s, s:o}", "note", note,
			 "missing", missing ? json_deep_copy(missing) : json_null());
}

/* One note of who was busy beside one file's runs only, appended to the array ctx. */
static void busy_json(const struct lg_cmp_busy_note *n, void *ctx)
{
	json_array_append_new(ctx, json_pack("{s:s, s:b, s:s, s:s, s:f, s:f, s:I, s:i, s:s}",
					     "comm", n->comm, "kernel", (int)n->kernel,
					     "side", n->in_base ? "baseline" : "other",
					     "by", n->io ? "io_bytes" : "cpu_s",
					     "amount", n->amount, "elsewhere", n->elsewhere,
					     "processes", (json_int_t)n->processes,
					     "first_pid", n->first_pid, "text", n->text));
}

static json_t *comparison_json(const struct cmp_table *t, size_t i)
{
	json_t *diffs = json_array(), *by, *only, *doc, *busy;
	size_t n = diffs ? lg_cmp_setup_diffs(&t->files[0], &t->files[i], diff_json, diffs) : 0;

	if (t->skip[i])
		return json_pack("{s:s, s:s}", "file", t->cli->paths[i], "skipped", t->skip[i]);
	if (diffs && json_array_size(diffs) != n) {
		json_decref(diffs);
		diffs = NULL;
	}
	by = cells_json(t, i, &only);
	doc = json_pack("{s:s, s:I, s:o, s:o}", "file", t->files[i].path, "runs",
			(json_int_t)t->files[i].nruns, "partial", partial_json(&t->files[i]),
			"setup_differences", diffs);
	if (doc && only && json_object_update(doc, only)) {
		json_decref(doc);
		doc = NULL;
	}
	busy = json_array();
	if (busy)
		lg_cmp_busy_notes(t->files[0].doc, t->files[0].path, t->files[i].doc,
				  t->files[i].path, busy_json, busy);
	if (doc && json_object_set_new(doc, "busy_neighbours", busy ? busy : json_null())) {
		json_decref(doc);
		doc = NULL;
	}
	if (doc && json_object_set_new(doc, "by_clients", by)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

int lg_cmp_print_json(const struct cmp_table *t, int status)
{
	const struct cli *c = t->cli;
	json_t *cmps = json_array(), *doc;
	int rc = 0;

	for (size_t i = 1; cmps && i < c->npaths; i++) {
		if (json_array_append_new(cmps, comparison_json(t, i))) {
			json_decref(cmps);
			cmps = NULL;
		}
	}
	doc = json_pack("{s:s, s:f, s:f, s:f, s:o, s:{s:s, s:I, s:o}, s:o, s:i}",
			"schema", LG_COMPARE_SCHEMA, "alpha", c->opts.alpha,
			"power", LG_COMPARE_POWER, "min_effect_pct", c->opts.min_effect_pct,
			"fail_if_slower_pct", c->fail_if_slower ? json_real(c->slower_pct)
								: json_null(),
			"baseline", "file", t->files[0].path, "runs",
			(json_int_t)t->files[0].nruns, "partial", partial_json(&t->files[0]),
			"comparisons", cmps,
			"exit_status", status);
	if (!doc || json_dumpf(doc, stdout, JSON_INDENT(2)) != 0 || putchar('\n') == EOF)
		rc = -ENOMEM;
	json_decref(doc);
	return rc;
}
