/* The master's watch of a run, from the start barrier to the end of the measured phase.
 * Design: the master only reads the clients' live counters (one cache line each) once
 * per interval, for the progress line and the timeline; whenever something is due the
 * ranks exchange their sums and flags (coord.h) and all act on the reduced ones. */
#include "engine_priv.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine_os.h"
#include "loadgen/model/clock.h"
#include "loadgen/run/coord.h"
#include "loadgen/env/monitor.h"

#define TICK_NS 50000000ull /* how often the master looks at the clock */

/* Sum of the live counters; returns (and resets) the slowest op of the interval. */
static uint64_t live_sum(struct engine *e, struct sums *t)
{
	uint64_t max = 0;

	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < e->spawn.started; i++) {
		struct lg_live *l = &e->live[i];
		uint64_t m = atomic_exchange_explicit(&l->window_max, 0, memory_order_relaxed);

		t->ops += atomic_load_explicit(&l->ops, memory_order_relaxed);
		t->rd += atomic_load_explicit(&l->bytes_read, memory_order_relaxed);
		t->wr += atomic_load_explicit(&l->bytes_written, memory_order_relaxed);
		t->m_ops += atomic_load_explicit(&l->m_ops, memory_order_relaxed);
		t->m_rd += atomic_load_explicit(&l->m_read, memory_order_relaxed);
		t->m_wr += atomic_load_explicit(&l->m_written, memory_order_relaxed);
		if (m > max)
			max = m;
	}
	return max;
}


/* The p99 of timeline interval k, from every client's window of it. Called once no
 * client writes that window any more (see window.h). A client that recorded nothing in
 * interval k left its window as an earlier interval filled it: that one is skipped. */
void lg_engine_interval_p99(struct engine *e, size_t k)
{
	struct lg_window_sum sum;

	memset(&sum, 0, sizeof(sum));
	for (unsigned i = 0; i < e->spawn.started; i++) {
		const struct lg_window *w = &lg_engine_windows(e, i)[k % LG_WINDOWS];

		if (atomic_load_explicit(&w->epoch, memory_order_relaxed) == (unsigned)k)
			lg_window_add(&sum, w);
	}
	lg_coord_sum(e->co, (uint64_t *)&sum, sizeof(sum) / sizeof(uint64_t));
	e->run->timeline[k].p99_ns = lg_window_percentile(&sum, 99);
}

static unsigned count_done(struct engine *e)
{
	unsigned done = 0;

	lg_spawn_reap(&e->spawn);
	for (unsigned i = 0; i < e->spawn.started; i++) /* a client done, then lost: once */
		done += atomic_load_explicit(&e->live[i].done, memory_order_acquire) ||
			lg_spawn_lost(&e->spawn, i);
	return done;
}

/* Barriers: how many of this rank's clients wait at the barrier of the phase after the
 * last one opened; *not_all: some client that still runs has not arrived there. */
static uint64_t at_barrier(struct engine *e, bool *not_all)
{
	int open = atomic_load_explicit(&e->sh->barrier_open, memory_order_relaxed);
	uint64_t n = 0;

	*not_all = false;
	if (!e->wl->nbphases)
		return 0;
	for (unsigned i = 0; i < e->spawn.started; i++) {
		bool here = atomic_load_explicit(&e->live[i].barrier, memory_order_acquire) > open;

		n += here;
		if (!here && !atomic_load_explicit(&e->live[i].done, memory_order_acquire) &&
		    !lg_spawn_lost(&e->spawn, i))
			*not_all = true;
	}
	return n;
}

/* The reduced answer says every client that still runs, of every rank, waits at the
 * barrier: open the next phase (on every rank alike). */
static void open_barrier(struct engine *e, const struct lg_coord_tick *t)
{
	if (!t->sum[LG_TICK_AT_BARRIER] || t->max[LG_TICK_NOT_AT_BARRIER])
		return;
	atomic_fetch_add_explicit(&e->sh->barrier_open, 1, memory_order_release);
	lg_futex_wake_all(&e->sh->barrier_open);
}

/* This rank's sums for an interval exchange (see coord.h), from the live counters:
 * in the measured phase only ops recorded in it (so the timeline adds up to the run's
 * totals), in warm-up every op since the start barrier. */
static void tick_sums(struct engine *e, const struct sums *live, struct lg_coord_tick *t)
{
	bool m = e->t_exec != 0;

	t->sum[LG_TICK_OPS] = m ? live->m_ops : live->ops;
	t->sum[LG_TICK_BYTES] = m ? live->m_rd + live->m_wr : live->rd + live->wr;
	t->sum[LG_TICK_D_OPS] = live->m_ops - e->prev.m_ops;
	t->sum[LG_TICK_D_RD] = live->m_rd - e->prev.m_rd;
	t->sum[LG_TICK_D_WR] = live->m_wr - e->prev.m_wr;
	t->max[LG_TICK_MAX_LAT] = e->pending_max;
}

