/* getdents64 directory reading without allocation; see dirscan.h. */
#include "dirscan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysnc.h"

/* As glibc's opendir, plus O_NOFOLLOW: a symbolic link in the run directory is never
 * followed (opendir would follow it; the number of calls is the same). */
#define DIR_OPEN (O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

int lg_dirscan_open(int dirfd, const char *path, int like_opendir)
{
	int fd = lg_sys_openat(dirfd, path, DIR_OPEN, 0);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (like_opendir && fstat(fd, &st) != 0) {
		int rc = -errno;

		lg_sys_close(fd);
		return rc;
	}
	return fd;
}

int lg_dirscan_fill(struct lg_dirscan *s)
{
	ssize_t n = getdents64(s->fd, s->buf, LG_DIRSCAN_BUF);

	if (n < 0)
		return -errno;
	s->len = (size_t)n;
	s->pos = 0;
	return n > 0;
}
