/* engine.c: whole runs of small workloads through lg_engine_run, threads and
 * processes -- exact merged counts for --run-once, the measured time of a timed run,
 * setup errors refusing the run, the run directory made and removed (or kept), the
 * timeline adding up to the totals' ops, no p99 for an idle interval, --abort-on-error
 * in warm-up making an aborted run, an interrupt ending a long setup or run early, and
 * a master woken late taking one long interval, not a run of empty ones, and the last
 * interval kept however short it is when ops are pending. */
#include "loadgen/run/engine.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "loadgen/run/coord.h"
#include "run/engine_priv.h"
#include "loadgen/load/yaml_load.h"

static char dir[64];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

static int setup_dir(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/lg-engine.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Entries left in dir. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static struct lg_workload *load(const char *yaml, unsigned clients)
{
	struct lg_workload *wl;
	char err[512];

	if (lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, clients, &wl, err, sizeof(err)))
		fail_msg("%s", err);
	return wl;
}

static struct lg_config config(unsigned clients, bool processes)
{
	return (struct lg_config){
		.clients = clients, .mode = processes ? "processes" : "threads",
		.directory = dir, .time_s = 1, .warmup_s = 0, .run_once = true, .seed = 1,
		.quiet = true, .processes = processes, .repeat = 1, .interval_s = 0.1,
		.stall_threshold_s = 1,
	};
}

static const char *const RW = "setup:\n  - mkdir: \"c${client}\"\n"
	"run:\n"
	"  - create: {path: \"c${client}/f\", as: f, flags: [truncate]}\n"
	"  - write: {file: f, size: 8KiB, count: 4}\n"
	"  - read: {file: f, size: 8KiB, offset: 0, count: 2}\n"
	"  - close: f\n"
	"cleanup:\n  - unlink: \"c${client}/f\"\n  - rmdir: \"c${client}\"\n";

static void run_once(bool processes)
{
	struct lg_workload *wl = load(RW, 3);
	struct lg_config cfg = config(3, processes);
	struct lg_run run;
	char err[512];

	assert_int_equal(lg_engine_run(&cfg, wl, &run, err, sizeof(err)), 0);
	assert_int_equal(run.nclients, 3);
	assert_int_equal(run.ops, 3 * 8);
	assert_int_equal(run.bytes_written, 3 * 4 * 8192);
	assert_int_equal(run.bytes_read, 3 * 2 * 8192);
	assert_int_equal(run.errors, 0);
	for (unsigned i = 0; i < 3; i++) {
		uint64_t n = 0;

		for (size_t t = 0; t < run.ntypes; t++)
			n += run.clients[i]->types[t].count;
		assert_int_equal(n, 8);
	}
	assert_int_equal(run.all.count, run.ops);
	assert_int_equal(entries(), 0); /* run directory removed */
	lg_run_clear(&run);
	lg_workload_destroy(wl);
}

static void test_run_once_threads(void **state)
{
	(void)state;
	run_once(false);
}

static void test_run_once_processes(void **state)
{
	(void)state;
	run_once(true);
}

/* A timed run measures about its time, and its timeline's ops add up to the total. */
static void test_timed(void **state)
{
	struct lg_workload *wl = load("run:\n  - mkdir: d${client}\n  - rmdir: d${client}\n", 2);
	struct lg_config cfg = config(2, false);
	struct lg_run run;
	char err[512];
	uint64_t sum = 0;

	(void)state;
	cfg.run_once = false;
	cfg.time_s = 0.5;
	assert_int_equal(lg_engine_run(&cfg, wl, &run, err, sizeof(err)), 0);
	assert_true(run.duration_s >= 0.5 && run.duration_s < 1.5);
	assert_true(run.ops > 0);
	assert_true(run.ntimeline >= 1);
	for (size_t i = 0; i < run.ntimeline; i++)
		sum += run.timeline[i].ops;
	assert_true(sum <= run.ops);
	lg_run_clear(&run);
	lg_workload_destroy(wl);
}

/* Unexpected results in setup are warned about (stderr), not measured: the run goes on
 * and its error count is the measured phase's only. */
