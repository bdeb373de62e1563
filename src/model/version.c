/* Version order, run by run.
 *
 * A label is a sequence of runs, each a number (digits) or text (anything else). Two
 * labels compare as their run sequences, lexicographically, the shorter one padded with
 * an "end" run, under one total order on runs: pre-release text < end < number < other
 * text; numbers by value, text by bytes. A lexicographic order over a total order of
 * runs is itself total and transitive; only labels whose runs are all equal (leading
 * zeros) are left, and strcmp settles those. */
#include "loadgen/model/version.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* The kinds of run, in their order. */
enum run_kind { RUN_PRE, RUN_END, RUN_NUM, RUN_TEXT };

/* One run of a label. */
struct run {
	enum run_kind kind;
	const char *s; /* its first byte (for a number, after its leading zeros) */
	size_t len;    /* its bytes (for a number, without leading zeros) */
};

/* "-rc", ".rc", "_rc" or "rc" (the text before a release candidate's number), or a
 * run starting with '~' */
static bool is_pre(const char *s, size_t len)
{
	if (len && s[0] == '~')
		return true;
	if (len == 3 && strchr("-._", s[0]))
		s++, len--;
	return len == 2 && tolower((unsigned char)s[0]) == 'r' &&
	       tolower((unsigned char)s[1]) == 'c';
}

/* The run starting at *p, advancing *p past it. */
static struct run next_run(const char **p)
{
	const char *s = *p;
	struct run r = { .kind = RUN_END, .s = s };

	if (!*s)
		return r;
	if (isdigit((unsigned char)*s)) {
		while (*s == '0' && isdigit((unsigned char)s[1]))
			s++;
		r.kind = RUN_NUM;
		r.s = s;
		while (isdigit((unsigned char)*s))
			s++;
	} else {
		while (*s && !isdigit((unsigned char)*s))
			s++;
		r.kind = is_pre(r.s, (size_t)(s - r.s)) ? RUN_PRE : RUN_TEXT;
	}
	r.len = (size_t)(s - r.s);
	*p = s;
	return r;
}

static int cmp_run(const struct run *a, const struct run *b)
{
	int c;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == RUN_END)
		return 0;
	/* numbers without leading zeros: the longer is larger, else byte by byte */
	if (a->kind == RUN_NUM && a->len != b->len)
		return a->len < b->len ? -1 : 1;
	c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
	if (c)
		return c < 0 ? -1 : 1;
	return (a->len > b->len) - (a->len < b->len);
}

int lg_version_cmp(const char *a, const char *b)
{
	const char *pa = a, *pb = b;

	if (!a || !b)
		return (a != NULL) - (b != NULL);
	for (;;) {
		struct run ra = next_run(&pa), rb = next_run(&pb);
		int c = cmp_run(&ra, &rb);

		if (c)
			return c;
		if (ra.kind == RUN_END)
			break;
	}
	return strcmp(a, b);
}
