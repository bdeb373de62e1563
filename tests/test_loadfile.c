/* loadfile.c: reading a loadfile -- a regular file, a pipe (with and without a
 * writer), and what is refused with the right errno before any read (a directory, a
 * device, a file the user may not read, a missing one) -- the user's words for each,
 * and the choice of loader by content. */
#include "loadgen/load/loadfile.h"

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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir_fixture.h"

static const char *path_of(const char *name)
{
	static char p[128];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

static void put(const char *name, const char *text, mode_t mode)
{
	int fd = open(path_of(name), O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	chmod(path_of(name), mode);
}

static void test_regular(void **state)
{
	char *text = NULL;
	size_t len = 0;

	(void)state;
	put("w.yaml", "run:\n  - mkdir: d\n", 0644);
	assert_int_equal(lg_loadfile_read(path_of("w.yaml"), &text, &len), 0);
	assert_int_equal(len, 18);
	assert_string_equal(text, "run:\n  - mkdir: d\n");
	free(text);
	put("empty", "", 0644);
	assert_int_equal(lg_loadfile_read(path_of("empty"), &text, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);
}

/* A file over the first buffer (64 KiB) is read whole. */
static void test_large(void **state)
{
	size_t n = 300000;
	char *big = malloc(n + 1), *text = NULL;
	size_t len = 0;

	(void)state;
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	big[n] = '\0';
	put("big", big, 0644);
	assert_int_equal(lg_loadfile_read(path_of("big"), &text, &len), 0);
	assert_int_equal(len, n);
	assert_memory_equal(text, big, n);
	free(text);
	free(big);
}

static void test_refused(void **state)
{
	char *text = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(lg_loadfile_read(dir, &text, &len), -EISDIR);
	assert_int_equal(lg_loadfile_read("/dev/zero", &text, &len), -ENODEV);
	assert_int_equal(lg_loadfile_read("/dev/null", &text, &len), -ENODEV);
	assert_int_equal(lg_loadfile_read(path_of("missing"), &text, &len), -ENOENT);
	assert_null(text);
	assert_string_equal(lg_loadfile_strerror(-EISDIR), "is a directory, not a loadfile");
	assert_non_null(strstr(lg_loadfile_strerror(-ENODEV), "not a regular file or pipe"));
	assert_string_equal(lg_loadfile_strerror(-ENOENT), "No such file or directory");
}

/* A file without read permission, read by a user who is not root (as root: a child
 * that became nobody), fails with EACCES. */
static void test_unreadable(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	put("secret", "run: []\n", 0000);
	assert_int_equal(chmod(dir, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *text = NULL;
		size_t len = 0;

		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(3);
		_exit(lg_loadfile_read(path_of("secret"), &text, &len) == -EACCES ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(lg_loadfile_strerror(-EACCES), "permission denied (not readable)");
}

/* A FIFO: with a writer it reads what was written; without one it reads as empty at
 * once instead of blocking. */
static void test_fifo(void **state)
{
	char *text = NULL;
	size_t len = 0;
	pid_t pid;

	(void)state;
	assert_int_equal(mkfifo(path_of("fifo"), 0644), 0);
	assert_int_equal(lg_loadfile_read(path_of("fifo"), &text, &len), 0);
	assert_int_equal(len, 0);
	free(text);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(path_of("fifo"), O_WRONLY);

		_exit(fd >= 0 && write(fd, "run: []\n", 8) == 8 ? 0 : 1);
	}
	/* the writer may not have opened it yet: retry until its bytes arrive */
	for (int i = 0; i < 500; i++) {
		assert_int_equal(lg_loadfile_read(path_of("fifo"), &text, &len), 0);
		if (len)
			break;
		free(text);
		text = NULL;
		usleep(10000);
	}
	assert_int_equal(len, 8);
	assert_string_equal(text, "run: []\n");
	free(text);
	waitpid(pid, NULL, 0);
}

/* The loader is chosen by content; a dbench file takes no -p. */
static void test_compile(void **state)
{
	const char *db = "NTCreateX \"\\clients\\client1\\f\" 0x0 0x2 7 NT_STATUS_OK\n"
			 "Close 7 NT_STATUS_OK\n";
	const char *yaml = "run:\n  - mkdir: d\n";
	struct lg_param p = { "x", "1" };
	struct lg_workload *wl = NULL;
	char err[256];

	(void)state;
	assert_int_equal(lg_loadfile_compile("c.txt", db, strlen(db), NULL, 0, 1, &wl, err,
					     sizeof(err)), 0);
	assert_string_equal(wl->types[wl->ops[LG_PHASE_RUN][0].type], "NTCreateX");
	lg_workload_destroy(wl);
	assert_int_equal(lg_loadfile_compile("c.txt", db, strlen(db), &p, 1, 1, &wl, err,
					     sizeof(err)), -EINVAL);
	assert_string_equal(err, "c.txt: dbench loadfiles take no -p parameters");
	assert_int_equal(lg_loadfile_compile("w.yaml", yaml, strlen(yaml), NULL, 0, 1, &wl, err,
					     sizeof(err)), 0);
	assert_string_equal(wl->types[wl->ops[LG_PHASE_RUN][0].type], "mkdir");
	lg_workload_destroy(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_regular, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_large, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_refused, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_unreadable, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_fifo, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_compile, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
