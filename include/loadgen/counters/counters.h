/* Measurement results: per-client counters written by one client only, merged by the
 * master after the clients have stopped, plus the per-interval timeline. */
#ifndef LOADGEN_STATS_H
#define LOADGEN_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadgen/model/errnames.h"
#include "loadgen/model/histogram.h"
#include "loadgen/model/interval.h"
#include "loadgen/model/workload.h"

struct lg_multi;
struct lg_client_dist;

#define LG_FIRST_ERRORS 8 /* unexpected results remembered per client, with their line */

/* Why a step was not executed (counted apart from ops, never timed). */
enum lg_skip_reason {
	LG_SKIP_PREV,     /* offset: prev with no block before the last one */
	LG_SKIP_NOT_OPEN, /* its slot held no open file (its open failed, it was closed,
			     or no open ran) */
	LG_SKIP_CUT_OFF,  /* cut off by the end of its phase (the -t deadline, a stop):
			     a sleep ended early, or a paced op whose turn never came */
	LG_SKIP_REASONS
};

/* Counters of one op type (stats label). The fields every op writes (count, bytes,
 * the histogram's header) come last and together, so recording an op touches one or
 * two cache lines of them besides its bucket. */
struct lg_type_stats {
	uint64_t errors;               /* ops whose result differed from the expected one */
	uint64_t skipped[LG_SKIP_REASONS]; /* steps not executed, by enum lg_skip_reason:
					      not in count, bytes or hist */
	uint64_t errnos[LG_ERRNO_MAX]; /* unexpected results by errno; [0]: unexpected success */
	uint64_t corruptions;          /* --verify: blocks read back not as written, counted
					  in every phase and never reset (see verify.h) */
	uint64_t short_writes;         /* writes that wrote fewer bytes than asked, with
					  no error (counted as ops, with the bytes written) */
	uint64_t count;                /* ops completed (each read/write call is one op) */
	uint64_t bytes_read;           /* bytes read calls returned */
	uint64_t bytes_written;        /* bytes write calls returned */
	struct lg_histogram hist;      /* latency of every op, ns */
};

/* One unexpected result, kept to show the user where it happened. */
struct lg_error_note {
	uint32_t line;   /* line of the op in the workload source */
	uint16_t type;   /* stats row */
	int32_t got;     /* errno the call gave, 0 for success */
	int32_t expect;  /* what the workload expected (lg_op.expect) */
	uint32_t path;   /* the op's path index with its variable (into the client's
			    expanded paths), or LG_NOTE_NO_PATH */
	uint32_t direct_align; /* a read or write on a file open with O_DIRECT got EINVAL:
				  the alignment its offset and size need, in bytes
				  (LG_NOTE_ALIGN_UNKNOWN: the run did not learn it); else 0 */
};

#define LG_NOTE_NO_PATH UINT32_MAX /* lg_error_note.path of an op without a path */
#define LG_NOTE_ALIGN_UNKNOWN UINT32_MAX /* lg_error_note.direct_align: O_DIRECT, alignment
					    not known */

/* What last happened to a slot, for an op skipped because its slot was not open. */
enum lg_slot_event {
	LG_SLOT_NEVER,       /* no open ran on the slot yet */
	LG_SLOT_OPEN_FAILED, /* its last open failed */
	LG_SLOT_CLOSED       /* it was closed */
};

/* The first op a client skipped because its slot was not open. */
struct lg_skip_note {
	uint32_t line;      /* line of the skipped op */
	uint32_t slot_line; /* line of the open that failed or of the close (0: never) */
	uint16_t type;      /* stats row of the skipped op */
	uint8_t event;      /* enum lg_slot_event */
	uint8_t set;        /* 1 once filled */
};

/* The first write of an untimed phase that wrote fewer bytes than asked. */
struct lg_short_note {
	uint64_t asked;  /* bytes the write asked for */
	uint64_t wrote;  /* bytes it wrote */
	uint32_t line;   /* its line in the workload source */
	uint32_t path;   /* its file's path index (as lg_error_note.path) */
	uint16_t type;   /* its stats row */
	uint8_t set;     /* 1 once filled */
};

/* Phases a client runs, as results are kept: the measured phase's counters are in
 * lg_type_stats; the others (untimed, or warm-up's discarded results) only keep their
 * failures, so that none goes unseen. */
