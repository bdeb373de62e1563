/* A series as a trend: its points in order, the change points E-divisive means finds in
 * their per-result means (changepoint.h), the segments between them with each one's
 * drift, and who else was busy beside each result. The trend is built once as JSON
 * (schema HIST_TREND_SCHEMA); the text, --json and the HTML page are all drawn from
 * it, so they cannot disagree.
 *
 * Points whose runs did not all complete are shown but left out of the analysis: a cut
 * run's figure is not a measurement of the setup. */
#include "history_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/inference/changepoint.h"
#include "loadgen/inference/inference.h"

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *pair_or_null(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) ? json_pack("[f, f]", lo, hi) : json_null();
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

bool hist_point_analysed(const struct hist_point *p)
{
	return p->status && strcmp(p->status, "complete") == 0 && isfinite(p->mean);
}

/* The busy note of a stored result (its busiest neighbour), or JSON null. */
static json_t *busy_of(struct hist_db *h, long long result_id)
{
	json_t *doc = hist_store_doc(h, result_id);
	char line[256];
	json_t *out = NULL;

	if (doc && hist_busy_summary(doc, line, sizeof(line)))
		out = json_string(line);
	json_decref(doc);
	return out ? out : json_null();
}

static json_t *point_json(struct hist_db *h, const struct hist_point *p)
{
	return json_pack("{s:I, s:o, s:o, s:s, s:o, s:s, s:b, s:o, s:o, s:I, s:O, s:o}",
			 "result_id", (json_int_t)p->result_id, "label", str_or_null(p->label),
			 "kernel", str_or_null(p->kernel), "stored_at", p->stored_at ? p->stored_at : "",
			 "started_at", str_or_null(p->started_at),
			 "status", p->status ? p->status : "?", "analysed", hist_point_analysed(p),
			 "mean", num_or_null(p->mean), "ci95", pair_or_null(p->ci_lo, p->ci_hi),
			 "runs", (json_int_t)p->runs, "values", p->values,
			 "busy", busy_of(h, p->result_id));
}

static const char *point_name(const struct hist_point *p)
{
	return p->label ? p->label : p->kernel ? p->kernel : p->stored_at;
}

static json_t *segment_json(const double *x, size_t from, size_t to, const size_t *idx,
			    double alpha)
{
	struct lg_cp_trend tr;
	size_t n = to - from + 1;
	json_t *t = json_null();

	if (n >= 3 && lg_cp_trend(x + from, n, &tr) == 0)
		t = json_pack("{s:o, s:o, s:o, s:b}", "slope_pct", num_or_null(tr.slope_pct),
			      "ci_pct", pair_or_null(tr.ci_lo_pct, tr.ci_hi_pct),
			      "p", num_or_null(tr.p), "significant", isfinite(tr.p) && tr.p < alpha);
	return json_pack("{s:I, s:I, s:I, s:o, s:o}", "from", (json_int_t)idx[from],
			 "to", (json_int_t)idx[to], "results", (json_int_t)n,
			 "mean", num_or_null(lg_stat_mean(x + from, n)), "trend", t);
}

int hist_analyse(const struct hist_series *s, const struct lg_cp_opts *o,
		 struct hist_analysis *out)
{
	struct lg_changepoint *cps;
	size_t m = 0, ncp = 0, max = s->n / (o->min_size ? o->min_size : 1) + 1;
	int rc;

	memset(out, 0, sizeof(*out));
	out->x = calloc(s->n ? s->n : 1, sizeof(*out->x));
	out->idx = calloc(s->n ? s->n : 1, sizeof(*out->idx));
	if (!out->x || !out->idx)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		if (hist_point_analysed(&s->pts[i])) {
			out->x[m] = s->pts[i].mean;
			out->idx[m++] = i;
		}
	out->m = m;
	/* there are never more than m / min_size - 1 change points */
	cps = calloc(max, sizeof(*cps));
	if (!cps)
		return -ENOMEM;
	rc = m ? lg_cp_find(out->x, m, o, cps, max, &ncp) : 0;
	if (rc) {
		free(cps);
		return rc;
	}
	out->ncp = ncp;
	out->cps = cps;
	/* the stable segment: the analysed points since the last change point */
	out->stable_from = ncp ? cps[ncp - 1].index : 0;
	return 0;
}

void hist_analysis_free(struct hist_analysis *a)
{
	free(a->x);
	free(a->idx);
	free(a->cps);
	memset(a, 0, sizeof(*a));
}

