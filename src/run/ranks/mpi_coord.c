/* The MPI backend: launch, agreement, start barrier and interval reductions.
 *
 * Only standard MPI-3 calls (MPI_Iallreduce, MPI_Iallgather, MPI_Ibcast), so Open MPI
 * and MPICH both work. Every wait polls with a short sleep instead of blocking in MPI:
 * a rank that arrived first must not spin a core its own clients (or another rank on
 * the same host) need. Only the start barrier blocks, to leave it together. Errors of
 * MPI are returned (MPI_ERRORS_RETURN), not fatal: a rank that dies must not take rank 0
 * with it before rank 0 wrote what it has; every wait also watches for that (mpi_lost.c). */
#include "mpi_coord.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define START_LEAD_NS 50000000u /* the common start: this long after it is chosen... */
#define START_TRIES 5            /* ...or twice that, up to this many times */
#define MSG_MAX 1024 /* bytes of an error message passed between ranks */

static struct lg_mpi *st(const struct lg_coord *c)
{
	return c->priv;
}

/* Whether n requests are all done (each one finished is freed, MPI_REQUEST_NULL): 0, or
 * -EIO when MPI reports an error. Not MPI_Testall with MPI_STATUSES_IGNORE: MPICH defines
 * that as the address 1, which GCC 12 flags as an array of size 0 (-Wstringop-overflow). */
static int test_all(MPI_Request *req, int n, int *done)
{
	*done = 1;
	for (int i = 0; i < n; i++) {
		int flag = 0;

		if (MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		*done &= flag;
	}
	return 0;
}

/* Poll until n requests are done: sleep first_ns between polls, doubling it after
 * `steady` polls, up to 1 ms. */
static int poll_wait(MPI_Request *req, int n, long first_ns, int steady)
{
	struct lg_mpi_watch w = { 0 };
	long ns = first_ns;
	int done = 0;

	for (int polls = 0;; polls++) {
		struct timespec ts = { 0, ns };
		int rc = w.failed ? -EIO : test_all(req, n, &done);

		if (rc == 0 && done)
			return 0;
		if (lg_mpi_stuck(&w, rc != 0))
			return -EIO;
		nanosleep(&ts, NULL);
		if (polls >= steady && ns < 1000000)
			ns *= 2;
	}
}

/* A call that should have started a request failed: the wait for it fails alike. */
static int failed_wait(void)
{
	struct lg_mpi_watch w = { 0 };

	while (!lg_mpi_stuck(&w, true)) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	return -EIO;
}

int lg_mpi_wait(MPI_Request *req, int n)
{
	return poll_wait(req, n, 20000, 0);
}

/* For the clock pings, where the round trip is the measurement's uncertainty: 10 us
 * polls for the first 20 ms. */
static int ping_wait(MPI_Request *req, int n)
{
	return poll_wait(req, n, 10000, 2000);
}

static int mpi_status(struct lg_coord *c, int rc, char *err, size_t errlen)
{
	char msg[MSG_MAX] = { 0 };
	int mine = rc, *all = calloc(c->size, sizeof(int)), first = -1, out;
	MPI_Request req;

	if (!all)
		return -ENOMEM;
	MPI_Iallgather(&mine, 1, MPI_INT, all, 1, MPI_INT, st(c)->comm, &req);
	lg_mpi_wait(&req, 1);
	for (unsigned i = 0; i < c->size && first < 0; i++)
		if (all[i])
			first = (int)i;
	if (first < 0) {
		free(all);
		return 0;
	}
	out = all[first];
	free(all);
	if ((unsigned)first == c->rank)
		snprintf(msg, sizeof(msg), "host %s rank %u: %s", c->host, c->rank,
			 errlen ? err : "failed");
	MPI_Ibcast(msg, (int)sizeof(msg), MPI_CHAR, first, st(c)->comm, &req);
	lg_mpi_wait(&req, 1);
	if (errlen)
		snprintf(err, errlen, "%s", msg);
	return out;
}

/* Append to err at *o, never past errlen. */
static void append(char *err, size_t errlen, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= errlen)
		return;
	va_start(ap, fmt);
	n = vsnprintf(err + *o, errlen - *o, fmt, ap);
	va_end(ap);
	*o = n < 0 ? errlen : *o + (size_t)n;
}

