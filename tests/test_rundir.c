/* Unit tests of the run directory: creation errors and symlink-safe removal. */
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

#include "loadgen/run/rundir.h"

static char base[] = "/tmp/lg_rundir_testXXXXXX";

static void touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
}

static void test_create_errors(void **state)
{
	char err[256], *path = NULL, file[512], missing[512];
	int fd;

	(void)state;
	snprintf(file, sizeof(file), "%s/file", base);
	snprintf(missing, sizeof(missing), "%s/missing", base);
	touch(file);
	assert_int_equal(lg_rundir_create(file, &path, &fd, err, sizeof(err)), -ENOTDIR);
	assert_non_null(strstr(err, "Not a directory"));
	assert_non_null(strstr(err, file));
	assert_int_equal(lg_rundir_create(missing, &path, &fd, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "No such file"));
	unlink(file);
}

/* A tree with a symlink to a directory outside, and one to a file outside: removal takes
 * the links, never what they point at. */
static void test_remove_never_follows_links(void **state)
{
	char err[256], *path, p[512], outside[512], victim[512];
	struct stat st;
	int fd;

	(void)state;
	snprintf(outside, sizeof(outside), "%s/outside", base);
	snprintf(victim, sizeof(victim), "%s/outside/precious", base);
	assert_int_equal(mkdir(outside, 0755), 0);
	touch(victim);
	assert_int_equal(lg_rundir_create(base, &path, &fd, err, sizeof(err)), 0);
	assert_non_null(strstr(path, "/loadgen."));
	snprintf(p, sizeof(p), "%s/a", path);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/a/b", path);
	assert_int_equal(mkdir(p, 0755), 0);
	for (int i = 0; i < 50; i++) {
		snprintf(p, sizeof(p), "%s/a/b/f%d", path, i);
		touch(p);
	}
	snprintf(p, sizeof(p), "%s/a/dirlink", path);
	assert_int_equal(symlink(outside, p), 0);
	snprintf(p, sizeof(p), "%s/filelink", path);
	assert_int_equal(symlink(victim, p), 0);
	assert_int_equal(lg_rundir_remove(path, fd), 0);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_size, 1);
	free(path);
	unlink(victim);
	rmdir(outside);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test(test_remove_never_follows_links),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
