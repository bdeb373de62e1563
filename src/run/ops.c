/* Each op kind as POSIX calls: one function per kind in a table indexed by kind.
 * Paths are relative to the run directory descriptor (the *at calls), so no path is
 * ever built at run time (but for the calls that have no *at form: ops_meta.c). A
 * function returns 0 or the errno of the failing call.
 *
 * A read or write on a slot is a pread or pwrite (preadv/pwritev with one iovec when
 * vector) at the slot's own position, also for a sequential one: every form of read and
 * write and a seek then agree on where the file position is, whichever calls came
 * before on the slot. A seek from the current position is therefore made from the
 * slot's position (lseek SEEK_SET to it + offset), not the descriptor's. */
#include "client.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dirscan.h"
#include "ops_dbench.h"
#include "ops_meta.h"
#include "sysnc.h"

typedef int (*exec_fn)(struct lg_client *c, const struct lg_op *op, uint64_t call,
		       uint64_t *bytes);

static int result(long rc)
{
	return rc < 0 ? errno : 0;
}

static int fd_of(const struct lg_client *c, const struct lg_op *op)
{
	return op->slot == LG_NO_SLOT ? c->sh->dirfd : c->slots[op->slot].fd;
}

static int do_open(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes)
{
	struct lg_slot *s = &c->slots[op->slot];

	(void)call;
	(void)bytes;
	if (s->fd >= 0) /* still open: lg_op_exec counts it as an error */
		lg_sys_close(s->fd);
	s->fd = lg_sys_openat(c->sh->dirfd, lg_op_path(c, op->path, op->var),
			      op->flags | O_CLOEXEC, 0644);
	s->pos = 0;
	s->last = 0;
	if (c->verify) /* decide once here whether reads of this file are checked */
		lg_verify_bind(c->verify, op->slot, s->fd,
			       lg_op_path_index(c, op->path, op->var), op->flags);
	return s->fd < 0 ? errno : 0;
}

static int do_close(struct lg_client *c, const struct lg_op *op, uint64_t call,
		    uint64_t *bytes)
{
	int fd = c->slots[op->slot].fd;

	(void)call;
	(void)bytes;
	c->slots[op->slot].fd = -1;
	return result(lg_sys_close(fd));
}

/* Where call number `call` of a read/write/sync_file_range/fadvise starts; *seek_end is
 * set for appends, which write at the end of the file. Returns false when the op has
 * no valid offset (LG_OFF_PREV before the first block). */
static bool io_offset(struct lg_client *c, const struct lg_op *op, uint64_t call,
		      uint64_t *off)
{
	uint64_t slots;

	switch (op->off_mode) {
	case LG_OFF_FIXED:
		*off = op->offset + call * op->size;
		return true;
	case LG_OFF_RANDOM:
		slots = op->range >= op->size ? (op->range - op->size) / op->align + 1 : 1;
		*off = op->offset + lg_client_rand(c) % slots * op->align;
		return true;
	case LG_OFF_LAST:
		*off = c->slots[op->slot].last;
		return true;
	case LG_OFF_PREV:
		if (c->slots[op->slot].last < op->size)
			return false;
		*off = c->slots[op->slot].last - op->size;
		return true;
	default: /* LG_OFF_SEQ; LG_OFF_APPEND is handled by the caller */
		*off = c->slots[op->slot].pos;
		return true;
	}
}

/* One pread/pwrite of op at off through buf, or with LG_OP_VECTOR the same as
 * preadv/pwritev of one iovec. */
static ssize_t rw_at(const struct lg_op *op, int fd, const unsigned char *buf, uint64_t off)
{
	struct iovec iov = { (void *)buf, op->size };
	bool wr = op->kind == LG_OP_WRITE;

	if (op->flags & LG_OP_VECTOR)
		return wr ? pwritev(fd, &iov, 1, (off_t)off) : preadv(fd, &iov, 1, (off_t)off);
	return wr ? lg_sys_pwrite(fd, buf, op->size, (off_t)off)
		  : lg_sys_pread(fd, (void *)buf, op->size, (off_t)off);
}

/* --verify: a write first fills its range with the client's self-describing blocks; a
 * read of a file whose writer is known (the client's own, or its peer's) checks what
 * came back against that writer's blocks. Returns what the call returned (-1 with errno
 * set). *off is corrected for a file opened with O_APPEND, where
 * Linux's pwrite ignores the offset: only the client writes a private file, so its end
 * is where the bytes will land. */
