/* A machine's batch-to-batch spread for one workload and setup: what `loadgen calibrate`
 * measures and stores, and `loadgen compare` adds to the noise of a comparison of one
 * batch against one.
 *
 * The store is one JSON file (schema LG_CALIB_SCHEMA) of entries, each with a key: the
 * facts of the environment and setup that make two batches comparable — host, CPU,
 * memory, filesystem, device, mount options, workload (sha256 and parameters), client
 * count and every load-shaping setting — but not the kernel, which is what users compare
 * across. A result whose key matches no entry gets no calibration. */
#ifndef LOADGEN_CALIBRATION_H
#define LOADGEN_CALIBRATION_H

#include <stddef.h>

#include <jansson.h>

#include "loadgen/compare/compare.h"

#define LG_CALIB_SCHEMA "loadgen-calibration/1"
#define LG_CALIB_MIN_BATCHES 3 /* fewest batches a calibration is made from */

/* One entry: the spread of batches at one client count. */
struct lg_calib {
	unsigned clients;                     /* client count */
	size_t batches;                       /* A/A batches it was made from */
	size_t runs;                          /* runs in all */
	double mean[LG_CMP_NMETRICS];         /* grand mean of each metric */
	double var_between[LG_CMP_NMETRICS];  /* between-batch variance component */
	double var_within[LG_CMP_NMETRICS];   /* within-batch (run-to-run) variance */
	char created[32];                     /* when it was stored, UTC ISO 8601 */
	char path[1024];                      /* the store it came from */
};

/* The default store: $XDG_DATA_HOME/loadgen/calibration.json, else
 * $HOME/.local/share/loadgen/calibration.json. 0, or -ENOENT when neither is set. */
int lg_calib_default_path(char *buf, size_t len);
/* The key of result document doc at client count clients: a new object, NULL on
 * -ENOMEM. */
json_t *lg_calib_key(const json_t *doc, unsigned clients);
/* Measure the spread of the batches of f (loaded with lg_cmp_file_load_batches, at least
 * LG_CALIB_MIN_BATCHES) at each client count and store it at path, replacing entries of
 * the same key; the directory is created. out[0..*nout-1] get the entries (out holds
 * max). 0, or -errno / -EINVAL with err filled. */
int lg_calib_store(const char *path, const struct lg_cmp_file *f, struct lg_calib *out,
		   size_t max, size_t *nout, char *err, size_t errlen);
/* The entry of store path that matches file f at client count clients. 0 found,
 * -ENOENT none (or no store), -EINVAL a malformed store (err filled), -ENOMEM. */
int lg_calib_find(const char *path, const struct lg_cmp_file *f, unsigned clients,
		  struct lg_calib *out, char *err, size_t errlen);
/* Batches per side (of c's runs per batch) that detect a change of pct % of metric m
 * with LG_COMPARE_POWER at alpha, given c's spread; 0 when over 1000. */
size_t lg_calib_batches_needed(const struct lg_calib *c, enum lg_cmp_metric m, double pct,
				double alpha);
/* Add calibration c to r, a comparison of one batch against one (g_base, g_other its
 * runs): the between-batch variance (as a share of the mean) joins the standard error,
 * and the p-value, verdict, minimum detectable effect and batches needed are
 * recomputed. Nothing happens when either side has fewer than 2 runs. */
void lg_calib_apply(const struct lg_calib *c, const struct lg_cmp_opts *opts,
		    struct lg_cmp_result *r);

#endif
