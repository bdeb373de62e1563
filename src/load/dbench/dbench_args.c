/* The arguments of a dbench loadfile line, with the messages for what is wrong with
 * them: numbers, paths (converted once, then found in a map by their text), FIND_FIRST
 * patterns, and the handles a line opens or uses (checked against what is open at that
 * point of the file). The lexing is in dbench_parse.c; the ops in dbench_load.c. */
#include "dbench_args.h"
#include "loadgen/model/errf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbench_names.h"

int lg_dbench_fail(struct dctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->err || !c->errlen)
		return -EINVAL;
	n = snprintf(c->err, c->errlen, "%s:%u: ", c->fname, c->line);
	va_start(ap, fmt);
	lg_verrf(c->err, c->errlen, n > 0 ? (size_t)n : 0, -EINVAL, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int lg_dbench_nomem(struct dctx *c)
{
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "%s: out of memory", c->fname);
	return -ENOMEM;
}

/* A field quoted in a message is cut to SHOWN bytes and "...": a 1 MB path in a
 * hostile loadfile still gives a one-line message. */
#define SHOWN 64
static int shown(size_t len) { return len < SHOWN ? (int)len : SHOWN; }
static const char *more(size_t len) { return len > SHOWN ? "..." : ""; }

int lg_dbench_number_fail(struct dctx *c, const char *tok, size_t len, const char *what,
			  int rc)
{
	if (rc == -ENOTSUP)
		return lg_dbench_fail(c, "%s '%.*s%s': dbench's random and relative arguments "
				      "('*', '+') are not supported", what, shown(len), tok,
				      more(len));
	return lg_dbench_fail(c, "%s '%.*s%s' is not a number%s", what, shown(len), tok, more(len),
			      len && *tok == '-' ? " (negative)" :
			      rc == -ERANGE ? " (more than 64 bits)" : "");
}

static int too_long(struct dctx *c, const char *tok, size_t len)
{
	return lg_dbench_fail(c, "path '%.*s%s' is %zu bytes long (at most %d)", shown(len), tok,
			      more(len), len, LG_DBENCH_MAX_PATH);
}

/* The field tok (len bytes, at most LG_DBENCH_MAX_PATH) as a C string in z. */
static const char *cstring(const char *tok, size_t len, char z[LG_DBENCH_MAX_PATH + 1])
{
	memcpy(z, tok, len);
	z[len] = '\0';
	return z;
}

/* Path field tok: its path index, from the map when seen before. */
int lg_dbench_arg_path(struct dctx *c, const char *tok, size_t len, uint32_t *index)
{
	uint64_t h = lg_dbench_hash(tok, len);
	char z[LG_DBENCH_MAX_PATH + 1];
	uint32_t v[2];
	const char *why;

	if (!lg_dbench_map_get(&c->paths, tok, len, h, v)) {
		*index = v[0];
		return 0;
	}
	if (len > LG_DBENCH_MAX_PATH)
		return too_long(c, tok, len);
	if (lg_dbench_path(cstring(tok, len, z), c->path, sizeof(c->path), &why))
		return lg_dbench_fail(c, "path '%.*s%s': %s", shown(len), tok, more(len), why);
	if (lg_workload_path(c->wl, c->path, index))
		return lg_dbench_nomem(c);
	v[0] = v[1] = *index;
	return lg_dbench_map_put(&c->paths, tok, len, h, v) ? lg_dbench_nomem(c) : 0;
}

/* FIND_FIRST's path: a directory and a pattern (path2) when its last component has
 * a wildcard, else the path to stat. A pattern in the run directory itself has no
 * directory path (LG_NO_SLOT). */
static int find_convert(struct dctx *c, const char *tok, size_t len, struct lg_op *op)
{
	char dir[2 * LG_DBENCH_MAX_PATH + 2], pat[2 * LG_DBENCH_MAX_PATH + 2];
	char z[LG_DBENCH_MAX_PATH + 1];
	int rc = 0;

	if (len > LG_DBENCH_MAX_PATH)
		return too_long(c, tok, len);
	if (!lg_dbench_wildcard(cstring(tok, len, z), dir, pat))
		return lg_dbench_arg_path(c, tok, len, &op->path);
	if (dir[strspn(dir, "/\\")])
		rc = lg_dbench_arg_path(c, dir, strlen(dir), &op->path);
	if (!rc && strstr(pat, "${"))
		return lg_dbench_fail(c, "path '%s': contains '${', which loadgen reserves for its "
			    "placeholders", z);
	if (!rc && lg_workload_path(c->wl, pat, &op->path2))
		return lg_dbench_nomem(c);
	return rc;
}