static ssize_t verified_rw(struct lg_client *c, const struct lg_op *op, int fd, uint64_t *off)
{
	const struct lg_verify_slot *vs = &c->verify->slots[op->slot];
	bool bound = fd >= 0 && vs->fd == fd;
	struct lg_verify_result r;
	ssize_t n;

	if (op->kind == LG_OP_WRITE) {
		struct lg_verify_tag tag = { c->id, bound ? vs->path : UINT32_MAX,
					     ++c->verify->gen };

		if (bound && vs->append) {
			off_t end = lseek(fd, 0, SEEK_END);

			if (end < 0)
				return -1;
			*off = (uint64_t)end;
		}
		lg_verify_fill(c->buf, op->size, *off, &tag);
		return rw_at(op, fd, c->buf, *off);
	}
	n = rw_at(op, fd, c->buf, *off);
	if (n > 0 && bound && vs->writer != LG_VERIFY_NO_WRITER) {
		lg_verify_check(c->buf, (size_t)n, *off, vs->writer, &r);
		lg_verify_record(c->stats, op->type, op->line, c->paths[vs->path], vs->peer, &r);
	}
	return n;
}

/* A write that wrote fewer bytes than it asked for, with no error (a filesystem
 * nearly full gives one before ENOSPC): counted per label in the measured phase, per
 * phase outside it, and in setup it stops every client's setup, as a full filesystem
 * does: the files would not be what the workload describes. Here, not in the client
 * loop, so that only writes pay for the check. */
static void short_write(struct lg_client *c, const struct lg_op *op, uint64_t bytes)
{
	struct lg_untimed_stats *u = c->untimed;

	if (c->recording) {
		c->stats->types[op->type].short_writes++;
		return;
	}
	if (!u->short_writes++)
		u->first_short = (struct lg_short_note){
			op->size, bytes, op->line,
			op->path != LG_NO_SLOT ? lg_op_path_index(c, op->path, op->var)
					       : c->slots[op->slot].path,
			op->type, 1 };
	if (c->in_setup)
		atomic_store_explicit(&c->sh->setup_short, 1, memory_order_relaxed);
}

static int do_rw(struct lg_client *c, const struct lg_op *op, uint64_t call,
		 uint64_t *bytes)
{
	struct lg_slot *s = &c->slots[op->slot];
	int fd = s->fd;
	bool wr = op->kind == LG_OP_WRITE;
	uint64_t off = 0;
	ssize_t n;

	if (op->off_mode == LG_OFF_APPEND) {
		off_t end = lseek(fd, 0, SEEK_END);

		if (end < 0)
			return errno;
		off = (uint64_t)end;
	} else if (!io_offset(c, op, call, &off)) {
		return LG_EXEC_SKIPPED(LG_SKIP_PREV); /* no block before the last one */
	}
	if (c->verify)
		n = verified_rw(c, op, fd, &off);
	else
		n = rw_at(op, fd, wr ? c->sh->wbuf : c->buf, off);
	if (n < 0)
		return errno;
	if (wr && (uint64_t)n < op->size)
		short_write(c, op, (uint64_t)n);
	*bytes = (uint64_t)n;
	s->last = off;
	s->pos = off + (uint64_t)n;
	return wr && c->sh->fsync_writes ? result(lg_sys_fsync(fd)) : 0;
}

static int do_fsync(struct lg_client *c, const struct lg_op *op, uint64_t call,
		    uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	return result(op->kind == LG_OP_FSYNC ? lg_sys_fsync(fd_of(c, op))
					      : lg_sys_fdatasync(fd_of(c, op)));
}

static int do_unlink(struct lg_client *c, const struct lg_op *op, uint64_t call,
		     uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	return result(unlinkat(c->sh->dirfd, lg_op_path(c, op->path, op->var),
			       op->kind == LG_OP_RMDIR ? AT_REMOVEDIR : 0));
}

static int do_mkdir(struct lg_client *c, const struct lg_op *op, uint64_t call,
		    uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	return result(mkdirat(c->sh->dirfd, lg_op_path(c, op->path, op->var), 0755));
}

static int do_rename(struct lg_client *c, const struct lg_op *op, uint64_t call,
		     uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	if (op->flags) /* RENAME_* (LG_OP_RESOLVE goes to ops_dbench.c) */
		return result(renameat2(c->sh->dirfd, lg_op_path(c, op->path, op->var),
					c->sh->dirfd, lg_op_path(c, op->path2, op->var2),
					(unsigned)op->flags));
	return result(renameat(c->sh->dirfd, lg_op_path(c, op->path, op->var), c->sh->dirfd,
			       lg_op_path(c, op->path2, op->var2)));
}

