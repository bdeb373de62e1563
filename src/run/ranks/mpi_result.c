/* The MPI backend, end of a run: the scalars, the ranks and hosts, the lost client
 * processes, and the clients' stats, reduced (mpi_reduce.c) or, for comparison
 * (LOADGEN_MPI_MERGE=gather, the benchmark's baseline), gathered whole into rank 0 and
 * merged there as on one host. The measured time is the longest of the ranks' (each from
 * the common start to its last op end); the status is the worst. Rank 0 also learns each
 * rank's host, whether it shared the run directory, each host's environment and each
 * rank's clock at the start. */
#include "mpi_coord.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "loadgen/counters/counters.h"

#define CHUNK (1u << 30) /* bytes per message of client stats (MPI counts are int) */

/* What each rank tells rank 0 about itself. */
struct rank_msg {
	char host[LG_HOST_MAX];     /* host name */
	uint64_t start_realtime_ns; /* CLOCK_REALTIME when the start barrier ended */
	uint64_t env_len;           /* bytes of its environment as JSON text */
	uint32_t shared;            /* it saw rank 0's run directory */
	uint32_t pad;               /* keeps the struct free of implicit padding */
};

static MPI_Comm comm_of(const struct lg_coord *c)
{
	return ((const struct lg_mpi *)c->priv)->comm;
}

/* How bad each status is, as the engine ranks them (lg_engine_run): a failed run above
 * an interrupted one, above an aborted one, above one that lost client processes. */
static const int severity[] = {
	[LG_RUN_COMPLETE] = 0,
	[LG_RUN_PARTIAL] = 1,
	[LG_RUN_ABORTED] = 2,
	[LG_RUN_INTERRUPTED] = 3,
	[LG_RUN_FAILED] = 4,
};

/* The scalars: longest duration and end sync, worst status. */
static int reduce_scalars(struct lg_coord *c, struct lg_run *run)
{
	double d[2] = { run->duration_s, run->end_sync_s };
	int status = severity[run->status];
	MPI_Request req[2];

	MPI_Iallreduce(MPI_IN_PLACE, d, 2, MPI_DOUBLE, MPI_MAX, comm_of(c), &req[0]);
	MPI_Iallreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, comm_of(c), &req[1]);
	if (lg_mpi_wait(req, 2))
		return -EIO;
	run->duration_s = d[0];
	run->end_sync_s = d[1];
	for (size_t i = 0; i < sizeof(severity) / sizeof(*severity); i++)
		if (severity[i] == status)
			run->status = (enum lg_run_status)i;
	return 0;
}

/* Send (rank > 0) or receive (rank 0, from rank r) len bytes in chunks. */
static int move_bytes(struct lg_coord *c, void *buf, size_t len, int peer, bool send)
{
	for (size_t o = 0; o < len; o += CHUNK) {
		int n = (int)(len - o < CHUNK ? len - o : CHUNK);
		MPI_Request req;

		if (send)
			MPI_Isend((char *)buf + o, n, MPI_BYTE, peer, 1, comm_of(c), &req);
		else
			MPI_Irecv((char *)buf + o, n, MPI_BYTE, peer, 1, comm_of(c), &req);
		if (lg_mpi_wait(&req, 1))
			return -EIO;
	}
	return 0;
}

/* Rank 0: the clients of every rank in one new mapping, in global id order. */
static int gather_stats(struct lg_coord *c, struct lg_run *run, const void *stats,
			size_t stride)
{
	size_t mine = (size_t)run->nclients * stride, len = mine * c->size;
	unsigned total = run->nclients * c->size;
	bool svc = run->nclients && ((const struct lg_client_stats *)stats)->svc;
	struct lg_client_stats **cl;
	char *map;

	if (c->rank != 0)
		return move_bytes(c, (void *)stats, mine, 0, true);
	map = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	cl = calloc(total ? total : 1, sizeof(*cl));
	if (map == MAP_FAILED || !cl) {
		free(cl);
		if (map != MAP_FAILED)
			munmap(map, len ? len : 1);
		return -ENOMEM; /* the other ranks' sends then block: MPI_Abort follows */
	}
	memcpy(map, stats, mine);
	for (unsigned r = 1; r < c->size; r++)
		move_bytes(c, map + r * mine, mine, (int)r, false);
	for (unsigned i = 0; i < total; i++) {
		struct lg_client_stats *cs = (struct lg_client_stats *)(map + i * stride);

		/* the one pointer in a stats block points into the block itself */
		cs->svc = svc ? (struct lg_histogram *)&cs->types[cs->ntypes] : NULL;
		cl[i] = cs;
	}
	free(run->clients);
	run->clients = cl;
	run->nclients = total;
	run->nthreads *= c->size; /* every rank runs as many */
	run->shm = map;
	run->shm_len = len ? len : 1;
	return lg_run_merge(run);
}

