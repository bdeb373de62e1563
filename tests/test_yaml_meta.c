/* yaml_meta.c and the other arguments of the ops of recorded programs (yaml_io.c's seek,
 * fallocate and getdents, yaml_fill.c's truncate by path and rename flags): each op's
 * lg_op fields through lg_yaml_load, strings that are not paths kept through path2 and
 * expanded per client, and the errors with their file:line:col (an absolute symlink
 * target, one climbing out of the run directory, an unknown whence, a missing name, a
 * path and a file both or neither). */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"

static char err[512];

static struct lg_workload *load(const char *yaml)
{
	struct lg_workload *wl = NULL;

	if (lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, 1, &wl, err, sizeof(err)))
		fail_msg("%s", err);
	return wl;
}

#define OP(wl, i) (&(wl)->ops[LG_PHASE_RUN][i])
#define PATH(wl, i) ((wl)->paths[OP(wl, i)->path])
#define PATH2(wl, i) ((wl)->paths[OP(wl, i)->path2])

static void test_fields(void **state)
{
	struct lg_workload *wl = load("run:\n"
		"  - create: {path: f, as: f}\n"                                        /* 0 */
		"  - link: {from: f, to: \"d${client}/g\"}\n"                           /* 1 */
		"  - symlink: {target: \"../${client}f\", path: \"d/l\"}\n"            /* 2 */
		"  - readlink: d/l\n"                                                   /* 3 */
		"  - chmod: {path: f, mode: 0755}\n"                                    /* 4 */
		"  - chmod: {file: f, mode: 0o1777}\n"                                  /* 5 */
		"  - chown: {path: d/l, nofollow: true}\n"                              /* 6 */
		"  - utimens: {file: f}\n"                                              /* 7 */
		"  - access: {path: f, mode: [read, exec]}\n"                           /* 8 */
		"  - access: f\n"                                                       /* 9 */
		"  - statx: {path: d/l, nofollow: yes}\n"                               /* 10 */
		"  - stat: {path: d/l, follow: true}\n"                                 /* 11 */
		"  - seek: {file: f, offset: -4KiB, whence: end}\n"                     /* 12 */
		"  - seek: {file: f, offset: 100}\n"                                    /* 13 */
		"  - fallocate: {file: f, offset: 1MiB, size: 4KiB, mode: [punch_hole, keep_size]}\n"
		"  - getdents: {file: f, size: 32KiB}\n"                                /* 15 */
		"  - setxattr: {path: f, name: user.x, size: 100, flags: [replace]}\n"  /* 16 */
		"  - getxattr: {file: f, name: user.x, size: 64KiB}\n"                  /* 17 */
		"  - listxattr: {path: d/l, nofollow: true, size: 1KiB}\n"              /* 18 */
		"  - removexattr: {file: f, name: user.x}\n"                            /* 19 */
		"  - truncate: {path: f, size: 10}\n"                                   /* 20 */
		"  - rename: {from: f, to: g, flags: [noreplace]}\n"                    /* 21 */
		"  - write: {file: f, size: 10, vector: true}\n"                        /* 22 */
		"  - open: {path: d, as: g, flags: [read, directory, nofollow, noatime]}\n"
		"  - open: {path: d, as: h, flags: [tmpfile, write, exclusive]}\n"      /* 24 */
		"  - open: {path: d, as: i, flags: [path]}\n");                         /* 25 */

	(void)state;
	assert_int_equal(OP(wl, 1)->kind, LG_OP_LINK);
	assert_string_equal(PATH(wl, 1), "f");
	assert_string_equal(PATH2(wl, 1), "d${client}/g");
	assert_int_equal(OP(wl, 2)->kind, LG_OP_SYMLINK);
	assert_string_equal(PATH(wl, 2), "d/l");
	assert_string_equal(PATH2(wl, 2), "../${client}f"); /* expanded per client, later */
	assert_int_equal(OP(wl, 3)->size, 4096);
	assert_int_equal(OP(wl, 4)->flags, 0755);
	assert_int_equal(OP(wl, 4)->slot, LG_NO_SLOT);
	assert_int_equal(OP(wl, 5)->flags, 01777);
	assert_int_equal(OP(wl, 5)->path, LG_NO_SLOT);
	assert_int_equal(OP(wl, 5)->slot, 0);
	assert_int_equal(OP(wl, 6)->flags, AT_SYMLINK_NOFOLLOW);
	assert_int_equal(OP(wl, 7)->flags, 0);
	assert_int_equal(OP(wl, 8)->flags, R_OK | X_OK);
	assert_int_equal(OP(wl, 9)->flags, F_OK);
	assert_int_equal(OP(wl, 10)->flags, AT_SYMLINK_NOFOLLOW);
	assert_int_equal(OP(wl, 11)->flags, AT_SYMLINK_FOLLOW);
	assert_int_equal((int64_t)OP(wl, 12)->offset, -4096);
	assert_int_equal(OP(wl, 12)->flags, SEEK_END);
	assert_int_equal(OP(wl, 13)->offset, 100);
	assert_int_equal(OP(wl, 13)->flags, SEEK_SET);
	assert_int_equal(OP(wl, 14)->offset, 1 << 20);
	assert_int_equal(OP(wl, 14)->size, 4096);
	assert_int_equal(OP(wl, 14)->flags, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE);
	assert_int_equal(OP(wl, 15)->size, 32768);
	assert_string_equal(PATH2(wl, 16), "user.x");
	assert_int_equal(OP(wl, 16)->size, 100);
	assert_int_equal(OP(wl, 16)->flags, XATTR_REPLACE);
	assert_int_equal(OP(wl, 17)->size, 65536);
	assert_int_equal(OP(wl, 18)->path2, LG_NO_SLOT);
	assert_int_equal(OP(wl, 18)->flags, AT_SYMLINK_NOFOLLOW);
	assert_int_equal(OP(wl, 18)->size, 1024);
	assert_int_equal(OP(wl, 19)->size, 0);
	assert_int_equal(OP(wl, 20)->kind, LG_OP_TRUNCATE);
	assert_int_equal(OP(wl, 20)->slot, LG_NO_SLOT);
	assert_string_equal(PATH(wl, 20), "f");
	assert_int_equal(OP(wl, 21)->flags, RENAME_NOREPLACE);
	assert_int_equal(OP(wl, 22)->flags, LG_OP_VECTOR);
	assert_int_equal(OP(wl, 23)->flags, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOATIME);
	assert_int_equal(OP(wl, 24)->flags, O_WRONLY | O_TMPFILE | O_EXCL);
	assert_int_equal(OP(wl, 25)->flags, O_RDWR | O_PATH);
	assert_int_equal(wl->max_io, 65536); /* the largest getxattr's buffer */
	lg_workload_destroy(wl);
}

