/* One client's loop: walk a phase's op array, execute and time each op, record it.
 * Nothing here allocates, parses or formats once the client has started. */
#include "client.h"
#include "ops_meta.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <stddef.h>

/* Length of the directory part of path ("a/b/c" -> 3), 0 when it is the run directory. */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

/* Copy s (n bytes) into the arena at *off, NUL-terminated. */
static const char *arena_put(struct lg_client *c, size_t *off, const char *s, size_t n)
{
	char *p = c->arena + *off;

	memcpy(p, s, n);
	p[n] = '\0';
	*off += n + 1;
	return p;
}

/* Expand every path template for this client into one arena, and with -S the directory
 * of each path. Templates without a placeholder are shared, not copied. */
static int expand_paths(struct lg_client *c)
{
	const struct lg_workload *wl = c->wl;
	size_t n = wl->npaths ? wl->npaths : 1, need = 0, off = 0;
	char tmp[4096];

	c->paths = calloc(n, sizeof(*c->paths));
	c->parents = c->sh->sync_dirs ? calloc(n, sizeof(*c->parents)) : NULL;
	if (!c->paths || (c->sh->sync_dirs && !c->parents))
		return -ENOMEM;
	for (size_t i = 0; i < wl->npaths; i++)
		need += (strlen(wl->paths[i]) + 16) * (c->parents ? 2 : 1);
	c->arena = malloc(need ? need : 1);
	if (!c->arena)
		return -ENOMEM;
	for (size_t i = 0; i < wl->npaths; i++) {
		int len;
		size_t d;

		if (!lg_path_per_client(wl->paths[i])) {
			c->paths[i] = wl->paths[i];
		} else {
			len = lg_path_expand(wl->paths[i], c->id, c->peer, tmp, sizeof(tmp));
			if (len < 0)
				return -ENAMETOOLONG;
			c->paths[i] = arena_put(c, &off, tmp, (size_t)len);
		}
		if (c->parents && (d = dir_len(c->paths[i])) > 0)
			c->parents[i] = arena_put(c, &off, c->paths[i], d);
	}
	return 0;
}

/* The pick variables: each starts at count - 1, so that the first sequential pick gives
 * 0 (entry 0 has count 1: it stays 0); a shuffled one gets its values in order. */
static int init_vars(struct lg_client *c)
{
	const struct lg_workload *wl = c->wl;
	size_t n = wl->nvars ? wl->nvars : 1;

	c->vars = calloc(n, sizeof(*c->vars));
	c->perms = calloc(n, sizeof(*c->perms));
	if (!c->vars || !c->perms)
		return -ENOMEM;
	for (size_t i = 0; i < wl->nvars; i++) {
		c->vars[i] = wl->vars[i].count - 1;
		if (!wl->vars[i].shuffle)
			continue;
		c->perms[i] = calloc(wl->vars[i].count + 1, sizeof(**c->perms));
		if (!c->perms[i])
			return -ENOMEM;
		for (uint32_t v = 0; v < wl->vars[i].count; v++)
			c->perms[i][v + 1] = v;
	}
	return 0;
}

