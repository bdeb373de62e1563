/* trace/: strace -f -ttt -T -y traces converted into recorded workloads -- the YAML text
 * of each kind of call, streams with their `after` and `think` steps, slots of shared and
 * inherited fd tables, the input tree (given or inferred), the summary, the refusal of
 * other formats with file:line:col, and the speed on a large trace. */
#include "loadgen/load/trace.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"
#include "loadgen/model/workload.h"

static char *yaml;                  /* the last conversion's output */
static char err[512];               /* its error */
static struct lg_trace_summary sum; /* its summary */

/* Convert trace (recorded in /d) with o (NULL: defaults). */
static int conv_with(const char *trace, const struct lg_trace_opts *o)
{
	struct lg_trace_opts def = { .dir = "/d", .overhead_ns = 0 };
	FILE *in = fmemopen((void *)trace, strlen(trace), "r"), *out;
	size_t len = 0;
	int rc;

	free(yaml);
	yaml = NULL;
	out = open_memstream(&yaml, &len);
	assert_non_null(in);
	assert_non_null(out);
	err[0] = '\0';
	rc = lg_trace_convert(in, "t.txt", o ? o : &def, out, &sum, err, sizeof(err));
	fclose(in);
	fclose(out);
	return rc;
}

static int conv(const char *trace)
{
	return conv_with(trace, NULL);
}

/* yaml holds s (printing the whole text when not). */
static void has(const char *s)
{
	if (!strstr(yaml, s)) {
		fprintf(stderr, "expected\n%s\nin\n%s", s, yaml);
		fail();
	}
}

static void hasnt(const char *s)
{
	if (strstr(yaml, s)) {
		fprintf(stderr, "did not expect\n%s\nin\n%s", s, yaml);
		fail();
	}
}

#define L(pid, t, text) #pid " 1700000000." #t " " text "\n"

static void test_files(void **state)
{
	(void)state;
	assert_int_equal(conv(
		L(10, 000100, "execve(\"/usr/bin/tool\", [\"tool\"], 0x7ffd /* 3 vars */) = 0 <0.000300>")
		L(10, 000500, "openat(AT_FDCWD</d>, \"/lib/libc.so.6\", O_RDONLY|O_CLOEXEC) = 3</usr/lib/libc.so.6> <0.000010>")
		L(10, 000520, "read(3</usr/lib/libc.so.6>, \"\\177ELF\"..., 832) = 832 <0.000010>")
		L(10, 000540, "close(3</usr/lib/libc.so.6>) = 0 <0.000010>")
		L(10, 001000, "openat(AT_FDCWD</d>, \"out\", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 3</d/out> <0.000020>")
		L(10, 001100, "write(3</d/out>, \"hello, \\\"world\\\"\\n\"..., 4096) = 4096 <0.000015>")
		L(10, 001200, "pwrite64(3</d/out>, \"x\", 1, 8192) = 1 <0.000010>")
		L(10, 001300, "lseek(3</d/out>, -10, SEEK_END) = 8183 <0.000010>")
		L(10, 001400, "fdatasync(3</d/out>) = 0 <0.000100>")
		L(10, 001600, "writev(3</d/out>, [{iov_base=\"a\", iov_len=1}, {iov_base=\"b\", iov_len=1}], 2) = 2 <0.000010>")
		L(10, 001700, "close(3</d/out>) = 0 <0.000010>")
		L(10, 001800, "unlink(\"gone\") = -1 ENOENT (No such file or directory) <0.000010>")
		L(10, 001900, "exit_group(0) = ?")
		L(10, 002000, "+++ exited with 0 +++")), 0);
	has("streams:\n  - name: \"10 tool\"\n    steps:\n");
	has("      - create: {path: \"${client}/out\", as: t10.fd3, flags: [write, truncate]}\n");
	has("      - write: {file: t10.fd3, size: 4096}\n");
	has("      - write: {file: t10.fd3, size: 1, offset: 8192}\n");
	has("      - seek: {file: t10.fd3, offset: -10, whence: end}\n");
	has("      - fdatasync: {file: t10.fd3}\n");
	has("      - write: {file: t10.fd3, size: 2, vector: true}\n");
	has("      - close: {file: t10.fd3}\n");
	has("      - unlink: {path: \"${client}/gone\", expect: ENOENT}\n");
	/* think: the gap since the previous kept call ended */
	has("      - think: 80us\n      - write: {file: t10.fd3, size: 4096}");
	hasnt("path: \"/");
	assert_int_equal(sum.calls_kept, 8);
	assert_int_equal(sum.streams, 1);
	assert_int_equal(sum.calls_left_out, 3);
	assert_int_equal(sum.paths_left_out, 2); /* the name opened, the file it is */
	assert_string_equal(sum.example_left_out, "/lib/libc.so.6");
	has("  left_out: \"3 calls on 2 paths outside /d (e.g. /lib/libc.so.6)\"\n");
	has("cleanup:\n  - deltree: \"${client}\"\n  - rmdir: \"${client}\"\n");
}

