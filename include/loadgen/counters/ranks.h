/* The ranks and hosts of a run on several hosts, as its result keeps them (lg_run.multi):
 * filled by the coordination of ranks (run/ranks), owned by the run (counters), shown by
 * the per-host table and JSON (output). */
#ifndef LOADGEN_RANKS_H
#define LOADGEN_RANKS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>

#include "loadgen/counters/counters.h"

#define LG_HOST_MAX 64 /* bytes kept of a host name, with its NUL */

/* One rank as the result shows it. */
struct lg_rank_info {
	char host[LG_HOST_MAX]; /* its host name (gethostname) */
	unsigned host_index;    /* its host in lg_multi.hosts */
	bool shared;            /* it saw the run directory rank 0 created */
};

/* One host of the run. */
struct lg_host_info {
	char name[LG_HOST_MAX]; /* host name */
	unsigned ranks;         /* ranks that ran on it */
	bool shared;            /* every rank on it saw rank 0's run directory */
	json_t *env;            /* environment its first rank recorded (owned), or NULL */
	json_t *mon;            /* its first rank's monitor: {"sys_summary", "kernel_messages"}
				   as far as recorded (owned), or NULL */
};

/* One host's clients added up where they ran (the ranks of a host reduce their clients'
 * stats into one block, and its first rank sends rank 0 only this). */
struct lg_host_row {
	struct lg_client_row row;   /* ops, bytes, latency of all their ops */
	double first_done_s;        /* the first of them to finish its last op */
	double last_done_s;         /* the last of them */
	uint32_t clients;           /* clients that ran on it */
	uint32_t pad;               /* no implicit padding: sent as bytes */
};

/* A rank lost during a run (it died or stopped answering): rank 0 wrote the result
 * without it (status partial, lg_run.lost_ranks). */
struct lg_lost_rank {
	unsigned rank;          /* its rank */
	char host[LG_HOST_MAX]; /* its host name, as it said at the start */
	double time_s;          /* the end of the last timeline interval every rank
				   contributed to, s from the measured start; -1 when it was
				   lost before any interval of the measured phase */
};

/* The ranks and hosts of a run, attached to the result on rank 0 (lg_run.multi). */
struct lg_multi {
	unsigned nranks;             /* ranks (MPI processes) */
	unsigned per_rank;           /* clients per rank: client c ran on rank c / per_rank */
	unsigned nhosts;             /* distinct host names */
	struct lg_rank_info *ranks;  /* nranks entries (owned) */
	struct lg_host_info *hosts;  /* nhosts entries, in order of first rank (owned) */
	double start_skew_ms;        /* spread of the ranks' start (leaving the barrier),
					rank clocks corrected by their measured offsets */
	double clock_error_ms;       /* uncertainty of those offsets (half the shortest
					round trip to the farthest rank); 0 on one rank */
	bool gathered;               /* the clients' stats were gathered whole
					(LOADGEN_MPI_MERGE=gather), not reduced */
	double merge_s;              /* rank 0: seconds in the end-of-run exchange */
	double end_to_merged_s;      /* rank 0: from the end of the measured phase to the
					result merged (cleanup of the files included) */
	long max_rss_kib;            /* rank 0's peak resident memory then (getrusage) */
	struct lg_host_row *rows;    /* nhosts entries, each host's clients reduced on
					that host (owned), or NULL: computed from the
					clients' rows */
};

/* Free m and what it owns. NULL is fine. Inline so that the counters, which own
 * results, need no link dependency on the coordination. */
static inline void lg_multi_destroy(struct lg_multi *m)
{
	if (!m)
		return;
	for (unsigned i = 0; m->hosts && i < m->nhosts; i++) {
		json_decref(m->hosts[i].env);
		json_decref(m->hosts[i].mon);
	}
	free(m->hosts);
	free(m->ranks);
	free(m->rows);
	free(m);
}

#endif
