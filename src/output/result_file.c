/* Result files on disk: checked before a run (so a run is not wasted on a path that
 * cannot be written), written atomically after it (a temporary file next to the
 * destination, fsync'd, renamed over it, the directory fsync'd), so a crash never
 * leaves half a result. */
#include "loadgen/output/result_json.h"
#include "loadgen/model/errf.h"
#include "loadgen/model/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_NAME ".loadgen-result.XXXXXX" /* temporary file, next to the destination */

int lg_result_json_check(const char *path, char *err, size_t errlen)
{
	return lg_path_check_output(path, err, errlen);
}

/* mkstemp makes 0600 files; give the result the mode a plain fopen would. umask can
 * only be read by setting it, which is safe here: the clients have been joined. */
static void chmod_like_fopen(int fd)
{
	mode_t mask = umask(022);

	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
}

/* Make the rename durable. Best effort: some filesystems refuse fsync on directories,
 * and the file itself is already safe. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* Dump doc into the open temporary fd (closed on return). 0 or a negative errno. */
static int dump_fd(int fd, json_t *doc)
{
	FILE *f = fdopen(fd, "w");
	int rc = 0;

	if (!f) {
		rc = -errno;
		close(fd);
		return rc;
	}
	errno = 0;
	if (json_dumpf(doc, f, JSON_INDENT(2)) != 0 || fputc('\n', f) == EOF || fflush(f) != 0)
		rc = errno ? -errno : -EIO;
	else if (fsync(fileno(f)) != 0)
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

int lg_result_json_write(const char *path, json_t *doc, char *err, size_t errlen)
{
	char *copy = strdup(path), *tmp = NULL, *dir;
	int fd, rc = -ENOMEM;

	if (!copy)
		goto out;
	dir = dirname(copy);
	if (asprintf(&tmp, "%s/%s", dir, TMP_NAME) < 0) {
		tmp = NULL;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	chmod_like_fopen(fd);
	rc = dump_fd(fd, doc);
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc != 0)
		unlink(tmp);
	else
		sync_dir(dir);
out:
	if (rc != 0)
		lg_errf(err, errlen, rc, "%s: %s", path, strerror(-rc));
	free(tmp);
	free(copy);
	return rc;
}
