/* YAML steps -> compiled ops.
 *
 * Each op is described once in op_specs[]: its YAML name (also its default stats label),
 * the keys it accepts, which are required, whether a scalar may stand for the first
 * key, and a fill function that converts the arguments into lg_op fields. Everything
 * common (argument lookup, expect, label, appending the op) lives in compile_op, so an
 * op's own code is only what makes it different. */
#include "yaml_priv.h"
#include "yaml_dbench.h"
#include "loadgen/model/suggest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_KEYS 8          /* op-specific keys of one op */
#define NO_LINK UINT32_MAX  /* end of the chain of choose jumps awaiting their target */

typedef int (*fill_fn)(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);

/* How one YAML op compiles. */
struct op_spec {
	const char *name;                 /* key in the step, and default stats label */
	enum lg_op_kind kind;
	bool shorthand;                   /* a scalar value stands for keys[0] */
	unsigned required;                /* bit i: keys[i] must be given */
	size_t nk;                        /* the op's own keys, first in keys */
	const char *keys[MAX_KEYS + 3];   /* accepted keys: its own, expect, label, NULL */
	fill_fn fill;
	unsigned one_of;                  /* bits i, j: exactly one of keys[i], keys[j] must
					     be given (a path or a file); 0: no such pair */
};

/* An op with every optional field unset. */
static struct lg_op blank_op(enum lg_op_kind kind, uint32_t line)
{
	return (struct lg_op){
		.kind = (uint8_t)kind, .expect = LG_EXPECT_OK, .slot = LG_NO_SLOT,
		.path = LG_NO_SLOT, .path2 = LG_NO_SLOT, .line = line, .align = 1,
	};
}

/* The keys of an op: its own, then the two every op takes (one array: a step looks its
 * keys up in it without building a list each time). */
#define KEYS(...) .nk = sizeof((const char *[]){ __VA_ARGS__ }) / sizeof(const char *), \
		  .keys = { __VA_ARGS__, "expect", "label" }
#define NO_KEYS .nk = 0, .keys = { "expect", "label" }
#define FILE_KEYS KEYS("file")
#define PATH_KEYS KEYS("path")
#define NAMED_KEYS KEYS("path", "resolve")
#define RANGE_KEYS(last) KEYS("file", "size", "offset", "range", "align", "base", last)
#define IO_KEYS KEYS("file", "size", "offset", "range", "align", "base", "count", "vector")
/* an op on a path or an open file (yaml_meta.c): path, file, nofollow, then its own */
#define OBJ_KEYS KEYS("path", "file", "nofollow")
#define XATTR_KEYS(...) KEYS("path", "file", "nofollow", __VA_ARGS__)

