/* dbench loadfile -> compiled workload.
 *
 * One pass over the text, one op per line, no allocation per line: each line is split
 * in place into fields (spans of the text), its op word looked up in specs[], its
 * arguments checked and converted by the argument letters of the spec, and the op
 * appended to the run phase. Splitting, numbers and the maps that remember what a path
 * or handle field compiled to are in dbench_parse.c: a field seen before is hashed once
 * and not converted again, so the 458,000 lines of client.txt load in a few tens of
 * ms. C strings are made only for what is rare: messages, a path's first sight, and
 * statuses other than NT_STATUS_OK.
 *
 * What each op does at run time is in ops_dbench.c (and ops.c for the ops that map
 * onto plain POSIX ones: ReadX is a pread, Close a close, ...). */
#include "loadgen/load/dbench_load.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dbench_names.h"
#include "dbench_args.h"
#include "dbench_parse.h"

#define MAX_IO (1ULL << 30)    /* bytes per ReadX/WriteX: each client allocates the largest */
#define CLIENT_DIR "clients/client" LG_CLIENT_PLACEHOLDER
#define MAX_DEPTH LG_DBENCH_MAX_DEPTH

/* The argument helpers of dbench_args.c under their short local names. */
#define fail lg_dbench_fail
#define nomem lg_dbench_nomem

typedef int (*build_fn)(struct dctx *c, struct lg_op *op, const uint64_t *num);

/* How one dbench op compiles. */
struct dspec {
	const char *word;   /* op word in the loadfile, matched ignoring case as dbench does */
	size_t len;         /* strlen(word) */
	unsigned required;  /* arguments that must be there: letters of args before '|' */
	const char *label;  /* stats label, dbench's short name */
	enum lg_op_kind kind;
	const char *args;   /* per argument before the status: p path, f find path,
			       h handle in use, H handle opened, n number; those after
			       a '|' may be left out */
	const char *usage;  /* the arguments, for messages */
	build_fn build;     /* kind-specific fields from the numbers, or NULL */
};

/* ---- the ops ---- */

/* NTCreateX OPTIONS DISPOSITION. */
static int build_ntcreate(struct dctx *c, struct lg_op *op, const uint64_t *num)
{
	if (lg_dbench_create_flags(num[0], num[1], &op->flags))
		return fail(c, "bad create disposition %llu (expected 0 to 5)",
			    (unsigned long long)num[1]);
	return 0;
}

/* ReadX/WriteX OFFSET SIZE RET_SIZE: one pread/pwrite of SIZE bytes at OFFSET. The
 * traced server's RET_SIZE is not checked: the bytes counted are what the call
 * returned, and a short read at the end of a file is no error (as in dbench). */
static int build_rw(struct dctx *c, struct lg_op *op, const uint64_t *num)
{
	if (num[1] == 0 || num[1] > MAX_IO)
		return fail(c, "size %llu: must be 1 byte to 1 GiB", (unsigned long long)num[1]);
	if (num[0] > (uint64_t)INT64_MAX - num[1])
		return fail(c, "offset %llu + size is past the largest file offset",
			    (unsigned long long)num[0]);
	op->off_mode = LG_OFF_FIXED;
	op->offset = num[0];
	op->size = num[1];
	return 0;
}

/* LockX/UnlockX OFFSET SIZE. */
static int build_lock(struct dctx *c, struct lg_op *op, const uint64_t *num)
{
	if (num[0] > INT64_MAX || num[1] > (uint64_t)INT64_MAX - num[0])
		return fail(c, "lock range %llu+%llu is past the largest file offset",
			    (unsigned long long)num[0], (unsigned long long)num[1]);
	op->offset = num[0];
	op->size = num[1];
	return 0;
}

/* FIND_FIRST LEVEL MAXCOUNT COUNT: read up to MAXCOUNT matches. */
static int build_find(struct dctx *c, struct lg_op *op, const uint64_t *num)
{
	(void)c;
	op->size = num[1];
	return 0;
}

/* Mkdir: dbench's fileio ignores mkdir's result, and every client makes the shared
 * \clients, so all but one get EEXIST: a success status is not checked. */