enum lg_untimed {
	LG_UNTIMED_SETUP,   /* the setup phase */
	LG_UNTIMED_WARMUP,  /* the run phase before the measured phase began */
	LG_UNTIMED_CLEANUP, /* the cleanup phase */
	LG_UNTIMED_COUNT
};

/* Failures of one untimed phase of one client. Never reset. */
struct lg_untimed_stats {
	uint64_t errors;                       /* unexpected results */
	uint64_t errnos[LG_ERRNO_MAX];         /* of them by errno; [0]: unexpected success */
	uint64_t skipped[LG_SKIP_REASONS];     /* steps not executed, by reason */
	size_t nnotes;                         /* filled entries of notes[] */
	struct lg_error_note notes[LG_FIRST_ERRORS]; /* the first unexpected results */
	struct lg_skip_note not_open;          /* the first op skipped: slot not open */
	uint64_t short_writes;                 /* writes that wrote fewer bytes than asked */
	struct lg_short_note first_short;      /* the first of them */
};

#define LG_SLOW_NOTES 8 /* slow ops remembered per client, with when they happened */

/* One op slower than the stall threshold. */
struct lg_slow_op {
	uint64_t end_ns; /* when it completed (CLOCK_MONOTONIC) */
	uint64_t lat_ns; /* how long it took */
	uint32_t line;   /* its line in the workload source */
	uint16_t type;   /* stats row */
	uint16_t pad;    /* no implicit padding: sent between ranks as bytes */
	uint32_t client; /* the client that ran it (set at the end of the run) */
};

#define LG_CORRUPT_NOTES 4 /* corrupt blocks remembered per client */
#define LG_CORRUPT_PATH 120 /* bytes kept of a corrupt file's path (its end when longer) */

/* Why a block read back with --verify is not what loadgen wrote (by priority). */
enum lg_corruption_reason {
	LG_CORRUPT_NO_HEADER, /* no loadgen header: not a block loadgen wrote */
	LG_CORRUPT_CLIENT,    /* a block of another client */
	LG_CORRUPT_OFFSET,    /* a block written for another file offset */
	LG_CORRUPT_PAYLOAD,   /* the payload differs from what was written */
	LG_CORRUPT_CHECKSUM,  /* only the checksum field differs */
	LG_CORRUPT_STALE      /* not a block: a call on the peer's file failed with ENOENT
				 or ESTALE where the workload expects it to succeed (stale
				 metadata: the reader does not see what the writer made) */
};

/* One block read back not as written, or a peer's file not seen (--verify). Fixed size:
 * lives in shared memory. The reader is the client whose stats hold the note. */
struct lg_corruption_note {
	uint64_t offset;        /* file offset of the 512-byte block */
	uint64_t bad_offset;    /* file offset of its first wrong byte */
	uint64_t expected_hash; /* the block's checksum as loadgen writes it */
	uint64_t found_hash;    /* the same checksum computed over the bytes read */
	uint64_t found_offset;  /* offset field of the block read (when found_magic) */
	uint32_t found_client;  /* client field of the block read (when found_magic) */
	uint32_t writer;        /* the client that wrote the file, as the reader expects:
				   itself for its own files, its peer for ${peer} files */
	int32_t err;            /* LG_CORRUPT_STALE: the errno the call gave; else 0 */
	uint32_t line;          /* line of the read in the workload source */
	uint16_t type;          /* stats row of the read */
	uint8_t reason;         /* enum lg_corruption_reason */
	uint8_t found_magic;    /* 1 when the block starts with loadgen's magic */
	uint8_t expected_byte;  /* the byte at bad_offset as written */
	uint8_t found_byte;     /* the byte at bad_offset as read */
	char path[LG_CORRUPT_PATH]; /* the file as the client named it, NUL-terminated */
};

/* One client's part of a phase between barriers (lg_workload.bphases). Times are by
 * CLOCK_MONOTONIC while the client runs, and ns since the measured phase began once
 * the run has ended (so that the rows of ranks on other hosts compare). */
struct lg_bphase_stats {
	uint64_t start_ns; /* when the client began the phase: the start, or the barrier
			      before it opened */
	uint64_t end_ns;   /* when it left the phase: its last op of it ended (start_ns
			      when it had none) */
	uint64_t ops;      /* ops it completed in the phase */
	uint64_t items;    /* of them, the phase's items (lg_barrier_phase.items) */
	uint64_t bytes;    /* bytes those ops read and wrote */
	uint64_t clients;  /* clients these figures add up: 1 in a client's own row (set at
			      the end of the run), more in a reduced block (lg_run.agg) */
};

