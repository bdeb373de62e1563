/* A temporary file beside an output (tmpout.h). */
#include "tmpout.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int lg_tmpout_open(const char *out, char **tmp, FILE **f)
{
	mode_t mask = umask(0);
	int fd, rc = 0;

	umask(mask);
	if (asprintf(tmp, "%s.XXXXXX", out) < 0) {
		*tmp = NULL;
		return -ENOMEM;
	}
	fd = mkstemp(*tmp);
	if (fd < 0) {
		rc = -errno;
	} else if (fchmod(fd, 0666 & ~mask) != 0 || !(*f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		unlink(*tmp);
	}
	if (rc) {
		free(*tmp);
		*tmp = NULL;
	}
	return rc;
}
