/* Run directory creation and symlink-safe removal. */
#include "loadgen/run/rundir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *what, int e)
{
	snprintf(err, errlen, "%s: %s", what, strerror(e));
	return -e;
}

int lg_rundir_check(const char *parent, char *err, size_t errlen)
{
	struct stat st;

	if (stat(parent, &st) != 0)
		return fail(err, errlen, parent, errno);
	if (!S_ISDIR(st.st_mode))
		return fail(err, errlen, parent, ENOTDIR);
	if (access(parent, W_OK | X_OK) != 0)
		return fail(err, errlen, parent, errno);
	return 0;
}

int lg_rundir_create(const char *parent, char **path, int *fd, char *err, size_t errlen)
{
	size_t n = strlen(parent) + sizeof("/loadgen.XXXXXX");
	char *p;
	int rc = lg_rundir_check(parent, err, errlen);

	if (rc)
		return rc;
	p = malloc(n);
	if (!p)
		return fail(err, errlen, parent, ENOMEM);
	snprintf(p, n, "%s/loadgen.XXXXXX", parent);
	if (!mkdtemp(p)) {
		int e = errno;

		free(p);
		return fail(err, errlen, parent, e);
	}
	chmod(p, 0755);
	*fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0) {
		int e = errno;

		rmdir(p);
		free(p);
		return fail(err, errlen, parent, e);
	}
	*path = p;
	return 0;
}

/* Remove entry name of dirfd: a directory is emptied through its own descriptor (opened
 * with O_NOFOLLOW, so a link is never entered) and then removed. */
static int remove_entry(int dirfd, const char *name)
{
	int fd, rc;

	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	rc = lg_rundir_empty(fd);
	close(fd);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT && !rc)
		rc = -errno;
	return rc;
}

/* One pass over dirfd removing every entry; *seen counts the entries met. */
static int empty_pass(DIR *d, int dirfd, unsigned *seen)
{
	struct dirent *de;
	int rc = 0;

	rewinddir(d);
	while ((de = readdir(d))) {
		int r;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		(*seen)++;
		r = remove_entry(dirfd, de->d_name);
		if (r && !rc)
			rc = r;
	}
	return rc;
}

int lg_rundir_empty(int dirfd)
{
	int fd = dup(dirfd), rc = 0;
	unsigned seen = 1;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	/* Entries removed while a directory is read may make the stream skip others, so
	 * read again until a pass meets nothing (bounded, in case an entry resists). */
	for (int pass = 0; seen && pass < 8; pass++) {
		seen = 0;
		rc = empty_pass(d, dirfd, &seen);
	}
	closedir(d);
	return rc;
}

int lg_rundir_remove(const char *path, int dirfd)
{
	int rc = lg_rundir_empty(dirfd);

	close(dirfd);
	if (rmdir(path) != 0 && !rc)
		rc = -errno;
	return rc;
}

int lg_rundir_count(int dirfd, uint64_t *n)
{
	int fd = dup(dirfd);
	struct dirent *de;
	DIR *d;

	*n = 0;
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return -e;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			(*n)++;
	closedir(d);
	return 0;
}
