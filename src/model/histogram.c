/* Log-linear latency histogram.
 *
 * Layout: with S = LG_HIST_SUB (64), values below 2*S get one bucket each; above, each
 * power of two [2^e, 2^(e+1)) is cut into S buckets of width 2^(e - LG_HIST_SUB_BITS).
 * Both cases reduce to one formula: with e = max(msb(v), LG_HIST_SUB_BITS) and
 * shift = e - LG_HIST_SUB_BITS, the bucket is shift * S + (v >> shift). For v < 2*S,
 * shift is 0 and the index is v itself; otherwise (v >> shift) lies in [S, 2S), so
 * consecutive powers of two follow each other without gaps. That keeps record() down
 * to a clz, a shift and an add: no loops, no divisions, no data-dependent branches. */
#include "loadgen/model/histogram.h"

#include <math.h>
#include <string.h>

void lg_histogram_init(struct lg_histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

void lg_histogram_init_zeroed(struct lg_histogram *h)
{
	h->min_ns = UINT64_MAX;
}

void lg_histogram_clear(struct lg_histogram *h)
{
	if (h->count) {
		size_t lo = lg_histogram_bucket(h->min_ns), hi = lg_histogram_bucket(h->max_ns);

		memset(&h->buckets[lo], 0, (hi - lo + 1) * sizeof(h->buckets[0]));
	}
	h->count = h->max_ns = h->sum_ns = 0;
	h->min_ns = UINT64_MAX;
}

bool lg_histogram_record(struct lg_histogram *h, uint64_t ns)
{
	return lg_histogram_record_at(h, ns, lg_histogram_bucket(ns));
}

void lg_histogram_add(struct lg_histogram *dst, const struct lg_histogram *src)
{
	if (src->count == 0)
		return;
	/* every non-zero bucket lies between those of min and max */
	for (size_t i = lg_histogram_bucket(src->min_ns); i <= lg_histogram_bucket(src->max_ns); i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

void lg_histogram_bucket_bounds(size_t i, uint64_t *low, uint64_t *high)
{
	/* Inverse of lg_histogram_bucket: groups 0 and 1 share shift 0, group g > 1 has shift g-1. */
	size_t group = i >> LG_HIST_SUB_BITS;
	unsigned shift = group > 1 ? (unsigned)group - 1 : 0;
	uint64_t base = (uint64_t)(i - ((size_t)shift << LG_HIST_SUB_BITS));

	*low = base << shift;
	*high = *low + (UINT64_C(1) << shift) - 1;
}

/* Rank (1-based) of percentile pct among count values: the smallest r with
 * r >= pct/100 * count. The tiny relative slack keeps products such as 99.9% of 1000,
 * which come out as 999.0000000001 in binary floating point, on the intended rank. */
static uint64_t rank_of(double pct, uint64_t count)
{
	double x = pct / 100.0 * (double)count;
	double r = ceil(x - x * 1e-12);

	if (r < 1)
		return 1;
	if (r >= (double)count)
		return count;
	return (uint64_t)r;
}

uint64_t lg_histogram_percentile(const struct lg_histogram *h, double pct)
{
	uint64_t rank, seen = 0, low, high, mid;
	size_t i;

	if (h->count == 0)
		return 0;
	if (!(pct > 0)) /* also catches NaN */
		return h->min_ns;
	if (pct >= 100)
		return h->max_ns;
	rank = rank_of(pct, h->count);
	for (i = 0; i < LG_HIST_BUCKETS - 1; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	lg_histogram_bucket_bounds(i, &low, &high);
	mid = low + (high - low) / 2;
	/* The exact extremes beat the midpoint: a bucket holding only the minimum should
	 * not report less than it, nor the top bucket less than an out-of-range max. */
	if (mid < h->min_ns)
		return h->min_ns;
	if (mid > h->max_ns)
		return h->max_ns;
	return mid;
}

double lg_histogram_mean(const struct lg_histogram *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : 0.0;
}
