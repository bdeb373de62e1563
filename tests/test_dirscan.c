/* dirscan.c: the one directory reader of readdir and dbench's ops, over a temporary
 * directory -- every entry once, "." and ".." included, across many getdents64
 * buffers; entry types; an empty directory; what opening refuses (a missing name, a
 * file, a symbolic link, which is never followed); and the end said again after it. */
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

#include "run/dirscan.h"

static char base[] = "/tmp/lg_dirscan_XXXXXX";
static int basefd = -1;
static char *buf; /* LG_DIRSCAN_BUF bytes, 8-byte aligned, as lg_op_dirbuf gives */

static void touch(const char *name)
{
	int fd = openat(basefd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	close(fd);
}

/* What a scan of dir (opened relative to base) returns: entries other than "." and
 * "..", the dots, and the last return value (0 at the end). */
struct scan {
	unsigned names, dots, dirs, files;
	int rc;
};

static struct scan scan(const char *dir)
{
	struct scan r = { 0 };
	struct lg_dirscan s;
	const char *name;
	unsigned char type;
	int fd = lg_dirscan_open(basefd, dir, 1);

	assert_true(fd >= 0);
	lg_dirscan_init(&s, fd, buf);
	while ((r.rc = lg_dirscan_next(&s, &name, &type)) > 0) {
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			r.dots++;
		else
			r.names++;
		r.dirs += type == DT_DIR;
		r.files += type == DT_REG;
	}
	/* the end stays the end */
	assert_int_equal(lg_dirscan_next(&s, &name, &type), 0);
	close(fd);
	return r;
}

/* Every entry once over many buffers: 1500 long names are several 32 KiB reads. */
static void test_many_entries(void **state)
{
	enum { N = 1500 };
	char name[80];
	struct scan r;

	(void)state;
	assert_int_equal(mkdirat(basefd, "many", 0755), 0);
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "many/a-rather-long-file-name-to-fill-buffers-%05d", i);
		touch(name);
	}
	assert_int_equal(mkdirat(basefd, "many/sub", 0755), 0);
	r = scan("many");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.names, N + 1);
	assert_int_equal(r.dots, 2);
	/* types as the filesystem reports them (tmpfs and ext4 do; DT_UNKNOWN elsewhere) */
	if (r.files || r.dirs) {
		assert_int_equal(r.files, N);
		assert_int_equal(r.dirs, 3);
	}
}

static void test_empty(void **state)
{
	struct scan r;

	(void)state;
	assert_int_equal(mkdirat(basefd, "empty", 0755), 0);
	r = scan("empty");
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.names, 0);
	assert_int_equal(r.dots, 2);
}

/* Opening refuses what is not a directory, and never follows a symbolic link; the
 * fstat of like_opendir changes nothing of that. */
static void test_open_refuses(void **state)
{
	int rc;

	(void)state;
	assert_int_equal(mkdirat(basefd, "real", 0755), 0);
	assert_int_equal(symlinkat("real", basefd, "link"), 0);
	touch("file");
	for (int like = 0; like <= 1; like++) {
		assert_int_equal(lg_dirscan_open(basefd, "missing", like), -ENOENT);
		assert_int_equal(lg_dirscan_open(basefd, "file", like), -ENOTDIR);
		rc = lg_dirscan_open(basefd, "link", like); /* Linux says ENOTDIR */
		assert_true(rc == -ENOTDIR || rc == -ELOOP);
		assert_int_equal(lg_dirscan_open(basefd, "missing/x", like), -ENOENT);
	}
}

/* A read error comes back as a negative errno: a descriptor that is not a directory. */
static void test_read_error(void **state)
{
	struct lg_dirscan s;
	const char *name;
	unsigned char type;
	int fd = openat(basefd, "file2", O_RDONLY | O_CREAT, 0644);

	(void)state;
	assert_true(fd >= 0);
	lg_dirscan_init(&s, fd, buf);
	assert_int_equal(lg_dirscan_next(&s, &name, &type), -ENOTDIR);
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(base))
		return -1;
	basefd = open(base, O_RDONLY | O_DIRECTORY);
	buf = aligned_alloc(8, LG_DIRSCAN_BUF);
	return basefd >= 0 && buf ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[sizeof(base) + 16];

	(void)state;
	close(basefd);
	free(buf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_entries),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_open_refuses),
		cmocka_unit_test(test_read_error),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
