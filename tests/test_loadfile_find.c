/* Unit tests of the loadfile lookup by name (src/load/loadfile_find.c): a file here wins, a
 * path is taken as it is, NAME and NAME.yaml are found in the data directories in order,
 * and a miss says where it looked, which loadfiles are shipped and the closest of them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#include "loadgen/load/loadfile.h"

static char base[] = "/tmp/lg_loadfile_testXXXXXX";
static char dirs[2][LG_LOADFILE_PATH_MAX]; /* base/a and base/b, searched in that order */
static char cwd[PATH_MAX];                 /* the test's directory before chdir(base) */

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	char path[LG_LOADFILE_PATH_MAX + 32];

	(void)state;
	if (!mkdtemp(base) || !getcwd(cwd, sizeof(cwd)))
		return -1;
	snprintf(dirs[0], sizeof(dirs[0]), "%s/a", base);
	snprintf(dirs[1], sizeof(dirs[1]), "%s/b", base);
	if (mkdir(dirs[0], 0755) || mkdir(dirs[1], 0755) || chdir(base))
		return -1;
	snprintf(path, sizeof(path), "%s/both.yaml", dirs[0]);
	put(path, "name: a\n");
	snprintf(path, sizeof(path), "%s/both.yaml", dirs[1]);
	put(path, "name: b\n");
	snprintf(path, sizeof(path), "%s/only_b.yaml", dirs[1]);
	put(path, "name: only_b\n");
	snprintf(path, sizeof(path), "%s/client.txt", dirs[1]);
	put(path, "0 Deltree \"/clients/client1\" NT_STATUS_OK\n");
	snprintf(path, sizeof(path), "%s/adir.yaml", dirs[0]);
	return mkdir(path, 0755);
}

