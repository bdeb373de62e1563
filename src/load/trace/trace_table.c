/* The table of the calls the converter knows, the calls that change a thread rather
 * than a file (chdir, execve, clone), and the dispatch of a call to its handler. */
#include "trace_calls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ok(const struct tr_call *k)
{
	return k->has_ret && k->ret >= 0 && !k->err;
}

static const struct tr_arg *arg(const struct tr_call *k, int i)
{
	return i >= 0 && i < k->na ? &k->a[i] : NULL;
}

static int h_cwd(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		 const struct tr_spec *sp)
{
	char out[4352], abs[4400];
	int in;
	char *cwd;

	if (!ok(k))
		return 0;
	if (sp->path >= 0) {
		in = tr_resolve(c, t, NULL, arg(k, 0), out, sizeof(out));
	} else {
		struct tr_slot *s;

		in = tr_fd(c, t, arg(k, 0), &s);
		snprintf(out, sizeof(out), "%s", c->fdpath);
	}
	if (in < 0)
		return 0;
	if (in == 1)
		snprintf(abs, sizeof(abs), "%s%s%s", c->dir, out[0] ? "/" : "", out);
	else
		snprintf(abs, sizeof(abs), "%s", out);
	if (!(cwd = strdup(abs)))
		return -1;
	free(t->fs->cwd);
	t->fs->cwd = cwd;
	return 0;
}

static int h_exec(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		  const struct tr_spec *sp)
{
	char path[4352];
	const char *b;

	(void)c;
	if (ok(k) && arg(k, sp->path) && tr_str(arg(k, sp->path)->s, arg(k, sp->path)->n, path,
						 sizeof(path))) {
		b = strrchr(path, '/');
		snprintf(t->comm, sizeof(t->comm), "%.63s", b ? b + 1 : path);
	}
	return 0;
}

static int h_clone(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		   const struct tr_spec *sp)
{
	long tid = (long)k->ret;
	void **at = tr_map_at(&c->tasks, &tid, sizeof(tid), false, NULL);
	struct tr_task *ch = at && !((struct tr_task *)*at)->dead ? *at : NULL;
	bool files = false, fs = false;

	(void)sp;
	t->cloning = false;
	if (!ok(k) || k->ret == 0)
		return 0;
	for (int i = 0; i < k->na; i++) {
		files |= memmem(k->a[i].s, k->a[i].n, "CLONE_FILES", 11) != NULL;
		fs |= memmem(k->a[i].s, k->a[i].n, "CLONE_FS", 8) != NULL;
	}
	if (!ch && !(ch = tr_task_clone(c, t, tid, files, fs)))
		return -1;
	ch->clone_end = k->t_ns + k->dur_ns;
	return 0;
}

#define PATH1(n, f, o, v) { .name = n, .fn = f, .op = o, .dirfd = -1, .path = 0, .flags = -1, \
			    .dirfd2 = -1, .path2 = -1, .variant = v }
#define PATHAT(n, f, o, fl, v) { .name = n, .fn = f, .op = o, .dirfd = 0, .path = 1, \
				 .flags = fl, .dirfd2 = -1, .path2 = -1, .variant = v }
#define FD(n, f, o, v) { .name = n, .fn = f, .op = o, .dirfd = -1, .path = -1, .flags = -1, \
			 .dirfd2 = -1, .path2 = -1, .variant = v }

