/* YAML scalars: parameter substitution, then conversion to strings, sizes, counts,
 * durations, expected results, labels and file slots, with file:line:col errors.
 *
 * Parameters are plain text substituted into values before they are converted, so a
 * "${bs}" works anywhere a literal would. Their values are literal: a value holding
 * "${" is refused rather than expanded again, which keeps substitution one pass, free of
 * cycles, and makes "what you pass with -p is what the op gets" true. */
#include "yaml_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/errnames.h"
#include "loadgen/model/units.h"

#define MAX_LABEL 64 /* bytes in a stats label: keeps report columns sane */

/* Append len bytes of s to c->buf at *o, growing it. */
static int buf_put(struct lg_yctx *c, size_t *o, const char *s, size_t len)
{
	if (*o + len + 1 > c->cap) {
		size_t ncap = c->cap ? c->cap : 64;
		char *nb;

		while (ncap < *o + len + 1)
			ncap *= 2;
		nb = realloc(c->buf, ncap);
		if (!nb)
			return lg_ynomem(c);
		c->buf = nb;
		c->cap = ncap;
	}
	memcpy(c->buf + *o, s, len);
	*o += len;
	c->buf[*o] = '\0';
	return 0;
}

/* The value of parameter name (len bytes), built-in or declared, or NULL. A declared
 * one notes its first use: key what, kind path or text (convert() sharpens it). */
static const char *param_value(struct lg_yctx *c, const char *name, size_t len,
			       const char *what, bool path)
{
	if (len == 7 && !strncmp(name, "clients", 7))
		return c->clients;
	for (size_t i = 0; i < c->nparams; i++) {
		struct lg_yparam *p = &c->params[i];

		if (strlen(p->name) != len || strncmp(p->name, name, len) != 0)
			continue;
		if (!p->key) {
			p->key = what;
			p->kind = path ? "path" : "text";
		}
		return p->value;
	}
	return NULL;
}

/* The parameter that is the whole of scalar n ("${bs}", not "${n}ms") now known to be of
 * kind (for lg_yaml_describe). One that is only part of a value stays "text" or "path":
 * in "${n}ms" n is not a duration, and -p n=10ms would make the value "10msms". */
static void note_kind(struct lg_yctx *c, const struct lg_ynode *n, const char *kind)
{
	size_t len;

	if (!c->nparams || strncmp(n->text, "${", 2) != 0)
		return;
	len = strcspn(n->text + 2, "}");
	if (n->text[2 + len] != '}' || n->text[3 + len] != '\0')
		return;
	for (size_t i = 0; i < c->nparams; i++)
		if (strlen(c->params[i].name) == len &&
		    !strncmp(c->params[i].name, n->text + 2, len) &&
		    (!c->params[i].kind || !strcmp(c->params[i].kind, "text")))
			c->params[i].kind = kind;
}

/* ${name} (len bytes) in scalar n, which is no parameter: fine if it names a variable
 * picked earlier and n is a path. */
static int var_ref(struct lg_yctx *c, const struct lg_ynode *n, const char *what, bool path,
		   const char *name, size_t len)
{
	uint16_t var;

	if (lg_workload_find_var(c->wl, name, len, &var) != 0)
		return lg_yfail(c, n, "undefined parameter '${%.*s}'%s", (int)len, name,
				path ? " (nor a variable set by an earlier 'pick')" : "");
	if (!path)
		return lg_yfail(c, n, "variable '${%.*s}' can only be used in paths "
				"(in '%s': '%s')", (int)len, name, what, n->text);
	return 0;
}

int lg_ystring_expand(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		      bool path, const char **out)
{
	const char *s;
	size_t o = 0;
	int rc;

	if (n->kind != LG_YSCALAR)
		return lg_yfail(c, n, "'%s' must be a scalar, not %s", what, lg_ykind_name(n));
	if (n->literal || !strchr(n->text, '$')) { /* nothing to expand: most values */
		*out = n->text;
		return 0;
	}
	rc = buf_put(c, &o, "", 0);
	for (s = n->text; !rc && *s;) {
		const char *end, *val;
		size_t len = strcspn(s, "$"), vlen;

		rc = buf_put(c, &o, s, len);
		s += len;
		if (rc || !*s)
			break;
		if (s[1] != '{') {
			rc = buf_put(c, &o, s++, 1);
			continue;
		}
		end = strchr(s + 2, '}');
		if (!end)
			return lg_yfail(c, n, "unterminated '${' in '%s'", n->text);
		len = (size_t)(end - (s + 2));
		if ((len == 6 && !strncmp(s + 2, "client", 6)) ||
		    (len == 4 && !strncmp(s + 2, "peer", 4))) {
			if (!path)
				return lg_yfail(c, n, "${%.*s} can only be used in paths "
						"(in '%s': '%s')", (int)len, s + 2, what, n->text);
			val = len == 6 ? LG_CLIENT_PLACEHOLDER : LG_PEER_PLACEHOLDER;
		} else if (!(val = param_value(c, s + 2, len, what, path))) {
			if ((rc = var_ref(c, n, what, path, s + 2, len)))
				return rc;
			val = s; /* a variable: kept as it is, for lg_ypath */
		}
		vlen = val == s ? len + 3 : strlen(val);
		rc = buf_put(c, &o, val, vlen);
		s = end + 1;
	}
	if (!rc)
		*out = c->buf;
	return rc;
}

