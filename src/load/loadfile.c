/* Reading a loadfile, and choosing its loader by content (not by file name). */
#include "loadgen/load/loadfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loadgen/load/dbench_load.h"
#include "loadgen/load/yaml_load.h"

#define HUGE_PAGE (2u << 20) /* bytes of a huge page (x86-64, arm64 with 4 KiB pages) */

/* Open path for reading and check what it is: a regular file or a pipe (bash's
 * <(...)) is read; a directory or a device is refused before any read, so the user is
 * told what is wrong instead of a read's EIO (or 256 MiB of /dev/zero). A FIFO is
 * opened without blocking, so one without a writer reads as empty instead of hanging. */
static int open_loadfile(const char *path, FILE **out, size_t *size)
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
	*size = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0;
	if (rc)
		close(fd);
	return rc;
}

/* A buffer of cap + 1 bytes for a file's text: in huge pages when it is big, so that
 * reading dbench's 26 MB client.txt takes a few page faults instead of thousands. */
static char *text_buffer(size_t cap)
{
	size_t bytes = (cap + 1 + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	char *buf;

	if (cap < HUGE_PAGE)
		return malloc(cap + 1);
	buf = aligned_alloc(HUGE_PAGE, bytes);
	if (buf)
		madvise(buf, bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
	return buf;
}

int lg_loadfile_read(const char *path, char **text, size_t *len)
{
	size_t cap = 1 << 16, n = 0, size = 0;
	char *buf = NULL, *nb;
	FILE *f = NULL;
	int rc = open_loadfile(path, &f, &size);

	if (rc)
		return rc;
	if (size && size < LG_LOADFILE_MAX) { /* all of it at once, and one byte to see EOF */
		cap = size + 1;
		if (!(buf = text_buffer(cap)))
			rc = -ENOMEM;
	}
	while (!rc) {
		if (!buf || n == cap) { /* the first buffer, or a full one: twice the room */
			if (buf && cap >= LG_LOADFILE_MAX) {
				rc = -EFBIG;
				break;
			}
			cap = buf ? cap * 2 : cap;
			if (!(nb = realloc(buf, cap + 1))) {
				rc = -ENOMEM;
				break;
			}
			buf = nb;
		}
		n += fread(buf + n, 1, cap - n, f);
		if (ferror(f))
			rc = errno ? -errno : -EIO;
		else if (n < cap)
			break;
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
