/* O_DIRECT alignment, checked before the run (see include/loadgen/load/direct.h).
 *
 * What must be aligned follows from how an op places its I/O: a fixed offset and its
 * consecutive blocks (offset, size); random placement (base, align, size); sequential
 * I/O starts at 0 (at the open) and advances by size; "last"/"prev" offsets depend on
 * earlier ops with the same size rules, so checking the sizes covers them. An append
 * writes at the end of the file, which only the file knows. It is refused where, on
 * every way to it, a truncate of its slot to an unaligned size is the last thing that
 * may have moved that end: the one case the workload shows. An end left unaligned
 * otherwise (a write without O_DIRECT, another client, a file from elsewhere) fails in
 * the run, with EINVAL at the append's line in the error notes.
 *
 * The line of each op is known, and the column of its step where the loader noted it
 * (a line may hold several steps); the key at fault is found in the source text from
 * there.
 *
 * A read or write is O_DIRECT when the open it goes through is. A slot bound only by
 * O_DIRECT opens (any slot with --direct) is direct at every op, one never bound by one
 * never is. A slot bound both ways is followed through the phases and their control
 * flow (repeat, choose), and an op on it is checked when every path to it goes through
 * an O_DIRECT open; where the path decides, the run's EINVAL tells instead, so that no
 * workload is refused for a path it may never take. */
#include "loadgen/load/direct.h"

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

	out->assumed = false;
	if (a) {
		out->bytes = a;
		snprintf(out->source, sizeof(out->source), "statx dio_offset_align of %s%.100s",
			 of, dir);
		return;
	}
	if (dev && major(dev) && sysfs_align(dev, out))
		return;
	out->bytes = LG_DIRECT_MIN_ALIGN;
	out->assumed = true;
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

/* What is done to a slot anywhere in the workload (bits of its use[] entry). */
enum {
	USE_DIRECT = 1,   /* an open binds it with O_DIRECT (any, with --direct) */
	USE_BUFFERED = 2, /* an open binds it without */
	USE_ODD_END = 4,  /* a truncate of it to a size that is not a multiple of the alignment */
	USE_APPEND = 8,   /* a write on it with offset: append */
};

/* What a followed slot may be before an op: the possibilities of every path that reaches
 * it, ORed (bits of a flow state; 0: no path reaches the op). */
enum {
	MAY_CLOSED = 1,   /* not open */
	MAY_BUFFERED = 2, /* bound by an open without O_DIRECT */
	MAY_DIRECT = 4,   /* bound by an open with O_DIRECT */
	MAY_ODD_END = 8,  /* its file ends where a truncate of it left it, unaligned */
	MAY_END = 16,     /* its file ends anywhere else */
};

#define MAY_ENDS (MAY_ODD_END | MAY_END)

static bool opens(const struct lg_op *op)
{
	return op->kind == LG_OP_OPEN || op->kind == LG_OP_NTCREATE;
}

static bool is_io(const struct lg_op *op)
{
	return op->kind == LG_OP_READ || op->kind == LG_OP_WRITE;
}

static bool is_append(const struct lg_op *op)
{
	return op->kind == LG_OP_WRITE && op->off_mode == LG_OFF_APPEND;
}

/* A truncate of slot to a size that is not a multiple of align. */
static bool odd_truncate(const struct lg_op *op, uint32_t slot, uint64_t align)
{
	return op->kind == LG_OP_TRUNCATE && op->slot == slot && op->size % align;
}

/* use[] of every slot; all: every open is O_DIRECT (--direct). */
static void slot_uses(const struct lg_workload *wl, bool all, uint64_t align, uint8_t *use)
{
	for (int ph = 0; ph < LG_PHASE_COUNT; ph++)
		for (size_t i = 0; i < wl->nops[ph]; i++) {
			const struct lg_op *op = &wl->ops[ph][i];

			if (op->slot >= wl->nslots || op->kind >= LG_OP_LOOP)
				continue;
			if (opens(op))
				use[op->slot] |= all || (op->flags & O_DIRECT) ? USE_DIRECT
									       : USE_BUFFERED;
			else if (odd_truncate(op, op->slot, align))
				use[op->slot] |= USE_ODD_END;
			else if (is_append(op))
				use[op->slot] |= USE_APPEND;
		}
}

