/* direct.c: the load-time O_DIRECT check -- which ops it looks at (reads and writes on
 * slots an open or ntcreate binds with O_DIRECT, in every phase; every slot with
 * --direct), which keys it finds misaligned (size, a fixed offset, a random base and
 * align) and its exact "t.yaml:LINE:COL: message", the column found by the key in the
 * op's own step (several may share a line) or falling back -- and the alignment found
 * under a directory, or assumed. */
#include "loadgen/load/direct.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"

/* Lines 1-3: slot f opened with O_DIRECT, slot g without; the op under test is line 4. */
#define HEAD "run:\n  - create: {path: f, as: f, flags: [direct]}\n  - create: {path: g, as: g}\n"
#define TAIL(how) ", not a multiple of 4096: with " how ", sizes and offsets must be " \
	"multiples of the target's logical block size (4096 bytes, here)"

static const struct lg_direct_align a4k = { 4096, "here", false };
static char err[512];

static struct lg_workload *load(const char *yaml)
{
	struct lg_workload *wl = NULL;

	if (lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, 1, &wl, err, sizeof(err)))
		fail_msg("%s", err);
	return wl;
}

/* lg_direct_check of wl against 4 KiB with yaml as its source; err is "" unless set. */
static int check(struct lg_workload *wl, bool all, const char *yaml)
{
	err[0] = '\0';
	return lg_direct_check(wl, all, &a4k, "t.yaml", yaml, yaml ? strlen(yaml) : 0, err,
			       sizeof(err));
}

/* Load yaml, check it, and compare with want (NULL: accepted, err left empty). */
static void expect(const char *yaml, bool all, const char *want)
{
	struct lg_workload *wl = load(yaml);
	int rc = check(wl, all, yaml);

	lg_workload_destroy(wl);
	if (rc != (want ? -EINVAL : 0) || strcmp(err, want ? want : ""))
		fail_msg("%s\ngot %d '%s'\nwant '%s'", yaml, rc, err, want ? want : "");
}

/* Every placement the check allows: aligned sizes, fixed offsets, random base and
 * align, and the modes that follow from earlier sizes. */
static void test_aligned(void **state)
{
	static const char yaml[] = HEAD
		"  - write: {file: f, size: 8KiB, count: 3, offset: 4096}\n"
		"  - read: {file: f, size: 4KiB, offset: random, range: 1MiB, base: 1MiB, "
		"align: 8KiB}\n"
		"  - read: {file: f, size: 4KiB}\n"
		"  - write: {file: f, size: 4KiB, offset: append}\n"
		"  - read: {file: f, size: 4KiB, offset: last}\n"
		"  - read: {file: f, size: 12KiB, offset: prev}\n";

	(void)state;
	expect(yaml, false, NULL);
	expect(yaml, true, NULL);
}

