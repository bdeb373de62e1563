/* The MPI backend of struct lg_coord (built with LOADGEN_MPI only). Private. */
#ifndef LOADGEN_MPI_COORD_H
#define LOADGEN_MPI_COORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadgen/run/coord.h"

#ifdef LOADGEN_MPI
#include <mpi.h>

/* Backend state, c->priv. */
struct lg_mpi {
	MPI_Comm comm;                  /* our own duplicate of MPI_COMM_WORLD */
	char (*hosts)[LG_HOST_MAX];     /* every rank's host name, c->size entries */
	int64_t *off;                   /* rank 0: each rank's wall clock minus rank 0's,
					   ns, measured at the last start (c->size) */
	uint64_t clock_err_ns;          /* rank 0: uncertainty of off[], ns */
	int64_t my_off;                 /* this rank's own entry of off[] */
	bool leader;                    /* the first rank of its host (lg_mpi_split) */
	MPI_Comm host_comm;             /* the ranks of this host (lg_mpi_split), or NULL */
	MPI_Comm leaders_comm;          /* the first rank of every host, or NULL elsewhere */
	/* who is still there when a rank may be lost (mpi_lost.c) */
	int call_in;                    /* ranks > 0: rank 0's last call */
	MPI_Request call_req;           /* ranks > 0: the receive of the next call */
	int answer_out;                 /* ranks > 0: the "here" sent */
	MPI_Request answer_req;         /* ranks > 0: the send of the last "here" */
	uint64_t announced_ns;          /* ranks > 0: when it was sent (CLOCK_MONOTONIC) */
	MPI_Request *calls;             /* rank 0: per rank, the last call sent (c->size) */
	int here_in;                    /* rank 0: the "here" received */
	MPI_Request here_req;           /* rank 0: the receive of the next "here", from any
					   rank */
	uint64_t *answered_ns;          /* rank 0: per rank, when its last "here" came
					   (CLOCK_MONOTONIC) */
};

/* One wait's watch for a rank that may be lost (mpi_lost.c); zero it to begin. */
struct lg_mpi_watch {
	uint64_t since;  /* when the wait was first seen stopped or failed, ns, or 0 */
	uint64_t next;   /* when to look at who is there next, ns */
	uint64_t called; /* when the current look began, ns, or 0 */
	bool calling;    /* rank 0 called every rank in it (nobody had said "here") */
	unsigned looks;  /* looks that found every rank there */
	bool failed;     /* MPI reported an error in this wait */
};

/* Join MPI (MPI_Init_thread, funneled: only the main thread calls MPI) and fill *out.
 * launcher names what started us, launched the ranks it says it started (0: it does not
 * say). 0, or a negative errno with err filled: -EPROTO when the launcher started more
 * ranks than MPI sees (another MPI's launcher). */
int lg_mpi_open(const char *launcher, unsigned launched, struct lg_coord **out, char *err,
		size_t errlen);
/* Wait for n requests, sleeping between polls so that a waiting rank leaves the CPU to
 * the clients (MPI implementations busy-poll in blocking calls). 0 or -EIO. */
int lg_mpi_wait(MPI_Request *req, int n);
/* Make the communicators of the reduction's tree (once; collective, blocking): the ranks
 * of each host name, and the first ranks of the hosts. 0 or -EIO. */
int lg_mpi_split(struct lg_coord *c);
/* The end of a run, reduced (mpi_reduce.c): every rank's clients merged up a tree into
 * rank 0's run->agg, each host's clients into its row (run->multi->rows, filled once
 * gather_ranks made run->multi: *rows gets nhosts of them on rank 0), and the clients
 * listed as run->per_client says (LG_PER_CLIENT_ALL: only run->agg; the caller gathers
 * every client). Needs lg_mpi_split. 0 or a negative errno (the caller aborts). */
int lg_mpi_reduce(struct lg_coord *c, struct lg_run *run, const void *stats, size_t stride,
		  struct lg_host_row **rows);
/* The roll call (mpi_lost.c): init after the communicator exists (0, or a negative
 * errno); close before MPI_Finalize. */
int lg_mpi_lost_init(struct lg_coord *c);
void lg_mpi_lost_close(struct lg_coord *c);
/* Called at every poll of a wait that has not completed (failed: MPI reported an error):
 * answers rank 0's calls and says "here" once stopped, and once the wait looks stuck,
 * names the lost ranks (on rank 0, on_lost is called and the process leaves from in
 * here). Returns whether the wait must
 * give up (-EIO): an MPI error with nobody to call it lost, or none lost. */
bool lg_mpi_stuck(struct lg_mpi_watch *w, bool failed);
/* A rank > 0: answer rank 0's call if one came, leave if it says so, say "here" when
 * this process was asked to stop. */
void lg_mpi_answer(void);
/* The finish hook (mpi_result.c). */
int lg_mpi_finish(struct lg_coord *c, struct lg_run *run, const void *stats, size_t stride,
		  char *err, size_t errlen);
/* At the finish, after the hosts are known (mpi_hosts.c): the first rank of each host
 * sends rank 0 its monitor's summary and kernel messages (run->mon), which rank 0 stores
 * in run->multi's hosts. Collective. 0, -EIO or -ENOMEM. */
int lg_mpi_hosts(struct lg_coord *c, struct lg_run *run);
#endif

#endif
