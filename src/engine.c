/* The master. Design: clients own everything they measure; the master only announces
 * phases through one atomic (lg_shared.phase), reads the clients' live counters once per
 * interval for the progress line and the timeline, and merges the stats after joining. */
#include "loadgen/engine.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "loadgen/report.h"
#include "loadgen/rundir.h"

#define TICK_NS 50000000ull       /* how often the master looks at the clock */
#define INTERVAL_NS 1000000000ull /* progress line and timeline interval */
#define CLIENT_STACK (256 * 1024) /* clients keep their buffers on the heap */

static volatile sig_atomic_t interrupted;
static const char *volatile current_rundir;

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

struct engine {
	const struct lg_config *cfg;
	const struct lg_workload *wl;
	struct lg_shared sh;
	struct lg_client *clients; /* cfg->clients entries */
	struct lg_live *live;      /* cfg->clients entries, one cache line each */
	pthread_t *threads;
	unsigned started;          /* client threads created */
	uint64_t t_start;          /* start barrier released */
	uint64_t t_exec;           /* measured phase began (0: not yet) */
	uint64_t base_ops, base_bytes; /* live sums when the measured phase began */
	uint64_t prev_ops, prev_bytes; /* live sums at the previous interval */
	uint64_t prev_tick;        /* time of the previous interval */
	struct lg_run *run;
};

