/* A temporary file beside an output, renamed over it once written, so the output is
 * never left half-written (import and record). Private to src/app. */
#ifndef LOADGEN_TMPOUT_H
#define LOADGEN_TMPOUT_H

#include <stdio.h>

/* Open a new temporary file beside out, with the mode a new file gets (mkstemp makes
 * it 0600). *tmp: its name (caller frees), *f: the file. 0 or a negative errno. */
int lg_tmpout_open(const char *out, char **tmp, FILE **f);

#endif
