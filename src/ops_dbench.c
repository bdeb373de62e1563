/* dbench's SMB-like ops as POSIX calls. The sequence of calls per op follows dbench's
 * fileio backend (what dbench runs against a local filesystem), so loadgen's numbers
 * for a dbench loadfile measure the same work; where fileio is loose (it ignores most
 * results), the op returns the errno that decides the SMB status, so the status in the
 * loadfile can be checked. Everything is relative to the run directory descriptor. */
#include "ops_dbench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "loadgen/rundir.h"

#define DIR_OPEN (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static int result(long rc)
{
	return rc < 0 ? errno : 0;
}

/* Bind fd to the op's slot, or close it when the op binds none (an open the loadfile
 * expects to fail: dbench closes one that unexpectedly succeeds). */
static void bind_slot(struct lg_client *c, const struct lg_op *op, int fd)
{
	if (op->slot == LG_NO_SLOT) {
		close(fd);
		return;
	}
	if (c->fds[op->slot] >= 0) /* reopened in a loop without a close: drop the old one */
		close(c->fds[op->slot]);
	c->fds[op->slot] = fd;
	c->pos[op->slot] = 0;
	c->last[op->slot] = 0;
	if (c->verify) /* --verify: decide once here whether reads of this file are checked */
		lg_verify_bind(c->verify, op->slot, fd, lg_op_path_index(c, op->path, op->var),
			       op->flags);
}

int lg_op_ntcreate(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes)
{
	const char *path = lg_op_path(c, op->path, op->var);
	int dirfd = c->sh->dirfd, flags = op->flags, fd, rc;
	struct stat st;

	(void)call;
	(void)bytes;
	/* fileio first resolves the name (as Samba does); only its cost matters. */
	(void)fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW);
	if ((flags & O_DIRECTORY) && (flags & O_CREAT)) {
		/* An existing directory is fine; if mkdir failed otherwise, so will open. */
		(void)mkdirat(dirfd, path, 0700);
		flags &= ~O_CREAT;
	}
	fd = openat(dirfd, path, flags | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EISDIR) /* SMB opens a directory without being told */
		fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	rc = result(fstat(fd, &st));
	bind_slot(c, op, fd);
	return rc;
}

int lg_op_deltree(struct lg_client *c, const struct lg_op *op, uint64_t call,
		  uint64_t *bytes)
{
	const char *path = lg_op_path(c, op->path, op->var);
	int dirfd = c->sh->dirfd, fd, rc;

	(void)call;
	(void)bytes;
	fd = openat(dirfd, path, DIR_OPEN);
	if (fd < 0) {
		if (errno == ENOENT) /* nothing to remove: fine for dbench too */
			return 0;
		if (errno == ENOTDIR || errno == ELOOP) /* a file or a symlink: remove it */
			return result(unlinkat(dirfd, path, 0));
		return errno;
	}
	rc = lg_rundir_empty(fd);
	close(fd);
	if (rc)
		return -rc;
	if (unlinkat(dirfd, path, AT_REMOVEDIR) != 0 && errno != ENOENT)
		return errno;
	return 0;
}

int lg_op_statfs(struct lg_client *c, const struct lg_op *op, uint64_t call,
		 uint64_t *bytes)
{
	struct statvfs st;

	(void)op;
	(void)call;
	(void)bytes;
	return result(fstatvfs(c->sh->dirfd, &st));
}

int lg_op_setinfo(struct lg_client *c, const struct lg_op *op, uint64_t call,
		  uint64_t *bytes)
{
	int fd = c->fds[op->slot];
	struct timespec ts[2];
	struct stat st;

	(void)call;
	(void)bytes;
	if (fstat(fd, &st) != 0)
		return errno;
	/* fileio moves both times a few seconds back: a real change of the inode. */
	ts[0] = st.st_atim;
	ts[0].tv_sec -= 10;
	ts[1] = st.st_mtim;
	ts[1].tv_sec -= 12;
	return result(futimens(fd, ts));
}

/* Read directory fd until max names matched pattern (0: to the end); *found counts
 * them. getdents64 into a stack buffer: no allocation per op, unlike opendir. SMB
 * names are case-insensitive, hence FNM_CASEFOLD. 0 or an errno. */
static int scan(int fd, const char *pattern, uint64_t max, uint64_t *found)
{
	_Alignas(struct dirent64) char buf[4096];

	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));

		if (n <= 0)
			return n < 0 ? errno : 0;
		for (ssize_t o = 0; o < n;) {
			const struct dirent64 *d = (const struct dirent64 *)(buf + o);

			o += d->d_reclen;
			if (fnmatch(pattern, d->d_name, FNM_CASEFOLD) == 0 && ++*found == max)
				return 0;
		}
	}
}

int lg_op_find(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes)
{
	int dirfd = c->sh->dirfd, fd, rc;
	uint64_t found = 0;
	struct stat st;

	(void)call;
	(void)bytes;
	if (op->path2 == LG_NO_SLOT)
		return result(fstatat(dirfd, lg_op_path(c, op->path, op->var), &st,
				      AT_SYMLINK_NOFOLLOW));
	fd = openat(dirfd, op->path == LG_NO_SLOT ? "." : lg_op_path(c, op->path, op->var),
		    DIR_OPEN);
	if (fd < 0)
		return errno;
	rc = scan(fd, lg_op_path(c, op->path2, op->var2), op->size, &found);
	close(fd);
	if (rc)
		return rc;
	return found ? 0 : ENOENT; /* NT_STATUS_NO_SUCH_FILE: nothing matched */
}

/* Open file description locks, not classic POSIX ones: clients are threads of one
 * process, and POSIX locks belong to the process (no client would ever conflict with
 * another, and any close of the file by any client would drop them all). OFD locks
 * belong to the open file, as SMB locks belong to a handle. F_OFD_SETLK, not the
 * waiting F_OFD_SETLKW that dbench uses: a conflict is reported as EAGAIN instead of
 * hanging the client. */
int lg_op_lock(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes)
{
	struct flock fl = {
		.l_type = op->kind == LG_OP_LOCK ? F_WRLCK : F_UNLCK,
		.l_whence = SEEK_SET,
		.l_start = (off_t)op->offset,
		.l_len = (off_t)op->size,
	};

	(void)call;
	(void)bytes;
	return result(fcntl(c->fds[op->slot], F_OFD_SETLK, &fl));
}
