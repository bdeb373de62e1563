/* One directory reader for every op that reads a directory (readdir, and dbench's
 * name resolution, Find and Deltree): getdents64 into a buffer the caller owns, so no
 * op allocates (opendir allocates a DIR each time).
 *
 * It reads the way glibc's readdir does, so an op built on it makes the calls a
 * program using opendir/readdir makes: a getdents64 of LG_DIRSCAN_BUF bytes whenever
 * the entries of the last one are used up, one more returning 0 at the end. What
 * opendir adds (an fstat) is the caller's choice: lg_dirscan_open. */
#ifndef LOADGEN_DIRSCAN_H
#define LOADGEN_DIRSCAN_H

#include <dirent.h>
#include <stddef.h>

/* Bytes per getdents64: glibc's opendir buffer (32 KiB on filesystems whose block size
 * is at most that, which is nearly all). */
#define LG_DIRSCAN_BUF 32768

/* A directory being read. */
struct lg_dirscan {
	int fd;      /* the directory (owned by the caller) */
	char *buf;   /* LG_DIRSCAN_BUF bytes, 8-byte aligned (owned by the caller) */
	size_t len;  /* bytes the last getdents64 returned */
	size_t pos;  /* offset in buf of the next entry */
};

/* Open directory path relative to dirfd without following a symbolic link; with
 * like_opendir, also fstat it as glibc's opendir does. Returns the descriptor, or a
 * negative errno (of the open; an fstat failure closes it and returns its errno). */
int lg_dirscan_open(int dirfd, const char *path, int like_opendir);

/* Start reading fd (at its current offset) into buf. */
static inline void lg_dirscan_init(struct lg_dirscan *s, int fd, char *buf)
{
	s->fd = fd;
	s->buf = buf;
	s->len = 0;
	s->pos = 0;
}

/* lg_dirscan_next's refill: the next getdents64 into s->buf. 1, 0 at the end, or a
 * negative errno. */
int lg_dirscan_fill(struct lg_dirscan *s);

/* The next entry: *name (valid until the next call) and *type (a DT_ value). Returns
 * 1, 0 at the end, or a negative errno of getdents64. "." and ".." are returned like
 * any other entry, as readdir does. Inline: dbench's name resolution steps through
 * about a dozen entries per op. */
static inline int lg_dirscan_next(struct lg_dirscan *s, const char **name,
				  unsigned char *type)
{
	const struct dirent64 *d;
	int rc;

	if (s->pos >= s->len && (rc = lg_dirscan_fill(s)) <= 0)
		return rc;
	d = (const struct dirent64 *)(s->buf + s->pos);
	s->pos += d->d_reclen;
	*name = d->d_name;
	*type = d->d_type;
	return 1;
}

#endif