/* Think times: the tracer's overhead per traced call in the gap is taken off. */
static void test_think(void **state)
{
	struct lg_trace_opts o = { .dir = "/d", .overhead_ns = 10000 };

	(void)state;
	assert_int_equal(conv_with(
		L(10, 000000, "mkdir(\"a\", 0777) = 0 <0.000010>")
		L(10, 000100, "getpid() = 10 <0.000001>")
		L(10, 000200, "getpid() = 10 <0.000001>")
		L(10, 000500, "mkdir(\"b\", 0777) = 0 <0.000010>")
		L(10, 000515, "mkdir(\"c\", 0777) = 0 <0.000010>"), &o), 0);
	/* the gaps less the 2 us the left-out getpids took, less 10 us a gap: -10 before a
	 * (at the trace's start), 490 - 2 - 3 x 10 = 458 before b, 5 - 10 = -5 before c;
	 * the stream's think in all is their sum, 443, given to the gap above zero */
	has("      - mkdir: {path: \"${client}/a\"}\n      - think: 443us\n"
	    "      - mkdir: {path: \"${client}/b\"}\n      - mkdir: {path: \"${client}/c\"}\n");
	has("  trace_overhead_ns: 10000\n");
}

/* Gaps no larger than the tracer's cost: no think time from the trace alone; with untraced
 * runs (whose fit scales it) an even share per traced gap, left-out calls' gaps counted. */
static void test_think_even(void **state)
{
	static const char T[] =
		L(10, 000000, "mkdir(\"a\", 0777) = 0 <0.000010>")
		L(10, 000018, "mkdir(\"b\", 0777) = 0 <0.000010>")
		L(10, 000030, "getpid() = 10 <0.000001>")
		L(10, 000038, "mkdir(\"c\", 0777) = 0 <0.000010>");
	struct lg_trace_opts o = { .dir = "/d", .overhead_ns = 10000 };

	(void)state;
	assert_int_equal(conv_with(T, &o), 0);
	hasnt("think:");
	o.untraced_runs = 3;
	o.think_scale = 0.5;
	assert_int_equal(conv_with(T, &o), 0);
	/* 1 us a gap, times the scale: one gap before b, two (the getpid's) before c; the
	 * trace's start counts as one before a */
	has("    steps:\n      - think: 500ns\n      - mkdir: {path: \"${client}/a\"}\n"
	    "      - think: 500ns\n      - mkdir: {path: \"${client}/b\"}\n"
	    "      - think: 1us\n      - mkdir: {path: \"${client}/c\"}\n");
}

/* Interrupted calls joined; a child that runs before its clone returns; its first call
 * waits for its parent's calls before the clone, and ordering on a shared file. */
static const char STREAMS[] =
		L(10, 000000, "execve(\"/bin/sh\", [\"sh\"], 0x1 /* 1 var */) = 0 <0.000100>")
		L(10, 000200, "openat(AT_FDCWD</d>, \"f\", O_RDWR|O_CREAT, 0644) = 3</d/f> <0.000010>")
		L(10, 000300, "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>")
		L(11, 000350, "write(3</d/f>, \"abc\", 3) = 3 <0.000010>")
		L(10, 000400, "<... clone resumed>, child_tidptr=0x7f) = 11 <0.000100>")
		L(11, 000500, "execve(\"/usr/bin/cat\", [\"cat\"], 0x1 /* 1 var */ <unfinished ...>")
		L(10, 000510, "read(3</d/f>, \"\", 4096 <unfinished ...>")
		L(11, 000600, "<... execve resumed>) = 0 <0.000100>")
		L(10, 000700, "<... read resumed>) = 0 <0.000190>")
		L(11, 000800, "openat(AT_FDCWD</d>, \"f\", O_RDONLY) = 4</d/f> <0.000010>")
		L(11, 000900, "close(3</d/f>) = 0 <0.000010>")
		L(11, 001000, "+++ exited with 0 +++")
		L(10, 001100, "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=11} ---")
		L(10, 001200, "close(3</d/f>) = 0 <0.000010>");

static void test_streams(void **state)
{
	(void)state;
	assert_int_equal(conv(STREAMS), 0);
	/* the program's first call: its think time counts from the trace's start (its
	 * exec and the loader's work), less the time of the calls left out (the exec's
	 * 100 us) */
	has("  - name: \"10 sh\"\n    steps:\n      - think: 100us\n"
	    "      - create: {path: \"${client}/f\", as: t10.fd3, flags: [rdwr]}\n");
	/* the child's first call: after the parent's first call, no think (it ran first) */
	has("  - name: \"11 cat\"\n    steps:\n      - after: {stream: \"10 sh\", calls: 1}\n"
	    "      - write: {file: t10.fd3, size: 3}\n");
	/* the parent's read waits for the child's write on the slot (and is joined) */
	has("      - after: {stream: \"11 cat\", calls: 1}\n      - think: 200us\n"
	    "      - read: {file: t10.fd3, size: 4096}\n");
	/* the child's open of f: after the parent's read of f (the file's data: a resource
	 * of the calls on its slots too) */
	has("      - write: {file: t10.fd3, size: 3}\n"
	    "      - after: {stream: \"10 sh\", calls: 2}\n      - think: 340us\n"
	    "      - open: {path: \"${client}/f\", as: t11.fd4, flags: [read]}\n");
	/* the child's close of the inherited fd is not replayed, the parent's is */
	assert_int_equal(sum.n_not_replayed, 1);
	assert_string_equal(sum.not_replayed[0].name, "close of an inherited/dup'd fd");
	has("      - close: {file: t10.fd3}\n");
	has("  not_replayed: \"close of an inherited/dup'd fd 1\"\n");
	assert_int_equal(sum.streams, 2);
}

