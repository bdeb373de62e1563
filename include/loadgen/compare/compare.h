/* `loadgen compare`: result files in, verdicts out.
 *
 * A result file (schema "loadgen-result/1") holds one or more runs of the same setup.
 * Comparing two files means comparing their per-run throughputs with Welch's t-test:
 * a change is only called "faster" or "slower" when it is unlikely to be noise
 * (p < alpha) and at least --min-effect percent. The per-run values are taken from
 * `runs`, never from a precomputed `summary`, so files of any age compare the same way.
 *
 * Two parts: the evaluation (compare_eval.c: load and check files, decide, list
 * differences of setup, merge latency histograms), usable on json_t documents built by
 * hand; and the command (compare.c: options, text and JSON output, exit status). */
#ifndef LOADGEN_COMPARE_H
#define LOADGEN_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>

#include <jansson.h>

#include "loadgen/inference/inference.h"

#define LG_COMPARE_ALPHA 0.05     /* significance level of a verdict */
#define LG_COMPARE_EXIT_SLOWER 3  /* exit status when --fail-if-slower trips */
#define LG_COMPARE_EXIT_UNDECIDED 5 /* --fail-if-slower, and a comparison had no verdict
				      (fewer than 2 runs in a file): it cannot tell */
#define LG_RESULT_SCHEMA "loadgen-result/1"  /* the schema compare reads */
#define LG_COMPARE_SCHEMA "loadgen-compare/1" /* the schema of compare --json */

#define LG_COMPARE_POWER 0.8       /* power at which the minimum detectable effect is given */
#define LG_COMPARE_TARGET_PCT 2.0  /* change to plan runs for when --min-effect is 0 */
#define LG_COMPARE_MAX_RUNS 10000  /* largest run count suggested per side */

/* The runs of one file made with one client count: a sweep has one group per count. */
struct lg_cmp_group {
	unsigned clients; /* client count of these runs (0 when the file does not say) */
	size_t n;         /* runs in the group */
	size_t *runs;     /* their indexes in the file's runs (owned) */
	double *mbps;     /* their throughput_mbps (owned) */
	double *ops;      /* their ops_per_s (owned) */
	size_t nbatches;  /* batches (files of one side) these runs come from, >= 1 */
	size_t *boff;     /* nbatches + 1 offsets: batch b is runs boff[b] .. boff[b+1]-1 of
			     this group (owned) */
	double *bmbps;    /* per batch, the mean throughput_mbps of its runs here (owned) */
	double *bops;     /* per batch, the mean ops_per_s (owned) */
};

/* One result file, loaded and checked: every field used later is known to be there and
 * of the right type, so nothing after lg_cmp_file_init can fail on the file's shape. */
struct lg_cmp_file {
	const char *path; /* name for messages (borrowed) */
	json_t *doc;      /* the whole result (one reference owned) */
	json_t *runs;     /* doc's "runs" but those whose setup failed: non-empty (owned) */
	size_t nruns;     /* entries in runs */
	size_t nfailed;   /* runs of doc left out of runs: nothing measured (status "failed",
			     or a duration_s of 0: interrupted before its measured phase) */
	double *mbps;     /* per-run throughput_mbps, nruns values (owned) */
	double *ops;      /* per-run ops_per_s, nruns values (owned) */
	struct lg_cmp_group *groups; /* runs by client count, in ascending count (owned) */
	size_t ngroups;              /* at least 1 */
	size_t nbatches;             /* files loaded as batches of one setup, >= 1 */
	char *own_path;              /* the name of several batches, path points here (owned) */
};

/* The per-run metrics a verdict can be decided on. */
enum lg_cmp_metric {
	LG_CMP_MBPS, /* throughput_mbps, the default */
	LG_CMP_OPS,  /* ops_per_s, when throughput is 0 in both (metadata-only workloads) */
	LG_CMP_NMETRICS,
};

/* What a comparison concluded. */
enum lg_verdict {
	LG_VERDICT_NONE,   /* fewer than 2 runs in a file: nothing can be said */
	LG_VERDICT_SAME,   /* no significant difference (or smaller than min_effect_pct) */
	LG_VERDICT_FASTER, /* significantly more throughput than the baseline */
	LG_VERDICT_SLOWER, /* significantly less throughput than the baseline */
};

