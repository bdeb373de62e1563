/* Batches in `loadgen compare`: whether a file's runs drift over their order.
 *
 * A result file is one batch: its runs ran one after the other on one boot, one state
 * of the machine. Welch's test treats them as independent samples of the setup; when
 * they trend, or the first stands apart (a warm-up the --warmup did not absorb), they
 * are not, and a verdict between two such files says as much about the batches as about
 * the setups. compare says so beside the verdict rather than silently. */
#include "loadgen/compare/compare.h"
#include "loadgen/model/errf.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void lg_cmp_drift_of(const double *v, size_t n, double alpha, struct lg_cmp_drift *out)
{
	memset(out, 0, sizeof(*out));
	if (lg_stat_trend(v, n, &out->trend) || lg_stat_first_apart(v, n, &out->first))
		return;
	out->tested = true;
	out->drifts = out->trend.p < alpha;
	out->first_apart = out->first.p < alpha;
}

/* The batch of run r of f: its LG_CMP_BATCH_KEY, 0 without one. */
static size_t batch_of(const struct lg_cmp_file *f, size_t r)
{
	const json_t *j = json_object_get(json_array_get(f->runs, r), LG_CMP_BATCH_KEY);

	return json_is_integer(j) && json_integer_value(j) > 0 ? (size_t)json_integer_value(j)
							       : 0;
}

/* Batch offsets and means of group g: runs are in file order, so a batch's are
 * contiguous; batches without a run at this count are simply not there. */
static int group_batches(const struct lg_cmp_file *f, struct lg_cmp_group *g)
{
	size_t k = 0;

	free(g->boff);
	free(g->bmbps);
	free(g->bops);
	g->boff = calloc(g->n + 1, sizeof(*g->boff));
	g->bmbps = calloc(g->n, sizeof(*g->bmbps));
	g->bops = calloc(g->n, sizeof(*g->bops));
	if (!g->boff || !g->bmbps || !g->bops)
		return -ENOMEM;
	for (size_t j = 0; j < g->n; j++) {
		if (j > 0 && batch_of(f, g->runs[j]) != batch_of(f, g->runs[j - 1]))
			g->boff[++k] = j;
	}
	g->nbatches = g->n ? k + 1 : 0;
	g->boff[g->nbatches] = g->n;
	for (size_t b = 0; b < g->nbatches; b++) {
		size_t lo = g->boff[b], n = g->boff[b + 1] - lo;

		g->bmbps[b] = lg_stat_mean(g->mbps + lo, n);
		g->bops[b] = lg_stat_mean(g->ops + lo, n);
	}
	return 0;
}

int lg_cmp_file_set_batches(struct lg_cmp_file *f)
{
	for (size_t i = 0; i < f->ngroups; i++) {
		int rc = group_batches(f, &f->groups[i]);

		if (rc)
			return rc;
	}
	if (f->nbatches == 0)
		f->nbatches = 1;
	return 0;
}

/* "A1.json+A2.json+...", or NULL. */
static char *batches_name(char *const *paths, size_t n)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(paths[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, "+");
		strcat(s, paths[i]);
	}
	return s;
}

/* Append the runs of batch b (loaded, so its failed runs are left out already) to runs,
 * each marked with its batch. */
static int append_runs(json_t *runs, const struct lg_cmp_file *b, size_t index)
{
	const json_t *run;
	size_t r;

	json_array_foreach(b->runs, r, run) {
		json_t *copy = json_deep_copy(run);

		if (!copy || json_object_set_new(copy, LG_CMP_BATCH_KEY,
						 json_integer((json_int_t)index)) ||
		    json_array_append_new(runs, copy))
			return -ENOMEM;
	}
	return 0;
}

/* The first batch's document with the runs of all; checks every batch is of the same
 * workload as the first. */