/* Threads (CLONE_FILES) share the fd table: the slot is the owner's. */
static void test_threads(void **state)
{
	(void)state;
	assert_int_equal(conv(
		L(20, 000000, "openat(AT_FDCWD</d>, \"db\", O_RDWR|O_CREAT|O_EXCL|O_DIRECT, 0600) = 5</d/db> <0.000010>")
		L(20, 000100, "clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD, exit_signal=0}, 88) = 21 <0.000050>")
		L(21, 000200, "pread64(5</d/db>, \"\\0\\0\", 512, 4096) = 512 <0.000010>")
		L(21, 000300, "close(5</d/db>) = 0 <0.000010>")
		L(20, 000400, "openat(AT_FDCWD</d>, \"db\", O_RDONLY) = 5</d/db> <0.000010>")), 0);
	has("      - create: {path: \"${client}/db\", as: t20.fd5, flags: [rdwr, exclusive, direct]}\n");
	has("  - name: \"21 proc\"\n");
	has("      - read: {file: t20.fd5, size: 512, offset: 4096}\n      - think: 90us\n"
	    "      - close: {file: t20.fd5}\n");
	has("      - after: {stream: \"21 proc\", calls: 2}\n");
	assert_int_equal(sum.n_not_replayed, 0);
}

/* A slot left open in the replay (an exec closed its fd) keeps its name to itself. */
static void test_names(void **state)
{
	(void)state;
	assert_int_equal(conv(
		L(10, 000000, "openat(AT_FDCWD</d>, \"a\", O_RDONLY|O_CLOEXEC) = 3</d/a> <0.000010>")
		L(10, 000100, "execve(\"/bin/b\", [\"b\"], 0x1 /* 1 var */) = 0 <0.000010>")
		L(10, 000200, "openat(AT_FDCWD</d>, \"b\", O_RDONLY) = 3</d/b> <0.000010>")
		L(10, 000300, "close(3</d/b>) = 0 <0.000010>")
		L(10, 000400, "openat(AT_FDCWD</d>, \"c\", O_RDONLY) = 3</d/c> <0.000010>")
		L(10, 000500, "close(3</d/c>) = 0 <0.000010>")), 0);
	has("      - open: {path: \"${client}/a\", as: t10.fd3, flags: [read]}\n");
	has("      - open: {path: \"${client}/b\", as: t10.fd3.1, flags: [read]}\n");
	has("      - close: {file: t10.fd3.1}\n");
	has("      - open: {path: \"${client}/c\", as: t10.fd3.2, flags: [read]}\n");
}

/* strace -p stopped: the calls it let go of have no result, and are left out. */
static void test_detached(void **state)
{
	(void)state;
	assert_int_equal(conv(
		L(10, 000000, "mkdir(\"a\", 0777) = 0 <0.000010>")
		L(10, 000100, "read(3</d/a>, <unfinished ...>")
		L(11, 000200, "write(4</d/b>, \"x\", 1 <detached ...>")
		L(10, 000300, "<... read resumed> <detached ...>")), 0);
	has("      - mkdir: {path: \"${client}/a\"}\n");
	hasnt("read:"), hasnt("write:");
}

/* A pid used again after its process exited: another stream, named apart. */
static void test_reuse(void **state)
{
	(void)state;
	assert_int_equal(conv(
		L(30, 000000, "execve(\"/bin/a\", [\"a\"], 0x1 /* 1 var */) = 0 <0.000010>")
		L(30, 000100, "mkdir(\"a\", 0777) = 0 <0.000010>")
		L(30, 000200, "+++ exited with 0 +++")
		L(30, 000300, "mkdir(\"a/b\", 0777) = 0 <0.000010>")), 0);
	has("  - name: \"30 a\"\n    steps:\n      - think: 90us\n"
	    "      - mkdir: {path: \"${client}/a\"}\n      - think: 90us\n"
	    "  - name: \"30.1 proc\"\n    steps:\n      - after: {stream: \"30 a\", calls: 1}\n"
	    "      - mkdir: {path: \"${client}/a/b\"}\n");
}

/* A wait4 that reaped a child puts the parent's next call after the child's last; the
 * time of the calls left out (waiting in wait4, on a pipe) is not think time. */
static void test_waits(void **state)
{
	(void)state;
	assert_int_equal(conv(
		L(40, 000000, "mkdir(\"a\", 0777) = 0 <0.000010>")
		L(40, 000100, "clone(child_stack=NULL, flags=SIGCHLD) = 41 <0.000010>")
		L(40, 000120, "wait4(-1,  <unfinished ...>")
		L(41, 000200, "stat(\"x\", 0x7ffe) = -1 ENOENT (No such file or directory) <0.000010>")
		L(41, 000300, "+++ exited with 0 +++")
		L(40, 000320, "<... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 41 <0.000200>")
		L(40, 000330, "read(5<pipe:[77]>, \"x\", 1) = 1 <0.000050>")
		L(40, 000400, "mkdir(\"c\", 0777) = 0 <0.000010>")), 0);
	/* 390 us since mkdir a ended, of which 10 in the clone, 200 in wait4 and 50 in the
	 * pipe's read; the child's call shares nothing with the parent's, so only the
	 * reaping orders them: after the child's end, its time after its last call (till
	 * its exit: a compiler's work elsewhere) its last think */
	has("      - after: {stream: \"41 proc\", calls: end}\n      - think: 130us\n"
	    "      - mkdir: {path: \"${client}/c\"}\n");
	has("      - stat: {path: \"${client}/x\", follow: true, expect: ENOENT}\n"
	    "      - think: 90us\ncleanup:");
}

