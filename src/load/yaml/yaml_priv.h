/* Internals of the YAML loader, shared by its files:
 *   yaml_tree.c    libyaml events -> a small node tree (positions kept, aliases refused),
 *                  in an arena; errors
 *   yaml_fast.c    the same tree, faster, for the plain YAML loadgen import writes
 *   yaml_fast_steps.c  its lazy lists, compiled step by step (flat steps, replays)
 *   yaml_tag.c     explicit tags: accepted where they match the node
 *   yaml_memo.c    the op of a step line written again
 *   yaml_load.c    lg_yaml_load: top level, parameters, scalar conversion, errors
 *   yaml_steps.c   steps -> lg_op arrays (the op table, repeat and choose)
 *   yaml_fill.c, yaml_io.c, yaml_meta.c, yaml_dbench.c  the arguments of each op
 *   yaml_vocab.c   words of flags, advice and modes; "did you mean" lookups
 *   yaml_pick.c    the pick step and paths that use its variable (file sets)
 *   yaml_reopen.c  an open of a slot that is provably still open
 *   yaml_write.c   the writer (lg_yaml_write); yaml_write_meta.c lists the arguments of
 *                  the ops of recorded programs for it
 *
 * The loader builds the tree and then compiles it, rather than compiling from the event
 * stream, because top-level keys may come in any order (params after run, say) and
 * every value must stay addressable for its line:column in messages. Only the fast
 * reader leaves top-level lists unread until they are compiled, one step at a time:
 * their order is known once the top level is read, and a step is all a message needs. */
#ifndef LOADGEN_YAML_PRIV_H
#define LOADGEN_YAML_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loadgen/model/workload.h"

/* A symbolic flag value as workloads write it ("wait_before", "dontneed"). */
struct lg_yflag {
	const char *name;
	int value;
};

/* --- vocabulary (yaml_vocab.c) --- */

/* Tables shared by the loader and the writer, NULL-terminated. */
extern const struct lg_yflag lg_yopen_flags[]; /* open/create flags */
extern const struct lg_yflag lg_yntcreate_flags[]; /* ntcreate's flags */
/* Offset modes by name (enum lg_offset_mode; LG_OFF_FIXED, a number, has none) and pick
 * orders by name (enum lg_pick_order), for the reader and the writer. */
extern const char *const lg_yoffset_names[LG_OFF_PREV + 1];
extern const char *const lg_ypick_orders[LG_PICK_SHUFFLE + 1];
extern const struct lg_yflag lg_ysfr_flags[];  /* sync_file_range flags */
extern const struct lg_yflag lg_yfadvice[];    /* posix_fadvise advice */
extern const struct lg_yflag lg_yrename_flags[]; /* renameat2 flags */
extern const struct lg_yflag lg_yaccess_modes[]; /* access: R_OK, W_OK, X_OK */
extern const struct lg_yflag lg_yfalloc_modes[]; /* fallocate modes */
extern const struct lg_yflag lg_yxattr_flags[];  /* setxattr flags */
extern const struct lg_yflag lg_yseek_whence[];  /* seek: SEEK_* by name */
/* Index of the first access-mode flag in lg_yopen_flags (read, write, rdwr follow). */
#define LG_YOPEN_ACCESS_FIRST 12

/* Deepest nesting of collections accepted: bounds the tree walk's recursion. */
#define LG_YAML_MAX_DEPTH 64

/* Kind of a tree node. */
enum lg_ynode_kind { LG_YSCALAR, LG_YSEQ, LG_YMAP };

/* One YAML node. Mapping keys are always scalars (checked while building). */
struct lg_ynode {
	uint32_t line, col;      /* 0-based position of the node's start (libyaml mark) */
	uint32_t n;              /* entries of items */
	uint8_t kind;            /* enum lg_ynode_kind (a byte: a tree has millions of nodes) */
	bool plain;              /* scalar written without quotes: "" and "~" may mean null */
	bool literal;            /* scalar known to hold no '$' (nothing to expand); false:
				    not known (the fast reader finds out, libyaml does not) */
	char *text;              /* scalar value, NUL-terminated; NULL otherwise */
	struct lg_ynode **items; /* SEQ: items; MAP: key, value, key, value, ... */
};                               /* (node, text and items all live in the tree's arena) */

