/* loadgen ab's outputs: each variant's result file (the runs of its finished rounds,
 * like a --repeat result, so compare and report read it), the paired analyses as text
 * ending in verdict lines in compare's words, and as JSON (schema loadgen-ab/1 for two
 * variants: B's comparison at the top level; loadgen-ab/2 for more: a comparisons
 * array). */
#include "ab_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "loadgen/output/result_json.h"
#include "counters/result_summary.h"

#define AB_SCHEMA "loadgen-ab/1"      /* two variants */
#define AB_SCHEMA_MANY "loadgen-ab/2" /* more: one comparison each after A */

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

/* Variant i's letter: A, the baseline, B, C, ... */
static char letter(size_t i)
{
	return (char)('A' + i);
}

static void print_header(const struct ab_ctx *c)
{
	const char *metric = c->use_ops ? "ops/s" : "throughput (MB/s)";

	if (c->nvar == 2) {
		printf("\nPaired comparison: B = %s against A = %s, %zu round%s, on %s\n",
		       c->v[1].name, c->v[0].name, c->done, c->done == 1 ? "" : "s", metric);
		return;
	}
	printf("\nPaired comparisons: each of %zu variants against A = %s, %zu round%s, on %s\n",
	       c->nvar - 1, c->v[0].name, c->done, c->done == 1 ? "" : "s", metric);
	for (size_t i = 0; i < c->nvar; i++)
		printf("%s%c = %s", i ? ", " : "Variants: ", letter(i), c->v[i].name);
	printf("\n");
}

/* The per-round table: the order and each variant's value (for two, also B - A). */
static void print_rounds(const struct ab_ctx *c)
{
	const struct ab_variant *a = &c->v[0], *b = &c->v[1];
	int width = c->nvar * 2 - 1 > 6 ? (int)c->nvar * 2 - 1 : 6;
	char order[2 * LG_AB_MAX_VARIANTS];

	printf("%5s %*s", "round", width, "order");
	for (size_t i = 0; i < c->nvar; i++)
		printf(" %14c", letter(i));
	if (c->nvar == 2)
		printf(" %12s %9s", "B - A", "B - A %");
	printf("\n");
	for (size_t r = 0; r < c->done; r++) {
		for (size_t pos = 0; pos < c->nvar; pos++) {
			order[2 * pos] = letter(c->order[r][pos]);
			order[2 * pos + 1] = pos + 1 < c->nvar ? ' ' : '\0';
		}
		printf("%5zu %*s", r + 1, width, order);
		for (size_t i = 0; i < c->nvar; i++)
			printf(" %14.3f", c->v[i].vals[r]);
		if (c->nvar == 2)
			printf(" %+12.3f %+8.2f%%", b->vals[r] - a->vals[r], a->vals[r] != 0 ?
			       100.0 * (b->vals[r] - a->vals[r]) / a->vals[r] : NAN);
		printf("\n");
	}
}

/* The tests of variant i against A. With more than two variants under a heading, with
 * the Holm-adjusted p. */
static void print_comparison(const struct ab_ctx *c, size_t i, const char *unit)
{
	const struct lg_ab_analysis *an = &c->an[i];
	bool many = c->nvar > 2;
	char l = letter(i);

	if (many)
		printf("\n%c = %s against A = %s:\n", l, c->v[i].name, c->v[0].name);
	if (!an->tested) {
		printf("Difference %c - A:  %+.2f %% (one pair: no test)\n", l, an->change_pct);
		return;
	}
	printf("Difference %c - A:  %+.3f %s (%+.2f %%), 95%% CI %+.2f %% .. %+.2f %%\n", l,
	       an->t.diff.mean, unit, an->change_pct, an->ci95_lo_pct, an->ci95_hi_pct);
	printf("Paired t-test:     t = %.3f, df = %.0f, p = %.3g", an->t.t, an->t.df, an->t.p);
	if (many)
		printf(", Holm-adjusted p = %.3g", an->p_adjusted);
	printf("\n");
	printf("Signed-rank test:  V = %.0f, p = %.3g (%s)%s\n", an->rank.stat, an->rank.p,
	       an->rank.exact ? "exact" : "normal approximation",
	       an->rank.min_p >= LG_COMPARE_ALPHA ? "; too few pairs to reach alpha"
	       : an->rank_disagrees ? "; disagrees with the t-test" : "");
	printf("Minimum detectable effect: %.2f %% (80 %% power, alpha %g%s); %s%zu pairs "
	       "would detect %g %%\n", an->mde_pct, LG_COMPARE_ALPHA,
	       many ? " before adjustment" : "", an->pairs_needed ? "" : "more than ",
	       an->pairs_needed ? an->pairs_needed : (size_t)LG_AB_MAX_PLAN, an->target_pct);
}

static void print_drift(const struct ab_ctx *c, const char *unit)
{
	const struct lg_ab_drift *d = &c->drift;

	if (!isfinite(d->slope)) {
		printf("Drift (%s variants):  needs 3 rounds\n", c->nvar == 2 ? "both" : "all");
		return;
	}
	printf("Drift (%s variants):  %+.3f %s per round (%+.2f %%/round, 95%% CI %+.3f .. "
	       "%+.3f, p %.3g), %+.2f %% from first to last round: shared by %s, so not in "
	       "the difference%s\n", c->nvar == 2 ? "both" : "all", d->slope, unit,
	       d->slope_pct, d->ci95_lo, d->ci95_hi, d->p, d->total_pct,
	       c->nvar == 2 ? "A and B" : "all variants", c->nvar == 2 ? "" : "s");
}

