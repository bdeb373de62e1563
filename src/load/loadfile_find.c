/* Finding a loadfile by name: `-c fileserver` works from any directory.
 *
 * A name that is a file (relative to the current directory, or any path with a '/') is
 * used as it is. Otherwise the name, and the name with ".yaml" added, is looked up in the
 * data directories, first hit wins:
 *   1. <directory of the executable>/../share/loadgen/loadfiles — an installed tree,
 *      wherever it was moved or unpacked (a .deb in /usr, a tarball in /opt, --prefix);
 *   2. the source tree's loadfiles/, only when the executable is the one in the build
 *      directory (so a build works before it is installed, and an installed copy never
 *      reads a build tree that happens to still exist);
 *   3. the data directory of the configured install prefix.
 * The directories are compiled in (LG_BUILD_DIR, LG_SOURCE_LOADFILES, LG_INSTALL_LOADFILES,
 * set by CMake on this file only); the executable comes from /proc/self/exe.
 *
 * `-c NAME` and `loadgen show NAME` both come through lg_loadfile_load, so what one finds the
 * other finds. A miss names the closest shipped loadfile (a typo, "filesever") and lists
 * the shipped ones, so the user sees what there is without knowing where it is installed. */
#include "loadgen/load/loadfile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loadgen/model/suggest.h"

#ifndef LG_BUILD_DIR
#define LG_BUILD_DIR ""
#endif
#ifndef LG_SOURCE_LOADFILES
#define LG_SOURCE_LOADFILES ""
#endif
#ifndef LG_INSTALL_LOADFILES
#define LG_INSTALL_LOADFILES "/usr/local/share/loadgen/loadfiles"
#endif

#define LG_DATADIR_REL "../share/loadgen/loadfiles" /* from the executable's directory */

/* Is path an existing regular file (or a link to one)? */
static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Does name already carry a YAML suffix? */
static int has_yaml_suffix(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

/* Directory of the running executable into dir (no trailing '/'); 0 or a negative errno. */
static int exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n < 0)
		return -errno;
	if ((size_t)n >= len - 1)
		return -ENAMETOOLONG;
	dir[n] = '\0';
	if (!(slash = strrchr(dir, '/')))
		return -ENOENT;
	*slash = '\0';
	return 0;
}

/* Are a and b the same directory (after resolving links)? */
static int same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return *a && *b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* dst = dir + "/" + rel (rel may be empty: dir alone); 1 when it fit, else 0. */
static int join(char *dst, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(dst, len, "%s%s%s", dir, *rel ? "/" : "", rel);

	return n > 0 && (size_t)n < len;
}

size_t lg_loadfile_datadirs(char dirs[][LG_LOADFILE_PATH_MAX], size_t max)
{
	char exe[LG_LOADFILE_PATH_MAX];
	size_t n = 0;
	int have_exe = exe_dir(exe, sizeof(exe)) == 0;

	if (have_exe && n < max)
		n += (size_t)join(dirs[n], sizeof(dirs[0]), exe, LG_DATADIR_REL);
	if (have_exe && n < max && same_dir(exe, LG_BUILD_DIR) && *LG_SOURCE_LOADFILES)
		n += (size_t)join(dirs[n], sizeof(dirs[0]), LG_SOURCE_LOADFILES, "");
	if (n < max && *LG_INSTALL_LOADFILES)
		n += (size_t)join(dirs[n], sizeof(dirs[0]), LG_INSTALL_LOADFILES, "");
	return n;
}

int lg_loadfile_search(const char *name, const char dirs[][LG_LOADFILE_PATH_MAX],
		       size_t ndirs, char *path, size_t pathlen)
{
	const char *suffix[] = { "", ".yaml" };
	size_t d, s, nsuffix = has_yaml_suffix(name) ? 1 : 2;
	int n;

	if (is_file(name) || strchr(name, '/') || !*name) {
		n = snprintf(path, pathlen, "%s", name);
		return n < 0 || (size_t)n >= pathlen ? -ENAMETOOLONG : 0;
	}
	for (d = 0; d < ndirs; d++)
		for (s = 0; s < nsuffix; s++) {
			n = snprintf(path, pathlen, "%s/%s%s", dirs[d], name, suffix[s]);
			if (n > 0 && (size_t)n < pathlen && is_file(path))
				return 0;
		}
	return -ENOENT;
}

