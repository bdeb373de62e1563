/* The fast YAML reader's scanner, shared by its two files: yaml_fast.c reads a
 * document into a tree, yaml_fast_steps.c reads the steps of its lazy lists one at a
 * time. Private to them (yaml_priv.h is the loader's). */
#ifndef LOADGEN_YAML_FAST_H
#define LOADGEN_YAML_FAST_H

#include <errno.h>

#include "yaml_priv.h"

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

static inline size_t col(const struct fast *f)
{
	return (size_t)(f->p - f->bol);
}

static inline int at(const struct fast *f, char ch)
{
	return f->p < f->end && *f->p == ch;
}

static inline void skip_spaces(struct fast *f)
{
	while (at(f, ' '))
		f->p++;
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
static inline const char *span(const char *s, const char *end, unsigned cls)
{
	const unsigned char *u = (const unsigned char *)s;

	while (end - s >= 4 && (fast_class[u[0]] & fast_class[u[1]] & fast_class[u[2]] &
				fast_class[u[3]] & cls)) /* four at a time: scalars are long */
		s += 4, u += 4;
	while (s < end && (fast_class[(unsigned char)*s] & cls))
		s++;
	return s;
}

/* The scalar at p, plain or double-quoted (no escapes), on this line: its text from *s
 * to *e, and a scalar node in *n but for the text (position, plain, free of '$'). p moves
 * past it. 0 or -EAGAIN. */
static inline int scalar_at(struct fast *f, const char **s, const char **e,
			    struct lg_ynode *n)
{
	*n = (struct lg_ynode){ .line = (uint32_t)f->line, .col = (uint32_t)col(f),
				.kind = LG_YSCALAR, .plain = !at(f, '"'), .literal = true };
	*s = f->p;
	if (n->plain) {
		if (at(f, '-') || f->p == f->end ||
		    !(fast_class[(unsigned char)*f->p] & FAST_PLAIN))
			return -EAGAIN;
		*e = span(*s, f->end, FAST_PLAIN);
	} else {
		*e = span(++*s, f->end, FAST_LITERAL);
		if (*e < f->end && **e == '$') {
			n->literal = false;
			*e = span(*e, f->end, FAST_QUOTED);
		}
		if (*e == f->end || **e != '"')
			return -EAGAIN;
	}
	f->slen = (size_t)(*e - *s);
	f->p = n->plain ? *e : *e + 1;
	return 0;
}

/* The value at p: a scalar, or a flow mapping or sequence nested depth deep. */
int lg_yf_flow_value(struct fast *f, int depth, struct lg_ynode **out);
/* After an entry of a flow collection: ", " and more (*more), or the closing character.
 * Inline: it follows every value of every step. */
static inline int lg_yf_flow_next(struct fast *f, char close, bool *more)
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
/* The rest of the line: spaces, maybe a comment after a space, then '\n' or the end.
 * Inline: it ends every step read flat. */
static inline int lg_yf_line_end(struct fast *f)
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
int lg_yf_next_content(struct fast *f, long *indent);
/* One item of a block list, after "- ", pushed on f->kids. */
int lg_yf_item(struct fast *f);

#endif
