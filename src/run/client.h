/* One client: its state, and the loop that executes a phase of the workload.
 * Private to the engine. */
#ifndef LOADGEN_CLIENT_H
#define LOADGEN_CLIENT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "loadgen/model/config.h"
#include "loadgen/model/clock.h"
#include "loadgen/counters/counters.h"
#include "loadgen/model/workload.h"
#include "verify.h"
#include "counters/window.h"

/* Directory levels an op reads at once (Deltree's depth): buffers per client. */
#define LG_DIR_LEVELS 32

/* Phases as the master announces them to the clients. */
enum lg_clock_phase {
	LG_CLOCK_WARMUP,  /* running, results discarded */
	LG_CLOCK_EXECUTE, /* running, results kept */
	LG_CLOCK_STOP     /* finish the current op and leave the run phase */
};

/* Where clients wait for the master: once before the measured phase (the start
 * barrier), once before cleanup (so no client removes files while others are measured). */
struct lg_gate {
	pthread_mutex_t lock;  /* with cond: the master sleeps until a client arrives */
	pthread_cond_t cond;   /* signalled to the master as clients arrive (each says
				  so in its lg_live.passed first) */
	_Atomic int stage;     /* 0: setup, 1: measure, 2: cleanup; clients wait on it with
				  a futex, so a release wakes thousands of them at once
				  instead of handing a mutex from one to the next */
};

/* What the master shares with every client. */
struct lg_shared {
	/* What clients read for every op, first and together (one cache line): */
	_Atomic int phase;          /* enum lg_clock_phase, set by the master only */
	_Atomic int abort;          /* set by a client on an error with --abort-on-error */
	_Atomic unsigned epoch;     /* timeline interval number, advanced by the master */
	int dirfd;                  /* the run directory */
	int resolve;                /* enum lg_resolve_mode: dbench's name resolution */
	bool sync_dirs;             /* -S: fsync the parent directory after namespace ops */
	bool fsync_writes;          /* -F: fsync after every write, inside its time */
	bool paced;                 /* -R or --rate-ops: ops follow a schedule */
	_Atomic uint64_t deadline;  /* end of the measured phase (CLOCK_MONOTONIC ns): clients
				       stop by themselves, however late the master runs */
	const unsigned char *wbuf;  /* what writes write: one pattern buffer of the workload's
				       largest I/O size, 4 KiB aligned, read by every client */
	/* The rest: */
	struct lg_gate gate;        /* start and cleanup barrier */
	bool run_once;              /* run the run phase once instead of looping */
	bool skip_cleanup;          /* --keep: leave what the run made; no cleanup phase */
	bool abort_on_error;
	double rate;                /* -R: bytes per ns per client, 0 = unlimited */
	double op_ns;               /* --rate-ops: ns between intended op starts, 0 = none */
	bool verify;                /* --verify: self-describing blocks, reads checked */
	unsigned clients_total;     /* clients of all ranks, around which ${peer} counts
				       (0: ${peer} is the client itself) */
	unsigned peer_shift;        /* ${peer} is the client this many ids on */
	uint64_t stall_ns;          /* ops at least this slow are remembered as stalls */
	_Atomic int setup_full;     /* ENOSPC or EDQUOT that stopped a client's setup, or 0 */
	_Atomic int setup_short;    /* 1 once a setup write wrote fewer bytes than asked: the
				       files are not what the workload describes */
	uint64_t seed;              /* base seed; client i uses a stream derived from it */
	_Atomic int barrier_open;   /* the last phase between barriers the master opened
				       (0: none but the first); clients wait on it (futex) */
	_Atomic int arrivals;       /* bumped (and futex-woken) by a client arriving at a
				       barrier or leaving the run phase: the master of a
				       workload with barriers waits on it */
	double think_scale;         /* --replay-timing: a recorded think time is waited
				       for this many times over; 0: not at all (afap) */
};

/* Counters the monitor reads while the client runs. Only the client writes ops and
 * bytes (relaxed atomic stores: no lock, no read-modify-write); the monitor swaps
 * window_max to 0 once per interval. Own cache line, so clients do not share one. */
struct lg_live {
	_Alignas(64) _Atomic uint64_t ops;   /* ops completed, all phases */
	_Atomic uint64_t bytes_read;         /* bytes read, all phases */
	_Atomic uint64_t bytes_written;      /* bytes written, all phases */
	_Atomic uint64_t window_max;         /* slowest op since the monitor's last look, ns */
	_Atomic uint64_t m_ops;              /* ops recorded in the measured phase */
	_Atomic uint64_t m_read;             /* bytes read by them */
	_Atomic uint64_t m_written;          /* bytes written by them */
	_Atomic int done;                    /* 1 once the client left the run phase */
	_Atomic int calls;                   /* a recorded program's stream: calls it has
						completed in the run phase (INT_MAX once it
						left it), what LG_OP_AFTER waits for */
	_Atomic int wait_need;               /* the least count of calls a stream sleeping
						on calls waits for, 0 when none does */
	_Atomic int passed;                  /* gate stages it arrived at the end of */
	_Atomic int barrier;                 /* the phase between barriers whose barrier it
						arrived at last (0: none) */
	/* Written by the client, read by the master only after the client stopped: */
	uint64_t last_end_ns;                /* when the last measured op ended */
};

