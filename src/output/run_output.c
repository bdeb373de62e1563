/* Between the runs and their outputs: the monitor's parts added to the result document,
 * and the first and last lines of --log (see run_output.h). */
#include "loadgen/output/run_output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loadgen/env/monitor.h"
#include "loadgen/output/result_json.h"
#include "loadgen/env/runlog.h"

json_t *lg_run_output_result(const struct lg_config *cfg, const struct lg_workload *wl,
			     const struct lg_run *runs, size_t n)
{
	json_t *doc = lg_result_json_build(cfg, wl, runs, n);
	json_t *a = json_object_get(doc, "runs");

	for (size_t i = 0; doc && i < n; i++) {
		if (lg_monitor_json(runs[i].mon, json_array_get(a, i))) {
			json_decref(doc);
			return NULL;
		}
	}
	return doc;
}

int lg_run_output_log_open(struct lg_config *cfg, const struct lg_workload *wl, char *err,
			   size_t errlen)
{
	static const char *const keys[] = { "loadgen", "command", "env", "config", "workload" };
	json_t *doc, *h;
	int rc;

	if (!cfg->log_path)
		return 0;
	rc = lg_runlog_open(cfg->log_path, &cfg->runlog, err, errlen);
	if (rc)
		return rc;
	doc = lg_result_json_build(cfg, wl, NULL, 0);
	h = json_pack("{s:s, s:s}", "schema", LG_LOG_SCHEMA, "result_schema",
		      json_string_value(json_object_get(doc, "schema")));
	for (size_t i = 0; h && doc && i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_set(h, keys[i], json_object_get(doc, keys[i]));
	json_decref(doc);
	rc = h ? lg_runlog_put(cfg->runlog, "header", h) : -ENOMEM;
	if (!rc)
		lg_runlog_sync(cfg->runlog);
	if (rc)
		snprintf(err, errlen, "%s: %s", cfg->log_path, strerror(-rc));
	return rc;
}

int lg_run_output_log_close(struct lg_config *cfg, json_t *doc, char *err, size_t errlen)
{
	int rc = 0, rc2;

	if (!cfg->runlog)
		return 0;
	if (doc)
		rc = lg_runlog_put(cfg->runlog, "result", json_pack("{s:O}", "result", doc));
	rc2 = lg_runlog_close(cfg->runlog);
	cfg->runlog = NULL;
	rc = rc ? rc : rc2;
	if (rc)
		snprintf(err, errlen, "%s: %s", cfg->log_path, strerror(-rc));
	return rc;
}
