/* The arguments of the calls of recorded programs (yaml_meta.c's ops and seek,
 * fallocate, getdents), as the writer (yaml_write.c) puts them in a step: this file
 * says which keys and values an op has, yaml_write.c how they are printed. Only what
 * differs from the loader's defaults is listed, so loading the text gives the op back. */
#include "yaml_priv.h"

#include <errno.h>
#include <fcntl.h>

/* Append an argument to a[*n]. */
static void put(struct lg_ywarg *a, size_t *n, struct lg_ywarg arg)
{
	a[(*n)++] = arg;
}

/* A path argument: index path of wl->paths, with its variable. */
static void path(const char *key, uint32_t p, uint16_t var, struct lg_ywarg *a, size_t *n)
{
	put(a, n, (struct lg_ywarg){ key, LG_YWARG_PATH, .num = p, .var = var });
}

/* The op's path, or its file. */
static void object(const struct lg_workload *wl, const struct lg_op *op, struct lg_ywarg *a,
		   size_t *n)
{
	if (op->slot == LG_NO_SLOT)
		path("path", op->path, op->var, a, n);
	else
		put(a, n, (struct lg_ywarg){ "file", LG_YWARG_STR, .s = wl->slots[op->slot] });
}

static void nofollow(const struct lg_op *op, struct lg_ywarg *a, size_t *n)
{
	if (op->flags & AT_SYMLINK_NOFOLLOW)
		put(a, n, (struct lg_ywarg){ "nofollow", LG_YWARG_WORD, .s = "true" });
}

/* Flags named by tab under key, unless they are 0. */
static void flags(const char *key, const struct lg_yflag *tab, int v, struct lg_ywarg *a,
		  size_t *n)
{
	if (v)
		put(a, n, (struct lg_ywarg){ key, LG_YWARG_FLAGS, .tab = tab, .flags = v });
}

/* An xattr op: the object, nofollow, name, size, flags. */
static void xattr(const struct lg_workload *wl, const struct lg_op *op, struct lg_ywarg *a,
		  size_t *n)
{
	object(wl, op, a, n);
	nofollow(op, a, n);
	if (op->kind != LG_OP_LISTXATTR)
		put(a, n, (struct lg_ywarg){ "name", LG_YWARG_STR, .s = wl->paths[op->path2] });
	if (op->size)
		put(a, n, (struct lg_ywarg){ "size", LG_YWARG_NUM, .num = op->size });
	flags("flags", lg_yxattr_flags, op->flags & ~AT_SYMLINK_NOFOLLOW, a, n);
}

/* The file ops: seek, fallocate, getdents. */
static void file_op(const struct lg_workload *wl, const struct lg_op *op, struct lg_ywarg *a,
		    size_t *n)
{
	put(a, n, (struct lg_ywarg){ "file", LG_YWARG_STR, .s = wl->slots[op->slot] });
	if (op->kind == LG_OP_GETDENTS) {
		put(a, n, (struct lg_ywarg){ "size", LG_YWARG_NUM, .num = op->size });
		return;
	}
	if (op->offset) /* a seek's may be negative */
		put(a, n, (struct lg_ywarg){ "offset", op->kind == LG_OP_SEEK ? LG_YWARG_INT
									  : LG_YWARG_NUM,
					     .num = op->offset });
	if (op->kind == LG_OP_SEEK) {
		const char *name = NULL; /* none: the writer fails */

		for (size_t k = 0; lg_yseek_whence[k].name; k++)
			if (lg_yseek_whence[k].value == op->flags)
				name = lg_yseek_whence[k].name;
		if (op->flags != SEEK_SET)
			put(a, n, (struct lg_ywarg){ "whence", LG_YWARG_WORD, .s = name,
						     .flags = op->flags });
		return;
	}
	put(a, n, (struct lg_ywarg){ "size", LG_YWARG_NUM, .num = op->size });
	flags("mode", lg_yfalloc_modes, op->flags, a, n);
}

int lg_ywrite_meta_args(const struct lg_workload *wl, const struct lg_op *op,
			struct lg_ywarg *a, size_t *n)
{
	*n = 0;
	switch (op->kind) {
	case LG_OP_LINK:
		path("from", op->path, op->var, a, n);
		path("to", op->path2, op->var2, a, n);
		return 0;
	case LG_OP_SYMLINK:
		path("target", op->path2, op->var2, a, n);
		path("path", op->path, op->var, a, n);
		return 0;
	case LG_OP_READLINK:
		path("path", op->path, op->var, a, n);
		return 0;
	case LG_OP_CHMOD:
		object(wl, op, a, n);
		put(a, n, (struct lg_ywarg){ "mode", LG_YWARG_MODE,
					     .num = (uint64_t)op->flags });
		return 0;
	case LG_OP_CHOWN: case LG_OP_UTIMENS: case LG_OP_STATX:
		object(wl, op, a, n);
		nofollow(op, a, n);
		return 0;
	case LG_OP_ACCESS:
		path("path", op->path, op->var, a, n);
		flags("mode", lg_yaccess_modes, op->flags, a, n);
		return 0;
	case LG_OP_SEEK: case LG_OP_FALLOCATE: case LG_OP_GETDENTS:
		file_op(wl, op, a, n);
		return 0;
	case LG_OP_SETXATTR: case LG_OP_GETXATTR: case LG_OP_LISTXATTR:
	case LG_OP_REMOVEXATTR:
		xattr(wl, op, a, n);
		return 0;
	default:
		return -ENOENT;
	}
}