/* One file slot of a client. Everything an op on a slot reads or writes is here, 32
 * bytes, so the op touches one cache line of slot state rather than one per array. */
struct lg_slot {
	int fd;          /* the open file, -1 when closed */
	uint8_t event;   /* enum lg_slot_event: why it is not open (while it is not) */
	bool kept;       /* it holds the very file setup left open (kept for cleanup);
			    cleared by every close or open of the slot, since a later open
			    may get the same descriptor number */
	uint32_t line;   /* line of its last open or close */
	uint32_t path;   /* path index its last open named (LG_NOTE_NO_PATH: none) */
	uint64_t pos;    /* end of the last read/write */
	uint64_t last;   /* start of the last read/write */
};

/* A client's private state. Created and destroyed by the engine; used by one thread. */
struct lg_client {
	/* What every op reads or writes, first and together (two cache lines): */
	struct lg_shared *sh;            /* borrowed */
	struct lg_live *live;            /* borrowed: this client's monitor counters */
	struct lg_client_stats *stats;   /* borrowed: what the measured phase records */
	struct lg_window *win_cur;       /* the window of interval win_epoch (borrowed: one
					    of win) */
	const char **paths;              /* owned array; per-client strings in arena */
	struct lg_slot *slots;           /* owned: per slot, its file and I/O position */
	uint64_t *vars;                  /* per variable (wl->vars): its value, always below
					    its count; vars[0] stays 0 */
	struct lg_histogram *svc;        /* stats->svc (borrowed; NULL without -R): a copy,
					    so recording reads no line of the stats header */
	uint64_t now_ns;                 /* when the last op ended: the clock for deadlines */
	uint64_t stall_ns;               /* sh->stall_ns (a copy, as svc) */
	uint64_t last_end_ns;            /* when the last measured op ended; published to
					    live->last_end_ns when the client leaves the
					    run phase */
	unsigned win_epoch;              /* interval the windows were last written for
					    (UINT_MAX before the first) */
	bool recording;                  /* record into stats (false in warm-up and setup) */
	bool in_setup;                   /* running the setup phase */
	unsigned char *buf;              /* read buffer (and --verify's write buffer),
					    wl->max_io bytes, 4 KiB aligned; pages are only
					    touched by the sizes actually read */
	struct lg_verify_state *verify;  /* --verify: owned; NULL without it */
	/* The rest: */
	unsigned id;                     /* 0-based */
	unsigned peer;                   /* the id ${peer} stands for in its paths */
	const struct lg_workload *wl;    /* borrowed */
	struct lg_window *win;           /* borrowed: LG_WINDOWS interval latency windows */
	const char **parents;            /* owned array (-S only): each path's directory,
					    NULL for the run directory itself */
	char *arena;                     /* owned: expanded paths and their parents */
	uint64_t *loops;                 /* per loop counter: iterations left */
	uint32_t **perms;                /* per variable that shuffles: [0] picks made in
					    the round, [1..count] its values in the order
					    of the round (owned; NULL for the others) */
	uint64_t rng;                    /* splitmix64 state */
	struct lg_untimed_stats *untimed; /* borrowed: where failures go while not
					     recording (setup, warm-up, cleanup) */
	uint64_t next_ns;                /* -R: intended start of the next op, 0 = not yet */
	uint32_t stream;                 /* a recorded program's stream this thread runs
					    (0 also without streams) */
	uint32_t run_first, run_end;     /* the run phase's ops it executes: its stream's
					    range, or all of them */
	struct lg_live *peers;           /* live counters of the client's stream 0; stream
					    s's are peers[s] (borrowed; NULL: no streams) */
	uint64_t calls_made;             /* calls its stream made in the run phase */
	uint32_t bphase;                 /* the phase between barriers it is in */
	uint64_t bphase_base[3];         /* ops, items and bytes it had when that phase
					    began */
	bool slots_borrowed;             /* slots are stream 0's: a client's streams share
					    its files, as a program's threads do */
	char *dirbufs[LG_DIR_LEVELS];    /* per directory level an op reads at once:
					    LG_DIRSCAN_BUF bytes for getdents64, made on
					    first use (owned; lg_op_dirbuf) */
	char *abspath;                   /* the run directory's absolute path, '/', then
					    room for a path: LG_ABSPATH_BUF bytes for the
					    calls without an *at form, made on first use
					    (owned; lg_op_abspath) */
	size_t abspath_len;              /* bytes of its directory part, '/' included */
};

