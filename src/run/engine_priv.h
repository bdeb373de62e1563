/* Private to the engine (engine.c and engine_watch.c): the master's state during one
 * run, and the watch from the start barrier to the end of the measured phase. */
#ifndef LOADGEN_ENGINE_PRIV_H
#define LOADGEN_ENGINE_PRIV_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "client.h"
#include "loadgen/run/engine.h"
#include "spawn.h"

/* The clients' live counters added up. */
struct sums {
	uint64_t ops, rd, wr;       /* ops, bytes read, bytes written: every phase */
	uint64_t m_ops, m_rd, m_wr; /* the same, recorded in the measured phase only */
};

struct engine {
	const struct lg_config *cfg; /* the run's options (not owned) */
	struct lg_coord *co;       /* the ranks: lg_coord_of(cfg), one host included */
	const struct lg_workload *wl; /* the compiled workload (not owned) */
	struct lg_shared *sh;      /* in shm */
	struct lg_live *live;      /* in shm: nworkers entries, one cache line each */
	struct lg_client *clients; /* nworkers entries (private to each client) */
	unsigned nworkers;         /* client threads: cfg->clients, times the streams of
				      a recorded program (client i's stream s is worker
				      i * nstreams + s) */
	void *shm;                 /* one shared anonymous mapping: sh, live, stats */
	size_t shm_len;            /* length of that mapping, bytes */
	size_t stats_off, stats_size; /* where client i's stats start, and their size */
	size_t win_off;            /* where client i's LG_WINDOWS windows start */
	struct lg_spawn spawn;     /* the running clients */
	uint64_t t_start;          /* start barrier released */
	uint64_t t_exec;           /* measured phase began (0: not yet) */
	uint64_t interval_ns;      /* progress line and timeline interval */
	struct sums base;          /* live sums when the measured phase began */
	struct sums prev;          /* live sums at the previous interval */
	uint64_t pending_max;      /* slowest op since the previous interval, ns */
	uint64_t prev_tick;        /* time of the previous interval */
	struct lg_run *run;        /* where the results go (the caller's) */
	struct lg_monitor *mon;    /* system counters, kernel log, --log; or NULL */
};

/* Announce phase p to every client (they read it in their loop). */
static inline void lg_engine_set_phase(struct engine *e, enum lg_clock_phase p)
{
	atomic_store_explicit(&e->sh->phase, p, memory_order_relaxed);
}

/* Client i's LG_WINDOWS latency windows in the shared mapping. */
static inline struct lg_window *lg_engine_windows(const struct engine *e, unsigned i)
{
	return (struct lg_window *)((char *)e->shm + e->win_off) + (size_t)i * LG_WINDOWS;
}

/* Client i's stats in the shared mapping. */
static inline struct lg_client_stats *lg_engine_stats(const struct engine *e, unsigned i)
{
	return (struct lg_client_stats *)((char *)e->shm + e->stats_off + i * e->stats_size);
}

/* The watch (engine_watch.c) */

/* Take the p99 of timeline interval k from every client's window of it (a reduction
 * every rank makes); call once no client writes that window any more. */
void lg_engine_interval_p99(struct engine *e, size_t k);
/* The measured phase starts (or started) at now: clients stop at its end by themselves. */
void lg_engine_set_start(struct engine *e, uint64_t now);
/* The measured phase begins at now (0: at the coming release of the start barrier). */
void lg_engine_begin_execute(struct engine *e, uint64_t now);
/* The tick to take after next (the one just taken), the clock being at now: the first
 * of next plus whole intervals at least half an interval after now. When the master
 * woke late (the process was stopped, the machine overloaded), the interval just taken
 * holds all the time since the previous one; the ticks it missed are skipped, not taken
 * one after another with no time in them (each would be an idle interval: a fake
 * stall), and the next interval is long enough for clients to complete ops in it. */
uint64_t lg_engine_next_tick(uint64_t next, uint64_t now, uint64_t interval_ns);
/* Watch the clock from the start barrier to the end of the measured phase, taking the
 * intervals and the progress line. Returns 0, -EIO when the ranks' exchange failed, or
 * -ENOMEM when the timeline could not grow. */
int lg_engine_watch(struct engine *e);
/* The clients have stopped at end (ns): take the last, usually partial, interval.
 * Returns 0, -EIO or -ENOMEM as lg_engine_watch. */
int lg_engine_last_interval(struct engine *e, uint64_t end);

#endif
