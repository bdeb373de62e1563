/* The master: creates the run directory, starts the clients on one barrier, runs the
 * warm-up and the measured phase, prints progress, stops and joins the clients, merges
 * their stats and removes the run directory. */
#ifndef LOADGEN_ENGINE_H
#define LOADGEN_ENGINE_H

#include <stddef.h>

#include "loadgen/model/config.h"
#include "loadgen/counters/counters.h"
#include "loadgen/model/workload.h"

/* Run wl once as cfg says; progress lines go to stdout unless cfg->quiet. On success
 * *run holds the merged result (free with lg_run_clear) and 0 is returned. Returns a
 * negative errno with err filled when the run could not start (run directory, memory,
 * threads); nothing was measured then. */
int lg_engine_run(const struct lg_config *cfg, const struct lg_workload *wl,
		  struct lg_run *run, char *err, size_t errlen);

/* Ask a running engine to stop (async-signal-safe: it only sets a flag). */
void lg_engine_interrupt(void);
/* fflush(stdout); when its reader has left (EPIPE: `loadgen ... | head`), stop the run as
 * lg_engine_interrupt does: nobody reads the progress any more, and the run directory
 * and the --json result are kept as for Ctrl-C. */
void lg_engine_flush_stdout(void);
/* Whether lg_engine_interrupt was called. */
int lg_engine_interrupted(void);
/* Kill client processes still running (async-signal-safe), before exiting at once. */
void lg_engine_abandon(void);
/* The run directory of the run in progress, or NULL (for a last-resort message). */
const char *lg_engine_rundir(void);

#endif
