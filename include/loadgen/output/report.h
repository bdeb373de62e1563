/* Human-readable output: the per-second progress line and the final table. */
#ifndef LOADGEN_REPORT_H
#define LOADGEN_REPORT_H

#include <stdio.h>

#include "loadgen/model/config.h"
#include "loadgen/counters/counters.h"

/* Print the dbench-shaped progress line:
 * "%4d %8d %7.2f MB/sec  %s %3d sec  latency %.3f ms", the seconds with `decimals`
 * decimals (0: rounded to whole seconds, as dbench prints them). */
void lg_report_progress(FILE *out, unsigned clients, uint64_t ops, double mbps,
			const char *phase, double secs, int decimals, double max_latency_ms);
/* Print the final table (ms), the Throughput line and the ops/s line for one run. */
void lg_report_print(FILE *out, const struct lg_config *cfg, const struct lg_run *run);
/* The table of a run's phases between barriers (report_phases.c); nothing without. */
void lg_report_bphases(FILE *out, const struct lg_run *run);
/* What went wrong in run, for the end of a one-line report (-q in a sweep or a
 * repeat): "  FAILURE: N unexpected results; N ... in setup; ..." then "  (interrupted)",
 * "  (aborted)" or "  (failed: nothing measured)"; nothing for a clean run. */
void lg_report_issues(FILE *out, const struct lg_run *run);

/* After repeated runs: mean, stddev, min, max and the 95 % CI of throughput and ops/s.
 * Prints nothing for fewer than 2 runs. */
void lg_report_summary(FILE *out, const struct lg_run *runs, size_t n);
/* After a client sweep: a row per client count (runs, MB/s mean +/- 95 % CI, ops/s, p99
 * and max latency of the merged histograms, CV). */
void lg_report_scaling(FILE *out, const struct lg_run *runs, size_t n);

#endif
