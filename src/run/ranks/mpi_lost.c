/* A rank that dies, as the others see it (MPI backend).
 *
 * What the launcher gives: Open MPI 4.1 (measured, ranks on one host) sends every
 * surviving rank SIGCONT at once, SIGTERM about a second after the death and SIGKILL
 * about a second after that; a collective that includes the dead rank never completes
 * and never fails over shared memory, while over TCP an MPI error may come first (the
 * communicator returns errors, so that none aborts rank 0 before it writes). Neither
 * says which rank died. Over TCP, a message *sent* to the dead rank can hang rank 0
 * inside MPI (measured: its next MPI_Test never returned), so rank 0 avoids that.
 *
 * So: every rank that was asked to stop (or whose MPI failed) says "here" to rank 0
 * every ANNOUNCE_NS from every wait (lg_mpi_wait) and from its waits for its clients
 * (lg_coord_answer). Rank 0's waits watch themselves: once this process was asked to
 * stop and the wait has still not completed GRACE_NS later (every live rank reaches its
 * next exchange well within that: the watch looks at the clock every 50 ms), or at once
 * on an MPI error, rank 0 looks ROLL_NS later at who said "here". When some rank did
 * but others did not, the launcher's stop reached the survivors: the silent ranks are
 * lost. Rank 0 hands them to the coordinator's on_lost (which writes the result), tells
 * the ranks that said "here" to leave, and leaves, all well within the second before
 * SIGKILL. When nobody said "here" (the stop reached rank 0 alone, or there is no
 * other survivor), rank 0 calls every rank by message, which every wait answers, and
 * judges by the answers ROLL_NS later (a call to a dead rank over TCP may hang: the
 * price of telling a lone stop from a death). When every rank is there (one is merely
 * slow), the wait goes on, and looks again AGAIN_NS later. */
#include "mpi_coord.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CALL_TAG 40            /* rank 0 -> rank: -1 "answer", else "leave with this" */
#define HERE_TAG 41            /* rank -> rank 0: "here" */
#define GRACE_NS 150000000ull  /* a stop, then no completion for this long: look */
#define ROLL_NS 300000000ull   /* who has not said "here" by then is lost */
#define AGAIN_NS 1000000000ull /* every rank was there: look again after this */
#define ANNOUNCE_NS 100000000ull /* a stopped rank says "here" this often */
#define SETTLE_NS 50000000ull  /* a stopped wait says "here" once it lasted this long */
#define EARLY_NS 1000000000ull /* a "here" this long before rank 0's stop counts */
#define ERROR_NS 10000000000ull /* a rank > 0 whose MPI failed: wait this long for
				   rank 0's word, then leave */
#define LINGER_NS 500000000L   /* told to leave: leave after rank 0 */
#define CALL_ROLL (-1)

static struct lg_coord *me; /* the one coordinator of this process */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct lg_mpi *st(void)
{
	return me->priv;
}

static bool stopped(void)
{
	return me->stopped && me->stopped();
}

