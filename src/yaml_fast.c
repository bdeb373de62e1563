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
 * When loading, top-level lists are read lazily (lg_yfast_steps): only their extent is
 * found at first, and each step is read into a scratch arena just before it compiles,
 * then dropped, so half a million steps never make a tree of millions of nodes. A step
 * beyond the subset is then found late, in the middle of compiling: the loader starts
 * over with libyaml (as it does after any error, so that messages are libyaml's). */
#include "yaml_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FAST_MAX_FLOW_DEPTH 16 /* deeper flow nesting is left to libyaml */
#define FAST_MAX_KEY 1000      /* longer keys: libyaml refuses "simple keys" past 1024 */

/* Reader state. */
struct fast {
	struct lg_yctx *c;
	const char *p, *end;     /* next character; end of the text */
	const char *bol;         /* start of the current line */
	size_t line;             /* 0-based line of p */
	struct lg_ynode **kids;  /* children of collections being read (owned) */
	size_t nkids, cap_kids;  /* used / allocated entries of kids */
	bool lazy;               /* top-level lists are left to lg_yfast_steps */
	size_t slen;             /* length of the text of the last scalar read */
};

static size_t col(const struct fast *f)
{
	return (size_t)(f->p - f->bol);
}

static int at(const struct fast *f, char ch)
{
	return f->p < f->end && *f->p == ch;
}

static void skip_spaces(struct fast *f)
{
	while (at(f, ' '))
		f->p++;
}

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

/* Character classes of the subset, one table lookup per character of a scalar (the
 * reader spends most of its time in scalars). */
enum { FAST_PLAIN = 1, /* may be in a plain scalar: letters, digits, "_./~+-" */
       FAST_QUOTED = 2, /* may be in a double-quoted one: printable ASCII but '"' and '\\' */
       FAST_LITERAL = 4 /* FAST_QUOTED but '$': a scalar of these has nothing to expand */
};

/* Indexed by the character; 0 from 0x80 on (non-ASCII is left to libyaml). */
static const unsigned char fast_class[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x00 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x10 */
	6, 6, 0, 6, 2, 6, 6, 6, 6, 6, 6, 7, 6, 7, 7, 7, /* 0x20: '$' is 2 */
	7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6, /* 0x30 */
	6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, /* 0x40 */
	7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 0, 6, 6, 7, /* 0x50 */
	6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, /* 0x60 */
	7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 7, 0, /* 0x70 */
};

/* The end of the run of characters of class cls from s (at most to end). */
static const char *span(const char *s, const char *end, unsigned cls)
{
	const unsigned char *u = (const unsigned char *)s;

	while (end - s >= 4 && (fast_class[u[0]] & fast_class[u[1]] & fast_class[u[2]] &
				fast_class[u[3]] & cls)) /* four at a time: scalars are long */
		s += 4, u += 4;
	while (s < end && (fast_class[(unsigned char)*s] & cls))
		s++;
	return s;
}

/* A scalar at p: plain or double-quoted (no escapes), on this line. */
static int scalar(struct fast *f, struct lg_ynode **out)
{
	const char *s = f->p, *e;
	struct lg_ynode *n;
	bool plain = !at(f, '"'), literal = true;

	if (plain) {
		if (at(f, '-') || f->p == f->end ||
		    !(fast_class[(unsigned char)*f->p] & FAST_PLAIN))
			return -EAGAIN;
		e = span(s, f->end, FAST_PLAIN);
	} else {
		e = span(++s, f->end, FAST_LITERAL);
		if (e < f->end && *e == '$') {
			literal = false;
			e = span(e, f->end, FAST_QUOTED);
		}
		if (e == f->end || *e != '"')
			return -EAGAIN;
	}
	n = lg_yscalar_new(f->c, f->line, col(f), s, (size_t)(e - s), plain, literal);
	if (!n)
		return -ENOMEM;
	f->slen = (size_t)(e - s);
	f->p = plain ? e : e + 1;
	*out = n;
	return 0;
}

static int flow_value(struct fast *f, int depth, struct lg_ynode **out);

/* After an entry of a flow collection: ", " and more, or the closing character. */
static int flow_next(struct fast *f, char close, bool *more)
{
	skip_spaces(f);
	if (at(f, close)) {
		f->p++;
		*more = false;
		return 0;
	}
	if (!at(f, ','))
		return -EAGAIN;
	f->p++;
	skip_spaces(f);
	if (at(f, '}') || at(f, ']') || at(f, ','))
		return -EAGAIN; /* trailing or empty entry: libyaml's rules */
	*more = true;
	return 0;
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
		rc = flow_value(f, depth + 1, &val);
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
			rc = flow_value(f, depth + 1, &v);
		if (!rc && n->kind == LG_YSEQ && v->kind == LG_YSCALAR && at(f, ':'))
			rc = single_pair(f, depth, &v); /* [key: value] */
		if (!rc)
			rc = push(f, v);
		if (!rc)
			rc = flow_next(f, close, &more);
	}
	return rc ? rc : finish(f, n, first);
}

static int flow_value(struct fast *f, int depth, struct lg_ynode **out)
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