static int build_mkdir(struct dctx *c, struct lg_op *op, const uint64_t *num)
{
	(void)c;
	(void)num;
	if (op->expect == LG_EXPECT_OK)
		op->expect = LG_EXPECT_ANY;
	return 0;
}

static const struct dspec specs[] = {
	{ "NTCreateX", 9, 4, "NTCreateX", LG_OP_NTCREATE, "pnnH", "PATH OPTIONS DISPOSITION FNUM",
	  build_ntcreate },
	{ "Close", 5, 1, "Close", LG_OP_CLOSE, "h", "FNUM", NULL },
	{ "Rename", 6, 2, "Rename", LG_OP_RENAME, "pp", "OLDPATH NEWPATH", NULL },
	{ "Unlink", 6, 1, "Unlink", LG_OP_UNLINK, "p|n", "PATH [ATTRIBUTES]", NULL },
	{ "Deltree", 7, 1, "Deltree", LG_OP_DELTREE, "p", "PATH", NULL },
	{ "Mkdir", 5, 1, "Mkdir", LG_OP_MKDIR, "p", "PATH", build_mkdir },
	{ "Rmdir", 5, 1, "Rmdir", LG_OP_RMDIR, "p", "PATH", NULL },
	{ "QUERY_PATH_INFORMATION", 22, 2, "Qpathinfo", LG_OP_STAT, "pn", "PATH LEVEL", NULL },
	{ "QUERY_FILE_INFORMATION", 22, 2, "Qfileinfo", LG_OP_FSTAT, "hn", "FNUM LEVEL", NULL },
	{ "QUERY_FS_INFORMATION", 20, 1, "Qfsinfo", LG_OP_STATFS, "n", "LEVEL", NULL },
	{ "SET_FILE_INFORMATION", 20, 2, "Sfileinfo", LG_OP_SETINFO, "hn", "FNUM LEVEL", NULL },
	{ "FIND_FIRST", 10, 4, "Find", LG_OP_FIND, "fnnn", "PATH LEVEL MAXCOUNT COUNT", build_find },
	{ "WriteX", 6, 4, "WriteX", LG_OP_WRITE, "hnnn", "FNUM OFFSET SIZE RET_SIZE", build_rw },
	{ "ReadX", 5, 4, "ReadX", LG_OP_READ, "hnnn", "FNUM OFFSET SIZE RET_SIZE", build_rw },
	{ "LockX", 5, 3, "LockX", LG_OP_LOCK, "hnn", "FNUM OFFSET SIZE", build_lock },
	{ "UnlockX", 7, 3, "UnlockX", LG_OP_UNLOCK, "hnn", "FNUM OFFSET SIZE", build_lock },
	{ "Flush", 5, 1, "Flush", LG_OP_FSYNC, "h", "FNUM", NULL },
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))
_Static_assert(NSPECS <= sizeof(((struct dctx *)0)->types) / sizeof(int32_t) &&
	       NSPECS <= sizeof(((struct dctx *)0)->most),
	       "dctx.types and dctx.most have an entry per spec");

/* dbench's directives: lines without a status that steer the replay. */
enum directive { D_LOOP, D_ENDLOOP, D_REPEAT, D_SLEEP, D_UNSUPPORTED, D_NONE };
static const char *const directives[] = {
	"LOOP", "ENDLOOP", "REPEAT", "SLEEP", "SETSP", "WAITSP", "WRITEPATTERN",
	"RANDOMSTRING", NULL,
};

static enum directive directive_of(const char *word, size_t len)
{
	for (int i = 0; directives[i]; i++)
		if (strlen(directives[i]) == len && !strncasecmp(word, directives[i], len))
			return i < D_UNSUPPORTED ? (enum directive)i : D_UNSUPPORTED;
	return D_NONE;
}

/* Whether op word tok (len bytes) is spec's, ignoring case as dbench does; the table's
 * own spelling, by far the most common, is a memcmp. */
static bool word_is(const char *tok, size_t len, const struct dspec *spec)
{
	/* the first letter first: six words have five letters */
	return spec->len == len && (tok[0] | 0x20) == (spec->word[0] | 0x20) &&
	       (!memcmp(tok, spec->word, len) || !strncasecmp(tok, spec->word, len));
}

