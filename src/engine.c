/* The master. Design: clients own everything they measure; the master only announces
 * phases through one atomic (lg_shared.phase), reads the clients' live counters once per
 * interval for the progress line and the timeline, and merges the stats after joining. */
#include "loadgen/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "loadgen/monitor.h"
#include "loadgen/coord.h"
#include "loadgen/rundir.h"
#include "rlimits.h"
#include "engine_os.h"
#include "spawn.h"


#define TICK_NS 50000000ull       /* how often the master looks at the clock */

static volatile sig_atomic_t interrupted;
static const char *volatile current_rundir;
static struct lg_spawn *volatile current_spawn;

void lg_engine_interrupt(void)
{
	interrupted = 1;
}

int lg_engine_interrupted(void)
{
	return interrupted;
}

const char *lg_engine_rundir(void)
{
	return current_rundir;
}

void lg_engine_abandon(void)
{
	struct lg_spawn *s = current_spawn;

	if (s)
		lg_spawn_kill(s);
}

/* The clients' live counters added up. */
struct sums {
	uint64_t ops, rd, wr;       /* ops, bytes read, bytes written: every phase */
	uint64_t m_ops, m_rd, m_wr; /* the same, recorded in the measured phase only */
};

struct engine {
	const struct lg_config *cfg;
	const struct lg_workload *wl;
	struct lg_shared *sh;      /* in shm */
	struct lg_live *live;      /* in shm: cfg->clients entries, one cache line each */
	struct lg_client *clients; /* cfg->clients entries (private to each client) */
	void *shm;                 /* one shared anonymous mapping: sh, live, stats */
	size_t shm_len;
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
	struct lg_run *run;
	struct lg_monitor *mon;    /* system counters, kernel log, --log; or NULL */
};

/* Master: wait until every live client arrived at the gate. Waits in slices, so that
 * a client process that died on the way is noticed instead of waited for forever. */
static void gate_wait_all(struct engine *e)
{
	struct lg_gate *g = &e->sh->gate;

	pthread_mutex_lock(&g->lock);
	while (g->arrived + lg_spawn_reap(&e->spawn) < e->spawn.started) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&g->cond, &g->lock, &ts);
	}
	pthread_mutex_unlock(&g->lock);
}

/* Master: let the clients waiting at the gate go on to stage. */
static void gate_release(struct lg_gate *g, int stage)
{
	pthread_mutex_lock(&g->lock);
	g->arrived = 0;
	pthread_mutex_unlock(&g->lock);
	atomic_store_explicit(&g->stage, stage, memory_order_release);
	lg_futex_wake_all(&g->stage);
}

static void set_phase(struct engine *e, enum lg_clock_phase p)
{
	atomic_store_explicit(&e->sh->phase, p, memory_order_relaxed);
}

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

static struct lg_window *windows_of(const struct engine *e, unsigned i)
{
	return (struct lg_window *)((char *)e->shm + e->win_off) + (size_t)i * LG_WINDOWS;
}

/* The p99 of timeline interval k, from every client's window of it. Called once no
 * client writes that window any more (see window.h). */
static void interval_p99(struct engine *e, size_t k)
{
	struct lg_window_sum sum;

	memset(&sum, 0, sizeof(sum));
	for (unsigned i = 0; i < e->spawn.started; i++)
		lg_window_add(&sum, &windows_of(e, i)[k % LG_WINDOWS]);
	lg_coord_sum(e->cfg->coord, (uint64_t *)&sum, sizeof(sum) / sizeof(uint64_t));
	e->run->timeline[k].p99_ns = lg_window_percentile(&sum, 99);
}

static unsigned count_done(struct engine *e)
{
	unsigned done = 0;

	for (unsigned i = 0; i < e->spawn.started; i++)
		done += (unsigned)atomic_load_explicit(&e->live[i].done, memory_order_acquire);
	return done + lg_spawn_reap(&e->spawn);
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

	e->pending_max = max > e->pending_max ? max : e->pending_max;
	*t = (struct lg_coord_tick){ .max = {
		[LG_TICK_STOP] = (interrupted ? LG_STOP_INTERRUPT : 0) |
				 (atomic_load_explicit(&e->sh->abort, memory_order_relaxed) ?
					  LG_STOP_ABORT : 0),
		[LG_TICK_NOT_DONE] = e->cfg->run_once && count_done(e) < e->spawn.started,
		[LG_TICK_NOT_DUE] = !due,
		[LG_TICK_TICK] = tick,
	} };
	tick_sums(e, live, t);
	return lg_coord_tick(e->cfg->coord, t);
}