/* Settings of a comparison. */
struct lg_cmp_opts {
	double alpha;          /* significance level, LG_COMPARE_ALPHA */
	double min_effect_pct; /* smallest |change| in % called faster/slower, >= 0 */
};

/* One metric of one file against the baseline. */
struct lg_cmp_metric_result {
	struct lg_stat_summary base;  /* the baseline's per-run values */
	struct lg_stat_summary other; /* the other file's per-run values */
	double change_pct;            /* 100 (other - base) / base; NaN when base is 0 */
	bool tested;                  /* both have >= 2 runs, so welch is set */
	struct lg_welch welch;        /* Welch's test of other against base */
	struct lg_rank_test mwu;      /* Mann-Whitney U of other against base (when tested) */
	double effect_g;              /* Hedges' g of other against base; NaN when undefined */
	double mde_pct;               /* the smallest change (% of the baseline mean) Welch's
					 test detects with LG_COMPARE_POWER at alpha, for
					 these runs' spread and counts; NaN when untested */
	double target_pct;            /* the change runs_needed is planned for */
	size_t runs_needed;           /* runs per side to detect target_pct with that power;
					 0 when over LG_COMPARE_MAX_RUNS */
};

/* Whether one side's runs drift over their order: they are in time order in a result
 * file, and a batch's shared state (what else ran, caches, neighbours) shows as a trend
 * or as a first run apart from the rest. Tested on the deciding metric. */
struct lg_cmp_drift {
	bool tested;                /* 3 runs or more, so trend and first are set */
	struct lg_stat_trend trend; /* least-squares trend over run order */
	struct lg_stat_first first; /* the first run against the others */
	bool drifts;                /* trend.p < alpha */
	bool first_apart;           /* first.p < alpha */
};

/* One file against the baseline. */
struct lg_cmp_result {
	struct lg_cmp_metric_result metric[LG_CMP_NMETRICS]; /* by enum lg_cmp_metric */
	enum lg_cmp_metric decided_by; /* which metric the verdict is about */
	enum lg_verdict verdict;       /* the conclusion */
	bool below_min_effect;         /* significant, but smaller than min_effect_pct */
	bool rank_disagrees;           /* the rank test says otherwise than Welch's test,
					  though it could have reached alpha */
	bool rank_too_few;             /* the rank test cannot reach alpha with these runs */
	unsigned clients;              /* the client count compared (0: not recorded) */
	struct lg_cmp_drift drift[2];  /* [0] the baseline's runs, [1] the other file's */
	bool by_batch;                 /* decided on batch means: both sides have >= 2
					  batches; the metrics' n are batches */
	size_t batches[2];             /* batches of the baseline and the other side */
	bool nested_ok[2];             /* nested[] is set: that side has >= 2 batches and
					  more runs than batches */
	struct lg_stat_nested nested[2]; /* runs nested in batches, per side, deciding metric */
	bool calibrated;               /* one batch per side, and a calibration's between-
					  batch variance was added (lg_calib_apply) */
	double calib_sd_pct;           /* that calibration's sd between batches, % of mean */
	size_t calib_batches;          /* the A/A batches it was made from */
	const char *calib_path;        /* its store (borrowed from the caller's struct) */
};

/* Latency of one op type over all runs of a file, from the merged histograms. */
struct lg_cmp_latency {
	bool have_pct;   /* p50_ns and p99_ns are known */
	uint64_t count;  /* values in the merged histogram (0 without histograms) */
	uint64_t p50_ns; /* median, the midpoint of its bucket */
	uint64_t p99_ns; /* 99th percentile */
	uint64_t max_ns; /* largest of the runs' maxima */
};

/* Called once per difference of setup; base or other is NULL when the key is absent
 * from that file. key is like "env.kernel" or "workload.params.size". */
typedef void (*lg_cmp_diff_fn)(const char *key, const json_t *base, const json_t *other,
			       void *ctx);

/* --- Files --- */

/* Read and check the result file at path (lg_cmp_doc_load, lg_cmp_file_init). 0, or
 * their errors. */
int lg_cmp_file_load(const char *path, struct lg_cmp_file *out, char *err, size_t errlen);
/* Read the result at path (a result JSON, or a --log: lg_cmp_log_load) into *out (a new
 * reference), unchecked. 0, or -errno / -EINVAL with err filled as "PATH: why" or
 * "PATH:LINE:COL: why" (JSON syntax errors, a log with nothing to read). */
