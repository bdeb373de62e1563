/* Phases between barriers: a client's side (the master's is in engine_watch.c).
 *
 * A client arriving at the barrier that begins phase p says so in its lg_live.barrier
 * and wakes the master, then sleeps on lg_shared.barrier_open until the master opens
 * phase p. The master opens it once every client of every rank that still runs has
 * arrived: its rank's reduction with the others (coord.h) says so, so all ranks open
 * together. The wait is neither an op nor latency: it is in no counter; a phase's row
 * starts when its barrier opened and ends with the client's last op of it.
 * The futex waits of the start and cleanup gates are here too: every wait a client
 * makes on the master is in this file. */
#include "client.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define STOP_CHECK_NS 10000000ull /* how often a waiting client looks for a stop */

/* Wait while *word == val, at most ts (NULL: no limit). */
static void futex_wait(_Atomic int *word, int val, const struct timespec *ts)
{
	/* not FUTEX_PRIVATE: forked clients wait on the same shared page */
	syscall(SYS_futex, word, FUTEX_WAIT, val, ts, NULL, 0);
}

void lg_futex_wait(_Atomic int *word, int val)
{
	futex_wait(word, val, NULL);
}

void lg_futex_wake_all(_Atomic int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void lg_futex_wait_for(_Atomic int *word, int val, uint64_t timeout_ns)
{
	struct timespec ts = lg_ns_timespec(timeout_ns);

	futex_wait(word, val, &ts);
}

bool lg_client_stopping(const struct lg_client *c)
{
	int phase = atomic_load_explicit(&c->sh->phase, memory_order_relaxed);

	return phase == LG_CLOCK_STOP || atomic_load_explicit(&c->sh->abort,
							      memory_order_relaxed) ||
	       (phase == LG_CLOCK_EXECUTE &&
		lg_now_ns() >= atomic_load_explicit(&c->sh->deadline, memory_order_relaxed));
}

void lg_barrier_arrived(struct lg_shared *sh)
{
	atomic_fetch_add_explicit(&sh->arrivals, 1, memory_order_release);
	lg_futex_wake_all(&sh->arrivals);
}

/* What the client has done so far: ops, items of phase p, bytes. */
static void totals(const struct lg_client *c, uint32_t p, uint64_t out[3])
{
	uint16_t items = c->wl->bphases[p].items;

	out[0] = atomic_load_explicit(&c->live->m_ops, memory_order_relaxed);
	out[1] = items == LG_ITEMS_ALL ? out[0] : c->stats->types[items].count;
	out[2] = atomic_load_explicit(&c->live->m_read, memory_order_relaxed) +
		 atomic_load_explicit(&c->live->m_written, memory_order_relaxed);
}

void lg_barrier_begin(struct lg_client *c, uint32_t p, uint64_t now)
{
	struct lg_bphase_stats *row = &c->stats->bphase[p];

	if (!c->wl->nbphases)
		return;
	c->bphase = p;
	totals(c, p, c->bphase_base);
	*row = (struct lg_bphase_stats){ .start_ns = now, .end_ns = now };
	c->stats->nbphases = p + 1;
}

void lg_barrier_end(struct lg_client *c)
{
	struct lg_bphase_stats *row = &c->stats->bphase[c->bphase];
	uint64_t now[3];

	if (!c->wl->nbphases || c->stats->nbphases != c->bphase + 1)
		return;
	totals(c, c->bphase, now);
	row->ops = now[0] - c->bphase_base[0];
	row->items = now[1] - c->bphase_base[1];
	row->bytes = now[2] - c->bphase_base[2];
	row->end_ns = row->ops && c->last_end_ns > row->start_ns ? c->last_end_ns
								 : row->start_ns;
}

bool lg_barrier_wait(struct lg_client *c, const struct lg_op *op)
{
	struct lg_shared *sh = c->sh;
	int p = (int)op->count, open;

	lg_barrier_end(c);
	atomic_store_explicit(&c->live->barrier, p, memory_order_release);
	lg_barrier_arrived(sh);
	while ((open = atomic_load_explicit(&sh->barrier_open, memory_order_acquire)) < p) {
		if (lg_client_stopping(c))
			return false;
		lg_futex_wait_for(&sh->barrier_open, open, STOP_CHECK_NS);
	}
	c->now_ns = lg_now_ns();
	lg_barrier_begin(c, (uint32_t)p, c->now_ns);
	return true;
}
