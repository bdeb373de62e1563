/* libyaml events -> node tree, for the YAML loader.
 *
 * The event API is used (not yaml_parser_load) so that anchors and aliases can be
 * refused as they appear: a workload never needs them, and refusing them removes
 * "billion laughs" expansion without having to count nodes. The tree is built with an
 * explicit stack capped at LG_YAML_MAX_DEPTH, so hostile nesting ends in an error, not
 * a stack overflow in the recursive compiler that walks the tree afterwards. */
#include "yaml_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "loadgen/model/suggest.h"

/* One block of the arena that holds a whole tree. */
struct lg_yarena {
	struct lg_yarena *next; /* the block allocated before this one */
	size_t size, used;      /* bytes of data, and those handed out */
	max_align_t data[];     /* the nodes, item arrays and texts */
};

#define ARENA_BLOCK (64u << 10)    /* bytes of the first arena block */
#define ARENA_BLOCK_MAX (16u << 20) /* largest block size reached by doubling */

/* State while turning events into a tree. Children of the open collections wait on one
 * shared stack (kids) and move to the arena, as the collection's exact-size item array,
 * when it ends: no array is ever grown, so nothing but the arena is allocated. */
struct builder {
	struct lg_ynode *stack[LG_YAML_MAX_DEPTH]; /* open collections, innermost last */
	size_t first[LG_YAML_MAX_DEPTH];           /* index in kids of each one's first child */
	size_t depth;                              /* entries used in stack */
	struct lg_ynode **kids;                    /* children of open collections (owned) */
	size_t nkids, cap_kids;                    /* used / allocated entries of kids */
	struct lg_ynode *root;                     /* the document's top node (in the arena) */
	int ndocs;                                 /* documents seen */
	bool done;                                 /* stream end reached */
};

/* A new block for arena_get, which found no room for size bytes in the current one. */
static void *arena_grow(struct lg_yctx *c, size_t size)
{
	struct lg_yarena *a = c->arena;
	/* blocks double (to ARENA_BLOCK_MAX): few of them even for huge trees */
	size_t normal = a ? (a->size < ARENA_BLOCK_MAX ? a->size * 2 : a->size) : ARENA_BLOCK;
	bool own = size > normal;

	a = malloc(sizeof(*a) + (own ? size : normal));
	if (!a)
		return NULL;
	a->size = own ? size : normal;
	a->used = size;
	if (c->arena && own) { /* a big one: keep filling the current block */
		a->next = c->arena->next;
		c->arena->next = a;
	} else {
		a->next = c->arena;
		c->arena = a;
	}
	return a->data;
}

/* size bytes from c's arena at an offset that is a multiple of align (a power of 2).
 * Inline: the fast reader takes two pieces per scalar, millions per load. */
static inline void *arena_get(struct lg_yctx *c, size_t size, size_t align)
{
	struct lg_yarena *a = c->arena;
	size_t at;

	if (!a)
		return arena_grow(c, size);
	at = (a->used + align - 1) & ~(align - 1);
	if (at > a->size || a->size - at < size)
		return arena_grow(c, size);
	a->used = at + size;
	return (char *)a->data + at;
}

void *lg_yalloc(struct lg_yctx *c, size_t size)
{
	void *p = arena_get(c, size, sizeof(max_align_t) < 16 ? sizeof(max_align_t) : 16);

	return p ? memset(p, 0, size) : NULL;
}

char *lg_ytext(struct lg_yctx *c, const char *s, size_t len)
{
	char *t = arena_get(c, len + 1, 1);

	if (t) {
		memcpy(t, s, len);
		t[len] = '\0';
	}
	return t;
}

void lg_yarena_reset(struct lg_yarena **arena)
{
	struct lg_yarena *a = *arena;

	if (!a)
		return;
	while (a->next) { /* keep the newest block: the largest */
		struct lg_yarena *next = a->next->next;

		free(a->next);
		a->next = next;
	}
	a->used = 0;
}

void lg_yarena_free(struct lg_yarena **arena)
{
	while (*arena) {
		struct lg_yarena *next = (*arena)->next;

		free(*arena);
		*arena = next;
	}
}

