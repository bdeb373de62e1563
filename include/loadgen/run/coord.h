/* Coordination of ranks: one run of loadgen made of several processes (MPI ranks),
 * usually on several hosts, each running NCLIENTS clients.
 *
 * Design: the engine calls a handful of hooks at fixed points (agree on a status, start
 * together, reduce each interval, reduce the result), always through a coordinator: on
 * one host it is lg_coord_single(), a backend whose hooks are no-ops that hand back the
 * local values. So the engine has one code path and no "if several hosts" of its own:
 * that every rank takes the same path follows from every rank calling the same hooks. The MPI backend (src/run/ranks/mpi_coord.c, built with LOADGEN_MPI) fills a
 * struct lg_coord_ops. Hooks are collective: every rank calls the same hooks in the
 * same order, and every decision that changes that order is taken from reduced values,
 * which are the same on every rank. */
#ifndef LOADGEN_COORD_H
#define LOADGEN_COORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "loadgen/counters/ranks.h"
#include "loadgen/model/hash.h"

/* What each rank sends at an interval of the monitor (see engine.c). */
enum lg_tick_sum {
	LG_TICK_OPS,      /* ops since the phase began (progress line) */
	LG_TICK_BYTES,    /* bytes since the phase began (progress line) */
	LG_TICK_D_OPS,    /* ops in the interval (timeline) */
	LG_TICK_D_RD,     /* bytes read in the interval */
	LG_TICK_D_WR,     /* bytes written in the interval */
	LG_TICK_AT_BARRIER, /* clients waiting at the barrier of the next phase */
	LG_TICK_NSUM
};
enum lg_tick_max {
	LG_TICK_MAX_LAT,  /* slowest op completed in the interval, ns */
	LG_TICK_STOP,     /* LG_STOP_* bits: a rank was interrupted or aborted */
	LG_TICK_NOT_DONE, /* 1 while some client of the rank still runs (--run-once) */
	LG_TICK_NOT_DUE,  /* 1 while the rank's phase is not over by its clock */
	LG_TICK_TICK,     /* 1 when the rank's interval timer expired */
	LG_TICK_NOT_AT_BARRIER, /* 1 while some client of the rank still runs and has not
				   arrived at the barrier of the next phase */
	LG_TICK_END,      /* last interval only: ns from the rank's measured start to its
			     measured end (the latest is the job's end) */
	LG_TICK_NMAX
};
#define LG_STOP_INTERRUPT 1u /* SIGINT/SIGTERM */
#define LG_STOP_ABORT 2u     /* --abort-on-error */

/* One interval exchange: values summed and values maxed across ranks, in place. */
struct lg_coord_tick {
	uint64_t sum[LG_TICK_NSUM]; /* enum lg_tick_sum */
	uint64_t max[LG_TICK_NMAX]; /* enum lg_tick_max */
};

struct lg_coord;
struct lg_run;

/* A backend. Every function is collective. */
struct lg_coord_ops {
	/* All ranks learn the first rank whose rc is non-zero; its err (prefixed with its
	 * host and rank) and rc are copied to every rank. Returns that rc or 0. */
	int (*status)(struct lg_coord *c, int rc, char *err, size_t errlen);
	/* Compare per-rank fields (nfields hashes named by names[]): any difference fails
	 * every rank with -EINVAL and err naming ranks and fields. */
	int (*agree)(struct lg_coord *c, const uint64_t *fields, const char *const *names,
		     size_t nfields, char *err, size_t errlen);
	/* Copy rank 0's buf (len bytes) to every rank. 0 or a negative errno. */
	int (*bcast)(struct lg_coord *c, void *buf, size_t len);
	/* The start: like status, then a barrier left as closely together as possible. */
	int (*start)(struct lg_coord *c, int rc, char *err, size_t errlen);
	/* Reduce t in place (sum[] added, max[] maxed). 0 or a negative errno. */
	int (*tick)(struct lg_coord *c, struct lg_coord_tick *t);
	/* Add n uint64 counters of every rank, in place. 0 or a negative errno. */
	int (*sum)(struct lg_coord *c, uint64_t *v, size_t n);
	/* Gather every rank's result into rank 0's run. stats: this rank's client stats,
	 * run->nclients blocks of stride bytes each. */
	int (*finish)(struct lg_coord *c, struct lg_run *run, const void *stats, size_t stride,
		      char *err, size_t errlen);
	/* Leave (MPI_Finalize). */
	void (*close)(struct lg_coord *c);
};