static const struct op_spec op_specs[] = {
	{ "open", LG_OP_OPEN, false, 0x3, KEYS("path", "as", "flags"), lg_yfill_open },
	{ "create", LG_OP_OPEN, false, 0x3, KEYS("path", "as", "flags"), lg_yfill_create },
	{ "close", LG_OP_CLOSE, true, 0x1, FILE_KEYS, lg_yfill_file },
	{ "write", LG_OP_WRITE, false, 0x3, IO_KEYS, lg_yfill_io },
	{ "read", LG_OP_READ, false, 0x3, IO_KEYS, lg_yfill_io },
	{ "fsync", LG_OP_FSYNC, true, 0x1, FILE_KEYS, lg_yfill_file },
	{ "fdatasync", LG_OP_FDATASYNC, true, 0x1, FILE_KEYS, lg_yfill_file },
	{ "unlink", LG_OP_UNLINK, true, 0x1, NAMED_KEYS, lg_yfill_named },
	{ "mkdir", LG_OP_MKDIR, true, 0x1, NAMED_KEYS, lg_yfill_named },
	{ "rmdir", LG_OP_RMDIR, true, 0x1, NAMED_KEYS, lg_yfill_named },
	{ "rename", LG_OP_RENAME, false, 0x3, KEYS("from", "to", "resolve", "flags"),
	  lg_yfill_rename },
	{ "stat", LG_OP_STAT, true, 0x1, KEYS("path", "resolve", "follow"), lg_yfill_stat },
	{ "fstat", LG_OP_FSTAT, true, 0x1, FILE_KEYS, lg_yfill_file },
	{ "truncate", LG_OP_TRUNCATE, false, 0x2, KEYS("file", "size", "path"),
	  lg_yfill_truncate, .one_of = 0x5 },
	{ "readdir", LG_OP_READDIR, true, 0x1, PATH_KEYS, lg_yfill_path },
	{ "sync_file_range", LG_OP_SYNC_FILE_RANGE, true, 0x1, RANGE_KEYS("flags"), lg_yfill_sfr },
	{ "fadvise", LG_OP_FADVISE, false, 0x41, RANGE_KEYS("advice"), lg_yfill_fadvise },
	{ "syncfs", LG_OP_SYNCFS, true, 0x0, FILE_KEYS, lg_yfill_syncfs },
	{ "sleep", LG_OP_SLEEP, true, 0x1, KEYS("duration"), lg_yfill_sleep },
	/* dbench's ops (yaml_dbench.c) */
	{ "ntcreate", LG_OP_NTCREATE, false, 0x1, KEYS("path", "as", "flags"), lg_yfill_ntcreate },
	{ "deltree", LG_OP_DELTREE, true, 0x1, PATH_KEYS, lg_yfill_path },
	{ "statfs", LG_OP_STATFS, false, 0x0, NO_KEYS, lg_yfill_none },
	{ "setinfo", LG_OP_SETINFO, true, 0x1, FILE_KEYS, lg_yfill_file },
	{ "find", LG_OP_FIND, true, 0x1, KEYS("path", "max"), lg_yfill_find },
	{ "lock", LG_OP_LOCK, false, 0x1, KEYS("file", "offset", "size"), lg_yfill_lock },
	{ "unlock", LG_OP_UNLOCK, false, 0x1, KEYS("file", "offset", "size"), lg_yfill_lock },
	/* calls of recorded programs (yaml_meta.c) */
	{ "link", LG_OP_LINK, false, 0x3, KEYS("from", "to"), lg_yfill_link },
	{ "symlink", LG_OP_SYMLINK, false, 0x3, KEYS("target", "path"), lg_yfill_symlink },
	{ "readlink", LG_OP_READLINK, true, 0x1, PATH_KEYS, lg_yfill_readlink },
	{ "chmod", LG_OP_CHMOD, false, 0x4, KEYS("path", "file", "mode"), lg_yfill_chmod,
	  .one_of = 0x3 },
	{ "chown", LG_OP_CHOWN, false, 0x0, OBJ_KEYS, lg_yfill_object, .one_of = 0x3 },
	{ "utimens", LG_OP_UTIMENS, false, 0x0, OBJ_KEYS, lg_yfill_object, .one_of = 0x3 },
	{ "access", LG_OP_ACCESS, true, 0x1, KEYS("path", "mode"), lg_yfill_access },
	{ "statx", LG_OP_STATX, false, 0x0, OBJ_KEYS, lg_yfill_object, .one_of = 0x3 },
	{ "seek", LG_OP_SEEK, true, 0x1, KEYS("file", "offset", "whence"), lg_yfill_seek },
	{ "fallocate", LG_OP_FALLOCATE, false, 0x5, KEYS("file", "offset", "size", "mode"),
	  lg_yfill_fallocate },
	{ "getdents", LG_OP_GETDENTS, false, 0x3, KEYS("file", "size"), lg_yfill_getdents },
	{ "setxattr", LG_OP_SETXATTR, false, 0x8, XATTR_KEYS("name", "size", "flags"),
	  lg_yfill_xattr, .one_of = 0x3 },
	{ "getxattr", LG_OP_GETXATTR, false, 0x8, XATTR_KEYS("name", "size"), lg_yfill_xattr,
	  .one_of = 0x3 },
	{ "listxattr", LG_OP_LISTXATTR, false, 0x0, XATTR_KEYS("size"), lg_yfill_xattr,
	  .one_of = 0x3 },
	{ "removexattr", LG_OP_REMOVEXATTR, false, 0x8, XATTR_KEYS("name"), lg_yfill_xattr,
	  .one_of = 0x3 },
};