static const struct dspec *spec_of(const char *word, size_t len)
{
	for (size_t i = 0; i < NSPECS; i++)
		if (word_is(word, len, &specs[i]))
			return &specs[i];
	return NULL;
}

/* An op with every optional field unset, from line c->line. */
static struct lg_op blank_op(const struct dctx *c, enum lg_op_kind kind)
{
	return (struct lg_op){
		.kind = (uint8_t)kind, .expect = LG_EXPECT_OK, .slot = LG_NO_SLOT,
		.path = LG_NO_SLOT, .path2 = LG_NO_SLOT, .line = c->line,
		.count = kind < LG_OP_LOOP, .align = 1, /* as the YAML loader makes them */
	};
}

/* End the block of the LOOP at ops index at: a NEXT back to its first op, and the
 * LOOP's target past the NEXT. */
static int close_loop(struct dctx *c, uint32_t at)
{
	struct lg_op *ops, next = blank_op(c, LG_OP_NEXT);

	next.slot = c->wl->ops[LG_PHASE_RUN][at].slot;
	next.target = at + 1;
	if (lg_workload_add_op(c->wl, LG_PHASE_RUN, &next, NULL))
		return nomem(c);
	ops = c->wl->ops[LG_PHASE_RUN];
	ops[at].target = (uint32_t)c->wl->nops[LG_PHASE_RUN];
	return 0;
}

/* Whether op makes a directory (Mkdir, or an NTCreateX of a directory that creates). */
static bool makes_dir(const struct lg_op *op)
{
	return op->kind == LG_OP_MKDIR ||
	       (op->kind == LG_OP_NTCREATE && (op->flags & O_DIRECTORY) && (op->flags & O_CREAT));
}

/* Remember what relax_made_dirs needs of op, the run phase's op number at: the
 * directory it makes, and whether its status says its path is missing (Find's path is
 * the directory it looks in, not what is missing). An open that makes a directory and
 * expects ENOENT is both. */
static int note_dirs(struct dctx *c, const struct lg_op *op, uint32_t at)
{
	if (makes_dir(op) && op->path != LG_NO_SLOT) {
		if (lg_dbench_flags_room(c, &c->made, &c->nmade, op->path, c->wl->npaths))
			return -ENOMEM;
		c->made[op->path] = 1;
	}
	if (op->expect == ENOENT && op->kind != LG_OP_FIND && op->path != LG_NO_SLOT) {
		if (c->nmissing == c->cap_missing) {
			size_t n = c->cap_missing * 2 + 1024;
			uint32_t *m = realloc(c->missing, n * sizeof(*m));

			if (!m)
				return nomem(c);
			c->missing = m;
			c->cap_missing = n;
		}
		c->missing[c->nmissing++] = at;
	}
	return 0;
}

/* Append op to the run phase; closes a pending REPEAT around it. */
static int add(struct dctx *c, const struct lg_op *op, uint32_t *index)
{
	uint32_t at = (uint32_t)c->wl->nops[LG_PHASE_RUN];

	if (lg_workload_add_op(c->wl, LG_PHASE_RUN, op, index))
		return nomem(c);
	if (op->kind < LG_OP_LOOP && note_dirs(c, op, at))
		return -ENOMEM;
	if (!c->repeat || op->kind == LG_OP_LOOP)
		return 0;
	c->repeat = false;
	return close_loop(c, c->repeat_at);
}

/* The nargs arguments of an op line, converted by the letters of spec->args; ok: the
 * line's status is a success. */
static int op_args(struct dctx *c, const struct dspec *spec, unsigned nargs, bool ok,
		   struct lg_op *op, uint64_t *num)
{
	const char *const *arg = c->fields.tok + 1;
	const uint32_t *len = c->fields.len + 1;
	unsigned np = 0, nn = 0, bar = spec->required;
	int rc = 0;

	for (unsigned i = 0; !rc && i < nargs; i++) {
		switch (spec->args[i + (i >= bar)]) {
		case 'p':
			rc = lg_dbench_arg_path(c, arg[i], len[i], np++ ? &op->path2 : &op->path);
			break;
		case 'f':
			rc = lg_dbench_arg_find(c, arg[i], len[i], op);
			break;
		case 'h':
			rc = lg_dbench_arg_handle(c, arg[i], len[i], &op->slot);
			break;
		case 'H':
			rc = lg_dbench_arg_open_handle(c, arg[i], len[i], ok, &op->slot);
			break;
		default:
			rc = lg_dbench_arg_number(c, arg[i], len[i], "argument", &num[nn++]);
		}
	}
	return rc;
}

