/* loadgen ab's outputs: each variant's result file (the runs of its finished rounds,
 * like a --repeat result, so compare and report read it), the paired analysis as text
 * ending in one verdict line in compare's words, and as JSON (schema loadgen-ab/1). */
#include "ab_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "loadgen/result_json.h"
#include "result_summary.h"

#define AB_SCHEMA "loadgen-ab/1"

int lg_ab_variant_add(struct ab_variant *v, json_t *run_doc)
{
	json_t *run = json_array_get(json_object_get(run_doc, "runs"), 0);
	int rc;

	if (!v->doc) {
		v->doc = run_doc;
		return 0;
	}
	rc = json_array_append(json_object_get(v->doc, "runs"), run);
	json_decref(run_doc);
	return rc ? -ENOMEM : 0;
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *summary_one(const double *x, size_t n)
{
	struct lg_stat_summary s;

	if (lg_stat_summarize(x, n, &s))
		return json_null();
	return json_pack("{s:I, s:f, s:o, s:f, s:f, s:[o, o], s:o}", "n", (json_int_t)s.n,
			 "mean", s.mean, "stddev", num(s.stddev), "min", s.min, "max", s.max,
			 "ci95", num(s.ci95_lo), num(s.ci95_hi), "cv_pct",
			 num(lg_stat_cv_pct(&s)));
}

/* The summary of v's n runs, as a --repeat result has it. p99 latency: the largest of
 * the runs' p99 (the runs' histograms are not kept whole in the files). */
static json_t *variant_summary(const struct ab_variant *v, const json_t *runs, size_t n)
{
	struct lg_stat_summary s;
	json_int_t p99 = 0, max = 0, clients;
	const double *rate;
	const char *warn;
	double cv;

	for (size_t i = 0; i < n; i++) {
		json_t *lat = json_object_get(json_array_get(runs, i), "latency_ns");
		json_int_t a = json_integer_value(json_object_get(lat, "p99"));
		json_int_t b = json_integer_value(json_object_get(lat, "max"));

		p99 = a > p99 ? a : p99;
		max = b > max ? b : max;
	}
	rate = lg_stat_mean(v->mbps, n) > 0 ? v->mbps : v->opsps;
	cv = lg_stat_summarize(rate, n, &s) ? NAN : lg_stat_cv_pct(&s);
	warn = lg_cv_warning(cv);
	clients = json_integer_value(json_object_get(json_array_get(runs, 0), "client_count"));
	return json_pack("{s:o, s:o, s:o, s:o, s:[{s:I, s:I, s:o, s:o, s:{s:I, s:I}, s:o, s:o}]}",
			 "throughput_mbps", summary_one(v->mbps, n),
			 "ops_per_s", summary_one(v->opsps, n), "cv_pct", num(cv),
			 "cv_warning", warn ? json_string(warn) : json_null(), "by_clients",
			 "clients", clients, "runs", (json_int_t)n,
			 "throughput_mbps", summary_one(v->mbps, n),
			 "ops_per_s", summary_one(v->opsps, n),
			 "latency_ns", "p99", p99, "max", max, "cv_pct", num(cv),
			 "cv_warning", warn ? json_string(warn) : json_null());
}

int lg_ab_variant_write(const struct ab_ctx *c, struct ab_variant *v, size_t n)
{
	json_t *runs = json_object_get(v->doc, "runs"), *sum, *ab;
	char err[1024];
	size_t idx = (size_t)(v - c->v);
	int rc;

	sum = variant_summary(v, runs, n);
	ab = json_pack("{s:s, s:I, s:s?, s:I, s:I}", "variant", v->name, "index",
		       (json_int_t)idx, "command", v->cmd, "rounds", (json_int_t)n,
		       "rounds_asked", (json_int_t)c->rounds);
	rc = !sum || !ab || json_object_set_new(v->doc, "summary", sum) ||
	     json_object_set_new(v->doc, "ab", ab) ||
	     json_object_set_new(json_object_get(v->doc, "config"), "repeat",
				 json_integer((json_int_t)n));
	if (rc) {
		fprintf(stderr, "loadgen ab: out of memory building %s\n", v->path);
		return -ENOMEM;
	}
	if ((rc = lg_result_json_write(v->path, v->doc, err, sizeof(err))))
		fprintf(stderr, "loadgen ab: %s\n", err);
	return rc;
}

/* The verdict line's wording of an, as compare says it. */
static const char *verdict_words(const struct lg_ab_analysis *an)
{
	return lg_verdict_name(an->verdict);
}

static void print_drift(const struct lg_ab_drift *d, const char *unit)
{
	if (!isfinite(d->slope)) {
		printf("Drift (both variants):  needs 3 rounds\n");
		return;
	}
	printf("Drift (both variants):  %+.3f %s per round (%+.2f %%/round, 95%% CI %+.3f .. "
	       "%+.3f, p %.3g), %+.2f %% from first to last round: shared by A and B, so "
	       "not in the difference\n", d->slope, unit, d->slope_pct, d->ci95_lo, d->ci95_hi,
	       d->p, d->total_pct);
}

void lg_ab_print(const struct ab_ctx *c, const struct lg_ab_analysis *an)
{
	const char *unit = c->use_ops ? "ops/s" : "MB/s";
	const struct ab_variant *a = &c->v[0], *b = &c->v[1];

	printf("\nPaired comparison: B = %s against A = %s, %zu round%s, on %s\n", b->name,
	       a->name, an->n, an->n == 1 ? "" : "s", c->use_ops ? "ops/s" : "throughput (MB/s)");
	printf("%5s %6s %14s %14s %12s %9s\n", "round", "order", "A", "B", "B - A", "B - A %");
	for (size_t r = 0; r < an->n; r++)
		printf("%5zu %6s %14.3f %14.3f %+12.3f %+8.2f%%\n", r + 1,
		       c->order[r][0] == 0 ? "A B" : "B A", a->vals[r], b->vals[r],
		       b->vals[r] - a->vals[r],
		       a->vals[r] != 0 ? 100.0 * (b->vals[r] - a->vals[r]) / a->vals[r] : NAN);
	printf("Means: A %.3f %s, B %.3f %s\n", an->mean_a, unit, an->mean_b, unit);
	if (an->tested) {
		printf("Difference B - A:  %+.3f %s (%+.2f %%), 95%% CI %+.2f %% .. %+.2f %%\n",
		       an->t.diff.mean, unit, an->change_pct, an->ci95_lo_pct, an->ci95_hi_pct);
		printf("Paired t-test:     t = %.3f, df = %.0f, p = %.3g\n", an->t.t, an->t.df,
		       an->t.p);
		printf("Signed-rank test:  V = %.0f, p = %.3g (%s)%s\n", an->rank.stat, an->rank.p,
		       an->rank.exact ? "exact" : "normal approximation",
		       an->rank.min_p >= LG_COMPARE_ALPHA ? "; too few pairs to reach alpha"
		       : an->rank_disagrees ? "; disagrees with the t-test" : "");
		printf("Minimum detectable effect: %.2f %% (80 %% power, alpha %g); %s%zu pairs "
		       "would detect %g %%\n", an->mde_pct, LG_COMPARE_ALPHA,
		       an->pairs_needed ? "" : "more than ", an->pairs_needed ? an->pairs_needed
		       : (size_t)LG_AB_MAX_PLAN, an->target_pct);
	} else {
		printf("Difference B - A:  %+.2f %% (one pair: no test)\n", an->change_pct);
	}
	print_drift(&an->drift, unit);
	if (an->n < c->rounds)
		printf("%s: the verdict rests on %zu pair%s of %zu rounds asked\n",
		       c->interrupted ? "Interrupted" : "Stopped early", an->n,
		       an->n == 1 ? "" : "s", c->rounds);
	printf("Verdict: %s (B against A, paired t-test on %zu pairs, alpha = %g%s)\n",
	       verdict_words(an), an->n, LG_COMPARE_ALPHA,
	       an->verdict == LG_VERDICT_SAME ? ", see the minimum detectable effect" : "");
}

static json_t *pairs_json(const struct ab_ctx *c, size_t n)
{
	json_t *a = json_array();

	for (size_t r = 0; a && r < n; r++) {
		double x = c->v[0].vals[r], y = c->v[1].vals[r];

		if (json_array_append_new(a, json_pack("{s:I, s:[s, s], s:f, s:f, s:f, s:o}",
				"round", (json_int_t)r + 1, "order", c->v[c->order[r][0]].name,
				c->v[c->order[r][1]].name, "a", x, "b", y, "diff", y - x,
				"diff_pct", num(x != 0 ? 100.0 * (y - x) / x : NAN)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *lg_ab_json(const struct ab_ctx *c, const struct lg_ab_analysis *an)
{
	const struct lg_ab_drift *d = &an->drift;

	return json_pack("{s:s, s:s, s:[{s:s, s:s?, s:s}, {s:s, s:s?, s:s}], s:I, s:I, s:b, "
			 "s:o, s:f, s:f, s:o, s:o, s:[o, o], "
			 "s:{s:o, s:o, s:o}, s:{s:o, s:o, s:b, s:o}, s:o, s:o, s:f, "
			 "s:{s:o, s:o, s:[o, o], s:o, s:o}, s:s, s:o, s:f}",
			 "schema", AB_SCHEMA, "metric", c->use_ops ? "ops_per_s" : "throughput_mbps",
			 "variants", "name", c->v[0].name, "command", c->v[0].cmd, "file",
			 c->v[0].path, "name", c->v[1].name, "command", c->v[1].cmd, "file",
			 c->v[1].path, "rounds", (json_int_t)c->rounds, "pairs_n",
			 (json_int_t)an->n, "interrupted", c->interrupted,
			 "pairs", pairs_json(c, an->n), "mean_a", an->mean_a, "mean_b", an->mean_b,
			 "mean_diff", num(an->tested ? an->t.diff.mean : NAN),
			 "change_pct", num(an->change_pct), "ci95_pct", num(an->ci95_lo_pct),
			 num(an->ci95_hi_pct),
			 "paired_t", "t", num(an->t.t), "df", num(an->t.df), "p",
			 num(an->tested ? an->t.p : NAN),
			 "signed_rank", "v", num(an->rank.stat), "p",
			 num(an->tested ? an->rank.p : NAN), "exact", an->rank.exact, "min_p",
			 num(an->tested ? an->rank.min_p : NAN),
			 "mde_pct", num(an->mde_pct), "pairs_needed",
			 an->pairs_needed ? json_integer((json_int_t)an->pairs_needed) : json_null(),
			 "target_pct", an->target_pct,
			 "drift", "slope_per_round", num(d->slope), "slope_pct_per_round",
			 num(d->slope_pct), "ci95", num(d->ci95_lo), num(d->ci95_hi), "p", num(d->p),
			 "total_pct", num(d->total_pct),
			 "verdict", verdict_words(an), "fail_if_slower_pct",
			 c->fail_if_slower ? json_real(c->slower_pct) : json_null(),
			 "alpha", LG_COMPARE_ALPHA);
}