static void test_setup_error(void **state)
{
	struct lg_workload *wl = load("setup:\n  - rmdir: none\nrun:\n  - stat: x\n", 1);
	struct lg_config cfg = config(1, false);
	struct lg_run run;
	char err[512] = "";

	(void)state;
	assert_int_equal(lg_engine_run(&cfg, wl, &run, err, sizeof(err)), 0);
	assert_int_equal(run.ops, 1);
	assert_int_equal(run.errors, 1); /* the stat of x, not the rmdir of setup */
	assert_int_equal(entries(), 0);
	lg_run_clear(&run);
	lg_workload_destroy(wl);
}

/* --keep leaves the run directory and its files. */
static void test_keep(void **state)
{
	struct lg_workload *wl = load("run:\n  - mkdir: kept\n", 1);
	struct lg_config cfg = config(1, false);
	struct lg_run run;
	char err[512];

	(void)state;
	cfg.keep = true;
	assert_int_equal(lg_engine_run(&cfg, wl, &run, err, sizeof(err)), 0);
	assert_int_equal(entries(), 1);
	lg_run_clear(&run);
	lg_workload_destroy(wl);
}

/* A timeline interval in which no op completed has no p99: a client's window of an
 * interval it recorded nothing in still holds the latencies of LG_WINDOWS intervals
 * before, and is not that interval's. Here quick stats, then a 450 ms sleep that leaves
 * several 100 ms intervals idle. */
static void test_idle_interval_p99(void **state)
{
	struct lg_workload *wl = load("setup:\n  - mkdir: d\n"
				      "run:\n  - repeat: {count: 100, do: [stat: d]}\n"
				      "  - sleep: 450ms\n"
				      "cleanup:\n  - rmdir: d\n", 1);
	struct lg_config cfg = config(1, false);
	struct lg_run run;
	char err[512];
	unsigned idle = 0;

	(void)state;
	cfg.run_once = false;
	cfg.time_s = 1.2;
	assert_int_equal(lg_engine_run(&cfg, wl, &run, err, sizeof(err)), 0);
	for (size_t i = 0; i < run.ntimeline; i++) {
		if (run.timeline[i].ops)
			continue;
		idle++;
		assert_int_equal(run.timeline[i].p99_ns, 0);
	}
	assert_true(idle >= 3);
	lg_run_clear(&run);
	lg_workload_destroy(wl);
}

/* --abort-on-error stopping the run in warm-up: the run is "aborted", as when it stops
 * in the measured phase, not "interrupted" (which says a signal stopped it). */
static void test_abort_in_warmup(void **state)
{
	struct lg_workload *wl = load("run:\n  - stat: none\n  - sleep: 1ms\n", 1);
	struct lg_config cfg = config(1, false);
	struct lg_run run;
	char err[512];

	(void)state;
	cfg.run_once = false;
	cfg.warmup_s = 1;
	cfg.abort_on_error = true;
	assert_int_equal(lg_engine_run(&cfg, wl, &run, err, sizeof(err)), 0);
	assert_false(lg_engine_interrupted());
	assert_int_equal(run.status, LG_RUN_ABORTED);
	assert_int_equal(run.ops, 0);
	lg_run_clear(&run);
	lg_workload_destroy(wl);
}

#define MS 1000000ull /* ns */

/* The tick after a late wake-up is the next one on the grid at least half an interval
 * away: none is taken twice in a row with no time between (a fake idle interval). */
static void test_next_tick(void **state)
{
	(void)state;
	assert_int_equal(lg_engine_next_tick(1000 * MS, 1000 * MS + 1000, 100 * MS), 1100 * MS);
	assert_int_equal(lg_engine_next_tick(1000 * MS, 970 * MS, 100 * MS), 1100 * MS);
	assert_int_equal(lg_engine_next_tick(1000 * MS, 1040 * MS, 100 * MS), 1100 * MS);
	assert_int_equal(lg_engine_next_tick(1000 * MS, 1060 * MS, 100 * MS), 1200 * MS);
	/* stopped for 3.5 and 3.9999 intervals */
	assert_int_equal(lg_engine_next_tick(1000 * MS, 1350 * MS, 100 * MS), 1400 * MS);
	assert_int_equal(lg_engine_next_tick(1000 * MS, 1399990 * 1000, 100 * MS), 1500 * MS);
	assert_int_equal(lg_engine_next_tick(1000 * MS, 3600000 * MS, 100 * MS), 3600100 * MS);
}