int lg_cmp_doc_load(const char *path, json_t **out, char *err, size_t errlen);
/* Read the --log file at path as a result (compare_log.c): a complete log's result
 * line; a log cut off mid-run (no result line, maybe a last line cut short, which is
 * dropped) as a partial result built from its lines: the header's env, config and
 * workload, runs of status "partial" with their timeline, totals summed from it and
 * kernel messages, no latency percentiles, and "log_cut_off" (note, lines, dropped_line,
 * dropped_bytes, runs, intervals, after_s, missing: the result keys it cannot give).
 * 0, or -errno / -EINVAL with err "PATH:LINE:COL: why" (a bad line before the last; a
 * log cut off before its first interval: nothing measured to read). */
int lg_cmp_log_load(const char *path, json_t **out, char *err, size_t errlen);
/* One line saying doc is partial: a cut-off log's note ("partial run (log cut off
 * after 7.0 s): totals from the timeline (7 intervals: 1200 ops, 0 bytes read, 4800000
 * bytes written); latency percentiles not available"), or "N of M runs partial" for a
 * result with runs of status "partial". False (buf untouched) when neither; buf of
 * LG_CMP_NOTE_MAX holds it whole. */
#define LG_CMP_NOTE_MAX 320
bool lg_cmp_partial_note(const json_t *doc, char *buf, size_t len);
/* For a cut-off log's document, its notes on f, each "PROG: PATH...": the last line
 * cut short and dropped (with its line number), and lg_cmp_partial_note. Nothing for a
 * whole result. */
void lg_cmp_log_notes(FILE *f, const char *prog, const char *path, const json_t *doc);
/* Check an already parsed document; takes over the caller's reference to doc (also on
 * failure). 0, or -EINVAL / -ENOMEM with err filled as "PATH: why"; -ENODATA when the
 * document is a sound result whose every run measured nothing
 * (lg_cmp_run_measured_nothing). */
int lg_cmp_file_init(const char *path, json_t *doc, struct lg_cmp_file *out, char *err,
		     size_t errlen);
/* Whether a run of a result measured nothing: a duration_s of 0 (its setup failed, or it
 * was stopped in setup or warm-up); without a duration, a status "failed". A run
 * "failed" for errors in its measured phase or cleanup did measure. */
bool lg_cmp_run_measured_nothing(const json_t *run);
/* Load paths[0..n-1] as n batches of one setup (the same workload), their runs in
 * order; n = 1 is lg_cmp_file_load. The name of several is "A1.json+A2.json". 0, or
 * -errno / -EINVAL with err filled. */
int lg_cmp_file_load_batches(char *const *paths, size_t n, struct lg_cmp_file *out,
			     char *err, size_t errlen);
/* Fill the batch fields of f's groups: run r of f->runs is in the batch its member
 * LG_CMP_BATCH_KEY says (0 when absent; runs of a batch are contiguous). 0 or -ENOMEM. */
int lg_cmp_file_set_batches(struct lg_cmp_file *f);
#define LG_CMP_BATCH_KEY "_compare_batch" /* set on runs by lg_cmp_file_load_batches */
/* Free what f owns; f may be zeroed or NULL. */
void lg_cmp_file_release(struct lg_cmp_file *f);

/* --- Decisions --- */

/* Compare other against base over all their runs. Cannot fail on checked files. */
void lg_cmp_decide(const struct lg_cmp_file *base, const struct lg_cmp_file *other,
		   const struct lg_cmp_opts *opts, struct lg_cmp_result *out);
/* Compare two groups of runs (the same client count of two files). */
void lg_cmp_decide_group(const struct lg_cmp_group *base, const struct lg_cmp_group *other,
			 const struct lg_cmp_opts *opts, struct lg_cmp_result *out);
#define LG_CMP_ANY_CLIENTS UINT_MAX /* lg_cmp_group_of: the only group, whatever its count */
/* The group of f with client count clients, or NULL. */
const struct lg_cmp_group *lg_cmp_group_of(const struct lg_cmp_file *f, unsigned clients);
/* Why other cannot be compared with base at all (a different workload, or, when either
 * is a sweep, no client count in common), as a static message; NULL when it can. Two
 * files of one client count each are compared whatever their counts. */
const char *lg_cmp_incomparable(const struct lg_cmp_file *base,
				const struct lg_cmp_file *other);
