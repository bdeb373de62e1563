/* Files a command reads and writes, told apart before anything is written
 * (include/loadgen/model/paths.h). A file that exists is known by its device and inode, so a
 * hard link, a symbolic link or another spelling of the same path is caught; one that
 * does not exist yet (an output) by its real directory and its name. An output is
 * written to a temporary file beside it and renamed over it, so it must be a regular
 * file or nothing yet: a rename over /dev/null would replace the device node. */
#include "loadgen/model/paths.h"
#include "loadgen/model/errf.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "REALDIR/NAME" for path into buf; false when its directory cannot be resolved. */
static bool canonical(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	char dir[PATH_MAX], real[PATH_MAX];

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!realpath(dir, real))
		return false;
	return (size_t)snprintf(buf, len, "%s/%s", real, name) < len;
}

bool lg_path_same(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	char ca[PATH_MAX + NAME_MAX + 2], cb[PATH_MAX + NAME_MAX + 2];

	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea != eb) /* one exists, the other not: different names of different files */
		return false;
	if (canonical(a, ca, sizeof(ca)) && canonical(b, cb, sizeof(cb)))
		return strcmp(ca, cb) == 0;
	return strcmp(a, b) == 0;
}

/* Whether p is a file name at all (not missing, not standard output). */
static bool named(const struct lg_named_path *p)
{
	return p->path && *p->path && strcmp(p->path, "-") != 0;
}

int lg_paths_distinct(const struct lg_named_path *p, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (!(p[i].output || p[j].output) || !named(&p[i]) || !named(&p[j]) ||
			    !lg_path_same(p[i].path, p[j].path))
				continue;
			return lg_errf(err, errlen, -EINVAL,
				       "%s %s and %s %s name the same file: writing %s would "
				       "replace %s", p[i].what, p[i].path, p[j].what, p[j].path,
				       p[j].output ? p[j].what : p[i].what,
				       p[j].output ? p[i].what : p[j].what);
		}
	return 0;
}

int lg_path_check_output(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *copy, *dir;
	int rc = 0;

	if (!path || !*path)
		return lg_errf(err, errlen, -EINVAL, "%s: empty path", path ? path : "(null)");
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return lg_errf(err, errlen, -EISDIR, "%s: is a directory", path);
		/* rename() would replace a device node or FIFO instead of writing to it */
		if (!S_ISREG(st.st_mode))
			return lg_errf(err, errlen, -EINVAL, "%s: not a regular file", path);
	} else if (errno != ENOENT && errno != ENOTDIR) {
		return lg_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	}
	copy = strdup(path);
	if (!copy)
		return lg_errf(err, errlen, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
	dir = dirname(copy);
	if (stat(dir, &st) != 0)
		rc = lg_errf(err, errlen, -errno, "%s: directory %s: %s", path, dir,
			  strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		rc = lg_errf(err, errlen, -ENOTDIR, "%s: %s is not a directory", path, dir);
	else if (access(dir, W_OK | X_OK) != 0)
		rc = lg_errf(err, errlen, -errno, "%s: cannot create files in %s: %s", path, dir,
			  strerror(errno));
	free(copy);
	return rc;
}

int lg_path_user_data(const char *name, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/loadgen/%s", xdg, name);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/loadgen/%s", home, name);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int lg_path_make_parents(const char *path)
{
	char dir[PATH_MAX];

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}
