/* A lower bound of the room a workload's files take (see loadgen/footprint.h).
 *
 * The ops of each phase are walked once, in order, as one pass of one client would run
 * them with every choose of several alternatives left out: repeats multiply what they
 * enclose, each open starts a file of its slot, and a file's bound is what was written
 * to it sequentially (or appended) since its open, when nothing moved its position
 * elsewhere (a fixed, random or in-place read or write, a truncate, a seek); then the
 * largest single write step. The result is the largest file's bound: a file that large existed
 * at some moment, whatever else was removed meanwhile. */
#include "loadgen/model/footprint.h"

#include <stdbool.h>
#include <string.h>

#define MAX_DEPTH 64 /* nested repeats followed; the walk of a phase ends deeper */

/* What is known of the file open in one slot. */
struct file {
	bool open;            /* an open of this phase bound the slot */
	bool mine;            /* its path holds ${client} or ${peer} */
	bool seq;             /* every read and write so far was sequential or an append */
	unsigned depth;       /* repeats entered when it was opened */
	uint64_t seq_bytes;   /* bytes written sequentially, repeats counted */
	uint64_t best_step;   /* largest single write step (size x count), bytes */
	struct lg_footprint top; /* the step that wrote most to it, for the result */
	uint64_t top_bytes;   /* bytes that step wrote, repeats counted */
};

/* The walk of one phase. */
struct walk {
	const struct lg_workload *wl;
	enum lg_phase phase;
	struct {
		size_t end;     /* index after the repeat's NEXT */
		uint64_t count; /* its iterations */
	} loops[MAX_DEPTH];
	unsigned depth;          /* repeats entered */
	struct file files[256];  /* by slot; slots past the table are not followed */
	struct lg_footprint *out;
};

static uint64_t mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* Executions per file of a step at the current depth, for a file opened at depth d. */
static uint64_t loops_since(const struct walk *w, unsigned d)
{
	uint64_t m = 1;

	for (unsigned i = d; i < w->depth && i < MAX_DEPTH; i++)
		m = mul(m, w->loops[i].count);
	return m;
}

/* The file in slot s ends: its bound may be the result. */
static void finish(struct walk *w, uint32_t s)
{
	struct file *f = &w->files[s];
	uint64_t b = f->seq ? f->seq_bytes : f->best_step;

	if (f->open && f->mine && b > w->out->bytes) {
		*w->out = f->top;
		w->out->bytes = b;
		w->out->phase = w->phase;
	}
	memset(f, 0, sizeof(*f));
}

static void start(struct walk *w, const struct lg_op *op)
{
	struct file *f = &w->files[op->slot];
	const char *path = op->path < w->wl->npaths ? w->wl->paths[op->path] : "";

	finish(w, op->slot);
	f->open = true;
	f->mine = lg_path_per_client(path);
	f->seq = true;
	f->depth = w->depth;
}

static void write_step(struct walk *w, const struct lg_op *op)
{
	struct file *f = &w->files[op->slot];
	uint64_t step = mul(op->size, op->count), loops = loops_since(w, f->depth), total;

	if (op->off_mode != LG_OFF_SEQ && op->off_mode != LG_OFF_APPEND) {
		f->seq = false;
		if (op->off_mode != LG_OFF_FIXED)
			return; /* random or in place: perhaps over what is there */
		loops = 1;      /* the same blocks at every repeat */
	}
	total = mul(step, loops);
	if (op->off_mode != LG_OFF_FIXED)
		f->seq_bytes = total > UINT64_MAX - f->seq_bytes ? UINT64_MAX : f->seq_bytes + total;
	if (step > f->best_step)
		f->best_step = step;
	if (total > f->top_bytes) {
		f->top_bytes = total;
		f->top = (struct lg_footprint){ .line = op->line, .size = op->size,
						.count = op->count, .loops = loops };
	}
}

/* Where the walk goes after the control op at i. */
static size_t control(struct walk *w, size_t i)
{
	const struct lg_op *op = &w->wl->ops[w->phase][i];

	if (op->kind == LG_OP_LOOP) {
		if (w->depth == MAX_DEPTH)
			return w->wl->nops[w->phase]; /* too deep to follow: the walk ends */
		w->loops[w->depth].end = op->target;
		w->loops[w->depth].count = op->count;
		w->depth++;
	} else if (op->kind == LG_OP_CHOOSE && op->count > 1) {
		/* past every alternative: where the first one's closing jump goes */
		size_t j = w->wl->alts[op->target + 1].target - 1;

		if (j < w->wl->nops[w->phase] && w->wl->ops[w->phase][j].kind == LG_OP_JUMP &&
		    w->wl->ops[w->phase][j].target > i)
			return w->wl->ops[w->phase][j].target;
	} else if (op->kind == LG_OP_JUMP && op->target > i) {
		return op->target;
	}
	return i + 1;
}

static void walk_phase(struct walk *w)
{
	const struct lg_op *ops = w->wl->ops[w->phase];
	size_t n = w->wl->nops[w->phase], slots = sizeof(w->files) / sizeof(w->files[0]);

	for (size_t i = 0; i < n;) {
		const struct lg_op *op = &ops[i];
		bool in_table = op->slot < slots;

		while (w->depth && i >= w->loops[w->depth - 1].end)
			w->depth--;
		if (op->kind >= LG_OP_LOOP) {
			i = control(w, i);
			continue;
		}
		if ((op->kind == LG_OP_OPEN || op->kind == LG_OP_NTCREATE) && in_table)
			start(w, op);
		else if (op->kind == LG_OP_CLOSE && in_table)
			finish(w, op->slot);
		else if (op->kind == LG_OP_WRITE && in_table)
			write_step(w, op);
		else if (in_table && (op->kind == LG_OP_TRUNCATE || op->kind == LG_OP_SEEK ||
				      (op->kind == LG_OP_READ && op->off_mode != LG_OFF_SEQ)))
			w->files[op->slot].seq = false; /* the position moved elsewhere */
		i++;
	}
	for (uint32_t s = 0; s < slots; s++) /* files still open at the end of the phase */
		finish(w, s);
}

void lg_footprint(const struct lg_workload *wl, struct lg_footprint *out)
{
	static struct walk w; /* 10 KiB: off the stack; loading is single-threaded */

	memset(out, 0, sizeof(*out));
	for (int p = 0; p < LG_PHASE_COUNT; p++) {
		memset(&w, 0, sizeof(w));
		w.wl = wl;
		w.phase = (enum lg_phase)p;
		w.out = out;
		walk_phase(&w);
	}
}