static void test_misaligned(void **state)
{
	static const struct {
		const char *yaml, *want;
	} cases[] = {
		{ HEAD "  - write: {file: f, size: 1000}\n",
		  "t.yaml:4:22: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
		{ HEAD "  - write: {file: f, size: 4097}\n",
		  "t.yaml:4:22: 'size' of write on 'f' is 4097 bytes" TAIL("flags: [direct]") },
		{ HEAD "  - read: {file: f, size: 4KiB, offset: 100}\n",
		  "t.yaml:4:33: 'offset' of read on 'f' is 100 bytes" TAIL("flags: [direct]") },
		{ HEAD "  - read: {file: f, size: 4KiB, offset: random, range: 1MiB, base: 512}\n",
		  "t.yaml:4:62: 'base' of read on 'f' is 512 bytes" TAIL("flags: [direct]") },
		{ HEAD "  - read: {file: f, size: 4KiB, offset: random, range: 1MiB, align: 2KiB}\n",
		  "t.yaml:4:62: 'align' of read on 'f' is 2048 bytes" TAIL("flags: [direct]") },
		/* size comes first; the key found after '{' */
		{ HEAD "  - write: {size: 1000, file: f, offset: 100}\n",
		  "t.yaml:4:13: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
		/* the first misaligned op of several */
		{ HEAD "  - read: {file: f, size: 4KiB}\n  - read: {file: f, size: 4KiB, offset: 1}\n"
		  "  - write: {file: f, size: 1}\n",
		  "t.yaml:5:33: 'offset' of read on 'f' is 1 bytes" TAIL("flags: [direct]") },
		/* the slot opened in setup, the op in run; the op in cleanup */
		{ "setup:\n  - create: {path: f, as: f, flags: [direct]}\nrun:\n"
		  "  - write: {file: f, size: 1000}\n",
		  "t.yaml:4:22: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
		{ "run:\n  - create: {path: f, as: f, flags: [direct]}\ncleanup:\n"
		  "  - read: {file: f, size: 4KiB, offset: 6KiB}\n",
		  "t.yaml:4:33: 'offset' of read on 'f' is 6144 bytes" TAIL("flags: [direct]") },
		/* the key on a line of its own: the step's op key */
		{ HEAD "  - write:\n      file: f\n      size: 1000\n",
		  "t.yaml:4:5: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect(cases[i].yaml, false, cases[i].want);
}

/* Several steps on one line (flow lists): the column is the key of the step at fault,
 * not the first key of that name on the line; a key on a later line gives the step's op
 * key. Columns count characters, as the loader's messages. */
static void test_one_line(void **state)
{
	static const struct {
		const char *yaml, *want;
	} cases[] = {
		{ "run: [{create: {path: f, as: f, flags: [direct]}}, "
		  "{write: {file: f, size: 4096}}, "
		  "{write: {file: f, size: 1000}}]\n",
		  "t.yaml:1:102: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
		{ "run:\n  - create: {path: f, as: f, flags: [direct]}\n"
		  "  - repeat: {count: 2, do: [{write: {file: f, size: 4KiB, offset: 0}}, "
		  "{read: {file: f, size: 4KiB, offset: 100}}]}\n",
		  "t.yaml:3:101: 'offset' of read on 'f' is 100 bytes" TAIL("flags: [direct]") },
		{ "run: [{create: {path: \"\xc3\xa9\", as: f, flags: [direct]}}, "
		  "{write: {file: f, size: 4096}}, {write: {file: f, size: 1000}}]\n",
		  "t.yaml:1:104: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
		{ "run: [{create: {path: f, as: f, flags: [direct]}}, "
		  "{write: {file: f, size: 4096}}, "
		  "{write: {file: f,\n    size: 1000}}]\n",
		  "t.yaml:1:85: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect(cases[i].yaml, false, cases[i].want);
}

/* A slot opened both with and without O_DIRECT: a read or write is checked when every
 * way to it goes through an O_DIRECT open (of this phase or an earlier one); where the
 * way decides (a choose, a repeat's later passes), it is left to the run. */
static void test_which_open(void **state)
{
	static const struct {
		const char *yaml, *want;
	} cases[] = {
		/* setup writes through a buffered open, the run reads through a direct one */
		{ "setup:\n  - create: {path: f, as: f}\n  - write: {file: f, size: 1000}\n"
		  "  - close: f\nrun:\n  - open: {path: f, as: f, flags: [direct]}\n"
		  "  - read: {file: f, size: 4KiB, offset: 0}\n  - close: f\n", NULL },
		{ "setup:\n  - create: {path: f, as: f}\n  - write: {file: f, size: 1000}\n"
		  "  - close: f\nrun:\n  - open: {path: f, as: f, flags: [direct]}\n"
		  "  - read: {file: f, size: 4KiB, offset: 100}\n  - close: f\n",
		  "t.yaml:7:33: 'offset' of read on 'f' is 100 bytes" TAIL("flags: [direct]") },
		/* in one phase: buffered, then direct */
		{ "run:\n  - create: {path: f, as: f}\n  - write: {file: f, size: 1000}\n"
		  "  - close: f\n  - open: {path: f, as: f, flags: [direct]}\n"
		  "  - write: {file: f, size: 1000}\n  - close: f\n",
		  "t.yaml:6:22: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
		/* either open, by chance */
		{ "run:\n  - choose:\n    - do: [open: {path: f, as: f, flags: [direct]}]\n"
		  "    - do: [open: {path: f, as: f}]\n  - write: {file: f, size: 1000}\n"
		  "  - close: f\n", NULL },
		/* the first pass of a repeat writes through the direct open; with a second one,
		 * the buffered open made at the end of the first */
		{ "setup:\n  - create: {path: f, as: f, flags: [direct]}\n"
		  "  - repeat: {count: 1, do: [{write: {file: f, size: 1000}}, {close: f}, "
		  "{create: {path: f, as: f}}]}\nrun:\n  - sleep: 1ms\n",
		  "t.yaml:3:47: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
		{ "setup:\n  - create: {path: f, as: f, flags: [direct]}\n"
		  "  - repeat: {count: 2, do: [{write: {file: f, size: 1000}}, {close: f}, "
		  "{create: {path: f, as: f}}]}\nrun:\n  - sleep: 1ms\n", NULL },
		/* the run repeats: its second pass writes through the direct open of its end */
		{ "setup:\n  - create: {path: f, as: f}\nrun:\n  - write: {file: f, size: 1000}\n"
		  "  - close: f\n  - open: {path: f, as: f, flags: [direct]}\n", NULL },
		/* an open into a slot that may still be open replaces its file (ops.c) */
		{ "run:\n  - create: {path: f, as: f}\n"
		  "  - choose: [{do: [close: f]}, {do: [stat: f]}]\n"
		  "  - open: {path: f, as: f, flags: [direct]}\n  - write: {file: f, size: 1000}\n"
		  "  - close: f\n",
		  "t.yaml:5:22: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
		/* cleanup may follow a run stopped anywhere, with f open direct (or closed) */
		{ "run:\n  - open: {path: f, as: f, flags: [direct]}\n"
		  "  - read: {file: f, size: 4KiB}\n  - close: f\ncleanup:\n"
		  "  - write: {file: f, size: 1000}\n  - create: {path: g, as: f}\n  - close: f\n",
		  "t.yaml:6:22: 'size' of write on 'f' is 1000 bytes" TAIL("flags: [direct]") },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect(cases[i].yaml, false, cases[i].want);
	/* with --direct every open is O_DIRECT */
	expect(cases[0].yaml, true, "t.yaml:3:22: 'size' of write on 'f' is 1000 bytes"
	       TAIL("--direct"));
}

/* An append on a direct slot writes at the end of the file: refused where every way to
 * it comes from a truncate of the slot to an unaligned size, with nothing between that
 * may move the end (an append that fails moves nothing). */
static void test_append(void **state)
{
	static const char *const ok[] = {
		/* aligned */
		"run:\n  - create: {path: f, as: f, flags: [direct]}\n"
		"  - truncate: {file: f, size: 8KiB}\n"
		"  - write: {file: f, size: 4KiB, offset: append}\n  - close: f\n",
		/* a write between may move the end */
		"run:\n  - create: {path: f, as: f, flags: [direct]}\n"
		"  - truncate: {file: f, size: 100}\n  - write: {file: f, size: 4KiB, offset: 0}\n"
		"  - write: {file: f, size: 4KiB, offset: append}\n  - close: f\n",
		/* one way is aligned */
		"run:\n  - create: {path: f, as: f, flags: [direct]}\n"
		"  - choose: [{do: [truncate: {file: f, size: 100}]}, "
		"{do: [truncate: {file: f, size: 4KiB}]}]\n"
		"  - write: {file: f, size: 4KiB, offset: append}\n  - close: f\n",
		/* not direct */
		"run:\n  - create: {path: f, as: f}\n  - truncate: {file: f, size: 100}\n"
		"  - write: {file: f, size: 4KiB, offset: append}\n  - close: f\n",
	};
	static const struct {
		const char *yaml, *want;
	} bad[] = {
		{ "run:\n  - create: {path: f, as: f, flags: [direct]}\n"
		  "  - truncate: {file: f, size: 100}\n  - read: {file: f, size: 4KiB, offset: 0}\n"
		  "  - write: {file: f, size: 4KiB, offset: append}\n  - close: f\n",
		  "t.yaml:5:34: 'offset' of write on 'f' is append: the end of the file, which the "
		  "truncate at line 3 leaves at 100 bytes" TAIL("flags: [direct]") },
		/* setup leaves it so; every pass of the run appends there, and fails */
		{ "setup:\n  - create: {path: f, as: f, flags: [direct]}\n"
		  "  - truncate: {file: f, size: 6KiB}\nrun:\n"
		  "  - write: {file: f, size: 4KiB, offset: append}\n",
		  "t.yaml:5:34: 'offset' of write on 'f' is append: the end of the file, which the "
		  "truncate at line 3 leaves at 6144 bytes" TAIL("flags: [direct]") },
		/* a step among others on its line */
		{ "run: [{create: {path: f, as: f, flags: [direct]}}, "
		  "{truncate: {file: f, size: 100}}, {write: {file: f, size: 4KiB, offset: 0}}, "
		  "{truncate: {file: f, size: 200}}, {write: {file: f, size: 4KiB, offset: append}}]\n",
		  "t.yaml:1:193: 'offset' of write on 'f' is append: the end of the file, which the "
		  "truncate at line 1 leaves at 200 bytes" TAIL("flags: [direct]") },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		expect(ok[i], false, NULL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect(bad[i].yaml, false, bad[i].want);
	expect(ok[3], true, "t.yaml:4:34: 'offset' of write on 'f' is append: the end of the "
	       "file, which the truncate at line 3 leaves at 100 bytes" TAIL("--direct"));
}

/* A slot without O_DIRECT is checked only with --direct; other ops never are. */
static void test_which_ops(void **state)
{
	static const char on_g[] = HEAD "  - write: {file: g, size: 1000}\n";
	static const char others[] = HEAD
		"  - sync_file_range: {file: f, offset: 100, size: 100}\n"
		"  - fadvise: {file: f, advice: dontneed, offset: 100, size: 100}\n"
		"  - truncate: {file: f, size: 100}\n"
		"  - lock: {file: f, offset: 1, size: 1}\n";

	(void)state;
	expect(on_g, false, NULL);
	expect(on_g, true, "t.yaml:4:22: 'size' of write on 'g' is 1000 bytes" TAIL("--direct"));
	expect("run:\n  - create: {path: g, as: g}\n  - read: {file: g, size: 1}\n", false,
	       NULL);
	expect("run:\n  - create: {path: g, as: g}\n  - read: {file: g, size: 1}\n", true,
	       "t.yaml:3:21: 'size' of read on 'g' is 1 bytes" TAIL("--direct"));
	expect(others, false, NULL);
	expect(others, true, NULL);
}

/* A slot bound by ntcreate with O_DIRECT (dbench with --direct sets it) is direct. */
static void test_ntcreate(void **state)
{
	static const char yaml[] = "run:\n  - ntcreate: {path: f, as: f, flags: [create]}\n"
		"  - read: {file: f, size: 100}\n";
	struct lg_workload *wl = load(yaml);

	(void)state;
	assert_int_equal(wl->ops[LG_PHASE_RUN][0].kind, LG_OP_NTCREATE);
	assert_int_equal(check(wl, false, yaml), 0);
	assert_string_equal(err, "");
	wl->ops[LG_PHASE_RUN][0].flags |= O_DIRECT;
	assert_int_equal(check(wl, false, yaml), -EINVAL);
	assert_string_equal(err, "t.yaml:3:21: 'size' of read on 'f' is 100 bytes"
			    TAIL("flags: [direct]"));
	lg_workload_destroy(wl);
}

/* Without the source text, or a line past its end, the column is 1; an op with no
 * slot (never from a loader) is named '?'. */
static void test_no_column(void **state)
{
	static const char yaml[] = HEAD "  - write: {file: f, size: 1000}\n";
	struct lg_workload *wl = load(yaml);
	struct lg_op op = { .kind = LG_OP_WRITE, .slot = LG_NO_SLOT, .path = LG_NO_SLOT,
			    .path2 = LG_NO_SLOT, .line = 9, .size = 512, .count = 1,
			    .align = 1 };

	(void)state;
	assert_int_equal(check(wl, false, NULL), -EINVAL);
	assert_string_equal(err, "t.yaml:4:1: 'size' of write on 'f' is 1000 bytes"
			    TAIL("flags: [direct]"));
	assert_int_equal(lg_direct_check(wl, false, &a4k, "t.yaml", yaml, 20, err,
					 sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.yaml:4:1: 'size' of write on 'f' is 1000 bytes"
			    TAIL("flags: [direct]"));
	lg_workload_destroy(wl);
	assert_int_equal(lg_workload_create(&wl), 0);
	assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &op, NULL), 0);
	assert_int_equal(check(wl, false, NULL), 0);
	assert_int_equal(check(wl, true, NULL), -EINVAL);
	assert_string_equal(err, "t.yaml:9:1: 'size' of write on '?' is 512 bytes, not a "
			    "multiple of 4096: with --direct, sizes and offsets must be multiples "
			    "of the target's logical block size (4096 bytes, here)");
	lg_workload_destroy(wl);
}

/* statx's O_DIRECT offset alignment of path, 0 when it gives none; *dev its device. */
static uint32_t statx_dio(const char *path, unsigned *major_dev)
{
	struct statx stx;

	assert_int_equal(statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx), 0);
	*major_dev = stx.stx_dev_major;
	return (stx.stx_mask & STATX_DIOALIGN) ? stx.stx_dio_offset_align : 0;
}

/* The alignment found for dir and for file f in it is what statx says of the file
 * (ext4 and xfs say it of regular files only, so for the directory it comes from an
 * unnamed file in it); without it, sysfs for a block device, else the assumed minimum. */
static void found_for(const char *dir, const char *file)
{
	const char *const paths[] = { dir, file };
	unsigned major_dev;
	uint32_t want = statx_dio(file, &major_dev);

	for (size_t i = 0; i < 2; i++) {
		struct lg_direct_align a;

		lg_direct_alignment(paths[i], &a);
		assert_true(a.bytes >= LG_DIRECT_MIN_ALIGN && a.bytes <= 1u << 20);
		assert_int_equal(a.bytes & (a.bytes - 1), 0);
		assert_int_equal(a.assumed, strstr(a.source, "assumed") != NULL);
		if (want) {
			assert_int_equal(a.bytes, want);
			if (strncmp(a.source, "statx dio_offset_align of ", 26) ||
			    !strstr(a.source, paths[i]))
				fail_msg("%s: found by %s", paths[i], a.source);
		} else if (major_dev == 0) { /* no block device (tmpfs) */
			assert_int_equal(a.bytes, LG_DIRECT_MIN_ALIGN);
			assert_non_null(strstr(a.source, "assumed"));
		} else {
			assert_true(!strncmp(a.source, "/sys/dev/block/", 15) ||
				    strstr(a.source, "assumed"));
		}
	}
}

/* A directory made under base, and a file in it (statx gives a file's alignment). */
static void found_under(const char *base)
{
	char dir[64], file[80];
	int fd;

	snprintf(dir, sizeof(dir), "%s/lg-direct.XXXXXX", base);
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/f", dir);
	assert_true((fd = open(file, O_CREAT | O_WRONLY, 0644)) >= 0);
	close(fd);
	found_for(dir, file);
	unlink(file);
	rmdir(dir);
}

static void test_alignment(void **state)
{
	struct lg_direct_align a;
	struct stat st;

	(void)state;
	found_under("/tmp");
	if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode))
		found_under("/dev/shm");
	memset(&a, 0x55, sizeof(a));
	lg_direct_alignment("/nonexistent/lg-direct/x", &a);
	assert_int_equal(a.bytes, LG_DIRECT_MIN_ALIGN);
	assert_true(a.assumed);
	assert_string_equal(a.source, "assumed: the smallest logical block size (the target's "
			    "could not be found)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aligned),
		cmocka_unit_test(test_misaligned),
		cmocka_unit_test(test_one_line),
		cmocka_unit_test(test_which_open),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_which_ops),
		cmocka_unit_test(test_ntcreate),
		cmocka_unit_test(test_no_column),
		cmocka_unit_test(test_alignment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