/* Fill v from the op's value: a mapping of arguments, a scalar for keys[0], or null. */
static int op_args(struct lg_yctx *c, const struct op_spec *spec, const struct lg_ynode *val,
		   const struct lg_ynode **v)
{
	const char *const *keys = spec->keys;

	for (size_t i = 0; keys[i]; i++)
		v[i] = NULL;
	if (val->kind == LG_YMAP)
		return lg_ykeys(c, val, spec->name, keys, v);
	if (lg_yis_null(val))
		return 0;
	if (val->kind == LG_YSCALAR && spec->shorthand) {
		v[0] = val;
		return 0;
	}
	if (spec->shorthand)
		return lg_yfail(c, val, "'%s' takes a %s or a mapping of arguments, not %s",
				spec->name, keys[0], lg_ykind_name(val));
	return lg_yfail(c, val, "'%s' takes a mapping of arguments, not %s", spec->name,
			lg_ykind_name(val));
}

static int add(struct lg_yctx *c, const struct lg_op *op, uint32_t *index)
{
	return lg_workload_add_op(c->wl, c->phase, op, index) ? lg_ynomem(c) : 0;
}

/* The stats row of a step of spec named by key: its label n, else its op's from the
 * top-level 'labels', else the op's name. The last two never change during a load, so
 * each is looked up once. */
static int op_label(struct lg_yctx *c, const struct op_spec *spec, const struct lg_ynode *n,
		    const struct lg_ynode *key, uint16_t *type)
{
	size_t i = (size_t)(spec - op_specs);
	int rc;

	if (n)
		return lg_ylabel(c, n, key, spec->name, type);
	if (c->default_type[i]) {
		*type = (uint16_t)(c->default_type[i] - 1);
		return 0;
	}
	rc = lg_ylabel(c, c->label_of[i], key, spec->name, type);
	if (!rc)
		c->default_type[i] = (uint32_t)*type + 1;
	return rc;
}

/* The pair of keys of which spec takes exactly one (key: the op, for messages). */
static int one_of(struct lg_yctx *c, const struct op_spec *spec, const struct lg_ynode *key,
		  const struct lg_ynode *const *v)
{
	unsigned i = (unsigned)__builtin_ctz(spec->one_of);
	unsigned j = (unsigned)__builtin_ctz(spec->one_of & (spec->one_of - 1));

	if (!v[i] && !v[j])
		return lg_yfail(c, key, "'%s' needs '%s' or '%s'", spec->name, spec->keys[i],
				spec->keys[j]);
	if (v[i] && v[j])
		return lg_yfail(c, v[j], "'%s' takes '%s' or '%s', not both", spec->name,
				spec->keys[i], spec->keys[j]);
	return 0;
}

/* The op of the step named by key, from its arguments v (in the order of spec->keys). */
static int compile_args(struct lg_yctx *c, const struct op_spec *spec, uint32_t line,
			const struct lg_ynode *key, const struct lg_ynode *const *v)
{
	struct lg_op op = blank_op(spec->kind, line);
	size_t nk = spec->nk;
	int rc;

	for (unsigned r = spec->required; r; r &= r - 1) /* each key required, in order */
		if (!v[__builtin_ctz(r)])
			return lg_yfail(c, key, "'%s' needs '%s'", spec->name,
					spec->keys[__builtin_ctz(r)]);
	if (spec->one_of && (rc = one_of(c, spec, key, v)))
		return rc;
	op.count = 1;
	rc = spec->fill(c, v, &op);
	if (!rc && v[nk])
		rc = lg_yexpect(c, v[nk], &op.expect);
	if (!rc)
		rc = op_label(c, spec, v[nk + 1], key, &op.type);
	return rc ? rc : add(c, &op, NULL);
}

