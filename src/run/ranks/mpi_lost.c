/* A rank that dies, as the others see it (MPI backend).
 *
 * What the launcher gives: Open MPI 4.1 (measured, ranks on one host) sends every
 * surviving rank SIGCONT at once, SIGTERM about a second after the death and SIGKILL
 * about a second after that; a collective that includes the dead rank never completes
 * and never fails over shared memory, while over TCP an MPI error may come first (the
 * communicator returns errors, so that none aborts rank 0 before it writes). Neither
 * says which rank died.
 *
 * So every wait (lg_mpi_wait) watches itself: once this process was asked to stop and
 * the wait has still not completed GRACE_NS later (every live rank reaches its next
 * exchange well within that: the watch looks at the clock every 50 ms), or at once on
 * an MPI error, rank 0 calls every other rank by point-to-point message. Every wait of
 * every rank answers such a call. The ranks that have not answered ROLL_NS later are
 * lost: rank 0 hands them to the coordinator's on_lost (which writes the result),
 * tells the ranks that answered to leave, and leaves, all well within the second
 * before SIGKILL. When every rank answers (one is merely slow, e.g. in a cleanup), the
 * wait goes on, and calls again AGAIN_NS later. */
#include "mpi_coord.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CALL_TAG 40            /* rank 0 -> rank: -1 "answer", else "leave with this" */
#define ANSWER_TAG 41          /* rank -> rank 0: the answer */
#define GRACE_NS 150000000ull  /* a stop, then no completion for this long: call */
#define ROLL_NS 300000000ull   /* who has not answered a call by then is lost */
#define AGAIN_NS 1000000000ull /* every rank answered: call again after this */
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

void lg_mpi_answer(void)
{
	struct lg_mpi *m;
	int done = 0;

	if (!me)
		return;
	m = st();
	if (me->rank == 0 || MPI_Test(&m->call_req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
	    !done)
		return;
	if (m->call_in != CALL_ROLL) {
		int status = m->call_in;
		struct timespec ts = { 0, LINGER_NS };

		if (me->on_lost)
			status = me->on_lost(me->lost_arg, NULL, 0);
		/* rank 0 leaves first: a launcher that sees a rank leave without MPI_Finalize
		 * kills the others at once (Open MPI does), rank 0 too, maybe before it is
		 * out */
		nanosleep(&ts, NULL);
		leave(status);
	}
	if (idle(&m->answer_req)) /* else the last answer is still on its way: enough */
		MPI_Isend(&m->answer_out, 1, MPI_INT, 0, ANSWER_TAG, m->comm, &m->answer_req);
	MPI_Irecv(&m->call_in, 1, MPI_INT, 0, CALL_TAG, m->comm, &m->call_req);
}

int lg_mpi_lost_init(struct lg_coord *c)
{
	struct lg_mpi *m = c->priv;

	me = c;
	m->call_req = m->answer_req = MPI_REQUEST_NULL;
	if (c->rank != 0)
		return MPI_Irecv(&m->call_in, 1, MPI_INT, 0, CALL_TAG, m->comm, &m->call_req) ==
		       MPI_SUCCESS ? 0 : -EIO;
	m->calls = calloc(c->size, sizeof(*m->calls));
	m->answers = calloc(c->size, sizeof(*m->answers));
	m->answer_in = calloc(c->size, sizeof(*m->answer_in));
	m->answered_ns = calloc(c->size, sizeof(*m->answered_ns));
	if (!m->calls || !m->answers || !m->answer_in || !m->answered_ns)
		return -ENOMEM;
	for (unsigned r = 0; r < c->size; r++)
		m->calls[r] = m->answers[r] = MPI_REQUEST_NULL;
	return 0;
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
	for (unsigned r = 0; m->calls && r < c->size; r++) {
		drop(&m->calls[r]);
		drop(&m->answers[r]);
	}
	free(m->calls);
	free(m->answers);
	free(m->answer_in);
	free(m->answered_ns);
	me = NULL;
}

/* Rank 0: call every other rank (those whose last call is still on its way are not
 * called again: they have not taken it yet), and keep a receive posted for each answer. */
static void call_all(void)
{
	struct lg_mpi *m = st();
	static const int roll = CALL_ROLL;

	for (unsigned r = 1; r < me->size; r++) {
		if (idle(&m->calls[r]))
			MPI_Isend(&roll, 1, MPI_INT, (int)r, CALL_TAG, m->comm, &m->calls[r]);
		if (m->answers[r] == MPI_REQUEST_NULL)
			MPI_Irecv(&m->answer_in[r], 1, MPI_INT, (int)r, ANSWER_TAG, m->comm,
				  &m->answers[r]);
	}
}

/* Rank 0: note the answers that came. */
static void take_answers(uint64_t now)
{
	struct lg_mpi *m = st();

	for (unsigned r = 1; r < me->size; r++) {
		int done = 0;

		if (m->answers[r] == MPI_REQUEST_NULL ||
		    MPI_Test(&m->answers[r], &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || !done)
			continue;
		m->answered_ns[r] = now;
		MPI_Irecv(&m->answer_in[r], 1, MPI_INT, (int)r, ANSWER_TAG, m->comm,
			  &m->answers[r]);
	}
}

/* Rank 0: the ranks that did not answer since the call at t, named; then on_lost
 * writes, the ranks that answered are told to leave, and so does this one. Returns
 * when every rank answered. */
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
	for (unsigned r = 1; r < me->size; r++) {
		if (m->answered_ns[r] >= t && idle(&m->calls[r]))
			MPI_Isend(&word, 1, MPI_INT, (int)r, CALL_TAG, m->comm, &m->calls[r]);
	}
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

bool lg_mpi_stuck(struct lg_mpi_watch *w, bool failed)
{
	uint64_t now;

	if (!me)
		return failed;
	lg_mpi_answer();
	if (!me->on_lost)
		return failed;
	w->failed = w->failed || failed;
	if (!w->since && !w->failed && !(me->stopped && me->stopped()))
		return false;
	now = mono_ns();
	if (!w->since) {
		w->since = now;
		w->next = w->failed ? now : now + GRACE_NS;
	}
	if (me->rank != 0) {
		if (w->failed && now - w->since > ERROR_NS) {
			fprintf(stderr, "loadgen: rank %u: MPI failed and rank 0 said nothing for "
				"%llu s; leaving\n", me->rank,
				(unsigned long long)(ERROR_NS / 1000000000u));
			leave(me->on_lost(me->lost_arg, NULL, 0));
		}
		return false; /* rank 0 decides; the launcher's SIGKILL ends the rest */
	}
	if (!w->called && (w->failed || now >= w->next)) {
		w->called = now;
		call_all();
	}
	if (!w->called)
		return false;
	take_answers(now);
	if (now - w->called < ROLL_NS)
		return false;
	judge(w->called); /* returns when every rank answered */
	if (w->failed)
		return true; /* MPI failed, yet every rank is there: an error as before */
	w->called = 0;
	w->next = now + AGAIN_NS;
	return false;
}