/* Rank 0: group ranks by host name; the first rank of a host gives its environment. */
static int build_hosts(struct lg_multi *m, const struct rank_msg *msg, char *const *env)
{
	m->hosts = calloc(m->nranks, sizeof(*m->hosts));
	if (!m->hosts)
		return -ENOMEM;
	for (unsigned r = 0; r < m->nranks; r++) {
		struct lg_rank_info *ri = &m->ranks[r];
		unsigned h = 0;

		memcpy(ri->host, msg[r].host, LG_HOST_MAX);
		ri->host[LG_HOST_MAX - 1] = '\0';
		ri->shared = r == 0 || msg[r].shared;
		while (h < m->nhosts && strcmp(m->hosts[h].name, ri->host))
			h++;
		if (h == m->nhosts) {
			memcpy(m->hosts[h].name, ri->host, LG_HOST_MAX);
			m->hosts[h].shared = true;
			m->hosts[h].env = env[r] ? json_loads(env[r], 0, NULL) : NULL;
			m->nhosts++;
		}
		ri->host_index = h;
		m->hosts[h].ranks++;
		m->hosts[h].shared &= ri->shared;
	}
	return 0;
}

/* Rank 0: each rank's environment as JSON text (env[r], malloc'd, or NULL). */
static int gather_env(struct lg_coord *c, const struct rank_msg *msg, const char *text,
		      char **env)
{
	if (c->rank != 0)
		return text && ((const struct lg_mpi *)c->priv)->leader ? move_bytes(c, (void *)text, strlen(text) + 1, 0, true) : 0;
	for (unsigned r = 0; r < c->size; r++) {
		if (!msg[r].env_len)
			continue;
		env[r] = malloc(msg[r].env_len);
		if (!env[r])
			return -ENOMEM;
		if (r == 0)
			memcpy(env[r], text, msg[r].env_len);
		else if (move_bytes(c, env[r], msg[r].env_len, (int)r, false))
			return -EIO;
	}
	return 0;
}

/* Rank 0: the start skew is the spread of the moments the ranks started, each rank's
 * wall clock corrected by its offset measured at the start (mpi_coord.c). 0 or -ENOMEM. */
static int skew_ms(const struct rank_msg *msg, const int64_t *off, unsigned n, double *ms)
{
	uint64_t *start = malloc((n ? n : 1) * sizeof(*start));

	if (!start)
		return -ENOMEM;
	for (unsigned r = 0; r < n; r++)
		start[r] = msg[r].start_realtime_ns;
	*ms = lg_start_skew_ms(start, off, n);
	free(start);
	return 0;
}

/* t moved by d ns, not below 0. */
static uint64_t shifted(uint64_t t, int64_t d)
{
	return d < 0 && (uint64_t)-d > t ? 0 : t + (uint64_t)d;
}

/* Every rank: its clients' phases between barriers on rank 0's clock. A rank's rows count
 * from its own measured start, and the ranks started together only to within the start
 * skew: the rows are moved by how much later than rank 0 this rank started (its wall
 * clock corrected by its offset), so that a phase's span across hosts and the order of
 * its clients' starts and ends are not off by the skew once they are merged. */
static int align_bphases(struct lg_coord *c, const struct lg_run *run, void *stats,
			 size_t stride)
{
	const struct lg_mpi *mp = c->priv;
	uint64_t start0 = c->start_realtime_ns;
	MPI_Request req;
	int64_t d;

	MPI_Ibcast(&start0, 1, MPI_UINT64_T, 0, comm_of(c), &req);
	if (lg_mpi_wait(&req, 1))
		return -EIO;
	d = (int64_t)(c->start_realtime_ns - start0) - mp->my_off;
	for (unsigned i = 0; d && i < run->nclients; i++) {
		struct lg_client_stats *cs = (void *)((char *)stats + i * stride);

		for (uint32_t p = 0; p < cs->nbphases && p < LG_BARRIER_PHASES_MAX; p++) {
			cs->bphase[p].start_ns = shifted(cs->bphase[p].start_ns, d);
			cs->bphase[p].end_ns = shifted(cs->bphase[p].end_ns, d);
		}
	}
	return 0;
}

