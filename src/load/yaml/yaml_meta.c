/* YAML forms of the calls a recorded program makes on names and attributes: link,
 * symlink, readlink, chmod, chown, utimens, access, statx, stat's follow and the xattr
 * ops, into their lg_op (the fill functions of yaml_steps.c's op table).
 *
 * Strings that are not paths (a symlink's target, an attribute's name) are kept in
 * wl->paths too, through path2: interned once at load time and expanded per client as
 * paths are, so an op still holds no pointer and its call needs no allocation. They are
 * checked here for what they are instead: a target must be relative and stay inside the
 * run directory from the link's own directory; a name must be non-empty and short. */
#include "yaml_priv.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#define MAX_PATH_TEMPLATE 2048 /* as for every YAML path */
#define MAX_NAME 255           /* bytes of an attribute name (XATTR_NAME_MAX) */
#define MAX_XATTR (64u << 10)  /* bytes of an attribute value or list (XATTR_SIZE_MAX) */
#define LINK_BUF 4096          /* readlink's buffer, as most programs size it */

int lg_ybool(struct lg_yctx *c, const struct lg_ynode *n, const char *what, bool *out)
{
	const char *s;
	int rc = lg_ystring(c, n, what, false, &s);

	if (rc)
		return rc;
	*out = !strcmp(s, "true") || !strcmp(s, "yes");
	if (*out || !strcmp(s, "false") || !strcmp(s, "no"))
		return 0;
	return lg_yfail(c, n, "bad boolean '%s' for '%s' (expected true, false, yes or no)", s,
			what);
}

/* 'nofollow: true' (n may be NULL: false): the call does not follow a last symlink. */
static int fill_nofollow(struct lg_yctx *c, const struct lg_ynode *n, struct lg_op *op)
{
	bool on = false;
	int rc = n ? lg_ybool(c, n, "nofollow", &on) : 0;

	if (on)
		op->flags |= AT_SYMLINK_NOFOLLOW;
	return rc;
}

/* The path (v[0]) or the open file (v[1]) the op works on; the table's one_of makes
 * sure exactly one is given. */
static int fill_object(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	if (v[0])
		return lg_ypath(c, v[0], "path", &op->path, &op->var);
	return lg_yslot_use(c, v[1], "file", &op->slot);
}

int lg_yfill_link(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	int rc = lg_ypath(c, v[0], "from", &op->path, &op->var);

	return rc ? rc : lg_ypath(c, v[1], "to", &op->path2, &op->var2);
}

/* Directory levels of the directory holding path (below the run directory). */
static long dir_depth(const char *path)
{
	long depth = 0;
	const char *p = path;

	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			depth--;
		else if (n > 0 && !(n == 1 && p[0] == '.'))
			depth++;
		p += n;
		p += strspn(p, "/");
	}
	return depth - 1; /* the last component is the name itself */
}

/* Whether target, followed from a directory depth levels below the run directory,
 * climbs above the run directory at some point. */
static bool climbs_out(const char *target, long depth)
{
	for (const char *p = target; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return true;
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		p += strspn(p, "/");
	}
	return false;
}

/* symlink: target (a string, may hold ${client} and a variable) and path. */
int lg_yfill_symlink(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	const char *s;
	uint16_t var;
	int rc = lg_ypath(c, v[1], "path", &op->path, &op->var);

	if (!rc)
		rc = lg_ystring(c, v[0], "target", true, &s);
	if (rc)
		return rc;
	if (!*s)
		return lg_yfail(c, v[0], "empty symlink target");
	if (*s == '/')
		return lg_yfail(c, v[0], "symlink target '%s' is absolute: a target must be "
				"relative to the link's directory and stay inside the run "
				"directory", s);
	if (climbs_out(s, dir_depth(c->wl->paths[op->path])))
		return lg_yfail(c, v[0], "symlink target '%s' leaves the run directory through "
				"'..' (from the directory of '%s')", s, c->wl->paths[op->path]);
	if (strlen(s) > MAX_PATH_TEMPLATE)
		return lg_yfail(c, v[0], "target longer than %d bytes", MAX_PATH_TEMPLATE);
	rc = lg_ypath_var(c, v[0], "target", s, &var);
	if (!rc && var)
		rc = lg_ypath_set(c, v[0], "target", s, var, &op->path2);
	else if (!rc && lg_workload_path(c->wl, s, &op->path2))
		rc = lg_ynomem(c);
	op->var2 = var;
	return rc;
}