/* Whether request q is free for a new message (never used, or done). */
static bool idle(MPI_Request *q)
{
	int done = 0;

	return *q == MPI_REQUEST_NULL ||
	       (MPI_Test(q, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done);
}

/* The process leaves with status, after what runs above MPI stopped its work. */
static _Noreturn void leave(int status)
{
	fflush(NULL);
	_exit(status);
}

/* A rank > 0: say "here" to rank 0 (unless the last one is still on its way). */
static void here(uint64_t now)
{
	struct lg_mpi *m = st();

	if (!idle(&m->answer_req))
		return;
	MPI_Isend(&m->answer_out, 1, MPI_INT, 0, HERE_TAG, m->comm, &m->answer_req);
	m->announced_ns = now;
}

/* A rank > 0: leave when rank 0 says so, answer its call, and with announce say "here"
 * (every ANNOUNCE_NS). */
static void answer(bool announce)
{
	struct lg_mpi *m = st();
	uint64_t now;
	int done = 0;

	if (me->rank == 0)
		return;
	if (MPI_Test(&m->call_req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done) {
		if (m->call_in != CALL_ROLL) {
			int status = m->call_in;
			struct timespec ts = { 0, LINGER_NS };

			if (me->on_lost)
				status = me->on_lost(me->lost_arg, NULL, 0);
			/* rank 0 leaves first: a launcher that sees a rank leave without
			 * MPI_Finalize kills the others at once (Open MPI does), rank 0 too,
			 * maybe before it is out */
			nanosleep(&ts, NULL);
			leave(status);
		}
		here(mono_ns());
		MPI_Irecv(&m->call_in, 1, MPI_INT, 0, CALL_TAG, m->comm, &m->call_req);
	}
	if (!announce)
		return;
	now = mono_ns();
	if (now - m->announced_ns >= ANNOUNCE_NS)
		here(now);
}

void lg_mpi_answer(void)
{
	if (me) /* busy with its clients: "here" once stopped */
		answer(stopped());
}

int lg_mpi_lost_init(struct lg_coord *c)
{
	struct lg_mpi *m = c->priv;

	me = c;
	m->call_req = m->answer_req = m->here_req = MPI_REQUEST_NULL;
	m->announced_ns = 0;
	if (c->rank != 0)
		return MPI_Irecv(&m->call_in, 1, MPI_INT, 0, CALL_TAG, m->comm, &m->call_req) ==
		       MPI_SUCCESS ? 0 : -EIO;
	m->calls = calloc(c->size, sizeof(*m->calls));
	m->answered_ns = calloc(c->size, sizeof(*m->answered_ns));
	if (!m->calls || !m->answered_ns)
		return -ENOMEM;
	for (unsigned r = 0; r < c->size; r++)
		m->calls[r] = MPI_REQUEST_NULL;
	return MPI_Irecv(&m->here_in, 1, MPI_INT, MPI_ANY_SOURCE, HERE_TAG, m->comm,
			 &m->here_req) == MPI_SUCCESS ? 0 : -EIO;
}

/* Complete (or cancel) request q, never waiting long. */
static void drop(MPI_Request *q)
{
	int done = 0;

	if (*q == MPI_REQUEST_NULL)
		return;
	MPI_Cancel(q);
	for (int i = 0; i < 100 && MPI_Test(q, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
			!done; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
}

void lg_mpi_lost_close(struct lg_coord *c)
{
	struct lg_mpi *m = c->priv;

	drop(&m->call_req);
	drop(&m->answer_req);
	drop(&m->here_req);
	for (unsigned r = 0; m->calls && r < c->size; r++)
		drop(&m->calls[r]);
	free(m->calls);
	free(m->answered_ns);
	me = NULL;
}

/* Rank 0: call every other rank (those whose last call is still on its way are not
 * called again: they have not taken it yet). */
static void call_all(void)
{
	struct lg_mpi *m = st();
	static const int roll = CALL_ROLL;

	for (unsigned r = 1; r < me->size; r++)
		if (idle(&m->calls[r]))
			MPI_Isend(&roll, 1, MPI_INT, (int)r, CALL_TAG, m->comm, &m->calls[r]);
}

/* Rank 0: note every "here" that came. */
static void take_answers(uint64_t now)
{
	struct lg_mpi *m = st();
	MPI_Status s;
	int done = 0;

	while (MPI_Test(&m->here_req, &done, &s) == MPI_SUCCESS && done) {
		if (s.MPI_SOURCE > 0 && (unsigned)s.MPI_SOURCE < me->size)
			m->answered_ns[s.MPI_SOURCE] = now;
		if (MPI_Irecv(&m->here_in, 1, MPI_INT, MPI_ANY_SOURCE, HERE_TAG, m->comm,
			      &m->here_req) != MPI_SUCCESS)
			break;
	}
}

/* Rank 0: ranks that said "here" at t or later. */
static unsigned heard_since(uint64_t t)
{
	unsigned n = 0;

	for (unsigned r = 1; r < me->size; r++)
		n += st()->answered_ns[r] >= t;
	return n;
}

/* Rank 0: the ranks that did not say "here" since t, named; then on_lost writes, the
 * ranks that did are told to leave, and so does this one. Returns when every rank
 * said it. */
static void judge(uint64_t t)
{
	static int word; /* the status sent with "leave" (sent from here) */
	struct lg_mpi *m = st();
	struct lg_lost_rank *lost = calloc(me->size, sizeof(*lost));
	unsigned n = 0;
	int status = 1; /* without memory to name them: partial all the same */

	for (unsigned r = 1; r < me->size; r++) {
		if (m->answered_ns[r] >= t)
			continue;
		if (lost) {
			lost[n].rank = r;
			snprintf(lost[n].host, sizeof(lost[n].host), "%s", m->hosts[r]);
			lost[n].time_s = -1;
		}
		n++;
	}
	if (!n) {
		free(lost);
		return;
	}
	if (lost)
		status = me->on_lost(me->lost_arg, lost, n);
	word = status;
	for (unsigned r = 1; r < me->size; r++) /* only to ranks known to be there */
		if (m->answered_ns[r] >= t && idle(&m->calls[r]))
			MPI_Isend(&word, 1, MPI_INT, (int)r, CALL_TAG, m->comm, &m->calls[r]);
	for (int i = 0; i < 50; i++) { /* up to 50 ms for the word to go out */
		bool sent = true;
		struct timespec ts = { 0, 1000000 };

		for (unsigned r = 1; r < me->size; r++)
			sent = sent && (m->answered_ns[r] < t || idle(&m->calls[r]));
		if (sent)
			break;
		nanosleep(&ts, NULL);
	}
	leave(status);
}

/* Rank 0, once the wait looks stuck: look ROLL_NS later at who said "here" (calling
 * everyone first when nobody had by then), and judge. Returns whether to give up. */
static bool look(struct lg_mpi_watch *w, uint64_t now)
{
	/* the first look counts a "here" from a little before this wait saw the stop
	 * (another rank's signal may have come first); a later one, only its own */
	uint64_t since = w->looks ? w->called : w->since > EARLY_NS ? w->since - EARLY_NS : 0;

	if (!w->called && now >= w->next) {
		w->called = now;
		w->calling = false;
	}
	if (!w->called)
		return false;
	take_answers(now);
	if (now - w->called < ROLL_NS)
		return false;
	if (!w->calling && !heard_since(since)) {
		/* nobody said "here": a stop of rank 0 alone, or no survivor but it */
		w->calling = true;
		w->called = now;
		call_all();
		return false;
	}
	judge(w->calling ? w->called : since); /* returns when every rank was there */
	if (w->failed)
		return true; /* MPI failed, yet every rank is there: an error as before */
	w->looks++;
	w->called = 0;
	w->next = now + AGAIN_NS;
	return false;
}

bool lg_mpi_stuck(struct lg_mpi_watch *w, bool failed)
{
	uint64_t now;

	if (!me)
		return failed;
	now = mono_ns();
	w->failed = w->failed || failed;
	if (!w->since && (w->failed || stopped())) {
		w->since = now;
		w->next = w->failed ? now : now + GRACE_NS;
	}
	/* "here" from a wait that lasts: most end within ms of the stop */
	answer(w->since && now - w->since >= SETTLE_NS);
	if (!me->on_lost)
		return w->failed;
	if (!w->since)
		return false;
	if (me->rank != 0) {
		if (w->failed && now - w->since > ERROR_NS) {
			fprintf(stderr, "loadgen: rank %u: MPI failed and rank 0 said nothing for "
				"%llu s; leaving\n", me->rank,
				(unsigned long long)(ERROR_NS / 1000000000u));
			leave(me->on_lost(me->lost_arg, NULL, 0));
		}
		return false; /* rank 0 decides; the launcher's SIGKILL ends the rest */
	}
	return look(w, now);
}
