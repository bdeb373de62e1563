/* loadgen ab's internals shared by its CLI and run loop (ab.c) and its outputs
 * (ab_output.c). */
#ifndef LOADGEN_AB_PRIV_H
#define LOADGEN_AB_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "loadgen/app/ab.h"

#define AB_MAX_FWD 256  /* most run options forwarded to each run */
#define AB_MAX_OPTS 32  /* most extra options of one variant */
#define AB_PATH_MAX 4096

/* One variant: how to set it up and what its runs measured. */
struct ab_variant {
	const char *name;             /* as given (--variant NAME=, or the -D directory) */
	const char *cmd;              /* shell command run before each of its runs; NULL */
	const char *dir;              /* its -D directory; NULL: the shared one (or .) */
	char *opts[AB_MAX_OPTS];      /* its own extra run options (--variant-opts) */
	size_t nopts;                 /* entries of opts */
	char *optbuf;                 /* owns the strings of opts */
	double vals[LG_AB_MAX_ROUNDS]; /* per finished round: the metric of its run */
	double mbps[LG_AB_MAX_ROUNDS]; /* per round: throughput (MB/s) */
	double opsps[LG_AB_MAX_ROUNDS]; /* per round: ops/s */
	json_t *doc;                  /* its result file: the first run's document, with the
					 runs of every finished round (owned) */
	json_t *pending;              /* this round's run, kept until the round finishes */
	char cleanup[160];            /* the pending run's cleanup failures ("1 unexpected
					 result: ENOTEMPTY=1") when only its cleanup failed,
					 else "" */
	char path[AB_PATH_MAX];       /* where its result file is written */
};

/* One invocation of loadgen ab. */
struct ab_ctx {
	struct ab_variant v[LG_AB_MAX_VARIANTS]; /* the variants, A first */
	size_t nvar;                  /* variants given */
	size_t ndirs;                 /* -D options given */
	const char *dirs[LG_AB_MAX_VARIANTS]; /* their values */
	size_t rounds;                /* rounds asked for */
	size_t done;                  /* rounds finished */
	uint64_t seed;                /* --seed (0: balanced order) */
	const char *json_path;        /* --json FILE: the analysis; NULL */
	const char *out_dir;          /* --out-dir: where result files go (default .) */
	bool fail_if_slower;          /* --fail-if-slower given */
	double slower_pct;            /* its PCT */
	char *fwd[AB_MAX_FWD];        /* run options forwarded to every run, NCLIENTS last */
	size_t nfwd;                  /* entries of fwd */
	const char *nclients;         /* the NCLIENTS argument */
	size_t order[LG_AB_MAX_ROUNDS][LG_AB_MAX_VARIANTS]; /* variant indices run per round */
	bool use_ops;                 /* the metric is ops/s (no data moved) */
	struct lg_ab_analysis an[LG_AB_MAX_VARIANTS]; /* an[i]: variant i against A, i >= 1 */
	struct lg_ab_drift drift;     /* of the per-round mean of all variants */
	bool interrupted;             /* stopped by a signal before every round ran */
	json_t *cleanup_errors;       /* runs of finished rounds that count although their
					 cleanup failed: {round, variant, errors,
					 errors_by_errno, not_executed} (owned) */
};

/* Read the command line into c (argv[0] is "ab"); --help prints and exits. 0, or the
 * exit status of a usage error (said). */
int lg_ab_parse(struct ab_ctx *c, int argc, char **argv);
/* Add the run document run (taken over) of a finished round to v's result file. 0 or
 * -ENOMEM. */
int lg_ab_variant_add(struct ab_variant *v, json_t *run_doc);
/* Write v's result file (summary recomputed over its runs). 0 or -errno (said). */
int lg_ab_variant_write(const struct ab_ctx *c, struct ab_variant *v, size_t n);
/* head, then ":" and the failure paragraphs of a run's text report (the file out_path)
 * onto to, indented, when it has any (in ab_child.c). */
void lg_ab_child_say(FILE *to, const char *head, const char *out_path);
/* True when the one run of result doc measured without a fault and only its cleanup
 * had unexpected results (or ops not executed); note gets them ("1 unexpected result:
 * ENOTEMPTY=1"). */
bool lg_ab_cleanup_only(const json_t *doc, char *note, size_t len);
/* Print the paired analyses c->an and the verdict lines. */
void lg_ab_print(const struct ab_ctx *c);
/* The analyses as JSON (loadgen-ab/1 for two variants, loadgen-ab/2 for more), a new
 * reference; NULL on -ENOMEM. */
json_t *lg_ab_json(const struct ab_ctx *c);

#endif
