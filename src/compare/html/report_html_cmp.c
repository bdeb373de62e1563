/* The comparisons in the data object of `loadgen report`: each file against the
 * baseline, with the verdicts of lg_cmp_decide_group (per client count, as compare
 * decides them), the words of lg_verdict_name and the setup differences of
 * lg_cmp_setup_diffs, so the page says what `loadgen compare` says. */
#include "report_html_priv.h"

#include <errno.h>

#include "loadgen/inference/inference.h"

static void diff_json(const char *key, const json_t *base, const json_t *other, void *ctx)
{
	/* a failed entry is missing; the caller compares the count */
	json_array_append_new(ctx, json_pack("{s:s, s:o, s:o}", "key", key, "baseline",
					     base ? json_deep_copy(base) : json_null(), "other",
					     other ? json_deep_copy(other) : json_null()));
}

static json_t *metric_json(const struct lg_cmp_metric_result *m, enum lg_cmp_metric k)
{
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
			 "key", lg_cmp_metric_key(k), "unit", lg_cmp_metric_unit(k),
			 "base_mean", num(m->base.mean),
			 "base_half_ci", num((m->base.ci95_hi - m->base.ci95_lo) / 2),
			 "other_mean", num(m->other.mean),
			 "other_half_ci", num((m->other.ci95_hi - m->other.ci95_lo) / 2),
			 "change_pct", num(m->change_pct),
			 "p_value", m->tested ? num(m->welch.p) : json_null(),
			 "runs", json_pack("[I, I]", (json_int_t)m->base.n, (json_int_t)m->other.n),
			 "tested", (int)m->tested);
}

/* other against base over the runs of groups bg and og; "clients" names the count when
 * the files are compared count by count (clients 0: they are not). */
static json_t *comparison_json(const struct lg_cmp_file *base, const struct lg_cmp_file *other,
			       const struct lg_cmp_group *bg, const struct lg_cmp_group *og,
			       unsigned clients)
{
	const struct lg_cmp_opts opts = { .alpha = LG_COMPARE_ALPHA };
	struct lg_cmp_result r;
	json_t *diffs = json_array(), *metrics = json_array(), *c;
	size_t n = diffs ? lg_cmp_setup_diffs(base, other, diff_json, diffs) : 0;

	lg_cmp_decide_group(bg, og, &opts, &r);
	if (diffs && json_array_size(diffs) != n) {
		json_decref(diffs);
		diffs = NULL;
	}
	for (int k = 0; metrics && k < LG_CMP_NMETRICS; k++)
		if (!push(metrics, metric_json(&r.metric[k], k))) {
			json_decref(metrics);
			metrics = NULL;
		}
	c = json_pack("{s:s, s:s, s:o, s:o, s:s, s:b, s:f}", "file", other->path,
		      "verdict", lg_verdict_name(r.verdict), "setup_differences", diffs,
		      "metrics", metrics, "decided_by", lg_cmp_metric_key(r.decided_by),
		      "below_min_effect", (int)r.below_min_effect, "alpha", opts.alpha);
	if (c && clients && json_object_set_new(c, "clients", json_integer(clients))) {
		json_decref(c);
		return NULL;
	}
	return c;
}

int lg_report_add_comparisons(json_t *cmps, const struct lg_cmp_file *base,
			   const struct lg_cmp_file *other)
{
	const char *why = !base->nruns ? "the baseline measured nothing" :
			  !other->nruns ? "it measured nothing" :
			  lg_cmp_incomparable(base, other);
	bool by_count = base->ngroups > 1 || other->ngroups > 1;

	if (why)
		return push(cmps, json_pack("{s:s, s:s}", "file", other->path, "skipped", why))
			       ? 0 : -ENOMEM;
	for (size_t g = 0; g < base->ngroups; g++) {
		const struct lg_cmp_group *bg = &base->groups[g];
		const struct lg_cmp_group *og =
			lg_cmp_group_of(other, by_count ? bg->clients : LG_CMP_ANY_CLIENTS);

		if (og && !push(cmps, comparison_json(base, other, bg, og,
						      by_count ? bg->clients : 0)))
			return -ENOMEM;
	}
	return 0;
}