/* cwd: chdir, fchdir, a child inheriting it; dirfds decoded. */
static void test_cwd(void **state)
{
	(void)state;
	assert_int_equal(conv(
		L(10, 000000, "chdir(\"sub\") = 0 <0.000010>")
		L(10, 000100, "mkdir(\"x\", 0755) = 0 <0.000010>")
		L(10, 000200, "vfork() = 12 <0.000010>")
		L(12, 000300, "stat(\"../top\", 0x7ffe) = -1 ENOENT (No such file or directory) <0.000010>")
		L(12, 000400, "chdir(\"/elsewhere\") = 0 <0.000010>")
		L(12, 000500, "lstat(\"y\", 0x7ffe) = -1 ENOENT (No such file or directory) <0.000010>")
		L(10, 000600, "openat(3</d/sub/x>, \"z\", O_RDONLY|O_DIRECTORY) = -1 ENOENT (No such file or directory) <0.000010>")
		L(10, 000700, "fchdir(4</d/sub/x>) = 0 <0.000010>")
		L(10, 000800, "rmdir(\".\") = -1 EINVAL (Invalid argument) <0.000010>")), 0);
	has("      - mkdir: {path: \"${client}/sub/x\"}\n");
	has("  - name: \"12 proc\"\n    steps:\n      - after: {stream: \"10 proc\", calls: 1}\n"
	    "      - think: 90us\n      - stat: {path: \"${client}/top\", follow: true, expect: ENOENT}\n");
	has("      - open: {path: \"${client}/sub/x/z\", as: t10.failed, flags: [read, directory], "
	    "expect: ENOENT}\n");
	has("      - rmdir: {path: \"${client}/sub/x\", expect: EINVAL}\n");
	assert_int_equal(sum.calls_left_out, 1); /* lstat of /elsewhere/y */
	/* cleanup: the directories deepest first */
	has("  - rmdir: {path: \"${client}/sub/x\", expect: any}\n"
	    "  - rmdir: {path: \"${client}/sub\", expect: any}\n  - rmdir: \"${client}\"\n");
}

