/* dbench's SMB-like ops as POSIX calls, in the style of dbench's fileio backend.
 * Private to the engine: ops.c puts these in its exec table. Each has the signature of
 * the functions there and returns 0 or the errno of the call that decided the result. */
#ifndef LOADGEN_OPS_DBENCH_H
#define LOADGEN_OPS_DBENCH_H

#include <stdint.h>

#include "client.h"

/* LG_OP_NTCREATE: stat, [mkdir,] open, fstat. */
int lg_op_ntcreate(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes);
/* LG_OP_DELTREE: remove a tree, never following symbolic links. */
int lg_op_deltree(struct lg_client *c, const struct lg_op *op, uint64_t call,
		  uint64_t *bytes);
/* LG_OP_STATFS: fstatvfs of the run directory. */
int lg_op_statfs(struct lg_client *c, const struct lg_op *op, uint64_t call,
		 uint64_t *bytes);
/* LG_OP_SETINFO: fstat, then set the file's times a little into the past. */
int lg_op_setinfo(struct lg_client *c, const struct lg_op *op, uint64_t call,
		  uint64_t *bytes);
/* LG_OP_FIND: stat a name, or search a directory for a pattern. */
int lg_op_find(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);
/* LG_OP_LOCK, LG_OP_UNLOCK: byte-range lock or unlock (open file description locks). */
int lg_op_lock(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);

#endif
