/* Catching, at load time, an open of a file slot that is provably still open.
 *
 * "open f; write f; open f" without a close in between either leaks a descriptor or
 * silently closes one, depending on the engine; both hide a mistake in the workload.
 * The loader proves it only where control flow cannot interfere: within one phase, in
 * straight-line code. Every jump target in a compiled phase follows a control op
 * (LOOP, NEXT, CHOOSE, JUMP), so "no control op since the earlier open" means the two
 * opens always run one after the other. An earlier open that may fail (an expect other
 * than ok) proves nothing either. Everything else is left to the run-time check.
 *
 * To stay linear on 458k-step imported loadfiles, the ops compiled since the last check
 * are scanned once, keeping per slot the index of its last opening and closing op. */
#include "yaml_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX /* no such op yet */

/* What the scan knows about the ops of one phase so far. */
struct lg_yreopen {
	enum lg_phase phase; /* the phase scanned */
	size_t scanned;      /* ops of that phase looked at */
	uint32_t last_ctl;   /* index of the last control op, or NONE */
	uint32_t *opened;    /* per slot: index of its last proven open, or NONE */
	uint32_t *closed;    /* per slot: index of its last close, or NONE */
	size_t nslots;       /* entries of opened and closed */
};

void lg_yreopen_free(struct lg_yreopen *r)
{
	if (!r)
		return;
	free(r->opened);
	free(r->closed);
	free(r);
}

/* Room for slot in r's arrays. */
static int grow(struct lg_yreopen *r, size_t need)
{
	size_t n = r->nslots ? r->nslots : 16;
	uint32_t *o, *cl;

	if (need <= r->nslots)
		return 0;
	while (n < need)
		n *= 2;
	o = realloc(r->opened, n * sizeof(*o));
	if (o)
		r->opened = o;
	cl = o ? realloc(r->closed, n * sizeof(*cl)) : NULL;
	if (!cl)
		return -ENOMEM;
	r->closed = cl;
	for (size_t i = r->nslots; i < n; i++)
		r->opened[i] = r->closed[i] = NONE;
	r->nslots = n;
	return 0;
}

/* Take in the ops of c->phase compiled since the last call. */
static int scan(struct lg_yctx *c, struct lg_yreopen *r)
{
	const struct lg_op *ops = c->wl->ops[c->phase];

	if (r->phase != c->phase) { /* a new phase starts with nothing known */
		r->phase = c->phase;
		r->scanned = 0;
		r->last_ctl = NONE;
		for (size_t i = 0; i < r->nslots; i++)
			r->opened[i] = r->closed[i] = NONE;
	}
	/* the count and the place in locals: the stores below could change r's fields */
	for (size_t at = r->scanned, n = c->wl->nops[c->phase]; at < n; at++) {
		const struct lg_op *op = &ops[at];

		if (op->kind >= LG_OP_LOOP) {
			r->last_ctl = (uint32_t)at;
			continue;
		}
		if (op->slot == LG_NO_SLOT || (op->kind != LG_OP_OPEN &&
					       op->kind != LG_OP_NTCREATE &&
					       op->kind != LG_OP_CLOSE))
			continue;
		if (op->slot >= r->nslots && grow(r, (size_t)op->slot + 1)) {
			r->scanned = at;
			return -ENOMEM;
		}
		if (op->kind == LG_OP_CLOSE)
			r->closed[op->slot] = (uint32_t)at;
		else if (op->expect == LG_EXPECT_OK)
			r->opened[op->slot] = (uint32_t)at;
		else /* may have failed: the slot's state is unknown from here */
			r->opened[op->slot] = NONE;
	}
	r->scanned = c->wl->nops[c->phase];
	return 0;
}

/* Bring c->reopen up to date and find whether slot is provably still open: *at gets the
 * index of the open that left it so, or NONE. 0 or -ENOMEM. */
static int last_open(struct lg_yctx *c, uint32_t slot, uint32_t *at)
{
	struct lg_yreopen *r = c->reopen;

	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			return -ENOMEM;
		r->phase = c->phase;
		r->last_ctl = NONE;
		c->reopen = r;
	}
	if (scan(c, r) || grow(r, (size_t)slot + 1))
		return -ENOMEM;
	*at = r->opened[slot];
	if (*at != NONE && ((r->closed[slot] != NONE && r->closed[slot] > *at) ||
			    (r->last_ctl != NONE && r->last_ctl > *at)))
		*at = NONE;
	return 0;
}

int lg_yreopen_open(struct lg_yctx *c, uint32_t slot, bool *open)
{
	uint32_t at;

	if (last_open(c, slot, &at))
		return -ENOMEM;
	*open = at != NONE;
	return 0;
}

int lg_yreopen_check(struct lg_yctx *c, const struct lg_ynode *n, uint32_t slot)
{
	uint32_t at;

	if (last_open(c, slot, &at))
		return lg_ynomem(c);
	if (at == NONE)
		return 0;
	return lg_yfail(c, n, "file '%s' is opened again while still open: the open at line "
			"%u is not closed before this one; close it first (add '- close: %s')",
			c->wl->slots[slot], c->wl->ops[c->phase][at].line, c->wl->slots[slot]);
}

void lg_yreopen_reset(struct lg_yctx *c)
{
	struct lg_yreopen *r = c->reopen;

	if (!r || scan(c, r))
		return; /* nothing known yet; or no memory, and the next check says so */
	r->last_ctl = NONE;
	for (size_t i = 0; i < r->nslots; i++)
		r->opened[i] = r->closed[i] = NONE;
}
