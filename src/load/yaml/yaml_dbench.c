/* YAML forms of dbench's ops: the arguments of ntcreate, find, lock and unlock. */
#include "yaml_dbench.h"

#include <fcntl.h>
#include <string.h>

#define MAX_PATH_TEMPLATE 2048 /* as for every YAML path */

/* One name of ntcreate's flags into *flags. */
static int ntcreate_flag(struct lg_yctx *c, const struct lg_ynode *n, int *flags)
{
	const char *s;
	int rc = lg_ystring(c, n, "flags", false, &s);

	for (size_t i = 0; !rc && lg_yntcreate_flags[i].name; i++) {
		if (!strcmp(s, lg_yntcreate_flags[i].name)) {
			*flags |= lg_yntcreate_flags[i].value;
			return 0;
		}
	}
	return rc ? rc : lg_yfail(c, n, "unknown ntcreate flag '%s' (expected directory, "
				  "create, truncate)", s);
}

int lg_yfill_ntcreate(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	int flags = 0, rc = lg_ypath(c, v[0], "path", &op->path, &op->var);

	if (!rc && v[1])
		rc = lg_yslot_bind(c, v[1], "as", &op->slot);
	if (!rc && v[2] && v[2]->kind == LG_YSEQ)
		for (size_t i = 0; !rc && i < v[2]->n; i++)
			rc = ntcreate_flag(c, v[2]->items[i], &flags);
	else if (!rc && v[2])
		rc = ntcreate_flag(c, v[2], &flags);
	if (rc)
		return rc;
	if ((flags & O_DIRECTORY) && (flags & O_TRUNC))
		return lg_yfail(c, v[2], "ntcreate flags 'directory' and 'truncate' exclude "
				"each other");
	/* A directory is opened read-only (it cannot be opened for writing), a file
	 * read-write, as dbench does. */
	op->flags = flags | (flags & O_DIRECTORY ? O_RDONLY : O_RDWR);
	return 0;
}

/* A path whose last component has a wildcard: the directory into op->path (none for
 * the run directory itself) and the component, the fnmatch pattern, into op->path2. */
static int find_pattern(struct lg_yctx *c, const struct lg_ynode *n, const char *s,
			struct lg_op *op)
{
	const char *slash = strrchr(s, '/'), *why;
	char dir[MAX_PATH_TEMPLATE + 1];
	uint16_t var;
	int rc = lg_ypath_var(c, n, "path", s, &var);

	if (rc)
		return rc;
	if (var) /* a pattern is matched, not opened: a file set would mean nothing */
		return lg_yfail(c, n, "path '%s': a find pattern cannot use a variable", s);
	if (strlen(s) > MAX_PATH_TEMPLATE)
		return lg_yfail(c, n, "path longer than %d bytes", MAX_PATH_TEMPLATE);
	if (slash && slash > s) {
		memcpy(dir, s, (size_t)(slash - s));
		dir[slash - s] = '\0';
		if (lg_path_check(dir, &why))
			return lg_yfail(c, n, "path '%s': %s", s, why);
		if (lg_workload_path(c->wl, dir, &op->path))
			return lg_ynomem(c);
	}
	return lg_workload_path(c->wl, slash ? slash + 1 : s, &op->path2) ? lg_ynomem(c) : 0;
}

int lg_yfill_find(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	const char *s, *last;
	int rc = lg_ystring(c, v[0], "path", true, &s);

	if (rc)
		return rc;
	last = strrchr(s, '/');
	last = last ? last + 1 : s;
	if (strpbrk(last, "*?"))
		rc = find_pattern(c, v[0], s, op);
	else
		rc = lg_ypath(c, v[0], "path", &op->path, &op->var);
	if (!rc && v[1])
		rc = lg_ycount(c, v[1], "max", &op->size);
	return rc;
}

int lg_yfill_lock(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	int rc = lg_yslot_use(c, v[0], "file", &op->slot);

	if (!rc && v[1])
		rc = lg_ysize(c, v[1], "offset", &op->offset);
	if (!rc && v[2])
		rc = lg_ysize(c, v[2], "size", &op->size);
	if (!rc && (op->offset > INT64_MAX || op->size > (uint64_t)INT64_MAX - op->offset))
		return lg_yfail(c, v[2] ? v[2] : v[1], "'offset' + 'size' is past the largest "
				"file offset");
	return rc;
}

int lg_yfill_none(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	(void)c;
	(void)v;
	(void)op;
	return 0;
}
