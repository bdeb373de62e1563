/* Measurement results: per-client counters written by one client only, merged by the
 * master after the clients have stopped, plus the per-interval timeline. */
#ifndef LOADGEN_STATS_H
#define LOADGEN_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadgen/histogram.h"

#define LG_ERRNO_MAX 134  /* errno values counted individually (0 < errno < 134) */
#define LG_FIRST_ERRORS 8 /* unexpected results remembered per client, with their line */

/* Counters of one op type (stats label). */
struct lg_type_stats {
	uint64_t count;                /* ops completed (each read/write call is one op) */
	uint64_t errors;               /* ops whose result differed from the expected one */
	uint64_t bytes_read;           /* bytes read calls returned */
	uint64_t bytes_written;        /* bytes write calls returned */
	uint64_t errnos[LG_ERRNO_MAX]; /* unexpected results by errno; [0]: unexpected success */
	struct lg_histogram hist;      /* latency of every op, ns */
};

/* One unexpected result, kept to show the user where it happened. */
struct lg_error_note {
	uint32_t line;   /* line of the op in the workload source */
	uint16_t type;   /* stats row */
	int32_t got;     /* errno the call gave, 0 for success */
	int32_t expect;  /* what the workload expected (lg_op.expect) */
};

/* Everything one client measured. Allocated with lg_client_stats_create. */
struct lg_client_stats {
	unsigned id;                                  /* client id, 0-based */
	size_t ntypes;                                /* rows in types[] */
	size_t nnotes;                                /* filled entries of notes[] */
	struct lg_error_note notes[LG_FIRST_ERRORS];  /* first unexpected results */
	struct lg_histogram *svc;                     /* per label service time, when the
							 latency in types[] counts from the
							 intended start (--rate); else NULL */
	struct lg_type_stats types[];                 /* one per workload stats label */
};

/* One timeline interval of the measured phase. */
struct lg_interval {
	double t_s;              /* end of the interval, seconds since the measured phase began */
	uint64_t ops;            /* ops completed in the interval */
	uint64_t bytes;          /* bytes read + written in the interval */
	double mbps;             /* bytes / interval length / 1e6 */
	uint64_t max_latency_ns; /* slowest op completed in the interval */
};

/* Status of a run. */
enum lg_run_status {
	LG_RUN_COMPLETE,    /* ran for its time (or its one pass) */
	LG_RUN_INTERRUPTED, /* stopped early by a signal or --abort-on-error */
	LG_RUN_PARTIAL      /* some client processes died; the others ran to the end */
};

/* The merged result of one measured phase. */
struct lg_run {
	enum lg_run_status status;
	double duration_s;               /* measured seconds (CLOCK_MONOTONIC) */
	unsigned nclients;
	size_t ntypes;
	const char *const *type_names;   /* labels, borrowed from the workload */
	struct lg_client_stats **clients; /* nclients entries (owned) */
	struct lg_type_stats *totals;    /* ntypes merged rows (owned) */
	struct lg_histogram all;         /* every op of every client */
	uint64_t ops, errors, bytes_read, bytes_written; /* sums over totals */
	struct lg_histogram *svc_totals; /* ntypes merged service-time rows, or NULL (owned) */
	struct lg_interval *timeline;    /* one entry per interval (owned) */
	size_t ntimeline, cap_timeline;
	double end_sync_s;               /* final syncfs included in duration_s, or 0 */
	void *shm;                       /* when set, clients[i] point into this mapping of
					    shm_len bytes (owned, unmapped by lg_run_clear) */
	size_t shm_len;
};

/* Allocate zeroed stats for client id with ntypes rows, histograms initialised.
 * Returns 0 or -ENOMEM. */
int lg_client_stats_create(unsigned id, size_t ntypes, struct lg_client_stats **out);
/* Bytes a client's stats need, with service-time rows if svc. 0 when too large. */
size_t lg_client_stats_size(size_t ntypes, bool svc);
/* Lay out stats in caller memory of lg_client_stats_size bytes (e.g. shared memory for
 * forked clients) and reset them. Returns mem as stats. */
struct lg_client_stats *lg_client_stats_init(void *mem, unsigned id, size_t ntypes, bool svc);
/* Reset all counters (used when warm-up ends). */
void lg_client_stats_reset(struct lg_client_stats *cs);
/* Free. NULL is fine. */
void lg_client_stats_destroy(struct lg_client_stats *cs);
/* Merge a client's rows into one histogram (its overall latency) and counters.
 * *ops, *bytes get the client's op and byte totals. */
void lg_client_stats_sum(const struct lg_client_stats *cs, struct lg_histogram *hist,
			 uint64_t *ops, uint64_t *bytes);

/* Fill run->totals, run->all and the sums from run->clients. 0 or -ENOMEM. */
int lg_run_merge(struct lg_run *run);
/* Append an interval to the timeline. 0 or -ENOMEM. */
int lg_run_add_interval(struct lg_run *run, const struct lg_interval *iv);
/* Free what run owns (clients, totals, timeline); run itself is the caller's. NULL ok. */
void lg_run_clear(struct lg_run *run);

/* Name of an errno value ("ENOENT"), or "E<number>" for one without a name; "OK" for 0.
 * The string is static. */
const char *lg_errno_name(int err);
/* The errno value with that name, or -1. */
int lg_errno_value(const char *name);

#endif
