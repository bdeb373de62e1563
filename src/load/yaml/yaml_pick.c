/* YAML file sets: the pick step, and paths that use the variable it sets.
 *
 *   - pick: {var: k, count: "${nfiles}", order: seq}
 *   - open: {path: "d/f${k}", as: f}
 *
 * The path is a template: the loader writes it out once as count consecutive paths
 * (d/f0 ... d/fN-1) and the op keeps the first index and the variable, so a client
 * finds its file as paths[path + value] without formatting anything while it runs.
 * For that to be safe every value must lie inside every set of the variable, hence one
 * count per variable, and a variable must be picked (textually) before a path uses it:
 * only then is it known here. Before its first pick at run time a variable holds
 * count - 1, so that the first sequential pick gives 0. A shuffling pick needs a
 * permutation per client (count values): the variable records that it needs one. */
#include "yaml_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#define MAX_VAR_NAME 64 /* bytes in a variable name, as for a label */
#define MAX_PATH_TEMPLATE 2048 /* leaves room in PATH_MAX for client ids and the run dir */
#define LG_YPATH_MEMO 4096     /* entries of the memo of compiled paths (a power of 2) */

static const char ident_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

/* The name of the variable in 'var' (n), checked, into buf. */
static int var_name(struct lg_yctx *c, const struct lg_ynode *n, char *buf, size_t len)
{
	const char *s;
	int rc = lg_ystring(c, n, "var", false, &s);

	if (rc)
		return rc;
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_') ||
	    s[strspn(s, ident_chars)] || strlen(s) > MAX_VAR_NAME)
		return lg_yfail(c, n, "bad variable name '%s' (1 to %d letters, digits and '_', "
				"not starting with a digit)", s, MAX_VAR_NAME);
	if (!strcmp(s, "client") || !strcmp(s, "clients") || !strcmp(s, "peer"))
		return lg_yfail(c, n, "'%s' is built in and cannot be a variable", s);
	for (size_t i = 0; i < c->nparams; i++)
		if (!strcmp(c->params[i].name, s))
			return lg_yfail(c, n, "variable '%s' has the name of a parameter", s);
	snprintf(buf, len, "%s", s);
	return 0;
}

/* The 'order' value (n, may be NULL: random) into *order. */
static int pick_order(struct lg_yctx *c, const struct lg_ynode *n, int32_t *order)
{
	char hint[64];
	const char *s;
	int rc;

	*order = LG_PICK_RANDOM;
	if (!n)
		return 0;
	rc = lg_ystring(c, n, "order", false, &s);
	if (rc)
		return rc;
	for (int32_t o = 0; o <= LG_PICK_SHUFFLE; o++) {
		if (!strcmp(s, lg_ypick_orders[o])) {
			*order = o;
			return 0;
		}
	}
	return lg_yfail(c, n, "unknown order '%s'%s (expected random, seq or shuffle)", s,
			lg_yhint(s, lg_ypick_orders, LG_PICK_SHUFFLE + 1, hint, sizeof(hint)));
}

int lg_ycompile_pick(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
		     const struct lg_ynode *val)
{
	static const char *const keys[] = { "var", "count", "order", NULL };
	const struct lg_ynode *v[3];
	struct lg_op op = { .kind = LG_OP_PICK, .slot = LG_NO_SLOT, .path = LG_NO_SLOT,
			    .path2 = LG_NO_SLOT, .line = line, .align = 1 };
	char name[MAX_VAR_NAME + 1];
	uint16_t var;
	int rc;

	if (val->kind != LG_YMAP)
		return lg_yfail(c, val, "'pick' takes a mapping {var: NAME, count: N, "
				"order: random|seq|shuffle}, not %s", lg_ykind_name(val));
	rc = lg_ykeys(c, val, "pick", keys, v);
	if (!rc && (!v[0] || !v[1]))
		return lg_yfail(c, key, "'pick' needs '%s'", v[0] ? "count" : "var");
	if (!rc)
		rc = var_name(c, v[0], name, sizeof(name));
	if (!rc)
		rc = lg_ycount(c, v[1], "count", &op.count);
	if (!rc && (op.count == 0 || op.count > LG_MAX_SET_PATHS))
		return lg_yfail(c, v[1], "'count' of 'pick' must be 1 to %u", LG_MAX_SET_PATHS);
	if (!rc)
		rc = pick_order(c, v[2], &op.flags);
	if (rc)
		return rc;
	if (lg_workload_find_var(c->wl, name, strlen(name), &var) == 0 &&
	    c->wl->vars[var].count != op.count)
		return lg_yfail(c, v[1], "variable '%s' was picked with count %llu before; every "
				"pick of a variable must have the same count (here %llu)", name,
				(unsigned long long)c->wl->vars[var].count,
				(unsigned long long)op.count);
	rc = lg_workload_var(c->wl, name, strlen(name), op.count, &var);
	if (rc == -E2BIG)
		return lg_yfail(c, v[0], "too many variables");
	if (rc)
		return lg_ynomem(c);
	op.var = var;
	if (op.flags == LG_PICK_SHUFFLE)
		c->wl->vars[var].shuffle = 1;
	return lg_workload_add_op(c->wl, c->phase, &op, NULL) ? lg_ynomem(c) : 0;
}

