/* paths.c: two spellings, a hard link and a symbolic link of one file are the same file;
 * so are two spellings of a file not written yet; different files are not; an output
 * named like an input or another output is refused with both names, inputs alone and
 * standard output ("-") never are; an output that is not a regular file (a FIFO,
 * /dev/null) is refused, which a rename over it would replace. */
#include "loadgen/model/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir_fixture.h"

/* dir/name (static buffer per slot). */
static const char *at(int slot, const char *name)
{
	static char buf[4][256];

	snprintf(buf[slot], sizeof(buf[slot]), "%s/%s", dir, name);
	return buf[slot];
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	close(fd);
}

static void test_same(void **state)
{
	char dotted[300];

	(void)state;
	touch(at(0, "r.json"));
	touch(at(1, "other.json"));
	assert_int_equal(mkdir(at(2, "sub"), 0755), 0);
	snprintf(dotted, sizeof(dotted), "%s/sub/../r.json", dir);
	assert_true(lg_path_same(at(0, "r.json"), dotted));
	assert_false(lg_path_same(at(0, "r.json"), at(1, "other.json")));
	assert_int_equal(link(at(0, "r.json"), at(1, "hard")), 0);
	assert_true(lg_path_same(at(0, "r.json"), at(1, "hard")));
	assert_int_equal(symlink(at(0, "r.json"), at(1, "soft")), 0);
	assert_true(lg_path_same(at(1, "soft"), at(0, "r.json")));
	/* not written yet: the same name in the same directory */
	snprintf(dotted, sizeof(dotted), "%s/sub/../new.html", dir);
	assert_true(lg_path_same(at(0, "new.html"), dotted));
	assert_false(lg_path_same(at(0, "new.html"), at(1, "sub/new.html")));
	assert_false(lg_path_same(at(0, "new.html"), at(1, "r.json"))); /* one exists */
}

static void test_distinct(void **state)
{
	char err[512];
	struct lg_named_path p[] = {
		{ .what = "the loadfile", .path = NULL },
		{ .what = "--json", .path = NULL, .output = true },
		{ .what = "--html", .path = NULL, .output = true },
		{ .what = "--log", .path = "-", .output = true },
	};

	(void)state;
	touch(at(0, "w.yaml"));
	p[0].path = at(0, "w.yaml");
	p[1].path = at(1, "r.json");
	p[2].path = at(2, "r.html");
	assert_int_equal(lg_paths_distinct(p, 4, err, sizeof(err)), 0);
	p[2].path = at(2, "r.json"); /* the report over the result, neither written yet */
	assert_int_equal(lg_paths_distinct(p, 4, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--json "));
	assert_non_null(strstr(err, "/r.json and --html "));
	assert_non_null(strstr(err, "name the same file: writing --html would replace --json"));
	p[2].path = at(2, "w.yaml"); /* an output over the input */
	assert_int_equal(lg_paths_distinct(p, 4, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "writing --html would replace the loadfile"));
	p[2].output = false; /* two inputs may be one file */
	assert_int_equal(lg_paths_distinct(p, 4, err, sizeof(err)), 0);
	p[1].path = "-"; /* standard output is no file */
	p[3].path = "-";
	assert_int_equal(lg_paths_distinct(p, 4, err, sizeof(err)), 0);
}

/* An output must be a regular file or nothing yet, in a writable directory. */
static void test_check_output(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(lg_path_check_output(at(0, "new.json"), err, sizeof(err)), 0);
	touch(at(0, "old.json"));
	assert_int_equal(lg_path_check_output(at(0, "old.json"), err, sizeof(err)), 0);
	assert_int_equal(mkfifo(at(1, "fifo"), 0644), 0);
	assert_int_equal(lg_path_check_output(at(1, "fifo"), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/fifo: not a regular file"));
	assert_int_equal(lg_path_check_output("/dev/null", err, sizeof(err)), -EINVAL);
	assert_int_equal(lg_path_check_output(dir, err, sizeof(err)), -EISDIR);
	assert_int_equal(lg_path_check_output(at(2, "no/such.json"), err, sizeof(err)), -ENOENT);
	assert_int_equal(lg_path_check_output("", err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_same, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_distinct, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_check_output, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