/* True when metric m is significant: tested, p < opts->alpha and |change| at least
 * opts->min_effect_pct (any change from a zero baseline). The verdict is faster or slower
 * exactly when its deciding metric is; the tables mark every significant metric. */
bool lg_cmp_metric_significant(const struct lg_cmp_metric_result *m,
			       const struct lg_cmp_opts *opts);
/* True when the rank test of metric m says otherwise than Welch's test at alpha, though
 * it could have reached alpha (what rank_disagrees says of the deciding metric). */
bool lg_cmp_metric_rank_disagrees(const struct lg_cmp_metric_result *m, double alpha);
/* True when r is significantly slower (p < alpha) than the baseline by more than pct %
 * on the deciding metric: the --fail-if-slower condition. */
bool lg_cmp_slower_than(const struct lg_cmp_result *r, double alpha, double pct);
/* "faster", "slower", "no significant difference", "no verdict". */
const char *lg_verdict_name(enum lg_verdict v);
/* The verdict of r as printed and in JSON: lg_verdict_name, except that a significant
 * change below min_effect_pct is "significant, but smaller than --min-effect" rather
 * than "no significant difference" (it is still LG_VERDICT_SAME). Static string. */
const char *lg_cmp_verdict_name(const struct lg_cmp_result *r);
/* "throughput_mbps" or "ops_per_s" (the JSON key); unit: "MB/s" or "ops/s". */
const char *lg_cmp_metric_key(enum lg_cmp_metric m);
const char *lg_cmp_metric_unit(enum lg_cmp_metric m);

/* The batch part of a group comparison out (decided already): batches per side, the
 * variance components of a side with >= 2 batches; drift is left untested on such a
 * side (its runs' order spans batches). Cannot fail. */
void lg_cmp_batches_of(const struct lg_cmp_group *base, const struct lg_cmp_group *other,
		       const struct lg_cmp_opts *opts, struct lg_cmp_result *out);
/* The verdict of r from its deciding metric's test (set): faster or slower when
 * significant and at least min_effect_pct, else the same (below_min_effect when
 * significant but smaller). */
void lg_cmp_settle(struct lg_cmp_result *r, const struct lg_cmp_opts *opts);
/* r compares batch means, and one side has a single batch: test that batch against the
 * other side's batch means as a new observation (a prediction interval: se = s sqrt(1 +
 * 1/k), df = k - 1), so the spread between batches counts; the minimum detectable
 * effect and the batches needed follow. */
void lg_cmp_predict_batch(const struct lg_cmp_opts *opts, struct lg_cmp_result *r);
/* Test values v[0..n-1] (in run order) for drift at level alpha. Cannot fail: fewer than
 * 3 values leave out->tested false. */
void lg_cmp_drift_of(const double *v, size_t n, double alpha, struct lg_cmp_drift *out);

/* --- Setup differences and latency --- */

/* Call fn for each difference between the files' env, workload (name, sha256, params),
 * config and loadgen version. Only keys present in both are compared, so files from
 * versions that record more facts still compare cleanly. Returns the number found. */
size_t lg_cmp_setup_diffs(const struct lg_cmp_file *base, const struct lg_cmp_file *other,
			  lg_cmp_diff_fn fn, void *ctx);
/* Op type labels of either file's runs, in order of first appearance, as the keys of a
 * new JSON object (values are true). NULL on -ENOMEM. */
json_t *lg_cmp_op_labels(const struct lg_cmp_file *base, const struct lg_cmp_file *other);
/* p50, p99 and max of op type label over all runs of f: the runs' histograms merged by
 * adding the counts of identical [low, high] buckets, percentiles read from the merged
 * buckets (midpoints), max the largest of the runs' maxima. Without histograms only a
 * single run's own percentiles are used. 0 (have_pct false when unknown), or -ENOMEM. */
int lg_cmp_latency(const struct lg_cmp_file *f, const char *label, struct lg_cmp_latency *out);
/* The same over the runs of group g of f only. */
int lg_cmp_latency_group(const struct lg_cmp_file *f, const struct lg_cmp_group *g,
			 const char *label, struct lg_cmp_latency *out);

/* --- The command --- */

/* `loadgen compare [options] BASE.json OTHER.json...`, argv[0] = "compare". Returns
 * the exit status: 0, 2 (usage or unreadable file), LG_COMPARE_EXIT_SLOWER. */
int lg_compare_main(int argc, char **argv);

#endif
