/* A recorded program's streams at run time: one thread per stream of each client,
 * sharing the client's files, waiting for each other where the trace ordered their calls
 * on one file or name (LG_OP_AFTER), and keeping the program's think time when asked
 * (LG_OP_THINK with --replay-timing original or scale=X).
 *
 * A stream publishes the count of calls it has completed in its live counters (shared
 * memory, one cache line per thread already); a stream that must wait for it spins a
 * little, then sleeps on that count with a futex after lowering the publisher's wait_need
 * to the count it needs. The publisher wakes the sleepers only once its count reaches
 * wait_need, taking the word back to 0 with an exchange (a plain store could erase a
 * sleeper's need set just before it: that sleeper then slept the whole WAIT_SLICE_NS), so
 * a stream nobody waits for pays one load per call and a sleeper is not woken for every
 * call short of its own.
 * Think time is slept to within SPIN_NS of its end and spun from there: a recorded gap
 * is often a few microseconds, which no sleep keeps (timer slack alone is 50 us). */
#include "client.h"

#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define SPIN_NS (200 * 1000)           /* think: the last stretch is spun, not slept */
#define WAIT_SLICE_NS (10 * 1000 * 1000) /* after: longest sleep between stop checks */
#define SPIN_TRIES 256                 /* after: polls before sleeping */

/* Wait until stream op->slot of this client has completed op->count calls. */
static bool after(struct lg_client *c, const struct lg_op *op)
{
	struct lg_live *t = &c->peers[op->slot];
	int need = op->count > INT_MAX ? INT_MAX : (int)op->count, got;

	for (unsigned i = 0; (got = atomic_load(&t->calls)) < need; i++) {
		if (i < SPIN_TRIES) {
			if (i & 15)
				continue;
			sched_yield();
			continue;
		}
		if (lg_client_stopping(c))
			return false;
		int cur = atomic_load(&t->wait_need);

		while ((cur == 0 || need < cur) &&
		       !atomic_compare_exchange_weak(&t->wait_need, &cur, need))
			;
		if (atomic_load(&t->calls) == got) /* the need set above, then this load:
						      the publisher's pair in reverse */
			lg_futex_wait_for(&t->calls, got, WAIT_SLICE_NS);
	}
	/* a stream's first call follows the call that started it in the trace (the
	 * clone, say): its first think time counts from here, not from the start */
	if (c->calls_made == 0)
		c->now_ns = lg_now_ns();
	return true;
}

/* Wait until size ns, scaled, after the stream's previous call ended. */
static bool think(struct lg_client *c, const struct lg_op *op)
{
	double scale = c->sh->think_scale;
	uint64_t t, now;

	if (scale <= 0 || op->size == 0)
		return true;
	t = c->now_ns + (uint64_t)((double)op->size * scale);
	now = lg_now_ns();
	if (t > now + SPIN_NS && !lg_client_sleep_until(c, t - SPIN_NS))
		return !lg_client_stopping(c);
	while (lg_now_ns() < t)
		;
	return true;
}

bool lg_stream_control(struct lg_client *c, const struct lg_op *op)
{
	return op->kind == LG_OP_AFTER ? after(c, op) : think(c, op);
}

static void publish(struct lg_client *c, int calls)
{
	struct lg_live *me = &c->peers[c->stream];

	atomic_store(&me->calls, calls);
	int need = atomic_load(&me->wait_need);

	/* every sleeper wakes: those whose count is not reached yet set their need again */
	if (need != 0 && calls >= need && atomic_exchange(&me->wait_need, 0) != 0)
		lg_futex_wake_all(&me->calls);
}

void lg_stream_called(struct lg_client *c)
{
	c->calls_made++;
	publish(c, c->calls_made > INT_MAX - 1 ? INT_MAX - 1 : (int)c->calls_made);
}

void lg_stream_left(struct lg_client *c)
{
	publish(c, INT_MAX);
}

void lg_stream_bind(struct lg_client *c, struct lg_client *lead, uint32_t s,
		    struct lg_live *peers)
{
	const struct lg_stream *st = &c->wl->streams[s];

	c->stream = s;
	c->run_first = st->first;
	c->run_end = st->first + st->nops;
	c->peers = peers;
	if (c != lead) {
		for (size_t i = 0; i < (c->wl->nslots ? c->wl->nslots : 1); i++)
			if (c->slots[i].fd >= 0)
				close(c->slots[i].fd);
		free(c->slots);
		c->slots = lead->slots;
		c->slots_borrowed = true;
		c->rng ^= (uint64_t)s * UINT64_C(0x9e3779b97f4a7c15); /* its own random stream */
	}
}
