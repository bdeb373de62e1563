/* The MPI backend, end of a run: every rank's clients reduced into rank 0's result.
 *
 * Rank 0 must not receive every client's stats (one latency histogram is 19 KiB, and
 * there is one per op type and client: gigabytes at thousands of hosts). So each rank
 * merges its own clients into one stats block, the ranks of a host merge theirs into the
 * host's block on its first rank (a communicator per host name), and the hosts' first
 * ranks merge those into rank 0's (MPI_Ireduce, which MPI runs as a tree). The merge is
 * the same lg_client_stats_add as for the threads of one client: counters added,
 * histogram buckets added, notes kept in client order. So totals and percentiles still
 * come from merged buckets, and rank 0's memory and receive volume grow with the
 * number of hosts and op types, not with ranks x clients.
 *
 * Of each client, rank 0 keeps what --per-client asks: its row without histograms
 * (ops, bytes, errors, latency percentiles, its notes) up to LG_PER_CLIENT_ROWS_MAX
 * clients; above, the clients as distributions (lg_client_dist, reduced the same way)
 * and the rows of the first clients with something to report; with --per-client all,
 * every client's whole stats, histograms included (gathered as before: memory grows
 * with clients again, which the user asked for). */
#include "mpi_coord.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "loadgen/counters/client_dist.h"
#include "loadgen/counters/counters.h"

/* Bytes of a client's stats before its rows: what a row without histograms sends. */
#define HDR offsetof(struct lg_client_stats, types)

static struct lg_mpi *st(const struct lg_coord *c)
{
	return c->priv;
}

/* The one pointer in a stats block points into the block itself: after a copy between
 * processes, point it there again. */
static void fix_svc(struct lg_client_stats *cs)
{
	cs->svc = cs->svc ? (struct lg_histogram *)&cs->types[cs->ntypes] : NULL;
}

/* MPI user op on stats blocks: inout = in + inout. MPI hands the lower ranks' operand as
 * in (the op is declared not commutative), so in goes first, and with it its notes:
 * the notes kept are those of the lowest client ids, as on one host. */
static void merge_blocks(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	int size = 0;
	char *tmp;

	MPI_Type_size(*dt, &size);
	tmp = malloc((size_t)size);
	for (int i = 0; i < *len; i++) {
		struct lg_client_stats *a = (void *)((char *)in + (size_t)i * (size_t)size);
		struct lg_client_stats *b = (void *)((char *)inout + (size_t)i * (size_t)size);

		fix_svc(a);
		fix_svc(b);
		if (!tmp) { /* no memory for the order: every count is still right */
			lg_client_stats_add(b, a);
			continue;
		}
		memcpy(tmp, b, (size_t)size);
		memcpy(b, a, (size_t)size);
		fix_svc(b);
		fix_svc((struct lg_client_stats *)tmp);
		lg_client_stats_add(b, (struct lg_client_stats *)tmp);
	}
	free(tmp);
}

/* MPI user op on client distributions (commutative: ties go to the lower client id). */
static void merge_dists(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	(void)dt;
	for (int i = 0; i < *len; i++)
		lg_client_dist_merge((struct lg_client_dist *)inout + i,
				     (const struct lg_client_dist *)in + i);
}

/* The communicators of the tree, made once: the ranks of each host (by host name, not
 * by shared memory: "hosts" may be containers of one machine), and the first rank of
 * every host. MPI_Comm_split blocks; it runs once, when the clients have stopped. */
int lg_mpi_split(struct lg_coord *c)
{
	struct lg_mpi *m = st(c);
	int color = (int)c->rank, rank = 0;

	if (m->host_comm != MPI_COMM_NULL)
		return 0;
	for (unsigned r = 0; r < c->size; r++)
		if (!strncmp(m->hosts[r], c->host, LG_HOST_MAX)) {
			color = (int)r; /* the first rank of this host */
			break;
		}
	if (MPI_Comm_split(m->comm, color, (int)c->rank, &m->host_comm) != MPI_SUCCESS)
		return -EIO;
	MPI_Comm_rank(m->host_comm, &rank);
	m->leader = rank == 0;
	if (MPI_Comm_split(m->comm, m->leader ? 0 : MPI_UNDEFINED, (int)c->rank,
			   &m->leaders_comm) != MPI_SUCCESS)
		return -EIO;
	return 0;
}

