/* What a run ran on, for the result file. Gathered once, after the run, off the hot
 * path; more sources (CPU, memory, filesystem, device) are expected to join here. */
#ifndef LOADGEN_SYSINFO_H
#define LOADGEN_SYSINFO_H

#include <jansson.h>

/* Build the result's "env" object: {"kernel": uname release, "kernel_version": uname
 * version, "hostname", "arch": uname machine}. *out gets a new reference (the caller's).
 * Returns 0, -ENOMEM, or the negative errno of a failed uname. */
int lg_sysinfo_json(json_t **out);

#endif
