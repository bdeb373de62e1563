/* Explicit YAML tags on a workload's nodes.
 *
 * A workload never needs a tag: every value is read by what its key expects. A tag is
 * still fine where it restates what the node is, so YAML written by other tools (or by
 * a careful user) loads: a standard tag of the core schema (tag:yaml.org,2002:str, int,
 * float, bool, null, map, seq; written !!str ...) is accepted exactly when it matches the
 * node, and refused with the reason when it does not (`!!int a`, `!!map a`): a tag that
 * says one thing while the loader reads another would be a silent lie. The scalar forms
 * are those of the YAML 1.2 core schema. The non-specific tag "!" only says "not
 * resolved by content" (a string, for a scalar) and fits any node. Every other tag
 * (!!binary, !!timestamp, !!python/object, !local) is refused as unsupported: nothing in
 * a workload is of those types. */
#include "yaml_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define STD_PREFIX "tag:yaml.org,2002:" /* the standard tags' prefix, "!!" in YAML text */

/* What a standard tag names. */
enum tag_type { T_STR, T_INT, T_FLOAT, T_BOOL, T_NULL, T_MAP, T_SEQ, T_NONE };

static const char *const type_names[T_NONE] = {
	[T_STR] = "str",     [T_INT] = "int", [T_FLOAT] = "float", [T_BOOL] = "bool",
	[T_NULL] = "null",   [T_MAP] = "map", [T_SEQ] = "seq",
};

/* What the tag fits: "a string" ... for messages. */
static const char *const type_what[T_NONE] = {
	[T_STR] = "a string",   [T_INT] = "an integer", [T_FLOAT] = "a number",
	[T_BOOL] = "a boolean", [T_NULL] = "null",      [T_MAP] = "a mapping",
	[T_SEQ] = "a sequence",
};

/* Is s one of the NULL-terminated words? */
static bool is_word(const char *s, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

#define DEC "0123456789"

/* Core schema int: [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+ */
static bool is_int(const char *s)
{
	if (!strncmp(s, "0o", 2) && s[2])
		return !s[2 + strspn(s + 2, "01234567")];
	if (!strncmp(s, "0x", 2) && s[2])
		return !s[2 + strspn(s + 2, DEC "abcdefABCDEF")];
	s += *s == '-' || *s == '+';
	return *s && !s[strspn(s, DEC)];
}

/* Core schema float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, [-+]?.inf, .nan
 * (an integer is a float too). */
static bool is_float(const char *s)
{
	static const char *const special[] = { ".inf", ".Inf", ".INF", NULL };
	static const char *const nan[] = { ".nan", ".NaN", ".NAN", NULL };
	size_t whole, frac = 0;

	if (is_word(s, nan))
		return true;
	s += *s == '-' || *s == '+';
	if (is_word(s, special))
		return true;
	whole = strspn(s, DEC);
	s += whole;
	if (*s == '.') {
		frac = strspn(s + 1, DEC);
		s += 1 + frac;
	}
	if (!whole && !frac)
		return false;
	if (*s == 'e' || *s == 'E') {
		s += 1 + (s[1] == '-' || s[1] == '+');
		if (!strspn(s, DEC))
			return false;
		s += strspn(s, DEC);
	}
	return !*s;
}

/* Does scalar text (plain: written without quotes) fit type? */
static bool scalar_fits(enum tag_type type, const char *text)
{
	static const char *const bools[] = { "true", "True", "TRUE", "false", "False", "FALSE",
					     NULL };
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };

	switch (type) {
	case T_STR:
		return true;
	case T_INT:
		return is_int(text);
	case T_FLOAT:
		return is_float(text);
	case T_BOOL:
		return is_word(text, bools);
	case T_NULL:
		return is_word(text, nulls);
	default:
		return false;
	}
}

/* The standard type tag names, T_NONE for any other tag. */
static enum tag_type std_type(const char *tag)
{
	if (strncmp(tag, STD_PREFIX, strlen(STD_PREFIX)))
		return T_NONE;
	tag += strlen(STD_PREFIX);
	for (int t = 0; t < T_NONE; t++)
		if (!strcmp(tag, type_names[t]))
			return (enum tag_type)t;
	return T_NONE;
}

/* The kind of node a type fits. */
static enum lg_ynode_kind type_kind(enum tag_type type)
{
	return type == T_MAP ? LG_YMAP : type == T_SEQ ? LG_YSEQ : LG_YSCALAR;
}

int lg_ytag_check(const char *tag, enum lg_ynode_kind kind, const char *text, bool *str,
		  char *why, size_t whylen)
{
	static const char *const kinds[] = { [LG_YSCALAR] = "a scalar", [LG_YSEQ] = "a sequence",
					     [LG_YMAP] = "a mapping" };
	const char *shown = tag;
	enum tag_type type;
	char as[64];

	*str = false;
	if (!tag)
		return 0;
	if (!strncmp(tag, STD_PREFIX, strlen(STD_PREFIX))) { /* as the user wrote it */
		snprintf(as, sizeof(as), "!!%s", tag + strlen(STD_PREFIX));
		shown = as;
	}
	if (!strcmp(tag, "!")) { /* non-specific: fits anything, a scalar is a string */
		*str = kind == LG_YSCALAR;
		return 0;
	}
	type = std_type(tag);
	if (type == T_NONE) {
		snprintf(why, whylen, "unsupported YAML tag '%s' (loadgen takes !!str, !!int, "
			 "!!float, !!bool, !!null, !!map and !!seq where they match the value)",
			 shown);
		return -EINVAL;
	}
	if (type_kind(type) != kind) {
		snprintf(why, whylen, "YAML tag '%s' on %s; it fits %s only", shown, kinds[kind],
			 type_what[type]);
		return -EINVAL;
	}
	if (kind == LG_YSCALAR && !scalar_fits(type, text)) {
		snprintf(why, whylen, "YAML tag '%s' on '%.40s%s', which is not %s", shown, text,
			 strlen(text) > 40 ? "..." : "", type_what[type]);
		return -EINVAL;
	}
	*str = type == T_STR;
	return 0;
}