/* When a rank was lost (it died or stopped answering, see lg_coord_on_lost), called
 * from inside a wait, once: on rank 0 with lost[0..n-1] naming the lost ranks (time_s
 * -1, for the caller to fill), to write what the run has; on the other ranks with n 0
 * once rank 0 has written, to stop what they run. Returns the exit status the process
 * then leaves with at once (_exit: MPI cannot be finalized without the lost rank). */
typedef int (*lg_coord_lost_fn)(void *arg, struct lg_lost_rank *lost, unsigned n);

/* A coordinator: which rank this process is and how to reach the others. */
struct lg_coord {
	const struct lg_coord_ops *ops; /* the backend */
	unsigned rank;                  /* this rank, 0-based */
	unsigned size;                  /* ranks in the run */
	char host[LG_HOST_MAX];         /* this rank's host name */
	const char *launcher;           /* what started us ("Open MPI", "Slurm", "--mpi") */
	json_t *env;                    /* this rank's environment (borrowed) for the result */
	bool shared;                    /* the run directory is rank 0's (set per run) */
	bool made;                      /* this rank created its host's own run directory,
					   which ranks of its host share (set per run) */
	uint64_t start_realtime_ns;     /* CLOCK_REALTIME when the last start barrier ended */
	int (*stopped)(void);           /* whether this process was asked to stop (a signal),
					   or NULL: see lg_coord_on_lost */
	lg_coord_lost_fn on_lost;       /* what to do when a rank is lost, or NULL */
	void *lost_arg;                 /* its argument */
	void *priv;                     /* backend state */
};

/* Whether the environment says an MPI launcher started this process; *name gets the
 * launcher ("Open MPI", "PMI", "PMIx", "Slurm srun", "MPICH"), *size the ranks when the
 * launcher tells (else 0). */
bool lg_coord_detect(const char **name, unsigned *size);
/* The coordinator of a run on one host: rank 0 of 1, every hook a no-op that hands back
 * the local values (status and start return rc, reductions leave their values, the run
 * directory is lg_rundir_create's). One per process; closing it does nothing. */
struct lg_coord *lg_coord_single(void);
/* The coordinator of a run with cfg: cfg->coord, or lg_coord_single() when a caller
 * left it NULL (a config made without lg_coord_open, as ab's and the tests' are). */
struct lg_config;
struct lg_coord *lg_coord_of(const struct lg_config *cfg);
/* Start coordinating: force (--mpi) or a detected launcher join MPI; otherwise *out is
 * lg_coord_single() (one host, MPI untouched). Returns 0, or -ENOTSUP with err filled when MPI is
 * wanted but this binary has none, or another negative errno from the backend. */
int lg_coord_open(bool force, struct lg_coord **out, char *err, size_t errlen);
/* Warn on stderr when the launcher bound this rank to fewer CPUs than the host has and
 * than its clients could use (mpirun binds ranks to cores by default). */
void lg_coord_warn_binding(const struct lg_coord *c, unsigned clients);
/* What a wait does when it cannot complete: once stopped() says this process was asked
 * to stop (Open MPI sends SIGTERM to every surviving rank soon after one died, and
 * SIGKILL about a second later) and the wait still has not completed a little later,
 * or at once when MPI reports an error, rank 0 looks at which ranks said "here" (every
 * stopped rank does, from its waits and lg_coord_answer): the silent ones are lost, and
 * rank 0 calls on_lost(arg, ...), which writes the result (see mpi_lost.c). Without it
 * (the default) such a wait goes on waiting, as before. */
