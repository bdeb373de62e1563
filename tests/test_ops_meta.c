/* ops_meta.c: the calls of recorded programs on names and attributes through lg_op_exec
 * on one client over a temporary directory -- what each does to the files (link count
 * after link, the target readlink gives, the mode after chmod, an attribute's value after
 * setxattr), their path and file forms, nofollow on a symlink, a failure the trace saw
 * kept as the op's expect, and the absolute path of the calls without an *at form. */
#include "client_harness.h"

#include <errno.h>
#include <limits.h>
#include <sys/xattr.h>

#include "run/ops_meta.h"
#include "skip_part.h"

#define RUN LG_PHASE_RUN

static struct stat lst(struct harness *h, const char *path)
{
	struct stat st;

	assert_int_equal(fstatat(h->sh.dirfd, path, &st, AT_SYMLINK_NOFOLLOW), 0);
	return st;
}

/* Run ops [0, n) of the run phase, each expected to return 0. */
static void run_all(struct harness *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (h_exec(h, RUN, i, 0, NULL) != 0)
			fail_msg("op %zu failed: %s", i, strerror(h_exec(h, RUN, i, 0, NULL)));
}

/* link, symlink, readlink: the link count, the target, the bytes read of it. */
static void test_links(void **state)
{
	struct harness *h = h_new("setup:\n"
		"  - mkdir: \"${client}\"\n"
		"  - mkdir: \"${client}/d\"\n"
		"  - create: {path: \"${client}/d/f\", as: f}\n"
		"  - close: f\n"
		"run:\n"
		"  - link: {from: \"${client}/d/f\", to: \"${client}/g\"}\n"        /* 0 */
		"  - symlink: {target: \"../../${client}/g\", path: \"${client}/d/l\"}\n" /* 1 */
		"  - readlink: \"${client}/d/l\"\n"                                /* 2 */
		"  - stat: {path: \"${client}/d/l\", follow: true}\n"              /* 3 */
		"  - link: {from: \"${client}/d/f\", to: \"${client}/g\", expect: EEXIST}\n"
		"  - readlink: {path: \"${client}/d/f\", expect: EINVAL}\n");     /* 5 */
	char buf[64];
	ssize_t n;

	(void)state;
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(lg_op_exec(&h->c, &h->wl->ops[LG_PHASE_SETUP][i], 0,
					    &(uint64_t){ 0 }), 0);
	run_all(h, 4);
	assert_int_equal(lst(h, "0/d/f").st_nlink, 2);
	assert_int_equal(lst(h, "0/g").st_ino, lst(h, "0/d/f").st_ino);
	n = readlinkat(h->sh.dirfd, "0/d/l", buf, sizeof(buf));
	assert_int_equal(n, strlen("../../0/g")); /* ${client} in a target is the client's id */
	assert_memory_equal(buf, "../../0/g", (size_t)n);
	assert_memory_equal(h->c.buf, "../../0/g", (size_t)n); /* what readlink read */
	/* a traced failure is an expect: the call fails with it, which is correct */
	assert_int_equal(h->wl->ops[RUN][4].expect, EEXIST);
	assert_int_equal(h_exec(h, RUN, 4, 0, NULL), EEXIST);
	assert_int_equal(h_exec(h, RUN, 5, 0, NULL), EINVAL);
	h_free(h);
}

/* chmod, chown, utimens, statx, access by path and by file; nofollow acts on the link. */
static void test_attributes(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"                           /* 0 */
		"  - symlink: {target: f, path: l}\n"                      /* 1 */
		"  - chmod: {path: f, mode: 0640}\n"                       /* 2 */
		"  - chmod: {file: f, mode: 0o604}\n"                      /* 3 */
		"  - chown: {path: f}\n"                                   /* 4 */
		"  - chown: {path: l, nofollow: true}\n"                   /* 5 */
		"  - chown: {file: f}\n"                                   /* 6 */
		"  - utimens: {path: l, nofollow: true}\n"                 /* 7 */
		"  - utimens: {file: f}\n"                                 /* 8 */
		"  - statx: {path: l, nofollow: true}\n"                   /* 9 */
		"  - statx: {file: f}\n"                                   /* 10 */
		"  - access: {path: f, mode: [read]}\n"                    /* 11 */
		"  - access: f\n"                                          /* 12 */
		"  - access: {path: f, mode: [exec], expect: EACCES}\n"    /* 13 */
		"  - access: {path: nope, expect: ENOENT}\n"               /* 14 */
		"  - statx: {path: nope, expect: ENOENT}\n");              /* 15 */
	struct stat st;

	(void)state;
	run_all(h, 3);
	assert_int_equal(lst(h, "f").st_mode & 07777, 0640);
	assert_int_equal(h_exec(h, RUN, 3, 0, NULL), 0);
	assert_int_equal(lst(h, "f").st_mode & 07777, 0604);
	for (size_t i = 4; i <= 12; i++)
		assert_int_equal(h_exec(h, RUN, i, 0, NULL), 0);
	st = lst(h, "f");
	assert_int_equal(st.st_uid, geteuid());
	assert_int_equal(st.st_gid, getegid());
	assert_true(S_ISLNK(lst(h, "l").st_mode)); /* nofollow: the link, still a link */
	/* no x bit at all: EACCES, for root too */
	assert_int_equal(h_exec(h, RUN, 13, 0, NULL), EACCES);
	assert_int_equal(h_exec(h, RUN, 14, 0, NULL), ENOENT);
	assert_int_equal(h_exec(h, RUN, 15, 0, NULL), ENOENT);
	h_free(h);
}