/* Whether dbench resolves the names of an op of kind (its resolve_name) before the
 * call; NTCreateX and Find always do (ops_dbench.c), for these the op is flagged. */
static bool resolves(enum lg_op_kind kind)
{
	return kind == LG_OP_STAT || kind == LG_OP_UNLINK || kind == LG_OP_RMDIR ||
	       kind == LG_OP_MKDIR || kind == LG_OP_RENAME;
}

/* The stats row of spec's label, interned once per load. */
static int op_type(struct dctx *c, const struct dspec *spec, uint16_t *type)
{
	int32_t *t = &c->types[spec - specs];

	if (!*t) {
		if (lg_workload_type(c->wl, spec->label, type))
			return nomem(c);
		*t = *type + 1;
	}
	*type = (uint16_t)(*t - 1);
	return 0;
}

/* The status and the number of arguments of an op line other than "... NT_STATUS_OK"
 * with the right count: into op->expect and *ok, or the message why they are wrong. */
static int check_status(struct dctx *c, const struct dspec *spec, unsigned n, size_t want,
			size_t most, struct lg_op *op, bool *ok)
{
	const char *const *tok = c->fields.tok;

	lg_dbench_cstrings(c);
	if (n < 2 || (!*ok && !lg_dbench_status_like(tok[n - 1])))
		return fail(c, "'%s' needs a status at the end of the line (%s %s STATUS, "
			    "STATUS like NT_STATUS_OK)", tok[0], spec->word, spec->usage);
	if (n - 2 < want || n - 2 > most)
		return fail(c, "'%s' takes %s%zu argument%s before the status (%s %s STATUS), "
			    "not %u", tok[0], most > want ? "up to " : "", most,
			    most == 1 ? "" : "s", spec->word, spec->usage, n - 2);
	if (!*ok && lg_dbench_status(tok[n - 1], &op->expect, ok))
		return fail(c, "unknown status '%s' (loadfiles/README.md lists those loadgen "
			    "knows)", tok[n - 1]);
	return 0;
}

/* One op line: the op word, then its arguments, then the status. */
static int compile_op(struct dctx *c, const struct dspec *spec, unsigned n)
{
	const char *const *tok = c->fields.tok;
	struct lg_op op = blank_op(c, spec->kind);
	size_t want = spec->required, most = c->most[spec - specs];
	uint64_t num[4] = { 0 };
	bool ok = n >= 2 && c->fields.len[n - 1] == 12 &&
		  !memcmp(tok[n - 1], "NT_STATUS_OK", 12); /* most lines */
	int rc;

	if ((!ok || n - 2 < want || n - 2 > most) &&
	    (rc = check_status(c, spec, n, want, most, &op, &ok)))
		return rc;
	/* '*' does not care how the open ends: later lines may use the handle */
	rc = op_args(c, spec, n - 2, ok || (c->fields.len[n - 1] == 1 && tok[n - 1][0] == '*'),
		     &op, num);
	if (!rc && spec->build)
		rc = spec->build(c, &op, num);
	if (resolves(spec->kind))
		op.flags |= LG_OP_RESOLVE;
	if (!rc)
		rc = op_type(c, spec, &op.type);
	if (!rc && spec->kind == LG_OP_CLOSE)
		rc = lg_dbench_set_open(c, op.slot, false);
	return rc ? rc : add(c, &op, NULL);
}