/* One series as JSON (the shape HIST_TREND_SCHEMA documents). */
static json_t *series_json(struct hist_db *h, const struct hist_series *s,
			   const struct lg_cp_opts *o, char *err, size_t errlen)
{
	const json_t *env = json_object_get(s->key, "env");
	struct hist_analysis a;
	json_t *pts = json_array(), *cps = json_array(), *segs = json_array(), *out;
	size_t from = 0;
	int rc;

	rc = hist_analyse(s, o, &a);
	if (rc || !pts || !cps || !segs) {
		snprintf(err, errlen, "series %lld: cannot analyse it: %s", s->id,
			 strerror(rc ? -rc : ENOMEM));
		hist_analysis_free(&a);
		json_decref(pts);
		json_decref(cps);
		json_decref(segs);
		return NULL;
	}
	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(pts, point_json(h, &s->pts[i]));
	for (size_t c = 0; c <= a.ncp && a.m; c++) {
		size_t to = c < a.ncp ? a.cps[c].index - 1 : a.m - 1;

		json_array_append_new(segs, segment_json(a.x, from, to, a.idx, o->alpha));
		if (c < a.ncp) {
			const struct lg_changepoint *cp = &a.cps[c];
			const struct hist_point *p = &s->pts[a.idx[cp->index]];

			json_array_append_new(cps, json_pack(
				"{s:I, s:I, s:s, s:f, s:o, s:o, s:o, s:o, s:I, s:I}",
				"index", (json_int_t)a.idx[cp->index], "result_id",
				(json_int_t)p->result_id, "label", point_name(p), "p", cp->p,
				"change_pct", num_or_null(cp->change_pct),
				"ci_pct", pair_or_null(cp->ci_lo_pct, cp->ci_hi_pct),
				"before_mean", num_or_null(cp->before_mean),
				"after_mean", num_or_null(cp->after_mean),
				"before_n", (json_int_t)cp->before_n,
				"after_n", (json_int_t)cp->after_n));
			from = cp->index;
		}
	}
	hist_analysis_free(&a);
	out = json_pack("{s:I, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:o, s:o, s:o}",
			"id", (json_int_t)s->id,
			"workload", json_object_get(json_object_get(s->key, "workload"), "name"),
			"clients", json_object_get(s->key, "clients"),
			"host", json_object_get(env, "hostname"),
			"fs_type", json_object_get(env, "fs_type"),
			"device", json_object_get(env, "device"),
			"mount_options", json_object_get(env, "mount_options"),
			"key", s->key, "points", pts, "change_points", cps, "segments", segs);
	if (!out)
		snprintf(err, errlen, "series %lld: out of memory", s->id);
	return out;
}

json_t *hist_trend_json(struct hist_db *h, const struct hist_series *s, size_t n,
			enum hist_metric m, enum hist_order order, const struct lg_cp_opts *o,
			char *err, size_t errlen)
{
	json_t *arr = json_array(), *doc;

	for (size_t i = 0; arr && i < n; i++) {
		json_t *sj = series_json(h, &s[i], o, err, errlen);

		if (!sj) {
			json_decref(arr);
			return NULL;
		}
		json_array_append_new(arr, sj);
	}
	doc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:f, s:I, s:I}, s:o}",
			"schema", HIST_TREND_SCHEMA, "db", h->path,
			"metric", m == HIST_OPS ? "ops_per_s" : "throughput_mbps",
			"unit", m == HIST_OPS ? "ops/s" : "MB/s",
			"order", order == HIST_ORDER_VERSION ? "version" : "stored",
			"method", "alpha", o->alpha, "permutations", (json_int_t)o->permutations,
			"min_size", (json_int_t)o->min_size, "series", arr);
	if (!doc)
		snprintf(err, errlen, "out of memory");
	return doc;
}

/* --- the text form --- */

