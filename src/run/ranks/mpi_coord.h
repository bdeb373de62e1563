/* The MPI backend of struct lg_coord (built with LOADGEN_MPI only). Private. */
#ifndef LOADGEN_MPI_COORD_H
#define LOADGEN_MPI_COORD_H

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
/* The finish hook (mpi_result.c). */
int lg_mpi_finish(struct lg_coord *c, struct lg_run *run, const void *stats, size_t stride,
		  char *err, size_t errlen);
#endif

#endif
