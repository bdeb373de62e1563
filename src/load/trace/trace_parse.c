/* One call of an strace trace, as strace 6 writes it with -y and -T:
 *
 *     openat(AT_FDCWD</d>, "b", O_WRONLY|O_CREAT, 0666) = 3</d/b> <0.000164>
 *     read(3</d/a>, "x\n"..., 4096) = 2 <0.000011>
 *     unlink("gone") = -1 ENOENT (No such file or directory) <0.000014>
 *
 * The arguments are split at the commas of the top level: strings (with escapes and a
 * "..." when cut), structs {...}, arrays [...], decoded fds 3</path> and comments are
 * skipped whole. Only the few arguments the converter reads are interpreted, lazily
 * (tr_num, tr_has, tr_str). The PID and time columns are the caller's (trace.c). */
#include "trace_priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Skip a string starting at s ('"'), and a "..." after it. NULL if unterminated. */
static const char *skip_string(const char *s)
{
	for (s++; *s && *s != '"'; s++)
		if (*s == '\\' && s[1])
			s++;
	if (!*s)
		return NULL;
	s++;
	if (!strncmp(s, "...", 3))
		s += 3;
	return s;
}

/* Skip a decoded path "<...>" starting at s ('<'), nested <> included (-yy). */
static const char *skip_decoded(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '\\' && s[1])
			s++;
		else if (*s == '<')
			depth++;
		else if (*s == '>' && --depth == 0)
			return s + 1;
	}
	return NULL;
}

static bool starts_decoded(const char *start, const char *s)
{
	return s > start && (isdigit((unsigned char)s[-1]) ||
			     (s - start >= 8 && !strncmp(s - 8, "AT_FDCWD", 8)));
}

/* Record the argument s..e (trimmed), with its decoded path if it is an fd. */
static void add_arg(struct tr_call *k, const char *s, const char *e)
{
	struct tr_arg *a;
	const char *lt;

	while (s < e && *s == ' ')
		s++;
	while (e > s && e[-1] == ' ')
		e--;
	if (k->na == TR_MAXARGS || s == e)
		return;
	a = &k->a[k->na++];
	a->s = s;
	a->n = (size_t)(e - s);
	a->dec = NULL;
	a->decn = 0;
	lt = memchr(s, '<', a->n);
	if (lt && e[-1] == '>' && starts_decoded(s, lt) && *s != '"') {
		a->dec = lt + 1;
		a->decn = (size_t)(e - 1 - a->dec);
	}
}

/* Split the arguments after '(' up to the matching ')'; the ')' or NULL. */
static const char *split_args(const char *p, struct tr_call *k, const char **why)
{
	const char *start = p;
	int depth = 0;

	for (;;) {
		const char *q = p;

		if (!*p) {
			*why = "the call's arguments do not end (a truncated line?)";
			return NULL;
		}
		if (*p == '"')
			q = skip_string(p);
		else if (*p == '<' && starts_decoded(start, p))
			q = skip_decoded(p);
		else if (p[0] == '/' && p[1] == '*')
			q = (q = strstr(p + 2, "*/")) ? q + 2 : NULL;
		else if (strchr("([{", *p))
			depth++, q = p + 1;
		else if (strchr(")]}", *p) && depth)
			depth--, q = p + 1;
		else if (*p == ')' || (*p == ',' && !depth))
			q = NULL;
		else
			q = p + 1;
		if (q) {
			p = q;
			continue;
		}
		if (*p != ')' && *p != ',') {
			*why = "a string, comment or decoded path does not end";
			return NULL;
		}
		add_arg(k, start, p);
		if (*p == ')')
			return p;
		start = ++p;
	}
}

/* The "<0.000164>" at the end of the line, in ns; false if there is none. */
static bool duration(const char *s, size_t len, uint64_t *ns)
{
	const char *lt, *e = s + len;
	char *end;
	double v;

	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (e == s || e[-1] != '>')
		return false;
	for (lt = e - 1; lt > s && *lt != '<'; lt--)
		;
	if (*lt != '<' || !isdigit((unsigned char)lt[1]))
		return false;
	v = strtod(lt + 1, &end);
	if (end != e - 1 || !(v >= 0 && v < 1e9)) /* and not a NaN */
		return false;
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return true;
}

