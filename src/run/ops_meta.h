/* The calls a recorded program makes on names and attributes, as ops (ops_meta.c).
 * Private to the engine: ops.c puts these in its exec table. Each has the signature of
 * the functions there and returns 0 or the errno of its call. An op with a path and a
 * file form takes the file when its slot is set (lg_op_exec has checked it is open). */
#ifndef LOADGEN_OPS_META_H
#define LOADGEN_OPS_META_H

#include <stdint.h>

#include "client.h"

/* Bytes of lg_client.abspath: the run directory's absolute path, then a path below it. */
#define LG_ABSPATH_BUF 8192

/* LG_OP_LINK, LG_OP_SYMLINK: linkat(path, path2, 0), symlinkat(path2, path). */
int lg_op_link(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);
/* LG_OP_READLINK: readlinkat(path) into the client's buffer (op->size bytes). */
int lg_op_readlink(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes);
/* LG_OP_CHMOD, LG_OP_CHOWN (to the effective uid and gid), LG_OP_UTIMENS (to now):
 * the *at call on path with op->flags, or the f- call on the slot's file. */
int lg_op_attr(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);
/* LG_OP_ACCESS: faccessat(path, op->flags). LG_OP_STATX: statx of path or file. */
int lg_op_access(struct lg_client *c, const struct lg_op *op, uint64_t call,
		 uint64_t *bytes);
int lg_op_statx(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);
/* LG_OP_SETXATTR, GETXATTR, LISTXATTR, REMOVEXATTR: the f- call on the slot's file, or
 * the path call (the l- one with AT_SYMLINK_NOFOLLOW) on the absolute path. */
int lg_op_xattr(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes);

/* *out = the absolute form of path (relative to the run directory), for the calls that
 * have no *at form, in c->abspath: the run directory's absolute path (learnt from
 * /proc/self/fd on first use), then path copied after it, no formatting. 0, ENOMEM, or
 * ENAMETOOLONG. */
int lg_op_abspath(struct lg_client *c, const char *path, const char **out);

#endif
