/* spawn.c: threads and forked processes run lg_client_main for every client; a forked
 * client writes what the master reads through shared memory; a killed client is
 * reported lost with its signal, a finished one is not. */
#include "run/spawn.h"

#include "client_harness.h"

#include <signal.h>
#include <sys/mman.h>

#define N 3

/* N clients of yaml over one directory, with live counters in shared memory. */
struct group {
	struct harness *h;          /* client 0's harness: workload, directory, shared */
	struct lg_live *live;       /* N entries, MAP_SHARED */
	struct lg_client_stats *st[N];
	struct lg_client c[N];
	struct lg_window win[N][LG_WINDOWS]; /* each client's timeline windows */
};

static void group_new(struct group *g, const char *yaml)
{
	g->h = h_new(yaml);
	g->live = mmap(NULL, N * sizeof(*g->live), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(g->live != MAP_FAILED);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(lg_client_stats_create(i, g->h->wl->ntypes, &g->st[i]), 0);
		assert_int_equal(lg_client_init(&g->c[i], i, g->h->wl, &g->h->sh, &g->live[i],
						g->st[i]), 0);
		g->c[i].win = g->win[i];
	}
}

static void group_free(struct group *g)
{
	for (unsigned i = 0; i < N; i++) {
		lg_client_fini(&g->c[i]);
		lg_client_stats_destroy(g->st[i]);
	}
	munmap(g->live, N * sizeof(*g->live));
	h_free(g->h);
}

static void run_mode(bool processes)
{
	struct group g;
	struct lg_spawn s;
	char err[256];

	group_new(&g, "run:\n  - mkdir: \"c${client}\"\n  - stat: \"c${client}\"\n");
	assert_int_equal(lg_spawn_start(&s, processes, N, g.c, err, sizeof(err)), 0);
	assert_int_equal(s.started, N);
	lg_spawn_join(&s);
	assert_int_equal(lg_spawn_reap(&s), 0);
	for (unsigned i = 0; i < N; i++) {
		char p[16];

		assert_int_equal(g.live[i].done, 1); /* seen by the master in both modes */
		assert_int_equal(g.live[i].ops, 2);
		snprintf(p, sizeof(p), "c%u", i);
		assert_int_not_equal(h_size(g.h, p), -1);
		if (processes)
			assert_int_equal(s.exit_status[i], 0);
	}
	/* threads share the master's memory: the stats are there too */
	if (!processes)
		assert_int_equal(g.st[1]->types[0].count, 1);
	lg_spawn_free(&s);
	group_free(&g);
}

static void test_threads(void **state)
{
	(void)state;
	run_mode(false);
}

static void test_processes(void **state)
{
	(void)state;
	run_mode(true);
}

static void count_tick(void *arg)
{
	(*(unsigned *)arg)++;
}

/* Joining while ticking (a rank answering calls during the cleanup): the ticks come
 * while the clients run, and the clients end as with lg_spawn_join. */
static void join_while(bool processes)
{
	struct group g;
	struct lg_spawn s;
	unsigned ticks = 0;
	char err[256];

	group_new(&g, "run:\n  - sleep: 200ms\n  - mkdir: \"c${client}\"\n");
	assert_int_equal(lg_spawn_start(&s, processes, N, g.c, err, sizeof(err)), 0);
	lg_spawn_join_while(&s, count_tick, &ticks);
	assert_true(ticks >= 3); /* 200 ms in slices of 20 */
	assert_int_equal(lg_spawn_reap(&s), 0);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(g.live[i].done, 1);
		if (processes)
			assert_true(s.pids[i] == 0 && s.exit_status[i] == 0);
	}
	lg_spawn_free(&s);
	group_free(&g);
}

static void test_join_while(void **state)
{
	(void)state;
	join_while(false);
	join_while(true);
}

/* A client process killed while it runs: lost, with its signal. */
static void test_lost(void **state)
{
	struct group g;
	struct lg_spawn s;
	char err[256];

	(void)state;
	group_new(&g, "run:\n  - sleep: 30s\n");
	assert_int_equal(lg_spawn_start(&s, true, N, g.c, err, sizeof(err)), 0);
	assert_int_equal(lg_spawn_reap(&s), 0); /* all still running */
	lg_spawn_kill(&s);
	lg_spawn_join(&s);
	assert_int_equal(lg_spawn_reap(&s), N);
	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(s.lost_signal[i], SIGKILL);
		assert_int_equal(s.pids[i], 0);
		assert_int_equal(g.live[i].done, 0);
	}
	lg_spawn_free(&s);
	group_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_processes),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_join_while),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