static int teardown(void **state)
{
	char cmd[sizeof(base) + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	return chdir(cwd) || system(cmd);
}

static int search(const char *name, char *path)
{
	return lg_loadfile_search(name, (const char(*)[LG_LOADFILE_PATH_MAX])dirs, 2, path,
				  LG_LOADFILE_PATH_MAX);
}

static void expect_in(const char *name, int dir, const char *file)
{
	char path[LG_LOADFILE_PATH_MAX], want[LG_LOADFILE_PATH_MAX + 64];

	snprintf(want, sizeof(want), "%s/%s", dirs[dir], file);
	assert_int_equal(search(name, path), 0);
	assert_string_equal(path, want);
}

static void test_data_dirs_in_order(void **state)
{
	(void)state;
	expect_in("both", 0, "both.yaml");      /* first directory wins */
	expect_in("both.yaml", 0, "both.yaml"); /* the suffix may be given */
	expect_in("only_b", 1, "only_b.yaml");
	expect_in("client.txt", 1, "client.txt"); /* any name, not only YAML */
}

static void test_here_wins(void **state)
{
	char path[LG_LOADFILE_PATH_MAX];

	(void)state;
	put("both", "name: here\n");
	assert_int_equal(search("both", path), 0);
	assert_string_equal(path, "both");
	assert_int_equal(unlink("both"), 0);
	put("only_b.yaml", "name: here\n");
	assert_int_equal(search("only_b.yaml", path), 0);
	assert_string_equal(path, "only_b.yaml");
	expect_in("only_b", 1, "only_b.yaml"); /* "only_b" is not a file here */
	assert_int_equal(unlink("only_b.yaml"), 0);
}

static void test_paths_and_misses(void **state)
{
	char path[LG_LOADFILE_PATH_MAX];

	(void)state;
	/* A name with a '/' is a path: never looked up, even when missing. */
	assert_int_equal(search("./both", path), 0);
	assert_string_equal(path, "./both");
	assert_int_equal(search("sub/only_b", path), 0);
	assert_string_equal(path, "sub/only_b");
	assert_int_equal(search("nosuch", path), -ENOENT);
	assert_int_equal(search("adir", path), -ENOENT); /* a directory is not a loadfile */
	assert_int_equal(search("both.yml", path), -ENOENT); /* .yml gets no .yaml added */
	assert_int_equal(lg_loadfile_search("both", (const char(*)[LG_LOADFILE_PATH_MAX])dirs,
					    2, path, 8),
			 -ENOENT); /* too long for path: not found rather than cut */
}

static void test_datadirs_next_to_executable(void **state)
{
	char found[LG_LOADFILE_NDIRS][LG_LOADFILE_PATH_MAX];
	size_t n = lg_loadfile_datadirs(found, LG_LOADFILE_NDIRS);
	const char *tail = "/../share/loadgen/loadfiles";

	(void)state;
	assert_true(n >= 2); /* next to the executable, and the configured prefix */
	assert_true(strlen(found[0]) > strlen(tail));
	assert_string_equal(found[0] + strlen(found[0]) - strlen(tail), tail);
	assert_string_equal(found[n - 1], LG_INSTALL_LOADFILES);
	assert_int_equal(lg_loadfile_datadirs(found, 1), 1);
}

static void test_load_reports_where_it_looked(void **state)
{
	char path[LG_LOADFILE_PATH_MAX], err[512], *text = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(lg_loadfile_load("nosuch-loadfile", &text, &len, path, sizeof(path),
					  err, sizeof(err)),
			 -ENOENT);
	assert_null(text);
	assert_non_null(strstr(err, "nosuch-loadfile: No such file or directory"));
	assert_non_null(strstr(err, LG_INSTALL_LOADFILES));
	assert_int_equal(lg_loadfile_load("./nosuch", &text, &len, path, sizeof(path), err,
					  sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "./nosuch: No such file or directory");
	put("here.yaml", "name: here\n");
	assert_int_equal(lg_loadfile_load("here.yaml", &text, &len, path, sizeof(path), err,
					  sizeof(err)),
			 0);
	assert_string_equal(path, "here.yaml");
	assert_int_equal(len, strlen("name: here\n"));
	assert_string_equal(text, "name: here\n");
	free(text);
}

static void test_shipped_names(void **state)
{
	char names[8][LG_LOADFILE_NAME_MAX], path[LG_LOADFILE_PATH_MAX + 32];

	(void)state;
	snprintf(path, sizeof(path), "%s/webserver.yml", dirs[0]);
	put(path, "name: w\n");
	/* sorted, both.yaml once although in both, adir.yaml (a directory) and client.txt out */
	assert_int_equal(lg_loadfile_shipped((const char(*)[LG_LOADFILE_PATH_MAX])dirs, 2, names,
					     8),
			 3);
	assert_string_equal(names[0], "both");
	assert_string_equal(names[1], "only_b");
	assert_string_equal(names[2], "webserver");
	assert_int_equal(lg_loadfile_shipped((const char(*)[LG_LOADFILE_PATH_MAX])dirs, 2, names,
					     1),
			 1);
	assert_int_equal(unlink(path), 0);
}

static void not_found(const char *name, char *err, size_t len)
{
	lg_loadfile_not_found(name, (const char(*)[LG_LOADFILE_PATH_MAX])dirs, 2, err, len);
}

static void test_not_found_suggests(void **state)
{
	char err[2048], want[2 * LG_LOADFILE_PATH_MAX + 256];

	(void)state;
	not_found("ohnly_b", err, sizeof(err));
	snprintf(want, sizeof(want),
		 "ohnly_b: No such file or directory; no installed loadfile of that name; did "
		 "you mean 'only_b'? Shipped loadfiles: both, only_b (looked in %s, %s)",
		 dirs[0], dirs[1]);
	assert_string_equal(err, want);
	not_found("onyl_b.yaml", err, sizeof(err)); /* the suffix is not part of the match */
	assert_non_null(strstr(err, "did you mean 'only_b'?"));
	not_found("zzzzzzzz", err, sizeof(err)); /* nothing close: the list alone */
	snprintf(want, sizeof(want),
		 "zzzzzzzz: No such file or directory; no installed loadfile of that name; "
		 "shipped loadfiles: both, only_b (looked in %s, %s)", dirs[0], dirs[1]);
	assert_string_equal(err, want);
	not_found("zzzzzzzz", err, 40); /* cut, still terminated */
	assert_int_equal(strlen(err), 39);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_dirs_in_order),
		cmocka_unit_test(test_here_wins),
		cmocka_unit_test(test_paths_and_misses),
		cmocka_unit_test(test_datadirs_next_to_executable),
		cmocka_unit_test(test_load_reports_where_it_looked),
		cmocka_unit_test(test_shipped_names),
		cmocka_unit_test(test_not_found_suggests),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