/* This rank's clients in one block (malloc'd, stride bytes). */
static struct lg_client_stats *own_block(const struct lg_run *run, const void *stats,
					 size_t stride)
{
	const struct lg_client_stats *first = stats;
	struct lg_client_stats *b = calloc(1, stride);

	if (!b)
		return NULL;
	lg_client_stats_init(b, run->nclients ? first->id : 0, run->nclients ? first->ntypes : 0,
			     run->nclients && first->svc);
	for (unsigned i = 0; i < run->nclients; i++)
		lg_client_stats_add(b, (const void *)((const char *)stats + i * stride));
	return b;
}

/* The host rows: each host's block reduced on its first rank, which sends rank 0 its
 * row. *rows (rank 0) gets one per host, in the order of their first ranks. */
static int host_rows(struct lg_coord *c, const struct lg_run *run, const void *stats,
		     size_t stride, struct lg_client_stats *mine, MPI_Datatype blk,
		     MPI_Op op, struct lg_client_stats **host, struct lg_host_row **rows)
{
	struct lg_mpi *m = st(c);
	double done[2] = { 1e300, 0 }; /* min of first, min of -last */
	uint64_t n = run->nclients;
	struct lg_host_row row = { 0 };
	MPI_Request req[3];
	int nhosts = 0;

	for (unsigned i = 0; i < run->nclients; i++) {
		const struct lg_client_stats *cs = (const void *)((const char *)stats + i * stride);

		done[0] = cs->done_s < done[0] ? cs->done_s : done[0];
		done[1] = -cs->done_s < done[1] ? -cs->done_s : done[1];
	}
	*host = m->leader ? calloc(1, stride) : NULL;
	if (m->leader && !*host)
		return -ENOMEM;
	MPI_Ireduce(mine, *host, 1, blk, op, 0, m->host_comm, &req[0]);
	MPI_Ireduce(m->leader ? MPI_IN_PLACE : done, m->leader ? done : NULL, 2, MPI_DOUBLE,
		    MPI_MIN, 0, m->host_comm, &req[1]);
	MPI_Ireduce(m->leader ? MPI_IN_PLACE : &n, &n, 1, MPI_UINT64_T, MPI_SUM, 0,
		    m->host_comm, &req[2]);
	if (lg_mpi_wait(req, 3))
		return -EIO;
	if (!m->leader)
		return 0;
	fix_svc(*host);
	lg_client_row_fill(*host);
	row.row = (*host)->row;
	row.first_done_s = done[0];
	row.last_done_s = -done[1];
	row.clients = (uint32_t)n;
	MPI_Comm_size(m->leaders_comm, &nhosts);
	if (c->rank == 0) {
		*rows = calloc((size_t)nhosts, sizeof(**rows));
		if (!*rows)
			return -ENOMEM;
	}
	MPI_Igather(&row, sizeof(row), MPI_BYTE, c->rank == 0 ? *rows : NULL, sizeof(row),
		    MPI_BYTE, 0, m->leaders_comm, &req[0]);
	return lg_mpi_wait(req, 1);
}

/* Whether a client has something the result reports per client (notes, corruption, a
 * skipped op, failures outside the measured phase). */
static bool noted(const struct lg_client_stats *cs)
{
	bool n = cs->nnotes || cs->ncorrupt || cs->not_open.set || cs->row.errors ||
		 cs->row.skipped;

	for (unsigned p = 0; p < LG_UNTIMED_COUNT; p++)
		n = n || cs->untimed[p].errors || cs->untimed[p].short_writes ||
		    cs->untimed[p].not_open.set;
	return n;
}

