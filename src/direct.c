/* O_DIRECT alignment, checked before the run (see include/loadgen/direct.h).
 *
 * What must be aligned follows from how an op places its I/O: a fixed offset and its
 * consecutive blocks (offset, size); random placement (base, align, size); sequential
 * I/O starts at 0 and advances by size. Appending and "last"/"prev" offsets depend on
 * earlier ops with the same size rules, so checking the sizes covers them. The line of
 * each op is known, and the column of its step where the loader noted it (a line may
 * hold several steps); the key at fault is found in the source text from there. */
#include "loadgen/direct.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* statx's O_DIRECT alignment of dir, or else of an unnamed file in it: ext4 and xfs
 * give it for regular files only. The file (O_TMPFILE) never has a name and is gone at
 * the close. 0 when neither says; *dev: dir's device. */
static uint32_t statx_align(const char *dir, dev_t *dev, const char **of)
{
	struct statx stx;
	int fd;

	if (statx(AT_FDCWD, dir, 0, STATX_DIOALIGN, &stx) != 0)
		return 0;
	*dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	*of = "";
	if ((stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align > 0)
		return stx.stx_dio_offset_align;
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return 0;
	*of = "an unnamed file in ";
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) != 0 ||
	    !(stx.stx_mask & STATX_DIOALIGN))
		stx.stx_dio_offset_align = 0;
	close(fd);
	return stx.stx_dio_offset_align;
}

/* The logical block size of device dev from sysfs into out; a partition's is its
 * disk's (the queue directory is the disk's). false when sysfs does not say. */
static bool sysfs_align(dev_t dev, struct lg_direct_align *out)
{
	static const char *const where[] = { "queue", "../queue" };
	unsigned long v = 0;

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		char path[96];
		FILE *f;
		bool ok;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s/logical_block_size",
			 major(dev), minor(dev), where[i]);
		if (!(f = fopen(path, "r")))
			continue;
		ok = fscanf(f, "%lu", &v) == 1 && v >= LG_DIRECT_MIN_ALIGN && v <= (1u << 20);
		fclose(f);
		if (ok) {
			out->bytes = (uint32_t)v;
			snprintf(out->source, sizeof(out->source), "%s", path);
			return true;
		}
	}
	return false;
}

void lg_direct_alignment(const char *dir, struct lg_direct_align *out)
{
	const char *of = "";
	dev_t dev = 0;
	uint32_t a = statx_align(dir, &dev, &of);

	if (a) {
		out->bytes = a;
		snprintf(out->source, sizeof(out->source), "statx dio_offset_align of %s%.100s",
			 of, dir);
		return;
	}
	if (dev && major(dev) && sysfs_align(dev, out))
		return;
	out->bytes = LG_DIRECT_MIN_ALIGN;
	snprintf(out->source, sizeof(out->source), "assumed: the smallest logical block size "
		 "(the target's could not be found)");
}

/* The character after the one at p (UTF-8: columns count characters, as libyaml's). */
static const char *next_char(const char *p, const char *end)
{
	for (p++; p < end && (*p & 0xC0) == 0x80; p++)
		;
	return p;
}

/* 1-based column of key on 1-based line of text, looked for from column from on (the
 * op's step, as the loader noted it; 0: not noted, from the line's start): when a line
 * holds several steps, the first key of that name may be another step's. Not found:
 * from, else the line's first non-blank column; 0 when the line is not in text. */
static unsigned key_col(const char *text, size_t len, uint32_t line, unsigned from,
			const char *key)
{
	const char *s = text, *end = text + len, *eol, *k;
	size_t klen = strlen(key);
	unsigned col = 1;

	for (uint32_t l = 1; l < line && s < end; l++) {
		s = memchr(s, '\n', (size_t)(end - s));
		if (!s)
			return 0;
		s++;
	}
	eol = memchr(s, '\n', (size_t)(end - s));
	eol = eol ? eol : end;
	for (k = s; col < from && k < eol; col++)
		k = next_char(k, eol);
	for (; k + klen < eol; k = next_char(k, eol), col++)
		if (!memcmp(k, key, klen) && k[klen] == ':' && (k == s || k[-1] == ' ' ||
								k[-1] == '{' || k[-1] == ','))
			return col;
	if (from)
		return from;
	for (k = s; k < eol && *k == ' '; k++)
		;
	return k < eol ? (unsigned)(k - s) + 1 : 0;
}

/* Mark in direct[] the slots some open binds with O_DIRECT; returns how many opens do. */
static size_t direct_slots(const struct lg_workload *wl, bool *direct)
{
	size_t n = 0;

	for (int ph = 0; ph < LG_PHASE_COUNT; ph++)
		for (size_t i = 0; i < wl->nops[ph]; i++) {
			const struct lg_op *op = &wl->ops[ph][i];

			if ((op->kind == LG_OP_OPEN || op->kind == LG_OP_NTCREATE) &&
			    op->slot < wl->nslots && (op->flags & O_DIRECT)) {
				direct[op->slot] = true;
				n++;
			}
		}
	return n;
}

/* The key of op that is not a multiple of align, and its value; NULL when all are. */
static const char *misaligned(const struct lg_op *op, uint64_t align, uint64_t *value)
{
	if (op->size % align) {
		*value = op->size;
		return "size";
	}
	if (op->off_mode == LG_OFF_FIXED && op->offset % align) {
		*value = op->offset;
		return "offset";
	}
	if (op->off_mode == LG_OFF_RANDOM && op->offset % align) {
		*value = op->offset;
		return "base";
	}
	if (op->off_mode == LG_OFF_RANDOM && op->align % align) {
		*value = op->align;
		return "align";
	}
	return NULL;
}

/* Every read and write on a direct slot (all: every slot) against a. */
static int check_ops(const struct lg_workload *wl, bool all, const bool *direct,
		     const struct lg_direct_align *a, const char *name, const char *text,
		     size_t len, char *err, size_t errlen)
{
	for (int ph = 0; ph < LG_PHASE_COUNT; ph++) {
		for (size_t i = 0; i < wl->nops[ph]; i++) {
			const struct lg_op *op = &wl->ops[ph][i];
			const char *key;
			uint64_t v;
			unsigned col;

			if ((op->kind != LG_OP_READ && op->kind != LG_OP_WRITE) ||
			    !(all || (op->slot < wl->nslots && direct[op->slot])) ||
			    !(key = misaligned(op, a->bytes, &v)))
				continue;
			col = text ? key_col(text, len, op->line, lg_workload_col(wl, ph, i),
					     key) : 0;
			snprintf(err, errlen, "%s:%u:%u: '%s' of %s on '%s' is %llu bytes, not a "
				 "multiple of %u: with %s, sizes and offsets must be multiples of "
				 "the target's logical block size (%u bytes, %s)", name, op->line,
				 col ? col : 1, key, op->kind == LG_OP_READ ? "read" : "write",
				 op->slot < wl->nslots ? wl->slots[op->slot] : "?",
				 (unsigned long long)v, a->bytes,
				 all ? "--direct" : "flags: [direct]", a->bytes, a->source);
			return -EINVAL;
		}
	}
	return 0;
}

int lg_direct_check(const struct lg_workload *wl, bool all, const struct lg_direct_align *a,
		    const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	bool *direct = calloc(wl->nslots + 1, sizeof(*direct));
	int rc = 0;

	if (!direct) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	if (all || direct_slots(wl, direct))
		rc = check_ops(wl, all, direct, a, name, text, len, err, errlen);
	free(direct);
	return rc;
}