/* A directive line: LOOP N ... ENDLOOP, REPEAT N (the next op N times), SLEEP USEC. */
static int compile_directive(struct dctx *c, enum directive d, unsigned n)
{
	const char *const *tok = c->fields.tok;
	struct lg_op op = blank_op(c, d == D_SLEEP ? LG_OP_SLEEP : LG_OP_LOOP);
	uint64_t v = 0;
	uint32_t at;
	int rc;

	if (d == D_UNSUPPORTED)
		return fail(c, "dbench's '%s' is not supported by loadgen", tok[0]);
	if (n != (d == D_ENDLOOP ? 1u : 2u))
		return fail(c, d == D_ENDLOOP ? "'%s' takes no arguments" :
			    "'%s' takes one number", tok[0]);
	if (c->repeat && d != D_SLEEP)
		return fail(c, "REPEAT must be followed by an op, not '%s'", tok[0]);
	if (d != D_ENDLOOP && (rc = lg_dbench_arg_number(c, tok[1], c->fields.len[1], tok[0], &v)))
		return rc;
	if (d == D_SLEEP) {
		if (v > UINT64_MAX / 1000)
			return fail(c, "SLEEP %s: too long", tok[1]);
		op.size = v * 1000; /* microseconds, as usleep */
		if (lg_workload_type(c->wl, "Sleep", &op.type))
			return nomem(c);
		return add(c, &op, NULL);
	}
	if (d == D_ENDLOOP) {
		if (!c->depth)
			return fail(c, "ENDLOOP without LOOP");
		at = c->loops[--c->depth];
		if (at + 1 == c->wl->nops[LG_PHASE_RUN])
			return fail(c, "no op between LOOP and ENDLOOP");
		return close_loop(c, at);
	}
	if (d == D_LOOP && c->depth == MAX_DEPTH)
		return fail(c, "LOOPs nested deeper than %d", MAX_DEPTH);
	op.count = v;
	op.slot = c->wl->nloops++;
	rc = add(c, &op, &at);
	if (rc)
		return rc;
	if (d == D_REPEAT) {
		c->repeat = true;
		c->repeat_at = at;
	} else {
		c->loop_line[c->depth] = c->line;
		c->loops[c->depth++] = at;
	}
	return 0;
}

static int compile_line(struct dctx *c, const char *p, const char *end, const char **eol)
{
	const char **tok = c->fields.tok;
	uint32_t *len = c->fields.len;
	const struct dspec *spec;
	enum directive d;
	int rc = lg_dbench_tokenize(c, p, end, eol);
	unsigned n = c->fields.n;

	if (rc || n == 0 || (len[0] && tok[0][0] == '#'))
		return rc;
	if (len[0] && tok[0][0] >= '0' && tok[0][0] <= '9') {
		/* a timed loadfile: the time to start the op at, not replayed */
		if (n == 1)
			return fail(c, "a timestamp without an op");
		memmove(tok, tok + 1, --n * sizeof(*tok));
		memmove(len, len + 1, n * sizeof(*len));
		c->fields.n = n;
	}
	/* ops first (directives are rare), and the previous line's op before the table */
	if (c->last && word_is(tok[0], len[0], c->last))
		return compile_op(c, c->last, n);
	spec = spec_of(tok[0], len[0]);
	if (spec) {
		c->last = spec;
		return compile_op(c, spec, n);
	}
	lg_dbench_cstrings(c); /* from here on, what is rare: C strings */
	d = directive_of(tok[0], len[0]);
	if (d != D_NONE)
		return compile_directive(c, d, n);
	return fail(c, "unknown op '%s' (expected NTCreateX, Close, Rename, Unlink, "
		    "Deltree, Mkdir, Rmdir, QUERY_PATH_INFORMATION, "
		    "QUERY_FILE_INFORMATION, QUERY_FS_INFORMATION, "
		    "SET_FILE_INFORMATION, FIND_FIRST, WriteX, ReadX, LockX, UnlockX, "
		    "Flush, LOOP, ENDLOOP, REPEAT or SLEEP)", tok[0]);
}

/* Setup: the shared \clients and the client's own directory, which dbench's own
 * loadfiles take as given (client.txt starts with Deltree "\clients\client1"). Their
 * results are not checked: every client makes the shared one. */
static int add_setup(struct dctx *c)
{
	static const char *const dirs[] = { "clients", CLIENT_DIR };
	struct lg_op op = blank_op(c, LG_OP_MKDIR);

	op.expect = LG_EXPECT_ANY;
	if (lg_workload_type(c->wl, "Mkdir", &op.type))
		return nomem(c);
	for (size_t i = 0; i < 2; i++)
		if (lg_workload_path(c->wl, dirs[i], &op.path) ||
		    lg_workload_add_op(c->wl, LG_PHASE_SETUP, &op, NULL))
			return nomem(c);
	return 0;
}

