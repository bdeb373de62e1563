/* Steps written again: the op an identical line compiled to earlier.
 *
 * An imported dbench loadfile repeats most of its steps word for word (client.txt's
 * 458k steps are 196k different lines: the same reads, stats and closes again and again).
 * A one-line step of a top-level list compiles to the same op wherever it appears in
 * that list, but for its line: everything it looks up (parameters, slots bound earlier,
 * paths, labels, variables of earlier picks) only ever grows while a list compiles, so
 * what one copy found, a later copy finds too. The one exception is an open that binds
 * a slot: whether that slot is provably still open depends on the steps before it
 * (yaml_reopen.c), so such a step is replayed only when the check passes; otherwise it
 * compiles in full and fails with its message.
 *
 * The memo is a cache of the lines seen last rather than a table of all: MEMO_LINES
 * entries, each holding where a line is in the loaded text, its length, half its 64-bit
 * XXH3 hash and the index of the op it compiled to, at the place the other half picks (a
 * newer line takes the place of an older one). An entry holds no copy of the op: small
 * entries make room for four times the lines (a quarter more steps replayed from
 * client.yaml) in the space that 4096 entries with a copy took. Lines repeat
 * mostly within a few thousand lines of each other, so it replays nearly as many steps
 * as a table of every line would, while staying small enough for the processor's
 * cache: a table of half a million lines, and the ops it points to, missed the cache on
 * every lookup and cost more than it saved. Two lines are the same when their texts are:
 * the hash only picks the place and spares the comparison of most lines that differ
 * (a 64-bit hash costs half what a 128-bit one, strong enough to go without comparing,
 * did; a line replayed, and its op, are mostly a few thousand lines back). A
 * step that compiled to no op or to several (a 'when' that is false, a repeat, a
 * choose, a pick) is not kept. */
#include "yaml_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#define MEMO_LINES 16384 /* entries of the memo (a power of 2): 384 KiB */

/* One line seen. */
struct memo_entry {
	const char *line; /* its text, in the loaded text; NULL: an empty entry */
	uint32_t len;     /* its bytes */
	uint32_t hash;    /* the high half of its hash (the low half picks the entry) */
	uint32_t op;      /* index of the op it compiled to, in the memo's phase */
};

struct lg_ymemo {
	enum lg_phase phase;                 /* phase the ops are in */
	struct memo_entry tab[MEMO_LINES];   /* the lines, at the place their hash picks */
};

int lg_ymemo_create(enum lg_phase phase, struct lg_ymemo **out)
{
	struct lg_ymemo *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->phase = phase;
	*out = m;
	return 0;
}

void lg_ymemo_destroy(struct lg_ymemo *m)
{
	free(m);
}

void lg_ymemo_key(const char *s, size_t len, struct lg_ymemo_key *k)
{
	*k = (struct lg_ymemo_key){ .line = s, .len = len, .hash = XXH3_64bits(s, len) };
}

static struct memo_entry *entry_of(struct lg_ymemo *m, const struct lg_ymemo_key *k)
{
	return &m->tab[k->hash & (MEMO_LINES - 1)];
}

/* Whether entry e holds the line of k. */
static bool holds(const struct memo_entry *e, const struct lg_ymemo_key *k)
{
	return e->line && e->hash == (uint32_t)(k->hash >> 32) && e->len == k->len &&
	       memcmp(e->line, k->line, e->len) == 0;
}

int lg_ymemo_replay(struct lg_yctx *c, struct lg_ymemo *m, const struct lg_ymemo_key *k,
		    uint32_t line)
{
	const struct memo_entry *e = entry_of(m, k);
	struct lg_op op;
	bool open = false;

	if (c->phase != m->phase || !holds(e, k))
		return 0;
	op = c->wl->ops[m->phase][e->op];
	op.line = line;
	if ((op.kind == LG_OP_OPEN || op.kind == LG_OP_NTCREATE) && op.slot != LG_NO_SLOT &&
	    lg_yreopen_open(c, op.slot, &open))
		return -ENOMEM;
	if (open)
		return 0; /* compiled in full, to fail with the line of the earlier open */
	if (lg_workload_add_op(c->wl, m->phase, &op, NULL))
		return -ENOMEM;
	return 1;
}

void lg_ymemo_add(struct lg_ymemo *m, const struct lg_ymemo_key *k, uint32_t op)
{
	if (k->len <= UINT32_MAX) /* else not kept: no loadfile has such lines */
		*entry_of(m, k) = (struct memo_entry){ .line = k->line, .len = (uint32_t)k->len,
						       .hash = (uint32_t)(k->hash >> 32),
						       .op = op };
}
