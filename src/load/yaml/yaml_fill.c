/* YAML file ops: the arguments of open, create, close and the ops that take a file or
 * a path (unlink, mkdir, rmdir, stat, rename, ...), truncate and sleep, into their
 * lg_op. The fill functions of yaml_steps.c's op table, kept apart so that the table and
 * the step compiler stay short; yaml_io.c has read and write, yaml_dbench.c dbench's ops. */
#include "yaml_priv.h"

#include <fcntl.h>
#include <string.h>

/* Shared by open and create; base holds the flags the op implies. */
static int fill_open_flags(struct lg_yctx *c, const struct lg_ynode *const *v,
			   struct lg_op *op, int base)
{
	unsigned seen = 0, access;
	int rc = lg_ypath(c, v[0], "path", &op->path, &op->var);

	if (!rc)
		rc = lg_yslot_bind(c, v[1], "as", &op->slot);
	if (!rc && v[2])
		rc = lg_yflag_set(c, v[2], "flag", lg_yopen_flags, &seen);
	if (rc)
		return rc;
	access = seen >> LG_YOPEN_ACCESS_FIRST;
	if (access & (access - 1))
		return lg_yfail(c, v[2], "flags read, write and rdwr exclude each other");
	op->flags = base | lg_yflag_value(lg_yopen_flags, seen) | (access ? 0 : O_RDWR);
	if ((op->flags & O_EXCL) && !(op->flags & O_CREAT) &&
	    (op->flags & O_TMPFILE) != O_TMPFILE) /* a tmpfile that can never be linked */
		return lg_yfail(c, v[2], "flag 'exclusive' needs 'create'");
	return 0;
}

int lg_yfill_open(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	return fill_open_flags(c, v, op, 0);
}

int lg_yfill_create(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	return fill_open_flags(c, v, op, O_CREAT);
}

int lg_yfill_file(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	return lg_yslot_use(c, v[0], "file", &op->slot);
}

int lg_yfill_syncfs(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	return v[0] ? lg_yslot_use(c, v[0], "file", &op->slot) : 0;
}

/* 'resolve: true' (n may be NULL: false): dbench's name resolution before the call,
 * as an imported dbench loadfile has it (LG_OP_RESOLVE, ops_dbench.c). */
static int fill_resolve(struct lg_yctx *c, const struct lg_ynode *n, struct lg_op *op)
{
	const char *s;
	int rc = n ? lg_ystring(c, n, "resolve", false, &s) : 0;

	if (rc || !n)
		return rc;
	if (!strcmp(s, "true") || !strcmp(s, "yes"))
		op->flags |= LG_OP_RESOLVE;
	else if (strcmp(s, "false") && strcmp(s, "no"))
		return lg_yfail(c, n, "bad boolean '%s' for 'resolve' (expected true, false, "
				"yes or no)", s);
	return 0;
}

int lg_yfill_path(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	return lg_ypath(c, v[0], "path", &op->path, &op->var);
}

/* unlink, mkdir, rmdir, stat: a path, and whether dbench's resolution comes first. */
int lg_yfill_named(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	int rc = lg_ypath(c, v[0], "path", &op->path, &op->var);

	return rc ? rc : fill_resolve(c, v[1], op);
}

/* rename: from, to, resolve, flags (renameat2's). */
int lg_yfill_rename(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	unsigned seen = 0;
	int rc = lg_ypath(c, v[0], "from", &op->path, &op->var);

	if (!rc)
		rc = lg_ypath(c, v[1], "to", &op->path2, &op->var2);
	if (!rc)
		rc = fill_resolve(c, v[2], op);
	if (!rc && v[3])
		rc = lg_yflag_set(c, v[3], "rename flag", lg_yrename_flags, &seen);
	if (!rc && seen && (op->flags & LG_OP_RESOLVE))
		return lg_yfail(c, v[3], "'flags' and 'resolve' exclude each other");
	op->flags |= lg_yflag_value(lg_yrename_flags, seen);
	return rc;
}

/* truncate: file or path (the table's one_of: exactly one), size. */
int lg_yfill_truncate(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	int rc = v[0] ? lg_yslot_use(c, v[0], "file", &op->slot)
		      : lg_ypath(c, v[2], "path", &op->path, &op->var);

	return rc ? rc : lg_ysize(c, v[1], "size", &op->size);
}

int lg_yfill_sleep(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	return lg_yduration(c, v[0], "duration", &op->size);
}