/* The last interval, taken once the clients stopped, however short it is: ops recorded
 * since the previous tick make a timeline entry even 1 ns after it (the timeline adds up
 * to the totals); with nothing pending, an interval under 1 % of one is no entry. */
static void test_last_interval_short(void **state)
{
	struct lg_config cfg = { .quiet = true, .interval_s = 1 };
	struct lg_shared sh;
	struct lg_run run;
	struct engine e;
	struct lg_live *live = aligned_alloc(64, 2 * sizeof(*live));
	const struct lg_interval *iv;

	(void)state;
	assert_non_null(live);
	memset(live, 0, 2 * sizeof(*live));
	memset(&sh, 0, sizeof(sh));
	memset(&run, 0, sizeof(run));
	memset(&e, 0, sizeof(e));
	e.cfg = &cfg;
	e.co = lg_coord_of(&cfg);
	e.sh = &sh;
	e.live = live;
	e.spawn.started = 2;
	e.run = &run;
	e.interval_ns = 1000 * MS;
	e.t_exec = 10000 * MS;
	e.prev_tick = e.t_exec + 3000 * MS; /* three intervals taken */
	e.prev = (struct sums){ .ops = 120, .m_ops = 100, .m_wr = 100 * 4096 };
	atomic_store(&live[0].ops, 62);
	atomic_store(&live[0].m_ops, 52);
	atomic_store(&live[0].m_written, 52 * 4096);
	atomic_store(&live[1].ops, 61);
	atomic_store(&live[1].m_ops, 51);
	atomic_store(&live[1].m_written, 51 * 4096);
	atomic_store(&live[1].window_max, 7 * MS);

	/* nothing pending, 1 ns after the tick: too short to be worth an entry */
	e.prev.m_ops = 103;
	e.prev.m_wr = 103 * 4096;
	assert_int_equal(lg_engine_last_interval(&e, e.prev_tick + 1), 0);
	assert_int_equal(run.ntimeline, 0);

	/* three ops pending, 1 ns after the tick: they are the last entry */
	e.prev.m_ops = 100;
	e.prev.m_wr = 100 * 4096;
	atomic_store(&live[1].window_max, 7 * MS);
	assert_int_equal(lg_engine_last_interval(&e, e.prev_tick + 1), 0);
	assert_int_equal(run.ntimeline, 1);
	iv = &run.timeline[0];
	assert_int_equal(iv->ops, 3);
	assert_int_equal(iv->bytes_written, 3 * 4096);
	assert_int_equal(iv->bytes, 3 * 4096);
	assert_int_equal(iv->max_latency_ns, 7 * MS);
	assert_float_equal(iv->t_s, 3.000000001, 1e-12);
	assert_float_equal(iv->len_s, 1e-9, 1e-15);
	assert_int_equal(e.prev.m_ops, 103); /* taken: the next one starts from here */
	assert_int_equal(e.prev_tick, e.t_exec + 3000 * MS + 1);
	assert_int_equal(atomic_load(&sh.epoch), 1);
	lg_run_clear(&run);
	free(live);
}

static int slow_calls; /* progress lines of the measured phase slow_progress printed */

/* The master is late once: its first progress line of the measured phase takes 350 ms
 * (as when the process was stopped, or the machine is overloaded). */
static void slow_progress(FILE *out, unsigned clients, uint64_t ops, double mbps,
			  const char *phase, double secs, int decimals, double max_ms)
{
	struct timespec ts = { 0, 350 * MS };

	(void)out, (void)clients, (void)ops, (void)mbps, (void)secs, (void)decimals;
	(void)max_ms;
	if (!strcmp(phase, "execute") && slow_calls++ == 0)
		nanosleep(&ts, NULL);
}

/* A master woken 3.5 intervals late takes one long interval, then goes on with the
 * grid: no interval but the last is shorter than half of one (the bug took the missed
 * ticks at once, each an empty interval counted as a stall), and they add up. */
