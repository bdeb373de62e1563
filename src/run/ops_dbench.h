/* dbench's SMB-like ops as POSIX calls, the calls of dbench 4.0's fileio backend.
 * Private to the engine: ops.c puts these in its exec table. Each has the signature of
 * the functions there and returns 0 or the errno of the call that decided the result.
 * "resolve" below is dbench's name resolution: stat, and on failure a case-insensitive
 * search of the parent directory (open, fstat, getdents64 until found, close). */
#ifndef LOADGEN_OPS_DBENCH_H
#define LOADGEN_OPS_DBENCH_H

#include <stdint.h>

#include "client.h"

/* LG_OP_NTCREATE: resolve, [mkdir for a directory,] open, fstat. */
int lg_op_ntcreate(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes);
/* LG_OP_DELTREE: as dbench 4.0, unlink every file below path (stat of each entry),
 * leave the directories; never follows symbolic links. */
int lg_op_deltree(struct lg_client *c, const struct lg_op *op, uint64_t call,
		  uint64_t *bytes);
/* LG_OP_STATFS: fstatvfs of the run directory. */
int lg_op_statfs(struct lg_client *c, const struct lg_op *op, uint64_t call,
		 uint64_t *bytes);
/* LG_OP_SETINFO: fstat, then set the file's times a little into the past. */
int lg_op_setinfo(struct lg_client *c, const struct lg_op *op, uint64_t call,
		  uint64_t *bytes);
/* LG_OP_FIND: resolve a name; or resolve the literal pattern, then list up to size
 * entries of its directory, ENOENT when none matched. */
int lg_op_find(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);
/* LG_OP_LOCK, LG_OP_UNLOCK: byte-range lock or unlock (open file description locks). */
int lg_op_lock(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);

/* An LG_OP_STAT, UNLINK, RMDIR, MKDIR or RENAME with LG_OP_RESOLVE: resolve each
 * name, then the op's call (STAT: the resolution is all; dbench's Qpathinfo). */
int lg_op_resolved(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes);

/* *buf = client c's directory buffer for nesting level (LG_DIRSCAN_BUF bytes), made
 * on first use and kept until lg_client_fini. 0, ENOMEM, or ELOOP past LG_DIR_LEVELS. */
int lg_op_dirbuf(struct lg_client *c, unsigned level, char **buf);

struct lg_dirscan;
/* Open path under directory fd parent (lg_dirscan_open; like_opendir: with its fstat)
 * and start *s reading it into the buffer of nesting level. The caller closes s->fd.
 * 0 or an errno. */
int lg_op_dirscan(struct lg_client *c, int parent, const char *path, unsigned level,
		  int like_opendir, struct lg_dirscan *s);

#endif