int lg_client_init(struct lg_client *c, unsigned id, const struct lg_workload *wl,
		   struct lg_shared *sh, struct lg_live *live, struct lg_client_stats *stats)
{
	size_t nslots = wl->nslots ? wl->nslots : 1;
	size_t bufsz = wl->max_io ? wl->max_io : 1;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->peer = lg_peer_id(id, sh->peer_shift, sh->clients_total);
	c->wl = wl;
	c->sh = sh;
	c->live = live;
	c->stats = stats;
	c->rng = sh->seed * UINT64_C(0x100000001b3) + id;
	c->slots = calloc(nslots, sizeof(*c->slots));
	for (size_t i = 0; c->slots && i < nslots; i++) { /* before anything can fail */
		c->slots[i].fd = -1;
		c->slots[i].path = LG_NOTE_NO_PATH;
	}
	c->loops = calloc(wl->nloops ? wl->nloops : 1, sizeof(*c->loops));
	c->untimed = &stats->untimed[LG_UNTIMED_SETUP];
	c->win_epoch = UINT_MAX; /* no window chosen yet (win is set after this) */
	c->stall_ns = sh->stall_ns;
	c->svc = stats->svc;
	c->run_end = (uint32_t)wl->nops[LG_PHASE_RUN];
	bufsz = (bufsz + 4095) & ~(size_t)4095;
	if (!c->slots || !c->loops || init_vars(c) ||
	    posix_memalign((void **)&c->buf, LG_PAGE_SIZE, bufsz) || expand_paths(c) ||
	    (sh->verify && lg_verify_state_create(wl, id, c->peer, &c->verify)))
		return -ENOMEM;
	return 0;
}

void lg_client_fini(struct lg_client *c)
{
	if (c->slots && !c->slots_borrowed) {
		for (size_t i = 0; i < (c->wl->nslots ? c->wl->nslots : 1); i++)
			if (c->slots[i].fd >= 0)
				close(c->slots[i].fd);
		free(c->slots);
	}
	free(c->loops);
	free(c->vars);
	for (size_t i = 0; c->perms && i < c->wl->nvars; i++)
		free(c->perms[i]);
	free(c->perms);
	free(c->buf);
	free(c->paths);
	free(c->parents);
	free(c->arena);
	for (size_t i = 0; i < LG_DIR_LEVELS; i++)
		free(c->dirbufs[i]);
	free(c->abspath);
	lg_verify_state_destroy(c->verify);
	memset(c, 0, sizeof(*c));
}

/* Close the files a client holds; with keep_setup, not those setup left open (cleanup
 * may use them), only those opened later (e.g. by a pass the deadline cut short, so
 * that cleanup can open its slots afresh). */
static void close_all(struct lg_client *c, bool keep_setup)
{
	for (size_t i = 0; i < c->wl->nslots; i++) {
		if (c->slots[i].fd < 0 || (keep_setup && c->slots[i].kept))
			continue;
		close(c->slots[i].fd);
		c->slots[i].fd = -1;
		c->slots[i].kept = false;
		c->slots[i].event = LG_SLOT_CLOSED;
		c->slots[i].line = 0;
	}
}

/* The path an op names, for a note: its own, or the one its slot's file was opened
 * with. */
static uint32_t note_path(const struct lg_client *c, const struct lg_op *op)
{
	if (op->path != LG_NO_SLOT)
		return lg_op_path_index(c, op->path, op->var);
	if (op->slot < c->wl->nslots)
		return c->slots[op->slot].path;
	return LG_NOTE_NO_PATH;
}

/* Count an unexpected result outside the measured phase. */
static void note_untimed(struct lg_client *c, const struct lg_error_note *note, int got)
{
	struct lg_untimed_stats *u = c->untimed;

	u->errors++;
	u->errnos[got < LG_ERRNO_MAX ? got : 0]++;
	if (u->nnotes < LG_FIRST_ERRORS)
		u->notes[u->nnotes++] = *note;
	/* a full filesystem makes the rest of setup pointless: stop every client's setup
	 * instead of piling up failures, and let the master say why */
	if (c->in_setup && (got == ENOSPC || got == EDQUOT))
		atomic_store_explicit(&c->sh->setup_full, got, memory_order_relaxed);
}

/* For a note of op's result got: when a read or write on a file open with O_DIRECT got
 * EINVAL, most likely an offset or size the load-time check could not know (an append
 * at an unaligned end, a path only the run takes), the alignment that file needs (see
 * lg_error_note.direct_align); else 0. The kernel says how the file is open. */
