/* Reading a loadfile, and choosing its loader by content (not by file name). */
#include "loadgen/loadfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loadgen/dbench_load.h"
#include "loadgen/yaml_load.h"

/* Open path for reading and check what it is: a regular file or a pipe (bash's
 * <(...)) is read; a directory or a device is refused before any read, so the user is
 * told what is wrong instead of a read's EIO (or 256 MiB of /dev/zero). A FIFO is
 * opened without blocking, so one without a writer reads as empty instead of hanging. */
static int open_loadfile(const char *path, FILE **out)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), rc = 0;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (S_ISDIR(st.st_mode))
		rc = -EISDIR;
	else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		rc = -ENODEV;
	else if (fcntl(fd, F_SETFL, 0) < 0 || !(*out = fdopen(fd, "rb")))
		rc = -errno;
	if (rc)
		close(fd);
	return rc;
}

int lg_loadfile_read(const char *path, char **text, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL, *nb;
	FILE *f = NULL;
	int rc = open_loadfile(path, &f);

	if (rc)
		return rc;
	while (!rc) {
		if (!(nb = realloc(buf, cap + 1))) {
			rc = -ENOMEM;
			break;
		}
		buf = nb;
		n += fread(buf + n, 1, cap - n, f);
		if (ferror(f))
			rc = errno ? -errno : -EIO;
		else if (n < cap)
			break;
		else if (cap >= LG_LOADFILE_MAX)
			rc = -EFBIG;
		cap *= 2;
	}
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

const char *lg_loadfile_strerror(int rc)
{
	switch (rc) {
	case -EISDIR:
		return "is a directory, not a loadfile";
	case -ENODEV:
		return "not a regular file or pipe (a device or socket)";
	case -EACCES:
		return "permission denied (not readable)";
	case -EFBIG:
		return "too large for a loadfile (over 256 MiB)";
	default:
		return strerror(-rc);
	}
}

int lg_loadfile_compile(const char *name, const char *text, size_t len,
			const struct lg_param *params, size_t nparams, unsigned clients,
			struct lg_workload **wl, char *err, size_t errlen)
{
	if (!lg_dbench_detect(text, len))
		return lg_yaml_load(name, text, len, params, nparams, clients, wl, err, errlen);
	if (nparams) {
		snprintf(err, errlen, "%s: dbench loadfiles take no -p parameters", name);
		return -EINVAL;
	}
	return lg_dbench_load(name, text, len, clients, wl, err, errlen);
}
