/* Checks, before any load starts, that the system will let every client run: open
 * files, processes/threads. A run must never be half-started. */
#ifndef LOADGEN_RLIMITS_H
#define LOADGEN_RLIMITS_H

#include <stddef.h>

#include "loadgen/model/config.h"
#include "loadgen/model/workload.h"

/* Open files one client may hold at once besides its workload's files: the directory
 * of a readdir or find, or a parent directory synced by -S (never both), and a spare. */
#define LG_FDS_PER_CLIENT_EXTRA 2
/* Descriptors the master keeps for itself (stdio, run directory, JSON, libraries). */
#define LG_FDS_MASTER 32

/* Raise the soft RLIMIT_NOFILE toward the hard limit when cfg's clients need more, and
 * check the thread/process limits. Returns 0, or a negative errno with err filled with
 * what is short and how to fix it. */
int lg_limits_check(const struct lg_config *cfg, const struct lg_workload *wl, char *err,
		    size_t errlen);

#endif
