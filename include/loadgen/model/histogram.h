/* Log-linear latency histogram with a fixed bucket layout.
 *
 * Values are nanoseconds from 0 to LG_HIST_MAX_NS (> 1 hour). Each power of two is cut
 * into LG_HIST_SUB sub-buckets, so a bucket is at most 1/LG_HIST_SUB of its lower bound
 * wide; queries answer with the bucket midpoint, within 1/(2*LG_HIST_SUB) (< 1 %) of any
 * value in it. min, max, sum and count are exact. The layout is the same for every
 * histogram, so the struct has no pointers: it can live in shared memory, be copied,
 * and be merged with lg_histogram_add. */
#ifndef LOADGEN_HISTOGRAM_H
#define LOADGEN_HISTOGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LG_HIST_SUB_BITS 6                      /* log2 of sub-buckets per power of two */
#define LG_HIST_SUB (1u << LG_HIST_SUB_BITS)    /* 64 sub-buckets: <= 0.79 % error */
#define LG_HIST_TOP_BIT 42                      /* highest power of two covered */
#define LG_HIST_MAX_NS ((UINT64_C(1) << (LG_HIST_TOP_BIT + 1)) - 1) /* ~2.4 hours */
#define LG_HIST_BUCKETS ((LG_HIST_TOP_BIT - LG_HIST_SUB_BITS + 2) * LG_HIST_SUB)

/* A latency histogram. Zero-initialised memory is NOT valid: call lg_histogram_init. */
struct lg_histogram {
	uint64_t count;                    /* values recorded */
	uint64_t min_ns;                   /* smallest value (UINT64_MAX when empty) */
	uint64_t max_ns;                   /* largest value (exact, even past the range) */
	uint64_t sum_ns;                   /* sum of values, for the mean */
	uint64_t buckets[LG_HIST_BUCKETS]; /* counts per bucket */
};

/* Empty h (caller-owned memory). */
void lg_histogram_init(struct lg_histogram *h);
/* Empty h, which is all zero bytes already (fresh calloc or anonymous mmap memory):
 * writes only the header, so untouched bucket pages stay unallocated. */
void lg_histogram_init_zeroed(struct lg_histogram *h);
/* Empty an initialised h, writing only the buckets it can have used (those between its
 * min and max), so memory never touched stays untouched. */
void lg_histogram_clear(struct lg_histogram *h);
/* Record one value. Returns false when ns > LG_HIST_MAX_NS: the value is then counted in
 * the top bucket (so counts stay exact) and max_ns keeps the true value. Never aborts. */
bool lg_histogram_record(struct lg_histogram *h, uint64_t ns);
/* Add every count of src into dst. */
void lg_histogram_add(struct lg_histogram *dst, const struct lg_histogram *src);
/* Value at percentile pct (0..100): the midpoint of the bucket holding that rank, clamped
 * to [min, max]; pct 0 gives min, 100 gives max. 0 when empty. */
uint64_t lg_histogram_percentile(const struct lg_histogram *h, double pct);
/* Mean of the recorded values (exact), 0 when empty. */
double lg_histogram_mean(const struct lg_histogram *h);
/* Lowest bits forced on before clz, so values below 2*LG_HIST_SUB all get shift 0 (and
 * clz never sees 0, where it is undefined). */
#define LG_HIST_LOW_MASK ((UINT64_C(1) << (LG_HIST_SUB_BITS + 1)) - 1)

/* Bucket index of value ns (values past the range map to the last bucket). Inline: it
 * runs for every op, in the histogram and in the timeline window. With
 * e = max(msb(v), LG_HIST_SUB_BITS) and shift = e - LG_HIST_SUB_BITS the bucket is
 * shift * LG_HIST_SUB + (v >> shift): a clz, a shift and an add (see histogram.c). */
static inline size_t lg_histogram_bucket(uint64_t ns)
{
	uint64_t v = ns > LG_HIST_MAX_NS ? LG_HIST_MAX_NS : ns;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v | LG_HIST_LOW_MASK);
	unsigned shift = msb - LG_HIST_SUB_BITS;

	return ((size_t)shift << LG_HIST_SUB_BITS) + (size_t)(v >> shift);
}
/* lg_histogram_record for a caller that computed ns's bucket (lg_histogram_bucket)
 * already, to use it twice (the client loop also counts it in the timeline window).
 * Inline: it runs for every op. Same result and return value. */
static inline bool lg_histogram_record_at(struct lg_histogram *h, uint64_t ns, size_t bucket)
{
	h->buckets[bucket]++;
	h->count++;
	h->sum_ns += ns;
	/* selects, so the compiler emits cmov rather than branches that a latency stream
	 * would mispredict */
	h->min_ns = ns < h->min_ns ? ns : h->min_ns;
	h->max_ns = ns > h->max_ns ? ns : h->max_ns;
	return ns <= LG_HIST_MAX_NS;
}
/* Bounds of bucket i: values v with *low <= v <= *high fall in it. */
void lg_histogram_bucket_bounds(size_t i, uint64_t *low, uint64_t *high);

#endif
