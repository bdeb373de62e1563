/* The result document with the monitor's parts, and --log's first and last lines: the
 * glue main uses between a run's structs and its outputs (run_output.c). */
#ifndef LOADGEN_RUN_OUTPUT_H
#define LOADGEN_RUN_OUTPUT_H

#include <stddef.h>

#include <jansson.h>

#include "loadgen/model/config.h"
#include "loadgen/counters/counters.h"
#include "loadgen/model/workload.h"

/* lg_result_json_build, plus each run's monitor (lg_monitor_json). New reference or NULL. */
json_t *lg_run_output_result(const struct lg_config *cfg, const struct lg_workload *wl,
			     const struct lg_run *runs, size_t n);
/* Open cfg->log_path (when set) into cfg->runlog and write its header line (env, config,
 * workload). 0, or a negative errno with err filled. */
int lg_run_output_log_open(struct lg_config *cfg, const struct lg_workload *wl, char *err,
			   size_t errlen);
/* Write doc (the result, may be NULL: nothing is written) as the last line of cfg->runlog,
 * close it and clear cfg->runlog. 0, or a negative errno with err filled. */
int lg_run_output_log_close(struct lg_config *cfg, json_t *doc, char *err, size_t errlen);

#endif
