/* The master. Design: clients own everything they measure; the master only announces
 * phases through one atomic (lg_shared.phase), reads the clients' live counters once per
 * interval for the progress line and the timeline (engine_watch.c), and merges the stats
 * after joining. This file: setup, spawn, the gate, collect and teardown. */
#include "loadgen/run/engine.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "engine_priv.h"
#include "loadgen/env/monitor.h"
#include "loadgen/run/coord.h"
#include "loadgen/run/rundir.h"
#include "rlimits.h"
#include "engine_os.h"
#include "spawn.h"

/* Set from the signal handler (lg_engine_interrupt); read by the watch. */
static volatile sig_atomic_t interrupted;
static const char *volatile current_rundir;
static struct lg_spawn *volatile current_spawn;

void lg_engine_interrupt(void)
{
	interrupted = 1;
}

void lg_engine_flush_stdout(void)
{
	if (fflush(stdout) != 0 && errno == EPIPE)
		lg_engine_interrupt();
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

/* Clients that arrived at the end of gate stage `stage`, or were lost: each counted
 * once, whichever it did first. */
static unsigned arrived(struct engine *e, int stage)
{
	unsigned n = 0;

	lg_spawn_reap(&e->spawn);
	for (unsigned i = 0; i < e->spawn.started; i++)
		n += atomic_load_explicit(&e->live[i].passed, memory_order_acquire) > stage ||
		     lg_spawn_lost(&e->spawn, i);
	return n;
}

/* Master: wait until every live client arrived at the gate. Waits in slices, so that
 * a client process that died on the way is noticed instead of waited for forever, and
 * an interrupt in setup stops the clients' setup (and its sleeps) at once. */
static void gate_wait_all(struct engine *e, int stage)
{
	struct lg_gate *g = &e->sh->gate;

	pthread_mutex_lock(&g->lock);
	while (arrived(e, stage) < e->spawn.started) {
		struct timespec ts;

		if (interrupted)
			lg_engine_set_phase(e, LG_CLOCK_STOP);
		lg_coord_answer(e->co); /* rank 0 may be asking who is still there */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * (long)LG_NS_PER_MS; /* 0.1 s */
		if (ts.tv_nsec >= (long)LG_NS_PER_SEC) {
			ts.tv_sec++;
			ts.tv_nsec -= (long)LG_NS_PER_SEC;
		}
		pthread_cond_timedwait(&g->cond, &g->lock, &ts);
	}
	pthread_mutex_unlock(&g->lock);
}

static void answer_calls(void *co)
{
	lg_coord_answer(co);
}

/* Master: let the clients waiting at the gate go on to stage. */
static void gate_release(struct lg_gate *g, int stage)
{
	atomic_store_explicit(&g->stage, stage, memory_order_release);
	lg_futex_wake_all(&g->stage);
}


/* Whether ops follow a schedule (-R or --rate-ops): latency then counts from each op's
 * intended start, and service time is recorded beside it. */
static bool paced(const struct lg_config *cfg)
{
	return cfg->rate_mbps > 0 || cfg->rate_ops > 0;
}

/* Lay out the shared mapping: control block, live counters, then each client's stats
 * (cache-line aligned). Threads and processes use the same memory, so the master reads
 * results the same way in both modes. */
static int alloc_shared(struct engine *e)
{
	unsigned n = e->nworkers;
	size_t live_off = (sizeof(struct lg_shared) + 63) & ~(size_t)63;
	size_t one = lg_client_stats_size(e->wl->ntypes, paced(e->cfg));
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;

	if (!one)
		return -ENOMEM;
	e->stats_size = (one + 63) & ~(size_t)63;
	e->win_off = live_off + n * sizeof(struct lg_live);
	e->stats_off = (e->win_off + (size_t)n * LG_WINDOWS * sizeof(struct lg_window) + 63) &
		       ~(size_t)63; /* the windows' size is a multiple of 4 only */
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


static int alloc_clients(struct engine *e, char *err, size_t errlen)
{
	const struct lg_config *cfg = e->cfg;
	unsigned n = e->nworkers, ns = e->wl->nstreams ? (unsigned)e->wl->nstreams : 1;

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
	e->sh->clients_total = cfg->clients * lg_coord_size(e->co);
	e->sh->peer_shift = e->wl->peer_shift ? e->wl->peer_shift : cfg->clients;
	e->sh->deadline = UINT64_MAX;
	e->sh->rate = cfg->rate_mbps * 1e6 / LG_NS_PER_SEC; /* bytes per ns */
	e->sh->op_ns = cfg->rate_ops > 0 ? LG_NS_PER_SEC / cfg->rate_ops : 0;
	e->sh->paced = paced(cfg);
	e->sh->stall_ns = (uint64_t)(cfg->stall_threshold_s * LG_NS_PER_SEC);
	e->sh->think_scale = cfg->think_scale;
	e->clients = calloc(n, sizeof(*e->clients));
	if (!e->clients || lg_write_pattern(e->wl->max_io, &e->sh->wbuf))
		goto nomem;
	for (unsigned i = 0; i < n; i++) {
		/* ids are global: rank r's client i is r * clients + i; a recorded program's
		 * streams are threads of one client, which has their id and their paths */
		unsigned id = lg_coord_rank(e->co) * cfg->clients + i / ns;
		struct lg_client_stats *st = lg_client_stats_init(lg_engine_stats(e, i), id,
								  e->wl->ntypes, paced(cfg));

		if (lg_client_init(&e->clients[i], id, e->wl, e->sh, &e->live[i], st))
			goto nomem;
		e->clients[i].win = lg_engine_windows(e, i);
		if (e->wl->nstreams)
			lg_stream_bind(&e->clients[i], &e->clients[i - i % ns], i % ns,
				       &e->live[i - i % ns]);
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

/* The run's status from how it ended (failed: the setup failed). */
static enum lg_run_status run_status(const struct engine *e, bool failed)
{
	if (failed)
		return LG_RUN_FAILED;
	if (interrupted)
		return LG_RUN_INTERRUPTED;
	if (atomic_load(&e->sh->abort)) /* in warm-up too: nothing was measured then */
		return LG_RUN_ABORTED;
	if (!e->t_exec)
		return LG_RUN_INTERRUPTED;
	return e->spawn.lost ? LG_RUN_PARTIAL : LG_RUN_COMPLETE;
}

/* A recorded program's clients, their streams added up into the block of each client's
 * stream 0, moved to the front of the mapping: client k's block is then block k, as
 * without streams, which is what the gather of many ranks sends (the first nclients). */
static void compact_streams(struct engine *e, struct lg_run *run)
{
	for (unsigned k = 1; k < run->nclients; k++) {
		struct lg_client_stats *to = lg_engine_stats(e, k);

		memmove(to, run->clients[k], e->stats_size);
		if (to->svc) /* the one pointer of a block points into the block itself */
			to->svc = (struct lg_histogram *)&to->types[to->ntypes];
		run->clients[k] = to;
	}
}

/* Hand the clients' stats (in the shared mapping, which the run now owns) to the run. */
static int collect(struct engine *e, uint64_t t_stop, bool failed)
{
	struct lg_run *run = e->run;
	uint64_t last = measured_end(e, t_stop);
	int rc = lg_engine_last_interval(e, last);

	if (e->run->ntimeline) /* the last interval's window: the clients have stopped (first:
				 a reduction every rank makes) */
		lg_engine_interval_p99(e, e->run->ntimeline - 1);
	run->nclients = e->spawn.started;
	run->nthreads = e->spawn.started;
	if (e->wl->nstreams) /* a program's streams: one client */
		run->nclients = e->spawn.started / (unsigned)e->wl->nstreams;
	run->ntypes = e->wl->ntypes;
	run->type_names = (const char *const *)e->wl->types;
	run->path_names = (const char *const *)e->wl->paths;
	run->bphases = e->wl->bphases;
	run->nbphases = e->wl->nbphases;
	run->npaths = e->wl->npaths;
	run->peer_shift = e->wl->peer_shift ? e->wl->peer_shift : e->cfg->clients;
	run->clients = calloc(e->spawn.started ? e->spawn.started : 1, sizeof(*run->clients));
	if (rc || !run->clients)
		return -ENOMEM;
	for (unsigned i = 0; i < e->spawn.started; i++) {
		struct lg_client_stats *cs = lg_engine_stats(e, i);

		if (e->t_exec && e->live[i].last_end_ns > e->t_exec)
			cs->done_s = (double)(e->live[i].last_end_ns - e->t_exec) / LG_NS_PER_SEC;
		for (uint32_t p = 0; p < cs->nbphases; p++) { /* from the measured start on */
			struct lg_bphase_stats *b = &cs->bphase[p];

			b->start_ns = b->start_ns > e->t_exec ? b->start_ns - e->t_exec : 0;
			b->end_ns = b->end_ns > e->t_exec ? b->end_ns - e->t_exec : 0;
		}
		if (!e->wl->nstreams)
			run->clients[i] = cs;
		else if (i % e->wl->nstreams == 0)
			run->clients[i / e->wl->nstreams] = cs;
		else if (i / e->wl->nstreams < run->nclients)
			lg_client_stats_add(run->clients[i / e->wl->nstreams], cs);
	}
	if (e->wl->nstreams)
		compact_streams(e, run);
	if (e->t_exec)
		run->duration_s = (double)(last - e->t_exec) / LG_NS_PER_SEC;
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
		for (unsigned i = e->nworkers; i-- > 0;) /* a lead's slots outlive its streams */
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
	if (dirfd >= 0 && !lg_coord_owns_rundir(e->co)) {
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

/* Entries the cleanup left (-1 with --keep, or when a directory could not be counted),
 * each run directory counted once, by its owner: rank 0's, and the own directory of a
 * host that does not share it. Every rank calls it (a reduction), --keep or not. */
static int64_t cleanup_left(const struct lg_config *cfg, struct lg_coord *co, int dirfd)
{
	uint64_t v[2] = { 0, 0 }, left = 0; /* entries left, directories not counted */

	if (lg_coord_owns_rundir(co) && !cfg->keep) {
		if (lg_rundir_count(dirfd, &left) == 0)
			v[0] = left;
		else
			v[1] = 1;
	}
	if (lg_coord_sum(co, v, 2) || v[1] || cfg->keep)
		return -1;
	return (int64_t)v[0];
}

/* The measured phase is over: --end-sync makes a final syncfs part of it. */
static void end_sync(struct engine *e, int dirfd, uint64_t *t_stop)
{
	uint64_t t0 = lg_now_ns();

	syncfs(dirfd);
	*t_stop = lg_now_ns();
	e->run->end_sync_s = (double)(*t_stop - t0) / LG_NS_PER_SEC;
}

/* A setup write came back short (and the filesystem did not say it is full): the
 * message naming the first such write. */
static void setup_short_msg(struct engine *e, const char *rundir, char *msg, size_t len)
{
	snprintf(msg, len, "setup failed: a write in %s wrote fewer bytes than asked, so the "
		 "files are not what the workload describes; nothing was measured", rundir);
	for (unsigned i = 0; i < e->spawn.started; i++) {
		const struct lg_short_note *n =
			&lg_engine_stats(e, i)->untimed[LG_UNTIMED_SETUP].first_short;

		if (n->set) {
			snprintf(msg, len, "setup failed: a write in %s wrote %" PRIu64 " of %"
				 PRIu64 " bytes (line %u of the workload, client %u; a filesystem "
				 "about to be full does this), so the files are not what the "
				 "workload describes; nothing was measured",
				 rundir, n->wrote, n->asked, n->line, e->clients[i].id);
			return;
		}
	}
}

/* Setup done: a full filesystem, or a setup write that came back short, stops the run
 * before anything is measured. The run is then collected with status "failed" and why;
 * returns whether it failed. */
static bool setup_failed(struct engine *e, const char *rundir)
{
	int full = atomic_load(&e->sh->setup_full);
	char msg[1024];

	if (!full && atomic_load(&e->sh->setup_short)) {
		setup_short_msg(e, rundir, msg, sizeof(msg));
		e->run->failure = strdup(msg);
		e->run->failure_owned = e->run->failure != NULL;
		e->run->failure_errno = 0;
		e->run->failure_phase = LG_UNTIMED_SETUP;
		return true;
	}
	if (!full)
		return false;
	snprintf(msg, sizeof(msg), "setup failed: the filesystem of %s is full (%s); nothing "
		 "was measured", rundir, lg_errno_name(full));
	for (unsigned i = 0; i < e->spawn.started; i++) {
		const struct lg_untimed_stats *u =
			&lg_engine_stats(e, i)->untimed[LG_UNTIMED_SETUP];
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

/* When the setup of any rank failed, every rank's run failed, with the first failing
 * rank's reason (naming its host and rank). Returns whether it failed. */
static bool agree_failed(struct engine *e, bool failed)
{
	struct lg_run *run = e->run;
	char msg[1024];
	int rc;

	snprintf(msg, sizeof(msg), "%s", run->failure ? run->failure : "setup failed");
	rc = lg_coord_status(e->co, failed ? -(run->failure_errno ? run->failure_errno
								 : EIO) : 0,
			     msg, sizeof(msg));
	if (!rc)
		return false;
	if (failed && run->failure && !strcmp(msg, run->failure))
		return true; /* the failure agreed on is this rank's own, word for word (one
				host): it stays as it is */
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
		lg_engine_begin_execute(e, 0);
	if (interrupted) /* in setup: the clients leave at once, running no op */
		lg_engine_set_phase(e, LG_CLOCK_STOP);
	/* the clock before the release: a client may start its first op before the master
	 * runs again, and that op is measured, so the phase must already have begun */
	e->t_start = lg_now_ns();
	gate_release(&e->sh->gate, 1);
	if (now)
		lg_engine_set_start(e, e->t_start);
	rc = lg_engine_watch(e);
	*t_stop = lg_now_ns();
	lg_monitor_stop(e->mon); /* the phase's end, not cleanup's: who else was busy */
	/* every rank goes on to the reductions, or none */
	return lg_coord_status(e->co, rc, err, errlen);
}

int lg_engine_run(const struct lg_config *cfg, const struct lg_workload *wl,
		  struct lg_run *run, char *err, size_t errlen)
{
	/* the one seam of runs on many hosts: every step below calls co's hooks, which on
	 * one host are no-ops (lg_coord_single), so every rank takes the same path */
	struct lg_coord *co = lg_coord_of(cfg);
	struct engine e = { .cfg = cfg, .co = co, .wl = wl, .run = run,
			    .interval_ns = (uint64_t)(cfg->interval_s * LG_NS_PER_SEC) };
	struct sched_param old;
	char *rundir = NULL;
	int dirfd = -1, rc, policy;
	uint64_t t_stop = 0;
	bool failed = false;

	memset(run, 0, sizeof(*run));
	e.nworkers = cfg->clients * (unsigned)(wl->nstreams ? wl->nstreams : 1);
	/* Each failure before the start is agreed on by every rank (lg_coord_status), so
	 * all take the same path. */
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
	if (lg_coord_size(co) > 1)
		lg_monitor_ranks_here(e.mon);
	rc = lg_coord_status(co, rc, err, errlen);
	if (rc)
		goto out;
	e.sh->dirfd = dirfd;
	rc = lg_spawn_start(&e.spawn, cfg->processes, e.nworkers, e.clients, err, errlen);
	current_spawn = &e.spawn;
	gate_wait_all(&e, 0);
	if (!rc)
		failed = setup_failed(&e, rundir);
	if (!rc) /* one rank's setup failed: every rank's run failed */
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
		lg_engine_set_phase(&e, LG_CLOCK_STOP);
		gate_release(&e.sh->gate, 1);
	}
	if (policy >= 0)
		pthread_setschedparam(pthread_self(), policy, &old);
	gate_wait_all(&e, 1);
	if (!rc && cfg->end_sync)
		end_sync(&e, dirfd, &t_stop);
	gate_release(&e.sh->gate, 2);
	/* the cleanup: rank 0 may be asking who is still there meanwhile */
	lg_spawn_join_while(&e.spawn, lg_coord_size(co) > 1 ? answer_calls : NULL, co);
	lg_spawn_warn_lost(&e.spawn);
	lg_coord_status(co, 0, NULL, 0); /* a shared directory: count once every rank's
					    cleanup is over */
	run->cleanup_left = cleanup_left(cfg, co, dirfd);
	if (!rc)
		rc = collect(&e, t_stop, failed);
	lg_monitor_end(e.mon); /* after collect's last interval: the summary counts it */
	run->per_client = (enum lg_per_client)cfg->per_client;
	run->mon = e.mon; /* the finish sends it to rank 0 from each host's first rank */
	if (!rc) { /* rank 0 gets every rank's clients reduced */
		uint64_t t_fin = lg_now_ns();
		struct rusage ru;

		rc = lg_coord_finish(co, run, lg_engine_stats(&e, 0), e.stats_size, err, errlen);
		if (!rc && run->multi) { /* what the end of a run on many hosts costs rank 0 */
			run->multi->merge_s = (double)(lg_now_ns() - t_fin) / LG_NS_PER_SEC;
			run->multi->end_to_merged_s = (double)(lg_now_ns() - t_stop) / LG_NS_PER_SEC;
			if (!getrusage(RUSAGE_SELF, &ru))
				run->multi->max_rss_kib = ru.ru_maxrss;
		}
	}
	if (!rc)
		e.mon = NULL;
	else
		run->mon = NULL; /* still the engine's, destroyed in teardown */
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
