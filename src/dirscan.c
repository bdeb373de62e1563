/* getdents64 directory reading without allocation; see dirscan.h. */
#include "dirscan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* As glibc's opendir, plus O_NOFOLLOW: a symbolic link in the run directory is never
 * followed (opendir would follow it; the number of calls is the same). */
#define DIR_OPEN (O_RDONLY | O_NONBLOCK | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

int lg_dirscan_open(int dirfd, const char *path, int like_opendir)
{
	int fd = openat(dirfd, path, DIR_OPEN);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (like_opendir && fstat(fd, &st) != 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

void lg_dirscan_init(struct lg_dirscan *s, int fd, char *buf)
{
	s->fd = fd;
	s->buf = buf;
	s->len = 0;
	s->pos = 0;
}

int lg_dirscan_next(struct lg_dirscan *s, const char **name, unsigned char *type)
{
	const struct dirent64 *d;

	if (s->pos >= s->len) {
		ssize_t n = getdents64(s->fd, s->buf, LG_DIRSCAN_BUF);

		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		s->len = (size_t)n;
		s->pos = 0;
	}
	d = (const struct dirent64 *)(s->buf + s->pos);
	s->pos += d->d_reclen;
	*name = d->d_name;
	*type = d->d_type;
	return 1;
}