static int compile_op(struct lg_yctx *c, const struct op_spec *spec, uint32_t line,
		      const struct lg_ynode *key, const struct lg_ynode *val)
{
	const struct lg_ynode *v[MAX_KEYS + 3];
	int rc = op_args(c, spec, val, v);

	if (!rc)
		rc = compile_args(c, spec, line, key, v);
	/* a step read as a tree may share its line with others (flow lists); a flat one
	 * (step_flat) is alone on its line, which is all a message needs */
	if (!rc && lg_workload_set_col(c->wl, c->phase, c->wl->nops[c->phase] - 1,
				       key->col + 1))
		rc = lg_ynomem(c);
	return rc;
}

/* The 'do' of repeat or choose: a non-empty list of steps. */
static int body(struct lg_yctx *c, const struct lg_ynode *seq)
{
	int rc;

	if (seq->kind == LG_YSEQ && seq->n == 0)
		return lg_yfail(c, seq, "'do' must contain at least one step");
	c->nest++;
	rc = lg_ysteps(c, seq, "do");
	c->nest--;
	return rc;
}

/* repeat: {count: N, do: [...]} -> LOOP body NEXT. */
static int compile_repeat(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
			  const struct lg_ynode *val)
{
	static const char *const keys[] = { "count", "do", NULL };
	const struct lg_ynode *v[2];
	struct lg_op loop = blank_op(LG_OP_LOOP, line), next = blank_op(LG_OP_NEXT, line);
	uint32_t at;
	int rc;

	if (val->kind != LG_YMAP)
		return lg_yfail(c, val, "'repeat' takes a mapping {count: N, do: [steps]}, "
				"not %s", lg_ykind_name(val));
	rc = lg_ykeys(c, val, "repeat", keys, v);
	if (rc)
		return rc;
	if (!v[0] || !v[1])
		return lg_yfail(c, key, "'repeat' needs '%s'", v[0] ? "do" : "count");
	rc = lg_ycount(c, v[0], "count", &loop.count);
	if (rc)
		return rc;
	loop.slot = next.slot = c->wl->nloops++;
	rc = add(c, &loop, &at);
	if (!rc)
		rc = body(c, v[1]);
	next.target = at + 1;
	if (!rc)
		rc = add(c, &next, NULL);
	if (!rc)
		c->wl->ops[c->phase][at].target = (uint32_t)c->wl->nops[c->phase];
	return rc;
}

static const char *const alt_keys[] = { "weight", "do", NULL };

/* Check every alternative and append their lg_alts (contiguous, before any nested
 * choose adds its own); *first gets the index of the first. */
static int choose_alts(struct lg_yctx *c, const struct lg_ynode *val, uint32_t *first)
{
	uint64_t total = 0;

	for (size_t i = 0; i < val->n; i++) {
		const struct lg_ynode *alt = val->items[i], *v[2];
		uint64_t w = 1;
		uint32_t idx;
		int rc;

		if (alt->kind != LG_YMAP)
			return lg_yfail(c, alt, "a choose alternative must be a mapping "
					"{weight: W, do: [steps]}, not %s", lg_ykind_name(alt));
		rc = lg_ykeys(c, alt, "a choose alternative", alt_keys, v);
		if (!rc && !v[1])
			return lg_yfail(c, alt, "a choose alternative needs 'do'");
		if (!rc && v[0])
			rc = lg_ycount(c, v[0], "weight", &w);
		if (rc)
			return rc;
		if (w > UINT64_MAX - total)
			return lg_yfail(c, v[0] ? v[0] : alt,
					"the weights of 'choose' add up past 2^64");
		total += w;
		if (lg_workload_add_alt(c->wl, total, 0, &idx))
			return lg_ynomem(c);
		if (i == 0)
			*first = idx;
	}
	if (total == 0)
		return lg_yfail(c, val, "the weights of 'choose' add up to 0");
	return 0;
}