/* find_convert, remembered per field. */
int lg_dbench_arg_find(struct dctx *c, const char *tok, size_t len, struct lg_op *op)
{
	uint64_t h = lg_dbench_hash(tok, len);
	uint32_t v[2];
	int rc;

	if (!lg_dbench_map_get(&c->finds, tok, len, h, v)) {
		op->path = v[0];
		op->path2 = v[1];
		return 0;
	}
	if ((rc = find_convert(c, tok, len, op)))
		return rc;
	v[0] = op->path;
	v[1] = op->path2;
	return lg_dbench_map_put(&c->finds, tok, len, h, v) ? lg_dbench_nomem(c) : 0;
}

/* Mark slot open or closed; grows the table to the workload's slots. */
int lg_dbench_flags_room(struct dctx *c, uint8_t **a, size_t *n, size_t i, size_t want)
{
	size_t cap = (want > i ? want : i + 1) * 2;
	uint8_t *g;

	if (i < *n)
		return 0;
	if (!(g = realloc(*a, cap)))
		return lg_dbench_nomem(c);
	memset(g + *n, 0, cap - *n);
	*a = g;
	*n = cap;
	return 0;
}

int lg_dbench_set_open(struct dctx *c, uint32_t slot, bool open)
{
	int rc = lg_dbench_flags_room(c, &c->open, &c->nopen, slot, c->wl->nslots);

	if (!rc)
		c->open[slot] = open;
	return rc;
}

/* A handle an op uses: it must be open at this point of the file. */
int lg_dbench_arg_handle(struct dctx *c, const char *tok, size_t len, uint32_t *slot)
{
	uint64_t h;
	uint32_t v[1];
	int rc = lg_dbench_arg_number(c, tok, len, "handle", &h);

	if (rc)
		return rc;
	if (c->last_slot != LG_NO_SLOT && h == c->last_handle)
		v[0] = c->last_slot;
	else if (lg_dbench_map_get_num(&c->handles, h, v))
		return lg_dbench_fail(c, "handle %llu used before it is opened",
				      (unsigned long long)h);
	*slot = c->last_slot = v[0];
	c->last_handle = h;
	if (*slot >= c->nopen || !c->open[*slot])
		return lg_dbench_fail(c, "handle %llu used after it is closed",
				      (unsigned long long)h);
	return 0;
}

/* The handle NTCreateX opens. bind: the open is expected to succeed, so later lines
 * use the handle; otherwise the op binds no slot. A handle's slot is named by its
 * number, and found by the number once made. */
int lg_dbench_arg_open_handle(struct dctx *c, const char *tok, size_t len, bool bind,
			      uint32_t *slot)
{
	char name[24];
	uint64_t h;
	int rc = lg_dbench_arg_number(c, tok, len, "handle", &h);

	*slot = LG_NO_SLOT;
	if (rc || !bind)
		return rc;
	if (!lg_dbench_map_get_num(&c->handles, h, slot))
		return lg_dbench_set_open(c, *slot, true);
	snprintf(name, sizeof(name), "%llu", (unsigned long long)h);
	if (lg_workload_slot(c->wl, name, slot))
		return lg_dbench_nomem(c);
	if (lg_dbench_map_put_num(&c->handles, h, *slot))
		return lg_dbench_nomem(c);
	return lg_dbench_set_open(c, *slot, true);
}

/* Split the line at p into c->fields (lg_dbench_split, or lg_dbench_split_copy when
 * it must), growing the scratch buffer to the line; *eol: the line's end. */
int lg_dbench_tokenize(struct dctx *c, const char *p, const char *end, const char **eol)
{
	int rc = lg_dbench_split(p, end, &c->fields, eol);
	size_t need = (size_t)(*eol - p) + LG_DBENCH_MAX_FIELDS + 1;

	if (need > c->cap) {
		char *s = realloc(c->scratch, need * 2);

		if (!s)
			return lg_dbench_nomem(c);
		c->scratch = s;
		c->cap = need * 2;
	}
	if (rc == LG_DBENCH_SPLIT_COPY)
		rc = lg_dbench_split_copy(p, *eol, c->scratch, &c->fields);
	if (rc == -E2BIG)
		return lg_dbench_fail(c, "more than %d fields", LG_DBENCH_MAX_FIELDS);
	return rc ? lg_dbench_fail(c, "NUL byte in the line") : 0;
}

void lg_dbench_cstrings(struct dctx *c)
{
	lg_dbench_terminate(&c->fields, c->scratch);
}