static void test_late_master(void **state)
{
	struct lg_workload *wl = load("setup:\n  - mkdir: d\n"
				      "run:\n  - stat: d\n  - sleep: 5ms\n"
				      "cleanup:\n  - rmdir: d\n", 1);
	struct lg_config cfg = config(1, false);
	struct lg_run run;
	char err[512];
	double sum = 0, longest = 0;

	(void)state;
	cfg.run_once = false;
	cfg.quiet = false;
	cfg.progress = slow_progress;
	slow_calls = 0;
	assert_int_equal(lg_engine_run(&cfg, wl, &run, err, sizeof(err)), 0);
	assert_true(slow_calls > 1);
	assert_true(run.ntimeline >= 4);
	for (size_t i = 0; i < run.ntimeline; i++) {
		const struct lg_interval *iv = &run.timeline[i];

		if (i + 1 < run.ntimeline && iv->len_s < 0.05 - 1e-9)
			fail_msg("interval %zu lasts %.6f s", i, iv->len_s);
		sum += iv->len_s;
		assert_float_equal(iv->t_s, sum, 1e-6);
		longest = iv->len_s > longest ? iv->len_s : longest;
	}
	assert_true(longest >= 0.35);
	lg_run_clear(&run);
	lg_workload_destroy(wl);
}

/* As main.c does: a signal handler asks the engine to stop. */
static void on_signal(int sig)
{
	(void)sig;
	lg_engine_interrupt();
}

/* Signal the master thread (arg) after 300 ms; the handler runs on that thread. */
static void *interrupt_later(void *arg)
{
	struct timespec ts = { 0, 300000000 };

	nanosleep(&ts, NULL);
	pthread_kill(*(pthread_t *)arg, SIGUSR1);
	return NULL;
}

/* An interrupt (a signal, as from Ctrl-C) ends a 30 s run within a second or so; the
 * result is still merged. */
static void test_interrupt(void **state)
{
	struct lg_workload *wl = load("run:\n  - sleep: 10ms\n", 2);
	struct lg_config cfg = config(2, false);
	struct lg_run run;
	pthread_t t, self = pthread_self();
	char err[512];

	(void)state;
	cfg.run_once = false;
	cfg.time_s = 30;
	signal(SIGUSR1, on_signal);
	pthread_create(&t, NULL, interrupt_later, &self);
	assert_int_equal(lg_engine_run(&cfg, wl, &run, err, sizeof(err)), 0);
	pthread_join(t, NULL);
	assert_true(lg_engine_interrupted());
	assert_true(run.duration_s < 5);
	assert_true(run.ops > 0);
	lg_run_clear(&run);
	lg_workload_destroy(wl);
}

/* The child of test_interrupt_setup: a long setup, interrupted after 300 ms. Exits 0
 * when the run returned within 3 s, interrupted, with nothing measured. */
static int interrupt_setup_child(void)
{
	/* a sleep, cut short; then calls, each of which must see the stop */
	struct lg_workload *wl = load("setup:\n  - sleep: 10s\n  - repeat: {count: 20000000, "
				      "do: [{stat: {path: none, expect: any}}]}\n"
				      "run:\n  - mkdir: d${client}\n  - rmdir: d${client}\n", 2);
	struct lg_config cfg = config(2, false);
	struct timespec t0, t1;
	struct lg_run run;
	pthread_t t, self = pthread_self();
	char err[512];
	int rc;

	cfg.warmup_s = 0;
	cfg.run_once = false;
	cfg.time_s = 30;
	signal(SIGUSR1, on_signal);
	pthread_create(&t, NULL, interrupt_later, &self);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = lg_engine_run(&cfg, wl, &run, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(t, NULL);
	if (rc)
		return 1;
	if (t1.tv_sec - t0.tv_sec >= 3)
		return 2; /* setup ran to its end */
	if (run.status != LG_RUN_INTERRUPTED || run.ops)
		return 3;
	lg_run_clear(&run);
	lg_workload_destroy(wl);
	return 0;
}

/* An interrupt during setup ends setup (its sleeps too) within a second or so, and
 * no op is measured; without it, Ctrl-C waits out the whole setup (in a child: the
 * interrupt flag stays set). */
static void test_interrupt_setup(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(interrupt_setup_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_run_once_threads, setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_run_once_processes, setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_timed, setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_setup_error, setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_keep, setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_idle_interval_p99, setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_abort_in_warmup, setup_dir, remove_dir),
		cmocka_unit_test(test_next_tick),
		cmocka_unit_test(test_last_interval_short),
		cmocka_unit_test_setup_teardown(test_late_master, setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_interrupt_setup, setup_dir, remove_dir),
		/* last: the interrupt flag stays set */
		cmocka_unit_test_setup_teardown(test_interrupt, setup_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