void lg_ytree_free(struct lg_yctx *c)
{
	lg_yarena_free(&c->scratch);
	while (c->arena) {
		struct lg_yarena *next = c->arena->next;

		free(c->arena);
		c->arena = next;
	}
}

struct lg_ynode *lg_ynode_new(struct lg_yctx *c, enum lg_ynode_kind kind, size_t line,
			      size_t col)
{
	/* not lg_yalloc: one assignment is cheaper than memset and stores (millions) */
	struct lg_ynode *n = arena_get(c, sizeof(*n), _Alignof(struct lg_ynode));

	if (n)
		*n = (struct lg_ynode){ .line = (uint32_t)line, .col = (uint32_t)col,
					.kind = (uint8_t)kind };
	return n;
}

struct lg_ynode *lg_yscalar_new(struct lg_yctx *c, size_t line, size_t col, const char *s,
				size_t len, bool plain, bool literal)
{
	struct lg_ynode *n = len < SIZE_MAX - sizeof(*n) ?
		arena_get(c, sizeof(*n) + len + 1, _Alignof(struct lg_ynode)) : NULL;

	if (n) {
		char *text = (char *)(n + 1);

		memcpy(text, s, len);
		text[len] = '\0';
		*n = (struct lg_ynode){ .line = (uint32_t)line, .col = (uint32_t)col,
					.kind = LG_YSCALAR, .plain = plain, .literal = literal,
					.text = text };
	}
	return n;
}

static int vfail_at(struct lg_yctx *c, size_t line, size_t col, const char *fmt, va_list ap)
{
	int n;

	if (!c->err || c->errlen == 0)
		return -EINVAL;
	n = snprintf(c->err, c->errlen, "%s:%zu:%zu: ", c->fname, line + 1, col + 1);
	if (n >= 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	return -EINVAL;
}

int lg_yfail_at(struct lg_yctx *c, size_t line, size_t col, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail_at(c, line, col, fmt, ap);
	va_end(ap);
	return rc;
}

int lg_yfail(struct lg_yctx *c, const struct lg_ynode *n, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail_at(c, n->line, n->col, fmt, ap);
	va_end(ap);
	return rc;
}

int lg_ynomem(struct lg_yctx *c)
{
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "%s: out of memory", c->fname);
	return -ENOMEM;
}

const char *lg_ykind_name(const struct lg_ynode *n)
{
	switch (n->kind) {
	case LG_YSCALAR:
		return "a scalar";
	case LG_YSEQ:
		return "a sequence";
	default:
		return "a mapping";
	}
}

bool lg_yis_null(const struct lg_ynode *n)
{
	return n->kind == LG_YSCALAR && n->plain &&
	       (!strcmp(n->text, "") || !strcmp(n->text, "~") || !strcmp(n->text, "null") ||
		!strcmp(n->text, "Null") || !strcmp(n->text, "NULL"));
}

/* Format "a, b, c" from keys into buf, for "expected ..." hints. */
static void key_list(const char *const *keys, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; keys[i] && o < len; i++) {
		int n = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", keys[i]);

		if (n < 0)
			break;
		o += (size_t)n;
	}
}

int lg_ykeys(struct lg_yctx *c, const struct lg_ynode *map, const char *what,
	     const char *const *keys, const struct lg_ynode **vals)
{
	size_t nk = 0;

	while (keys[nk])
		vals[nk++] = NULL;
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct lg_ynode *k = map->items[i];
		size_t j = 0;

		while (j < nk && (keys[j][0] != k->text[0] || strcmp(keys[j], k->text) != 0))
			j++;
		if (j == nk) {
			char list[256], hint[80];

			key_list(keys, list, sizeof(list));
			return lg_yfail(c, k, "unknown key '%s' in %s%s (expected %s)", k->text,
					what, lg_yhint(k->text, keys, nk, hint, sizeof(hint)),
					list);
		}
		if (vals[j])
			return lg_yfail(c, k, "duplicate key '%s' in %s", k->text, what);
		vals[j] = map->items[i + 1];
	}
	return 0;
}