/* choose: [{weight: W, do: [...]}, ...] -> CHOOSE, then each body ending in a JUMP past
 * the last. The jumps are chained through their targets until that index is known. */
static int compile_choose(struct lg_yctx *c, uint32_t line, const struct lg_ynode *val)
{
	struct lg_op op = blank_op(LG_OP_CHOOSE, line), jump = blank_op(LG_OP_JUMP, line);
	uint32_t first = 0, link = NO_LINK;
	int rc;

	if (val->kind != LG_YSEQ || val->n == 0)
		return lg_yfail(c, val, "'choose' takes a non-empty list of "
				"{weight: W, do: [steps]}");
	rc = choose_alts(c, val, &first);
	op.count = val->n;
	op.target = first;
	if (!rc)
		rc = add(c, &op, NULL);
	for (size_t i = 0; !rc && i < val->n; i++) {
		const struct lg_ynode *v[2];

		lg_ykeys(c, val->items[i], "a choose alternative", alt_keys, v);
		c->wl->alts[first + i].target = (uint32_t)c->wl->nops[c->phase];
		rc = body(c, v[1]);
		jump.target = link;
		if (!rc)
			rc = add(c, &jump, &link);
	}
	while (!rc && link != NO_LINK) {
		struct lg_op *j = &c->wl->ops[c->phase][link];

		link = j->target;
		j->target = (uint32_t)c->wl->nops[c->phase];
	}
	return rc;
}

/* Common mistake: expect/label written beside the op instead of among its arguments. */
static int extra_key(struct lg_yctx *c, const struct lg_ynode *op, const struct lg_ynode *k)
{
	if (!strcmp(k->text, "expect") || !strcmp(k->text, "label"))
		return lg_yfail(c, k, "'%s' goes among the arguments of '%s' "
				"(e.g. '- %s: {..., %s: ...}')", k->text, op->text, op->text,
				k->text);
	return lg_yfail(c, k, "a step has exactly one op, but '%s' follows '%s' "
			"(put it in its own '- ' item or indent it as an argument)", k->text,
			op->text);
}

/* The value n of 'when': true/false, yes/no or 1/0, after ${} substitution. */
static int when_value(struct lg_yctx *c, const struct lg_ynode *n, bool *on)
{
	static const char *const names[] = { "false", "true", "no", "yes", "0", "1" };
	const char *s;
	int rc = lg_ystring(c, n, "when", false, &s);

	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*on = i % 2 == 1;
			return 0;
		}
	}
	if (strcmp(s, n->text) != 0)
		return lg_yfail(c, n, "bad boolean '%s' (from '%s') for 'when' (expected true, "
				"false, yes, no, 1 or 0)", s, n->text);
	return lg_yfail(c, n, "bad boolean '%s' for 'when' (expected true, false, yes, no, "
			"1 or 0)", s);
}

/* The optional 'when' key beside a step's op, before or after it. It sits outside the
 * op's arguments so that it works the same on repeat and choose, which have none of
 * their own to hold it. *view gets the step without it; *on whether to compile it. */
static int step_when(struct lg_yctx *c, const struct lg_ynode *n, struct lg_ynode *view,
		     bool *on)
{
	size_t at = 0;

	*view = *n;
	*on = true;
	while (at < n->n && (n->items[at]->text[0] != 'w' ||
			     strcmp(n->items[at]->text, "when") != 0))
		at += 2;
	if (at == n->n)
		return 0;
	if (n->n == 2)
		return lg_yfail(c, n->items[0], "'when' needs an op beside it in the same step, "
				"such as '- {when: \"${x}\", stat: f}'");
	if (n->n > 4) { /* name the first key that is neither the op nor 'when' */
		size_t op = at == 0 ? 2 : 0, x = op + 2 == at ? op + 4 : op + 2;

		return extra_key(c, n->items[op], n->items[x]);
	}
	if (at == 0)
		view->items += 2;
	view->n -= 2;
	return when_value(c, n->items[at + 1], on);
}

