/* The runs of one `loadgen` invocation, after the options are parsed: join the other
 * ranks, load and check the workload of each client count, run the sweep and its
 * repeats, write the result files, and the exit status. Private to the app layer; the
 * subcommands that run a workload (main, and those that compare runs) share these. */
#ifndef LOADGEN_RUNS_H
#define LOADGEN_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "loadgen/model/config.h"
#include "loadgen/counters/counters.h"
#include "loadgen/model/workload.h"

/* Exit statuses of loadgen. */
#define LG_EXIT_ERRORS 1      /* the run finished but ops failed */
#define LG_EXIT_USAGE 2       /* bad usage or workload, nothing ran */
#define LG_EXIT_CORRUPT 4     /* --verify found data that is not what loadgen wrote */
#define LG_EXIT_INTERRUPT 130 /* stopped by SIGINT/SIGTERM */

/* Loading and checking, before any load starts */

/* Join the other ranks when an MPI launcher started us (or --mpi). Returns 0 or an
 * exit status (said). */
int lg_runs_join_ranks(struct lg_config *cfg);
/* Load the workload for cfg->clients per rank into *wl (caller destroys it); *hash gets
 * a hash of its text (of its SHA-256). Returns 0 or a negative errno, with the reason in err. */
int lg_runs_load_workload(const struct lg_config *cfg, struct lg_workload **wl,
			  uint64_t *hash, char *err, size_t errlen);
/* Checks of the target and the output paths that may refuse the run; adds the open
 * flags of -s/--direct to wl. Returns 0 or a negative errno, with the reason in msg. */
int lg_runs_preflight(struct lg_config *cfg, struct lg_workload *wl, char *msg, size_t len);
/* Load and check one workload per client count of the sweep into wls[] (caller
 * destroys them), on every rank alike. Returns 0 or an exit status (said). */
int lg_runs_load_all(struct lg_config *cfg, struct lg_workload **wls);

/* Running and reporting */

/* Run one client count until its --repeat rule is met, into runs[*n...] (*n grows).
 * Returns 0; 1 when a run failed; a negative errno when a run could not start. */
int lg_runs_count(const struct lg_config *cfg, const struct lg_workload *wl,
		  struct lg_run *runs, size_t *n);
/* Every client count of the sweep in order (wls[i] for cfg->sweep[i]); *n gets the runs
 * that produced results. Returns 0 or a negative errno. */
int lg_runs_sweep(struct lg_config *cfg, struct lg_workload **wls, struct lg_run *runs,
		  size_t *n);
/* Exit status for what runs[0..n) found (LG_EXIT_*, or 0). */
int lg_runs_status(const struct lg_run *runs, size_t n);
/* Write --json, --html and the last line of --log for runs[0..n). Returns 0 or a
 * negative errno (said on stderr). */
int lg_runs_write_result(const struct lg_config *cfg, const struct lg_workload *wl,
			 const struct lg_run *runs, size_t n);
/* Print err on stderr once: on one host, or from rank 0 of several. */
void lg_runs_say(const struct lg_config *cfg, const char *err);

#endif