void lg_coord_on_lost(struct lg_coord *c, int (*stopped)(void), lg_coord_lost_fn on_lost,
		      void *arg);
/* Say "here" to rank 0 once stopped, and answer its call if one came: a rank busy
 * outside any wait of c for long (its clients' cleanup, their setup) calls this every
 * few tens of ms, so that it is not counted as lost. Cheap; nothing on one host. */
void lg_coord_answer(struct lg_coord *c);
/* Whether this binary was built with MPI (LOADGEN_MPI). */
bool lg_coord_built(void);
/* Leave and free. NULL is fine. */
void lg_coord_close(struct lg_coord *c);
/* This process's rank (0 for NULL) and the number of ranks (1 for NULL). */
unsigned lg_coord_rank(const struct lg_coord *c);
unsigned lg_coord_size(const struct lg_coord *c);

/* The hooks; with c NULL each returns the local value. */
int lg_coord_status(struct lg_coord *c, int rc, char *err, size_t errlen);
int lg_coord_agree(struct lg_coord *c, const uint64_t *fields, const char *const *names,
		   size_t nfields, char *err, size_t errlen);
int lg_coord_bcast(struct lg_coord *c, void *buf, size_t len);
int lg_coord_start(struct lg_coord *c, int rc, char *err, size_t errlen);
int lg_coord_tick(struct lg_coord *c, struct lg_coord_tick *t);
int lg_coord_sum(struct lg_coord *c, uint64_t *v, size_t n);
int lg_coord_finish(struct lg_coord *c, struct lg_run *run, const void *stats, size_t stride,
		    char *err, size_t errlen);

/* Clocks of ranks (the MPI backend's arithmetic, here so that it is tested without MPI).
 * A rank's offset is how far its wall clock is ahead of rank 0's, ns. */
/* The offset of a rank from one ping (Cristian's method): rank 0 sent at t0 and had the
 * answer at t1, both by its clock; the rank read tr by its own clock in between. */
int64_t lg_clock_offset_ns(uint64_t t0, uint64_t tr, uint64_t t1);
/* Rank 0's instant at (ns by its wall clock) as a rank whose clock is off ns ahead reads
 * it: where that rank sleeps until, to start with rank 0. */
uint64_t lg_clock_local_ns(uint64_t at, int64_t off);
/* The spread of n ranks' start instants, ms: start_ns[r] read by rank r's wall clock,
 * each corrected by its offset off[r] to rank 0's clock. 0 when n is 0. */
double lg_start_skew_ms(const uint64_t *start_ns, const int64_t *off, unsigned n);

/* Compare across ranks the hash of the workload text and of every setting that shapes
 * the load (parameters, NCLIENTS, times, flags, seed, rate, repeat). 0, or -EINVAL on
 * every rank with err (on rank 0) naming the ranks and what differs. */
int lg_coord_agree_config(struct lg_coord *c, const struct lg_config *cfg, uint64_t workload,
			  char *err, size_t errlen);

/* The run directory of a coordinated run: rank 0 creates it under parent and leaves a
 * token file in it; every other rank opens the same path and looks for the token. A
 * rank that does not see it creates the path on its own filesystem (c->shared false,
 * c->made true) and leaves a token of its own there for the other ranks of its host,
 * which then use that directory (c->shared and c->made false).
 * With one rank (lg_coord_single()), lg_rundir_create. Returns 0 or a negative errno with err filled (the
 * status is agreed: every rank returns the same). */
int lg_coord_rundir(struct lg_coord *c, const char *parent, char **path, int *fd, char *err,
		    size_t errlen);
/* Whether this rank removes (and counts) the run directory at the end: rank 0 always,
 * another rank when it created the directory of its host. */
bool lg_coord_owns_rundir(const struct lg_coord *c);


#endif
