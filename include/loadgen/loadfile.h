/* Loadfiles: reading one, and compiling it with the loader its content calls for. */
#ifndef LOADGEN_LOADFILE_H
#define LOADGEN_LOADFILE_H

#include <stddef.h>

#include "loadgen/workload.h"

#define LG_LOADFILE_MAX (256u << 20) /* largest loadfile read (dbench's is ~26 MB) */

/* Read all of path into a NUL-terminated malloc'd buffer (*text, caller frees).
 * Regular files and pipes only. Returns 0, or a negative errno: -EISDIR for a
 * directory, -ENODEV for a device or socket, -EFBIG past LG_LOADFILE_MAX, or open's and
 * read's own. */
int lg_loadfile_read(const char *path, char **text, size_t *len);
/* What lg_loadfile_read's negative errno rc means for the user (static string). */
const char *lg_loadfile_strerror(int rc);

/* Compile text: a dbench loadfile when lg_dbench_detect recognises it (it takes no
 * parameters), else YAML with params as -p overrides. Returns 0 and *wl, or a negative
 * errno with err filled ("NAME:LINE[:COL]: message"). */
int lg_loadfile_compile(const char *name, const char *text, size_t len,
			const struct lg_param *params, size_t nparams, unsigned clients,
			struct lg_workload **wl, char *err, size_t errlen);

#endif