/* The other calls of the op table, each in its YAML form. */
static const char CALLS[] =
		L(10, 000000, "newfstatat(AT_FDCWD</d>, \"f\", {st_mode=S_IFREG|0644, st_size=100, ...}, AT_SYMLINK_NOFOLLOW) = 0 <0.000010>")
		L(10, 000010, "openat(AT_FDCWD</d>, \"f\", O_RDWR|O_APPEND|O_SYNC|O_NOATIME) = 3</d/f> <0.000010>")
		L(10, 000020, "newfstatat(3</d/f>, \"\", {st_mode=S_IFREG|0644, st_size=100, ...}, AT_EMPTY_PATH) = 0 <0.000010>")
		L(10, 000030, "statx(AT_FDCWD</d>, \"l\", AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW, STATX_ALL, {stx_mask=STATX_ALL, stx_mode=S_IFLNK|0777, stx_size=1, ...}) = 0 <0.000010>")
		L(10, 000040, "statx(3</d/f>, \"\", AT_STATX_SYNC_AS_STAT|AT_EMPTY_PATH, STATX_ALL, {stx_mask=STATX_ALL, stx_size=100, ...}) = 0 <0.000010>")
		L(10, 000050, "faccessat2(AT_FDCWD</d>, \"f\", R_OK|W_OK, AT_EACCESS) = 0 <0.000010>")
		L(10, 000060, "access(\"f\", F_OK) = 0 <0.000010>")
		L(10, 000070, "fsync(3</d/f>) = 0 <0.000010>")
		L(10, 000080, "sync_file_range(3</d/f>, 0, 4096, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE) = 0 <0.000010>")
		L(10, 000090, "fadvise64(3</d/f>, 0, 0, POSIX_FADV_DONTNEED) = 0 <0.000010>")
		L(10, 000100, "fallocate(3</d/f>, FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, 4096, 8192) = 0 <0.000010>")
		L(10, 000110, "ftruncate(3</d/f>, 10) = 0 <0.000010>")
		L(10, 000120, "truncate(\"f\", 20) = 0 <0.000010>")
		L(10, 000130, "fchmod(3</d/f>, 0600) = 0 <0.000010>")
		L(10, 000140, "fchmodat(AT_FDCWD</d>, \"f\", S_ISUID|0755) = 0 <0.000010>")
		L(10, 000145, "chmod(\"/d/f\", 0100744) = 0 <0.000010>")
		L(10, 000150, "fchownat(AT_FDCWD</d>, \"l\", 0, 0, AT_SYMLINK_NOFOLLOW) = 0 <0.000010>")
		L(10, 000160, "fchown(3</d/f>, 0, 0) = 0 <0.000010>")
		L(10, 000170, "utimensat(3</d/f>, NULL, NULL, 0) = 0 <0.000010>")
		L(10, 000180, "utimensat(AT_FDCWD</d>, \"f\", [UTIME_NOW, UTIME_NOW], 0) = 0 <0.000010>")
		L(10, 000190, "setxattr(\"/d/f\", \"user.k\", \"vvvv\", 4, XATTR_CREATE) = 0 <0.000010>")
		L(10, 000200, "fgetxattr(3</d/f>, \"user.k\", 0x0, 0) = 4 <0.000010>")
		L(10, 000210, "llistxattr(\"/d/l\", 0x5555, 256) = -1 EOPNOTSUPP (Operation not supported) <0.000010>")
		L(10, 000220, "removexattr(\"/d/f\", \"user.k\") = 0 <0.000010>")
		L(10, 000230, "readlinkat(AT_FDCWD</d>, \"l\", \"f\", 4095) = 1 <0.000010>")
		L(10, 000240, "symlinkat(\"/d/sub/f\", AT_FDCWD</d>, \"sub/l2\") = 0 <0.000010>")
		L(10, 000250, "symlink(\"/etc/passwd\", \"l3\") = 0 <0.000010>")
		L(10, 000260, "linkat(AT_FDCWD</d>, \"f\", AT_FDCWD</d>, \"h\", 0) = 0 <0.000010>")
		L(10, 000270, "renameat2(AT_FDCWD</d>, \"h\", AT_FDCWD</d>, \"f\", RENAME_EXCHANGE) = 0 <0.000010>")
		L(10, 000280, "rename(\"h\", \"/tmp/h\") = -1 EXDEV (Invalid cross-device link) <0.000010>")
		L(10, 000290, "unlinkat(AT_FDCWD</d>, \"sub/\", AT_REMOVEDIR) = -1 ENOTEMPTY (Directory not empty) <0.000010>")
		L(10, 000300, "getdents64(3</d/f>, 0x5555 /* 0 entries */, 32768) = -1 ENOTDIR (Not a directory) <0.000010>")
		L(10, 000310, "ioctl(3</d/f>, FS_IOC_GETFLAGS, 0x7ffe) = 0 <0.000010>")
		L(10, 000320, "flock(3</d/f>, LOCK_EX) = 0 <0.000010>")
		L(10, 000330, "fcntl(3</d/f>, F_SETLKW, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=0}) = 0 <0.000010>")
		L(10, 000340, "mmap(NULL, 4096, PROT_READ, MAP_SHARED, 3</d/f>, 0) = 0x7f0000 <0.000010>")
		L(10, 000350, "mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f1000 <0.000010>")
		L(10, 000360, "mknodat(AT_FDCWD</d>, \"fifo\", S_IFIFO|0644) = 0 <0.000010>")
		L(10, 000370, "fstatfs(3</d/f>, {f_type=EXT2_SUPER_MAGIC, ...}) = 0 <0.000010>")
		L(10, 000380, "creat(\"new\", 0644) = 4</d/new> <0.000010>")
		L(10, 000390, "openat2(AT_FDCWD</d>, \"new2\", {flags=O_WRONLY|O_CREAT|O_CLOEXEC, mode=0644, resolve=RESOLVE_NO_SYMLINKS}, 24) = 5</d/new2> <0.000010>");

static void test_calls(void **state)
{
	(void)state;
	assert_int_equal(conv(CALLS), 0);
	has("      - stat: {path: \"${client}/f\"}\n");
	has("      - open: {path: \"${client}/f\", as: t10.fd3, flags: [rdwr, append, sync, noatime]}\n");
	has("      - fstat: {file: t10.fd3}\n");
	has("      - statx: {path: \"${client}/l\", nofollow: true}\n");
	has("      - statx: {file: t10.fd3}\n");
	has("      - access: {path: \"${client}/f\", mode: [read, write]}\n");
	has("      - access: {path: \"${client}/f\"}\n");
	has("      - fsync: {file: t10.fd3}\n      - sync_file_range");
	has("sync_file_range: {file: t10.fd3, offset: 0, size: 4096, flags: [wait_before, write]}\n");
	has("      - fadvise: {file: t10.fd3, advice: dontneed, offset: 0, size: 0}\n");
	has("      - fallocate: {file: t10.fd3, offset: 4096, size: 8192, mode: [keep_size, punch_hole]}\n");
	has("      - truncate: {file: t10.fd3, size: 10}\n");
	has("      - truncate: {path: \"${client}/f\", size: 20}\n");
	has("      - chmod: {file: t10.fd3, mode: 0600}\n");
	has("      - chmod: {path: \"${client}/f\", mode: 04755}\n");
	has("      - chmod: {path: \"${client}/f\", mode: 0744}\n");
	has("      - chown: {path: \"${client}/l\", nofollow: true}\n");
	has("      - chown: {file: t10.fd3}\n");
	has("      - utimens: {file: t10.fd3}\n");
	has("      - utimens: {path: \"${client}/f\"}\n");
	has("      - setxattr: {path: \"${client}/f\", name: \"user.k\", size: 4, flags: [create]}\n");
	has("      - getxattr: {file: t10.fd3, name: \"user.k\", size: 0}\n");
	has("      - listxattr: {path: \"${client}/l\", nofollow: true, size: 256, expect: EOPNOTSUPP}\n");
	has("      - removexattr: {path: \"${client}/f\", name: \"user.k\"}\n");
	has("      - readlink: {path: \"${client}/l\"}\n");
	has("      - symlink: {target: \"f\", path: \"${client}/sub/l2\"}\n");
	has("      - link: {from: \"${client}/f\", to: \"${client}/h\"}\n");
	has("      - rename: {from: \"${client}/h\", to: \"${client}/f\", flags: [exchange]}\n");
	has("      - rmdir: {path: \"${client}/sub/\", expect: ENOTEMPTY}\n");
	has("      - getdents: {file: t10.fd3, size: 32768, expect: ENOTDIR}\n");
	has("      - statfs: {}\n");
	has("      - create: {path: \"${client}/new\", as: t10.fd4, flags: [write, truncate]}\n");
	has("      - create: {path: \"${client}/new2\", as: t10.fd5, flags: [write]}\n");
	has("  file_mmaps: 1\n");
	has("  not_replayed: \"symlink out of the directory 1, rename across the directory 1, "
	    "ioctl 1, flock 1, fcntl F_SETLKW 1, mknodat 1\"\n");
	/* the input tree inferred: f existed (100 bytes), l a symlink to f, sub a directory */
	has("  input_tree: \"inferred from the trace (no snapshot of the directory)\"\n");
	has("setup:\n  - mkdir: \"${client}\"\n  - mkdir: \"${client}/sub\"\n"
	    "  - create: {path: \"${client}/f\", as: setup, flags: [write, truncate]}\n"
	    "  - write: {file: setup, size: 100}\n  - close: setup\n"
	    "  - symlink: {target: \"f\", path: \"${client}/l\"}\n");
}