/* The result after "= ": "?", "3</p>", "-1 ENOENT (...)", "0x1f". */
static void result(const char *p, struct tr_call *k)
{
	char *end;

	if (*p == '?')
		return;
	k->ret = strtoll(p, &end, 0);
	if (end == p)
		return;
	k->has_ret = true;
	p = end;
	if (*p == '<' && (end = (char *)skip_decoded(p))) {
		k->retdec = p + 1;
		k->retdecn = (size_t)(end - 1 - k->retdec);
		p = end;
	}
	while (*p == ' ')
		p++;
	if (k->ret < 0 && p[0] == 'E') {
		size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

		if (n < sizeof(k->errname)) {
			memcpy(k->errname, p, n);
			k->errname[n] = '\0';
		}
	}
}

int tr_parse_call(const char *s, struct tr_call *k, size_t *col, const char **why)
{
	const char *p = s, *close;
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");

	memset(k->a, 0, sizeof(k->a));
	k->na = 0;
	k->has_ret = false;
	k->ret = 0;
	k->retdec = NULL;
	k->err = 0;
	k->errname[0] = '\0';
	if (!n || n >= sizeof(k->name) || s[n] != '(') {
		*col = 0;
		*why = "expected a call such as 'openat(...) = 3'";
		return -EINVAL;
	}
	memcpy(k->name, s, n);
	k->name[n] = '\0';
	if (!(close = split_args(s + n + 1, k, why))) {
		*col = strlen(s);
		return -EINVAL;
	}
	for (p = close + 1; *p == ' '; p++)
		;
	if (*p != '=') {
		*col = (size_t)(p - s);
		*why = "expected ' = ' and the result after the call's arguments";
		return -EINVAL;
	}
	for (p++; *p == ' '; p++)
		;
	result(p, k);
	if (k->errname[0])
		k->err = 1; /* the caller maps the name */
	if (!duration(p, strlen(p), &k->dur_ns)) {
		if (*p == '?') { /* exit_group, or a call cut short by the end of the process */
			k->dur_ns = 0;
			return 0;
		}
		*col = strlen(s);
		*why = "no call duration '<0.000011>' at the end of the line (strace -T)";
		return -EINVAL;
	}
	return 0;
}

bool tr_num(const struct tr_arg *a, long long *v)
{
	char *end;

	if (!a || !a->n)
		return false;
	if (a->n >= 8 && !strncmp(a->s, "AT_FDCWD", 8)) {
		*v = -100;
		return true;
	}
	*v = strtoll(a->s, &end, 0);
	return end != a->s && (end == a->s + a->n || *end == '<');
}

bool tr_has(const struct tr_arg *a, const char *w)
{
	size_t wl = strlen(w);

	if (!a)
		return false;
	for (const char *p = a->s, *e = a->s + a->n; p < e;) {
		size_t n = strcspn(p, "|,{}=() ");

		if (p + n > e)
			n = (size_t)(e - p);
		if (n == wl && !memcmp(p, w, wl))
			return true;
		p += n + 1;
	}
	return false;
}

static int hexval(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10);
}

bool tr_str(const char *s, size_t n, char *out, size_t outlen)
{
	const char *e = s + n;
	size_t o = 0;
	bool quoted = n && *s == '"';

	if (quoted) {
		if (n < 2 || e[-1] != '"') /* cut short by strace -s: "..."... */
			return false;
		s++, e--;
	}
	for (; s < e; s++) {
		char c = *s;

		if (c == '\\' && s + 1 < e) {
			c = *++s;
			if (c == 'n') c = '\n';
			else if (c == 't') c = '\t';
			else if (c == 'r') c = '\r';
			else if (c == 'v') c = '\v';
			else if (c == 'f') c = '\f';
			else if (c == 'x' && s + 2 < e && isxdigit((unsigned char)s[1]) &&
				 isxdigit((unsigned char)s[2])) {
				c = (char)(hexval(s[1]) * 16 + hexval(s[2]));
				s += 2;
			} else if (c >= '0' && c <= '7') {
				int v = c - '0';

				for (int i = 0; i < 2 && s + 1 < e && s[1] >= '0' && s[1] <= '7'; i++)
					v = v * 8 + (*++s - '0');
				c = (char)v;
			}
		}
		if (o + 1 >= outlen)
			return false;
		out[o++] = c;
	}
	out[o] = '\0';
	return true;
}