/* Print the progress line at now from the job's sums t: in warm-up, ops and MB/s of
 * every op since the start barrier; in the measured phase, of the ops recorded so far
 * over the seconds since it began, which is how the final Throughput line counts (its
 * last value is that line). */
static void progress(struct engine *e, uint64_t now, const struct lg_coord_tick *t)
{
	uint64_t since = e->t_exec ? e->t_exec : e->t_start;
	double secs = (double)(now - since) / 1e9;

	if (e->cfg->quiet || !e->cfg->progress)
		return;
	e->cfg->progress(stdout, e->cfg->clients * lg_coord_size(e->cfg->coord),
			 t->sum[LG_TICK_OPS],
			 secs > 0 ? (double)t->sum[LG_TICK_BYTES] / secs / 1e6 : 0,
			   e->t_exec ? "execute" : "warmup", secs,
			   e->cfg->interval_s < 1 ? 2 : 0, (double)t->max[LG_TICK_MAX_LAT] / 1e6);
	fflush(stdout);
}

/* One interval ending at now, with the sums t of every rank: a timeline entry in the
 * measured phase, and unless quiet the progress line. */
static int interval(struct engine *e, uint64_t now, const struct lg_coord_tick *t,
		    const struct sums *live, bool print)
{
	double len = (double)(now - e->prev_tick) / 1e9;
	int rc = 0;

	if (e->t_exec) {
		size_t k = e->run->ntimeline;
		struct lg_interval iv = {
			.t_s = (double)(now - e->t_exec) / 1e9,
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
			interval_p99(e, k - 1);
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
static void set_start(struct engine *e, uint64_t now)
{
	e->t_exec = e->prev_tick = now;
	lg_monitor_begin(e->mon, now);
	if (!e->cfg->run_once)
		atomic_store_explicit(&e->sh->deadline, now + (uint64_t)(e->cfg->time_s * 1e9),
				      memory_order_relaxed);
}

/* The measured phase begins at now (0: at the coming release of the start barrier):
 * remember where the live counters stand. */
static void begin_execute(struct engine *e, uint64_t now)
{
	set_phase(e, LG_CLOCK_EXECUTE);
	live_sum(e, &e->base);
	e->prev = e->base;
	e->pending_max = 0; /* warm-up's slowest op is not the first interval's */
	if (now)
		set_start(e, now);
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* A stop, from this rank or another: every rank stops alike. */
static void stop_all(struct engine *e, uint64_t why)
{
	if (why & LG_STOP_INTERRUPT)
		interrupted = 1;
	if (why & LG_STOP_ABORT)
		atomic_store_explicit(&e->sh->abort, 1, memory_order_relaxed);
}

/* Watch the clock from the start barrier to the end of the measured phase. Whenever
 * something is due here (an interval, the end of a phase, a stop) the ranks exchange
 * their sums and flags, and act on the reduced ones, so all take the same steps (one
 * host: the reduction is the identity). Returns 0, or -ENOMEM when the timeline could
 * not grow. */
static int monitor(struct engine *e)
{
	const struct lg_config *cfg = e->cfg;
	uint64_t warm = cfg->run_once ? 0 : (uint64_t)(cfg->warmup_s * 1e9);
	uint64_t len = (uint64_t)(cfg->time_s * 1e9), next = e->t_start + e->interval_ns;
	struct lg_coord_tick t;
	struct sums live;
	int rc = 0;

	for (;;) {
		uint64_t now = lg_now_ns();
		/* the next moment something is due: the end of warm-up or of the run */
		uint64_t due = e->t_exec ? e->t_exec + len : e->t_start + warm;
		bool is_due = !(cfg->run_once && e->t_exec) && now >= due;
		bool stop = interrupted || atomic_load_explicit(&e->sh->abort, memory_order_relaxed);
		bool done = cfg->run_once && count_done(e) >= e->spawn.started;

		if (!(now >= next || is_due || stop || done)) {
			lg_sleep_until_ns(min3(now + TICK_NS, next, cfg->run_once ? UINT64_MAX : due));
			continue;
		}
		if (exchange(e, now >= next, is_due, &t, &live)) {
			rc = -EIO;
			break;
		}
		stop_all(e, t.max[LG_TICK_STOP]);
		if (t.max[LG_TICK_STOP])
			break;
		if (cfg->run_once ? !t.max[LG_TICK_NOT_DONE] : e->t_exec && !t.max[LG_TICK_NOT_DUE])
			break;
		if (t.max[LG_TICK_TICK]) {
			rc = rc ? rc : interval(e, now, &t, &live, true);
			next += e->interval_ns;
		}
		if (!e->t_exec && !t.max[LG_TICK_NOT_DUE]) {
			begin_execute(e, now);
			next = now + e->interval_ns;
		}
	}
	/* the last, usually partial, interval is taken once the clients have stopped
	 * (last_interval), so that it holds the ops that complete after this point */
	set_phase(e, LG_CLOCK_STOP);
	return rc;
}

/* Lay out the shared mapping: control block, live counters, then each client's stats
 * (cache-line aligned). Threads and processes use the same memory, so the master reads
 * results the same way in both modes. */
/* Whether ops follow a schedule (-R or --rate-ops): latency then counts from each op's
 * intended start, and service time is recorded beside it. */
static bool paced(const struct lg_config *cfg)
{
	return cfg->rate_mbps > 0 || cfg->rate_ops > 0;
}

static int alloc_shared(struct engine *e)
{
	unsigned n = e->cfg->clients;
	size_t live_off = (sizeof(struct lg_shared) + 63) & ~(size_t)63;
	size_t one = lg_client_stats_size(e->wl->ntypes, paced(e->cfg));
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;

	if (!one)
		return -ENOMEM;
	e->stats_size = (one + 63) & ~(size_t)63;
	e->win_off = live_off + n * sizeof(struct lg_live);
	e->stats_off = e->win_off + (size_t)n * LG_WINDOWS * sizeof(struct lg_window);
	e->shm_len = e->stats_off + n * e->stats_size;
	e->shm = mmap(NULL, e->shm_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (e->shm == MAP_FAILED) {
		e->shm = NULL;
		return -ENOMEM;
	}
	e->sh = e->shm;
	e->live = (struct lg_live *)((char *)e->shm + live_off);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&e->sh->gate.lock, &ma);
	pthread_cond_init(&e->sh->gate.cond, &ca);
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_destroy(&ca);
	return 0;
}

static struct lg_client_stats *stats_of(const struct engine *e, unsigned i)
{
	return (struct lg_client_stats *)((char *)e->shm + e->stats_off + i * e->stats_size);
}

static int alloc_clients(struct engine *e, char *err, size_t errlen)
{
	const struct lg_config *cfg = e->cfg;
	unsigned n = cfg->clients;

	if (alloc_shared(e))
		goto nomem;
	e->sh->run_once = cfg->run_once;
	e->sh->skip_cleanup = cfg->keep;
	e->sh->abort_on_error = cfg->abort_on_error;
	e->sh->seed = cfg->seed;
	e->sh->fsync_writes = cfg->fsync_writes;
	e->sh->sync_dirs = cfg->sync_dirs;
	e->sh->resolve = cfg->resolve;
	e->sh->verify = cfg->verify;
	e->sh->deadline = UINT64_MAX;
	e->sh->rate = cfg->rate_mbps * 1e6 / 1e9; /* bytes per ns */
	e->sh->op_ns = cfg->rate_ops > 0 ? 1e9 / cfg->rate_ops : 0;
	e->sh->paced = paced(cfg);
	e->sh->stall_ns = (uint64_t)(cfg->stall_threshold_s * 1e9);
	e->clients = calloc(n, sizeof(*e->clients));
	if (!e->clients || lg_write_pattern(e->wl->max_io, &e->sh->wbuf))
		goto nomem;
	for (unsigned i = 0; i < n; i++) {
		/* ids are global: rank r's client i is r * n + i */
		unsigned id = lg_coord_rank(cfg->coord) * n + i;
		struct lg_client_stats *st = lg_client_stats_init(stats_of(e, i), id, e->wl->ntypes,
								  paced(cfg));

		if (lg_client_init(&e->clients[i], id, e->wl, e->sh, &e->live[i], st))
			goto nomem;
		e->clients[i].win = windows_of(e, i);
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for %u clients", n);
	return -ENOMEM;
}

/* When the measured phase ended: at the completion of the last measured op, so every
 * byte counted falls inside it; with no op at all, when the master stopped the clients;
 * with --end-sync, when the final syncfs returned. */
static uint64_t measured_end(const struct engine *e, uint64_t t_stop)
{
	uint64_t last = 0;

	for (unsigned i = 0; i < e->spawn.started; i++)
		if (e->live[i].last_end_ns > last)
			last = e->live[i].last_end_ns;
	return e->cfg->end_sync || last <= e->t_exec ? t_stop : last;
}

/* The clients have left the run phase: the last timeline interval holds every op
 * recorded since the previous one, so the timeline adds up to the run's totals, and
 * the last progress line shows the final figures. */
static int last_interval(struct engine *e, uint64_t end)
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
	if (lg_coord_tick(e->cfg->coord, &t))
		return -EIO;
	if (!t.sum[LG_TICK_D_OPS] && !t.max[LG_TICK_TICK])
		return 0; /* nothing left, and too short to be worth a line */
	return interval(e, e->t_exec + t.max[LG_TICK_END], &t, &live, true);
}
static enum lg_run_status run_status(const struct engine *e, bool failed)
{
	if (failed)
		return LG_RUN_FAILED;
	if (interrupted || !e->t_exec)
		return LG_RUN_INTERRUPTED;
	if (atomic_load(&e->sh->abort))
		return LG_RUN_ABORTED;
	return e->spawn.lost ? LG_RUN_PARTIAL : LG_RUN_COMPLETE;
}

/* Hand the clients' stats (in the shared mapping, which the run now owns) to the run. */
static int collect(struct engine *e, uint64_t t_stop, bool failed)
{
	struct lg_run *run = e->run;
	uint64_t last = measured_end(e, t_stop);
	int rc = last_interval(e, last);

	if (e->run->ntimeline) /* the last interval's window: the clients have stopped (first:
				 a reduction every rank makes) */
		interval_p99(e, e->run->ntimeline - 1);
	run->nclients = e->spawn.started;
	run->ntypes = e->wl->ntypes;
	run->type_names = (const char *const *)e->wl->types;
	run->path_names = (const char *const *)e->wl->paths;
	run->npaths = e->wl->npaths;
	run->clients = calloc(e->spawn.started ? e->spawn.started : 1, sizeof(*run->clients));
	if (rc || !run->clients)
		return -ENOMEM;
	for (unsigned i = 0; i < e->spawn.started; i++) {
		run->clients[i] = stats_of(e, i);
		if (e->t_exec && e->live[i].last_end_ns > e->t_exec)
			run->clients[i]->done_s = (double)(e->live[i].last_end_ns - e->t_exec) / 1e9;
	}
	if (e->t_exec)
		run->duration_s = (double)(last - e->t_exec) / 1e9;
	run->t0_ns = e->t_exec;
	run->stall_ns = e->sh->stall_ns;
	run->status = run_status(e, failed);
	if (e->spawn.lost) {
		run->lost = calloc(e->spawn.lost, sizeof(*run->lost));
		if (!run->lost)
			return -ENOMEM;
		for (unsigned i = 0; i < e->spawn.started; i++)
			if (e->spawn.lost_signal[i] || e->spawn.exit_status[i] > 0)
				run->lost[run->nlost++] = (struct lg_lost){
					e->clients[i].id, e->spawn.lost_signal[i], e->spawn.exit_status[i] };
	}
	return lg_run_merge(run);
}

static void teardown(struct engine *e, char *rundir, int dirfd)
{
	current_spawn = NULL;
	lg_monitor_destroy(e->mon);
	if (e->clients)
		for (unsigned i = 0; i < e->cfg->clients; i++)
			if (e->clients[i].wl)
				lg_client_fini(&e->clients[i]);
	free(e->clients);
	if (e->sh)
		free((void *)e->sh->wbuf);
	lg_spawn_free(&e->spawn);
	if (e->shm && e->run->shm != e->shm) {
		pthread_mutex_destroy(&e->sh->gate.lock);
		pthread_cond_destroy(&e->sh->gate.cond);
		munmap(e->shm, e->shm_len);
	}
	current_rundir = NULL;
	if (dirfd >= 0 && !lg_coord_owns_rundir(e->cfg->coord)) {
		close(dirfd); /* rank 0 removes the shared directory (after the barrier) */
	} else if (dirfd >= 0 && !e->cfg->keep) {
		int rc = lg_rundir_remove(rundir, dirfd);

		if (rc)
			fprintf(stderr, "loadgen: removing %s: %s\n", rundir, strerror(-rc));
	} else if (dirfd >= 0) {
		close(dirfd);
		fprintf(stderr, "loadgen: --keep: the run directory %s is left as the run phase "
			"left it (cleanup not run)\n", rundir);
	}
	free(rundir);
}

/* The measured phase is over: --end-sync makes a final syncfs part of it. */
static void end_sync(struct engine *e, int dirfd, uint64_t *t_stop)
{
	uint64_t t0 = lg_now_ns();

	syncfs(dirfd);
	*t_stop = lg_now_ns();
	e->run->end_sync_s = (double)(*t_stop - t0) / 1e9;
}

/* Setup done: a full filesystem stops the run before anything is measured. The run
 * is then collected with status "failed" and why; returns whether it failed. */
static bool setup_failed(struct engine *e, const char *rundir)
{
	int full = atomic_load(&e->sh->setup_full);
	char msg[1024];

	if (!full)
		return false;
	snprintf(msg, sizeof(msg), "setup failed: the filesystem of %s is full (%s); nothing "
		 "was measured", rundir, lg_errno_name(full));
	for (unsigned i = 0; i < e->spawn.started; i++) {
		const struct lg_untimed_stats *u = &stats_of(e, i)->untimed[LG_UNTIMED_SETUP];
		const struct lg_error_note *n = u->notes;

		if (u->nnotes && (n->got == ENOSPC || n->got == EDQUOT)) {
			snprintf(msg, sizeof(msg), "setup failed: the filesystem of %s is full (%s "
				 "at line %u of the workload, client %u); nothing was measured",
				 rundir, lg_errno_name(n->got), n->line, e->clients[i].id);
			break;
		}
	}
	e->run->failure = strdup(msg);
	e->run->failure_owned = e->run->failure != NULL;
	e->run->failure_errno = full;
	e->run->failure_phase = LG_UNTIMED_SETUP;
	return true;
}

/* Several ranks: when the setup of any failed, every rank's run failed, with the first
 * failing rank's reason (naming its host and rank). Returns whether it failed. */
static bool agree_failed(struct engine *e, bool failed)
{
	struct lg_run *run = e->run;
	char msg[1024];
	int rc;

	snprintf(msg, sizeof(msg), "%s", run->failure ? run->failure : "setup failed");
	rc = lg_coord_status(e->cfg->coord, failed ? -(run->failure_errno ? run->failure_errno
								 : EIO) : 0,
			     msg, sizeof(msg));
	if (!rc)
		return false;
	if (run->failure_owned)
		free((void *)run->failure);
	run->failure = strdup(msg);
	run->failure_owned = run->failure != NULL;
	run->failure_errno = -rc;
	run->failure_phase = LG_UNTIMED_SETUP;
	return true;
}

/* Setup done, clients at the barrier: release them and watch until the end. */
static int measure(struct engine *e, uint64_t *t_stop, char *err, size_t errlen)
{
	const struct lg_config *cfg = e->cfg;
	/* Without warm-up the very first op is measured: announce the measured phase while
	 * every client still waits at the barrier, and start its clock at the release. */
	bool now = cfg->run_once || cfg->warmup_s == 0;
	int rc;

	if (now)
		begin_execute(e, 0);
	gate_release(&e->sh->gate, 1);
	e->t_start = lg_now_ns();
	if (now)
		set_start(e, e->t_start);
	rc = monitor(e);
	*t_stop = lg_now_ns();
	/* every rank goes on to the reductions, or none */
	return lg_coord_status(cfg->coord, rc, err, errlen);
}

int lg_engine_run(const struct lg_config *cfg, const struct lg_workload *wl,
		  struct lg_run *run, char *err, size_t errlen)
{
	struct engine e = { .cfg = cfg, .wl = wl, .run = run,
			    .interval_ns = (uint64_t)(cfg->interval_s * 1e9) };
	struct lg_coord *co = cfg->coord;
	struct sched_param old;
	char *rundir = NULL;
	int dirfd = -1, rc, policy;
	uint64_t t_stop = 0, left;
	bool failed = false;

	memset(run, 0, sizeof(*run));
	/* Each failure before the start is agreed on by every rank (lg_coord_status), so
	 * all take the same path; on one host those calls hand back rc. */
	rc = lg_coord_status(co, lg_limits_check(cfg, wl, err, errlen), err, errlen);
	if (!rc)
		rc = lg_coord_rundir(co, cfg->directory, &rundir, &dirfd, err, errlen);
	if (!rc && cfg->direct)
		rc = lg_coord_status(co, lg_probe_direct(dirfd, rundir, err, errlen), err, errlen);
	if (rc)
		goto out;
	current_rundir = rundir;
	/* just before setup: the kernel log from here on, the whole-run vmstat baseline */
	rc = lg_monitor_create(cfg, rundir, &e.mon);
	if (rc)
		snprintf(err, errlen, "out of memory for the system monitor");
	else
		rc = alloc_clients(&e, err, errlen);
	rc = lg_coord_status(co, rc, err, errlen);
	if (rc)
		goto out;
	e.sh->dirfd = dirfd;
	rc = lg_spawn_start(&e.spawn, cfg->processes, cfg->clients, e.clients, err, errlen);
	current_spawn = &e.spawn;
	gate_wait_all(&e);
	if (!rc)
		failed = setup_failed(&e, rundir);
	if (!rc && co) /* one rank's setup failed: every rank's run failed */
		failed = agree_failed(&e, failed);
	if (!rc && !failed && cfg->drop_caches) /* on every host, just before the common start */
		rc = lg_drop_caches(err, errlen);
	/* real-time where allowed from the common start to the end of the watch: on a host
	 * whose cores the clients (of other ranks too) keep busy, the master still wakes
	 * on time; it sleeps almost all the time, so it takes nothing from them */
	policy = lg_master_realtime(&old);
	rc = lg_coord_start(co, rc, err, errlen);
	if (!rc && !failed) {
		rc = measure(&e, &t_stop, err, errlen);
	} else { /* the clients that did start go straight to cleanup */
		set_phase(&e, LG_CLOCK_STOP);
		gate_release(&e.sh->gate, 1);
	}
	if (policy >= 0)
		pthread_setschedparam(pthread_self(), policy, &old);
	gate_wait_all(&e);
	if (!rc && cfg->end_sync)
		end_sync(&e, dirfd, &t_stop);
	gate_release(&e.sh->gate, 2);
	lg_spawn_join(&e.spawn);
	lg_spawn_warn_lost(&e.spawn);
	run->cleanup_left = -1;
	if (co) /* a shared directory: count once every rank's cleanup is over */
		lg_coord_status(co, 0, NULL, 0);
	if (!cfg->keep && lg_rundir_count(dirfd, &left) == 0)
		run->cleanup_left = (int64_t)left;
	if (!rc)
		rc = collect(&e, t_stop, failed);
	lg_monitor_end(e.mon); /* after collect's last interval: the summary counts it */
	if (!rc) /* rank 0 gets every rank's clients (in a mapping of its own) */
		rc = lg_coord_finish(co, run, stats_of(&e, 0), e.stats_size, err, errlen);
	if (!rc) {
		run->mon = e.mon;
		e.mon = NULL;
	}
	if (!rc && !run->shm) {
		run->shm = e.shm;
		run->shm_len = e.shm_len;
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
out:
	lg_coord_status(co, 0, NULL, 0); /* cleanup after every rank is done with the files */
	teardown(&e, rundir, dirfd);
	return rc;
}