/* What this rank says at an interval exchange (see coord.h); *live gets the live sums.
 * The reduced answer in *t is the same on every rank and decides for all. */
static int exchange(struct engine *e, bool tick, bool due, struct lg_coord_tick *t,
		    struct sums *live)
{
	uint64_t max = live_sum(e, live);
	bool not_all;
	uint64_t waiting = at_barrier(e, &not_all);

	e->pending_max = max > e->pending_max ? max : e->pending_max;
	*t = (struct lg_coord_tick){ .max = {
		[LG_TICK_STOP] = (lg_engine_interrupted() ? LG_STOP_INTERRUPT : 0) |
				 (atomic_load_explicit(&e->sh->abort, memory_order_relaxed) ?
					  LG_STOP_ABORT : 0),
		[LG_TICK_NOT_DONE] = e->cfg->run_once && count_done(e) < e->spawn.started,
		[LG_TICK_NOT_DUE] = !due,
		[LG_TICK_TICK] = tick,
	} };
	tick_sums(e, live, t);
	t->sum[LG_TICK_AT_BARRIER] = waiting;
	t->max[LG_TICK_NOT_AT_BARRIER] = not_all;
	return lg_coord_tick(e->co, t);
}

/* Print the progress line at now from the job's sums t: in warm-up, ops and MB/s of
 * every op since the start barrier; in the measured phase, of the ops recorded so far
 * over the seconds since it began, which is how the final Throughput line counts (its
 * last value is that line). */
static void progress(struct engine *e, uint64_t now, const struct lg_coord_tick *t)
{
	uint64_t since = e->t_exec ? e->t_exec : e->t_start;
	double secs = (double)(now - since) / LG_NS_PER_SEC;

	if (e->cfg->quiet || !e->cfg->progress)
		return;
	e->cfg->progress(stdout, e->cfg->clients * lg_coord_size(e->co),
			 t->sum[LG_TICK_OPS],
			 secs > 0 ? (double)t->sum[LG_TICK_BYTES] / secs / 1e6 : 0,
			   e->t_exec ? "execute" : "warmup", secs,
			   e->cfg->interval_s < 1 ? 2 : 0,
			   (double)t->max[LG_TICK_MAX_LAT] / LG_NS_PER_MS);
	lg_engine_flush_stdout(); /* a closed stdout (| head) stops the run */
}

/* One interval ending at now, with the sums t of every rank: a timeline entry in the
 * measured phase, and unless quiet the progress line. */
static int interval(struct engine *e, uint64_t now, const struct lg_coord_tick *t,
		    const struct sums *live, bool print)
{
	double len = (double)(now - e->prev_tick) / LG_NS_PER_SEC;
	int rc = 0;

	if (e->t_exec) {
		size_t k = e->run->ntimeline;
		struct lg_interval iv = {
			.t_s = (double)(now - e->t_exec) / LG_NS_PER_SEC,
			.ops = t->sum[LG_TICK_D_OPS],
			.bytes_read = t->sum[LG_TICK_D_RD],
			.bytes_written = t->sum[LG_TICK_D_WR],
			.len_s = len,
			.max_latency_ns = t->max[LG_TICK_MAX_LAT],
		};

		iv.bytes = iv.bytes_read + iv.bytes_written;
		iv.mbps = len > 0 ? (double)iv.bytes / len / 1e6 : 0;
		/* clients move on to the next interval's window; the one before this interval
		 * is now written by nobody and can be read */
		atomic_store_explicit(&e->sh->epoch, (unsigned)k + 1, memory_order_relaxed);
		rc = lg_run_add_interval(e->run, &iv);
		if (k > 0) /* on every rank alike (a collective reduction), even after -ENOMEM */
			lg_engine_interval_p99(e, k - 1);
		if (!rc)
			lg_monitor_interval(e->mon, &e->run->timeline[k], k, now);
	}
	if (print)
		progress(e, now, t);
	e->prev = *live;
	e->prev_tick = now;
	e->pending_max = 0;
	return rc;
}

/* The measured phase starts (or started) at now: clients stop at its end by themselves. */
void lg_engine_set_start(struct engine *e, uint64_t now)
{
	e->t_exec = e->prev_tick = now;
	lg_monitor_begin(e->mon, now);
	if (!e->cfg->run_once)
		atomic_store_explicit(&e->sh->deadline,
				      now + (uint64_t)(e->cfg->time_s * LG_NS_PER_SEC),
				      memory_order_relaxed);
}

/* The measured phase begins at now (0: at the coming release of the start barrier):
 * remember where the live counters stand. */