/* setxattr, getxattr, listxattr, removexattr by path and by file: the value set has
 * size bytes of the write pattern. */
static void test_xattrs(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"                                   /* 0 */
		"  - setxattr: {path: f, name: user.a, size: 100}\n"               /* 1 */
		"  - setxattr: {file: f, name: user.b, size: 5, flags: [create]}\n" /* 2 */
		"  - getxattr: {path: f, name: user.a, size: 4KiB}\n"              /* 3 */
		"  - getxattr: {file: f, name: user.b, size: 4KiB}\n"              /* 4 */
		"  - listxattr: {path: f, size: 4KiB}\n"                           /* 5 */
		"  - listxattr: {file: f, size: 4KiB}\n"                           /* 6 */
		"  - removexattr: {path: f, name: user.a}\n"                       /* 7 */
		"  - removexattr: {file: f, name: user.b}\n"                       /* 8 */
		"  - setxattr: {path: f, name: user.c, size: 1, flags: [replace],"
		" expect: ENODATA}\n"                                              /* 9 */
		"  - getxattr: {path: f, name: user.a, size: 64, expect: ENODATA}\n" /* 10 */
		"  - symlink: {target: f, path: l}\n"                              /* 11 */
		"  - setxattr: {path: l, name: user.x, size: 1, nofollow: true,"
		" expect: EPERM}\n");                                              /* 12 */
	char v[256];
	ssize_t n;
	int rc;

	(void)state;
	assert_int_equal(h_exec(h, RUN, 0, 0, NULL), 0);
	rc = h_exec(h, RUN, 1, 0, NULL);
	if (rc == ENOTSUP || rc == EOPNOTSUPP) {
		LG_SKIP_PART("the temporary directory's filesystem has no user xattrs");
		h_free(h);
		return;
	}
	assert_int_equal(rc, 0);
	{
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/f", h->dir);
		assert_int_equal(getxattr(p, "user.a", v, sizeof(v)), 100);
		assert_memory_equal(v, h->wbuf, 100);
		assert_int_equal(h_exec(h, RUN, 2, 0, NULL), 0);
		assert_int_equal(getxattr(p, "user.b", v, sizeof(v)), 5);
		assert_int_equal(h_exec(h, RUN, 2, 0, NULL), EEXIST); /* create: once */
		assert_int_equal(h_exec(h, RUN, 3, 0, NULL), 0);
		assert_memory_equal(h->c.buf, h->wbuf, 100);
		assert_int_equal(h_exec(h, RUN, 4, 0, NULL), 0);
		assert_memory_equal(h->c.buf, h->wbuf, 5);
		n = listxattr(p, v, sizeof(v)); /* (there may be others than user.a, .b) */
		assert_true(n >= 14);
		for (size_t i = 5; i <= 6; i++) {
			memset(h->c.buf, 0, (size_t)n);
			assert_int_equal(h_exec(h, RUN, i, 0, NULL), 0);
			assert_memory_equal(h->c.buf, v, (size_t)n);
		}
		assert_int_equal(h_exec(h, RUN, 7, 0, NULL), 0);
		assert_int_equal(h_exec(h, RUN, 8, 0, NULL), 0);
		assert_int_equal(listxattr(p, v, sizeof(v)), 0);
	}
	assert_int_equal(h_exec(h, RUN, 9, 0, NULL), ENODATA);
	assert_int_equal(h_exec(h, RUN, 10, 0, NULL), ENODATA);
	assert_int_equal(h_exec(h, RUN, 11, 0, NULL), 0);
	/* user xattrs are not allowed on a symlink itself: lsetxattr, not setxattr */
	assert_int_equal(h_exec(h, RUN, 12, 0, NULL), EPERM);
	h_free(h);
}

/* The absolute path of the calls without an *at form: the run directory's, then the
 * op's path; too long a path is ENAMETOOLONG, not an overflow. */
static void test_abspath(void **state)
{
	struct harness *h = h_new("run: [stat: a]\n");
	char want[PATH_MAX + 8], *longp = malloc(LG_ABSPATH_BUF);
	const char *abs;

	(void)state;
	assert_non_null(longp);
	assert_non_null(realpath(h->dir, want));
	strcat(want, "/a/b");
	assert_int_equal(lg_op_abspath(&h->c, "a/b", &abs), 0);
	assert_string_equal(abs, want);
	assert_int_equal(lg_op_abspath(&h->c, "c", &abs), 0); /* the buffer is reused */
	want[strlen(want) - 3] = 'c';
	want[strlen(want) - 2] = '\0';
	assert_string_equal(abs, want);
	memset(longp, 'x', LG_ABSPATH_BUF - 1);
	longp[LG_ABSPATH_BUF - 1] = '\0';
	assert_int_equal(lg_op_abspath(&h->c, longp, &abs), ENAMETOOLONG);
	free(longp);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_xattrs),
		cmocka_unit_test(test_abspath),
	};

	return lg_test_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