/* Rank 0's account of which ranks differ from it in which fields. */
static void describe(struct lg_coord *c, const uint64_t *all, const char *const *names,
		     size_t nfields, char *err, size_t errlen)
{
	size_t o = 0;

	append(err, errlen, &o, "ranks disagree on the load, nothing was run:");
	for (unsigned r = 1; r < c->size; r++) {
		const uint64_t *mine = all + (size_t)r * nfields;
		const char *sep = " ";

		if (!memcmp(mine, all, nfields * sizeof(*all)))
			continue;
		append(err, errlen, &o, " rank %u (host %s) differs from rank 0 (host %s) in",
		       r, st(c)->hosts[r], st(c)->hosts[0]);
		for (size_t f = 0; f < nfields; f++) {
			if (mine[f] == all[f])
				continue;
			append(err, errlen, &o, "%s%s", sep, names[f]);
			sep = ", ";
		}
		append(err, errlen, &o, ";");
	}
}

static int mpi_agree(struct lg_coord *c, const uint64_t *fields, const char *const *names,
		     size_t nfields, char *err, size_t errlen)
{
	uint64_t *all = calloc((size_t)c->size * nfields, sizeof(*all));
	MPI_Request req;
	int rc = 0;

	if (!all)
		return -ENOMEM;
	MPI_Iallgather(fields, (int)nfields, MPI_UINT64_T, all, (int)nfields, MPI_UINT64_T,
		       st(c)->comm, &req);
	lg_mpi_wait(&req, 1);
	for (size_t i = nfields; i < (size_t)c->size * nfields; i++)
		if (all[i] != all[i % nfields])
			rc = -EINVAL;
	if (rc && c->rank == 0)
		describe(c, all, names, nfields, err, errlen);
	else if (rc)
		snprintf(err, errlen, "ranks disagree on the load (rank 0 says how)");
	free(all);
	return rc;
}

