/* dbench's SMB-like ops as POSIX calls: by default the very calls of dbench 4.0's
 * fileio backend, in its order, so a loadfile puts the same load on the filesystem
 * under loadgen as under dbench (tests/integration/test_dbench_strace.py compares the
 * two under strace, call for call).
 *
 * dbench simulates an SMB server with case-insensitive names (Samba's
 * pvfs_resolve_name): before NTCreateX, Qpathinfo, Unlink, Rmdir, Mkdir, Rename (both
 * names) and Find it stats the name and, when that fails, reads the parent directory
 * looking for the name in any case (open, the fstat of opendir, getdents64 until a
 * match or the end, close). resolve() below does the same; --resolve samba leaves out
 * Find's lookup of its literal wildcard pattern (an artefact of dbench), --resolve stat
 * keeps only the stat (dbench's --no-resolve).
 *
 * What is not copied is dbench's own overhead, not load on the filesystem: a kill()
 * per loadfile line, stdio reads of the loadfile, allocations per op, absolute paths
 * (loadgen works relative to the run directory descriptor). Directories are read
 * with dirscan.c into per-client buffers of glibc's size: no allocation per op.
 *
 * Where fileio ignores a result, the op still returns the errno that decides the SMB
 * status, so the status in the loadfile can be checked. */
#include "ops_dbench.h"
#include "loadgen/model/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "dirscan.h"
#include "sysnc.h"

static int result(long rc)
{
	return rc < 0 ? errno : 0;
}

int lg_op_dirbuf(struct lg_client *c, unsigned level, char **buf)
{
	if (level >= LG_DIR_LEVELS)
		return ELOOP;
	if (!c->dirbufs[level]) {
		c->dirbufs[level] = aligned_alloc(LG_CACHE_LINE, LG_DIRSCAN_BUF);
		if (!c->dirbufs[level])
			return ENOMEM;
	}
	*buf = c->dirbufs[level];
	return 0;
}

int lg_op_dirscan(struct lg_client *c, int parent, const char *path, unsigned level,
		  int like_opendir, struct lg_dirscan *s)
{
	char *buf;
	int fd, rc = lg_op_dirbuf(c, level, &buf);

	if (rc)
		return rc;
	fd = lg_dirscan_open(parent, path, like_opendir);
	if (fd < 0)
		return -fd;
	lg_dirscan_init(s, fd, buf);
	return 0;
}

/* Split path into its directory, copied into dir (len bytes; "." for the run directory
 * itself), and its last component, returned. NULL when dir is too small. */
static const char *split(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (n + 2 > len)
		return NULL;
	if (!slash) {
		memcpy(dir, ".", 2);
		return path;
	}
	memcpy(dir, path, n);
	dir[n] = '\0';
	return slash + 1;
}

/* ASCII lower case: tolower's result in the C locale loadgen runs in (it never calls
 * setlocale), without a call and a table lookup per character. */
static inline unsigned char fold(unsigned char ch)
{
	return (unsigned)(ch - 'A') < 26u ? (unsigned char)(ch | 0x20) : ch;
}

/* Whether a and b are the same name ignoring ASCII case: strcasecmp(a, b) == 0 in the
 * C locale, inline, for the dozen entries of a directory each failed lookup compares. */
static bool same_nocase(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned char x = (unsigned char)*a, y = (unsigned char)*b;

		/* bytes that differ are the same letter in two cases only if they differ
		 * in the case bit alone and one of them is a lower-case letter */
		if (x != y && ((x ^ y) != 0x20 || (unsigned)((x | 0x20) - 'a') >= 26u))
			return false;
		if (!x)
			return true;
	}
}

/* Whether directory dir (relative to the run directory) has an entry named name in
 * any case: opendir's calls, then getdents64 until a match or the end. 0 with *found
 * set, or an errno (of the open: the caller keeps its own). */
static int find_name(struct lg_client *c, const char *dir, const char *name, bool *found)
{
	struct lg_dirscan s;
	unsigned char type;
	const char *entry;
	int rc = lg_op_dirscan(c, c->sh->dirfd, dir, 0, 1, &s);

	*found = false;
	if (rc)
		return rc;
	while ((rc = lg_dirscan_next(&s, &entry, &type)) > 0)
		if (same_nocase(entry, name)) {
			*found = true;
			break;
		}
	lg_sys_close(s.fd);
	return rc < 0 ? -rc : 0;
}

