/* YAML read, write, sync_file_range and fadvise: their file, size, count, flags and where
 * they start (offset: seq, append, last, prev, random with range/align/base, or bytes);
 * seek, fallocate and getdents, the other calls on an open file's bytes. */
#include "yaml_priv.h"

#include <stdio.h>
#include <string.h>

#define MAX_IO (1ULL << 30) /* bytes per read/write call: each client allocates the largest */

/* The offset key v[0]: a mode name or a byte offset. */
static int offset_mode(struct lg_yctx *c, const struct lg_ynode *n, struct lg_op *op)
{
	char hint[64];
	const char *s;
	int rc = lg_ystring(c, n, "offset", false, &s);

	if (rc)
		return rc;
	if (*s >= '0' && *s <= '9') { /* a byte offset: no mode name starts with a digit */
		op->off_mode = LG_OFF_FIXED;
		return lg_ysize(c, n, "offset", &op->offset);
	}
	for (size_t m = 0; m <= LG_OFF_PREV; m++) {
		if (lg_yoffset_names[m] && !strcmp(s, lg_yoffset_names[m])) {
			op->off_mode = (uint8_t)m;
			return 0;
		}
	}
	return lg_yfail(c, n, "unknown offset '%s'%s (expected seq, append, last, prev, "
			"random or a byte offset)", s,
			lg_yhint(s, lg_yoffset_names, LG_OFF_PREV + 1, hint, sizeof(hint)));
}

/* Random placement: v = range, align, base. Every draw must fit inside off_t. */
static int offset_random(struct lg_yctx *c, const struct lg_ynode *at,
			 const struct lg_ynode *const *v, struct lg_op *op)
{
	int rc;

	if (!v[0])
		return lg_yfail(c, at, "'offset: random' needs 'range'");
	op->align = op->size ? op->size : 1;
	rc = lg_ysize(c, v[0], "range", &op->range);
	if (!rc && v[1])
		rc = lg_ysize(c, v[1], "align", &op->align);
	if (!rc && v[2])
		rc = lg_ysize(c, v[2], "base", &op->offset);
	if (rc)
		return rc;
	if (op->align == 0)
		return lg_yfail(c, v[1], "'align' must be at least 1");
	if (op->range < op->size)
		return lg_yfail(c, v[0], "'range' (%llu) is smaller than 'size' (%llu)",
				(unsigned long long)op->range, (unsigned long long)op->size);
	if (op->offset > INT64_MAX || op->range > INT64_MAX - op->offset)
		return lg_yfail(c, v[0], "'base' + 'range' is past the largest file offset");
	return 0;
}

/* v = offset, range, align, base. append_ok: whether 'append' makes sense for the op. */
static int fill_offset(struct lg_yctx *c, const struct lg_ynode *const *v, bool append_ok,
		       enum lg_offset_mode def, struct lg_op *op)
{
	static const char *const rnames[] = { "range", "align", "base" };
	int rc;

	op->off_mode = (uint8_t)def;
	if (v[0] && (rc = offset_mode(c, v[0], op)))
		return rc;
	if (op->off_mode == LG_OFF_APPEND && !append_ok)
		return lg_yfail(c, v[0], "'offset: append' is only for write");
	if (op->off_mode == LG_OFF_RANDOM)
		return offset_random(c, v[0], v + 1, op);
	for (int i = 0; i < 3; i++)
		if (v[i + 1])
			return lg_yfail(c, v[i + 1], "'%s' only applies to 'offset: random'",
					rnames[i]);
	if (op->off_mode == LG_OFF_FIXED && op->offset > INT64_MAX)
		return lg_yfail(c, v[0], "'offset' is past the largest file offset");
	return 0;
}

/* read, write: file, size, offset, range, align, base, count, vector. */
int lg_yfill_io(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	bool vector = false;
	int rc = lg_yslot_use(c, v[0], "file", &op->slot);

	if (!rc)
		rc = lg_ysize(c, v[1], "size", &op->size);
	if (!rc && (op->size == 0 || op->size > MAX_IO))
		return lg_yfail(c, v[1], "'size' must be 1 byte to 1GiB");
	if (!rc && v[6])
		rc = lg_ycount(c, v[6], "count", &op->count);
	if (!rc && op->count == 0)
		return lg_yfail(c, v[6], "'count' must be at least 1");
	if (!rc)
		rc = fill_offset(c, v + 2, op->kind == LG_OP_WRITE, LG_OFF_SEQ, op);
	if (!rc && v[7])
		rc = lg_ybool(c, v[7], "vector", &vector);
	if (vector)
		op->flags |= LG_OP_VECTOR;
	if (!rc && op->off_mode == LG_OFF_FIXED &&
	    (op->count > INT64_MAX / op->size || op->offset > INT64_MAX - op->size * op->count))
		return lg_yfail(c, v[2], "'offset' + 'size' x 'count' is past the largest file "
				"offset");
	return rc;
}