int lg_yfill_readlink(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	op->size = LINK_BUF;
	return lg_ypath(c, v[0], "path", &op->path, &op->var);
}

/* chmod: path or file, mode (octal, as 0644 or 0o644). */
int lg_yfill_chmod(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	const char *s, *digits;
	char *end;
	unsigned long mode;
	int rc = fill_object(c, v, op);

	if (!rc)
		rc = lg_ystring(c, v[2], "mode", false, &s);
	if (rc)
		return rc;
	digits = s[0] == '0' && (s[1] == 'o' || s[1] == 'O') ? s + 2 : s;
	mode = strtoul(digits, &end, 8);
	if (!*digits || *end || *digits == '-' || *digits == '+' || mode > 07777)
		return lg_yfail(c, v[2], "bad mode '%s' (expected octal permission bits such "
				"as 0644, at most 07777)", s);
	op->flags = (int32_t)mode;
	return 0;
}

/* chown, utimens, statx: path or file, nofollow. */
int lg_yfill_object(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	int rc = fill_object(c, v, op);

	if (!rc && v[2] && op->slot != LG_NO_SLOT)
		return lg_yfail(c, v[2], "'nofollow' is for a path, not a file");
	return rc ? rc : fill_nofollow(c, v[2], op);
}

/* access: path, mode (read, write, exec; none: whether it exists). */
int lg_yfill_access(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	unsigned seen = 0;
	int rc = lg_ypath(c, v[0], "path", &op->path, &op->var);

	if (!rc && v[1] && !(v[1]->kind == LG_YSEQ && v[1]->n == 0))
		rc = lg_yflag_set(c, v[1], "access mode", lg_yaccess_modes, &seen);
	op->flags = lg_yflag_value(lg_yaccess_modes, seen);
	return rc;
}

/* stat: path, resolve (dbench's), follow (stat(2) rather than lstat(2)). */
int lg_yfill_stat(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	bool follow = false;
	int rc = lg_yfill_named(c, v, op);

	if (!rc && v[2])
		rc = lg_ybool(c, v[2], "follow", &follow);
	if (!rc && follow && (op->flags & LG_OP_RESOLVE))
		return lg_yfail(c, v[2], "'follow' and 'resolve' exclude each other");
	if (follow)
		op->flags |= AT_SYMLINK_FOLLOW;
	return rc;
}

/* An attribute name: non-empty, at most MAX_NAME bytes, into path2. */
static int xattr_name(struct lg_yctx *c, const struct lg_ynode *n, struct lg_op *op)
{
	const char *s;
	int rc = lg_ystring(c, n, "name", false, &s);

	if (rc)
		return rc;
	if (!*s || strlen(s) > MAX_NAME)
		return lg_yfail(c, n, "'name' must have 1 to %d bytes", MAX_NAME);
	return lg_workload_path(c->wl, s, &op->path2) ? lg_ynomem(c) : 0;
}

/* setxattr (name, size, flags), getxattr (name, size), listxattr (size), removexattr
 * (name), each after path, file, nofollow. */
int lg_yfill_xattr(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	const struct lg_ynode *size = op->kind == LG_OP_LISTXATTR ? v[3] : v[4];
	unsigned seen = 0;
	int rc = lg_yfill_object(c, v, op);

	if (!rc && op->kind != LG_OP_LISTXATTR)
		rc = xattr_name(c, v[3], op);
	if (!rc && size && op->kind != LG_OP_REMOVEXATTR) {
		rc = lg_ysize(c, size, "size", &op->size);
		if (!rc && op->size > MAX_XATTR)
			return lg_yfail(c, size, "'size' must be at most 64KiB");
	}
	if (!rc && op->kind == LG_OP_SETXATTR && v[5])
		rc = lg_yflag_set(c, v[5], "flag", lg_yxattr_flags, &seen);
	op->flags |= lg_yflag_value(lg_yxattr_flags, seen);
	return rc;
}