/* Symlink targets: relative as given, absolute ones inside made relative to the link. */
static void test_symlinks(void **state)
{
	(void)state;
	assert_int_equal(conv(L(10, 000240, "symlinkat(\"/d/f\", AT_FDCWD</d>, \"sub/x/l2\") = 0 <0.000010>")
			      L(10, 000240, "symlinkat(\"/d/sub/f\", AT_FDCWD</d>, \"l2\") = 0 <0.000010>")
			      L(10, 000240, "symlinkat(\"x/../y\", AT_FDCWD</d>, \"l2\") = 0 <0.000010>")
			      L(10, 000240, "symlinkat(\"/d\", AT_FDCWD</d>, \"a/l3\") = 0 <0.000010>")), 0);
	has("      - symlink: {target: \"../../f\", path: \"${client}/sub/x/l2\"}\n");
	has("      - symlink: {target: \"sub/f\", path: \"${client}/l2\"}\n");
	has("      - symlink: {target: \"x/../y\", path: \"${client}/l2\"}\n");
	has("      - symlink: {target: \"..\", path: \"${client}/a/l3\"}\n");
}

/* A snapshot of the directory: directories, files (1 MiB writes), symlinks, in order. */
static void test_tree(void **state)
{
	struct lg_tree_entry tree[] = {
		{ .rel = "z", .type = 'f', .size = 3 * 1048576 + 5 },
		{ .rel = "a/b", .type = 'd' },
		{ .rel = "a", .type = 'd' },
		{ .rel = "a/b/e", .type = 'f', .size = 0 },
		{ .rel = "a/l", .type = 'l', .target = "b/e" },
		{ .rel = "a/abs", .type = 'l', .target = "/d/z" },
		{ .rel = "out", .type = 'l', .target = "/etc/passwd" },
	};
	struct lg_trace_opts o = { .dir = "/d/", .tree = tree, .ntree = 7, .name = "t",
				   .command = "make -j2", .kernel = "6.1.0", .date = "2026-12-03",
				   .tracer = "strace 6.1", .exit_status = 2 };

	(void)state;
	assert_int_equal(conv_with(L(1, 000000, "mkdir(\"a/c\", 0777) = 0 <0.000010>"), &o), 0);
	has("name: \"t\"\n");
	has("description: \"recorded from: make -j2 (exit 2) in /d on 6.1.0, 2026-12-03\"\n");
	has("recorded:\n  command: \"make -j2\"\n  dir: \"/d\"\n  kernel: \"6.1.0\"\n"
	    "  date: \"2026-12-03\"\n  exit_status: 2\n  tracer: \"strace 6.1\"\n");
	has("setup:\n  - mkdir: \"${client}\"\n  - mkdir: \"${client}/a\"\n"
	    "  - mkdir: \"${client}/a/b\"\n"
	    "  - create: {path: \"${client}/a/b/e\", as: setup, flags: [write, truncate]}\n"
	    "  - close: setup\n"
	    "  - create: {path: \"${client}/z\", as: setup, flags: [write, truncate]}\n"
	    "  - write: {file: setup, size: 1048576, count: 3}\n"
	    "  - write: {file: setup, size: 5}\n  - close: setup\n"
	    "  - symlink: {target: \"../z\", path: \"${client}/a/abs\"}\n"
	    "  - symlink: {target: \"b/e\", path: \"${client}/a/l\"}\n");
	hasnt("input_tree");
	hasnt("passwd");
	has("setup symlink out of the dir 1");
	has("  - rmdir: {path: \"${client}/a/c\", expect: any}\n"
	    "  - rmdir: {path: \"${client}/a/b\", expect: any}\n"
	    "  - rmdir: {path: \"${client}/a\", expect: any}\n");
}