/* Rank 0: a zeroed mapping for n rows, owned by the run (run->shm). */
static char *rows_map(struct lg_run *run, size_t n)
{
	size_t len = n ? n * HDR : 1;
	char *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED)
		return NULL;
	run->shm = map;
	run->shm_len = len;
	return map;
}

/* A received row: what it says of its rows is not there. */
static struct lg_client_stats *row_at(char *map, size_t k)
{
	struct lg_client_stats *cs = (void *)(map + k * HDR);

	cs->ntypes = 0;
	cs->svc = NULL;
	return cs;
}

/* Every client's row without histograms, in id order. */
static int gather_rows(struct lg_coord *c, struct lg_run *run, const void *stats,
		       size_t stride, struct lg_client_stats **cl, unsigned total)
{
	char *send = malloc(run->nclients ? run->nclients * HDR : 1), *map = NULL;
	MPI_Datatype row;
	MPI_Request req;
	int rc;

	if (!send)
		return -ENOMEM;
	for (unsigned i = 0; i < run->nclients; i++)
		memcpy(send + i * HDR, (const char *)stats + i * stride, HDR);
	if (c->rank == 0 && !(map = rows_map(run, total))) {
		free(send);
		return -ENOMEM;
	}
	MPI_Type_contiguous((int)HDR, MPI_BYTE, &row);
	MPI_Type_commit(&row);
	MPI_Igather(send, (int)run->nclients, row, map, (int)run->nclients, row, 0,
		    st(c)->comm, &req);
	rc = lg_mpi_wait(&req, 1);
	MPI_Type_free(&row);
	free(send);
	for (unsigned k = 0; !rc && map && k < total; k++)
		cl[k] = row_at(map, k);
	return rc;
}

/* The clients as distributions (reduced), and the rows of the first
 * LG_PER_CLIENT_NOTED_MAX clients, in id order, that have something to report. */
static int summarise(struct lg_coord *c, struct lg_run *run, const void *stats,
		     size_t stride, struct lg_client_stats **cl)
{
	struct lg_client_dist *d = malloc(sizeof(*d)), *all = NULL;
	int mine = 0, *count = NULL, *take = NULL, want = 0, rc = 0;
	char *send = malloc(LG_PER_CLIENT_NOTED_MAX * HDR), *map = NULL;
	MPI_Datatype dt;
	MPI_Request req;
	MPI_Op op;

	if (c->rank == 0) {
		all = malloc(sizeof(*all));
		count = calloc(c->size, sizeof(int));
		take = calloc(c->size, sizeof(int));
	}
	if (!d || !send || (c->rank == 0 && (!all || !count || !take))) {
		rc = -ENOMEM;
		goto out;
	}
	lg_client_dist_init(d);
	for (unsigned i = 0; i < run->nclients; i++) {
		const struct lg_client_stats *cs = (const void *)((const char *)stats + i * stride);

		lg_client_dist_add(d, cs);
		if (noted(cs) && mine < LG_PER_CLIENT_NOTED_MAX)
			memcpy(send + (size_t)mine++ * HDR, cs, HDR);
	}
	MPI_Type_contiguous((int)sizeof(*d), MPI_BYTE, &dt);
	MPI_Type_commit(&dt);
	MPI_Op_create(merge_dists, 1, &op);
	MPI_Ireduce(d, all, 1, dt, op, 0, st(c)->comm, &req);
	rc = lg_mpi_wait(&req, 1);
	MPI_Op_free(&op);
	MPI_Type_free(&dt);
	/* rank 0 takes the noted rows of the lowest ranks first */
	if (!rc) {
		MPI_Igather(&mine, 1, MPI_INT, count, 1, MPI_INT, 0, st(c)->comm, &req);
		rc = lg_mpi_wait(&req, 1);
	}
	for (unsigned r = 0, left = LG_PER_CLIENT_NOTED_MAX; !rc && take && r < c->size; r++) {
		take[r] = count[r] < (int)left ? count[r] : (int)left;
		left -= (unsigned)take[r];
	}
	if (!rc) {
		MPI_Iscatter(take, 1, MPI_INT, &want, 1, MPI_INT, 0, st(c)->comm, &req);
		rc = lg_mpi_wait(&req, 1);
	}
	if (!rc && c->rank == 0) {
		size_t k = 0;

		rc = (map = rows_map(run, LG_PER_CLIENT_NOTED_MAX)) ? 0 : -ENOMEM;
		memcpy(map, send, (size_t)want * HDR);
		for (unsigned r = 1; !rc && r < c->size; r++) {
			if (!take[r])
				continue;
			MPI_Irecv(map + (size_t)(k + (size_t)want) * HDR, take[r] * (int)HDR,
				  MPI_BYTE, (int)r, 5, st(c)->comm, &req);
			rc = lg_mpi_wait(&req, 1);
			k += (size_t)take[r];
		}
		for (size_t i = 0; !rc && i < k + (size_t)want; i++) {
			struct lg_client_stats *cs = row_at(map, i);

			if (cs->id < run->nclients * c->size)
				cl[cs->id] = cs;
		}
	} else if (!rc && want) {
		MPI_Isend(send, want * (int)HDR, MPI_BYTE, 0, 5, st(c)->comm, &req);
		rc = lg_mpi_wait(&req, 1);
	}
	if (!rc && c->rank == 0) {
		run->dist = all;
		all = NULL;
	}
out:
	free(d);
	free(all);
	free(count);
	free(take);
	free(send);
	return rc;
}