static int do_stat(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes)
{
	struct stat st;

	(void)call;
	(void)bytes;
	if (op->kind == LG_OP_FSTAT)
		return result(fstat(fd_of(c, op), &st));
	return result(fstatat(c->sh->dirfd, lg_op_path(c, op->path, op->var), &st,
			      op->flags & AT_SYMLINK_FOLLOW ? 0 : AT_SYMLINK_NOFOLLOW));
}

static int do_truncate(struct lg_client *c, const struct lg_op *op, uint64_t call,
		       uint64_t *bytes)
{
	const char *abs;
	int rc;

	(void)call;
	(void)bytes;
	if (op->slot != LG_NO_SLOT)
		return result(ftruncate(c->slots[op->slot].fd, (off_t)op->size));
	/* truncate(2) has no *at form, and openat + ftruncate are other calls */
	rc = lg_op_abspath(c, lg_op_path(c, op->path, op->var), &abs);
	return rc ? rc : result(truncate(abs, (off_t)op->size));
}

/* lseek; from the current position: from the slot's (see the note at the top). */
static int do_seek(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes)
{
	struct lg_slot *s = &c->slots[op->slot];
	uint64_t off = op->offset;
	int whence = op->flags;
	off_t to;

	(void)call;
	(void)bytes;
	if (whence == SEEK_CUR) {
		off += s->pos; /* wraps below 0 to a negative off_t: EINVAL, as it would */
		whence = SEEK_SET;
	}
	to = lseek(s->fd, (off_t)off, whence);
	if (to < 0)
		return errno;
	s->pos = (uint64_t)to;
	return 0;
}

static int do_fallocate(struct lg_client *c, const struct lg_op *op, uint64_t call,
			uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	return result(fallocate(c->slots[op->slot].fd, op->flags, (off_t)op->offset,
				(off_t)op->size));
}

/* One getdents64 into the client's buffer: the directory's position moves on. */
static int do_getdents(struct lg_client *c, const struct lg_op *op, uint64_t call,
		       uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	return result(syscall(SYS_getdents64, (long)c->slots[op->slot].fd, c->buf,
			      (long)op->size));
}

/* Every entry of directory path, with the scanner of the dbench ops (dirscan.c): the
 * open, getdents64 into the client's buffer until the end, the close. */
static int do_readdir(struct lg_client *c, const struct lg_op *op, uint64_t call,
		      uint64_t *bytes)
{
	struct lg_dirscan s;
	unsigned char type;
	const char *name;
	int rc = lg_op_dirscan(c, c->sh->dirfd, lg_op_path(c, op->path, op->var), 0, 0, &s);

	(void)call;
	(void)bytes;
	if (rc)
		return rc;
	while ((rc = lg_dirscan_next(&s, &name, &type)) > 0)
		;
	lg_sys_close(s.fd);
	return -rc;
}

static int do_sync_range(struct lg_client *c, const struct lg_op *op, uint64_t call,
			 uint64_t *bytes)
{
	uint64_t off = 0;

	(void)bytes;
	if (!io_offset(c, op, call, &off))
		return LG_EXEC_SKIPPED(LG_SKIP_PREV); /* no block before the last one */
	if (op->kind == LG_OP_FADVISE)
		return posix_fadvise(fd_of(c, op), (off_t)off, (off_t)op->size, op->flags);
	return result(sync_file_range(fd_of(c, op), (off_t)off, (off_t)op->size,
				      (unsigned)op->flags));
}

static int do_syncfs(struct lg_client *c, const struct lg_op *op, uint64_t call,
		     uint64_t *bytes)
{
	(void)call;
	(void)bytes;
	return result(syncfs(fd_of(c, op)));
}

/* Sleep in slices so that a stop request is seen within 100 ms; never past the end of
 * the measured phase (its deadline is UINT64_MAX before it begins and without -t). */
bool lg_client_sleep_until(struct lg_client *c, uint64_t t)
{
	const uint64_t slice = 100 * LG_NS_PER_MS;
	struct timespec ts;
	uint64_t now, end;

	for (;;) {
		end = atomic_load_explicit(&c->sh->deadline, memory_order_relaxed);
		end = end < t ? end : t;
		now = lg_now_ns();
		if (now >= end ||
		    atomic_load_explicit(&c->sh->phase, memory_order_relaxed) == LG_CLOCK_STOP)
			break;
		ts = lg_ns_timespec(end - now < slice ? end - now : slice);
		nanosleep(&ts, NULL);
	}
	return now >= t;
}

/* Think time; a stop request or the deadline ends it early, and a sleep cut off is no
 * op (it did not take the time it describes): skipped, reason cut_off. */