/* Sizes of an inferred input file: the largest read end and st_size before it changed. */
static void test_infer(void **state)
{
	(void)state;
	assert_int_equal(conv(
		L(10, 000000, "openat(AT_FDCWD</d>, \"in\", O_RDONLY) = 3</d/in> <0.000010>")
		L(10, 000100, "read(3</d/in>, \"...\", 4096) = 4096 <0.000010>")
		L(10, 000200, "read(3</d/in>, \"...\", 4096) = 1000 <0.000010>")
		L(10, 000300, "read(3</d/in>, \"\", 4096) = 0 <0.000010>")
		L(10, 000400, "pread64(3</d/in>, \"\", 10, 9000) = 10 <0.000010>")
		L(10, 000500, "openat(AT_FDCWD</d>, \"log\", O_WRONLY|O_APPEND) = 4</d/log> <0.000010>")
		L(10, 000600, "write(4</d/log>, \"x\", 1) = 1 <0.000010>")
		L(10, 000700, "fstat(4</d/log>, {st_mode=S_IFREG|0644, st_size=501, ...}) = 0 <0.000010>")
		L(10, 000800, "openat(AT_FDCWD</d>, \"new\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 5</d/new> <0.000010>")
		L(10, 000900, "getdents64(6</d/dir>, 0x1 /* 2 entries */, 32768) = 48 <0.000010>")), 0);
	has("      - read: {file: t10.fd3, size: 4096}\n");
	has("      - read: {file: t10.fd3, size: 1000}\n");
	has("      - read: {file: t10.fd3, size: 4096}\n"); /* at the end: what was asked */
	has("  - create: {path: \"${client}/in\", as: setup, flags: [write, truncate]}\n"
	    "  - write: {file: setup, size: 9010}\n");
	/* log was written before its size was seen: nothing known */
	has("  - create: {path: \"${client}/log\", as: setup, flags: [write, truncate]}\n"
	    "  - close: setup\n");
	hasnt("${client}/new\", as: setup");
	/* an fd the trace never showed opening */
	assert_string_equal(sum.not_replayed[0].name, "call on an fd opened untraced");
}