static const struct tr_spec specs[] = {
	{ .name = "open", .fn = tr_h_open, .dirfd = -1, .path = 0, .flags = 1, .dirfd2 = -1,
	  .path2 = -1 },
	PATHAT("openat", tr_h_open, "open", 2, 0),
	PATHAT("openat2", tr_h_open, "open", 2, 0),
	{ .name = "creat", .fn = tr_h_open, .dirfd = -1, .path = 0, .flags = -1, .dirfd2 = -1,
	  .path2 = -1 },
	FD("close", tr_h_close, "close", 0),
	FD("read", tr_h_rw, "read", 0),
	FD("pread64", tr_h_rw, "read", TR_POS),
	FD("readv", tr_h_rw, "read", TR_VEC),
	FD("preadv", tr_h_rw, "read", TR_VEC | TR_POS),
	FD("preadv2", tr_h_rw, "read", TR_VEC | TR_POS),
	FD("write", tr_h_rw, "write", TR_WRITE),
	FD("pwrite64", tr_h_rw, "write", TR_WRITE | TR_POS),
	FD("writev", tr_h_rw, "write", TR_WRITE | TR_VEC),
	FD("pwritev", tr_h_rw, "write", TR_WRITE | TR_VEC | TR_POS),
	FD("pwritev2", tr_h_rw, "write", TR_WRITE | TR_VEC | TR_POS),
	FD("lseek", tr_h_lseek, "seek", 0),
	FD("fsync", tr_h_fd, "fsync", 0),
	FD("fdatasync", tr_h_fd, "fdatasync", 0),
	FD("syncfs", tr_h_fd, "syncfs", 0),
	FD("fstat", tr_h_fd, "fstat", TR_STATBUF),
	FD("sync_file_range", tr_h_range, "sync_file_range", 0),
	FD("fadvise64", tr_h_range, "fadvise", 0),
	FD("fallocate", tr_h_range, "fallocate", 0),
	FD("ftruncate", tr_h_range, "truncate", 0),
	FD("getdents64", tr_h_getdents, "getdents", 0),
	FD("dup", tr_h_dup, NULL, 0),
	FD("dup2", tr_h_dup, NULL, 0),
	FD("dup3", tr_h_dup, NULL, 0),
	FD("fcntl", tr_h_dup, NULL, 0),
	FD("mmap", tr_h_mmap, NULL, 0),
	PATH1("stat", tr_h_stat, "stat", 0),
	PATH1("lstat", tr_h_stat, "stat", TR_NOFOLLOW),
	PATHAT("newfstatat", tr_h_stat, "stat", 3, 0),
	PATHAT("statx", tr_h_stat, "statx", 2, 0),
	PATH1("access", tr_h_access, "access", 0),
	PATHAT("faccessat", tr_h_access, "access", -1, 0),
	PATHAT("faccessat2", tr_h_access, "access", 3, 0),
	PATH1("mkdir", tr_h_named, "mkdir", 0),
	PATHAT("mkdirat", tr_h_named, "mkdir", -1, 0),
	PATH1("rmdir", tr_h_named, "rmdir", TR_RMDIR),
	PATH1("unlink", tr_h_named, "unlink", 0),
	PATHAT("unlinkat", tr_h_named, "unlink", 2, 0),
	PATH1("readlink", tr_h_named, "readlink", 0),
	PATHAT("readlinkat", tr_h_named, "readlink", -1, 0),
	PATH1("truncate", tr_h_named, "truncate", 0),
	{ .name = "rename", .fn = tr_h_two, .op = "rename", .dirfd = -1, .path = 0, .flags = -1,
	  .dirfd2 = -1, .path2 = 1 },
	{ .name = "renameat", .fn = tr_h_two, .op = "rename", .dirfd = 0, .path = 1, .flags = -1,
	  .dirfd2 = 2, .path2 = 3 },
	{ .name = "renameat2", .fn = tr_h_two, .op = "rename", .dirfd = 0, .path = 1, .flags = 4,
	  .dirfd2 = 2, .path2 = 3 },
	{ .name = "link", .fn = tr_h_two, .op = "link", .dirfd = -1, .path = 0, .flags = -1,
	  .dirfd2 = -1, .path2 = 1 },
	{ .name = "linkat", .fn = tr_h_two, .op = "link", .dirfd = 0, .path = 1, .flags = 4,
	  .dirfd2 = 2, .path2 = 3 },
	{ .name = "symlink", .fn = tr_h_symlink, .dirfd = -1, .path = 1, .flags = -1, .dirfd2 = -1,
	  .path2 = -1 },
	{ .name = "symlinkat", .fn = tr_h_symlink, .dirfd = 1, .path = 2, .flags = -1,
	  .dirfd2 = -1, .path2 = -1 },
	PATH1("chmod", tr_h_meta, "chmod", 0),
	PATHAT("fchmodat", tr_h_meta, "chmod", -1, 0),
	FD("fchmod", tr_h_meta, "chmod", TR_FILE),
	PATH1("chown", tr_h_meta, "chown", 0),
	PATH1("lchown", tr_h_meta, "chown", TR_NOFOLLOW),
	PATHAT("fchownat", tr_h_meta, "chown", 4, 0),
	FD("fchown", tr_h_meta, "chown", TR_FILE),
	PATHAT("utimensat", tr_h_meta, "utimens", 3, 0),
	PATHAT("futimesat", tr_h_meta, "utimens", -1, 0),
	PATH1("utime", tr_h_meta, "utimens", 0),
	PATH1("utimes", tr_h_meta, "utimens", 0),
	PATH1("setxattr", tr_h_xattr, "setxattr", 0),
	PATH1("lsetxattr", tr_h_xattr, "setxattr", TR_NOFOLLOW),
	FD("fsetxattr", tr_h_xattr, "setxattr", TR_FILE),
	PATH1("getxattr", tr_h_xattr, "getxattr", 0),
	PATH1("lgetxattr", tr_h_xattr, "getxattr", TR_NOFOLLOW),
	FD("fgetxattr", tr_h_xattr, "getxattr", TR_FILE),
	PATH1("listxattr", tr_h_xattr, "listxattr", 0),
	PATH1("llistxattr", tr_h_xattr, "listxattr", TR_NOFOLLOW),
	FD("flistxattr", tr_h_xattr, "listxattr", TR_FILE),
	PATH1("removexattr", tr_h_xattr, "removexattr", 0),
	PATH1("lremovexattr", tr_h_xattr, "removexattr", TR_NOFOLLOW),
	FD("fremovexattr", tr_h_xattr, "removexattr", TR_FILE),
	PATH1("statfs", tr_h_statfs, "statfs", 0),
	FD("fstatfs", tr_h_statfs, "statfs", TR_FILE),
	PATH1("chdir", h_cwd, NULL, 0),
	FD("fchdir", h_cwd, NULL, 0),
	PATH1("execve", h_exec, NULL, 0),
	{ .name = "execveat", .fn = h_exec, .dirfd = 0, .path = 1, .flags = -1, .dirfd2 = -1,
	  .path2 = -1 },
	FD("clone", h_clone, NULL, 0),
	FD("clone3", h_clone, NULL, 0),
	FD("fork", h_clone, NULL, 0),
	FD("vfork", h_clone, NULL, 0),
	PATH1("mknod", tr_h_unmapped, NULL, 0),
	PATHAT("mknodat", tr_h_unmapped, NULL, -1, 0),
	PATH1("chroot", tr_h_unmapped, NULL, 0),
	PATH1("mkfifo", tr_h_unmapped, NULL, 0),
	PATH1("truncate64", tr_h_unmapped, NULL, 0),
	PATH1("swapon", tr_h_unmapped, NULL, 0),
	PATH1("acct", tr_h_unmapped, NULL, 0),
	PATHAT("name_to_handle_at", tr_h_unmapped, NULL, -1, 0),
	{ .name = "inotify_add_watch", .fn = tr_h_unmapped, .dirfd = -1, .path = 1, .flags = -1,
	  .dirfd2 = -1, .path2 = -1 },
	{ .name = "fanotify_mark", .fn = tr_h_unmapped, .dirfd = 3, .path = 4, .flags = -1,
	  .dirfd2 = -1, .path2 = -1 },
	PATHAT("open_tree", tr_h_unmapped, NULL, -1, 0),
	PATHAT("mount_setattr", tr_h_unmapped, NULL, -1, 0),
	PATH1("umount2", tr_h_unmapped, NULL, 0),
};

int tr_specs(struct tr_ctx *c)
{
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		bool nomem = false;
		void **at = tr_map_at(&c->specs, specs[i].name, strlen(specs[i].name), true, &nomem);

		if (!at)
			return -1;
		*at = (void *)&specs[i];
	}
	return 0;
}

int tr_call(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k)
{
	void **at = tr_map_at(&c->specs, k->name, strlen(k->name), false, NULL);
	const struct tr_spec *sp = at ? *at : NULL;
	static const struct tr_spec other = FD("", tr_h_other, NULL, 0);

	if (!sp)
		sp = &other;
	if (sp->fn(c, t, k, sp) || c->nomem)
		return -1;
	return 0;
}