static int mpi_bcast(struct lg_coord *c, void *buf, size_t len)
{
	MPI_Request req;

	if (len > INT_MAX)
		return -E2BIG;
	MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, st(c)->comm, &req);
	return lg_mpi_wait(&req, 1);
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Rank 0: how far each rank's wall clock is ahead of rank 0's (off[r], ns), from the
 * ping with the shortest round trip of PINGS (Cristian's method), or 0 when that is
 * within the uncertainty; *err_ns gets half of the longest such round trip, the
 * uncertainty of the offsets. Every rank calls it. */
#define PINGS 8
static void clock_offsets(struct lg_coord *c, int64_t *off, uint64_t *err_ns)
{
	*err_ns = 0;
	for (unsigned r = 1; r < c->size; r++) {
		uint64_t best = UINT64_MAX;

		for (int k = 0; k < PINGS && (c->rank == 0 || c->rank == r); k++) {
			uint64_t t0 = realtime_ns(), tr = 0, t1;
			MPI_Request q[2];

			/* polled, not blocking: a rank that waits must not spin (it may run
			 * real-time, on a core the other rank needs) */
			if (c->rank == r) {
				MPI_Irecv(&t0, 1, MPI_UINT64_T, 0, 2, st(c)->comm, &q[0]);
				ping_wait(q, 1);
				tr = realtime_ns();
				MPI_Isend(&tr, 1, MPI_UINT64_T, 0, 3, st(c)->comm, &q[0]);
				ping_wait(q, 1);
				continue;
			}
			MPI_Isend(&t0, 1, MPI_UINT64_T, (int)r, 2, st(c)->comm, &q[0]);
			MPI_Irecv(&tr, 1, MPI_UINT64_T, (int)r, 3, st(c)->comm, &q[1]);
			ping_wait(q, 2);
			t1 = realtime_ns();
			if (t1 - t0 < best) {
				best = t1 - t0;
				off[r] = lg_clock_offset_ns(t0, tr, t1);
			}
		}
		/* the true offset lies within best / 2 of the estimate: when that range holds
		 * 0 (always so on one host), the clocks cannot be told apart */
		if (c->rank == 0 && (uint64_t)llabs(off[r]) <= best / 2)
			off[r] = 0;
		if (c->rank == 0 && best / 2 > *err_ns)
			*err_ns = best / 2;
	}
}

/* The start. After the status exchange, rank 0 measures every rank's clock offset,
 * picks an instant START_LEAD_NS ahead and tells the others; each rank sleeps until that
 * instant by its own clock (corrected by its offset) and notes when it woke. Sleeping
 * rather than leaving a barrier: ranks that share a host's few cores with each other
 * and with the clients are not waiting for a turn to spin, so the start is as close as
 * the wake-up of a timer (and, across hosts, as the offsets are known). */
static int mpi_start(struct lg_coord *c, int rc, char *err, size_t errlen)
{
	struct lg_mpi *m = st(c);
	uint64_t lead = START_LEAD_NS, at = 0, late = 1;
	struct timespec ts;
	int64_t mine = 0;
	MPI_Request req;

	rc = mpi_status(c, rc, err, errlen);
	if (rc)
		return rc;
	clock_offsets(c, m->off, &m->clock_err_ns);
	MPI_Iscatter(m->off, 1, MPI_INT64_T, &mine, 1, MPI_INT64_T, 0, m->comm, &req);
	lg_mpi_wait(&req, 1);
	m->my_off = mine;
	/* a rank that learns the instant with less than half the lead left (a busy host)
	 * makes everyone try again with twice the lead */
	for (int tries = 0; late && tries < START_TRIES; tries++, lead *= 2) {
		if (c->rank == 0)
			at = realtime_ns() + lead;
		MPI_Ibcast(&at, 1, MPI_UINT64_T, 0, m->comm, &req);
		lg_mpi_wait(&req, 1);
		late = realtime_ns() + lead / 2 > lg_clock_local_ns(at, mine);
		MPI_Iallreduce(MPI_IN_PLACE, &late, 1, MPI_UINT64_T, MPI_MAX, m->comm, &req);
		lg_mpi_wait(&req, 1);
	}
	at = lg_clock_local_ns(at, mine);
	ts = (struct timespec){ (time_t)(at / 1000000000u), (long)(at % 1000000000u) };
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	c->start_realtime_ns = realtime_ns();
	return 0;
}

static int mpi_tick(struct lg_coord *c, struct lg_coord_tick *t)
{
	MPI_Request req[2];

	if (MPI_Iallreduce(MPI_IN_PLACE, t->sum, LG_TICK_NSUM, MPI_UINT64_T, MPI_SUM,
			   st(c)->comm, &req[0]) != MPI_SUCCESS)
		return failed_wait();
	if (MPI_Iallreduce(MPI_IN_PLACE, t->max, LG_TICK_NMAX, MPI_UINT64_T, MPI_MAX,
			   st(c)->comm, &req[1]) != MPI_SUCCESS)
		return failed_wait();
	return lg_mpi_wait(req, 2);
}

static int mpi_sum(struct lg_coord *c, uint64_t *v, size_t n)
{
	MPI_Request req;

	if (n > INT_MAX)
		return -E2BIG;
	if (MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, MPI_SUM, st(c)->comm,
			   &req) != MPI_SUCCESS)
		return failed_wait();
	return lg_mpi_wait(&req, 1);
}

static void mpi_close(struct lg_coord *c)
{
	if (st(c)->host_comm != MPI_COMM_NULL)
		MPI_Comm_free(&st(c)->host_comm);
	if (st(c)->leaders_comm != MPI_COMM_NULL)
		MPI_Comm_free(&st(c)->leaders_comm);
	lg_mpi_lost_close(c);
	MPI_Comm_free(&st(c)->comm);
	MPI_Finalize();
	free(st(c)->hosts);
	free(st(c)->off);
	free(c->priv);
	free(c);
}

