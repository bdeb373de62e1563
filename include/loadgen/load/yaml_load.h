/* YAML workload loader (libyaml): text -> compiled struct lg_workload. */
#ifndef LOADGEN_YAML_LOAD_H
#define LOADGEN_YAML_LOAD_H

#include <stddef.h>

#include "loadgen/model/workload.h"

/* Parse and compile a YAML workload.
 * fname: name used in messages ("loadfiles/x.yaml", or "builtin:netbench");
 * text/len: the document; overrides: -p NAME=VALUE pairs (borrowed), each must name a
 * declared parameter; clients: the value of ${clients}.
 * Returns 0 and *out (caller destroys), or a negative errno with err filled with
 * "FILE:LINE:COL: message" (-EINVAL for workload errors, -ENOMEM). */
int lg_yaml_load(const char *fname, const char *text, size_t len,
		 const struct lg_param *overrides, size_t noverrides, unsigned clients,
		 struct lg_workload **out, char *err, size_t errlen);

/* A declared parameter of a workload, as lg_yaml_describe reports it. */
struct lg_yparam_info {
	char *name;       /* as declared (owned) */
	char *value;      /* its default, or the -p value given (owned) */
	const char *kind; /* what its uses as a whole value convert it to: "size",
			     "duration", "number"; "path" or "text" when only part of values
			     ("${n}ms"); or "unused" (static) */
	const char *key;  /* the key of its first use, such as "size" (static; "" if unused) */
};

/* lg_yaml_load, also returning the declared parameters in declaration order in *params
 * (caller frees with lg_yparam_info_free) and their number in *nparams. params may be
 * NULL. Steps switched off by 'when' do not count as uses. */
int lg_yaml_describe(const char *fname, const char *text, size_t len,
		     const struct lg_param *overrides, size_t noverrides, unsigned clients,
		     struct lg_workload **out, struct lg_yparam_info **params, size_t *nparams,
		     char *err, size_t errlen);
/* Free what lg_yaml_describe returned. NULL is fine. */
void lg_yparam_info_free(struct lg_yparam_info *p, size_t n);

#endif
