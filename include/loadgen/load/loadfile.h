/* Loadfiles: reading one, and compiling it with the loader its content calls for. */
#ifndef LOADGEN_LOADFILE_H
#define LOADGEN_LOADFILE_H

#include <stddef.h>

#include "loadgen/model/workload.h"

#define LG_LOADFILE_MAX (256u << 20) /* largest loadfile read (dbench's is ~26 MB) */
#define LG_LOADFILE_NDIRS 3          /* data directories searched by name, at most */
#define LG_LOADFILE_PATH_MAX 4096    /* longest data directory or found path, with NUL */
#define LG_LOADFILE_NAME_MAX 64      /* longest shipped loadfile name listed, with NUL */
#define LG_LOADFILE_SHIPPED_MAX 64   /* most shipped loadfile names listed */

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

/* Finding loadfiles by name (src/load/loadfile_find.c). */

/* The directories an installed loadfile is looked up in, in order (see loadfile_find.c):
 * next to the executable (../share/loadgen/loadfiles), the source tree's loadfiles/ when
 * running from the build directory, the configured install prefix's. Returns how many
 * were written to dirs (at most max). */
size_t lg_loadfile_datadirs(char dirs[][LG_LOADFILE_PATH_MAX], size_t max);

/* Resolve name into path: name itself when it is a file here or contains a '/'; else the
 * first of DIR/name, DIR/name.yaml over dirs. Returns 0, -ENOENT (nothing found), or
 * -ENAMETOOLONG. */
int lg_loadfile_search(const char *name, const char dirs[][LG_LOADFILE_PATH_MAX],
		       size_t ndirs, char *path, size_t pathlen);

/* The shipped loadfiles in dirs: every NAME.yaml (or NAME.yml) as NAME, sorted, each name
 * once, into names. Unreadable directories are skipped. Returns how many (at most max). */
size_t lg_loadfile_shipped(const char dirs[][LG_LOADFILE_PATH_MAX], size_t ndirs,
			   char names[][LG_LOADFILE_NAME_MAX], size_t max);

/* The message for a name lg_loadfile_search did not find in dirs, into err: "NAME: No such
 * file or directory; no installed loadfile of that name", "; did you mean 'X'?" for the
 * closest shipped loadfile when one is close, the shipped loadfiles and the directories. */
void lg_loadfile_not_found(const char *name, const char dirs[][LG_LOADFILE_PATH_MAX],
			   size_t ndirs, char *err, size_t errlen);

/* Resolve name over lg_loadfile_datadirs and read it (lg_loadfile_read): *text (caller
 * frees), *len and the resolved path. Returns 0, or a negative errno with err filled
 * (lg_loadfile_not_found's message, or "PATH: why"). `-c` and `loadgen show` both use it,
 * so both find the same files. */
int lg_loadfile_load(const char *name, char **text, size_t *len, char *path, size_t pathlen,
		     char *err, size_t errlen);

#endif