/* A resolved parameter; both strings are borrowed from the tree or the overrides. */
struct lg_yparam {
	const char *name;
	const char *value;
	const char *kind; /* what its uses convert it to ("size", "path", ...; static), or NULL */
	const char *key;  /* the key of its first use ("size", "count"; static), or NULL */
};

#define LG_YLABEL_MEMO 32 /* entries of lg_yctx.labels */
#define LG_YOPS_MAX 48     /* entries of yaml_steps.c's op table, at most */
#define LG_YSPEC_INDEX 128 /* entries of lg_yctx.spec_index (a power of 2, > LG_YOPS_MAX) */

/* State of one load. */
struct lg_yctx {
	const char *fname;              /* for messages */
	char *err;                      /* message buffer (may be NULL when errlen is 0) */
	size_t errlen;
	struct lg_workload *wl;         /* being built */
	enum lg_phase phase;            /* phase steps are compiled into */
	struct lg_yparam *params;       /* declared parameters, resolved (owned array) */
	size_t nparams;
	char clients[24];               /* value of ${clients} */
	char *buf;                      /* scratch for ${} expansion (owned) */
	size_t cap;                     /* allocated bytes of buf */
	struct lg_yreopen *reopen;      /* what yaml_reopen.c knows of open slots (owned) */
	struct lg_yarena *arena;        /* blocks holding the tree (owned; lg_ytree_free) */
	struct lg_yarena *scratch;      /* blocks of the step being read lazily (owned) */
	bool no_fast;                   /* read with libyaml only (after the fast reader
					   gave up on a lazily read list) */
	const char *text_end;           /* end of the text loaded (for lazy lists) */
	bool fast_read;                 /* the tree came from the fast reader */
	struct lg_ypath_memo *path_memo; /* paths compiled already (owned array of
					    LG_YPATH_MEMO; lg_ypath_memo_free) */
	char last_slot[32];             /* name of the file slot found last ("": none) */
	uint32_t last_slot_index;       /* its index in wl->slots */
	const struct lg_ynode *label_of[LG_YOPS_MAX]; /* per op of yaml_steps.c's table:
					   its label from the top-level 'labels', or NULL */
	uint32_t default_type[LG_YOPS_MAX]; /* per op: the type of its steps without a
					   label, + 1 (0: not looked up yet) */
	uint8_t spec_index[LG_YSPEC_INDEX]; /* yaml_steps.c's op table by name, hashed:
					   index + 1 (0: empty) */
	bool spec_indexed;              /* spec_index is built */
	unsigned nest;                  /* 'do' lists of repeat or choose the step being
					   compiled is inside (0: the top of a phase) */
	struct lg_ystreams *streams;    /* while 'streams' compiles: its state
					   (yaml_streams.c), else NULL */
	struct lg_ylabel_memo {         /* labels seen, by first letter and length */
		char name[24];          /* the label ("": none; longer ones not kept) */
		uint16_t type;          /* its index in wl->types */
	} labels[LG_YLABEL_MEMO];
};

/* --- errors (yaml_tree.c) --- */