/* Master: wait until n clients arrived at the gate. */
static void gate_wait_all(struct lg_gate *g, unsigned n)
{
	pthread_mutex_lock(&g->lock);
	while (g->arrived < n)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

/* Master: let the clients waiting at the gate go on to stage. */
static void gate_release(struct lg_gate *g, int stage)
{
	pthread_mutex_lock(&g->lock);
	g->arrived = 0;
	g->stage = stage;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static void set_phase(struct engine *e, enum lg_clock_phase p)
{
	atomic_store_explicit(&e->sh.phase, p, memory_order_relaxed);
}

/* Sum of the live counters; *max gets (and resets) the slowest op of the interval. */
static void live_sum(struct engine *e, uint64_t *ops, uint64_t *bytes, uint64_t *max)
{
	*ops = *bytes = *max = 0;
	for (unsigned i = 0; i < e->started; i++) {
		struct lg_live *l = &e->live[i];
		uint64_t m = atomic_exchange_explicit(&l->window_max, 0, memory_order_relaxed);

		*ops += atomic_load_explicit(&l->ops, memory_order_relaxed);
		*bytes += atomic_load_explicit(&l->bytes, memory_order_relaxed);
		if (m > *max)
			*max = m;
	}
}

static unsigned count_done(struct engine *e)
{
	unsigned done = 0;

	for (unsigned i = 0; i < e->started; i++)
		done += (unsigned)atomic_load_explicit(&e->live[i].done, memory_order_acquire);
	return done;
}

/* One interval ending at now: a timeline entry in the measured phase, and unless quiet
 * the progress line. */
static int interval(struct engine *e, uint64_t now, bool print)
{
	uint64_t ops, bytes, max, since = e->t_exec ? e->t_exec : e->t_start;
	uint64_t o0 = e->t_exec ? e->base_ops : 0, b0 = e->t_exec ? e->base_bytes : 0;
	double secs = (double)(now - since) / 1e9;
	int rc = 0;

	live_sum(e, &ops, &bytes, &max);
	if (e->t_exec) {
		struct lg_interval iv = {
			.t_s = (double)(now - e->t_exec) / 1e9,
			.ops = ops - e->prev_ops,
			.bytes = bytes - e->prev_bytes,
			.mbps = (double)(bytes - e->prev_bytes) * 1e3 / (double)(now - e->prev_tick),
			.max_latency_ns = max,
		};
		rc = lg_run_add_interval(e->run, &iv);
	}
	if (print && !e->cfg->quiet) {
		lg_report_progress(stdout, e->cfg->clients, ops - o0,
				   secs > 0 ? (double)(bytes - b0) / secs / 1e6 : 0,
				   e->t_exec ? "execute" : "warmup", (int)(secs + 0.5),
				   (double)max / 1e6);
		fflush(stdout);
	}
	e->prev_ops = ops;
	e->prev_bytes = bytes;
	e->prev_tick = now;
	return rc;
}

/* The measured phase begins at now: remember where the live counters stand. */
static void begin_execute(struct engine *e, uint64_t now)
{
	uint64_t max;

	set_phase(e, LG_CLOCK_EXECUTE);
	live_sum(e, &e->base_ops, &e->base_bytes, &max);
	e->t_exec = now;
	e->prev_ops = e->base_ops;
	e->prev_bytes = e->base_bytes;
	e->prev_tick = now;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000u), (long)(t % 1000000000u) };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* Watch the clock from the start barrier to the end of the measured phase. Returns
 * 0, or -ENOMEM when the timeline could not grow. */
static int monitor(struct engine *e)
{
	const struct lg_config *cfg = e->cfg;
	uint64_t warm = cfg->run_once ? 0 : (uint64_t)(cfg->warmup_s * 1e9);
	uint64_t len = (uint64_t)(cfg->time_s * 1e9), next = e->t_start + INTERVAL_NS;
	int rc = 0;

	for (;;) {
		uint64_t now = lg_now_ns();
		/* the next moment something is due: the end of warm-up or of the run */
		uint64_t due = e->t_exec ? e->t_exec + len : e->t_start + warm;

		if (interrupted || atomic_load_explicit(&e->sh.abort, memory_order_relaxed))
			break;
		if (cfg->run_once ? count_done(e) == e->started : e->t_exec && now >= due)
			break;
		if (now >= next) {
			rc = rc ? rc : interval(e, now, true);
			next += INTERVAL_NS;
		}
		if (!e->t_exec && now >= due) {
			begin_execute(e, now);
			next = now + INTERVAL_NS;
		} else if (now < next) {
			sleep_until(min3(now + TICK_NS, next, cfg->run_once ? UINT64_MAX : due));
		}
	}
	/* the last, usually partial, interval */
	if (e->t_exec && lg_now_ns() - e->prev_tick >= INTERVAL_NS / 100)
		rc = rc ? rc : interval(e, lg_now_ns(), true);
	set_phase(e, LG_CLOCK_STOP);
	return rc;
}

/* Start the client threads with SIGINT/SIGTERM blocked in them, so only the master
 * thread takes those signals. Stops at the first failure; e->started says how many run. */
static int start_clients(struct engine *e, char *err, size_t errlen)
{
	sigset_t block, old;
	pthread_attr_t attr;
	int rc = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, CLIENT_STACK);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (unsigned i = 0; i < e->cfg->clients; i++) {
		rc = pthread_create(&e->threads[i], &attr, lg_client_main, &e->clients[i]);
		if (rc) {
			snprintf(err, errlen, "cannot start client %u of %u: %s", i + 1,
				 e->cfg->clients, strerror(rc));
			rc = -rc;
			break;
		}
		e->started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return rc;
}

static int alloc_clients(struct engine *e, char *err, size_t errlen)
{
	unsigned n = e->cfg->clients;

	e->clients = calloc(n, sizeof(*e->clients));
	e->threads = calloc(n, sizeof(*e->threads));
	e->live = aligned_alloc(64, n * sizeof(*e->live));
	if (!e->clients || !e->threads || !e->live)
		goto nomem;
	memset(e->live, 0, n * sizeof(*e->live));
	for (unsigned i = 0; i < n; i++)
		if (lg_client_init(&e->clients[i], i, e->wl, &e->sh, &e->live[i]))
			goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory for %u clients", n);
	return -ENOMEM;
}

/* Hand the clients' stats to the run and merge them. */
static int collect(struct engine *e, uint64_t t_stop)
{
	struct lg_run *run = e->run;
	uint64_t last = 0;

	run->nclients = e->started;
	run->ntypes = e->wl->ntypes;
	run->type_names = (const char *const *)e->wl->types;
	run->clients = calloc(e->started ? e->started : 1, sizeof(*run->clients));
	if (!run->clients)
		return -ENOMEM;
	for (unsigned i = 0; i < e->started; i++) {
		run->clients[i] = e->clients[i].stats;
		e->clients[i].stats = NULL;
		if (e->clients[i].last_end_ns > last)
			last = e->clients[i].last_end_ns;
	}
	/* Measured time ends when the last measured op completed, so every byte counted
	 * falls inside it; with no op at all, when the master stopped the clients. */
	if (!e->t_exec)
		run->duration_s = 0;
	else
		run->duration_s = (double)((last > e->t_exec ? last : t_stop) - e->t_exec) / 1e9;
	run->status = interrupted || atomic_load(&e->sh.abort) || !e->t_exec ?
			      LG_RUN_INTERRUPTED : LG_RUN_COMPLETE;
	return lg_run_merge(run);
}

/* Report unexpected results of setup and cleanup, which are not part of the stats. */
static void warn_untimed(const struct engine *e)
{
	uint64_t total = 0;
	const struct lg_client *first = NULL;

	for (unsigned i = 0; i < e->started; i++) {
		total += e->clients[i].setup_errors;
		if (!first && e->clients[i].setup_errors)
			first = &e->clients[i];
	}
	if (!first)
		return;
	fprintf(stderr, "loadgen: %llu unexpected results in setup/cleanup; first: client %u, "
		"line %u: %s, expected %s\n", (unsigned long long)total, first->id,
		first->setup_note.line, lg_errno_name(first->setup_note.got),
		first->setup_note.expect == LG_EXPECT_ANY ? "any" :
		lg_errno_name(first->setup_note.expect));
}

static void teardown(struct engine *e, char *rundir, int dirfd)
{
	if (e->clients)
		for (unsigned i = 0; i < e->cfg->clients; i++)
			if (e->clients[i].wl)
				lg_client_fini(&e->clients[i]);
	free(e->clients);
	free(e->threads);
	free(e->live);
	pthread_mutex_destroy(&e->sh.gate.lock);
	pthread_cond_destroy(&e->sh.gate.cond);
	current_rundir = NULL;
	if (dirfd >= 0 && !e->cfg->keep) {
		int rc = lg_rundir_remove(rundir, dirfd);

		if (rc)
			fprintf(stderr, "loadgen: removing %s: %s\n", rundir, strerror(-rc));
	} else if (dirfd >= 0) {
		close(dirfd);
		fprintf(stderr, "loadgen: kept %s\n", rundir);
	}
	free(rundir);
}

int lg_engine_run(const struct lg_config *cfg, const struct lg_workload *wl,
		  struct lg_run *run, char *err, size_t errlen)
{
	struct engine e = { .cfg = cfg, .wl = wl, .run = run };
	char *rundir = NULL;
	int dirfd = -1, rc;
	bool measure_now;
	uint64_t t_stop;

	memset(run, 0, sizeof(*run));
	pthread_mutex_init(&e.sh.gate.lock, NULL);
	pthread_cond_init(&e.sh.gate.cond, NULL);
	e.sh.run_once = cfg->run_once;
	e.sh.abort_on_error = cfg->abort_on_error;
	e.sh.seed = cfg->seed;
	rc = lg_rundir_create(cfg->directory, &rundir, &dirfd, err, errlen);
	if (rc)
		goto out;
	e.sh.dirfd = dirfd;
	current_rundir = rundir;
	rc = alloc_clients(&e, err, errlen);
	if (!rc)
		rc = start_clients(&e, err, errlen);
	if (rc) /* release the clients that did start straight into cleanup */
		set_phase(&e, LG_CLOCK_STOP);
	gate_wait_all(&e.sh.gate, e.started);
	/* Without warm-up the very first op is measured: announce the measured phase while
	 * every client still waits at the barrier, and start its clock at the release. */
	measure_now = !rc && (cfg->run_once || cfg->warmup_s == 0);
	if (measure_now)
		begin_execute(&e, 0);
	gate_release(&e.sh.gate, 1);
	e.t_start = lg_now_ns();
	if (measure_now)
		e.t_exec = e.prev_tick = e.t_start;
	if (!rc)
		rc = monitor(&e);
	t_stop = lg_now_ns();
	gate_wait_all(&e.sh.gate, e.started);
	gate_release(&e.sh.gate, 2);
	for (unsigned i = 0; i < e.started; i++)
		pthread_join(e.threads[i], NULL);
	warn_untimed(&e);
	if (!rc)
		rc = collect(&e, t_stop);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
out:
	teardown(&e, rundir, dirfd);
	return rc;
}