/* Whether a slot of use u is followed through the control flow: when the opens in
 * effect at its ops may differ from op to op, or an append on it may write where a
 * truncate left the end of its file unaligned (which an O_DIRECT write cannot). */
static bool followed(uint8_t u)
{
	return (u & USE_DIRECT) &&
	       ((u & USE_BUFFERED) || ((u & USE_ODD_END) && (u & USE_APPEND)));
}

/* One slot followed through the ops of every phase, as a client runs them. */
struct flow {
	const struct lg_workload *wl;
	bool all;                    /* --direct: every open is O_DIRECT */
	uint64_t align;              /* the alignment O_DIRECT needs */
	uint32_t slot;               /* the slot followed */
	uint8_t *at[LG_PHASE_COUNT]; /* its state before each op; at [nops]: the phase's end */
	bool grew;                   /* a state grew in this sweep */
};

/* Where the file of the slot ends after op, from st before it: unaligned after a
 * truncate of it to such a size, unknown after anything else that may move an end (a
 * write, a truncate, a fallocate, an open: O_TRUNC, or another file bound), but for an
 * append through an O_DIRECT open, which fails at an unaligned end and keeps an aligned
 * one. */
static uint8_t end_after(const struct flow *f, const struct lg_op *op, bool mine, uint8_t st)
{
	if (mine && op->kind == LG_OP_TRUNCATE)
		return odd_truncate(op, f->slot, f->align) ? MAY_ODD_END : MAY_END;
	if (mine && is_append(op))
		return (st & MAY_ENDS) | (st & MAY_BUFFERED ? MAY_END : 0);
	if (op->kind == LG_OP_WRITE || op->kind == LG_OP_TRUNCATE ||
	    op->kind == LG_OP_FALLOCATE || opens(op) || (mine && op->kind == LG_OP_CLOSE))
		return MAY_END;
	return st & MAY_ENDS;
}

/* The state of the slot after op, from st before it. */
static uint8_t after(const struct flow *f, const struct lg_op *op, uint8_t st)
{
	bool mine = op->slot == f->slot && op->kind < LG_OP_LOOP; /* a loop's: its counter */
	uint8_t end = end_after(f, op, mine, st);

	/* an open replaces whatever the slot held (one still open is closed, and counted
	 * as an error); one expected to fail may leave it closed */
	if (mine && opens(op))
		st = (uint8_t)((f->all || (op->flags & O_DIRECT) ? MAY_DIRECT : MAY_BUFFERED) |
			       (op->expect == LG_EXPECT_OK ? 0 : MAY_CLOSED));
	else if (mine && op->kind == LG_OP_CLOSE)
		st = MAY_CLOSED;
	return (uint8_t)((st & ~MAY_ENDS) | end);
}

static void merge(struct flow *f, int ph, size_t i, uint8_t st)
{
	uint8_t *at = f->at[ph];

	if (i <= f->wl->nops[ph] && (at[i] | st) != at[i]) {
		at[i] |= st;
		f->grew = true;
	}
}

/* Pass the state after op i of phase ph on to every op that may come next. */
static void pass_on(struct flow *f, int ph, size_t i)
{
	const struct lg_op *ops = f->wl->ops[ph], *op = &ops[i];
	uint8_t st = after(f, op, f->at[ph][i]);

	switch (op->kind) {
	case LG_OP_LOOP:
		merge(f, ph, op->count ? i + 1 : op->target, st);
		break;
	case LG_OP_NEXT: /* back to the body (after its LOOP) unless that runs once */
		if (op->target > 0 && ops[op->target - 1].count > 1)
			merge(f, ph, op->target, st);
		merge(f, ph, i + 1, st);
		break;
	case LG_OP_CHOOSE:
		for (uint64_t k = 0; k < op->count; k++)
			merge(f, ph, f->wl->alts[op->target + k].target, st);
		break;
	case LG_OP_JUMP:
		merge(f, ph, op->target, st);
		break;
	default:
		merge(f, ph, i + 1, st);
	}
}

/* Sweep phase ph until no state grows; the end of the run phase leads back to its start. */
static void settle(struct flow *f, int ph)
{
	size_t n = f->wl->nops[ph];

	do {
		f->grew = false;
		for (size_t i = 0; i < n; i++)
			if (f->at[ph][i])
				pass_on(f, ph, i);
		if (ph == LG_PHASE_RUN)
			merge(f, ph, 0, f->at[ph][n]);
	} while (f->grew);
}

