/* The hot path's cancellable system calls, made without glibc's cancellation bookkeeping.
 *
 * Once a process has a second thread, glibc wraps every call that POSIX makes a
 * cancellation point (openat, close, pread, pwrite, fsync, fdatasync, ...) in two calls
 * that atomically update the thread's cancellation state, so that pthread_cancel could
 * interrupt it. loadgen never cancels a thread, so for its clients those are pure
 * overhead: two function calls and two locked instructions around each system call,
 * about a tenth of the user CPU of a dbench op. These functions make the same system
 * call with the same arguments through syscall(2), which is no cancellation point:
 * strace sees exactly what the libc call makes (tests/integration/test_dbench_strace.py
 * compares loadgen's calls with dbench's), and they return what it returns (-1 with
 * errno set on failure).
 *
 * Only where every argument of these calls fits one register (64-bit ABIs, LP64) and
 * glibc adds no flag of its own (O_LARGEFILE is 0 there). Elsewhere, and under the
 * sanitizers (which intercept the libc calls to check their buffers and descriptors),
 * they are the libc calls themselves. Arguments go to syscall(2) as longs, the type
 * it reads them as. */
#ifndef LOADGEN_SYSNC_H
#define LOADGEN_SYSNC_H

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LG_SYSNC_LIBC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define LG_SYSNC_LIBC 1
#endif
#endif
#if !defined(__LP64__) || !defined(__linux__)
#define LG_SYSNC_LIBC 1
#endif

#ifndef LG_SYSNC_LIBC

/* openat(2). The mode reaches the kernel only when flags create a file, as glibc passes
 * it (0 otherwise). */
static inline int lg_sys_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	int creates = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;

	return (int)syscall(SYS_openat, (long)dirfd, path, (long)flags,
			   creates ? (long)mode : 0L);
}

/* close(2). */
static inline int lg_sys_close(int fd)
{
	return (int)syscall(SYS_close, (long)fd);
}

/* pread(2). */
static inline ssize_t lg_sys_pread(int fd, void *buf, size_t n, off_t off)
{
	return syscall(SYS_pread64, (long)fd, buf, n, (long)off);
}

/* pwrite(2). */
static inline ssize_t lg_sys_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return syscall(SYS_pwrite64, (long)fd, buf, n, (long)off);
}

/* fsync(2). */
static inline int lg_sys_fsync(int fd)
{
	return (int)syscall(SYS_fsync, (long)fd);
}

/* fdatasync(2). */
static inline int lg_sys_fdatasync(int fd)
{
	return (int)syscall(SYS_fdatasync, (long)fd);
}

#else /* the libc calls */

static inline int lg_sys_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return openat(dirfd, path, flags, mode);
}

static inline int lg_sys_close(int fd)
{
	return close(fd);
}

static inline ssize_t lg_sys_pread(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off);
}

static inline ssize_t lg_sys_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return pwrite(fd, buf, n, off);
}

static inline int lg_sys_fsync(int fd)
{
	return fsync(fd);
}

static inline int lg_sys_fdatasync(int fd)
{
	return fdatasync(fd);
}

#endif

#endif