/* The rest of the line: spaces, maybe a comment after a space, then '\n' or the end. */
static int line_end(struct fast *f)
{
	const char *s = f->p;

	skip_spaces(f);
	if (at(f, '#') && f->p > s) {
		while (f->p < f->end && *f->p != '\n') {
			if (*f->p < 0x20 || *f->p > 0x7e)
				return -EAGAIN;
			f->p++;
		}
	}
	if (f->p == f->end)
		return 0;
	if (*f->p != '\n')
		return -EAGAIN;
	f->p++;
	f->line++;
	f->bol = f->p;
	return 0;
}

/* From the start of a line, skip blank and comment lines; *indent gets the indentation
 * of the next line with content (p left at its first character), -1 at the end. */
static int next_content(struct fast *f, long *indent)
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
	rc = flow_value(f, 0, &v);
	if (!rc)
		rc = push(f, k);
	if (!rc)
		rc = push(f, v);
	return rc ? rc : line_end(f);
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
static int item(struct fast *f)
{
	size_t line = f->line, c0 = col(f), first = f->nkids;
	struct lg_ynode *k, *m;
	int rc = flow_value(f, 0, &k);

	if (rc)
		return rc;
	if (k->kind != LG_YSCALAR || !at(f, ':')) {
		rc = push(f, k);
		return rc ? rc : line_end(f);
	}
	m = lg_ynode_new(f->c, LG_YMAP, line, c0);
	if (!m)
		return -ENOMEM;
	rc = pair(f, k);
	if (!rc)
		rc = finish(f, m, first);
	return rc ? rc : push(f, m);
}

/* A top-level list at p (indent: its items'), left to be read by lg_yfast_steps: only
 * its end is found here, by indentation. */
static int lazy_list(struct fast *f, long indent, struct lg_ynode **out)
{
	long ind = indent;
	int rc = 0;

	*out = lg_ynode_new(f->c, LG_YSEQ, f->line, col(f));
	if (!*out)
		return -ENOMEM;
	(*out)->text = (char *)f->p; /* the mark of a lazy list; never written through */
	while (!rc && (ind > indent || (ind == indent && at(f, '-')))) {
		const char *nl = memchr(f->p, '\n', (size_t)(f->end - f->p));

		f->p = nl ? nl + 1 : f->end;
		if (nl) {
			f->line++;
			f->bol = f->p;
		}
		rc = next_content(f, &ind);
	}
	if (!rc && (ind > 0 || (ind == 0 && at(f, '-'))))
		rc = -EAGAIN;
	return rc;
}

bool lg_yfast_is_lazy(const struct lg_ynode *seq)
{
	return seq->kind == LG_YSEQ && seq->text;
}

/* "NAME: {KEY: VALUE, ...}" at p, to the end of its line, into s. -EAGAIN when the item
 * has another shape (or a quoted key, or more than LG_YFLAT_MAX pairs): the caller then
 * reads it again as a tree, which accepts or refuses it as usual. */
static int flat_item(struct fast *f, struct lg_yflat *s)
{
	bool more = true;
	int rc = scalar(f, &s->op);

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
		rc = flow_value(f, 1, &kv->val);
		if (!rc)
			rc = flow_next(f, '}', &more);
		if (rc)
			return rc;
	}
	return line_end(f);
}

/* The item at p read flat and compiled by flat, or (when either declines) read again as
 * a tree and compiled by step. */
static int compile_item(struct fast *f, lg_ystep_fn step, lg_yflat_fn flat)
{
	const char *p = f->p, *bol = f->bol;
	size_t line = f->line, nkids = f->nkids;
	struct lg_yflat s;
	int rc = flat_item(f, &s);

	if (!rc)
		rc = flat(f->c, &s);
	if (rc != -EAGAIN)
		return rc;
	f->p = p; /* not kids: a flow value read may have grown it */
	f->bol = bol;
	f->line = line;
	f->nkids = nkids;
	lg_yarena_reset(&f->c->arena);
	rc = item(f);
	return rc ? rc : step(f->c, f->kids[--f->nkids]);
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
	if (rc) {
		f->p += len;
		return rc < 0 ? rc : line_end(f);
	}
	rc = compile_item(f, step, flat);
	if (!rc && c->wl->nops[c->phase] == before + 1 &&
	    c->wl->ops[c->phase][before].kind < LG_OP_LOOP)
		lg_ymemo_add(m, &key, &c->wl->ops[c->phase][before]);
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

	c->arena = c->scratch; /* each step's nodes, dropped once it is compiled */
	while (!rc && ind == indent && at(&f, '-')) {
		if (f.p + 1 >= f.end || f.p[1] != ' ') {
			rc = -EAGAIN;
			break;
		}
		f.p += 2;
		skip_spaces(&f);
		rc = lazy_item(&f, m, step, flat);
		lg_yarena_reset(&c->arena);
		if (!rc)
			rc = next_content(&f, &ind);
	}
	if (!rc && (ind > 0 || (ind == 0 && at(&f, '-'))))
		rc = -EAGAIN;
	c->scratch = c->arena;
	c->arena = tree;
	lg_ymemo_destroy(m);
	free(f.kids);
	return rc == -ENOMEM ? lg_ynomem(c) : rc;
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
			rc = item(f);
		} else {
			struct lg_ynode *k;

			rc = scalar(f, &k);
			if (!rc)
				rc = pair(f, k);
		}
		if (!rc)
			rc = next_content(f, &ind);
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
	int rc = line_end(f);

	if (!rc)
		rc = next_content(f, &ind);
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
	int rc = next_content(f, &ind);

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
			rc = next_content(f, &ind);
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
