/* A fast reader for the plain YAML that `loadgen import` writes.
 *
 * An imported dbench loadfile is ~460k lines of "  - op: {key: value, ...}". libyaml
 * spends most of its time on that in per-token allocation, so loading it took several
 * times as long as the dbench text it came from. This reader builds the same tree
 * (same nodes, same line:column marks, same plain/quoted flags) straight from the text
 * into the tree's arena, for a strict subset of YAML:
 *
 *   - printable ASCII, '\n' line ends, spaces only; comments on their own line or after
 *     a value ("  # ...");
 *   - top-level "key: value" on one line, or "key:" followed by a block list of one-line
 *     items ("- op: VALUE" or "- VALUE") or a block mapping of one-line "key: VALUE";
 *   - VALUE: a plain scalar of letters, digits and "_./~+-" (not starting with '-'), a
 *     double-quoted scalar without escapes, or a one-line flow mapping/sequence of them.
 *
 * Anything else (a second document, tags, anchors, multi-line or nested block values,
 * escapes, tabs, non-ASCII, ...) returns -EAGAIN and libyaml reads the whole text
 * instead, with its full syntax and its error messages. tests/test_yaml_fast.c checks
 * that both readers build identical trees.
 *
 * When loading, top-level lists are read lazily (lg_yfast_steps, yaml_fast_steps.c):
 * only their extent is found at first, and each step is read just before it compiles,
 * then dropped, so half a million steps never make a tree of millions of nodes. A step
 * beyond the subset is then found late, in the middle of compiling: the loader starts
 * over with libyaml (as it does after any error, so that messages are libyaml's). */
#include "yaml_fast.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* push, when kids is full. */
static int push_grow(struct fast *f, struct lg_ynode *n)
{
	size_t ncap = f->cap_kids ? f->cap_kids * 2 : 64;
	void *v = realloc(f->kids, ncap * sizeof(*f->kids));

	if (!v)
		return -ENOMEM;
	f->kids = v;
	f->cap_kids = ncap;
	f->kids[f->nkids++] = n;
	return 0;
}

static inline int push(struct fast *f, struct lg_ynode *n)
{
	if (f->nkids == f->cap_kids)
		return push_grow(f, n);
	f->kids[f->nkids++] = n;
	return 0;
}

/* Collection n ends: the children pushed since first become its items. */
static int finish(struct fast *f, struct lg_ynode *n, size_t first)
{
	n->n = (uint32_t)(f->nkids - first);
	if (n->n) {
		n->items = lg_yalloc(f->c, n->n * sizeof(*n->items));
		if (!n->items)
			return -ENOMEM;
		memcpy(n->items, f->kids + first, n->n * sizeof(*n->items));
	}
	f->nkids = first;
	return 0;
}

/* A scalar at p, as a node of the arena. */
static int scalar(struct fast *f, struct lg_ynode **out)
{
	struct lg_ynode n;
	const char *s, *e;
	int rc = scalar_at(f, &s, &e, &n);

	if (rc)
		return rc;
	*out = lg_yscalar_new(f->c, n.line, n.col, s, (size_t)(e - s), n.plain, n.literal);
	return *out ? 0 : -ENOMEM;
}

/* In a flow sequence, scalar *v followed by ':' is the key of a one-pair mapping, which
 * replaces it in *v. */
static int single_pair(struct fast *f, int depth, struct lg_ynode **v)
{
	struct lg_ynode *m, *val;
	size_t first = f->nkids;
	int rc;

	if (f->p + 1 >= f->end || f->p[1] != ' ' || f->slen > FAST_MAX_KEY)
		return -EAGAIN;
	f->p += 2;
	skip_spaces(f);
	m = lg_ynode_new(f->c, LG_YMAP, (*v)->line, (*v)->col);
	if (!m)
		return -ENOMEM;
	rc = push(f, *v);
	if (!rc)
		rc = lg_yf_flow_value(f, depth + 1, &val);
	if (!rc)
		rc = push(f, val);
	if (!rc)
		rc = finish(f, m, first);
	*v = m;
	return rc;
}