/* The states of slot before every op: closed before setup, the run after setup (and
 * after itself), cleanup after any point of both: a client may stop anywhere (the end
 * of the time, a signal, a full filesystem). Before cleanup the client closes every
 * file but those setup left open and the run never touched (client.c), so this is
 * more than cleanup can meet: it may leave to the run an op it could refuse, never
 * the other way round. */
static void follow(struct flow *f, uint32_t slot)
{
	f->slot = slot;
	for (int ph = 0; ph < LG_PHASE_COUNT; ph++)
		memset(f->at[ph], 0, f->wl->nops[ph] + 1);
	f->at[LG_PHASE_SETUP][0] = MAY_CLOSED | MAY_END;
	settle(f, LG_PHASE_SETUP);
	f->at[LG_PHASE_RUN][0] = f->at[LG_PHASE_SETUP][f->wl->nops[LG_PHASE_SETUP]];
	settle(f, LG_PHASE_RUN);
	for (int ph = LG_PHASE_SETUP; ph <= LG_PHASE_RUN; ph++)
		for (size_t i = 0; i <= f->wl->nops[ph]; i++)
			f->at[LG_PHASE_CLEANUP][0] |= f->at[ph][i];
	settle(f, LG_PHASE_CLEANUP);
}

/* The first read or write at fault, in the order of the phases and their ops. */
struct fault {
	int ph;          /* its phase; LG_PHASE_COUNT: none found */
	size_t i;        /* its index in the phase */
	const char *key; /* the key at fault */
	uint64_t value;  /* its value */
	bool append;     /* an append where a truncate left the file's end unaligned */
};

/* Whether op (phase ph, index i) comes before the fault found so far. */
static bool earlier(const struct fault *x, int ph, size_t i)
{
	return ph < x->ph || (ph == x->ph && i < x->i);
}

/* Note op i of phase ph in *x when a key of it is at fault and it comes first. */
static bool at_fault(const struct lg_op *op, int ph, size_t i, uint64_t align,
		     struct fault *x)
{
	uint64_t v;
	const char *key = earlier(x, ph, i) ? misaligned(op, align, &v) : NULL;

	if (key)
		*x = (struct fault){ .ph = ph, .i = i, .key = key, .value = v };
	return key != NULL;
}

/* Note an append (op i of phase ph) in *x when it comes first. */
static bool append_fault(int ph, size_t i, struct fault *x)
{
	if (!earlier(x, ph, i))
		return false;
	*x = (struct fault){ .ph = ph, .i = i, .key = "offset", .append = true };
	return true;
}

/* The first op at fault on a followed slot: one that goes through an O_DIRECT open on
 * every path that reaches it, and for an append, that every path reaches with the file
 * ending where a truncate left it. Where the path decides, the run tells (EINVAL), so
 * that no workload is refused for a path it may never take. */
static void followed_fault(struct flow *f, struct fault *x)
{
	for (int ph = 0; ph < LG_PHASE_COUNT; ph++)
		for (size_t i = 0; i < f->wl->nops[ph]; i++) {
			const struct lg_op *op = &f->wl->ops[ph][i];
			uint8_t st = f->at[ph][i];

			if (!is_io(op) || op->slot != f->slot ||
			    (st & (MAY_DIRECT | MAY_BUFFERED)) != MAY_DIRECT)
				continue;
			if (at_fault(op, ph, i, f->align, x) ||
			    (is_append(op) && (st & MAY_ENDS) == MAY_ODD_END &&
			     append_fault(ph, i, x)))
				return;
		}
}

/* The first op at fault on a slot that is not followed: every read and write on a slot
 * only ever bound by O_DIRECT opens (all: on any slot). */
static void plain_fault(const struct lg_workload *wl, bool all, const uint8_t *use,
			uint64_t align, struct fault *x)
{
	for (int ph = 0; ph < LG_PHASE_COUNT; ph++)
		for (size_t i = 0; i < wl->nops[ph]; i++) {
			const struct lg_op *op = &wl->ops[ph][i];
			uint8_t u = op->slot < wl->nslots ? use[op->slot] : 0;

			if (is_io(op) && (all || (u == USE_DIRECT)) &&
			    at_fault(op, ph, i, align, x))
				return;
		}
}

