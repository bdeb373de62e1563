/* YAML forms of dbench's ops (ntcreate, find, lock, unlock, statfs), for the op table
 * of yaml_steps.c: fill functions with the signature of the ones there. v holds the
 * values of the op's keys in table order (NULL when not given). Each returns 0,
 * -EINVAL with the message in c->err, or -ENOMEM. */
#ifndef LOADGEN_YAML_DBENCH_H
#define LOADGEN_YAML_DBENCH_H

#include "yaml_priv.h"

/* ntcreate: path, as (optional: without it the file is closed again at once), flags
 * (directory, create, truncate). */
int lg_yfill_ntcreate(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
/* find: path (a last component with * or ? is a pattern), max. */
int lg_yfill_find(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
/* lock, unlock: file, offset, size. */
int lg_yfill_lock(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
/* An op without arguments (statfs). */
int lg_yfill_none(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);

#endif
