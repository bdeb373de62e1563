/* A client's memory before the clock starts: the pages of its counters in the run's
 * shared mapping faulted in, so that no measured op pays for them. */
#include "client.h"

#include <stddef.h>
#include <stdlib.h>

/* Write each page of [p, p + n) with what it holds: a client's counters are in the run's
 * shared mapping, whose pages the kernel gives out at their first write. */
static void touch_pages(void *p, size_t n)
{
	enum { PAGE = 4096 }; /* a smaller stride than the page costs nothing but writes */
	volatile char *b = p;

	for (size_t i = 0; i < n; i += PAGE)
		b[i] = b[i];
	if (n)
		b[n - 1] = b[n - 1];
}

/* Fault in, before the clock starts, the pages this client's first measured ops will
 * write: its timeline windows, and for each op type of its run phase the counters and the
 * histogram buckets from 256 ns to 1 ms. A page first written in the measured phase costs
 * the op that wrote it a fault (2-4 us here, with shmem's accounting), which a recorded
 * program's short streams paid once per stream and type: a quarter of a replay of make.
 * Buckets outside the band stay untouched, so a thousand clients do not map their whole
 * histograms. */
void lg_client_prefault(struct lg_client *c)
{
	const struct lg_op *ops = c->wl->ops[LG_PHASE_RUN];
	size_t lo = lg_histogram_bucket(256), hi = lg_histogram_bucket(1000 * 1000);
	size_t band = (hi - lo + 1) * sizeof(c->stats->types[0].hist.buckets[0]);
	unsigned char *seen = calloc(c->stats->ntypes ? c->stats->ntypes : 1, 1);

	touch_pages(c->win, LG_WINDOWS * sizeof(*c->win));
	if (!seen)
		return; /* only slower */
	for (size_t i = c->run_first; i < c->run_end; i++) {
		uint16_t ty = ops[i].type;
		struct lg_type_stats *t;

		if (ty >= c->stats->ntypes || seen[ty])
			continue;
		seen[ty] = 1;
		t = &c->stats->types[ty];
		touch_pages(t, offsetof(struct lg_type_stats, hist.buckets));
		touch_pages(&t->hist.buckets[lo], band);
		if (c->stats->svc)
			touch_pages(&c->stats->svc[ty].buckets[lo], band);
	}
	free(seen);
}