/* An op name that is none of op_specs[] nor repeat, choose, pick: suggest the closest. */
static int unknown_op(struct lg_yctx *c, const struct lg_ynode *key)
{
	static const char *const control[] = { "repeat", "choose", "pick", "after", "think",
					       "barrier", NULL };
	struct lg_suggest s;

	lg_suggest_init(&s, key->text);
	for (size_t i = 0; i < sizeof(op_specs) / sizeof(op_specs[0]); i++)
		lg_suggest_add(&s, op_specs[i].name);
	lg_suggest_add_all(&s, control);
	if (lg_suggest_best(&s))
		return lg_yfail(c, key, "unknown op '%s'; did you mean '%s'?", key->text,
				lg_suggest_best(&s));
	return lg_yfail(c, key, "unknown op '%s' (expected open, create, close, write, read, "
			"fsync, fdatasync, unlink, mkdir, rmdir, rename, stat, fstat, truncate, "
			"readdir, sync_file_range, fadvise, syncfs, sleep, ntcreate, deltree, "
			"statfs, setinfo, find, lock, unlock, link, symlink, readlink, chmod, "
			"chown, utimens, access, statx, seek, fallocate, getdents, setxattr, "
			"getxattr, listxattr, removexattr, repeat, choose, pick or barrier; in streams "
			"also after and think)",
			key->text);
}

/* Whether NUL-terminated word is the len bytes at s (keys are a few bytes: no call). */
static bool same_word(const char *word, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && word[i] == s[i])
		i++;
	return i == len && word[i] == '\0';
}

/* Where op name (len > 0 bytes) is looked for first in c->spec_index. */
static size_t spec_hash(const char *name, size_t len)
{
	return ((unsigned char)name[0] * 31u + (unsigned char)name[len - 1] + len) %
	       LG_YSPEC_INDEX;
}

/* Every op of op_specs[] into c->spec_index, each at the first free entry from its hash
 * on: a step's op is then found in a probe or two rather than by trying each op. */
static void spec_index_build(struct lg_yctx *c)
{
	for (size_t i = 0; i < sizeof(op_specs) / sizeof(op_specs[0]); i++) {
		size_t h = spec_hash(op_specs[i].name, strlen(op_specs[i].name));

		while (c->spec_index[h])
			h = (h + 1) % LG_YSPEC_INDEX;
		c->spec_index[h] = (uint8_t)(i + 1);
	}
	c->spec_indexed = true;
}

/* The spec of op name (len bytes), or NULL (repeat, choose, pick, or unknown). */
static inline const struct op_spec *find_spec_len(struct lg_yctx *c, const char *name,
						  size_t len)
{
	if (!c->spec_indexed)
		spec_index_build(c);
	if (len == 0)
		return NULL;
	for (size_t h = spec_hash(name, len); c->spec_index[h]; h = (h + 1) % LG_YSPEC_INDEX) {
		const struct op_spec *spec = &op_specs[c->spec_index[h] - 1];

		if (same_word(spec->name, name, len))
			return spec;
	}
	return NULL;
}

static const struct op_spec *find_spec(struct lg_yctx *c, const char *name)
{
	return find_spec_len(c, name, strlen(name));
}

/* A step read flat (lg_yflat): its keys are matched here, without a tree. Anything the
 * tree's way would refuse or treat apart (an unknown or duplicate key, repeat, choose,
 * pick, an unknown op) is declined with -EAGAIN before anything is compiled. */