/* Whether a slot of the n in use[] is ever opened with O_DIRECT. */
static bool any_direct(const uint8_t *use, size_t n)
{
	for (size_t s = 0; s < n; s++)
		if (use[s] & USE_DIRECT)
			return true;
	return false;
}

/* Find the first op at fault into *x. 0 or -ENOMEM. */
static int find_fault(const struct lg_workload *wl, bool all, uint64_t align,
		      struct fault *x)
{
	uint8_t *use = calloc(wl->nslots + 1, 1);
	struct flow f = { .wl = wl, .all = all, .align = align };
	int rc = 0;

	if (!use)
		return -ENOMEM;
	slot_uses(wl, all, align, use);
	if (all || any_direct(use, wl->nslots)) /* else no read or write can be at fault:
						    spare client.txt's 33 MB of ops a pass */
		plain_fault(wl, all, use, align, x);
	for (uint32_t s = 0; !rc && s < wl->nslots; s++) {
		if (!followed(use[s]))
			continue;
		for (int ph = 0; !rc && ph < LG_PHASE_COUNT; ph++)
			if (!f.at[ph] && !(f.at[ph] = malloc(wl->nops[ph] + 1)))
				rc = -ENOMEM;
		if (!rc) {
			follow(&f, s);
			followed_fault(&f, x);
		}
	}
	for (int ph = 0; ph < LG_PHASE_COUNT; ph++)
		free(f.at[ph]);
	free(use);
	return rc;
}

/* The truncate that left the file of slot ending unaligned before op i of phase ph:
 * the last one before it, going back through the phases (and around, for a truncate
 * later in a loop). One is there: the flow found the end it left. */
static const struct lg_op *last_truncate(const struct lg_workload *wl, int ph, size_t i,
					 uint32_t slot, uint64_t align)
{
	for (int p = ph; p >= 0; p--)
		for (size_t k = p == ph ? i : wl->nops[p]; k-- > 0;)
			if (odd_truncate(&wl->ops[p][k], slot, align))
				return &wl->ops[p][k];
	for (int p = LG_PHASE_COUNT - 1; p >= ph; p--)
		for (size_t k = wl->nops[p]; k-- > (p == ph ? i + 1 : 0);)
			if (odd_truncate(&wl->ops[p][k], slot, align))
				return &wl->ops[p][k];
	return NULL;
}

/* What is wrong with the fault's key, for the message. */
static void what(const struct lg_workload *wl, const struct fault *x, uint64_t align,
		 char *buf, size_t len)
{
	const struct lg_op *op = &wl->ops[x->ph][x->i], *t;

	if (!x->append) {
		snprintf(buf, len, "is %llu bytes", (unsigned long long)x->value);
		return;
	}
	t = last_truncate(wl, x->ph, x->i, op->slot, align);
	snprintf(buf, len, "is append: the end of the file, which the truncate at line %u "
		 "leaves at %llu bytes", t ? t->line : 0, t ? (unsigned long long)t->size : 0);
}

int lg_direct_check(const struct lg_workload *wl, bool all, const struct lg_direct_align *a,
		    const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	struct fault x = { .ph = LG_PHASE_COUNT };
	const struct lg_op *op;
	char why[160];
	unsigned col;

	if (find_fault(wl, all, a->bytes, &x)) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	if (x.ph == LG_PHASE_COUNT)
		return 0;
	op = &wl->ops[x.ph][x.i];
	col = text ? key_col(text, len, op->line, lg_workload_col(wl, x.ph, x.i), x.key) : 0;
	what(wl, &x, a->bytes, why, sizeof(why));
	snprintf(err, errlen, "%s:%u:%u: '%s' of %s on '%s' %s, not a multiple of %u: with %s, "
		 "sizes and offsets must be multiples of the target's logical block size (%u "
		 "bytes, %s)", name, op->line, col ? col : 1, x.key,
		 op->kind == LG_OP_READ ? "read" : "write",
		 op->slot < wl->nslots ? wl->slots[op->slot] : "?", why, a->bytes,
		 all ? "--direct" : "flags: [direct]", a->bytes, a->source);
	return -EINVAL;
}