/* Other formats are refused with file:line:col and the strace option that is missing. */
static void test_foreign(void **state)
{
	static const struct {
		const char *trace, *msg;
	} cases[] = {
		{ "1700000000.000100 mkdir(\"a\", 0777) = 0 <0.000010>\n",
		  "t.txt:1:1: not an strace -f -ttt -T -y trace: no PID column at the start of the line (strace -f -o FILE)" },
		{ "10 mkdir(\"a\", 0777) = 0 <0.000010>\n",
		  "t.txt:1:4: not an strace -f -ttt -T -y trace: no timestamp after the PID (strace -ttt)" },
		{ "10  13:40:00.000100 mkdir(\"a\", 0777) = 0 <0.000010>\n",
		  "t.txt:1:5: not an strace -f -ttt -T -y trace: a time of day, not seconds since the epoch (strace -ttt, not -t/-tt)" },
		{ "10      0.000100 mkdir(\"a\", 0777) = 0 <0.000010>\n",
		  "(strace -r)" },
		{ L(10, 000100, "mkdir(\"a\", 0777) = 0") L(10, 000200, "mkdir(\"b\", 0777) = 0"),
		  "t.txt:1:42: not an strace -f -ttt -T -y trace: no call duration '<0.000011>' at the end of the line (strace -T)" },
		{ L(10, 000100, "openat(AT_FDCWD, \"a\", O_RDONLY) = 3 <0.000010>"),
		  "t.txt:1:29: not an strace -f -ttt -T -y trace: fds are not decoded into paths (strace -y)" },
		{ L(10, 000100, "mkdir(\"a\", 0777) = 0 <0.000010>") L(10, 000200, "read(3</d/a>, \"abc"),
		  "t.txt:2:" },
		{ L(10, 000100, "mkdir(\"a\", 0777) = 0 <0.000010>")
		  L(10, 000200, "read(3</d/a>, <unfinished ...>"),
		  "t.txt:2:1: the trace ends inside a call of 10 (read(3</d/a>,): a truncated trace?" },
		{ "", "t.txt:1:1: not an strace -f -ttt -T -y trace: the file is empty" },
		{ "[pid  11] 1700000000.000100 mkdir(\"a\", 0777) = 0 <0.000010>\n",
		  "t.txt:1:1: not an strace -f -ttt -T -y trace: '[pid N]' prefixes, as strace "
		  "writes to a terminal: take the trace with -o FILE" },
		{ L(10, 000100, "read(3</d/a>, <unfinished ...>") L(11, 000200, "mkdir(\"a\", 0777) = 0"),
		  "t.txt:2:" },
		{ "name: x\nrun:\n  - stat: a\n", "t.txt:1:1: not an strace -f -ttt -T -y trace:" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(conv(cases[i].trace), -EINVAL);
		if (!strstr(err, cases[i].msg))
			fail_msg("case %zu: expected '%s' in '%s'", i, cases[i].msg, err);
	}
}

static void test_sniff(void **state)
{
	static const char *const yes[] = {
		L(10, 000100, "mkdir(\"a\", 0777) = 0 <0.000010>"),
		"10 mkdir(\"a\", 0777) = 0\n", "mkdir(\"a\", 0777) = 0\n",
		"10    13:40:00 execve(\"/bin/true\", [\"true\"], 0x1 /* 1 var */) = 0\n",
		"10 1.5 +++ exited with 0 +++\n",
	};
	static const char *const no[] = {
		"name: x\nrun:\n  - stat: a\n",
		"NTCreateX \"\\clients\\client1\" 0x1 0x2 1 NT_STATUS_OK\n",
		"# a comment(x) = 1\n", "",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(lg_trace_sniff(yes[i], strlen(yes[i])));
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(lg_trace_sniff(no[i], strlen(no[i])));
}

/* What the converter writes, the YAML loader reads: each test's trace, and the tree. */
static void test_loads(void **state)
{
	static const char *const traces[] = {
		CALLS,
		STREAMS,
	};
	struct lg_tree_entry tree[] = {
		{ .rel = "a", .type = 'd' },
		{ .rel = "a/f", .type = 'f', .size = 1048577 },
		{ .rel = "a/l", .type = 'l', .target = "f" },
	};
	struct lg_trace_opts o = { .dir = "/d", .tree = tree, .ntree = 3, .command = "x y",
				   .overhead_ns = 1000 };

	(void)state;
	for (size_t i = 0; i <= sizeof(traces) / sizeof(traces[0]); i++) {
		struct lg_workload *wl = NULL;
		char e[1024];

		if (i < sizeof(traces) / sizeof(traces[0]))
			assert_int_equal(conv(traces[i]), 0);
		else
			assert_int_equal(conv_with(traces[1], &o), 0);
		if (lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, 2, &wl, e, sizeof(e))) {
			fprintf(stderr, "%s\n%s\n", e, yaml);
			fail();
		}
		lg_workload_destroy(wl);
	}
}

/* Every cut of a trace converts or is refused, never more: a truncated last line is a
 * truncated trace. */
static void test_cuts(void **state)
{
	size_t n = strlen(CALLS);
	char *t = malloc(n + 1);

	(void)state;
	assert_non_null(t);
	for (size_t cut = 0; cut < n; cut += 3) {
		int rc;

		memcpy(t, CALLS, cut);
		t[cut] = '\0';
		rc = conv(t);
		if (rc != 0 && rc != -EINVAL)
			fail_msg("cut at %zu: %d", cut, rc);
		if (!rc && cut && t[cut - 1] != '\n' && t[cut - 1] != '>')
			fail_msg("cut at %zu inside a line was accepted", cut);
	}
	free(t);
}

/* 100,000 lines, many threads, files and outside paths: all converted and counted. */
static void test_large(void **state)
{
	size_t cap = 16u << 20, n = 0;
	char *t = malloc(cap);
	struct timespec a, b;
	double secs;

	(void)state;
	assert_non_null(t);
	for (int i = 0; i < 25000; i++) {
		int tid = 100 + i % 50, f = i % 3000;
		unsigned long us = (unsigned long)i * 10;

		n += (size_t)snprintf(t + n, cap - n,
			"%d 1700000000.%06lu openat(AT_FDCWD</d>, \"dir%d/f%d\", O_WRONLY|O_CREAT, 0644) = 3</d/dir%d/f%d> <0.000002>\n"
			"%d 1700000000.%06lu write(3</d/dir%d/f%d>, \"x\"..., 100) = 100 <0.000002>\n"
			"%d 1700000000.%06lu close(3</d/dir%d/f%d>) = 0 <0.000002>\n"
			"%d 1700000000.%06lu openat(AT_FDCWD</d>, \"/usr/lib/x%d.so\", O_RDONLY) = -1 ENOENT (No such file or directory) <0.000002>\n",
			tid, us, f % 10, f, f % 10, f, tid, us + 2, f % 10, f, tid, us + 4, f % 10, f,
			tid, us + 6, i % 100);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a); /* CPU time: the machine may be busy */
	assert_int_equal(conv(t), 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	assert_int_equal(sum.calls_kept, 75000);
	assert_int_equal(sum.streams, 50);
	assert_int_equal(sum.paths_left_out, 100);
	free(t);
	/* said, not asserted: speed is for benchmarks, not for tests on a shared machine */
	printf("100k lines converted in %.3f s of CPU\n", secs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),   cmocka_unit_test(test_think),
		cmocka_unit_test(test_think_even),
		cmocka_unit_test(test_streams), cmocka_unit_test(test_threads),
		cmocka_unit_test(test_names),   cmocka_unit_test(test_detached),
		cmocka_unit_test(test_reuse), cmocka_unit_test(test_waits),   cmocka_unit_test(test_cwd),
		cmocka_unit_test(test_calls),   cmocka_unit_test(test_symlinks),
		cmocka_unit_test(test_tree),    cmocka_unit_test(test_infer),
		cmocka_unit_test(test_foreign), cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_loads),   cmocka_unit_test(test_cuts),
		cmocka_unit_test(test_large),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(yaml);
	return rc;
}
