/* Latency in `loadgen compare`: the runs' histograms of one op type merged bucket by
 * bucket, and percentiles read from the merged buckets, never averaged. */
#include "loadgen/compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A non-negative JSON integer; *v gets its value. */
static bool get_count(const json_t *j, uint64_t *v)
{
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

/* --- Latency --- */

/* One histogram bucket: values low_ns..high_ns, count of them. */
struct bucket {
	uint64_t low;   /* lowest value in the bucket, ns */
	uint64_t high;  /* highest value in the bucket, ns */
	uint64_t count; /* values recorded in it */
};

static const json_t *type_in_run(const json_t *run, const char *label)
{
	return json_object_get(json_object_get(run, "ops_by_type"), label);
}

/* The runs a latency is read from: all of a file's, or those of one group. */
struct run_set {
	const struct lg_cmp_file *f; /* the file */
	const size_t *idx;           /* indexes into f->runs, or NULL for all */
	size_t n;                    /* how many */
};

/* The i-th run of the set. */
static const json_t *set_run(const struct run_set *s, size_t i)
{
	return json_array_get(s->f->runs, s->idx ? s->idx[i] : i);
}

json_t *lg_cmp_op_labels(const struct lg_cmp_file *base, const struct lg_cmp_file *other)
{
	const struct lg_cmp_file *files[] = { base, other };
	json_t *set = json_object(), *run, *t;
	const char *label;
	size_t r;

	for (size_t i = 0; set && i < 2; i++) {
		json_array_foreach(files[i]->runs, r, run) {
			json_object_foreach(json_object_get(run, "ops_by_type"), label, t) {
				if (!json_object_get(set, label) &&
				    json_object_set_new(set, label, json_true()) != 0) {
					json_decref(set);
					return NULL;
				}
			}
		}
	}
	return set;
}

static int cmp_bucket(const void *pa, const void *pb)
{
	const struct bucket *a = pa, *b = pb;

	if (a->low != b->low)
		return a->low < b->low ? -1 : 1;
	return a->high < b->high ? -1 : a->high > b->high;
}

/* Value at percentile pct of the merged buckets b[0..n-1] (sorted, total count > 0),
 * the way lg_histogram_percentile answers: the midpoint of the bucket holding the
 * rank, clamped to the exact [min, max]. */
static uint64_t merged_percentile(const struct bucket *b, size_t n, uint64_t total,
				  double pct, uint64_t min, uint64_t max)
{
	double x = pct / 100.0 * (double)total;
	double rank = ceil(x - x * 1e-12); /* 99% of 100 must be rank 99, not 100 */
	uint64_t seen = 0, mid;
	size_t i;

	rank = rank < 1 ? 1 : rank;
	for (i = 0; i + 1 < n; i++) {
		seen += b[i].count;
		if ((double)seen >= rank)
			break;
	}
	mid = b[i].low + (b[i].high - b[i].low) / 2;
	return mid < min ? min : mid > max ? max : mid;
}

/* Add every run's buckets of label to *out (n entries, sorted, identical buckets
 * merged). 0 or -ENOMEM. */
static int merge_buckets(const struct run_set *rs, const char *label, struct bucket **out,
			 size_t *n)
{
	struct bucket *b;
	size_t total = 0, k = 0, r, i;
	const json_t *e;

	for (r = 0; r < rs->n; r++)
		total += json_array_size(json_object_get(type_in_run(set_run(rs, r), label),
							 "histogram"));
	*out = NULL;
	*n = 0;
	if (total == 0)
		return 0;
	b = calloc(total, sizeof(*b));
	if (!b)
		return -ENOMEM;
	for (r = 0; r < rs->n; r++) {
		const json_t *h = json_object_get(type_in_run(set_run(rs, r), label), "histogram");

		json_array_foreach(h, i, e) {
			get_count(json_array_get(e, 0), &b[k].low);
			get_count(json_array_get(e, 1), &b[k].high);
			get_count(json_array_get(e, 2), &b[k].count);
			k++;
		}
	}
	qsort(b, total, sizeof(*b), cmp_bucket);
	k = 0;
	for (i = 1; i < total; i++) {
		if (b[i].low == b[k].low && b[i].high == b[k].high)
			b[k].count += b[i].count;
		else
			b[++k] = b[i];
	}
	*out = b;
	*n = k + 1;
	return 0;
}

/* min and max over the runs' latency_ns; UINT64_MAX / 0 when none says. Also the
 * single run's latency_ns when exactly one run has the label. */
static const json_t *extremes(const struct run_set *rs, const char *label, uint64_t *min,
			      uint64_t *max)
{
	const json_t *only = NULL;
	size_t nwith = 0;
	uint64_t v;

	*min = UINT64_MAX;
	*max = 0;
	for (size_t r = 0; r < rs->n; r++) {
		const json_t *t = type_in_run(set_run(rs, r), label);
		const json_t *lat = json_object_get(t, "latency_ns");

		if (!t)
			continue;
		nwith++;
		only = lat;
		if (get_count(json_object_get(lat, "min"), &v) && v < *min)
			*min = v;
		if (get_count(json_object_get(lat, "max"), &v) && v > *max)
			*max = v;
	}
	return nwith == 1 ? only : NULL;
}

static int latency_of(const struct run_set *rs, const char *label, struct lg_cmp_latency *out)
{
	const json_t *single;
	struct bucket *b;
	uint64_t min, max, total = 0;
	size_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	single = extremes(rs, label, &min, &max);
	rc = merge_buckets(rs, label, &b, &n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++)
		total += b[i].count;
	if (total == 0) {
		/* no histograms (hand-written or trimmed files): a single run's own
		 * percentiles are still right; several runs' cannot be combined */
		out->max_ns = max;
		out->have_pct = single &&
				get_count(json_object_get(single, "p50"), &out->p50_ns) &&
				get_count(json_object_get(single, "p99"), &out->p99_ns);
		free(b);
		return 0;
	}
	if (max == 0) /* no recorded max: the top of the highest bucket */
		for (size_t i = 0; i < n; i++)
			max = b[i].high > max ? b[i].high : max;
	min = min == UINT64_MAX ? b[0].low : min;
	out->have_pct = true;
	out->count = total;
	out->p50_ns = merged_percentile(b, n, total, 50, min, max);
	out->p99_ns = merged_percentile(b, n, total, 99, min, max);
	out->max_ns = max;
	free(b);
	return 0;
}

int lg_cmp_latency(const struct lg_cmp_file *f, const char *label, struct lg_cmp_latency *out)
{
	struct run_set rs = { .f = f, .n = f->nruns };

	return latency_of(&rs, label, out);
}

int lg_cmp_latency_group(const struct lg_cmp_file *f, const struct lg_cmp_group *g,
			 const char *label, struct lg_cmp_latency *out)
{
	struct run_set rs = { .f = f, .idx = g->runs, .n = g->n };

	return latency_of(&rs, label, out);
}