/* {key: value, ...} or [value, ...] at p; n is its node. */
static int flow_collection(struct fast *f, int depth, struct lg_ynode *n)
{
	char close = n->kind == LG_YMAP ? '}' : ']';
	size_t first = f->nkids;
	bool more = true;
	int rc = 0;

	f->p++;
	skip_spaces(f);
	if (at(f, close)) {
		f->p++;
		return 0;
	}
	while (!rc && more) {
		struct lg_ynode *k, *v;

		if (n->kind == LG_YMAP) {
			rc = scalar(f, &k);
			if (!rc && !(at(f, ':') && f->p + 1 < f->end && f->p[1] == ' ' &&
				     f->slen <= FAST_MAX_KEY))
				rc = -EAGAIN;
			if (!rc) {
				f->p += 2;
				skip_spaces(f);
				rc = push(f, k);
			}
		}
		if (!rc)
			rc = lg_yf_flow_value(f, depth + 1, &v);
		if (!rc && n->kind == LG_YSEQ && v->kind == LG_YSCALAR && at(f, ':'))
			rc = single_pair(f, depth, &v); /* [key: value] */
		if (!rc)
			rc = push(f, v);
		if (!rc)
			rc = lg_yf_flow_next(f, close, &more);
	}
	return rc ? rc : finish(f, n, first);
}

int lg_yf_flow_value(struct fast *f, int depth, struct lg_ynode **out)
{
	enum lg_ynode_kind kind = at(f, '{') ? LG_YMAP : LG_YSEQ;

	if (!at(f, '{') && !at(f, '['))
		return scalar(f, out);
	if (depth >= FAST_MAX_FLOW_DEPTH)
		return -EAGAIN;
	*out = lg_ynode_new(f->c, kind, f->line, col(f));
	if (!*out)
		return -ENOMEM;
	return flow_collection(f, depth, *out);
}

/* From the start of a line, skip blank and comment lines; *indent gets the indentation
 * of the next line with content (p left at its first character), -1 at the end. */
int lg_yf_next_content(struct fast *f, long *indent)
{
	for (;;) {
		skip_spaces(f);
		if (f->p == f->end) {
			*indent = -1;
			return 0;
		}
		if (*f->p != '#' && *f->p != '\n') {
			*indent = (long)col(f);
			return 0;
		}
		for (; f->p < f->end && *f->p != '\n'; f->p++)
			if (*f->p < 0x20 || *f->p > 0x7e)
				return -EAGAIN;
		if (f->p < f->end) {
			f->p++;
			f->line++;
			f->bol = f->p;
		}
	}
}

/* The value of key k at p, on this line: push both. */
static int value(struct fast *f, struct lg_ynode *k)
{
	struct lg_ynode *v;
	int rc;

	if (f->p == f->end || *f->p == '#' || *f->p == '\n')
		return -EAGAIN; /* a null or a nested block: libyaml */
	rc = lg_yf_flow_value(f, 0, &v);
	if (!rc)
		rc = push(f, k);
	if (!rc)
		rc = push(f, v);
	return rc ? rc : lg_yf_line_end(f);
}

/* ": VALUE" after key k (a scalar followed at once by ':'). */
static int pair(struct fast *f, struct lg_ynode *k)
{
	if (!at(f, ':') || f->p + 1 >= f->end || f->p[1] != ' ' ||
	    f->slen > FAST_MAX_KEY)
		return -EAGAIN;
	f->p += 2;
	skip_spaces(f);
	return value(f, k);
}

/* One item of a block list, after "- ": a single-pair mapping or a flow value. */
int lg_yf_item(struct fast *f)
{
	size_t line = f->line, c0 = col(f), first = f->nkids;
	struct lg_ynode *k, *m;
	int rc = lg_yf_flow_value(f, 0, &k);

	if (rc)
		return rc;
	if (k->kind != LG_YSCALAR || !at(f, ':')) {
		rc = push(f, k);
		return rc ? rc : lg_yf_line_end(f);
	}
	m = lg_ynode_new(f->c, LG_YMAP, line, c0);
	if (!m)
		return -ENOMEM;
	rc = pair(f, k);
	if (!rc)
		rc = finish(f, m, first);
	return rc ? rc : push(f, m);
}

/* p to the start of the next line (or the end). */
static void next_line(struct fast *f)
{
	const char *nl = memchr(f->p, '\n', (size_t)(f->end - f->p));

	f->p = nl ? nl + 1 : f->end;
	if (nl) {
		f->line++;
		f->bol = f->p;
	}
}

/* A top-level list at p (indent: its items'), left to be read by lg_yfast_steps: only
 * its end is found here, by indentation. When its items are indented, every line that
 * starts with a space is taken as part of it unseen: lg_yfast_steps reads each line
 * anyway, and gives up on any that does not belong (as this loop would, but only after
 * reading each line's indentation, twice per line of a half-million-line list). */
