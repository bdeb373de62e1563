/* The fast reader's lazy lists, read one step at a time (lg_yfast_steps).
 *
 * Each item is first looked up in the memo of lines seen lately (yaml_memo.c): a line
 * written again is its op again. Otherwise a step of the usual shape
 * "NAME: {KEY: VALUE, ...}" is read flat, its scalars NUL-ended in a copy of the line,
 * and compiled without a tree of nodes; any other item is read as a tree, as the rest
 * of the document is. */
#include "yaml_fast.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A scalar at p, on the line that starts at base and is copied in text: a node n whose
 * text is in that copy. */
static int flat_scalar(struct fast *f, const char *base, char *text, struct lg_ynode *n)
{
	const char *s, *e;
	int rc = scalar_at(f, &s, &e, n);

	if (rc)
		return rc;
	text[e - base] = '\0';
	n->text = text + (s - base);
	return 0;
}

/* "NAME: {KEY: VALUE, ...}" at p, to the end of its line (len bytes), into s. -EAGAIN
 * when the item has another shape (or a quoted key, or more than LG_YFLAT_MAX pairs):
 * the caller then reads it again as a tree, which accepts or refuses it as usual. */
static int flat_item(struct fast *f, size_t len, struct lg_yflat *s)
{
	const char *base = f->p;
	struct lg_ynode *op = &s->nodes[LG_YFLAT_MAX];
	bool more = true;
	int rc;

	if (len >= sizeof(s->text))
		return -EAGAIN;
	memcpy(s->text, base, len); /* scalars are NUL-ended in this copy: no copy each */
	rc = flat_scalar(f, base, s->text, op);
	s->op = op;
	s->op_len = f->slen;
	if (rc || !at(f, ':') || f->p + 1 >= f->end || f->p[1] != ' ' || f->slen > FAST_MAX_KEY)
		return rc ? rc : -EAGAIN;
	f->p += 2;
	skip_spaces(f);
	if (!at(f, '{'))
		return -EAGAIN;
	f->p++;
	skip_spaces(f);
	for (s->n = 0; more; s->n++) {
		struct lg_yflat_pair *kv = &s->kv[s->n];
		const char *e = span(f->p, f->end, FAST_PLAIN);

		if (s->n == LG_YFLAT_MAX || e == f->p || at(f, '-') || e + 1 >= f->end ||
		    e[0] != ':' || e[1] != ' ' || e - f->p > FAST_MAX_KEY)
			return -EAGAIN;
		kv->key = f->p;
		kv->len = (size_t)(e - f->p);
		f->p = e + 2;
		skip_spaces(f);
		kv->val = &s->nodes[s->n];
		if (at(f, '{') || at(f, '['))
			rc = lg_yf_flow_value(f, 1, &kv->val);
		else
			rc = flat_scalar(f, base, s->text, &s->nodes[s->n]);
		if (!rc)
			rc = lg_yf_flow_next(f, '}', &more);
		if (rc)
			return rc;
	}
	return lg_yf_line_end(f);
}

/* The item at p read flat and compiled by flat, or (when either declines) read again as
 * a tree and compiled by step. */
static int compile_item(struct fast *f, size_t len, lg_ystep_fn step, lg_yflat_fn flat)
{
	const char *p = f->p, *bol = f->bol;
	size_t line = f->line, nkids = f->nkids;
	struct lg_yflat s;
	int rc = flat_item(f, len, &s);

	if (!rc)
		rc = flat(f->c, &s);
	if (rc != -EAGAIN)
		return rc;
	f->p = p; /* not kids: a flow value read may have grown it */
	f->bol = bol;
	f->line = line;
	f->nkids = nkids;
	lg_yarena_reset(&f->c->arena);
	rc = lg_yf_item(f);
	return rc ? rc : step(f->c, f->kids[--f->nkids]);
}

/* From the start of a line, as lg_yf_next_content, but first the usual case: the next
 * item of a list whose items are indented by indent. */
static int next_content(struct fast *f, long indent, long *ind)
{
	long i = 0;

	while (i < indent && i < f->end - f->p && f->p[i] == ' ')
		i++;
	if (i == indent && i < f->end - f->p && f->p[i] == '-') {
		f->p += indent;
		*ind = indent;
		return 0;
	}
	return lg_yf_next_content(f, ind);
}

/* One item of a lazy list, at p: the op of an identical line replayed from memo m, or
 * the item compiled (and kept in m when it made one op). */
static int lazy_item(struct fast *f, struct lg_ymemo *m, lg_ystep_fn step, lg_yflat_fn flat)
{
	struct lg_yctx *c = f->c;
	const char *eol = memchr(f->p, '\n', (size_t)(f->end - f->p));
	size_t len = (size_t)((eol ? eol : f->end) - f->p), before = c->wl->nops[c->phase];
	struct lg_ymemo_key key;
	int rc;

	lg_ymemo_key(f->p, len, &key);
	rc = lg_ymemo_replay(c, m, &key, (uint32_t)f->line + 1);
	if (rc < 0)
		return rc;
	if (rc) { /* the line, to its end, is one that was read in full before */
		f->p = eol ? eol + 1 : f->end;
		f->line += eol != NULL;
		f->bol = f->p;
		return 0;
	}
	rc = compile_item(f, len, step, flat);
	lg_yarena_reset(&c->arena); /* what reading it took, if anything */
	if (!rc && c->wl->nops[c->phase] == before + 1 &&
	    c->wl->ops[c->phase][before].kind < LG_OP_LOOP)
		lg_ymemo_add(m, &key, (uint32_t)before);
	return rc;
}

int lg_yfast_steps(struct lg_yctx *c, const struct lg_ynode *seq, lg_ystep_fn step,
		   lg_yflat_fn flat)
{
	struct fast f = { .c = c, .p = seq->text, .end = c->text_end,
			  .bol = seq->text - seq->col, .line = seq->line };
	struct lg_yarena *tree = c->arena;
	struct lg_ymemo *m = NULL;
	long indent = seq->col, ind = indent;
	int rc = lg_ymemo_create(c->phase, &m);

	/* an op per line at most; lines of an imported client.txt are 62 bytes on average */
	lg_workload_reserve(c->wl, c->phase, c->wl->nops[c->phase] +
			    (size_t)(c->text_end - seq->text) / 48);
	c->arena = c->scratch; /* each step's nodes, dropped once it is compiled */
	while (!rc && ind == indent && at(&f, '-')) {
		if (f.p + 1 >= f.end || f.p[1] != ' ') {
			rc = -EAGAIN;
			break;
		}
		f.p += 2;
		skip_spaces(&f);
		rc = lazy_item(&f, m, step, flat);
		if (!rc)
			rc = next_content(&f, indent, &ind);
	}
	if (!rc && (ind > 0 || (ind == 0 && at(&f, '-'))))
		rc = -EAGAIN;
	c->scratch = c->arena;
	c->arena = tree;
	lg_ymemo_destroy(m);
	free(f.kids);
	return rc == -ENOMEM ? lg_ynomem(c) : rc;
}