static const struct lg_coord_ops mpi_ops = {
	.status = mpi_status,
	.agree = mpi_agree,
	.bcast = mpi_bcast,
	.start = mpi_start,
	.tick = mpi_tick,
	.sum = mpi_sum,
	.finish = lg_mpi_finish,
	.close = mpi_close,
};

/* The MPI library's name and version, its first line up to a comma ("MPICH Version:
 * 4.0.2", "Open MPI v4.1.4"). */
static void library_name(char *buf, size_t len)
{
	char v[MPI_MAX_LIBRARY_VERSION_STRING];
	int n = 0;

	if (MPI_Get_library_version(v, &n) != MPI_SUCCESS)
		n = 0;
	v[n < (int)sizeof(v) ? n : (int)sizeof(v) - 1] = '\0';
	n = (int)strcspn(v, ",\n");
	v[n] = '\0';
	for (int i = 0, o = 0; i <= n; i++) /* "MPICH Version:\t4.0.2": one space */
		if (!(v[i] == '\t' || v[i] == ' ') || (o && v[o - 1] != ' '))
			v[o++] = v[i] == '\t' ? ' ' : v[i];
	n = (int)strlen(v);
	if (!n)
		snprintf(buf, len, "unknown MPI");
	else
		snprintf(buf, len, "%.*s", n < (int)len ? n : (int)len - 1, v);
}

int lg_mpi_open(const char *launcher, unsigned launched, struct lg_coord **out, char *err,
		size_t errlen)
{
	struct lg_coord *c = calloc(1, sizeof(*c));
	struct lg_mpi *m = calloc(1, sizeof(*m));
	int provided = 0, rank = 0, size = 1;

	if (!c || !m) {
		free(c);
		free(m);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		free(c);
		free(m);
		snprintf(err, errlen, "%s: MPI_Init_thread failed", launcher);
		return -EIO;
	}
	MPI_Comm_dup(MPI_COMM_WORLD, &m->comm);
	m->host_comm = m->leaders_comm = MPI_COMM_NULL;
	MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
	MPI_Comm_rank(m->comm, &rank);
	MPI_Comm_size(m->comm, &size);
	if (launched > 1 && size == 1) {
		/* Another MPI's launcher (Debian's mpirun is Open MPI's even with MPICH
		 * installed): each rank is alone in its world and would run, and write, a
		 * whole run of its own. */
		char lib[128];

		library_name(lib, sizeof(lib));
		snprintf(err, errlen, "%s started %u ranks, but this loadgen's MPI library (%s) "
			 "sees a world of 1: run it with the launcher of that MPI (MPICH: "
			 "mpiexec.hydra or mpirun.mpich; Open MPI: mpirun.openmpi)", launcher,
			 launched, lib);
		MPI_Comm_free(&m->comm);
		MPI_Finalize();
		free(c);
		free(m);
		return -EPROTO;
	}
	c->ops = &mpi_ops;
	c->priv = m;
	c->rank = (unsigned)rank;
	c->size = (unsigned)size;
	c->launcher = launcher;
	if (gethostname(c->host, sizeof(c->host)) < 0)
		snprintf(c->host, sizeof(c->host), "rank%d", rank);
	c->host[sizeof(c->host) - 1] = '\0';
	m->hosts = calloc((size_t)size, sizeof(*m->hosts));
	m->off = calloc((size_t)size, sizeof(*m->off));
	if (!m->hosts || !m->off) {
		snprintf(err, errlen, "out of memory");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Allgather(c->host, LG_HOST_MAX, MPI_CHAR, m->hosts, LG_HOST_MAX, MPI_CHAR, m->comm);
	if (lg_mpi_lost_init(c)) {
		snprintf(err, errlen, "out of memory");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	*out = c;
	return 0;
}
