/* The MPI backend, end of a run: every host's system monitor reaches rank 0.
 *
 * Every rank monitors its own host (lg_monitor_create runs on each), but rank 0 kept only
 * its own. Here the first rank of each host (the lowest rank with that host name, as
 * every rank knows from the host names gathered at the start) sends rank 0 its monitor's
 * summary and kernel messages as compact JSON text: once per run, a few KB per host,
 * never per interval (the per-interval exchange stays counters only). The other ranks
 * of a host send nothing: they saw the same /proc. Rank 0 stores each text, parsed, in
 * its host's entry of run->multi (lg_host_info.mon). */
#include "mpi_coord.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/counters/counters.h"
#include "loadgen/counters/ranks.h"
#include "loadgen/env/monitor.h"

#define TAG_LEN 29  /* the length of a host's text */
#define TAG_TEXT 30 /* the text */

/* The first rank whose host is hosts[r]'s. */
static unsigned first_of_host(const struct lg_mpi *mp, unsigned r)
{
	unsigned f = 0;

	while (f < r && strncmp(mp->hosts[f], mp->hosts[r], LG_HOST_MAX))
		f++;
	return f;
}

/* A host's first rank other than 0: its figures to rank 0, length first (0: none). */
static int send_mine(MPI_Comm comm, const char *text)
{
	uint64_t len = text ? strlen(text) + 1 : 0;
	MPI_Request req;

	if (len > INT32_MAX) /* a run's summary is KBs: never, but MPI counts are int */
		len = 0;
	MPI_Isend(&len, 1, MPI_UINT64_T, 0, TAG_LEN, comm, &req);
	if (lg_mpi_wait(&req, 1))
		return -EIO;
	if (!len)
		return 0;
	MPI_Isend(text, (int)len, MPI_CHAR, 0, TAG_TEXT, comm, &req);
	return lg_mpi_wait(&req, 1) ? -EIO : 0;
}

/* Rank 0: the figures of the host whose first rank is r, parsed, or NULL (none sent). */
static int recv_host(MPI_Comm comm, unsigned r, json_t **out)
{
	uint64_t len = 0;
	MPI_Request req;
	char *text;

	*out = NULL;
	MPI_Irecv(&len, 1, MPI_UINT64_T, (int)r, TAG_LEN, comm, &req);
	if (lg_mpi_wait(&req, 1))
		return -EIO;
	if (!len)
		return 0;
	text = malloc(len);
	if (!text)
		return -ENOMEM; /* rank r's send then blocks: the caller aborts the job */
	MPI_Irecv(text, (int)len, MPI_CHAR, (int)r, TAG_TEXT, comm, &req);
	if (lg_mpi_wait(&req, 1)) {
		free(text);
		return -EIO;
	}
	text[len - 1] = '\0';
	*out = json_loads(text, 0, NULL); /* NULL only for want of memory: ours */
	free(text);
	return *out ? 0 : -ENOMEM;
}

/* Rank 0: the host entry named name, or NULL. */
static struct lg_host_info *host_named(struct lg_multi *m, const char *name)
{
	for (unsigned h = 0; m && h < m->nhosts; h++)
		if (strncmp(m->hosts[h].name, name, LG_HOST_MAX) == 0)
			return &m->hosts[h];
	return NULL;
}

int lg_mpi_hosts(struct lg_coord *c, struct lg_run *run)
{
	const struct lg_mpi *mp = c->priv;
	struct lg_host_info *h;
	char *text = NULL;
	json_t *mine;
	int rc = 0;

	if (c->rank != 0) {
		if (first_of_host(mp, c->rank) != c->rank)
			return 0;
		mine = lg_monitor_host_json(run->mon);
		text = mine ? json_dumps(mine, JSON_COMPACT) : NULL;
		json_decref(mine);
		rc = send_mine(mp->comm, text); /* without its text rank 0 still hears a 0 */
		free(text);
		return rc;
	}
	/* rank 0's own host; run->multi is NULL only when gather_ranks failed (then the
	 * finish aborts before this) */
	if ((h = host_named(run->multi, mp->hosts[0])) && !(h->mon = lg_monitor_host_json(run->mon)))
		rc = -ENOMEM;
	for (unsigned r = 1; r < c->size; r++) {
		json_t *o;
		int e;

		if (first_of_host(mp, r) != r)
			continue;
		/* keep receiving after a failure: every first rank is sending */
		e = recv_host(mp->comm, r, &o);
		rc = rc ? rc : e;
		if ((h = host_named(run->multi, mp->hosts[r])) && !h->mon)
			h->mon = o;
		else
			json_decref(o);
	}
	return rc;
}