/* Everything one client measured. Allocated with lg_client_stats_create. */
/* A client's figures without its histograms: all that a result keeps of a client when
 * the ranks' histograms were reduced rather than gathered (lg_client_row_fill). */
struct lg_client_row {
	uint64_t ops, bytes, errors, skipped;         /* over its rows */
	uint64_t min_ns, p50_ns, p90_ns, p99_ns, p999_ns, p9999_ns, max_ns; /* latency */
	double mean_ns;
	uint32_t set;                                 /* 1 once filled */
	uint32_t pad;                                 /* no implicit padding: sent as bytes */
};

struct lg_client_stats {
	unsigned id;                                  /* client id, 0-based */
	struct lg_client_row row;                     /* its figures, filled at the end of
							 the run (lg_client_row_fill); what
							 is left of a client received
							 without its rows (ntypes 0) */
	size_t ntypes;                                /* rows in types[] */
	size_t nnotes;                                /* filled entries of notes[] */
	struct lg_error_note notes[LG_FIRST_ERRORS];  /* first unexpected results */
	uint64_t slow_count;                          /* ops slower than the threshold */
	uint64_t slow_total_ns;                       /* their summed latency */
	struct lg_slow_op slowest;                    /* the slowest of them */
	size_t nslow;                                 /* filled entries of slow[] */
	struct lg_slow_op slow[LG_SLOW_NOTES];        /* the first of them */
	/* --verify, every phase, kept when warm-up ends (corruption is not a matter of
	 * timing): */
	uint64_t verified_bytes;                      /* bytes of blocks read and checked */
	uint64_t peer_verified_bytes;                 /* of them, read from ${peer} files */
	size_t ncorrupt;                              /* filled entries of corrupt[] */
	struct lg_corruption_note corrupt[LG_CORRUPT_NOTES]; /* the first corrupt blocks */
	struct lg_skip_note not_open;                 /* the first measured op skipped
							 because its slot was not open */
	struct lg_untimed_stats untimed[LG_UNTIMED_COUNT]; /* failures outside the
							 measured phase, never reset */
	uint32_t nbphases;                            /* phases between barriers it began
							 (0: the workload has no barrier) */
	struct lg_bphase_stats bphase[LG_BARRIER_PHASES_MAX]; /* per phase it began */
	double done_s;                                /* when its last measured op ended,
							 seconds after the measured phase
							 began (set when the run ends) */
	struct lg_histogram *svc;                     /* per label service time, when the
							 latency in types[] counts from the
							 intended start (--rate); else NULL */
	struct lg_type_stats types[];                 /* one per workload stats label */
};

/* Status of a run. */
enum lg_run_status {
	LG_RUN_COMPLETE,    /* ran for its time (or its one pass) */
	LG_RUN_INTERRUPTED, /* stopped early by a signal (SIGINT, SIGTERM) */
	LG_RUN_PARTIAL,     /* some client processes died, the others ran to the end; or
			       a rank was lost (lost_ranks), the result is rank 0's
			       per-interval counters until then */
	LG_RUN_ABORTED,     /* --abort-on-error stopped it at the first unexpected result */
	LG_RUN_FAILED       /* it could not measure (e.g. the filesystem was full in setup) */
};

/* A client process that died before the end of the run. */
struct lg_lost {
	unsigned client;  /* its id */
	int signal;       /* the signal that killed it, or 0 */
	int exit_status;  /* its exit status when it exited instead */
};

/* Which clients a result on several hosts lists (--per-client). */
enum lg_per_client {
	LG_PER_CLIENT_AUTO,    /* every client up to LG_PER_CLIENT_ROWS_MAX, else as SUMMARY */
	LG_PER_CLIENT_ALL,     /* every client, with its histograms (all gathered on rank 0) */
	LG_PER_CLIENT_ROWS,    /* every client, without histograms */
	LG_PER_CLIENT_SUMMARY  /* per-host rows, the clients as distributions, and only the
				  clients with something to report */
};
#define LG_PER_CLIENT_ROWS_MAX 4096 /* clients a result lists by default */
#define LG_PER_CLIENT_NOTED_MAX 64  /* clients with notes a SUMMARY result keeps */

