/* Unit tests of the hot path's system calls without cancellation bookkeeping (sysnc.h):
 * each gives what the libc call gives, results and errno alike, over a temporary
 * directory. That they make the very calls dbench makes is checked under strace by
 * tests/integration/test_dbench_strace.py. */
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

#include "run/sysnc.h"

static char base[] = "/tmp/lg_sysnc_XXXXXX";
static int dirfd_ = -1;

static int setup_dir(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(base));
	dirfd_ = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dirfd_ >= 0 ? 0 : -1;
}

static int teardown_dir(void **state)
{
	(void)state;
	unlinkat(dirfd_, "f", 0);
	close(dirfd_);
	return rmdir(base);
}

/* openat creates with the mode given (umask 0), opens without creating, and fails as
 * libc does: -1 with errno. */
static void test_openat(void **state)
{
	struct stat st;
	mode_t old = umask(0);
	int fd;

	(void)state;
	fd = lg_sys_openat(dirfd_, "f", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0640);
	umask(old);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(lg_sys_close(fd), 0);
	fd = lg_sys_openat(dirfd_, "f", O_RDONLY | O_CLOEXEC, 0777);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640); /* the mode is not applied to an open */
	assert_int_equal(lg_sys_close(fd), 0);
	errno = 0;
	assert_int_equal(lg_sys_openat(dirfd_, "missing", O_RDONLY, 0), -1);
	assert_int_equal(errno, ENOENT);
	errno = 0;
	assert_int_equal(lg_sys_openat(dirfd_, "f", O_CREAT | O_EXCL | O_WRONLY, 0600), -1);
	assert_int_equal(errno, EEXIST);
}

/* pwrite and pread move the bytes at the offset given and return their count; fsync and
 * fdatasync succeed on a file; a closed descriptor gives EBADF everywhere. */
static void test_io(void **state)
{
	char out[64], in[64];
	int fd;

	(void)state;
	memset(out, 'x', sizeof(out));
	fd = lg_sys_openat(dirfd_, "f", O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(lg_sys_pwrite(fd, out, sizeof(out), 4096), sizeof(out));
	assert_int_equal(lseek(fd, 0, SEEK_END), 4096 + sizeof(out));
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 4096 + sizeof(out)); /* unmoved by p* */
	assert_int_equal(lg_sys_pread(fd, in, sizeof(in), 4096 + 16), sizeof(in) - 16);
	assert_memory_equal(in, out, sizeof(in) - 16);
	assert_int_equal(lg_sys_pread(fd, in, 8, 0), 8);
	assert_memory_equal(in, "\0\0\0\0\0\0\0\0", 8); /* the hole before the write */
	assert_int_equal(lg_sys_fsync(fd), 0);
	assert_int_equal(lg_sys_fdatasync(fd), 0);
	assert_int_equal(lg_sys_close(fd), 0);
	errno = 0;
	assert_int_equal(lg_sys_close(fd), -1);
	assert_int_equal(errno, EBADF);
	errno = 0;
	assert_int_equal(lg_sys_pread(fd, in, 8, 0), -1);
	assert_int_equal(errno, EBADF);
	errno = 0;
	assert_int_equal(lg_sys_pwrite(fd, out, 8, 0), -1);
	assert_int_equal(errno, EBADF);
	errno = 0;
	assert_int_equal(lg_sys_fsync(fd), -1);
	assert_int_equal(errno, EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_openat),
		cmocka_unit_test(test_io),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