static uint32_t note_direct_align(const struct lg_client *c, const struct lg_op *op,
				  int got)
{
	int fl;

	if (got != EINVAL || (op->kind != LG_OP_READ && op->kind != LG_OP_WRITE) ||
	    op->slot >= c->wl->nslots || c->slots[op->slot].fd < 0)
		return 0;
	fl = fcntl(c->slots[op->slot].fd, F_GETFL);
	if (fl < 0 || !(fl & O_DIRECT))
		return 0;
	return c->wl->direct_align ? c->wl->direct_align : LG_NOTE_ALIGN_UNKNOWN;
}

/* Count an op whose result differed from the expected one. */
static void note_error(struct lg_client *c, const struct lg_op *op, int got)
{
	struct lg_error_note note = { op->line, op->type, got, op->expect, note_path(c, op),
				      0 };
	struct lg_type_stats *t = &c->stats->types[op->type];

	/* only for a note that is kept: a failing op repeated need not ask the kernel */
	if ((c->recording ? c->stats->nnotes : c->untimed->nnotes) < LG_FIRST_ERRORS)
		note.direct_align = note_direct_align(c, op, got);
	if (!c->recording) {
		note_untimed(c, &note, got);
	} else {
		t->errors++;
		t->errnos[got < LG_ERRNO_MAX ? got : 0]++;
		if (c->stats->nnotes < LG_FIRST_ERRORS)
			c->stats->notes[c->stats->nnotes++] = note;
	}
	if (c->sh->abort_on_error)
		atomic_store_explicit(&c->sh->abort, 1, memory_order_relaxed);
}

/* A step lg_op_exec did not execute (rc: LG_EXEC_SKIPPED): counted apart, never as an
 * op. One whose slot was not open is a failure: noted with what left the slot closed.
 * One cut off by the deadline kept the client busy until then: the measured phase
 * lasts to its end (c->now_ns), though it is no op. */
static void skip(struct lg_client *c, const struct lg_op *op, int rc)
{
	unsigned r = LG_EXEC_SKIP_REASON(rc);
	struct lg_skip_note *n = c->recording ? &c->stats->not_open : &c->untimed->not_open;

	if (c->recording)
		c->stats->types[op->type].skipped[r]++;
	else
		c->untimed->skipped[r]++;
	if (c->recording && r == LG_SKIP_CUT_OFF)
		c->last_end_ns = c->now_ns;
	if (r != LG_SKIP_NOT_OPEN)
		return;
	if (!n->set)
		*n = (struct lg_skip_note){ op->line, c->slots[op->slot].line, op->type,
					    c->slots[op->slot].event, 1 };
	if (c->sh->abort_on_error)
		atomic_store_explicit(&c->sh->abort, 1, memory_order_relaxed);
}

/* Add n to a live counter. Single writer: a relaxed load and store compile to plain
 * moves, so the monitor can read the counters without any lock. */
static void add_live(_Atomic uint64_t *v, uint64_t n)
{
	atomic_store_explicit(v, atomic_load_explicit(v, memory_order_relaxed) + n,
			      memory_order_relaxed);
}

/* Note op's result got if it is not the one expected. */
static void check_expect(struct lg_client *c, const struct lg_op *op, int got)
{
	if (op->expect != LG_EXPECT_ANY && got != op->expect)
		note_error(c, op, got);
}

#ifndef LG_BENCH_UNMEASURED

/* Count a latency of histogram bucket `bucket` in the window of the current timeline
 * interval; a window is cleared by its client when it is reused for a new interval (see
 * window.h). */
static void record_window(struct lg_client *c, size_t bucket)
{
	unsigned ep = atomic_load_explicit(&c->sh->epoch, memory_order_relaxed);

	if (ep != c->win_epoch) {
		c->win_epoch = ep;
		c->win_cur = &c->win[ep % LG_WINDOWS];
		lg_window_clear(c->win_cur);
		atomic_store_explicit(&c->win_cur->epoch, ep, memory_order_relaxed);
	}
	lg_window_record_bucket(c->win_cur, bucket);
}