static double jnum(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *jstr(const json_t *o, const char *k, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : dflt;
}

/* The change point that starts at point i, or NULL. */
static const json_t *cp_at(const json_t *cps, size_t i)
{
	size_t k;
	json_t *c;

	json_array_foreach(cps, k, c)
		if ((size_t)json_integer_value(json_object_get(c, "index")) == i)
			return c;
	return NULL;
}

static void print_segment(FILE *f, const json_t *seg, const char *unit)
{
	const json_t *t = json_object_get(seg, "trend");
	const json_t *ci = json_object_get(t, "ci_pct");

	fprintf(f, "    segment #%lld-#%lld: %lld results, mean %.1f %s",
		(long long)json_integer_value(json_object_get(seg, "from")) + 1,
		(long long)json_integer_value(json_object_get(seg, "to")) + 1,
		(long long)json_integer_value(json_object_get(seg, "results")),
		jnum(seg, "mean"), unit);
	if (json_is_object(t) && json_is_array(ci))
		fprintf(f, "; trend %+.2f %%/result (95 %% CI %+.2f to %+.2f), p %.3g: %s\n",
			jnum(t, "slope_pct"), json_number_value(json_array_get(ci, 0)),
			json_number_value(json_array_get(ci, 1)), jnum(t, "p"),
			json_is_true(json_object_get(t, "significant")) ? "DRIFT" : "no drift");
	else if (json_is_object(t))
		fprintf(f, "; trend %+.2f %%/result, p %.3g: %s\n", jnum(t, "slope_pct"),
			jnum(t, "p"), json_is_true(json_object_get(t, "significant")) ? "DRIFT" :
			"no drift");
	else
		fprintf(f, "; too short for a trend\n");
}

void hist_trend_print(FILE *f, const json_t *trend)
{
	const char *unit = jstr(trend, "unit", "");
	const json_t *series = json_object_get(trend, "series"), *s;
	size_t i;

	if (!json_array_size(series)) {
		fprintf(f, "No series match in %s.\n", jstr(trend, "db", "?"));
		return;
	}
	json_array_foreach(series, i, s) {
		const json_t *pts = json_object_get(s, "points"), *cps = json_object_get(s, "change_points");
		const json_t *segs = json_object_get(s, "segments"), *p, *seg;
		size_t j;
		char title[512];

		hist_series_title(json_object_get(s, "key"), title, sizeof(title));
		fprintf(f, "%sSeries %lld: %s\n", i ? "\n" : "",
			(long long)json_integer_value(json_object_get(s, "id")), title);
		fprintf(f, "  %4s  %-24s %-20s %12s %16s %4s\n", "#", "label", "stored", unit,
			"95% CI", "runs");
		json_array_foreach(pts, j, p) {
			const json_t *c = cp_at(cps, j), *ci = json_object_get(p, "ci95");
			const char *label = jstr(p, "label", jstr(p, "kernel", "-"));
			char cibuf[40] = "-";

			if (c) {
				const json_t *cc = json_object_get(c, "ci_pct");

				char cib[64] = "unbounded";

				if (json_is_array(cc))
					snprintf(cib, sizeof(cib), "%+.1f to %+.1f %%",
						 json_number_value(json_array_get(cc, 0)),
						 json_number_value(json_array_get(cc, 1)));
				fprintf(f, "  ---- change point: %+.1f %% (95 %% CI %s), p %.3g ----\n",
					jnum(c, "change_pct"), cib, jnum(c, "p"));
			}
			if (json_is_array(ci))
				snprintf(cibuf, sizeof(cibuf), "%.1f-%.1f",
					 json_number_value(json_array_get(ci, 0)),
					 json_number_value(json_array_get(ci, 1)));
			fprintf(f, "  %4zu  %-24.24s %-20.20s %12.1f %16s %4lld%s%s%s\n", j + 1, label,
				jstr(p, "stored_at", ""), jnum(p, "mean"), cibuf,
				(long long)json_integer_value(json_object_get(p, "runs")),
				json_is_true(json_object_get(p, "analysed")) ? "" : "  (",
				json_is_true(json_object_get(p, "analysed")) ? "" :
				jstr(p, "status", "?"),
				json_is_true(json_object_get(p, "analysed")) ? "" : ": left out)");
			if (json_is_string(json_object_get(p, "busy")))
				fprintf(f, "        busy beside it: %s\n", jstr(p, "busy", ""));
		}
		json_array_foreach(segs, j, seg)
			print_segment(f, seg, unit);
		if (!json_array_size(cps)) {
			long long need = 2 * json_integer_value(json_object_get(
				json_object_get(trend, "method"), "min_size"));

			if ((long long)json_array_size(pts) < need)
				fprintf(f, "    no change point (too few results to find one: %lld or "
					"more are needed)\n", need);
			else
				fprintf(f, "    no change point\n");
		}
	}
}