static int gather_ranks(struct lg_coord *c, struct lg_run *run)
{
	struct rank_msg me = { .start_realtime_ns = c->start_realtime_ns, .shared = c->shared };
	struct rank_msg *msg = c->rank == 0 ? calloc(c->size, sizeof(*msg)) : NULL;
	char *text = c->env ? json_dumps(c->env, JSON_COMPACT) : NULL, **env = NULL;
	const struct lg_mpi *mp = c->priv;
	struct lg_multi *m = NULL;
	MPI_Request req;
	int rc = 0;

	memcpy(me.host, c->host, LG_HOST_MAX);
	/* a host's environment once, from its first rank */
	me.env_len = text && mp->leader ? strlen(text) + 1 : 0;
	MPI_Igather(&me, sizeof(me), MPI_BYTE, msg, sizeof(me), MPI_BYTE, 0, comm_of(c), &req);
	if (lg_mpi_wait(&req, 1))
		rc = -EIO;
	if (!rc && c->rank == 0) {
		m = calloc(1, sizeof(*m));
		env = calloc(c->size, sizeof(*env));
		rc = m && env && msg ? 0 : -ENOMEM;
		if (!rc) {
			m->nranks = c->size;
			m->ranks = calloc(c->size, sizeof(*m->ranks));
			rc = m->ranks ? 0 : -ENOMEM;
		}
	}
	if (!rc)
		rc = gather_env(c, msg, text, env);
	if (!rc && m) {
		rc = build_hosts(m, msg, env);
		rc = rc ? rc : skew_ms(msg, mp->off, c->size, &m->start_skew_ms);
		m->clock_error_ms = (double)mp->clock_err_ns / 1e6;
		m->per_rank = c->size ? run->nclients / c->size : 0;
	}
	if (!rc && m) {
		run->multi = m;
		m = NULL;
	}
	for (unsigned r = 0; env && r < c->size; r++)
		free(env[r]);
	free(env);
	free(text);
	free(msg);
	lg_multi_destroy(m);
	return rc;
}

/* Rank 0: the client processes lost on every rank (--processes), ids global. */
static int gather_lost(struct lg_coord *c, struct lg_run *run)
{
	int n = (int)run->nlost, *counts = c->rank == 0 ? calloc(c->size, sizeof(int)) : NULL;
	size_t total = 0;
	struct lg_lost *all;
	MPI_Request req;

	if (c->rank == 0 && !counts)
		return -ENOMEM;
	MPI_Igather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, comm_of(c), &req);
	if (lg_mpi_wait(&req, 1)) {
		free(counts);
		return -EIO;
	}
	if (c->rank != 0)
		return n ? move_bytes(c, run->lost, (size_t)n * sizeof(*run->lost), 0, true) : 0;
	for (unsigned r = 0; r < c->size; r++)
		total += (size_t)counts[r];
	if (total == run->nlost) { /* none lost elsewhere */
		free(counts);
		return 0;
	}
	all = total > run->nlost ? realloc(run->lost, total * sizeof(*all)) : run->lost;
	if (!all) {
		free(counts);
		return -ENOMEM;
	}
	run->lost = all;
	for (unsigned r = 1; r < c->size; r++) {
		if (counts[r] && move_bytes(c, all + run->nlost,
					    (size_t)counts[r] * sizeof(*all), (int)r, false))
			break;
		run->nlost += (size_t)counts[r];
	}
	free(counts);
	return 0;
}

/* Whether the clients' stats are gathered whole, as before the reduction: the
 * benchmark's baseline (LOADGEN_MPI_MERGE=gather), not for users. */
static bool gather_wanted(void)
{
	const char *v = getenv("LOADGEN_MPI_MERGE");

	return v && !strcmp(v, "gather");
}

int lg_mpi_finish(struct lg_coord *c, struct lg_run *run, const void *stats, size_t stride,
		  char *err, size_t errlen)
{
	bool gather = gather_wanted();
	struct lg_host_row *rows = NULL;
	int rc = reduce_scalars(c, run);

	if (!rc)
		rc = lg_mpi_split(c);
	if (!rc)
		rc = align_bphases(c, run, (void *)stats, stride);
	if (!rc && !gather)
		rc = lg_mpi_reduce(c, run, stats, stride, &rows);
	if (!rc && (gather || run->per_client == LG_PER_CLIENT_ALL))
		rc = gather_stats(c, run, stats, stride);
	if (!rc)
		rc = gather_lost(c, run);
	if (!rc)
		rc = gather_ranks(c, run);
	if (!rc)
		rc = lg_mpi_hosts(c, run);
	if (!rc && run->multi) {
		run->multi->rows = rows;
		run->multi->gathered = gather;
		rows = NULL;
	}
	free(rows);
	if (rc) {
		snprintf(err, errlen, "host %s rank %u: gathering the results: %s", c->host,
			 c->rank, strerror(-rc));
		fprintf(stderr, "loadgen: %s\n", err);
		MPI_Abort(comm_of(c), 1); /* the others wait for this rank: do not hang them */
	}
	return rc;
}