/* An op slower than the stall threshold: count it, keep the slowest and the first few. */
static void record_slow(struct lg_client *c, const struct lg_op *op, uint64_t lat,
			uint64_t end)
{
	struct lg_client_stats *st = c->stats;
	struct lg_slow_op s = { .end_ns = end, .lat_ns = lat, .line = op->line, .type = op->type,
				 .client = st->id };

	st->slow_count++;
	st->slow_total_ns += lat;
	if (lat > st->slowest.lat_ns)
		st->slowest = s;
	if (st->nslow < LG_SLOW_NOTES)
		st->slow[st->nslow++] = s;
}

/* Record one completed call: lat is its latency (from the intended start under -R),
 * svc its service time. Branch-light: the byte counters are picked by address. */
static void record(struct lg_client *c, const struct lg_op *op, int got, uint64_t bytes,
		   uint64_t lat, uint64_t svc, uint64_t end)
{
	struct lg_live *l = c->live;
	bool rd = op->kind == LG_OP_READ;

	check_expect(c, op, got);
	add_live(&l->ops, 1);
	add_live(rd ? &l->bytes_read : &l->bytes_written, bytes);
	if (lat > atomic_load_explicit(&l->window_max, memory_order_relaxed))
		atomic_store_explicit(&l->window_max, lat, memory_order_relaxed);
	if (c->recording) {
		struct lg_type_stats *t = &c->stats->types[op->type];
		size_t bucket = lg_histogram_bucket(lat); /* for the histogram and window */

		t->count++;
		*(rd ? &t->bytes_read : &t->bytes_written) += bytes;
		lg_histogram_record_at(&t->hist, lat, bucket);
		if (c->svc)
			lg_histogram_record(&c->svc[op->type], svc);
		record_window(c, bucket);
		if (lat >= c->stall_ns)
			record_slow(c, op, lat, end);
		c->last_end_ns = end;
		/* the timeline's counters: only what the stats hold, so they add up */
		add_live(&l->m_ops, 1);
		add_live(rd ? &l->m_read : &l->m_written, bytes);
	}
}

/* -R, --rate-ops: wait for the op's turn in the client's schedule; *intended gets its
 * intended start. Latency counts from there, so a stall shows in the percentiles
 * instead of silently delaying later sends (coordinated omission). Returns false when
 * the wait was cut off (the deadline or a stop came first): the op's turn never came. */
static bool paced_start(struct lg_client *c, uint64_t now, uint64_t *intended)
{
	if (c->next_ns == 0)
		c->next_ns = now;
	*intended = c->next_ns;
	return c->next_ns <= now || lg_client_sleep_until(c, c->next_ns);
}

/* Execute, time and record call number `call` of op; paced under -R in the run phase. */
static void timed_call(struct lg_client *c, const struct lg_op *op, uint64_t call,
		       bool paced)
{
	uint64_t bytes, start, end, intended;
	int got;

	start = lg_now_ns();
	intended = start;
	if (paced) {
		if (!paced_start(c, start, &intended)) {
			c->now_ns = lg_now_ns();
			skip(c, op, LG_EXEC_SKIPPED(LG_SKIP_CUT_OFF));
			return;
		}
		start = lg_now_ns();
	}
	got = lg_op_exec(c, op, call, &bytes);
	end = lg_now_ns();
	c->now_ns = end;
	if (got < 0) { /* not executed (or cut off): neither an op nor time */
		skip(c, op, got);
		return;
	}
	if (paced)
		c->next_ns += (uint64_t)(c->sh->op_ns > 0 ? c->sh->op_ns
							  : (double)bytes / c->sh->rate);
	record(c, op, got, bytes, end - (intended < start ? intended : start), end - start, end);
}