static int lazy_list(struct fast *f, long indent, struct lg_ynode **out)
{
	long ind = indent;
	int rc = 0;

	*out = lg_ynode_new(f->c, LG_YSEQ, f->line, col(f));
	if (!*out)
		return -ENOMEM;
	(*out)->text = (char *)f->p; /* the mark of a lazy list; never written through */
	while (!rc && (ind > indent || (ind == indent && at(f, '-')))) {
		do
			next_line(f);
		while (indent > 0 && at(f, ' '));
		rc = lg_yf_next_content(f, &ind);
	}
	if (!rc && (ind > 0 || (ind == 0 && at(f, '-'))))
		rc = -EAGAIN;
	return rc;
}

bool lg_yfast_is_lazy(const struct lg_ynode *seq)
{
	return seq->kind == LG_YSEQ && seq->text;
}

/* The block value of a top-level key, whose lines start at indent (> 0, or 0 for a list):
 * a list of items or a mapping of one-line pairs, ending at the next top-level key. */
static int block(struct fast *f, long indent, struct lg_ynode **out)
{
	bool list = at(f, '-');
	size_t first = f->nkids;
	long ind = indent;
	int rc;

	if (list && f->lazy)
		return lazy_list(f, indent, out);
	*out = lg_ynode_new(f->c, list ? LG_YSEQ : LG_YMAP, f->line, col(f));
	if (!*out)
		return -ENOMEM;
	if (!list && indent == 0)
		return -EAGAIN;
	while (ind == indent && (list ? at(f, '-') : !at(f, '-'))) {
		if (list) {
			if (f->p + 1 >= f->end || f->p[1] != ' ')
				return -EAGAIN;
			f->p += 2;
			skip_spaces(f);
			rc = lg_yf_item(f);
		} else {
			struct lg_ynode *k;

			rc = scalar(f, &k);
			if (!rc)
				rc = pair(f, k);
		}
		if (!rc)
			rc = lg_yf_next_content(f, &ind);
		if (rc)
			return rc;
	}
	if (ind > 0 || (ind == 0 && at(f, '-')))
		return -EAGAIN; /* continuation lines or a change of indentation */
	return finish(f, *out, first);
}

/* Top-level key k has no value on its line: read its block. */
static int key_block(struct fast *f, struct lg_ynode *k)
{
	struct lg_ynode *v;
	long ind;
	int rc = lg_yf_line_end(f);

	if (!rc)
		rc = lg_yf_next_content(f, &ind);
	if (!rc && ind < 0)
		rc = -EAGAIN; /* "key:" at the end: a null, left to libyaml */
	if (!rc)
		rc = block(f, ind, &v);
	if (!rc)
		rc = push(f, k);
	return rc ? rc : push(f, v);
}

/* The top-level mapping, from the first content line at indent 0 to the end. */
static int top(struct fast *f, struct lg_ynode **root)
{
	size_t first = f->nkids;
	long ind;
	int rc = lg_yf_next_content(f, &ind);

	if (rc || ind != 0)
		return -EAGAIN;
	*root = lg_ynode_new(f->c, LG_YMAP, f->line, 0);
	if (!*root)
		return -ENOMEM;
	while (!rc && ind == 0) {
		struct lg_ynode *k;
		bool inline_value;

		rc = scalar(f, &k);
		if (rc || !at(f, ':') || f->slen > FAST_MAX_KEY)
			return rc ? rc : -EAGAIN;
		f->p++;
		skip_spaces(f);
		inline_value = f->p < f->end && *f->p != '\n' && *f->p != '#';
		if (inline_value && f->p[-1] != ' ')
			return -EAGAIN; /* "key:value" */
		rc = inline_value ? value(f, k) : key_block(f, k);
		if (!rc)
			rc = lg_yf_next_content(f, &ind);
	}
	if (!rc && ind != -1)
		rc = -EAGAIN;
	return rc ? rc : finish(f, *root, first);
}

int lg_yfast_parse(struct lg_yctx *c, const char *text, size_t len, bool lazy,
		   struct lg_ynode **out)
{
	struct fast f = { .c = c, .p = text, .end = text + len, .bol = text, .lazy = lazy };
	struct lg_ynode *root = NULL;
	int rc = top(&f, &root);

	free(f.kids);
	if (rc == -ENOMEM)
		return lg_ynomem(c);
	if (rc)
		return -EAGAIN;
	*out = root;
	return 0;
}

/* The fast reader first; libyaml when it gives up (anything beyond the plain subset). */
int lg_ytree_parse(struct lg_yctx *c, const char *text, size_t len, struct lg_ynode **out)
{
	int rc;

	if (!text)
		text = "";
	rc = c->no_fast ? -EAGAIN : lg_yfast_parse(c, text, len, true, out);
	c->fast_read = rc == 0;
	if (rc != -EAGAIN)
		return rc;
	lg_ytree_free(c); /* what the fast reader built before it gave up */
	return lg_ytree_parse_libyaml(c, text, len, out);
}
