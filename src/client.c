/* One client's loop: walk a phase's op array, execute and time each op, record it.
 * Nothing here allocates, parses or formats once the client has started. */
#include "client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t lg_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64: a 64-bit generator whose streams are cheap to seed per client. Written here
 * because glibc's reentrant generators (rand_r, *rand48_r) give 31-32 bits per call and
 * offsets in large files need 64. */
uint64_t lg_client_rand(struct lg_client *c)
{
	uint64_t z = (c->rng += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Expand every path template for this client into one arena. Templates without the
 * client placeholder are shared, not copied. */
static int expand_paths(struct lg_client *c)
{
	const struct lg_workload *wl = c->wl;
	size_t need = 0, off = 0;
	char tmp[4096];

	c->paths = calloc(wl->npaths ? wl->npaths : 1, sizeof(*c->paths));
	if (!c->paths)
		return -ENOMEM;
	for (size_t i = 0; i < wl->npaths; i++)
		if (strstr(wl->paths[i], LG_CLIENT_PLACEHOLDER))
			need += strlen(wl->paths[i]) + 16;
	c->arena = malloc(need ? need : 1);
	if (!c->arena)
		return -ENOMEM;
	for (size_t i = 0; i < wl->npaths; i++) {
		int n;

		if (!strstr(wl->paths[i], LG_CLIENT_PLACEHOLDER)) {
			c->paths[i] = wl->paths[i];
			continue;
		}
		n = lg_path_expand(wl->paths[i], c->id, tmp, sizeof(tmp));
		if (n < 0 || off + (size_t)n + 1 > need)
			return -ENAMETOOLONG;
		memcpy(c->arena + off, tmp, (size_t)n + 1);
		c->paths[i] = c->arena + off;
		off += (size_t)n + 1;
	}
	return 0;
}

int lg_client_init(struct lg_client *c, unsigned id, const struct lg_workload *wl,
		   struct lg_shared *sh, struct lg_live *live)
{
	size_t nslots = wl->nslots ? wl->nslots : 1;
	size_t bufsz = wl->max_io ? wl->max_io : 1;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->wl = wl;
	c->sh = sh;
	c->live = live;
	c->rng = sh->seed * UINT64_C(0x100000001b3) + id;
	c->fds = malloc(nslots * sizeof(*c->fds));
	c->pos = calloc(nslots, sizeof(*c->pos));
	c->last = calloc(nslots, sizeof(*c->last));
	c->loops = calloc(wl->nloops ? wl->nloops : 1, sizeof(*c->loops));
	bufsz = (bufsz + 4095) & ~(size_t)4095;
	if (!c->fds || !c->pos || !c->last || !c->loops ||
	    posix_memalign((void **)&c->buf, 4096, bufsz) ||
	    lg_client_stats_create(id, wl->ntypes, &c->stats) || expand_paths(c))
		return -ENOMEM;
	for (size_t i = 0; i < nslots; i++)
		c->fds[i] = -1;
	/* A recognisable, non-zero pattern, so written files are not sparse-looking zeros. */
	for (size_t i = 0; i < bufsz; i++)
		c->buf[i] = (unsigned char)('a' + i % 26);
	return 0;
}

void lg_client_fini(struct lg_client *c)
{
	if (c->fds)
		for (size_t i = 0; i < (c->wl->nslots ? c->wl->nslots : 1); i++)
			if (c->fds[i] >= 0)
				close(c->fds[i]);
	free(c->fds);
	free(c->pos);
	free(c->last);
	free(c->loops);
	free(c->buf);
	free(c->paths);
	free(c->arena);
	lg_client_stats_destroy(c->stats);
	memset(c, 0, sizeof(*c));
}

/* Close files left open when a phase was cut short, so cleanup can remove them. */
static void close_all(struct lg_client *c)
{
	for (size_t i = 0; i < c->wl->nslots; i++) {
		if (c->fds[i] >= 0)
			close(c->fds[i]);
		c->fds[i] = -1;
	}
}

/* Count an op whose result differed from the expected one. */
static void note_error(struct lg_client *c, const struct lg_op *op, int got)
{
	struct lg_error_note note = { op->line, op->type, got, op->expect };
	struct lg_type_stats *t = &c->stats->types[op->type];

	if (!c->recording) {
		if (c->setup_errors++ == 0)
			c->setup_note = note;
		goto out;
	}
	t->errors++;
	t->errnos[got < LG_ERRNO_MAX ? got : 0]++;
	if (c->stats->nnotes < LG_FIRST_ERRORS)
		c->stats->notes[c->stats->nnotes++] = note;
out:
	if (c->sh->abort_on_error)
		atomic_store_explicit(&c->sh->abort, 1, memory_order_relaxed);
}

/* Record one completed call. The live counters are single-writer: a relaxed load and
 * store compile to plain moves, so the monitor can read them without any lock. */
static void record(struct lg_client *c, const struct lg_op *op, int got, uint64_t bytes,
		   uint64_t lat, uint64_t end)
{
	struct lg_live *l = c->live;

	if (op->expect != LG_EXPECT_ANY && got != op->expect)
		note_error(c, op, got);
	atomic_store_explicit(&l->ops, atomic_load_explicit(&l->ops, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	atomic_store_explicit(&l->bytes,
			      atomic_load_explicit(&l->bytes, memory_order_relaxed) + bytes,
			      memory_order_relaxed);
	if (lat > atomic_load_explicit(&l->window_max, memory_order_relaxed))
		atomic_store_explicit(&l->window_max, lat, memory_order_relaxed);
	if (c->recording) {
		struct lg_type_stats *t = &c->stats->types[op->type];

		t->count++;
		if (op->kind == LG_OP_READ)
			t->bytes_read += bytes;
		else
			t->bytes_written += bytes;
		lg_histogram_record(&t->hist, lat);
		c->last_end_ns = end;
	}
}

/* Whether the client must leave the run phase now; switches recording on when the
 * measured phase begins (dropping what warm-up recorded). */
static bool must_stop(struct lg_client *c, bool timed)
{
	int phase;

	if (!timed)
		return false;
	phase = atomic_load_explicit(&c->sh->phase, memory_order_relaxed);
	if (phase == LG_CLOCK_EXECUTE && !c->recording) {
		lg_client_stats_reset(c->stats);
		c->recording = true;
	}
	return phase == LG_CLOCK_STOP ||
	       atomic_load_explicit(&c->sh->abort, memory_order_relaxed);
}

/* Control ops: return the next op index. */
static size_t control(struct lg_client *c, const struct lg_op *op, size_t pc)
{
	const struct lg_alt *alt;
	uint64_t r;

	switch (op->kind) {
	case LG_OP_LOOP:
		c->loops[op->slot] = op->count;
		return op->count ? pc + 1 : op->target;
	case LG_OP_NEXT:
		return --c->loops[op->slot] ? op->target : pc + 1;
	case LG_OP_CHOOSE:
		alt = &c->wl->alts[op->target];
		r = lg_client_rand(c) % alt[op->count - 1].cum_weight;
		while (r >= alt->cum_weight)
			alt++;
		return alt->target;
	default: /* LG_OP_JUMP */
		return op->target;
	}
}

/* Run one pass over a phase's ops. Returns false when the client must stop. */
static bool run_pass(struct lg_client *c, enum lg_phase phase, bool timed)
{
	const struct lg_op *ops = c->wl->ops[phase];
	size_t pc = 0, n = c->wl->nops[phase];

	while (pc < n) {
		const struct lg_op *op = &ops[pc];

		if (op->kind >= LG_OP_LOOP) {
			pc = control(c, op, pc);
			continue;
		}
		for (uint64_t call = 0; call < (op->count ? op->count : 1); call++) {
			uint64_t bytes, start, end;
			int got;

			if (must_stop(c, timed))
				return false;
			start = lg_now_ns();
			got = lg_op_exec(c, op, call, &bytes);
			end = lg_now_ns();
			record(c, op, got, bytes, end - start, end);
		}
		pc++;
	}
	return true;
}

/* Arrive at the gate's current stage `from` and wait until the master opens the next. */
static void gate_wait(struct lg_gate *g, int from)
{
	pthread_mutex_lock(&g->lock);
	g->arrived++;
	pthread_cond_broadcast(&g->cond);
	while (g->stage == from)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void *lg_client_main(void *arg)
{
	struct lg_client *c = arg;

	run_pass(c, LG_PHASE_SETUP, false);
	gate_wait(&c->sh->gate, 0);
	while (run_pass(c, LG_PHASE_RUN, true) && !c->sh->run_once)
		;
	c->recording = false;
	atomic_store_explicit(&c->live->done, 1, memory_order_release);
	gate_wait(&c->sh->gate, 1);
	close_all(c);
	run_pass(c, LG_PHASE_CLEANUP, false);
	close_all(c);
	return NULL;
}