/* Convert scalar n with parse (a units.h parser); kind names the value in messages. */
static int convert(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		   const char *kind, int (*parse)(const char *, uint64_t *, const char **),
		   uint64_t *out)
{
	const char *s, *why = "";
	char hint[160];
	int rc = lg_ystring(c, n, what, false, &s);

	if (rc)
		return rc;
	if (parse(s, out, &why) == 0) {
		note_kind(c, n, kind);
		return 0;
	}
	hint[0] = '\0';
	if (parse != lg_parse_count && lg_units_hint(s, parse == lg_parse_duration, hint + 2,
						      sizeof(hint) - 2) == 0)
		memcpy(hint, "; ", 2);
	if (strcmp(s, n->text) != 0)
		return lg_yfail(c, n, "bad %s '%s' (from '%s') for '%s': %s%s", kind, s, n->text,
				what, why, hint);
	return lg_yfail(c, n, "bad %s '%s' for '%s': %s%s", kind, s, what, why, hint);
}

int lg_ysize_units(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		   uint64_t *out)
{
	return convert(c, n, what, "size", lg_parse_size, out);
}

int lg_ycount(struct lg_yctx *c, const struct lg_ynode *n, const char *what, uint64_t *out)
{
	return convert(c, n, what, "number", lg_parse_count, out);
}

int lg_yduration(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 uint64_t *out)
{
	return convert(c, n, what, "duration", lg_parse_duration, out);
}

/* Scalar n as a non-empty slot name. */
static inline int slot_name(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
			    const char **out)
{
	int rc = lg_ystring(c, n, what, false, out);

	if (!rc && !**out)
		return lg_yfail(c, n, "'%s' must name a file, not be empty", what);
	return rc;
}

int lg_yslot_use(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 uint32_t *index)
{
	const char *s;
	int rc = slot_name(c, n, what, &s);

	if (rc)
		return rc;
	/* consecutive steps mostly use one file: a slot found stays found (slots are
	 * never removed), so the last one found is kept by name */
	if (!strcmp(s, c->last_slot)) {
		*index = c->last_slot_index;
		return 0;
	}
	/* in streams, a thread may use a file its sibling opens, later in the file:
	 * yaml_streams.c checks that some step opens it once all are compiled */
	if (c->streams && lg_workload_find_slot(c->wl, s, index) &&
	    lg_workload_slot(c->wl, s, index))
		return lg_ynomem(c);
	if (lg_workload_find_slot(c->wl, s, index))
		return lg_yfail(c, n, "file '%s' used before it is opened "
				"(no earlier open or create has 'as: %s')", s, s);
	if (strlen(s) < sizeof(c->last_slot)) {
		strcpy(c->last_slot, s);
		c->last_slot_index = *index;
	}
	return 0;
}

int lg_yslot_bind(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		  uint32_t *index)
{
	const char *s;
	int rc = slot_name(c, n, what, &s);

	if (rc)
		return rc;
	if (lg_workload_slot(c->wl, s, index))
		return lg_ynomem(c);
	return lg_yreopen_check(c, n, *index);
}

int lg_yexpect(struct lg_yctx *c, const struct lg_ynode *n, int32_t *out)
{
	const char *s;
	int e, rc = lg_ystring(c, n, "expect", false, &s);

	if (rc)
		return rc;
	if (!strcmp(s, "ok") || !strcmp(s, "OK")) {
		*out = LG_EXPECT_OK;
		return 0;
	}
	if (!strcmp(s, "any")) {
		*out = LG_EXPECT_ANY;
		return 0;
	}
	e = lg_errno_value(s);
	if (e <= 0) {
		char hint[64];

		return lg_yfail(c, n, "unknown expect '%s'%s (use ok, any or an errno name "
				"such as ENOENT)", s, lg_errno_hint(s, hint, sizeof(hint)));
	}
	*out = e;
	return 0;
}

int lg_ylabel(struct lg_yctx *c, const struct lg_ynode *n, const struct lg_ynode *at,
	      const char *name, uint16_t *type)
{
	const char *s = name;
	int rc = n ? lg_ystring(c, n, "label", false, &s) : 0;
	struct lg_ylabel_memo *memo;

	if (rc)
		return rc;
	memo = &c->labels[((unsigned char)s[0] + 7 * strlen(s)) % LG_YLABEL_MEMO];
	if (*s && !strcmp(s, memo->name)) { /* a label seen before: its type (never changes) */
		*type = memo->type;
		return 0;
	}
	if (!*s || strlen(s) > MAX_LABEL)
		return lg_yfail(c, n ? n : at, "'label' must have 1 to %d characters", MAX_LABEL);
	rc = lg_workload_type(c->wl, s, type);
	if (rc == -E2BIG)
		return lg_yfail(c, n ? n : at, "too many different labels");
	if (rc)
		return lg_ynomem(c);
	if (strlen(s) < sizeof(memo->name)) {
		strcpy(memo->name, s);
		memo->type = *type;
	}
	return 0;
}