/* dbench's Deltree empties directories but leaves them (fileio's deltree unlinks files
 * only, and loadgen makes the same calls), so when a run goes through the loadfile
 * again, every directory the file makes is still there: a status saying that it is
 * missing held on the first pass only. Such statuses are not checked -- dbench's
 * fileio checks none of them (its Qpathinfo and Find only resolve the name). */
static void relax_made_dirs(struct dctx *c)
{
	struct lg_op *ops = c->wl->ops[LG_PHASE_RUN];

	for (size_t i = 0; i < c->nmissing; i++) {
		struct lg_op *op = &ops[c->missing[i]];

		if (op->path < c->nmade && c->made[op->path])
			op->expect = LG_EXPECT_ANY;
	}
}

/* Every line, then what must be closed at the end. */
static int compile_text(struct dctx *c, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int rc = 0;

	while (!rc && p < end) {
		const char *eol;

		c->line++;
		rc = compile_line(c, p, end, &eol);
		p = eol < end ? eol + 1 : end;
	}
	if (rc)
		return rc;
	if (c->repeat) {
		c->line = c->wl->ops[LG_PHASE_RUN][c->repeat_at].line;
		return fail(c, "REPEAT without an op after it");
	}
	if (c->depth) {
		c->line = c->loop_line[c->depth - 1];
		return fail(c, "LOOP without ENDLOOP");
	}
	for (size_t i = 0; i < c->wl->nops[LG_PHASE_RUN]; i++)
		if (c->wl->ops[LG_PHASE_RUN][i].kind < LG_OP_LOOP) {
			relax_made_dirs(c);
			return 0;
		}
	c->line = 1;
	return fail(c, "no dbench ops in the file");
}

/* The next word of [*p, end) into word (len bytes, truncated), *p moved past it. */
static void next_word(const char **p, const char *end, char *word, size_t len)
{
	size_t n = 0;

	while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r'))
		(*p)++;
	for (; *p < end && !strchr(" \t\r", **p) && **p; (*p)++)
		if (n + 1 < len)
			word[n++] = **p;
	word[n] = '\0';
}

bool lg_dbench_detect(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
		char word[32];

		next_word(&p, eol, word, sizeof(word));
		if (word[0] >= '0' && word[0] <= '9') /* a timestamp: the op word follows */
			next_word(&p, eol, word, sizeof(word));
		if (word[0] && word[0] != '#')
			return spec_of(word, strlen(word)) ||
			       directive_of(word, strlen(word)) != D_NONE;
		p = eol + 1;
	}
	return false;
}

int lg_dbench_load(const char *fname, const char *text, size_t len, unsigned clients,
		   struct lg_workload **out, char *err, size_t errlen)
{
	struct dctx c = { .fname = fname, .err = err, .errlen = errlen, .last_slot = LG_NO_SLOT };
	const char *base = strrchr(fname, '/');
	char name[256];
	int rc;

	(void)clients;
	for (size_t i = 0; i < NSPECS; i++) /* the letters of args but the '|' */
		c.most[i] = (uint8_t)(strlen(specs[i].args) - !!strchr(specs[i].args, '|'));
	if (err && errlen)
		err[0] = '\0';
	if (lg_workload_create(&c.wl))
		return nomem(&c);
	base = base ? base + 1 : fname;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), *base ? base : "dbench");
	rc = add_setup(&c);
	/* about an op per line; lines of client.txt are 57 bytes on average */
	lg_workload_reserve(c.wl, LG_PHASE_RUN, len / 40);
	if (!rc)
		rc = compile_text(&c, text ? text : "", text ? len : 0);
	if (!rc)
		lg_workload_trim(c.wl);
	if (!rc && lg_workload_set_source(c.wl, name[0] ? name : "dbench", fname,
					  text ? text : "", text ? len : 0))
		rc = nomem(&c);
	free(c.scratch);
	free(c.open);
	lg_dbench_map_free(&c.paths);
	lg_dbench_map_free(&c.finds);
	lg_dbench_map_free(&c.handles);
	free(c.made);
	free(c.missing);
	if (rc) {
		lg_workload_destroy(c.wl);
		return rc;
	}
	*out = c.wl;
	return 0;
}
