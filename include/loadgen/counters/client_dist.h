/* The clients of a run as distributions instead of rows: what a result on many hosts
 * keeps of its clients when there are too many to list (lg_run.dist). Every field is a
 * sum, a minimum, a maximum or histogram buckets, so the distributions of two sets of
 * clients merge into that of their union (lg_client_dist_merge): ranks reduce them up a
 * tree like their counters. */
#ifndef LOADGEN_CLIENT_DIST_H
#define LOADGEN_CLIENT_DIST_H

#include <jansson.h>
#include <stdint.h>

#include "loadgen/counters/counters.h"
#include "loadgen/model/histogram.h"

/* One figure over the clients: the histogram of its per-client values (exact count,
 * min, max and sum; percentiles within 0.8 %), the sum of squares (for Jain's index)
 * and which clients had the smallest and largest value. */
struct lg_client_figure {
	struct lg_histogram hist;
	double sumsq;
	uint32_t min_client, max_client;
};

struct lg_client_dist {
	uint64_t clients;             /* clients in it */
	struct lg_client_figure ops;   /* ops per client */
	struct lg_client_figure bytes; /* bytes per client */
	struct lg_client_figure p99;   /* each client's p99 latency, ns */
};

/* Empty d. */
void lg_client_dist_init(struct lg_client_dist *d);
/* Add one client (its row must be filled: lg_client_row_fill). */
void lg_client_dist_add(struct lg_client_dist *d, const struct lg_client_stats *cs);
/* Add src's clients into dst. */
void lg_client_dist_merge(struct lg_client_dist *dst, const struct lg_client_dist *src);
/* Fairness from a distribution (lg_run_fairness of a run with rows): min, max and Jain's
 * index exact; the median is the histogram's p50, a client's value within 0.8 % (for an
 * even count the lower of the two middle ones, where rows average them). */
void lg_client_dist_fairness(const struct lg_client_dist *d, double duration_s, bool bytes,
			     struct lg_fairness *out);
/* The result file's "client_distribution" object, or NULL (out of memory). */
json_t *lg_client_dist_json(const struct lg_client_dist *d, double duration_s);

#endif