int lg_ypath_var(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 const char *s, uint16_t *var)
{
	static const size_t plen = sizeof(LG_CLIENT_PLACEHOLDER) - 1;
	const char *first = NULL;

	*var = 0;
	/* lg_ystring left only ${client}, ${peer} and the ${name} of known variables
	 * in s. */
	for (const char *p = s; (p = strstr(p, "${")); p += 2) {
		size_t len = strcspn(p + 2, "}");
		uint16_t v;

		if (!strncmp(p, LG_CLIENT_PLACEHOLDER, plen) ||
		    !strncmp(p, LG_PEER_PLACEHOLDER, sizeof(LG_PEER_PLACEHOLDER) - 1))
			continue;
		if (lg_workload_find_var(c->wl, p + 2, len, &v) != 0)
			return lg_yfail(c, n, "%s '%s': unknown variable '%.*s'", what, s,
					(int)len + 3, p);
		if (*var && v != *var)
			return lg_yfail(c, n, "%s '%s' uses two variables, '%.*s' and '%.*s'; a "
					"path may use only one (it may repeat it)", what, s,
					(int)strcspn(first, "}") + 1, first, (int)len + 3, p);
		*var = v;
		first = p;
	}
	return 0;
}

int lg_ypath_set(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 const char *s, uint16_t var, uint32_t *index)
{
	const struct lg_workload *wl = c->wl;
	int rc = lg_workload_path_set(c->wl, s, var, index);

	if (rc == -E2BIG && wl->vars[var].count > LG_MAX_SET_PATHS - wl->set_paths)
		return lg_yfail(c, n, "%s '%s' makes %llu paths; with the %zu of earlier file "
				"sets that is more than %u", what, s,
				(unsigned long long)wl->vars[var].count, wl->set_paths,
				LG_MAX_SET_PATHS);
	if (rc == -E2BIG)
		return lg_yfail(c, n, "%s '%s' makes %llu paths; with those of earlier file "
				"sets they would take more than %u MiB", what, s,
				(unsigned long long)wl->vars[var].count, LG_MAX_SET_BYTES >> 20);
	return rc ? lg_ynomem(c) : 0;
}

/* A path compiled already. Paths repeat (an imported dbench loadfile names a few hundred
 * files in ~200k steps) and their result is fixed once a path compiles without a
 * variable: parameters are resolved before any step and ${client} is a placeholder. So
 * the text as written maps to its index, and the expansion, checks and interning are
 * done once per path instead of once per step. Direct-mapped: a collision replaces. */
struct lg_ypath_memo {
	char *text;     /* the scalar as written (owned), or NULL for an empty entry */
	uint32_t hash;  /* its memo_hash: most misses end on it, without a strcmp */
	uint32_t index; /* its path in wl->paths */
};

static uint32_t memo_hash(const char *s)
{
	return (uint32_t)XXH3_64bits(s, strlen(s)); /* paths are long: not a byte a step */
}

void lg_ypath_memo_free(struct lg_yctx *c)
{
	if (!c->path_memo)
		return;
	for (size_t i = 0; i < LG_YPATH_MEMO; i++)
		free(c->path_memo[i].text);
	free(c->path_memo);
	c->path_memo = NULL;
}

/* Remember that text (hash h) compiles to path index (best effort: no memory, no memo). */
static void memo_put(struct lg_ypath_memo *e, const char *text, uint32_t h, uint32_t index)
{
	size_t len = strlen(text) + 1;
	char *copy = e ? malloc(len) : NULL;

	if (!copy)
		return;
	free(e->text);
	e->text = memcpy(copy, text, len);
	e->hash = h;
	e->index = index;
}

/* The memo entry of text (NULL without memory), its hash *h; *hit whether it holds text. */
static struct lg_ypath_memo *memo_find(struct lg_yctx *c, const char *text, uint32_t *h,
				       bool *hit)
{
	struct lg_ypath_memo *e;

	if (!c->path_memo)
		c->path_memo = calloc(LG_YPATH_MEMO, sizeof(*c->path_memo));
	if (!c->path_memo)
		return *hit = false, NULL;
	*h = memo_hash(text);
	e = &c->path_memo[*h & (LG_YPATH_MEMO - 1)];
	*hit = e->text && e->hash == *h && !strcmp(e->text, text);
	return e;
}

int lg_ypath(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
	     uint32_t *index, uint16_t *var)
{
	const char *s, *why;
	uint16_t v;
	bool hit = false;
	uint32_t h = 0;
	struct lg_ypath_memo *e = n->kind == LG_YSCALAR ? memo_find(c, n->text, &h, &hit) : NULL;
	int rc;

	if (hit) {
		if (var)
			*var = 0;
		*index = e->index;
		return 0;
	}
	rc = lg_ystring(c, n, what, true, &s);

	if (rc)
		return rc;
	if (lg_path_check(s, &why))
		return lg_yfail(c, n, "%s '%s': %s", what, s, why);
	if (strlen(s) > MAX_PATH_TEMPLATE)
		return lg_yfail(c, n, "%s longer than %d bytes", what, MAX_PATH_TEMPLATE);
	rc = lg_ypath_var(c, n, what, s, &v);
	if (rc)
		return rc;
	if (v && !var)
		return lg_yfail(c, n, "%s '%s': a variable cannot be used here", what, s);
	if (var)
		*var = v;
	if (v)
		return lg_ypath_set(c, n, what, s, v, index);
	if (lg_workload_path(c->wl, s, index))
		return lg_ynomem(c);
	memo_put(e, n->text, h, *index);
	return 0;
}