/* The merged result of one measured phase. */
struct lg_run {
	enum lg_run_status status;
	double duration_s;               /* measured seconds (CLOCK_MONOTONIC) */
	unsigned nclients;
	unsigned nthreads;          /* threads (or processes) that ran them: nclients, times
				       a recorded program's streams; 0: nclients */
	size_t ntypes;
	const char *const *type_names;   /* labels, borrowed from the workload */
	struct lg_client_stats **clients; /* nclients entries (owned) */
	struct lg_type_stats *totals;    /* ntypes merged rows (owned) */
	struct lg_histogram all;         /* every op of every client */
	uint64_t ops, errors, bytes_read, bytes_written; /* sums over totals */
	uint64_t skipped[LG_SKIP_REASONS]; /* measured steps not executed, by reason */
	uint64_t untimed_errors[LG_UNTIMED_COUNT]; /* unexpected results per untimed phase */
	uint64_t untimed_skipped[LG_UNTIMED_COUNT][LG_SKIP_REASONS]; /* skips per phase */
	uint64_t short_writes;           /* measured writes that wrote less than asked */
	uint64_t untimed_short[LG_UNTIMED_COUNT]; /* the same per untimed phase */
	const char *failure;             /* why the run failed before measuring (static or
					    owned: failure_owned), or NULL */
	int failure_errno;               /* the errno behind failure, or 0 */
	int64_t cleanup_left;            /* entries the cleanup phase left directly in the
					    run directory (removed after it), -1 when it did
					    not run (--keep) */
	int failure_phase;               /* enum lg_untimed of the failure */
	bool failure_owned;              /* failure is malloc'd and freed by lg_run_clear */
	const char *const *path_names;   /* path templates, borrowed from the workload,
					    for notes (see lg_run_note_path); may be NULL */
	size_t npaths;                   /* entries of path_names */
	const struct lg_barrier_phase *bphases; /* phases between barriers, borrowed from
					    the workload; NULL: it has none */
	size_t nbphases;
	uint64_t corruptions;            /* --verify: blocks read back not as written */
	uint64_t verified_bytes;         /* --verify: bytes of blocks read and checked */
	uint64_t peer_verified_bytes;    /* --verify: of them, read from ${peer} files */
	unsigned peer_shift;             /* ${peer} was the client this many ids on */
	struct lg_histogram *svc_totals; /* ntypes merged service-time rows, or NULL (owned) */
	struct lg_interval *timeline;    /* one entry per interval (owned) */
	size_t ntimeline, cap_timeline;
	double end_sync_s;               /* final syncfs included in duration_s, or 0 */
	uint64_t t0_ns;                  /* CLOCK_MONOTONIC start of the measured phase */
	struct lg_lost *lost;            /* client processes lost (owned), nlost entries */
	size_t nlost;
	uint64_t stall_ns;               /* ops at least this slow count as stalls */
	struct lg_lost_rank *lost_ranks; /* ranks lost (owned), nlost_ranks entries: the
					    run holds its timeline until then and totals
					    from it, no histogram, type or client rows */
	size_t nlost_ranks;
	struct lg_multi *multi;          /* ranks and hosts of a run on several (MPI), on
					    rank 0; NULL on one host (owned) */
	void *shm;                       /* when set, clients[i] point into this mapping of
					    shm_len bytes (owned, unmapped by lg_run_clear) */
	size_t shm_len;
	struct lg_monitor *mon;          /* system counters and kernel messages of the run
					    (owned; freed with lg_monitor_destroy), or NULL */
	struct lg_client_stats *agg;     /* the ranks' clients reduced into one block (MPI,
					    rank 0; owned, malloc'd): when set, lg_run_merge
					    takes totals, untimed counts and verified bytes
					    from it, and clients[] hold only some clients, or
					    each without its rows (ntypes 0) */
	struct lg_client_dist *dist;     /* the clients' figures as distributions, when the
					    result holds no row per client (owned), or NULL */
	enum lg_per_client per_client;   /* which clients the result lists (--per-client) */
};

/* Allocate zeroed stats for client id with ntypes rows, histograms initialised.
 * Returns 0 or -ENOMEM. */
int lg_client_stats_create(unsigned id, size_t ntypes, struct lg_client_stats **out);
/* Bytes a client's stats need, with service-time rows if svc. 0 when too large. */
size_t lg_client_stats_size(size_t ntypes, bool svc);
/* Lay out stats in caller memory of lg_client_stats_size bytes that is ALL ZERO (fresh
 * anonymous mmap memory, e.g. shared with forked clients, or calloc). Only the few
 * non-zero fields are written, so bucket pages stay untouched until used. Returns mem. */
