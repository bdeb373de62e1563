/* Phases between barriers (mdtest's create, stat, read, remove): their names and what
 * each counts as its items. The table has a fixed room, LG_BARRIER_PHASES_MAX entries,
 * made with its first entry: a phase's index is kept in every client's stats, which
 * live in shared memory and have a fixed size. */
#include "loadgen/model/workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A phase's name: the one given, or "phase N" (1-based, as a reader counts them). */
static char *phase_name(const char *name, size_t index)
{
	char buf[32];

	if (name)
		return strdup(name);
	snprintf(buf, sizeof(buf), "phase %zu", index + 1);
	return strdup(buf);
}

int lg_workload_add_bphase(struct lg_workload *wl, const char *name, uint16_t items,
			   uint32_t line, uint32_t *index)
{
	if (!wl->bphases) { /* phase 0: the run phase up to the first barrier */
		wl->bphases = calloc(LG_BARRIER_PHASES_MAX, sizeof(*wl->bphases));
		if (!wl->bphases || !(wl->bphases[0].name = phase_name(NULL, 0))) {
			free(wl->bphases);
			wl->bphases = NULL;
			return -ENOMEM;
		}
		wl->bphases[0].items = LG_ITEMS_ALL;
		wl->nbphases = 1;
	}
	if (wl->nbphases >= LG_BARRIER_PHASES_MAX)
		return -E2BIG;
	wl->bphases[wl->nbphases] = (struct lg_barrier_phase){
		.name = phase_name(name, wl->nbphases), .items = items, .line = line,
	};
	if (!wl->bphases[wl->nbphases].name)
		return -ENOMEM;
	if (index)
		*index = (uint32_t)wl->nbphases;
	wl->nbphases++;
	return 0;
}
