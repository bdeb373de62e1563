/* Parts of the result document that look across clients and runs: stalls, fairness,
 * failures outside the measured ops, and the summary of repeated runs. Private to result_json.c and report.c. */
#ifndef LOADGEN_RESULT_SUMMARY_H
#define LOADGEN_RESULT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "loadgen/inference/inference.h"
#include "loadgen/model/sweep.h"
#include "loadgen/counters/counters.h"

/* Length of the valid UTF-8 sequence at s (no overlongs, surrogates or > U+10FFFF:
 * what jansson accepts), or 0 when the byte at s does not start one. */
size_t lg_utf8_len(const unsigned char *s);
/* Whether jansson would take s (NUL-terminated) as a string: then json_string(s) fails
 * only for want of memory. */
bool lg_utf8_valid(const char *s);

/* Run i's throughput (MB/s) and ops/s, as the result file states them. */
double lg_run_mbps(const struct lg_run *run);
double lg_run_ops_per_s(const struct lg_run *run);

/* Summaries over runs of throughput (*mbps) and ops/s (*ops). 0 or -ENOMEM. */
int lg_runs_summarize(const struct lg_run *runs, size_t n, struct lg_stat_summary *mbps,
		      struct lg_stat_summary *ops);

/* One client count's runs summarised: throughput, ops/s, their variation, and latency
 * from the runs' histograms merged. */
struct lg_count_summary {
	unsigned clients;             /* the client count */
	size_t n;                     /* runs */
	struct lg_stat_summary mbps;  /* throughput over the runs */
	struct lg_stat_summary ops;   /* ops/s over the runs */
	double cv_pct;                /* CV of MB/s (of ops/s when no data moves); NaN n < 2 */
	struct lg_histogram all;      /* every op of every run */
	bool lost;                    /* some run lost a rank: its ops are not in all */
};

/* Whether run measured anything: not failed, and a measured phase longer than 0 (a run
 * interrupted in its setup or warm-up measured nothing; its 0 MB/s is no result). */
bool lg_run_measured(const struct lg_run *run);
/* Copy the runs with client count clients that measured something (all of them when
 * none did) into out (room for n): the runs a summary is made of. Returns how many. The
 * copies share what the runs own. */
size_t lg_runs_with_clients(const struct lg_run *runs, size_t n, unsigned clients,
			    struct lg_run *out);
/* Summarise runs[0..n-1] (n >= 1, one client count). 0 or -ENOMEM. */
int lg_count_summary(const struct lg_run *runs, size_t n, struct lg_count_summary *out);
/* The warning for a coefficient of variation above LG_CV_WARN_PCT, or NULL. */
const char *lg_cv_warning(double cv_pct);

/* JSON objects ("stalls", "fairness" of a run; "summary" of all runs), new references,
 * NULL on -ENOMEM (and lg_summary_json NULL when n is 0). */
json_t *lg_stalls_json(const struct lg_run *run);
json_t *lg_fairness_json(const struct lg_run *run);
json_t *lg_summary_json(const struct lg_run *runs, size_t n);

/* --verify (corrupt_notes.c): what a corrupt block should have been and what was read,
 * as one line each ("client 0, offset 4096, xxh64 0x..." with the client that wrote it;
 * found says "no loadgen header" instead of its client and offset when the magic is
 * missing; stale metadata: "client 3's file" and "ENOENT"). */
void lg_corruption_describe(const struct lg_corruption_note *n, char *expected,
			    size_t elen, char *found, size_t flen);
/* Where client id ran: its rank (id / clients per rank) and host, from run->multi; on
 * one host (no multi), rank 0 and host NULL. */
void lg_run_client_place(const struct lg_run *run, unsigned id, unsigned *rank,
			 const char **host);
/* The first corrupt blocks of all clients ("corruption_notes", each with its writer and
 * reader: client, rank, host), a new reference, NULL on -ENOMEM. */
json_t *lg_corruption_notes_json(const struct lg_run *run);

/* The path of a note's path index for client id, into buf (len bytes): "" when the
 * note has none or it cannot be told. Returns buf. */
const char *lg_run_note_path(const struct lg_run *run, unsigned client, uint32_t path,
			     char *buf, size_t len);
/* A run's failures outside its measured ops' results, new references, NULL on -ENOMEM:
 * "phases" (setup, warmup, cleanup: errors, errors_by_errno, skipped, notes),
 * "not_open_notes" (ops skipped because their slot was not open, every phase),
 * "failure" (why a failed run failed, or JSON null). */
json_t *lg_phases_json(const struct lg_run *run);
json_t *lg_not_open_json(const struct lg_run *run);
json_t *lg_failure_json(const struct lg_run *run);

/* Where a run failed and how: what makes its exit status 1 (or 4), told alike by the
 * text report, the -q line and the result file. */
struct lg_run_failures {
	uint64_t count;  /* unexpected results, ops not executed for want of an open
			    file, short writes in setup, corrupt blocks and lost
			    clients, every phase */
	int phase;       /* the first phase with one, enum lg_untimed, or
			    LG_UNTIMED_COUNT for the measured phase (listed first) */
	int err;         /* the errno most of that phase's unexpected results gave (0: an
			    unexpected success), or -1 when it had none */
	char text[512];  /* "N unexpected results; M ops not executed (slot not open) in
			    setup; ..." (no zero counts), "" when count is 0 */
};
/* Fill *out for run. */
void lg_run_failures(const struct lg_run *run, struct lg_run_failures *out);
/* The run's status as the result file names it: "complete", "interrupted", "partial",
 * "aborted", or "failed" (its setup failed, or it ran to its end with failures). */
const char *lg_run_status_name(const struct lg_run *run);
/* Skipped steps by reason ({"prev_offset": n, "not_open": m, "cut_off": k}), a new
 * reference. */
json_t *lg_skipped_json(const uint64_t skipped[LG_SKIP_REASONS]);
/* What a note's result likely means, into buf (len bytes): for EINVAL on an O_DIRECT
 * file, "O_DIRECT: the offset and size must be multiples of 4096 bytes" (of the device's
 * logical block size, when the run did not learn it); "" for any other note. Returns
 * buf. */
const char *lg_error_note_hint(const struct lg_error_note *n, char *buf, size_t len);
/* One unexpected result of client as a JSON object (phase: "run" or an untimed
 * phase's name), a new reference. */
json_t *lg_error_note_json(const struct lg_run *run, unsigned client, const char *phase,
			   const struct lg_error_note *n);

#endif