#else
/* lg_bench_unmeasured, a benchmark build (tests/bench): the same ops with no clock read
 * per op and nothing recorded but counts of ops, bytes and errors, so the benchmark can
 * show what a client costs before it measures anything. The clock is read every 1024
 * ops for the deadline; -R and --rate-ops are not paced. */
static _Thread_local uint64_t unmeasured_calls;

static void timed_call(struct lg_client *c, const struct lg_op *op, uint64_t call,
		       bool paced)
{
	uint64_t bytes;
	int got = lg_op_exec(c, op, call, &bytes);

	(void)paced;
	if ((++unmeasured_calls & 1023) == 0)
		c->now_ns = lg_now_ns();
	if (got < 0) {
		skip(c, op, got);
		return;
	}
	check_expect(c, op, got);
	add_live(&c->live->ops, 1);
	if (c->recording) {
		struct lg_type_stats *t = &c->stats->types[op->type];

		t->count++;
		*(op->kind == LG_OP_READ ? &t->bytes_read : &t->bytes_written) += bytes;
	}
}
#endif

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
	       (phase == LG_CLOCK_EXECUTE && c->now_ns >=
		atomic_load_explicit(&c->sh->deadline, memory_order_relaxed)) ||
	       atomic_load_explicit(&c->sh->abort, memory_order_relaxed);
}

/* The next value of a pick's variable (enum lg_pick_order). A shuffle is Fisher-Yates
 * one step per pick: the round's i-th pick swaps a random one of the values it has not
 * given yet into place i, so a round gives each value once and costs O(1) a pick. */
static uint64_t pick(struct lg_client *c, const struct lg_op *op)
{
	uint32_t *round = c->perms[op->var], *perm, i, j, v;

	if (op->flags == LG_PICK_SEQ)
		return (c->vars[op->var] + 1) % op->count;
	if (op->flags != LG_PICK_SHUFFLE)
		return lg_client_rand(c) % op->count;
	perm = round + 1;
	i = round[0];
	j = i + (uint32_t)(lg_client_rand(c) % (op->count - i));
	v = perm[j];
	perm[j] = perm[i];
	perm[i] = v;
	round[0] = i + 1 < op->count ? i + 1 : 0;
	return v;
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
	case LG_OP_PICK:
		c->vars[op->var] = pick(c, op);
		return pc + 1;
	default: /* LG_OP_JUMP */
		return op->target;
	}
}

/* Whether setup must end now: the filesystem is full, a write came back short, or the
 * master says stop (an interrupt): the rest of setup would only delay the results and
 * cleanup. */
static bool setup_stops(struct lg_client *c)
{
	return atomic_load_explicit(&c->sh->setup_full, memory_order_relaxed) ||
	       atomic_load_explicit(&c->sh->setup_short, memory_order_relaxed) ||
	       atomic_load_explicit(&c->sh->phase, memory_order_relaxed) == LG_CLOCK_STOP;
}

/* Run one pass over a phase's ops. Returns false when the client must stop. */
static bool run_pass(struct lg_client *c, enum lg_phase phase, bool timed)
{
	const struct lg_op *ops = c->wl->ops[phase];
	size_t pc = 0, n = c->wl->nops[phase];
	bool paced = timed && c->sh->paced, streams = c->peers && phase == LG_PHASE_RUN;

	if (phase == LG_PHASE_RUN) { /* a stream's range, or the whole phase */
		pc = c->run_first;
		n = c->run_end;
	}
	while (pc < n) {
		const struct lg_op *op = &ops[pc];
		uint64_t calls = op->count ? op->count : 1;

		if (op->kind >= LG_OP_AFTER) { /* streams' and barriers: waits */
			if (must_stop(c, timed) || !(op->kind == LG_OP_BARRIER
							     ? lg_barrier_wait(c, op)
							     : lg_stream_control(c, op)))
				return false;
			pc++;
			continue;
		}
		if (op->kind >= LG_OP_LOOP) {
			pc = control(c, op, pc);
			continue;
		}
		for (uint64_t call = 0; call < calls; call++) {
			if (must_stop(c, timed) || (c->in_setup && setup_stops(c)))
				return false;
			timed_call(c, op, call, paced);
		}
		if (streams)
			lg_stream_called(c);
		pc++;
	}
	return true;
}

