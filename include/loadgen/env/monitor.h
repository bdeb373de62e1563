/* The run's monitor: what the engine calls to record the system beside its own counters.
 *
 * Created just before setup, it follows the kernel log and takes a /proc sample (for the
 * whole-run /proc/vmstat difference); at the start of the measured phase it takes the first
 * sample, then one per timeline interval (stored as the entry's "sys" and streamed to
 * --log); after cleanup it drains the kernel log, takes the last sample and sums up.
 * Only the master calls it, never on the clients' path. With --monitor off it only
 * streams the intervals to --log (if any); with neither, lg_monitor_create gives NULL and
 * every call is a no-op. */
#ifndef LOADGEN_MONITOR_H
#define LOADGEN_MONITOR_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "loadgen/model/config.h"
#include "loadgen/model/interval.h"

struct lg_monitor;

/* Start monitoring a run whose files live in rundir (its block devices are followed).
 * *out is NULL when there is nothing to do. 0 or -ENOMEM. */
int lg_monitor_create(const struct lg_config *cfg, const char *rundir,
		      struct lg_monitor **out);
void lg_monitor_destroy(struct lg_monitor *m);
/* The run has several ranks: the other ranks on this host (processes of our name and
 * parent) are not "other processes" (loadgen/env/busy.h). */
void lg_monitor_ranks_here(struct lg_monitor *m);
/* The measured phase began at t_ns (CLOCK_MONOTONIC). */
void lg_monitor_begin(struct lg_monitor *m, uint64_t t_ns);
/* Timeline entry k (iv) was just added, ending at t_ns. */
void lg_monitor_interval(struct lg_monitor *m, const struct lg_interval *iv, size_t k,
			 uint64_t t_ns);
/* The measured phase is over: the last sample of the other processes (lg_monitor_end
 * takes it when this was not called, after a failed run). */
void lg_monitor_stop(struct lg_monitor *m);
/* Read the kernel log now (e.g. while waiting for setup). */
void lg_monitor_poll(struct lg_monitor *m);
/* Cleanup is over: last kernel messages, last sample, the summary. */
void lg_monitor_end(struct lg_monitor *m);

/* Add to run_obj (a run of the result) "sys" in each "timeline" entry, "sys_summary",
 * "vmstat_diff", "busy" (loadgen/env/busy.h) and "kernel_messages", as far as they were recorded. 0 or -ENOMEM, also
 * when lg_monitor_end could not build the summary or vmstat_diff (no run without them). */
int lg_monitor_json(const struct lg_monitor *m, json_t *run_obj);
/* This host's figures, which the first rank of each host of a multi-host run sends to
 * rank 0: {"sys_summary", "busy", "kernel_messages"} as far as recorded ({} for m NULL). New
 * reference, or NULL on -ENOMEM. */
json_t *lg_monitor_host_json(const struct lg_monitor *m);
/* The short block of system counters and the kernel message box, for the text report. */
void lg_monitor_print(FILE *out, const struct lg_monitor *m);

#endif
