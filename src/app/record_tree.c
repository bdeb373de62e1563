/* loadgen record's snapshot of the recorded directory (record_tree.h).
 *
 * nftw with FTW_PHYS walks the tree without following symlinks; nftw has no user
 * argument, so the walk's state is one static struct (record runs one walk at a time,
 * single-threaded). The entries are sorted by path afterwards: readdir's order differs
 * between filesystems, and a sorted setup is the same on every machine; a prefix sorts
 * before its extensions, so a directory precedes its contents. */
#include "record_tree.h"

#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NFTW_FDS 32 /* directories nftw keeps open at once */

/* The walk in progress. */
static struct walk_state {
	struct lg_rec_tree *t;    /* the snapshot being filled */
	size_t cap;               /* allocated entries of t->e */
	size_t dirlen;            /* length of the walked directory's path */
	const char *const *skip;  /* absolute paths that are no entries */
	size_t nskip;             /* entries of skip */
	int err;                  /* the first error (negative errno) */
	char *errpath;            /* its path (owned) */
} walk;

static int fail(int rc, const char *path)
{
	walk.err = rc;
	walk.errpath = strdup(path);
	return FTW_STOP;
}

static int add_entry(const char *path, const struct stat *st, char type)
{
	struct lg_tree_entry *e;
	char buf[4096];
	ssize_t n = 0;

	if (type == 'l' && (n = readlink(path, buf, sizeof(buf) - 1)) < 0)
		return fail(-errno, path);
	if (walk.t->n == walk.cap) {
		size_t cap = walk.cap ? 2 * walk.cap : 256;
		void *p = realloc(walk.t->e, cap * sizeof(*walk.t->e));

		if (!p)
			return fail(-ENOMEM, path);
		walk.t->e = p;
		walk.cap = cap;
	}
	e = &walk.t->e[walk.t->n];
	*e = (struct lg_tree_entry){ .type = type,
				     .size = type == 'f' ? (uint64_t)st->st_size : 0 };
	e->rel = strdup(path + walk.dirlen + 1);
	if (type == 'l') {
		buf[n] = '\0';
		e->target = strdup(buf);
	}
	if (!e->rel || (type == 'l' && !e->target)) {
		free(e->rel);
		free(e->target);
		return fail(-ENOMEM, path);
	}
	walk.t->n++;
	return FTW_CONTINUE;
}

static int visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	if (ftw->level == 0)
		return FTW_CONTINUE; /* the directory itself */
	for (size_t i = 0; i < walk.nskip; i++)
		if (strcmp(path, walk.skip[i]) == 0)
			return FTW_CONTINUE;
	switch (flag) {
	case FTW_D: return add_entry(path, st, 'd');
	case FTW_SL: case FTW_SLN: return add_entry(path, st, 'l');
	case FTW_F:
		if (S_ISREG(st->st_mode))
			return add_entry(path, st, 'f');
		walk.t->others++;
		return FTW_CONTINUE;
	case FTW_DNR: return fail(-EACCES, path); /* a directory it cannot list */
	default: return fail(errno ? -errno : -EIO, path);
	}
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct lg_tree_entry *)a)->rel, ((const struct lg_tree_entry *)b)->rel);
}

int lg_rec_tree_snapshot(const char *dir, const char *const *skip, size_t nskip,
			 struct lg_rec_tree *t, char *err, size_t errlen)
{
	int rc;

	*t = (struct lg_rec_tree){ 0 };
	walk = (struct walk_state){ .t = t, .dirlen = strlen(dir), .skip = skip, .nskip = nskip };
	while (walk.dirlen > 1 && dir[walk.dirlen - 1] == '/')
		walk.dirlen--;
	if (walk.dirlen == 1)
		walk.dirlen = 0; /* "/": entries are "/x", their rel "x" */
	rc = nftw(dir, visit, NFTW_FDS, FTW_PHYS | FTW_ACTIONRETVAL);
	if (rc < 0 && !walk.err)
		fail(-errno, dir);
	if (walk.err) {
		rc = walk.err;
		snprintf(err, errlen, "%s: %s", walk.errpath ? walk.errpath : dir, strerror(-rc));
		free(walk.errpath);
		lg_rec_tree_clear(t);
		return rc;
	}
	if (t->n) /* qsort wants a base even for no entries */
		qsort(t->e, t->n, sizeof(*t->e), by_path);
	return 0;
}

void lg_rec_tree_clear(struct lg_rec_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->e[i].rel);
		free(t->e[i].target);
	}
	free(t->e);
	*t = (struct lg_rec_tree){ 0 };
}
