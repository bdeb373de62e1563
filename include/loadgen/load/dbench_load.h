/* dbench loadfiles (client.txt, as shipped with dbench 4) -> compiled struct lg_workload.
 *
 * A dbench loadfile is replayed as it is: each line is one op (NTCreateX, ReadX, ...),
 * compiled into the same op array a YAML workload gives, in the run phase (dbench loops
 * over the file). loadfiles/README.md, section "dbench loadfiles", describes the
 * mapping to system calls, statuses and labels. */
#ifndef LOADGEN_DBENCH_LOAD_H
#define LOADGEN_DBENCH_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "loadgen/model/workload.h"

/* Whether text looks like a dbench loadfile: its first line that is neither blank nor a
 * '#' comment starts with a dbench op or directive word (NTCreateX, ReadX, LOOP, ...),
 * optionally after a timestamp. Decided by content, never by the file name. */
bool lg_dbench_detect(const char *text, size_t len);

/* Parse and compile a dbench loadfile. fname is used in messages; text/len is the
 * file (need not be NUL-terminated); clients is the number of clients (accepted for
 * symmetry with lg_yaml_load; dbench's per-client names come from ${client}).
 * Returns 0 and *out (caller destroys), or -EINVAL with err set to
 * "FILE:LINE: message", or -ENOMEM. */
int lg_dbench_load(const char *fname, const char *text, size_t len, unsigned clients,
		   struct lg_workload **out, char *err, size_t errlen);

#endif
