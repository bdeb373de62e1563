/* Compiled workload -> YAML text (the format of loadfiles/README.md).
 *
 * The text compiles back, with lg_yaml_load, into the same op arrays (every field but
 * the source line numbers) and the same labels: repeat and choose blocks are rebuilt
 * from their jumps, and an op whose stats label is not its op name gets a 'label:'.
 * Parameters are already resolved in a compiled workload, so their values are written
 * into the ops and the parameters only listed in a comment. */
#ifndef LOADGEN_YAML_WRITE_H
#define LOADGEN_YAML_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "loadgen/model/workload.h"

/* Write wl to f as YAML. Returns 0; -EINVAL with err set when an op cannot be
 * expressed in YAML (open flags YAML has no name for, say); -EIO when writing to f
 * failed (errno of the failing call is left in errno). */
int lg_yaml_write(FILE *f, const struct lg_workload *wl, char *err, size_t errlen);

#endif
