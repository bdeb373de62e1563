/* The run directory: created by loadgen inside the target directory, removed without
 * ever following a symbolic link, so nothing outside it can be touched. */
#ifndef LOADGEN_RUNDIR_H
#define LOADGEN_RUNDIR_H

#include <stdint.h>

#include <stddef.h>

/* Create "PARENT/loadgen.XXXXXX" (mode 0755) and open it. *path gets the malloc'd path
 * (caller frees), *fd a descriptor of the directory. Returns 0, or a negative errno with
 * err filled: "PARENT: not a directory", "PARENT: Permission denied", ... */
/* Check that parent is a directory loadgen can create its run directory in. 0, or a
 * negative errno with err filled ("PARENT: why"). */
int lg_rundir_check(const char *parent, char *err, size_t errlen);
int lg_rundir_create(const char *parent, char **path, int *fd, char *err, size_t errlen);

/* Remove everything inside the directory open as dirfd, depth first, with unlinkat
 * relative to directory descriptors; symbolic links are removed, never followed.
 * Returns 0 or the first negative errno met (it keeps going past errors). */
int lg_rundir_empty(int dirfd);

/* Empty and remove the run directory path (opened as dirfd, which is closed).
 * Returns 0 or a negative errno. */
/* Count the entries directly in dirfd (not below them) into *n. 0 or a negative errno. */
int lg_rundir_count(int dirfd, uint64_t *n);
int lg_rundir_remove(const char *path, int dirfd);

#endif
