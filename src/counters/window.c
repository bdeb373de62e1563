/* Per-interval latency windows (see window.h for the design). */
#include "window.h"

#include <math.h>
#include <string.h>

void lg_window_clear(struct lg_window *w)
{
	for (size_t i = 0; i < LG_WINDOW_BUCKETS; i++)
		atomic_store_explicit(&w->buckets[i], 0, memory_order_relaxed);
}

void lg_window_record(struct lg_window *w, uint64_t ns)
{
	lg_window_record_bucket(w, lg_histogram_bucket(ns));
}

void lg_window_add(struct lg_window_sum *sum, const struct lg_window *w)
{
	for (size_t i = 0; i < LG_WINDOW_BUCKETS; i++) {
		uint32_t n = atomic_load_explicit(&w->buckets[i], memory_order_relaxed);

		sum->buckets[i] += n;
		sum->count += n;
	}
}

uint64_t lg_window_percentile(const struct lg_window_sum *sum, double pct)
{
	uint64_t rank, seen = 0, low, high, unused;

	if (sum->count == 0)
		return 0;
	rank = (uint64_t)ceil(pct / 100.0 * (double)sum->count - 1e-9);
	if (rank < 1)
		rank = 1;
	for (size_t i = 0; i < LG_WINDOW_BUCKETS; i++) {
		seen += sum->buckets[i];
		if (seen >= rank) {
			lg_histogram_bucket_bounds(i * LG_WINDOW_MERGE, &low, &unused);
			lg_histogram_bucket_bounds(i * LG_WINDOW_MERGE + LG_WINDOW_MERGE - 1,
						   &unused, &high);
			return low + (high - low) / 2;
		}
	}
	return 0;
}