/* Every bad input refused with its file:line:col and what is wrong. */
static void test_errors(void **state)
{
	static const char *const bad[][2] = {
		{ "run: [symlink: {target: /etc/passwd, path: l}]\n",
		  "t.yaml:1:25: symlink target '/etc/passwd' is absolute" },
		{ "run: [symlink: {target: ../x, path: d/l}]\n", NULL }, /* fine: d/../x */
		{ "run: [symlink: {target: ../../x, path: d/l}]\n",
		  "t.yaml:1:25: symlink target '../../x' leaves the run directory through '..' "
		  "(from the directory of 'd/l')" },
		{ "run: [symlink: {target: a/../../x, path: l}]\n",
		  "t.yaml:1:25: symlink target 'a/../../x' leaves the run directory" },
		{ "run: [symlink: {target: \"\", path: l}]\n",
		  "t.yaml:1:25: empty symlink target" },
		{ "run: [symlink: {path: l}]\n", "t.yaml:1:7: 'symlink' needs 'target'" },
		{ "run: [create: {path: f, as: f}, seek: {file: f, whence: middle}]\n",
		  "t.yaml:1:57: unknown whence 'middle' (expected set, cur, end, data, hole)" },
		{ "run: [create: {path: f, as: f}, seek: {file: f, offset: -x}]\n",
		  "t.yaml:1:57: bad size" },
		{ "run: [setxattr: {path: f, size: 1}]\n", "t.yaml:1:7: 'setxattr' needs 'name'" },
		{ "run: [removexattr: {path: f}]\n", "t.yaml:1:7: 'removexattr' needs 'name'" },
		{ "run: [getxattr: {path: f, name: \"\"}]\n",
		  "t.yaml:1:33: 'name' must have 1 to 255 bytes" },
		{ "run: [setxattr: {path: f, name: user.a, size: 65537}]\n",
		  "t.yaml:1:47: 'size' must be at most 64KiB" },
		{ "run: [chmod: {mode: 0644}]\n", "t.yaml:1:7: 'chmod' needs 'path' or 'file'" },
		{ "run: [create: {path: f, as: f}, chown: {path: f, file: f}]\n",
		  "t.yaml:1:56: 'chown' takes 'path' or 'file', not both" },
		{ "run: [chmod: {path: f, mode: 0855}]\n",
		  "t.yaml:1:30: bad mode '0855' (expected octal permission bits" },
		{ "run: [chmod: {path: f, mode: 017777}]\n", "t.yaml:1:30: bad mode '017777'" },
		{ "run: [access: {path: f, mode: [read, run]}]\n",
		  "t.yaml:1:38: unknown access mode 'run'" },
		{ "run: [create: {path: f, as: f}, statx: {file: f, nofollow: true}]\n",
		  "t.yaml:1:60: 'nofollow' is for a path, not a file" },
		{ "run: [stat: {path: f, follow: maybe}]\n",
		  "t.yaml:1:31: bad boolean 'maybe' for 'follow'" },
		{ "run: [stat: {path: f, follow: true, resolve: true}]\n",
		  "t.yaml:1:31: 'follow' and 'resolve' exclude each other" },
		{ "run: [rename: {from: a, to: b, flags: [exchange], resolve: true}]\n",
		  "t.yaml:1:39: 'flags' and 'resolve' exclude each other" },
		{ "run: [truncate: {size: 1}]\n", "t.yaml:1:7: 'truncate' needs 'file' or 'path'" },
		{ "run: [truncate: {path: f}]\n", "t.yaml:1:7: 'truncate' needs 'size'" },
		{ "run: [create: {path: f, as: f}, getdents: {file: f, size: 0}]\n",
		  "t.yaml:1:59: 'size' must be 1 byte to 1GiB" },
		{ "run: [create: {path: f, as: f}, fallocate: {file: f, size: 1, mode: [trim]}]\n",
		  "t.yaml:1:70: unknown fallocate mode 'trim'" },
		{ "run: [create: {path: f, as: f}, read: {file: f, size: 1, vector: 2}]\n",
		  "t.yaml:1:66: bad boolean '2' for 'vector'" },
		{ "run: [link: {from: /a, to: b}]\n", "t.yaml:1:20: from '/a': absolute path" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lg_workload *wl = NULL;
		int rc = lg_yaml_load("t.yaml", bad[i][0], strlen(bad[i][0]), NULL, 0, 1, &wl,
				      err, sizeof(err));

		lg_workload_destroy(wl);
		if (!bad[i][1] && rc)
			fail_msg("input %zu: %s\n  %s", i, bad[i][0], err);
		if (bad[i][1] && (rc != -EINVAL || strncmp(err, bad[i][1], strlen(bad[i][1]))))
			fail_msg("input %zu: %s  message\n  %s\nwant\n  %s", i, bad[i][0], err,
				 bad[i][1]);
	}
}

/* A target with a picked variable is a set, as a path is; a step read flat and the
 * same step as a tree compile to the same op. */
static void test_target_set_and_flat(void **state)
{
	struct lg_workload *wl = load("run:\n"
		"  - pick: {var: k, count: 3}\n"
		"  - symlink: {target: \"f${k}\", path: \"l${k}\"}\n"
		"  - setxattr: {path: f, name: user.a, size: 1, nofollow: true}\n"
		"  - {setxattr: {name: user.a, size: 1, path: f, nofollow: true}}\n");

	(void)state;
	assert_int_equal(OP(wl, 1)->var2, OP(wl, 1)->var);
	assert_true(OP(wl, 1)->var != 0);
	assert_string_equal(wl->paths[OP(wl, 1)->path2 + 2], "f2");
	assert_memory_equal(OP(wl, 2), OP(wl, 3), offsetof(struct lg_op, line));
	assert_int_equal(OP(wl, 2)->flags, OP(wl, 3)->flags);
	lg_workload_destroy(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_target_set_and_flat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
