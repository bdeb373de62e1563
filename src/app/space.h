/* The free-space check before a run: refuse a workload whose files cannot fit in the
 * filesystem of -D at this client count (--no-space-check runs it anyway). Private. */
#ifndef LOADGEN_SPACE_H
#define LOADGEN_SPACE_H

#include <stddef.h>

#include "loadgen/model/config.h"
#include "loadgen/model/workload.h"

/* 0 when wl's files (lg_footprint, times cfg->clients) fit in the free space of
 * cfg->directory, or cannot be told (statvfs failed); -ENOSPC with msg saying the need,
 * the free space and the -p to lower otherwise. */
int lg_space_check(const struct lg_config *cfg, const struct lg_workload *wl, char *msg,
		   size_t len);

#endif