struct lg_client_stats *lg_client_stats_init(void *mem, unsigned id, size_t ntypes, bool svc);
/* Reset all counters (used when warm-up ends). */
void lg_client_stats_reset(struct lg_client_stats *cs);
/* Free. NULL is fine. */
void lg_client_stats_destroy(struct lg_client_stats *cs);
/* Add src's counters, histograms and notes (as room allows) into dst, which has as many
 * rows: the threads of one client (a recorded program's streams) become one client. */
void lg_client_stats_add(struct lg_client_stats *dst, const struct lg_client_stats *src);
/* The latency figures of r from h (min, percentiles, max, mean), and r->set. */
void lg_client_row_latency(struct lg_client_row *r, const struct lg_histogram *h);
/* Fill cs->row from cs's rows (nothing when it has none: a row received as it is). */
void lg_client_row_fill(struct lg_client_stats *cs);
/* At the end of a run, a client's own stats: its row, and its id where figures of many
 * clients need to say whose they were (slowest op, phase rows). lg_run_merge calls it. */
void lg_client_stats_finish(struct lg_client_stats *cs);
/* Merge a client's rows into one histogram (its overall latency) and counters.
 * *ops, *bytes get the client's op and byte totals. */
void lg_client_stats_sum(const struct lg_client_stats *cs, struct lg_histogram *hist,
			 uint64_t *ops, uint64_t *bytes);

/* Fill run->totals, run->all and the sums from run->clients. 0 or -ENOMEM. */
int lg_run_merge(struct lg_run *run);
/* Append an interval to the timeline. 0 or -ENOMEM. */
int lg_run_add_interval(struct lg_run *run, const struct lg_interval *iv);
/* A rank was lost during run (the timeline holds the intervals every rank contributed
 * to): make it a partial run of nclients clients whose figures are the timeline's sums
 * (ops, bytes, the slowest op; duration to the end of its last interval) and nothing
 * else (no histogram, type or client rows, errors unknown). Takes lost[0..n-1]
 * (malloc'd), each lost at the end of that interval (-1: before any). */
struct lg_lost_rank;
void lg_run_lose_ranks(struct lg_run *run, unsigned nclients, struct lg_lost_rank *lost,
		       size_t n);
/* Free what run owns (clients, totals, timeline); run itself is the caller's. NULL ok. */
void lg_run_clear(struct lg_run *run);

/* Whether the run had failures outside the measured ops' results: unexpected results
 * in setup, warm-up or cleanup, or ops skipped because their slot was not open. */
bool lg_run_has_failures(const struct lg_run *run);
/* Name of an untimed phase ("setup", "warmup", "cleanup"); static. */
const char *lg_untimed_name(unsigned phase);
/* Name of a skip reason ("prev_offset", "not_open", "cut_off"); static. */
const char *lg_skip_reason_name(unsigned reason);
/* Name of a slot event ("open failed", "closed", "never opened"); static. */
const char *lg_slot_event_name(unsigned event);

/* Stalls of one run: intervals in which nothing completed, and very slow ops. */
struct lg_stalls {
	uint64_t idle_intervals;   /* timeline intervals with no op completed */
	double idle_s;             /* their total length */
	double longest_idle_s;     /* longest stretch of consecutive idle intervals */
	double longest_idle_at_s;  /* where it began, seconds into the measured phase */
	uint64_t slow_ops;         /* ops slower than run->stall_ns */
	double slow_total_s;       /* their summed latency */
	uint64_t slowest_ns;       /* the slowest op */
	double slowest_at_s;       /* when it completed, seconds into the measured phase */
	unsigned slowest_client;   /* which client ran it */
	uint16_t slowest_type;     /* its stats row */
	uint32_t slowest_line;     /* its workload line */
};

/* Fairness across clients, on throughput (or ops/s when no bytes moved). */
struct lg_fairness {
	const char *metric;        /* "throughput_mbps" or "ops_per_s" (static) */
	double min, median, max;   /* per-client values */
	double jain;               /* Jain's index: (sum x)^2 / (n sum x^2), 1 = perfectly fair */
};

/* Compute the stalls of a merged run. */
void lg_run_stalls(const struct lg_run *run, struct lg_stalls *out);
/* Compute the fairness of a merged run. 0 or -ENOMEM. */
int lg_run_fairness(const struct lg_run *run, struct lg_fairness *out);

/* What a reason of a corrupt block means ("payload differs"); static. */
const char *lg_corruption_reason_name(unsigned reason);

#endif