/* Byte offset -> 0-based line and column, for reader errors that carry only an offset. */
static void offset_mark(const char *text, size_t len, size_t off, size_t *line, size_t *col)
{
	*line = 0;
	*col = 0;
	for (size_t i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 0;
		} else {
			(*col)++;
		}
	}
}

static int syntax_error(struct lg_yctx *c, const yaml_parser_t *p, const char *text,
			size_t len)
{
	const char *problem = p->problem ? p->problem : "YAML syntax error", *hint;
	size_t line, col, idx;

	if (p->error == YAML_MEMORY_ERROR)
		return lg_ynomem(c);
	if (p->error == YAML_READER_ERROR) {
		offset_mark(text, len, p->problem_offset, &line, &col);
		return lg_yfail_at(c, line, col, "%s", problem);
	}
	/* Inside {...} or [...] a plain "${x}" ends at the '{': say how to fix that. A tab
	 * where indentation is expected gets libyaml's generic "cannot start any token". */
	idx = p->problem_mark.index;
	hint = idx > 0 && idx < len && text[idx] == '{' && text[idx - 1] == '$'
		       ? "; quote values that contain ${...}" : "";
	if (idx < len && text[idx] == '\t')
		hint = "; YAML does not allow tabs for indentation, use spaces";
	if (p->context)
		return lg_yfail_at(c, p->problem_mark.line, p->problem_mark.column,
				   "%s (%s at %zu:%zu)%s", problem, p->context,
				   p->context_mark.line + 1, p->context_mark.column + 1, hint);
	return lg_yfail_at(c, p->problem_mark.line, p->problem_mark.column, "%s%s", problem,
			   hint);
}

/* An explicit tag is only accepted where it restates what the node is (yaml_tag.c). */
static int check_tag(struct lg_yctx *c, const yaml_event_t *ev, const char *tag,
		     enum lg_ynode_kind kind, const char *text, bool *str)
{
	char why[256];

	if (!lg_ytag_check(tag, kind, text, str, why, sizeof(why)))
		return 0;
	return lg_yfail_at(c, ev->start_mark.line, ev->start_mark.column, "%s", why);
}

/* Create a node for ev and hang it under the innermost open collection. */
static int add_node(struct lg_yctx *c, struct builder *b, const yaml_event_t *ev,
		    enum lg_ynode_kind kind, struct lg_ynode **out)
{
	struct lg_ynode *n;

	if (b->depth && b->stack[b->depth - 1]->kind == LG_YMAP &&
	    (b->nkids - b->first[b->depth - 1]) % 2 == 0 && kind != LG_YSCALAR)
		return lg_yfail_at(c, ev->start_mark.line, ev->start_mark.column,
				   "mapping keys must be scalars");
	if (b->depth && b->nkids == b->cap_kids) {
		size_t ncap = b->cap_kids ? b->cap_kids * 2 : 64;
		void *v = realloc(b->kids, ncap * sizeof(*b->kids));

		if (!v)
			return lg_ynomem(c);
		b->kids = v;
		b->cap_kids = ncap;
	}
	n = lg_ynode_new(c, kind, ev->start_mark.line, ev->start_mark.column);
	if (!n)
		return lg_ynomem(c);
	if (b->depth)
		b->kids[b->nkids++] = n;
	else
		b->root = n;
	*out = n;
	return 0;
}

/* The innermost open collection ends: its children move to the arena. */
static int on_end(struct lg_yctx *c, struct builder *b)
{
	struct lg_ynode *n = b->stack[--b->depth];
	size_t first = b->first[b->depth];

	n->n = (uint32_t)(b->nkids - first);
	if (n->n) {
		n->items = lg_yalloc(c, n->n * sizeof(*n->items));
		if (!n->items)
			return lg_ynomem(c);
		memcpy(n->items, b->kids + first, n->n * sizeof(*n->items));
	}
	b->nkids = first;
	return 0;
}

