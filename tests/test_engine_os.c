/* engine_os.c: the O_DIRECT probe (a filesystem that accepts it leaves no probe file
 * behind; tmpfs refuses it, with the directory and the errno in the message),
 * --drop-caches (as root it works; in a child that gave up root it fails with the path
 * and EACCES), and the master's real-time switch and its restore. */
#include "run/engine_os.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "skip_part.h"

#define TMPFS_MAGIC 0x01021994

static void probe_in(const char *base)
{
	char dir[128], err[512] = "";
	struct statfs fs;
	struct stat st;
	int fd, rc;

	snprintf(dir, sizeof(dir), "%s/lg-direct.XXXXXX", base);
	if (!mkdtemp(dir)) {
		LG_SKIP_PART(base);
		return;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(fstatfs(fd, &fs), 0);
	rc = lg_probe_direct(fd, dir, err, sizeof(err));
	if (fs.f_type == TMPFS_MAGIC && rc) { /* older kernels: tmpfs refuses O_DIRECT */
		assert_int_equal(rc, -EINVAL);
		assert_non_null(strstr(err, dir));
		assert_non_null(strstr(err, "refuses O_DIRECT"));
	} else if (rc == 0) {
		assert_int_equal(fstatat(fd, ".loadgen-direct-probe", &st, 0), -1);
		assert_int_equal(errno, ENOENT); /* the probe file is gone */
	} else {
		assert_non_null(strstr(err, dir));
	}
	close(fd);
	rmdir(dir);
}

static void test_probe_direct(void **state)
{
	char err[256] = "";

	(void)state;
	probe_in("/tmp");
	probe_in("/dev/shm");
	assert_int_equal(lg_probe_direct(-1, "nowhere", err, sizeof(err)), -EBADF);
	assert_non_null(strstr(err, "nowhere"));
}

static void test_drop_caches(void **state)
{
	char err[256] = "";
	pid_t pid;
	int status;

	(void)state;
	if (geteuid() == 0)
		assert_int_equal(lg_drop_caches(err, sizeof(err)), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) { /* without root: refused, saying where and why */
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(3);
		_exit(lg_drop_caches(err, sizeof(err)) == -EACCES &&
		      strstr(err, "/proc/sys/vm/drop_caches: Permission denied") ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_realtime(void **state)
{
	struct sched_param old, now;
	int policy, cur;

	(void)state;
	assert_int_equal(pthread_getschedparam(pthread_self(), &cur, &now), 0);
	policy = lg_master_realtime(&old);
	if (policy < 0) { /* not allowed: nothing changed */
		assert_int_equal(pthread_getschedparam(pthread_self(), &policy, &now), 0);
		assert_int_equal(policy, cur);
		return;
	}
	assert_int_equal(policy, cur);
	assert_int_equal(pthread_getschedparam(pthread_self(), &cur, &now), 0);
	assert_int_equal(cur, SCHED_FIFO);
	assert_int_equal(pthread_setschedparam(pthread_self(), policy, &old), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_direct),
		cmocka_unit_test(test_drop_caches),
		cmocka_unit_test(test_realtime),
	};

	return lg_test_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