/* dbench's resolve_name for path: stat it; if that fails, look for the name in any
 * case in its directory. 0 when the name exists (either way), else the stat's errno
 * (SMB's NAME_NOT_FOUND or PATH_NOT_FOUND). */
static int resolve(struct lg_client *c, const char *path)
{
	char dir[PATH_MAX];
	const char *base;
	struct stat st;
	bool found = false;
	int err;

	if (fstatat(c->sh->dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	err = errno;
	if (c->sh->resolve == LG_RESOLVE_STAT)
		return err;
	base = split(path, dir, sizeof(dir));
	if (!base)
		return err;
	(void)find_name(c, dir, base, &found);
	return found ? 0 : err;
}

/* Bind fd to the op's slot, or close it when the op binds none (an open the loadfile
 * expects to fail: dbench closes one that unexpectedly succeeds). */
static void bind_slot(struct lg_client *c, const struct lg_op *op, int fd)
{
	struct lg_slot *s;

	if (op->slot == LG_NO_SLOT) {
		lg_sys_close(fd);
		return;
	}
	s = &c->slots[op->slot];
	if (s->fd >= 0) /* reopened in a loop without a close: drop the old one */
		lg_sys_close(s->fd);
	s->fd = fd;
	s->pos = 0;
	s->last = 0;
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
	(void)resolve(c, path);
	if (flags & O_DIRECTORY) {
		/* As fileio: mkdir whatever the disposition, then open the directory; an
		 * existing one is fine, and if mkdir failed otherwise, so will the open. */
		(void)mkdirat(dirfd, path, 0700);
		flags &= ~O_CREAT;
	}
	fd = lg_sys_openat(dirfd, path, flags | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EISDIR) /* SMB opens a directory without being told */
		fd = lg_sys_openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	rc = result(fstat(fd, &st));
	bind_slot(c, op, fd);
	return rc;
}

/* Deltree of name in directory parent, as dbench 4.0: each entry but . and .. is
 * stat'ed; a directory is descended into, anything else unlinked; directories are
 * never removed. Errors inside are ignored, as fileio does; 0 or the open's errno. */
static int deltree_at(struct lg_client *c, int parent, const char *name, unsigned level)
{
	struct lg_dirscan s;
	unsigned char type;
	const char *entry;
	struct stat st;
	int rc = lg_op_dirscan(c, parent, name, level, 1, &s);

	if (rc)
		return rc;
	while ((rc = lg_dirscan_next(&s, &entry, &type)) > 0) {
		if (!strcmp(entry, ".") || !strcmp(entry, ".."))
			continue;
		if (fstatat(s.fd, entry, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			(void)deltree_at(c, s.fd, entry, level + 1);
		else
			(void)unlinkat(s.fd, entry, 0);
	}
	lg_sys_close(s.fd);
	return rc < 0 ? -rc : 0;
}

int lg_op_deltree(struct lg_client *c, const struct lg_op *op, uint64_t call,
		  uint64_t *bytes)
{
	int rc = deltree_at(c, c->sh->dirfd, lg_op_path(c, op->path, op->var), 0);

	(void)call;
	(void)bytes;
	return rc == ENOENT ? 0 : rc; /* nothing to remove: fine for dbench too */
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
	int fd = c->slots[op->slot].fd;
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

/* Whether name matches pattern ignoring ASCII case: '*', '?' and '\\' escapes, as
 * fnmatch(3) with FNM_CASEFOLD treats them. For patterns without a bracket expression
 * (glob_match gives the others to fnmatch), which are all of dbench's: fnmatch's case
 * folding goes through the locale's multibyte machinery for every entry. */
static bool matches(const char *pattern, const char *name)
{
	const char *star = NULL, *resume = NULL;

	while (*name) {
		char p = *pattern == '\\' && pattern[1] ? pattern[1] : *pattern;

		if (*pattern == '*') {
			star = ++pattern;
			resume = name;
		} else if (*pattern == '?' || (*pattern && fold((unsigned char)p) ==
							      fold((unsigned char)*name))) {
			pattern += *pattern == '\\' && pattern[1] ? 2 : 1;
			name++;
		} else if (star) {
			pattern = star;
			name = ++resume;
		} else {
			return false;
		}
	}
	while (*pattern == '*')
		pattern++;
	return !*pattern;
}

/* A Find pattern, looked at once per listing rather than once per entry. */
struct glob {
	const char *pattern; /* the pattern, fnmatch's syntax */
	const char *tail;    /* for '*' then a literal (dbench's "*" and "*.JNK"): the
				literal, which the name must end with; else NULL */
	size_t tlen;         /* its length */
	bool bracket;        /* has a bracket expression: fnmatch decides */
};

static void glob_init(struct glob *g, const char *pattern)
{
	g->pattern = pattern;
	g->bracket = strchr(pattern, '[') != NULL;
	g->tail = pattern[0] == '*' && !strpbrk(pattern + 1, "*?\\[") ? pattern + 1 : NULL;
	g->tlen = g->tail ? strlen(g->tail) : 0;
}

/* Whether name matches g, ignoring case, as fnmatch(3) with FNM_CASEFOLD. */
static bool glob_match(const struct glob *g, const char *name)
{
	size_t n;

	if (g->bracket)
		return fnmatch(g->pattern, name, FNM_CASEFOLD) == 0;
	if (!g->tail)
		return matches(g->pattern, name);
	n = strlen(name);
	return n >= g->tlen && same_nocase(name + n - g->tlen, g->tail);
}

/* The listing of Find: up to max entries of directory dir (0: all of them), "." and
 * ".." included, as fileio's readdir loop; 0 if one matched pattern (fnmatch's syntax, case
 * ignored as SMB does), ENOENT (NO_SUCH_FILE) if none did, or an errno. */
static int list(struct lg_client *c, const char *dir, const char *pattern, uint64_t max)
{
	struct lg_dirscan s;
	struct glob g;
	unsigned char type;
	const char *entry;
	bool found = false;
	int rc = lg_op_dirscan(c, c->sh->dirfd, dir, 0, 1, &s);

	if (rc)
		return rc;
	glob_init(&g, pattern);
	for (uint64_t n = 0; (!max || n < max) && (rc = lg_dirscan_next(&s, &entry, &type)) > 0;
	     n++)
		found = found || glob_match(&g, entry);
	lg_sys_close(s.fd);
	if (rc < 0)
		return -rc;
	return found ? 0 : ENOENT;
}

int lg_op_find(struct lg_client *c, const struct lg_op *op, uint64_t call, uint64_t *bytes)
{
	const char *dir = ".", *pattern;
	char literal[PATH_MAX];
	size_t dlen = 0, plen;

	(void)call;
	(void)bytes;
	if (op->path2 == LG_NO_SLOT) /* no wildcard: a name looked up */
		return resolve(c, lg_op_path(c, op->path, op->var));
	pattern = lg_op_path(c, op->path2, op->var2);
	if (op->path != LG_NO_SLOT) {
		dir = lg_op_path(c, op->path, op->var);
		dlen = strlen(dir) + 1;
	}
	plen = strlen(pattern) + 1;
	/* fileio looks the pattern up as a name before listing (dbench's artefact). */
	if (c->sh->resolve != LG_RESOLVE_SAMBA && dlen + plen <= sizeof(literal)) {
		if (dlen) {
			memcpy(literal, dir, dlen - 1);
			literal[dlen - 1] = '/';
		}
		memcpy(literal + dlen, pattern, plen);
		(void)resolve(c, literal);
	}
	return list(c, dir, pattern, op->size);
}

/* A name op of a dbench loadfile (LG_OP_RESOLVE set): the name resolution, then the
 * op's one call. */
int lg_op_resolved(struct lg_client *c, const struct lg_op *op, uint64_t call,
		   uint64_t *bytes)
{
	const char *path = lg_op_path(c, op->path, op->var), *to;
	int dirfd = c->sh->dirfd;

	(void)call;
	(void)bytes;
	switch (op->kind) {
	case LG_OP_STAT: /* Qpathinfo is only the resolution */
		return resolve(c, path);
	case LG_OP_UNLINK:
		(void)resolve(c, path);
		return result(unlinkat(dirfd, path, 0));
	case LG_OP_RMDIR:
		(void)resolve(c, path);
		return result(unlinkat(dirfd, path, AT_REMOVEDIR));
	case LG_OP_MKDIR:
		(void)resolve(c, path);
		return result(mkdirat(dirfd, path, 0755));
	case LG_OP_RENAME:
		to = lg_op_path(c, op->path2, op->var2);
		(void)resolve(c, path);
		(void)resolve(c, to);
		return result(renameat(dirfd, path, dirfd, to));
	default:
		return EINVAL; /* the loader sets LG_OP_RESOLVE on these kinds only */
	}
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
	return result(fcntl(c->slots[op->slot].fd, F_OFD_SETLK, &fl));
}