/* Arrive at the gate's current stage `from` and wait until the master opens the next.
 * The master counts each client's arrival by its own flag: a client process that
 * arrived and then died is not counted twice (arrived, and lost). */
static void gate_wait(struct lg_client *c, int from)
{
	struct lg_gate *g = &c->sh->gate;

	atomic_store_explicit(&c->live->passed, from + 1, memory_order_release);
	pthread_mutex_lock(&g->lock); /* the master reads passed after its wait */
	pthread_cond_signal(&g->cond);
	pthread_mutex_unlock(&g->lock);
	while (atomic_load_explicit(&g->stage, memory_order_acquire) == from)
		lg_futex_wait(&g->stage, from);
}

/* Learn the run directory's absolute path now, if an op of the run phase will need it (a
 * call without an *at form: truncate by path, the xattr calls on a path), so that its
 * lookup is not timed as part of the first such op. */
static void learn_abspath(struct lg_client *c)
{
	const struct lg_op *ops = c->wl->ops[LG_PHASE_RUN];
	const char *p;

	for (size_t i = c->run_first; i < c->run_end; i++)
		if (ops[i].path != LG_NO_SLOT &&
		    ((ops[i].kind >= LG_OP_SETXATTR && ops[i].kind <= LG_OP_REMOVEXATTR) ||
		     (ops[i].kind == LG_OP_TRUNCATE && ops[i].slot == LG_NO_SLOT))) {
			(void)lg_op_abspath(c, "", &p); /* a failure shows in the op */
			return;
		}
}

/* Mark the files setup left open: they stay open for cleanup, unless the run closes or
 * reopens their slot (exec_slot in ops.c clears the mark). A mark, not the descriptor
 * number: a file the run opens after closing setup's often gets the same number. */
static void keep_setup_files(struct lg_client *c)
{
	for (size_t i = 0; i < c->wl->nslots; i++)
		c->slots[i].kept = c->slots[i].fd >= 0;
}

void *lg_client_main(void *arg)
{
	struct lg_client *c = arg;
	bool lead = c->stream == 0; /* a client's other streams share its files: setup,
				       cleanup and closing them are the lead's */

	c->in_setup = true;
	c->untimed = &c->stats->untimed[LG_UNTIMED_SETUP];
	if (lead) {
		run_pass(c, LG_PHASE_SETUP, false);
		keep_setup_files(c);
	}
	c->in_setup = false;
	/* failures of the run phase before recording starts are warm-up's */
	c->untimed = &c->stats->untimed[LG_UNTIMED_WARMUP];
	learn_abspath(c);
	lg_client_prefault(c);
	gate_wait(c, 0);
	c->now_ns = lg_now_ns(); /* a stream's first think time counts from the start */
	lg_barrier_begin(c, 0, c->now_ns);
	while (run_pass(c, LG_PHASE_RUN, true) && !c->sh->run_once)
		;
	lg_barrier_end(c);
	if (c->peers)
		lg_stream_left(c);
	c->recording = false;
	c->live->last_end_ns = c->last_end_ns; /* read by the master once done is seen */
	atomic_store_explicit(&c->live->done, 1, memory_order_release);
	lg_barrier_arrived(c->sh); /* a barrier waits no longer for this client */
	gate_wait(c, 1);
	if (!lead)
		return NULL;
	close_all(c, true);
	c->untimed = &c->stats->untimed[LG_UNTIMED_CLEANUP];
	if (!c->sh->skip_cleanup)
		run_pass(c, LG_PHASE_CLEANUP, false);
	close_all(c, false);
	return NULL;
}