/* Allocate a client's state (paths expanded, buffers); stats and live are the caller's
 * (they may live in shared memory). 0 or -ENOMEM. */
int lg_client_init(struct lg_client *c, unsigned id, const struct lg_workload *wl,
		   struct lg_shared *sh, struct lg_live *live, struct lg_client_stats *stats);
/* Free what lg_client_init allocated and close open files. */
void lg_client_fini(struct lg_client *c);
/* Thread body: setup, wait at the gate, run, wait at the gate, cleanup. arg is the
 * struct lg_client. */
void *lg_client_main(void *arg);

/* A recorded program's streams (streams.c). Each returns false when the client must
 * stop instead (the deadline, an interrupt, an abort). */
/* LG_OP_AFTER and LG_OP_THINK. */
bool lg_stream_control(struct lg_client *c, const struct lg_op *op);
/* The stream completed a call: publish it to the streams that wait for it. */
void lg_stream_called(struct lg_client *c);
/* The stream left the run phase: nothing waits for it any longer. */
void lg_stream_left(struct lg_client *c);
/* Make c run stream s of the workload's streams, sharing the files of lead (the same
 * client's stream 0, already initialised; c == lead for stream 0). peers: the live
 * counters of the client's streams, stream 0's first. */
void lg_stream_bind(struct lg_client *c, struct lg_client *lead, uint32_t s,
		    struct lg_live *peers);

/* Fault in, before the clock starts, the pages of its counters that the client's first
 * measured ops will write (client_mem.c). */
void lg_client_prefault(struct lg_client *c);

/* Phases between barriers, and the futex waits (barrier.c). */
/* Begin phase p (0: at the start) at now: its row in the stats starts here. */
void lg_barrier_begin(struct lg_client *c, uint32_t p, uint64_t now);
/* Leave the current phase: its row gets what the client did in it. Again later (the
 * client stopped inside a barrier's wait) changes nothing. */
void lg_barrier_end(struct lg_client *c);
/* LG_OP_BARRIER: end the phase, say so, and wait until the master opens the barrier.
 * Returns false when the client must stop instead (a stop or an abort). */
bool lg_barrier_wait(struct lg_client *c, const struct lg_op *op);
/* Whether a waiting client must stop rather than wait any longer: the master said
 * stop, a client aborted, or the measured phase's deadline passed. */
bool lg_client_stopping(const struct lg_client *c);
/* Wait while *word == val, at most timeout_ns (a futex shared between processes). */
void lg_futex_wait_for(_Atomic int *word, int val, uint64_t timeout_ns);
/* A client arrived at a barrier or left the run phase: wake the master. */
void lg_barrier_arrived(struct lg_shared *sh);

/* Wait while *word == val (a futex shared between processes); wake all waiters. */
void lg_futex_wait(_Atomic int *word, int val);
void lg_futex_wake_all(_Atomic int *word);


/* lg_op_exec's result for a step it did not execute, by enum lg_skip_reason. */
#define LG_EXEC_SKIPPED(reason) (-1 - (int)(reason))
/* The reason of such a result. */
#define LG_EXEC_SKIP_REASON(rc) ((unsigned)(-1 - (rc)))

/* Execute one call of op (call: 0-based index among op->count calls) and return 0, the
 * errno it failed with (LG_ERR_SLOT_OPEN for an open into a slot still open), or
 * LG_EXEC_SKIPPED(reason) when nothing was executed; *bytes gets the bytes transferred.
 * In ops.c. */
int lg_op_exec(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);
/* -S: fsync the directory holding path index `path`. 0 or an errno. In ops.c. */
int lg_op_sync_parent(struct lg_client *c, uint32_t path);
/* Sleep until CLOCK_MONOTONIC time t, in slices, returning early when the master says
 * stop or the measured phase's deadline comes. Returns whether t was reached (false:
 * cut off). In ops.c (the sleep op's), so the client loop calls the ops, never back. */
bool lg_client_sleep_until(struct lg_client *c, uint64_t t);
/* Next pseudo-random number of the client's stream. */
static inline uint64_t lg_client_rand(struct lg_client *c)
{
	return lg_rng_next(&c->rng);
}

/* Index into c->paths and c->parents of an op's path (or path2) index and its variable:
 * a file set's entry for the variable's current value. Without a variable var is 0,
 * whose value is always 0, so every op goes through here without a branch. */
static inline uint32_t lg_op_path_index(const struct lg_client *c, uint32_t path,
					uint16_t var)
{
	return path + (uint32_t)c->vars[var];
}

/* The client's path of an op's path (or path2) index and variable. */
static inline const char *lg_op_path(const struct lg_client *c, uint32_t path, uint16_t var)
{
	return c->paths[lg_op_path_index(c, path, var)];
}

#endif