static void print_verdicts(const struct ab_ctx *c)
{
	const struct lg_ab_analysis *an = &c->an[1];

	if (c->nvar == 2) {
		printf("Verdict: %s (B against A, paired t-test on %zu pairs, alpha = %g%s)\n",
		       verdict_words(an), an->n, LG_COMPARE_ALPHA, an->verdict == LG_VERDICT_SAME
		       ? ", see the minimum detectable effect" : "");
		return;
	}
	for (size_t i = 1; i < c->nvar; i++)
		printf("Verdict: %s: %s (against A, paired t-test on %zu pairs, Holm-adjusted, "
		       "alpha = %g)\n", c->v[i].name, verdict_words(&c->an[i]), c->an[i].n,
		       LG_COMPARE_ALPHA);
}

void lg_ab_print(const struct ab_ctx *c)
{
	const char *unit = c->use_ops ? "ops/s" : "MB/s";

	print_header(c);
	print_rounds(c);
	for (size_t i = 0; i < c->nvar; i++)
		printf("%s%c %.3f %s", i ? ", " : "Means: ", letter(i),
		       lg_stat_mean(c->v[i].vals, c->done), unit);
	printf("\n");
	for (size_t i = 1; i < c->nvar; i++)
		print_comparison(c, i, unit);
	if (c->nvar > 2)
		printf("\n");
	print_drift(c, unit);
	if (c->done < c->rounds)
		printf("%s: the verdict%s on %zu pair%s of %zu rounds asked\n",
		       c->interrupted ? "Interrupted" : "Stopped early",
		       c->nvar == 2 ? " rests" : "s rest", c->done, c->done == 1 ? "" : "s",
		       c->rounds);
	print_verdicts(c);
}

/* The per-round pairs of variant vi against A, each with the round's whole order. */
static json_t *pairs_json(const struct ab_ctx *c, size_t vi)
{
	json_t *a = json_array(), *order;

	for (size_t r = 0; a && r < c->done; r++) {
		double x = c->v[0].vals[r], y = c->v[vi].vals[r];

		order = json_array();
		for (size_t pos = 0; order && pos < c->nvar; pos++)
			json_array_append_new(order, json_string(c->v[c->order[r][pos]].name));
		if (json_array_append_new(a, json_pack("{s:I, s:o, s:f, s:f, s:f, s:o}",
				"round", (json_int_t)r + 1, "order", order, "a", x, "b", y,
				"diff", y - x, "diff_pct",
				num(x != 0 ? 100.0 * (y - x) / x : NAN)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* What loadgen-ab/1 holds about B at its top level, for variant vi. */
static json_t *comparison_json(const struct ab_ctx *c, size_t vi)
{
	const struct lg_ab_analysis *an = &c->an[vi];

	return json_pack("{s:o, s:f, s:f, s:o, s:o, s:[o, o], "
			 "s:{s:o, s:o, s:o}, s:{s:o, s:o, s:b, s:o}, s:o, s:o, s:f, s:s}",
			 "pairs", pairs_json(c, vi), "mean_a", an->mean_a, "mean_b", an->mean_b,
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
			 "target_pct", an->target_pct, "verdict", verdict_words(an));
}

/* loadgen-ab/2's comparisons: one per variant after A, with its name and adjusted p. */
static json_t *comparisons_json(const struct ab_ctx *c)
{
	json_t *all = json_array(), *one;

	for (size_t i = 1; all && i < c->nvar; i++) {
		one = comparison_json(c, i);
		if (one && (json_object_set_new(one, "variant", json_string(c->v[i].name)) ||
			    json_object_set_new(one, "p_adjusted", num(c->an[i].p_adjusted)))) {
			json_decref(one);
			one = NULL;
		}
		if (json_array_append_new(all, one)) {
			json_decref(all);
			return NULL;
		}
	}
	return all;
}

static json_t *variants_json(const struct ab_ctx *c)
{
	json_t *all = json_array();

	for (size_t i = 0; all && i < c->nvar; i++)
		if (json_array_append_new(all, json_pack("{s:s, s:s?, s:s}", "name", c->v[i].name,
							 "command", c->v[i].cmd, "file",
							 c->v[i].path))) {
			json_decref(all);
			return NULL;
		}
	return all;
}

json_t *lg_ab_json(const struct ab_ctx *c)
{
	const struct lg_ab_drift *d = &c->drift;
	json_t *doc, *rest;

	doc = json_pack("{s:s, s:s, s:o, s:I, s:I, s:b, s:o}", "schema",
			c->nvar == 2 ? AB_SCHEMA : AB_SCHEMA_MANY, "metric",
			c->use_ops ? "ops_per_s" : "throughput_mbps", "variants", variants_json(c),
			"rounds", (json_int_t)c->rounds, "pairs_n", (json_int_t)c->done,
			"interrupted", c->interrupted, "cleanup_errors",
			c->cleanup_errors ? json_incref(c->cleanup_errors) : json_array());
	rest = c->nvar == 2 ? comparison_json(c, 1)
	       : json_pack("{s:s, s:o}", "adjustment", "holm", "comparisons",
			   comparisons_json(c));
	if (!doc || !rest || json_object_update_new(doc, rest) ||
	    json_object_update_new(doc, json_pack("{s:{s:o, s:o, s:[o, o], s:o, s:o}, s:o, "
			"s:f}", "drift", "slope_per_round", num(d->slope), "slope_pct_per_round",
			num(d->slope_pct), "ci95", num(d->ci95_lo), num(d->ci95_hi), "p", num(d->p),
			"total_pct", num(d->total_pct), "fail_if_slower_pct",
			c->fail_if_slower ? json_real(c->slower_pct) : json_null(),
			"alpha", LG_COMPARE_ALPHA))) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
