/* The per-host view of a run on several hosts (MPI): what each host's clients did, as
 * a table and in the result file. Everything here is computed on rank 0 from the
 * gathered clients (lg_run.multi says which rank and host ran each). */
#ifndef LOADGEN_HOSTS_H
#define LOADGEN_HOSTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "loadgen/model/histogram.h"
#include "loadgen/counters/counters.h"

/* One host's clients added up. */
struct lg_host_sum {
	unsigned clients;          /* clients that ran on it */
	uint64_t ops;              /* ops they completed */
	uint64_t bytes;            /* bytes they read and wrote */
	double mbps;               /* bytes / measured time / 1e6 */
	double ops_s;              /* ops / measured time */
	double first_done_s;       /* the first of them to finish its last op, seconds
				      after the start (meaningful with --run-once) */
	double last_done_s;        /* the last of them to finish */
	struct lg_client_row lat;  /* latency of all their ops (from merged buckets) */
};

/* Sum run's clients per host: *out gets run->multi->nhosts entries (free() them).
 * 0, -ENOENT when run is not a multi-host run, or -ENOMEM. */
int lg_host_sums(const struct lg_run *run, struct lg_host_sum **out);
/* Print the per-host table (with once, for --run-once: when each host's first and last
 * client finished), the fairness across hosts and a warning when hosts differ in
 * kernel, filesystem type or mount options. Prints nothing for a one-host run. */
void lg_report_hosts(FILE *out, const struct lg_run *run, bool once);
/* Print a line for each host whose system counters stand out among the n hosts (names[i],
 * summaries[i]: its "sys_summary", or NULL): "host h7: PSI io full 410 ms/s, others ≤ 12"
 * (report_hosts_sys.c says when a host stands out). Nothing when the hosts are alike. */
void lg_hosts_standout(FILE *out, const char *const *names, const json_t *const *summaries,
		       size_t n);
/* A run with a lost rank (lg_run.lost_ranks): which rank of which host was lost when,
 * the throughput from the per-interval counters, and the figures missing. Nothing for
 * any other run. */
void lg_report_lost_ranks(FILE *out, const struct lg_run *run);
/* Add the multi-host keys to a result document built by lg_result_json_build from runs:
 * config.ranks, config.hosts, and in each run hosts[], start_skew_ms and host/rank of
 * each client. Nothing for one-host runs. 0 or -ENOMEM. */
int lg_result_json_hosts(json_t *doc, const struct lg_run *runs, size_t n);

#endif