static int merge_docs(char *const *paths, size_t n, json_t **out, char *err, size_t errlen)
{
	struct lg_cmp_file first, b;
	json_t *runs = json_array();
	int rc = lg_cmp_file_load(paths[0], &first, err, errlen);

	*out = NULL;
	if (rc || !runs) {
		json_decref(runs);
		return rc ? rc : lg_errf(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	}
	rc = append_runs(runs, &first, 0);
	for (size_t i = 1; rc == 0 && i < n; i++) {
		rc = lg_cmp_file_load(paths[i], &b, err, errlen);
		if (rc)
			break;
		if (lg_cmp_incomparable(&first, &b))
			rc = lg_errf(err, errlen, -EINVAL, "%s: not a batch of the setup of %s: %s",
				     paths[i], paths[0], lg_cmp_incomparable(&first, &b));
		else
			rc = append_runs(runs, &b, i);
		lg_cmp_file_release(&b);
	}
	if (rc == 0 && (!(*out = json_deep_copy(first.doc)) ||
			json_object_set_new(*out, "runs", runs)))
		rc = lg_errf(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	else if (rc == 0)
		runs = NULL;
	json_decref(runs);
	if (rc) {
		json_decref(*out);
		*out = NULL;
	}
	lg_cmp_file_release(&first);
	return rc;
}

int lg_cmp_file_load_batches(char *const *paths, size_t n, struct lg_cmp_file *out,
			     char *err, size_t errlen)
{
	json_t *doc;
	char *name;
	int rc;

	if (n == 1)
		return lg_cmp_file_load(paths[0], out, err, errlen);
	memset(out, 0, sizeof(*out));
	rc = merge_docs(paths, n, &doc, err, errlen);
	if (rc)
		return rc;
	name = batches_name(paths, n);
	if (!name) {
		json_decref(doc);
		return lg_errf(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	}
	rc = lg_cmp_file_init(name, doc, out, err, errlen);
	if (rc) {
		free(name);
		return rc;
	}
	out->own_path = name;
	out->nbatches = n;
	return 0;
}

void lg_cmp_batches_of(const struct lg_cmp_group *base, const struct lg_cmp_group *other,
		       const struct lg_cmp_opts *opts, struct lg_cmp_result *out)
{
	const struct lg_cmp_group *side[2] = { base, other };

	(void)opts;
	for (int s = 0; s < 2; s++) {
		const struct lg_cmp_group *g = side[s];

		out->batches[s] = g->nbatches;
		out->nested_ok[s] = false;
		if (g->nbatches < 2)
			continue;
		memset(&out->drift[s], 0, sizeof(out->drift[s]));
		out->nested_ok[s] = lg_stat_nested(out->decided_by == LG_CMP_OPS ? g->ops : g->mbps,
						   g->boff, g->nbatches, &out->nested[s]) == 0;
	}
}

void lg_cmp_settle(struct lg_cmp_result *r, const struct lg_cmp_opts *opts)
{
	const struct lg_cmp_metric_result *m = &r->metric[r->decided_by];

	r->below_min_effect = false;
	r->verdict = LG_VERDICT_SAME;
	if (!(m->welch.p < opts->alpha))
		return;
	if (!lg_cmp_metric_significant(m, opts)) {
		r->below_min_effect = true;
		return;
	}
	r->verdict = m->other.mean > m->base.mean ? LG_VERDICT_FASTER : LG_VERDICT_SLOWER;
}

/* Batches per side at which Welch's test on batch means with standard deviation sd
 * detects delta with LG_COMPARE_POWER; 0 over LG_COMPARE_MAX_RUNS. */
static size_t batches_for(double delta, double sd, double alpha)
{
	return lg_stat_runs_needed(delta, sd, sd, alpha, LG_COMPARE_POWER, LG_COMPARE_MAX_RUNS);
}

static void predict_metric(struct lg_cmp_metric_result *m, double alpha)
{
	bool single_other = m->other.n == 1;
	const struct lg_stat_summary *many = single_other ? &m->base : &m->other;
	double k = (double)many->n, se = many->stddev * sqrt(1.0 + 1.0 / k);
	double delta = m->other.mean - m->base.mean, base = fabs(m->base.mean);

	m->tested = true;
	m->welch.kind = se > 0 ? LG_WELCH_OK : delta != 0 ? LG_WELCH_DIFF_CONST
							 : LG_WELCH_SAME_CONST;
	m->welch.df = k - 1.0;
	m->welch.t = se > 0 ? delta / se : delta == 0 ? 0.0 : copysign(INFINITY, delta);
	m->welch.p = lg_stat_t_test_p(delta, se, k - 1.0);
	m->effect_g = NAN;
	m->mwu.min_p = 1.0; /* no rank test of one value against k */
	m->mwu.p = NAN;
	m->mde_pct = base > 0 ? 100.0 * lg_stat_se_mde(se, k - 1.0, alpha, LG_COMPARE_POWER) / base
			      : NAN;
	m->runs_needed = base > 0 ? batches_for(m->target_pct / 100.0 * base, many->stddev, alpha)
				  : 0;
}

void lg_cmp_predict_batch(const struct lg_cmp_opts *opts, struct lg_cmp_result *r)
{
	for (int i = 0; i < LG_CMP_NMETRICS; i++)
		if (r->metric[i].base.n >= 1 && r->metric[i].other.n >= 1 &&
		    (r->metric[i].base.n >= 2 || r->metric[i].other.n >= 2))
			predict_metric(&r->metric[i], opts->alpha);
	r->rank_too_few = true;
	r->rank_disagrees = false;
	lg_cmp_settle(r, opts);
}
