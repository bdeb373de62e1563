/* YAML workload loader (libyaml): text -> compiled struct lg_workload. */
#ifndef LOADGEN_YAML_LOAD_H
#define LOADGEN_YAML_LOAD_H

#include <stddef.h>

#include "loadgen/workload.h"

/* Parse and compile a YAML workload.
 * fname: name used in messages ("loadfiles/x.yaml", or "builtin:netbench");
 * text/len: the document; overrides: -p NAME=VALUE pairs (borrowed), each must name a
 * declared parameter; clients: the value of ${clients}.
 * Returns 0 and *out (caller destroys), or a negative errno with err filled with
 * "FILE:LINE:COL: message" (-EINVAL for workload errors, -ENOMEM). */
int lg_yaml_load(const char *fname, const char *text, size_t len,
		 const struct lg_param *overrides, size_t noverrides, unsigned clients,
		 struct lg_workload **out, char *err, size_t errlen);

#endif