/* sync_file_range: file, size, offset, range, align, base, flags. */
int lg_yfill_sfr(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	unsigned seen = 1u << 1; /* default lg_ysfr_flags[1], "write": start writeback, no wait */
	int rc = lg_yslot_use(c, v[0], "file", &op->slot);

	if (!rc && v[1])
		rc = lg_ysize(c, v[1], "size", &op->size);
	if (!rc)
		rc = fill_offset(c, v + 2, false, LG_OFF_FIXED, op);
	if (!rc && v[6])
		rc = lg_yflag_set(c, v[6], "flag", lg_ysfr_flags, &seen);
	if (!rc)
		op->flags = lg_yflag_value(lg_ysfr_flags, seen);
	return rc;
}

/* fadvise: file, size, offset, range, align, base, advice. */
int lg_yfill_fadvise(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	unsigned seen = 0;
	int rc = lg_yslot_use(c, v[0], "file", &op->slot);

	if (!rc && v[1])
		rc = lg_ysize(c, v[1], "size", &op->size);
	if (!rc)
		rc = fill_offset(c, v + 2, false, LG_OFF_FIXED, op);
	if (!rc)
		rc = lg_yflag_one(c, v[6], "advice", lg_yfadvice, &seen);
	if (!rc)
		op->flags = lg_yflag_value(lg_yfadvice, seen);
	return rc;
}

/* seek: file, offset (may be negative), whence (set, cur, end, data, hole; default
 * set). */
int lg_yfill_seek(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	unsigned seen = 1u; /* lg_yseek_whence[0], "set" */
	const char *s;
	bool neg;
	int rc = lg_yslot_use(c, v[0], "file", &op->slot);

	if (!rc && v[1]) {
		rc = lg_ystring(c, v[1], "offset", false, &s);
		neg = !rc && s[0] == '-';
		if (!rc && neg) { /* a size of the text after the sign */
			struct lg_ynode n = *v[1];

			n.text = (char *)s + 1;
			n.literal = true;
			rc = lg_ysize(c, &n, "offset", &op->offset);
		} else if (!rc) {
			rc = lg_ysize(c, v[1], "offset", &op->offset);
		}
		if (!rc && op->offset > INT64_MAX)
			return lg_yfail(c, v[1], "'offset' is past the largest file offset");
		if (neg)
			op->offset = (uint64_t)-(int64_t)op->offset;
	}
	if (!rc && v[2]) {
		seen = 0;
		rc = lg_yflag_one(c, v[2], "whence", lg_yseek_whence, &seen);
	}
	op->flags = lg_yflag_value(lg_yseek_whence, seen);
	return rc;
}

/* fallocate: file, offset, size, mode (keep_size, punch_hole, ...; none: allocate). */
int lg_yfill_fallocate(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	unsigned seen = 0;
	int rc = lg_yslot_use(c, v[0], "file", &op->slot);

	if (!rc && v[1])
		rc = lg_ysize(c, v[1], "offset", &op->offset);
	if (!rc)
		rc = lg_ysize(c, v[2], "size", &op->size);
	if (!rc && (op->offset > INT64_MAX || op->size > (uint64_t)INT64_MAX - op->offset))
		return lg_yfail(c, v[2], "'offset' + 'size' is past the largest file offset");
	if (!rc && v[3] && !(v[3]->kind == LG_YSEQ && v[3]->n == 0))
		rc = lg_yflag_set(c, v[3], "fallocate mode", lg_yfalloc_modes, &seen);
	op->flags = lg_yflag_value(lg_yfalloc_modes, seen);
	return rc;
}

/* getdents: file (an open directory), size of the buffer. */
int lg_yfill_getdents(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op)
{
	int rc = lg_yslot_use(c, v[0], "file", &op->slot);

	if (!rc)
		rc = lg_ysize(c, v[1], "size", &op->size);
	if (!rc && (op->size == 0 || op->size > MAX_IO))
		return lg_yfail(c, v[1], "'size' must be 1 byte to 1GiB");
	return rc;
}