int lg_mpi_reduce(struct lg_coord *c, struct lg_run *run, const void *stats, size_t stride,
		  struct lg_host_row **rows)
{
	struct lg_client_stats *mine = NULL, *host = NULL, *total = NULL, **cl = NULL;
	unsigned n = run->nclients * c->size;
	enum lg_per_client mode = run->per_client;
	MPI_Datatype blk;
	MPI_Request req;
	MPI_Op op;
	int rc;

	if (mode == LG_PER_CLIENT_AUTO)
		mode = n <= LG_PER_CLIENT_ROWS_MAX ? LG_PER_CLIENT_ROWS : LG_PER_CLIENT_SUMMARY;
	*rows = NULL;
	if (!(mine = own_block(run, stats, stride)))
		return -ENOMEM;
	MPI_Type_contiguous((int)stride, MPI_BYTE, &blk);
	MPI_Type_commit(&blk);
	MPI_Op_create(merge_blocks, 0, &op);
	rc = host_rows(c, run, stats, stride, mine, blk, op, &host, rows);
	if (!rc && st(c)->leader) {
		total = c->rank == 0 ? calloc(1, stride) : NULL;
		rc = c->rank == 0 && !total ? -ENOMEM : 0;
		if (!rc) {
			MPI_Ireduce(host, total, 1, blk, op, 0, st(c)->leaders_comm, &req);
			rc = lg_mpi_wait(&req, 1);
		}
	}
	MPI_Op_free(&op);
	MPI_Type_free(&blk);
	free(mine);
	free(host);
	if (!rc && c->rank == 0 && total)
		fix_svc(total);
	if (mode == LG_PER_CLIENT_ALL) { /* the caller gathers every client */
		if (!rc && c->rank == 0)
			run->agg = total;
		else
			free(total);
		return rc;
	}
	if (!rc && c->rank == 0 && !(cl = calloc(n ? n : 1, sizeof(*cl))))
		rc = -ENOMEM;
	if (!rc && mode == LG_PER_CLIENT_ROWS)
		rc = gather_rows(c, run, stats, stride, cl, n);
	else if (!rc && mode == LG_PER_CLIENT_SUMMARY)
		rc = summarise(c, run, stats, stride, cl);
	if (rc || c->rank != 0) {
		free(total);
		free(cl);
		return rc;
	}
	free(run->clients);
	run->clients = cl;
	run->nclients = n;
	run->nthreads *= c->size; /* every rank runs as many */
	run->agg = total;
	return lg_run_merge(run);
}
