/* Clients as distributions: see client_dist.h. */
#include "loadgen/counters/client_dist.h"

#include <string.h>

static void figure_init(struct lg_client_figure *f)
{
	lg_histogram_init(&f->hist);
	f->sumsq = 0;
	f->min_client = f->max_client = UINT32_MAX;
}

void lg_client_dist_init(struct lg_client_dist *d)
{
	d->clients = 0;
	figure_init(&d->ops);
	figure_init(&d->bytes);
	figure_init(&d->p99);
}

static void figure_add(struct lg_client_figure *f, uint64_t v, uint32_t client)
{
	if (!f->hist.count || v < f->hist.min_ns)
		f->min_client = client;
	if (!f->hist.count || v > f->hist.max_ns)
		f->max_client = client;
	lg_histogram_record(&f->hist, v);
	f->sumsq += (double)v * (double)v;
}

void lg_client_dist_add(struct lg_client_dist *d, const struct lg_client_stats *cs)
{
	d->clients++;
	figure_add(&d->ops, cs->row.ops, cs->id);
	figure_add(&d->bytes, cs->row.bytes, cs->id);
	figure_add(&d->p99, cs->row.p99_ns, cs->id);
}

static void figure_merge(struct lg_client_figure *dst, const struct lg_client_figure *src)
{
	if (!src->hist.count)
		return;
	/* ties go to the lower client id, so that the result does not depend on the order
	 * in which a tree of ranks merged */
	if (!dst->hist.count || src->hist.min_ns < dst->hist.min_ns ||
	    (src->hist.min_ns == dst->hist.min_ns && src->min_client < dst->min_client))
		dst->min_client = src->min_client;
	if (!dst->hist.count || src->hist.max_ns > dst->hist.max_ns ||
	    (src->hist.max_ns == dst->hist.max_ns && src->max_client < dst->max_client))
		dst->max_client = src->max_client;
	lg_histogram_add(&dst->hist, &src->hist);
	dst->sumsq += src->sumsq;
}

void lg_client_dist_merge(struct lg_client_dist *dst, const struct lg_client_dist *src)
{
	dst->clients += src->clients;
	figure_merge(&dst->ops, &src->ops);
	figure_merge(&dst->bytes, &src->bytes);
	figure_merge(&dst->p99, &src->p99);
}

void lg_client_dist_fairness(const struct lg_client_dist *d, double duration_s, bool bytes,
			     struct lg_fairness *out)
{
	const struct lg_client_figure *f = bytes ? &d->bytes : &d->ops;
	double scale = (duration_s > 0 ? duration_s : 1) * (bytes ? 1e6 : 1);
	double sum = (double)f->hist.sum_ns;

	memset(out, 0, sizeof(*out));
	out->metric = bytes ? "throughput_mbps" : "ops_per_s";
	if (!f->hist.count)
		return;
	out->min = (double)f->hist.min_ns / scale;
	out->max = (double)f->hist.max_ns / scale;
	out->median = (double)lg_histogram_percentile(&f->hist, 50) / scale;
	out->jain = f->sumsq > 0 ? sum * sum / ((double)f->hist.count * f->sumsq) : 1;
}

static json_t *figure_json(const struct lg_client_figure *f, double scale)
{
	const struct lg_histogram *h = &f->hist;

	if (!h->count)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I}",
			 "min", (double)h->min_ns / scale,
			 "p1", (double)lg_histogram_percentile(h, 1) / scale,
			 "p10", (double)lg_histogram_percentile(h, 10) / scale,
			 "p50", (double)lg_histogram_percentile(h, 50) / scale,
			 "p90", (double)lg_histogram_percentile(h, 90) / scale,
			 "p99", (double)lg_histogram_percentile(h, 99) / scale,
			 "max", (double)h->max_ns / scale,
			 "mean", lg_histogram_mean(h) / scale,
			 "min_client", (json_int_t)f->min_client,
			 "max_client", (json_int_t)f->max_client);
}

json_t *lg_client_dist_json(const struct lg_client_dist *d, double duration_s)
{
	double s = duration_s > 0 ? duration_s : 1;

	return json_pack("{s:I, s:o, s:o, s:o}", "clients", (json_int_t)d->clients,
			 "throughput_mbps", figure_json(&d->bytes, s * 1e6),
			 "ops_per_s", figure_json(&d->ops, s),
			 "p99_latency_ns", figure_json(&d->p99, 1));
}