/* Is name (a directory entry) a shipped YAML loadfile? Its length without ".yaml" into *n. */
static int shipped_name(const char *name, size_t *n)
{
	size_t len = strlen(name);

	if (name[0] == '.' || !has_yaml_suffix(name))
		return 0;
	*n = len - (name[len - 4] == '.' ? 4 : 5);
	return *n > 0 && *n < LG_LOADFILE_NAME_MAX;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

size_t lg_loadfile_shipped(const char dirs[][LG_LOADFILE_PATH_MAX], size_t ndirs,
			   char names[][LG_LOADFILE_NAME_MAX], size_t max)
{
	char path[LG_LOADFILE_PATH_MAX + 256];
	size_t count = 0, len, i;
	struct dirent *e;
	DIR *dir;

	for (size_t d = 0; d < ndirs; d++) {
		if (!(dir = opendir(dirs[d])))
			continue;
		while (count < max && (e = readdir(dir))) {
			if (!shipped_name(e->d_name, &len) ||
			    !join(path, sizeof(path), dirs[d], e->d_name) || !is_file(path))
				continue;
			snprintf(names[count], LG_LOADFILE_NAME_MAX, "%.*s", (int)len, e->d_name);
			for (i = 0; i < count && strcmp(names[i], names[count]); i++)
				;
			count += i == count; /* a name in two directories is listed once */
		}
		closedir(dir);
	}
	qsort(names, count, sizeof(names[0]), cmp_names);
	return count;
}

/* "; did you mean 'X'?" for the shipped name closest to name (a ".yaml" of name's own
 * is ignored), "" when none is close, into buf. */
static void closest(const char *name, char names[][LG_LOADFILE_NAME_MAX], size_t n, char *buf,
		    size_t len)
{
	char word[LG_LOADFILE_NAME_MAX];
	struct lg_suggest s;
	size_t wlen;

	snprintf(word, sizeof(word), "%s", name);
	if (shipped_name(word, &wlen))
		word[wlen] = '\0';
	lg_suggest_init(&s, word);
	for (size_t i = 0; i < n; i++)
		lg_suggest_add(&s, names[i]);
	buf[0] = '\0';
	if (lg_suggest_best(&s))
		snprintf(buf, len, "; did you mean '%s'?", lg_suggest_best(&s));
}

void lg_loadfile_not_found(const char *name, const char dirs[][LG_LOADFILE_PATH_MAX],
			   size_t ndirs, char *err, size_t errlen)
{
	char names[LG_LOADFILE_SHIPPED_MAX][LG_LOADFILE_NAME_MAX], hint[LG_LOADFILE_NAME_MAX + 32];
	size_t n = lg_loadfile_shipped(dirs, ndirs, names, LG_LOADFILE_SHIPPED_MAX), d, used;

	closest(name, names, n, hint, sizeof(hint));
	snprintf(err, errlen, "%s: %s; no installed loadfile of that name%s", name,
		 strerror(ENOENT), hint);
	for (d = 0; d < n; d++) { /* after a '?' a new sentence, else one more clause */
		used = strlen(err);
		snprintf(err + used, errlen - used, "%s%s",
			 d ? ", " : hint[0] ? " Shipped loadfiles: " : "; shipped loadfiles: ",
			 names[d]);
	}
	for (d = 0; d < ndirs; d++) {
		used = strlen(err);
		snprintf(err + used, errlen - used, "%s%s", d ? ", " : " (looked in ", dirs[d]);
	}
	used = strlen(err);
	snprintf(err + used, errlen - used, "%s", ndirs ? ")" : "");
}

int lg_loadfile_load(const char *name, char **text, size_t *len, char *path, size_t pathlen,
		     char *err, size_t errlen)
{
	char dirs[LG_LOADFILE_NDIRS][LG_LOADFILE_PATH_MAX];
	size_t ndirs = lg_loadfile_datadirs(dirs, LG_LOADFILE_NDIRS);
	int rc = lg_loadfile_search(name, (const char(*)[LG_LOADFILE_PATH_MAX])dirs, ndirs, path,
				    pathlen);

	if (rc == -ENOENT) {
		lg_loadfile_not_found(name, (const char(*)[LG_LOADFILE_PATH_MAX])dirs, ndirs, err,
				      errlen);
		return rc;
	}
	if (!rc && (rc = lg_loadfile_read(path, text, len)) == 0)
		return 0;
	snprintf(err, errlen, "%s: %s", rc == -ENAMETOOLONG ? name : path,
		 lg_loadfile_strerror(rc));
	return rc;
}
