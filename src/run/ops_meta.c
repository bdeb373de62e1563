/* The calls a recorded program makes on names and attributes (see ops_meta.h).
 *
 * Paths are relative to the run directory descriptor wherever the call has an *at form.
 * The xattr calls have none (nor does truncate(2), in ops.c): they get the absolute
 * path, the run directory's path learnt once per client and the op's path copied after
 * it into a buffer of the client's, rather than "/proc/self/fd/N/path", whose lookup
 * would walk procfs on every call, which the recorded program never did. */
#include "ops_meta.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

static int result(long rc)
{
	return rc < 0 ? errno : 0;
}

/* The path of op, or NULL for the slot's file (its slot is set). */
static const char *path_of(const struct lg_client *c, const struct lg_op *op)
{
	return op->slot == LG_NO_SLOT ? lg_op_path(c, op->path, op->var) : NULL;
}

int lg_op_link(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes)
{
	const char *path = lg_op_path(c, op->path, op->var), *path2;

	(void)call;
	(void)bytes;
	path2 = lg_op_path(c, op->path2, op->var2);
	if (op->kind == LG_OP_SYMLINK)
		return result(symlinkat(path2, c->sh->dirfd, path));
	return result(linkat(c->sh->dirfd, path, c->sh->dirfd, path2, 0));
}

int lg_op_readlink(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	return result(readlinkat(c->sh->dirfd, lg_op_path(c, op->path, op->var),
				 (char *)c->buf, op->size));
}

/* The effective uid and gid, asked once per process: a chown gives a file the owner
 * it has when the run's user made it, and the call is the only one the op makes. */
static uid_t euid;
static gid_t egid;
static pthread_once_t ids_once = PTHREAD_ONCE_INIT;

static void ids_init(void)
{
	euid = geteuid();
	egid = getegid();
}

int lg_op_attr(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes)
{
	const char *path = path_of(c, op);
	int fd = path ? -1 : c->slots[op->slot].fd, dirfd = c->sh->dirfd;

	(void)call;
	(void)bytes;
	switch (op->kind) {
	case LG_OP_CHMOD:
		return result(path ? fchmodat(dirfd, path, (mode_t)op->flags, 0)
				   : fchmod(fd, (mode_t)op->flags));
	case LG_OP_CHOWN:
		pthread_once(&ids_once, ids_init);
		return result(path ? fchownat(dirfd, path, euid, egid, op->flags)
				   : fchown(fd, euid, egid));
	default: /* LG_OP_UTIMENS */
		return result(path ? utimensat(dirfd, path, NULL, op->flags)
				   : futimens(fd, NULL));
	}
}

int lg_op_access(struct lg_client *c, const struct lg_op *op, uint64_t call,
		 uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	return result(faccessat(c->sh->dirfd, lg_op_path(c, op->path, op->var), op->flags, 0));
}

int lg_op_statx(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes)
{
	const char *path = path_of(c, op);
	struct statx stx;

	(void)call;
	(void)bytes;
	if (!path)
		return result(statx(c->slots[op->slot].fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS,
				    &stx));
	return result(statx(c->sh->dirfd, path, op->flags, STATX_BASIC_STATS, &stx));
}

int lg_op_abspath(struct lg_client *c, const char *path, const char **out)
{
	size_t n = strlen(path);

	if (!c->abspath) {
		char proc[32];
		ssize_t len;

		c->abspath = malloc(LG_ABSPATH_BUF);
		if (!c->abspath)
			return ENOMEM;
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", c->sh->dirfd);
		len = readlink(proc, c->abspath, LG_ABSPATH_BUF / 2);
		if (len <= 0 || len >= LG_ABSPATH_BUF / 2) {
			free(c->abspath);
			c->abspath = NULL;
			return len < 0 ? errno : ENAMETOOLONG;
		}
		c->abspath[len] = '/';
		c->abspath_len = (size_t)len + 1;
	}
	if (n >= LG_ABSPATH_BUF - c->abspath_len)
		return ENAMETOOLONG;
	memcpy(c->abspath + c->abspath_len, path, n + 1);
	*out = c->abspath;
	return 0;
}

/* The call of an xattr op on the absolute path p (nofollow: the l- form). */
static ssize_t xattr_path(struct lg_client *c, const struct lg_op *op, const char *p,
			  const char *name)
{
	bool nofollow = op->flags & AT_SYMLINK_NOFOLLOW;
	int flags = op->flags & (XATTR_CREATE | XATTR_REPLACE);

	switch (op->kind) {
	case LG_OP_SETXATTR:
		return nofollow ? lsetxattr(p, name, c->sh->wbuf, op->size, flags)
				: setxattr(p, name, c->sh->wbuf, op->size, flags);
	case LG_OP_GETXATTR:
		return nofollow ? lgetxattr(p, name, c->buf, op->size)
				: getxattr(p, name, c->buf, op->size);
	case LG_OP_LISTXATTR:
		return nofollow ? llistxattr(p, (char *)c->buf, op->size)
				: listxattr(p, (char *)c->buf, op->size);
	default: /* LG_OP_REMOVEXATTR */
		return nofollow ? lremovexattr(p, name) : removexattr(p, name);
	}
}

/* The call of an xattr op on the open file fd. */
static ssize_t xattr_fd(struct lg_client *c, const struct lg_op *op, int fd,
			const char *name)
{
	switch (op->kind) {
	case LG_OP_SETXATTR:
		return fsetxattr(fd, name, c->sh->wbuf, op->size,
				 op->flags & (XATTR_CREATE | XATTR_REPLACE));
	case LG_OP_GETXATTR:
		return fgetxattr(fd, name, c->buf, op->size);
	case LG_OP_LISTXATTR:
		return flistxattr(fd, (char *)c->buf, op->size);
	default: /* LG_OP_REMOVEXATTR */
		return fremovexattr(fd, name);
	}
}

int lg_op_xattr(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes)
{
	const char *path = path_of(c, op), *abs;
	const char *name = op->path2 != LG_NO_SLOT ? lg_op_path(c, op->path2, op->var2) : NULL;
	int rc;

	(void)call;
	(void)bytes;
	if (!path)
		return result(xattr_fd(c, op, c->slots[op->slot].fd, name));
	rc = lg_op_abspath(c, path, &abs);
	return rc ? rc : result(xattr_path(c, op, abs, name));
}