void lg_engine_begin_execute(struct engine *e, uint64_t now)
{
	lg_engine_set_phase(e, LG_CLOCK_EXECUTE);
	live_sum(e, &e->base);
	e->prev = e->base;
	e->pending_max = 0; /* warm-up's slowest op is not the first interval's */
	if (now)
		lg_engine_set_start(e, now);
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

uint64_t lg_engine_next_tick(uint64_t next, uint64_t now, uint64_t interval_ns)
{
	uint64_t soonest = now + interval_ns / 2;

	next += interval_ns;
	if (next < soonest) /* woken late: the ticks missed meanwhile are not taken */
		next += (soonest - next + interval_ns - 1) / interval_ns * interval_ns;
	return next;
}

/* A stop, from this rank or another: every rank stops alike. */
static void stop_all(struct engine *e, uint64_t why)
{
	if (why & LG_STOP_INTERRUPT)
		lg_engine_interrupt();
	if (why & LG_STOP_ABORT)
		atomic_store_explicit(&e->sh->abort, 1, memory_order_relaxed);
}

/* Watch the clock from the start barrier to the end of the measured phase. Whenever
 * something is due here (an interval, the end of a phase, a stop) the ranks exchange
 * their sums and flags, and act on the reduced ones, so all take the same steps (one
 * host: the reduction is the identity). Returns 0, or -ENOMEM when the timeline could
 * not grow. */
int lg_engine_watch(struct engine *e)
{
	const struct lg_config *cfg = e->cfg;
	uint64_t warm = cfg->run_once ? 0 : (uint64_t)(cfg->warmup_s * LG_NS_PER_SEC);
	uint64_t len = (uint64_t)(cfg->time_s * LG_NS_PER_SEC), next = e->t_start + e->interval_ns;
	struct lg_coord_tick t;
	struct sums live;
	int rc = 0;

	for (;;) {
		int seq = atomic_load_explicit(&e->sh->arrivals, memory_order_acquire);
		uint64_t now = lg_now_ns();
		/* the next moment something is due: the end of warm-up or of the run */
		uint64_t due = e->t_exec ? e->t_exec + len : e->t_start + warm;
		bool is_due = !(cfg->run_once && e->t_exec) && now >= due;
		bool stop = lg_engine_interrupted() ||
			    atomic_load_explicit(&e->sh->abort, memory_order_relaxed);
		bool done = cfg->run_once && count_done(e) >= e->spawn.started, not_all;
		bool barrier = at_barrier(e, &not_all) && !not_all;

		if (!(now >= next || is_due || stop || done || barrier)) {
			uint64_t until = min3(now + TICK_NS, next, cfg->run_once ? UINT64_MAX : due);

			if (e->wl->nbphases) /* a client at a barrier wakes the master */
				lg_futex_wait_for(&e->sh->arrivals, seq, until - now);
			else
				lg_sleep_until_ns(until);
			continue;
		}
		if (exchange(e, now >= next, is_due, &t, &live)) {
			rc = -EIO;
			break;
		}
		stop_all(e, t.max[LG_TICK_STOP]);
		if (t.max[LG_TICK_STOP])
			break;
		open_barrier(e, &t);
		if (cfg->run_once ? !t.max[LG_TICK_NOT_DONE] : e->t_exec && !t.max[LG_TICK_NOT_DUE])
			break;
		if (t.max[LG_TICK_TICK]) {
			rc = rc ? rc : interval(e, now, &t, &live, true);
			/* by the clock now: the exchange (waiting for a stopped rank) or the
			 * progress line may have taken long since now was read */
			next = lg_engine_next_tick(next, lg_now_ns(), e->interval_ns);
		}
		if (!e->t_exec && !t.max[LG_TICK_NOT_DUE]) {
			lg_engine_begin_execute(e, now);
			next = now + e->interval_ns;
		}
	}
	/* the last, usually partial, interval is taken once the clients have stopped
	 * (last_interval), so that it holds the ops that complete after this point */
	lg_engine_set_phase(e, LG_CLOCK_STOP);
	return rc;
}

/* The clients have left the run phase: the last timeline interval holds every op
 * recorded since the previous one, so the timeline adds up to the run's totals, and
 * the last progress line shows the final figures. */
int lg_engine_last_interval(struct engine *e, uint64_t end)
{
	struct lg_coord_tick t = { 0 };
	struct sums live;
	uint64_t max;

	if (!e->t_exec)
		return 0;
	max = live_sum(e, &live);
	e->pending_max = max > e->pending_max ? max : e->pending_max;
	if (end < e->prev_tick)
		end = e->prev_tick;
	tick_sums(e, &live, &t);
	/* every rank's end, from its own measured start: the job's is the latest */
	t.max[LG_TICK_END] = end - e->t_exec;
	t.max[LG_TICK_TICK] = end - e->prev_tick >= e->interval_ns / 100;
	if (lg_coord_tick(e->co, &t))
		return -EIO;
	if (!t.sum[LG_TICK_D_OPS] && !t.max[LG_TICK_TICK])
		return 0; /* nothing left, and too short to be worth a line */
	return interval(e, e->t_exec + t.max[LG_TICK_END], &t, &live, true);
}
