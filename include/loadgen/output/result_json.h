/* The result file (schema "loadgen-result/1"), built with jansson. */
#ifndef LOADGEN_RESULT_JSON_H
#define LOADGEN_RESULT_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "loadgen/model/config.h"
#include "loadgen/counters/counters.h"
#include "loadgen/model/workload.h"

/* Build the whole result document. Returns a new reference, or NULL on -ENOMEM. */
json_t *lg_result_json_build(const struct lg_config *cfg, const struct lg_workload *wl,
			     const struct lg_run *runs, size_t nruns);
/* Check before a run that path can be written (its directory exists and is writable,
 * path is not a directory). 0, or a negative errno with err filled ("PATH: why"). */
int lg_result_json_check(const char *path, char *err, size_t errlen);
/* Write doc to path atomically: a temporary file in the same directory, fsync, rename.
 * 0, or a negative errno with err filled. */
int lg_result_json_write(const char *path, json_t *doc, char *err, size_t errlen);

#endif
