/* loadgen record's snapshot of the recorded directory (src/app/record_tree.c): entries
 * sorted with a directory before its contents, file sizes, symlink targets (never
 * followed), FIFOs counted apart, the output file skipped, and the error for a
 * directory that is not there. */
#include "app/record_tree.h"

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

#include "tmpdir_fixture.h"

/* dir/rel, with len bytes. */
static void make_file(const char *rel, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_non_null(f = fopen(path, "w"));
	for (size_t i = 0; i < len; i++)
		fputc('x', f);
	assert_int_equal(fclose(f), 0);
}

static void make_at(const char *rel, int (*fn)(const char *, mode_t), mode_t mode)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(fn(path, mode), 0);
}

static void link_at(const char *target, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void test_tree(void **state)
{
	struct lg_rec_tree t;
	char err[256] = "", skip[256];
	const char *skips[] = { skip };

	(void)state;
	make_at("src", mkdir, 0755);
	make_at("src/sub", mkdir, 0755);
	make_at("src-b", mkdir, 0755);
	make_file("src/a.c", 10);
	make_file("src/sub/b.c", 0);
	make_file("top", 4097);
	make_file("out.yaml", 3);
	link_at("src", "to-dir");           /* a symlink to a directory: not followed */
	link_at("../nowhere", "dangling");
	make_at("fifo", mkfifo, 0600);
	snprintf(skip, sizeof(skip), "%s/out.yaml", dir);

	assert_int_equal(lg_rec_tree_snapshot(dir, skips, 1, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 8);
	assert_int_equal(t.others, 1);
	const struct { const char *rel; char type; uint64_t size; const char *target; } want[] = {
		{ "dangling", 'l', 0, "../nowhere" }, { "src", 'd', 0, NULL },
		{ "src-b", 'd', 0, NULL }, { "src/a.c", 'f', 10, NULL },
		{ "src/sub", 'd', 0, NULL }, { "src/sub/b.c", 'f', 0, NULL },
		{ "to-dir", 'l', 0, "src" }, { "top", 'f', 4097, NULL },
	};
	for (size_t i = 0; i < t.n; i++) {
		assert_string_equal(t.e[i].rel, want[i].rel);
		assert_int_equal(t.e[i].type, want[i].type);
		assert_int_equal(t.e[i].size, want[i].size);
		if (want[i].target)
			assert_string_equal(t.e[i].target, want[i].target);
		else
			assert_null(t.e[i].target);
	}
	lg_rec_tree_clear(&t);
	assert_int_equal(t.n, 0);
	lg_rec_tree_clear(&t); /* a cleared tree again: fine */
}

static void test_empty_and_trailing_slash(void **state)
{
	struct lg_rec_tree t;
	char err[256], path[256];

	(void)state;
	make_file("f", 1);
	snprintf(path, sizeof(path), "%s/", dir);
	assert_int_equal(lg_rec_tree_snapshot(path, NULL, 0, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 1);
	assert_string_equal(t.e[0].rel, "f");
	lg_rec_tree_clear(&t);
	strcat(path, "f");
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s", dir);
	assert_int_equal(lg_rec_tree_snapshot(path, NULL, 0, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 0);
	assert_null(t.e);
}

static void test_missing(void **state)
{
	struct lg_rec_tree t;
	char err[256] = "", path[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/nope", dir);
	assert_int_equal(lg_rec_tree_snapshot(path, NULL, 0, &t, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "nope: No such file or directory"));
	assert_int_equal(t.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tree, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_empty_and_trailing_slash, make_dir,
						remove_dir),
		cmocka_unit_test_setup_teardown(test_missing, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