static int on_scalar(struct lg_yctx *c, struct builder *b, const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	struct lg_ynode *n;
	bool str;
	int rc;

	/* A "\0" escape would silently cut a path or name short: refuse it. */
	if (memchr(v, '\0', len))
		return lg_yfail_at(c, ev->start_mark.line, ev->start_mark.column,
				   "NUL character in value");
	rc = check_tag(c, ev, (const char *)ev->data.scalar.tag, LG_YSCALAR, v, &str);
	if (!rc)
		rc = add_node(c, b, ev, LG_YSCALAR, &n);
	if (rc)
		return rc;
	/* !!str ~ is the string "~", not null */
	n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !str;
	n->text = lg_ytext(c, v, len);
	return n->text ? 0 : lg_ynomem(c);
}

static int on_start(struct lg_yctx *c, struct builder *b, const yaml_event_t *ev,
		    enum lg_ynode_kind kind, const char *tag)
{
	struct lg_ynode *n;
	bool str;
	int rc;

	if (b->depth == LG_YAML_MAX_DEPTH)
		return lg_yfail_at(c, ev->start_mark.line, ev->start_mark.column,
				   "nesting deeper than %d levels", LG_YAML_MAX_DEPTH);
	rc = check_tag(c, ev, tag, kind, NULL, &str);
	if (!rc)
		rc = add_node(c, b, ev, kind, &n);
	if (rc)
		return rc;
	b->first[b->depth] = b->nkids;
	b->stack[b->depth++] = n;
	return 0;
}

/* The anchor of a node event, or NULL. */
static const char *event_anchor(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return (const char *)ev->data.scalar.anchor;
	case YAML_SEQUENCE_START_EVENT:
		return (const char *)ev->data.sequence_start.anchor;
	case YAML_MAPPING_START_EVENT:
		return (const char *)ev->data.mapping_start.anchor;
	default:
		return NULL;
	}
}

static int on_event(struct lg_yctx *c, struct builder *b, const yaml_event_t *ev)
{
	size_t line = ev->start_mark.line, col = ev->start_mark.column;
	const char *anchor = event_anchor(ev);

	if (anchor)
		return lg_yfail_at(c, line, col, "YAML anchors (&%s) are not supported", anchor);
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++b->ndocs > 1)
			return lg_yfail_at(c, line, col,
					   "a workload is one YAML document; found a second one");
		return 0;
	case YAML_ALIAS_EVENT:
		return lg_yfail_at(c, line, col, "YAML aliases (*%s) are not supported",
				   (const char *)ev->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		return on_scalar(c, b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_start(c, b, ev, LG_YSEQ, (const char *)ev->data.sequence_start.tag);
	case YAML_MAPPING_START_EVENT:
		return on_start(c, b, ev, LG_YMAP, (const char *)ev->data.mapping_start.tag);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_end(c, b);
	case YAML_STREAM_END_EVENT:
		b->done = true;
		return 0;
	default:
		return 0;
	}
}

int lg_ytree_parse_libyaml(struct lg_yctx *c, const char *text, size_t len,
			   struct lg_ynode **out)
{
	struct builder b = { .depth = 0 };
	yaml_parser_t p;
	yaml_event_t ev;
	int rc = 0;

	if (!yaml_parser_initialize(&p))
		return lg_ynomem(c);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!rc && !b.done) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = syntax_error(c, &p, text, len);
			break;
		}
		rc = on_event(c, &b, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	free(b.kids);
	if (!rc && (!b.root || lg_yis_null(b.root)))
		rc = lg_yfail_at(c, 0, 0, "empty workload: expected a mapping with a 'run' section");
	if (rc) {
		lg_ytree_free(c);
		return rc;
	}
	*out = b.root;
	return 0;
}

const char *lg_yhint(const char *word, const char *const *names, size_t n, char *buf,
		     size_t len)
{
	struct lg_suggest s;

	lg_suggest_init(&s, word);
	for (size_t i = 0; i < n; i++)
		lg_suggest_add(&s, names[i]);
	buf[0] = '\0';
	if (lg_suggest_best(&s))
		snprintf(buf, len, "; did you mean '%s'?", lg_suggest_best(&s));
	return buf;
}