static int do_sleep(struct lg_client *c, const struct lg_op *op, uint64_t call,
		    uint64_t *bytes)
{
	(void)call;
	*bytes = 0;
	return lg_client_sleep_until(c, lg_now_ns() + op->size) ? 0
								 : LG_EXEC_SKIPPED(LG_SKIP_CUT_OFF);
}

int lg_op_sync_parent(struct lg_client *c, uint32_t path)
{
	const char *dir = c->parents[path];
	int fd, rc;

	if (!dir)
		return result(lg_sys_fsync(c->sh->dirfd));
	fd = lg_sys_openat(c->sh->dirfd, dir,
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	rc = result(lg_sys_fsync(fd));
	lg_sys_close(fd);
	return rc;
}

static const exec_fn exec_table[LG_OP_KIND_COUNT] = {
	[LG_OP_OPEN] = do_open,         [LG_OP_CLOSE] = do_close,
	[LG_OP_WRITE] = do_rw,          [LG_OP_READ] = do_rw,
	[LG_OP_FSYNC] = do_fsync,       [LG_OP_FDATASYNC] = do_fsync,
	[LG_OP_UNLINK] = do_unlink,     [LG_OP_RMDIR] = do_unlink,
	[LG_OP_MKDIR] = do_mkdir,       [LG_OP_RENAME] = do_rename,
	[LG_OP_STAT] = do_stat,         [LG_OP_FSTAT] = do_stat,
	[LG_OP_TRUNCATE] = do_truncate, [LG_OP_READDIR] = do_readdir,
	[LG_OP_SYNC_FILE_RANGE] = do_sync_range,
	[LG_OP_FADVISE] = do_sync_range,
	[LG_OP_SYNCFS] = do_syncfs,     [LG_OP_SLEEP] = do_sleep,
	[LG_OP_NTCREATE] = lg_op_ntcreate, [LG_OP_DELTREE] = lg_op_deltree,
	[LG_OP_STATFS] = lg_op_statfs,     [LG_OP_SETINFO] = lg_op_setinfo,
	[LG_OP_FIND] = lg_op_find,         [LG_OP_LOCK] = lg_op_lock,
	[LG_OP_UNLOCK] = lg_op_lock,
	[LG_OP_LINK] = lg_op_link,         [LG_OP_SYMLINK] = lg_op_link,
	[LG_OP_READLINK] = lg_op_readlink, [LG_OP_CHMOD] = lg_op_attr,
	[LG_OP_CHOWN] = lg_op_attr,        [LG_OP_UTIMENS] = lg_op_attr,
	[LG_OP_ACCESS] = lg_op_access,     [LG_OP_STATX] = lg_op_statx,
	[LG_OP_SEEK] = do_seek,            [LG_OP_FALLOCATE] = do_fallocate,
	[LG_OP_GETDENTS] = do_getdents,    [LG_OP_SETXATTR] = lg_op_xattr,
	[LG_OP_GETXATTR] = lg_op_xattr,    [LG_OP_LISTXATTR] = lg_op_xattr,
	[LG_OP_REMOVEXATTR] = lg_op_xattr,
};

/* Whether -S syncs the parent directory after op: it changed a directory's entries. */
static bool changes_names(const struct lg_op *op)
{
	switch (op->kind) {
	case LG_OP_OPEN: case LG_OP_NTCREATE:
		return op->flags & O_CREAT;
	case LG_OP_UNLINK: case LG_OP_MKDIR: case LG_OP_RMDIR: case LG_OP_RENAME:
	case LG_OP_LINK: case LG_OP_SYMLINK:
		return true;
	default:
		return false;
	}
}

/* -S: after a successful namespace change, fsync the directories it changed, inside
 * the op's time (as dbench's sync-dirs option does). */
static int sync_dirs(struct lg_client *c, const struct lg_op *op)
{
	uint32_t path = lg_op_path_index(c, op->path, op->var), path2 = 0;
	const char *from = c->parents[path], *to = NULL;
	int rc;

	if (op->kind == LG_OP_LINK) /* only the new name's directory changed */
		return lg_op_sync_parent(c, lg_op_path_index(c, op->path2, op->var2));
	rc = lg_op_sync_parent(c, path);
	if (op->kind == LG_OP_RENAME) {
		path2 = lg_op_path_index(c, op->path2, op->var2);
		to = c->parents[path2];
	}
	if (!rc && op->kind == LG_OP_RENAME && (!from != !to || (from && strcmp(from, to))))
		rc = lg_op_sync_parent(c, path2);
	return rc;
}

/* How an op kind uses its slot (when it has one). */
enum slot_use {
	SLOT_NONE,   /* not at all: the op has no slot, or it is a loop counter */
	SLOT_USES,   /* the open file is used: without one the op is skipped */
	SLOT_CLOSES, /* used and then closed */
	SLOT_BINDS   /* an open: the slot must not hold a file already */
};

static const uint8_t slot_use[LG_OP_KIND_COUNT] = {
	[LG_OP_OPEN] = SLOT_BINDS,      [LG_OP_NTCREATE] = SLOT_BINDS,
	[LG_OP_CLOSE] = SLOT_CLOSES,
	[LG_OP_WRITE] = SLOT_USES,      [LG_OP_READ] = SLOT_USES,
	[LG_OP_FSYNC] = SLOT_USES,      [LG_OP_FDATASYNC] = SLOT_USES,
	[LG_OP_FSTAT] = SLOT_USES,      [LG_OP_TRUNCATE] = SLOT_USES,
	[LG_OP_SYNC_FILE_RANGE] = SLOT_USES, [LG_OP_FADVISE] = SLOT_USES,
	[LG_OP_SYNCFS] = SLOT_USES,     [LG_OP_SETINFO] = SLOT_USES,
	[LG_OP_LOCK] = SLOT_USES,       [LG_OP_UNLOCK] = SLOT_USES,
	[LG_OP_CHMOD] = SLOT_USES,      [LG_OP_CHOWN] = SLOT_USES,
	[LG_OP_UTIMENS] = SLOT_USES,    [LG_OP_STATX] = SLOT_USES,
	[LG_OP_SEEK] = SLOT_USES,       [LG_OP_FALLOCATE] = SLOT_USES,
	[LG_OP_GETDENTS] = SLOT_USES,   [LG_OP_SETXATTR] = SLOT_USES,
	[LG_OP_GETXATTR] = SLOT_USES,   [LG_OP_LISTXATTR] = SLOT_USES,
	[LG_OP_REMOVEXATTR] = SLOT_USES,
};

/* Execute op, whose slot is checked first: an op on a slot holding no file is skipped
 * (unless it expects EBADF, which is what the call gives), an open into a slot still
 * holding one is an error (the old file is closed, never silently). */
static int exec_slot(struct lg_client *c, const struct lg_op *op, uint64_t call,
		     uint64_t *bytes, unsigned use)
{
	struct lg_slot *s = &c->slots[op->slot];
	bool was_open = s->fd >= 0;
	int rc;

	if (use != SLOT_BINDS && !was_open && op->expect != EBADF)
		return LG_EXEC_SKIPPED(LG_SKIP_NOT_OPEN);
	rc = exec_table[op->kind](c, op, call, bytes);
	if (use == SLOT_USES)
		return rc;
	s->line = op->line;
	s->kept = false; /* no longer setup's file (see keep_setup_files) */
	s->event = use == SLOT_CLOSES ? LG_SLOT_CLOSED : LG_SLOT_OPEN_FAILED;
	if (use == SLOT_BINDS)
		s->path = lg_op_path_index(c, op->path, op->var);
	return rc == 0 && use == SLOT_BINDS && was_open ? LG_ERR_SLOT_OPEN : rc;
}

/* --verify: a call on the peer's file failed with ENOENT or ESTALE where the workload
 * expects success: the peer made the file, this client does not see it (stale
 * metadata). The op's own path, else the file its slot holds. */
static void stale(struct lg_client *c, const struct lg_op *op, int err)
{
	uint32_t path = op->path != LG_NO_SLOT ? lg_op_path_index(c, op->path, op->var)
		      : op->slot != LG_NO_SLOT ? c->slots[op->slot].path : LG_NOTE_NO_PATH;
	uint32_t writer;

	if (path == LG_NOTE_NO_PATH || path >= c->wl->npaths)
		return;
	writer = lg_verify_peer_writer(c->verify, path);
	if (writer != LG_VERIFY_NO_WRITER)
		lg_verify_stale(c->stats, op->type, op->line, c->paths[path], writer, err);
}

int lg_op_exec(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes)
{
	unsigned use = slot_use[op->kind];
	int rc;

	*bytes = 0;
	if (use != SLOT_NONE && op->slot != LG_NO_SLOT)
		rc = exec_slot(c, op, call, bytes, use);
	else /* dbench's name ops resolve their names first (ops_dbench.c) */
		rc = (op->flags & LG_OP_RESOLVE ? lg_op_resolved : exec_table[op->kind])(
			c, op, call, bytes);
	if (rc == 0 && c->sh->sync_dirs && changes_names(op))
		rc = sync_dirs(c, op);
	if ((rc == ENOENT || rc == ESTALE) && c->verify && op->expect == LG_EXPECT_OK)
		stale(c, op, rc);
	return rc;
}