static int step_flat(struct lg_yctx *c, const struct lg_yflat *s)
{
	const struct op_spec *spec = find_spec_len(c, s->op->text, s->op_len);
	const struct lg_ynode *v[MAX_KEYS + 3] = { NULL };
	size_t nk;

	if (!spec)
		return -EAGAIN;
	nk = spec->nk;
	for (size_t i = 0, j = 0; i < s->n; i++) { /* keys mostly come in spec order: */
		const struct lg_yflat_pair *kv = &s->kv[i];  /* look from the last one on */
		size_t tried = 0;

		for (; tried < nk + 2 && !same_word(spec->keys[j], kv->key, kv->len); tried++)
			j = j + 1 < nk + 2 ? j + 1 : 0;
		if (tried == nk + 2 || v[j])
			return -EAGAIN;
		v[j] = kv->val;
	}
	return compile_args(c, spec, s->op->line + 1, s->op, v);
}

int lg_ylabels(struct lg_yctx *c, const struct lg_ynode *map)
{
	_Static_assert(sizeof(op_specs) / sizeof(op_specs[0]) <= LG_YOPS_MAX &&
		       LG_YOPS_MAX < LG_YSPEC_INDEX, "LG_YOPS_MAX");
	if (!map || lg_yis_null(map))
		return 0;
	if (map->kind != LG_YMAP)
		return lg_yfail(c, map, "'labels' must be a mapping of op: label, not %s",
				lg_ykind_name(map));
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct lg_ynode *k = map->items[i], *v = map->items[i + 1];
		const struct op_spec *spec = find_spec(c, k->text);

		if (!spec && (!strcmp(k->text, "repeat") || !strcmp(k->text, "choose") ||
			      !strcmp(k->text, "pick")))
			return lg_yfail(c, k, "'%s' is not an op and has no label", k->text);
		if (!spec)
			return unknown_op(c, k);
		if (c->label_of[spec - op_specs])
			return lg_yfail(c, k, "duplicate op '%s' in 'labels'", k->text);
		if (v->kind != LG_YSCALAR)
			return lg_yfail(c, v, "the label of '%s' must be a string, not %s",
					k->text, lg_ykind_name(v));
		c->label_of[spec - op_specs] = v;
	}
	return 0;
}

static int step(struct lg_yctx *c, const struct lg_ynode *n)
{
	const struct lg_ynode *key, *val;
	struct lg_ynode view;
	uint32_t line = n->line + 1;
	bool on;
	int rc;

	if (n->kind != LG_YMAP)
		return lg_yfail(c, n, "a step must be a mapping with one op, such as "
				"'- stat: f', not %s", lg_ykind_name(n));
	if (n->n == 0)
		return lg_yfail(c, n, "empty step: expected one op");
	rc = step_when(c, n, &view, &on);
	if (rc)
		return rc;
	n = &view;
	if (n->n > 2)
		return extra_key(c, n->items[0], n->items[2]);
	/* A step switched off is not compiled at all: its arguments may name files that
	 * only steps switched on with it open. */
	if (!on)
		return 0;
	key = n->items[0];
	val = n->items[1];
	if (!strcmp(key->text, "repeat"))
		return compile_repeat(c, line, key, val);
	if (!strcmp(key->text, "choose"))
		return compile_choose(c, line, val);
	if (!strcmp(key->text, "pick"))
		return lg_ycompile_pick(c, line, key, val);
	if (!strcmp(key->text, "after"))
		return lg_ycompile_after(c, line, key, val);
	if (!strcmp(key->text, "think"))
		return lg_ycompile_think(c, line, key, val);
	if (!strcmp(key->text, "barrier"))
		return lg_ycompile_barrier(c, line, key, val);
	return find_spec(c, key->text) ? compile_op(c, find_spec(c, key->text), line, key, val)
				    : unknown_op(c, key);
}

int lg_ysteps(struct lg_yctx *c, const struct lg_ynode *seq, const char *what)
{
	int rc = 0;

	if (seq->kind != LG_YSEQ)
		return lg_yfail(c, seq, "'%s' must be a list of steps, not %s", what,
				lg_ykind_name(seq));
	if (lg_yfast_is_lazy(seq)) /* a list not read yet: one step at a time */
		return lg_yfast_steps(c, seq, step, step_flat);
	for (size_t i = 0; !rc && i < seq->n; i++)
		rc = step(c, seq->items[i]);
	return rc;
}