/* Write "FNAME:LINE:COL: message" (line, col 0-based as in libyaml) and return -EINVAL. */
int lg_yfail_at(struct lg_yctx *c, size_t line, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* lg_yfail_at at node n's position. */
int lg_yfail(struct lg_yctx *c, const struct lg_ynode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Write "FNAME: out of memory" and return -ENOMEM. */
int lg_ynomem(struct lg_yctx *c);

/* --- tree (yaml_tree.c) --- */

/* Parse text into a tree (*out, in c's arena: freed by lg_ytree_free). Rejects syntax
 * errors, anchors, aliases, tags that do not fit (lg_ytag_check), several documents, deep nesting and empty
 * input. Returns 0, -EINVAL with the message in c->err, or -ENOMEM. */
int lg_ytree_parse(struct lg_yctx *c, const char *text, size_t len, struct lg_ynode **out);
/* lg_ytree_parse with libyaml only (text not NULL), bypassing the fast reader. */
int lg_ytree_parse_libyaml(struct lg_yctx *c, const char *text, size_t len,
			   struct lg_ynode **out);
/* Free the tree of c (its whole arena). Fine when there is none. */
void lg_ytree_free(struct lg_yctx *c);
/* size zeroed bytes from c's arena, aligned for any type; NULL when out of memory. */
void *lg_yalloc(struct lg_yctx *c, size_t size);
/* A copy of the len bytes at s, NUL-terminated, in c's arena (unaligned: texts are
 * most of a tree's bytes); NULL when out of memory. */
char *lg_ytext(struct lg_yctx *c, const char *s, size_t len);
/* A new node in c's arena at 0-based line and col; NULL when out of memory. */
struct lg_ynode *lg_ynode_new(struct lg_yctx *c, enum lg_ynode_kind kind, size_t line,
			      size_t col);
/* A new scalar node with a copy of the len bytes at s as its text, both in one piece of
 * c's arena (the fast reader makes millions); NULL when out of memory. */
struct lg_ynode *lg_yscalar_new(struct lg_yctx *c, size_t line, size_t col, const char *s,
				size_t len, bool plain, bool literal);

/* --- explicit tags (yaml_tag.c) --- */

/* May tag (libyaml's expanded form, "tag:yaml.org,2002:int" for !!int; NULL: none) stand
 * on a node of kind, whose text is text (a scalar's; NULL otherwise)? A standard tag of
 * the core schema fits when it matches the node, "!" fits any. Returns 0, *str set when
 * the tag makes a scalar a string (!!str, !: never null), or -EINVAL with why filled
 * ("YAML tag '!!int' on 'a', which is not an integer"). */
int lg_ytag_check(const char *tag, enum lg_ynode_kind kind, const char *text, bool *str,
		  char *why, size_t whylen);

/* --- the fast reader (yaml_fast.c) --- */

/* Parse text as lg_ytree_parse would, if it is written in the plain subset loadgen import
 * writes (top-level keys with one-line values or lists of one-line flow steps, double
 * quotes without escapes, printable ASCII). Returns 0 and *out, -ENOMEM, or -EAGAIN
 * when the text is outside that subset and libyaml must read it (what was built stays
 * in the arena: free it with lg_ytree_free).
 * lazy: a top-level list is not read but left as a lazy node (LG_YSEQ with text set to
 * where its first item starts, in text, which must outlive the tree; n = 0): lg_ysteps
 * reads it with lg_yfast_steps, one step at a time, so that a loadfile of half a million
 * steps is never a tree of millions of nodes. */
int lg_yfast_parse(struct lg_yctx *c, const char *text, size_t len, bool lazy,
		   struct lg_ynode **out);
/* Whether seq is a lazy list of lg_yfast_parse. */
bool lg_yfast_is_lazy(const struct lg_ynode *seq);
#define LG_YFLAT_MAX 12 /* pairs of a flat step; more go the tree's way */

/* A step "NAME: {KEY: VALUE, ...}" read flat, without nodes for its keys and mapping:
 * most steps of a big loadfile look like this, and a tree for each costs more than
 * compiling it. */
struct lg_yflat {
	struct lg_ynode *op;         /* NAME, a scalar node (its position is the step's) */
	size_t op_len;               /* bytes of NAME */
	struct lg_ynode nodes[LG_YFLAT_MAX + 1]; /* scalar values, then NAME */
	char text[256];              /* the line, with the scalars' ends made NULs */
	size_t n;                    /* pairs in kv */
	struct lg_yflat_pair {
		const char *key;     /* the key's text in the loaded text (not NUL-ended) */
		size_t len;          /* its bytes */
		struct lg_ynode *val; /* its value, a node of c->scratch */
	} kv[LG_YFLAT_MAX];
};

/* Compile a step from its tree (step) or read flat (flat); both as fn of lg_yfast_steps.
 * flat returns -EAGAIN, having done nothing, for a step it leaves to the tree's way. */
typedef int (*lg_ystep_fn)(struct lg_yctx *c, const struct lg_ynode *step);
typedef int (*lg_yflat_fn)(struct lg_yctx *c, const struct lg_yflat *s);

/* Read the lazy list seq item by item (each in c->scratch, gone once compiled), compile
 * each with flat when it is a flat step, else from its tree with step, and replay an
 * item identical to an earlier one from a memo (yaml_memo.c). Returns the first error,
 * -ENOMEM, or -EAGAIN when an item is outside the fast subset: the caller must then load
 * again with c->no_fast. */
int lg_yfast_steps(struct lg_yctx *c, const struct lg_ynode *seq, lg_ystep_fn step,
		   lg_yflat_fn flat);
/* Empty an arena but for its newest block; free one entirely. NULL is fine. */
void lg_yarena_reset(struct lg_yarena **arena);
void lg_yarena_free(struct lg_yarena **arena);
/* "a scalar", "a sequence" or "a mapping", for messages. */
const char *lg_ykind_name(const struct lg_ynode *n);
/* Whether n is a YAML null: a plain empty scalar, "~" or "null". */
bool lg_yis_null(const struct lg_ynode *n);
/* Look up the keys of mapping map (what names it in messages). keys is NULL-terminated;
 * vals[i] gets the value of keys[i] or NULL. Unknown and duplicate keys are errors.
 * Returns 0 or -EINVAL. */
int lg_ykeys(struct lg_yctx *c, const struct lg_ynode *map, const char *what,
	     const char *const *keys, const struct lg_ynode **vals);

/* --- scalars (yaml_load.c); "what" names the key in messages --- */

/* What lg_ystring does for a scalar that may hold a '$' (and for any other). */
int lg_ystring_expand(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		      bool path, const char **out);
/* The text of scalar n with ${...} expanded; path: keep ${client} for the engine and
 * the ${name} of variables picked so far for lg_ypath. *out points into c->buf, valid
 * until the next expansion. 0 or -EINVAL/-ENOMEM. Most values have nothing to expand,
 * and the fast reader says so: those are their text, without a call. */
static inline int lg_ystring(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
			     bool path, const char **out)
{
	if (n->kind == LG_YSCALAR && n->literal) {
		*out = n->text;
		return 0;
	}
	return lg_ystring_expand(c, n, what, path, out);
}
/* What lg_ysize does for a size that is not a plain number (and for any other). */
int lg_ysize_units(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		   uint64_t *out);
/* Scalar n as a size (units.h). 0 or -EINVAL. A plain decimal of at most 19 digits (below
 * 2^64), the size or offset of most steps of big loadfiles, is read here, inline and
 * without lg_parse_size's units. */
static inline int lg_ysize(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
			   uint64_t *out)
{
	uint64_t v = 0;
	int i = 0;

	if (n->literal) {
		for (; i < 19 && n->text[i] >= '0' && n->text[i] <= '9'; i++)
			v = v * 10 + (uint64_t)(n->text[i] - '0');
		if (i > 0 && !n->text[i]) {
			*out = v;
			return 0;
		}
	}
	return lg_ysize_units(c, n, what, out);
}
/* Scalar n as a count. 0 or -EINVAL. */
int lg_ycount(struct lg_yctx *c, const struct lg_ynode *n, const char *what, uint64_t *out);
/* Scalar n as a duration in ns. 0 or -EINVAL. */
int lg_yduration(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 uint64_t *out);
/* Scalar n as a checked path template; *index into wl->paths. A path with a variable
 * is a file set: *index is its first path and *var the variable (0 without one; var
 * NULL: a variable is an error). 0, -EINVAL or -ENOMEM. */
int lg_ypath(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
	     uint32_t *index, uint16_t *var);
/* Free c's memo of compiled paths (lg_ypath). Fine when there is none. */
void lg_ypath_memo_free(struct lg_yctx *c);
/* Scalar n as the name of a file slot already bound by an earlier open. */
int lg_yslot_use(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 uint32_t *index);
/* Scalar n as the name of a file slot an open binds (created if new). */
int lg_yslot_bind(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		  uint32_t *index);
/* expect: "ok", "any" or an errno name -> LG_EXPECT_OK, LG_EXPECT_ANY or the errno. */
int lg_yexpect(struct lg_yctx *c, const struct lg_ynode *n, int32_t *out);
/* The stats row of an op: label n if given (may be NULL), else name; at: the op, for
 * messages. 0, -EINVAL (empty or long label, too many labels) or -ENOMEM. */
int lg_ylabel(struct lg_yctx *c, const struct lg_ynode *n, const struct lg_ynode *at,
	      const char *name, uint16_t *type);

/* --- vocabulary lookups (yaml_vocab.c); "what" names the word in messages --- */

/* Scalar n as one name from tab: bit i of *seen is set for tab[i]. An unknown name is
 * an error that lists tab and suggests the closest. 0 or -EINVAL. */
int lg_yflag_one(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 const struct lg_yflag *tab, unsigned *seen);
/* A name or a list of names from tab (the flags key); *seen as lg_yflag_one. */
int lg_yflag_set(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 const struct lg_yflag *tab, unsigned *seen);
/* OR of the values of the entries of tab in seen. */
int lg_yflag_value(const struct lg_yflag *tab, unsigned seen);
/* "; did you mean 'X'?" for the closest of names[0..n) (NULL entries skipped) to word,
 * or "", into buf. Returns buf. */
const char *lg_yhint(const char *word, const char *const *names, size_t n, char *buf,
		     size_t len);

/* --- a recorded program's streams (yaml_streams.c) --- */

struct lg_ystreams;
/* The top-level 'streams' list into the run phase and lg_workload.streams. 0, -EINVAL,
 * -ENOMEM, or -EAGAIN for a lazy list (libyaml must read the text). */
int lg_ycompile_streams(struct lg_yctx *c, const struct lg_ynode *seq);
/* The steps 'after: {stream: NAME, calls: N}' and 'think: DURATION' (streams only). */
int lg_ycompile_after(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
		      const struct lg_ynode *val);
int lg_ycompile_think(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
		      const struct lg_ynode *val);
/* --- phases between barriers (yaml_barrier.c) --- */

/* The step 'barrier: NAME' or 'barrier: {phase: NAME, items: LABEL}'. */
int lg_ycompile_barrier(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
			const struct lg_ynode *val);
/* Once every phase is compiled: no barrier beside streams, and each phase's items label
 * is some op's of the run phase. 0 or -EINVAL. */
int lg_ybarriers_check(struct lg_yctx *c);
/* The top-level 'recorded' mapping (may be NULL) into lg_workload.recorded. */
int lg_yrecorded(struct lg_yctx *c, const struct lg_ynode *map);

/* --- slots opened twice (yaml_reopen.c) --- */

struct lg_yreopen;
/* Before an open binds slot (its 'as' is node n): fail when the slot is provably still
 * open from an earlier open of the same phase (straight-line code, no close between).
 * 0, -EINVAL or -ENOMEM. */
int lg_yreopen_check(struct lg_yctx *c, const struct lg_ynode *n, uint32_t slot);
/* Whether slot is provably still open (as lg_yreopen_check would fail), without a
 * message. 0 or -ENOMEM. */
int lg_yreopen_open(struct lg_yctx *c, uint32_t slot, bool *open);
/* Free the state kept in c->reopen. NULL is fine. */
void lg_yreopen_free(struct lg_yreopen *r);
/* Forget what is known of open slots: the steps from here on start a new stream. */
void lg_yreopen_reset(struct lg_yctx *c);

/* --- steps written again (yaml_memo.c) --- */

struct lg_ymemo;
/* What identifies a step line in the memo. */
struct lg_ymemo_key {
	const char *line; /* its text (in the loaded text, which outlives the memo) */
	size_t len;       /* its bytes */
	uint64_t hash;    /* its 64-bit XXH3 hash */
};
/* A memo for the steps of one top-level list, compiled into phase. 0 or -ENOMEM. */
int lg_ymemo_create(enum lg_phase phase, struct lg_ymemo **out);
void lg_ymemo_destroy(struct lg_ymemo *m); /* NULL is fine */
/* The key of the len bytes of a step line at s (kept by the memo: s must outlive it). */
void lg_ymemo_key(const char *s, size_t len, struct lg_ymemo_key *k);
/* If the line of k compiled to one op before, append that op again with line number
 * line and return 1; 0 when it must be compiled; -ENOMEM. */
int lg_ymemo_replay(struct lg_yctx *c, struct lg_ymemo *m, const struct lg_ymemo_key *k,
		    uint32_t line);
/* Keep the line of k, which compiled to op, the index of an op of the memo's phase (in
 * place of an older line). */
void lg_ymemo_add(struct lg_ymemo *m, const struct lg_ymemo_key *k, uint32_t op);

/* --- steps (yaml_steps.c) --- */

/* The top-level 'labels' (map, may be NULL): op name -> the label of its steps that
 * have none, into c->label_of. 0 or -EINVAL. */
int lg_ylabels(struct lg_yctx *c, const struct lg_ynode *map);
/* Compile the sequence of steps seq (what names it in messages) into c->phase.
 * Returns 0, -EINVAL or -ENOMEM. */
int lg_ysteps(struct lg_yctx *c, const struct lg_ynode *seq, const char *what);

/* --- file sets (yaml_pick.c) --- */

/* pick: {var: NAME, count: N, order: random|seq|shuffle} -> LG_OP_PICK. */
int lg_ycompile_pick(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
		     const struct lg_ynode *val);
/* The variable that path s (from scalar n) uses, 0 for none; two different ones are an
 * error. 0 or -EINVAL. */
int lg_ypath_var(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 const char *s, uint16_t *var);
/* The file set of path template s over var: *index gets its first path. 0, -EINVAL
 * (past the limits of file sets) or -ENOMEM. */
int lg_ypath_set(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 const char *s, uint16_t var, uint32_t *index);

/* The file ops of yaml_steps.c's table (yaml_fill.c): v holds the values of the op's
 * keys in the table's order, NULL for those not given; 0 or -EINVAL (message in c). */
int lg_yfill_open(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_create(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_file(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_syncfs(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_path(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_named(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_rename(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_truncate(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_sleep(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);

/* read, write: file, size, offset, range, align, base, count, vector; sync_file_range:
 * ..., flags; fadvise: ..., advice; seek, fallocate, getdents (yaml_io.c). */
int lg_yfill_io(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_sfr(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_fadvise(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_seek(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_fallocate(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_getdents(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);

/* The calls of recorded programs on names and attributes (yaml_meta.c): link (from, to),
 * symlink (target, path), readlink (path), chmod (path, file, mode), chown, utimens and
 * statx (path, file, nofollow: lg_yfill_object), access (path, mode), stat (path,
 * resolve, follow), the xattr ops (path, file, nofollow, then name, size, flags as the
 * op has them). */
int lg_yfill_link(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_symlink(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_readlink(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_chmod(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_object(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_access(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_stat(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
int lg_yfill_xattr(struct lg_yctx *c, const struct lg_ynode *const *v, struct lg_op *op);
/* --- the writer's arguments of those ops (yaml_write_meta.c) --- */

/* How an argument's value is printed. */
enum lg_ywarg_type {
	LG_YWARG_STR,   /* s, double-quoted */
	LG_YWARG_WORD,  /* s as it is (NULL: value flags has no name, an error) */
	LG_YWARG_NUM,   /* num in decimal */
	LG_YWARG_INT,   /* num as an int64_t in decimal */
	LG_YWARG_MODE,  /* num in octal, as 0644 */
	LG_YWARG_FLAGS, /* a list of the names in tab of the bits of flags */
	LG_YWARG_PATH   /* path num of wl->paths, or with var the template of its set */
};
/* One argument of a step, as yaml_write.c prints it. */
struct lg_ywarg {
	const char *key;
	enum lg_ywarg_type type;
	const char *s;              /* STR, WORD: the text */
	uint64_t num;               /* NUM, INT, MODE: the value; PATH: the path index */
	uint16_t var;               /* PATH: its variable (0: none) */
	const struct lg_yflag *tab; /* FLAGS: the names of the bits */
	int flags;                  /* FLAGS: the bits; WORD: the value (for messages) */
};
#define LG_YWARG_MAX 6 /* arguments of one op, at most */
/* The arguments of op, if it is one of the calls of recorded programs, into a[*n] (at
 * most LG_YWARG_MAX). 0, or -ENOENT for any other op. */
int lg_ywrite_meta_args(const struct lg_workload *wl, const struct lg_op *op,
			struct lg_ywarg *a, size_t *n);

/* --- the writer's labels (yaml_write_labels.c) --- */

#define LG_YW_NAMES (LG_OP_KIND_COUNT + 1) /* op names: each kind, and "create" last */
/* s as a YAML double-quoted scalar (yaml_write.c). */
void lg_ywrite_quoted(FILE *f, const char *s);
/* The op's name index: its kind, or LG_OP_KIND_COUNT for an open that creates. */
size_t lg_ywrite_name_index(const struct lg_op *op);
/* The top-level 'labels' of wl into f: per name index, the label more than half of its
 * steps (two at least) have, when it is not the name, also into label_of[] (LG_YW_NAMES
 * entries, NULL for the others), so that those steps are written without it. */
void lg_ywrite_labels(FILE *f, const struct lg_workload *wl, const char **label_of);

/* Scalar n as a boolean: true, false, yes or no. 0 or -EINVAL. */
int lg_ybool(struct lg_yctx *c, const struct lg_ynode *n, const char *what, bool *out);

#endif
