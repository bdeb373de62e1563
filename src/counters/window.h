/* Per-interval latency windows, for the timeline's p99.
 *
 * A client records each measured op into the window of the current interval while the
 * master reads windows of finished intervals. To keep that free of locks and of data
 * races, a window's counters are relaxed atomics with one writer (plain moves on the
 * usual CPUs), each client has LG_WINDOWS of them used round-robin by interval number,
 * and the master reads an interval's window one interval after it ended, when no client
 * writes it any more. Buckets are the histogram's merged by four (16 per power of two),
 * so a window is small enough to keep three per client even at thousands of clients;
 * the p99 it gives is within about 3 %. */
#ifndef LOADGEN_WINDOW_H
#define LOADGEN_WINDOW_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "loadgen/model/histogram.h"

#define LG_WINDOWS 3                       /* windows per client, used round-robin */
#define LG_WINDOW_MERGE 4                  /* histogram buckets per window bucket */
#define LG_WINDOW_BUCKETS (LG_HIST_BUCKETS / LG_WINDOW_MERGE)

/* The latencies of one client in one interval. */
struct lg_window {
	_Atomic uint32_t buckets[LG_WINDOW_BUCKETS]; /* ops per bucket */
	_Atomic unsigned epoch; /* the interval the counts are of: set by the writer as it
				   clears the window for it; a window its client left alone
				   holds an older interval's counts */
};

/* Counts of many windows added up, for the master's queries. */
struct lg_window_sum {
	uint64_t count;                      /* ops */
	uint64_t buckets[LG_WINDOW_BUCKETS]; /* ops per bucket */
};

/* Zero w (by its writer, before reusing it for a new interval). */
void lg_window_clear(struct lg_window *w);
/* Count one latency of ns. */
void lg_window_record(struct lg_window *w, uint64_t ns);
/* Count one latency whose histogram bucket (lg_histogram_bucket) is hist_bucket: what
 * lg_window_record does, for a caller that has the bucket already. Inline: it runs for
 * every measured op. */
static inline void lg_window_record_bucket(struct lg_window *w, size_t hist_bucket)
{
	_Atomic uint32_t *b = &w->buckets[hist_bucket / LG_WINDOW_MERGE];

	/* single writer: a load and a store, no locked read-modify-write */
	atomic_store_explicit(b, atomic_load_explicit(b, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}
/* Add w's counts into sum (sum zeroed by the caller first). */
void lg_window_add(struct lg_window_sum *sum, const struct lg_window *w);
/* The value at percentile pct (0..100) of sum: its bucket's midpoint; 0 when empty. */
uint64_t lg_window_percentile(const struct lg_window_sum *sum, double pct);

#endif
