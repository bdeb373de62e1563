/* dbench loadfile -> compiled workload.
 *
 * One pass over the text, one op per line, no allocation per line: each line is split
 * into a reusable scratch buffer, its op word looked up in specs[], its arguments
 * checked and converted by the argument letters of the spec, and the op appended to
 * the run phase. Paths, handles and labels are interned (hashed) in the workload, so
 * a 458,000-line client.txt loads in a fraction of a second.
 *
 * What each op does at run time is in ops_dbench.c (and ops.c for the ops that map
 * onto plain POSIX ones: ReadX is a pread, Close a close, ...). */
#include "loadgen/dbench_load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dbench_names.h"

#define MAX_TOKENS 16          /* fields on one line; dbench's ops have at most 7 */
#define MAX_DEPTH 16           /* nesting of LOOP blocks */
#define MAX_IO (1ULL << 30)    /* bytes per ReadX/WriteX: each client allocates the largest */
#define CLIENT_DIR "clients/client" LG_CLIENT_PLACEHOLDER

/* State of one load. */
struct dctx {
	const char *fname;       /* for messages */
	char *err;               /* message buffer */
	size_t errlen;
	struct lg_workload *wl;  /* being built */
	uint32_t line;           /* 1-based line being compiled */
	char *scratch;           /* the current line's tokens (owned) */
	size_t cap;              /* allocated bytes of scratch */
	char path[LG_DBENCH_MAX_PATH + 1]; /* a converted path */
	uint8_t *open;           /* per slot: 1 while the handle is open (owned) */
	size_t nopen;            /* entries of open */
	uint32_t loops[MAX_DEPTH];     /* ops index of each open LOOP */
	uint32_t loop_line[MAX_DEPTH]; /* and its line */
	unsigned depth;          /* open LOOPs */
	bool repeat;             /* a REPEAT waits for its op */
	uint32_t repeat_at;      /* ops index of its LOOP */
	const struct dspec *last; /* the previous line's op: runs of one op are common */
};

typedef int (*build_fn)(struct dctx *c, struct lg_op *op, const uint64_t *num);

/* How one dbench op compiles. */
struct dspec {
	const char *word;   /* op word in the loadfile, matched ignoring case as dbench does */
	const char *label;  /* stats label, dbench's short name */
	enum lg_op_kind kind;
	const char *args;   /* per argument before the status: p path, f find path,
			       h handle in use, H handle opened, n number; those after
			       a '|' may be left out */
	const char *usage;  /* the arguments, for messages */
	build_fn build;     /* kind-specific fields from the numbers, or NULL */
};

static __attribute__((format(printf, 2, 3))) int fail(struct dctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->err || !c->errlen)
		return -EINVAL;
	n = snprintf(c->err, c->errlen, "%s:%u: ", c->fname, c->line);
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int nomem(struct dctx *c)
{
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "%s: out of memory", c->fname);
	return -ENOMEM;
}

/* A field quoted in a message is cut to SHOWN bytes and "...": a 1 MB path in a
 * hostile loadfile still gives a one-line message. */
#define SHOWN 64
static int shown(const char *tok) { return (int)strnlen(tok, SHOWN); }
static const char *more(const char *tok)
{
	return strnlen(tok, SHOWN + 1) > SHOWN ? "..." : "";
}

/* ---- arguments ---- */

/* A whole token as a number the way dbench reads it (strtoll base 0: decimal, 0x hex,
 * leading-0 octal), but strictly: no sign, no trailing text, no overflow. */
static int number(struct dctx *c, const char *tok, const char *what, uint64_t *out)
{
	char *end;

	if (*tok == '*' || *tok == '+')
		return fail(c, "%s '%s': dbench's random and relative arguments ('*', '+') "
			    "are not supported", what, tok);
	if (*tok < '0' || *tok > '9')
		return fail(c, "%s '%.*s%s' is not a number%s", what, shown(tok), tok, more(tok),
			    *tok == '-' ? " (negative)" : "");
	errno = 0;
	*out = strtoull(tok, &end, 0);
	if (errno || *end)
		return fail(c, "%s '%.*s%s' is not a number%s", what, shown(tok), tok, more(tok),
			    errno == ERANGE ? " (more than 64 bits)" : "");
	return 0;
}

static int too_long(struct dctx *c, const char *tok)
{
	return fail(c, "path '%.*s%s' is %zu bytes long (at most %d)", shown(tok), tok,
		    more(tok), strlen(tok), LG_DBENCH_MAX_PATH);
}

static int path_arg(struct dctx *c, const char *tok, uint32_t *index)
{
	const char *why;

	if (strlen(tok) > LG_DBENCH_MAX_PATH)
		return too_long(c, tok);
	if (lg_dbench_path(tok, c->path, sizeof(c->path), &why))
		return fail(c, "path '%.*s%s': %s", shown(tok), tok, more(tok), why);
	return lg_workload_path(c->wl, c->path, index) ? nomem(c) : 0;
}

/* FIND_FIRST's path: a directory and a pattern (path2) when its last component has
 * a wildcard, else the path to stat. A pattern in the run directory itself has no
 * directory path (LG_NO_SLOT). */
static int find_arg(struct dctx *c, const char *tok, struct lg_op *op)
{
	char dir[2 * LG_DBENCH_MAX_PATH + 2], pat[2 * LG_DBENCH_MAX_PATH + 2];
	int rc = 0;

	if (strlen(tok) > LG_DBENCH_MAX_PATH)
		return too_long(c, tok);
	if (!lg_dbench_wildcard(tok, dir, pat))
		return path_arg(c, tok, &op->path);
	if (dir[strspn(dir, "/\\")])
		rc = path_arg(c, dir, &op->path);
	if (!rc && strstr(pat, "${"))
		return fail(c, "path '%s': contains '${', which loadgen reserves for its "
			    "placeholders", tok);
	if (!rc && lg_workload_path(c->wl, pat, &op->path2))
		return nomem(c);
	return rc;
}

/* Handle number tok as the name of its file slot. */
static int handle_name(struct dctx *c, const char *tok, char *name, size_t len)
{
	uint64_t h;
	int rc = number(c, tok, "handle", &h);

	if (!rc)
		snprintf(name, len, "%llu", (unsigned long long)h);
	return rc;
}

/* Mark slot open or closed; grows the table to the workload's slots. */
static int set_open(struct dctx *c, uint32_t slot, bool open)
{
	if (slot >= c->nopen) {
		size_t n = c->wl->nslots > slot ? c->wl->nslots : slot + 1;
		uint8_t *o = realloc(c->open, n * 2);

		if (!o)
			return nomem(c);
		memset(o + c->nopen, 0, n * 2 - c->nopen);
		c->open = o;
		c->nopen = n * 2;
	}
	c->open[slot] = open;
	return 0;
}

/* A handle an op uses: it must be open at this point of the file. */
static int handle_use(struct dctx *c, const char *tok, uint32_t *slot)
{
	char name[24];
	int rc = handle_name(c, tok, name, sizeof(name));

	if (rc)
		return rc;
	if (lg_workload_find_slot(c->wl, name, slot))
		return fail(c, "handle %s used before it is opened", name);
	if (*slot >= c->nopen || !c->open[*slot])
		return fail(c, "handle %s used after it is closed", name);
	return 0;
}

/* The handle NTCreateX opens. bind: the open is expected to succeed, so later lines
 * use the handle; otherwise the op binds no slot. */
static int handle_open(struct dctx *c, const char *tok, bool bind, uint32_t *slot)
{
	char name[24];
	int rc = handle_name(c, tok, name, sizeof(name));

	*slot = LG_NO_SLOT;
	if (rc || !bind)
		return rc;
	if (lg_workload_slot(c->wl, name, slot))
		return nomem(c);
	return set_open(c, *slot, true);
}

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
	{ "NTCreateX", "NTCreateX", LG_OP_NTCREATE, "pnnH", "PATH OPTIONS DISPOSITION FNUM",
	  build_ntcreate },
	{ "Close", "Close", LG_OP_CLOSE, "h", "FNUM", NULL },
	{ "Rename", "Rename", LG_OP_RENAME, "pp", "OLDPATH NEWPATH", NULL },
	{ "Unlink", "Unlink", LG_OP_UNLINK, "p|n", "PATH [ATTRIBUTES]", NULL },
	{ "Deltree", "Deltree", LG_OP_DELTREE, "p", "PATH", NULL },
	{ "Mkdir", "Mkdir", LG_OP_MKDIR, "p", "PATH", build_mkdir },
	{ "Rmdir", "Rmdir", LG_OP_RMDIR, "p", "PATH", NULL },
	{ "QUERY_PATH_INFORMATION", "Qpathinfo", LG_OP_STAT, "pn", "PATH LEVEL", NULL },
	{ "QUERY_FILE_INFORMATION", "Qfileinfo", LG_OP_FSTAT, "hn", "FNUM LEVEL", NULL },
	{ "QUERY_FS_INFORMATION", "Qfsinfo", LG_OP_STATFS, "n", "LEVEL", NULL },
	{ "SET_FILE_INFORMATION", "Sfileinfo", LG_OP_SETINFO, "hn", "FNUM LEVEL", NULL },
	{ "FIND_FIRST", "Find", LG_OP_FIND, "fnnn", "PATH LEVEL MAXCOUNT COUNT", build_find },
	{ "WriteX", "WriteX", LG_OP_WRITE, "hnnn", "FNUM OFFSET SIZE RET_SIZE", build_rw },
	{ "ReadX", "ReadX", LG_OP_READ, "hnnn", "FNUM OFFSET SIZE RET_SIZE", build_rw },
	{ "LockX", "LockX", LG_OP_LOCK, "hnn", "FNUM OFFSET SIZE", build_lock },
	{ "UnlockX", "UnlockX", LG_OP_UNLOCK, "hnn", "FNUM OFFSET SIZE", build_lock },
	{ "Flush", "Flush", LG_OP_FSYNC, "h", "FNUM", NULL },
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))

/* dbench's directives: lines without a status that steer the replay. */
enum directive { D_LOOP, D_ENDLOOP, D_REPEAT, D_SLEEP, D_UNSUPPORTED, D_NONE };
static const char *const directives[] = {
	"LOOP", "ENDLOOP", "REPEAT", "SLEEP", "SETSP", "WAITSP", "WRITEPATTERN",
	"RANDOMSTRING", NULL,
};

static enum directive directive_of(const char *word)
{
	for (int i = 0; directives[i]; i++)
		if (!strcasecmp(word, directives[i]))
			return i < D_UNSUPPORTED ? (enum directive)i : D_UNSUPPORTED;
	return D_NONE;
}

static const struct dspec *spec_of(const char *word)
{
	for (size_t i = 0; i < NSPECS; i++)
		if (!strcasecmp(word, specs[i].word))
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

/* Append op to the run phase; closes a pending REPEAT around it. */
static int add(struct dctx *c, const struct lg_op *op, uint32_t *index)
{
	if (lg_workload_add_op(c->wl, LG_PHASE_RUN, op, index))
		return nomem(c);
	if (!c->repeat || op->kind == LG_OP_LOOP)
		return 0;
	c->repeat = false;
	return close_loop(c, c->repeat_at);
}

/* The nargs arguments of an op line, converted by the letters of spec->args; ok: the
 * line's status is a success. */
static int op_args(struct dctx *c, const struct dspec *spec, char **arg, unsigned nargs,
		   bool ok, struct lg_op *op, uint64_t *num)
{
	unsigned np = 0, nn = 0;
	int rc = 0;

	for (unsigned i = 0; !rc && i < nargs; i++) {
		switch (spec->args[i + (i >= strcspn(spec->args, "|"))]) {
		case 'p':
			rc = path_arg(c, arg[i], np++ ? &op->path2 : &op->path);
			break;
		case 'f':
			rc = find_arg(c, arg[i], op);
			break;
		case 'h':
			rc = handle_use(c, arg[i], &op->slot);
			break;
		case 'H':
			rc = handle_open(c, arg[i], ok, &op->slot);
			break;
		default:
			rc = number(c, arg[i], "argument", &num[nn++]);
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

/* One op line: tok[0] the op word, then its arguments, then the status. */
static int compile_op(struct dctx *c, const struct dspec *spec, char **tok, unsigned n)
{
	struct lg_op op = blank_op(c, spec->kind);
	size_t want = strcspn(spec->args, "|"), len = strlen(spec->args);
	size_t most = len - (len > want); /* the letters but the '|' */
	uint64_t num[4] = { 0 };
	bool ok = false;
	int rc;

	if (n < 2 || !lg_dbench_status_like(tok[n - 1]))
		return fail(c, "'%s' needs a status at the end of the line (%s %s STATUS, "
			    "STATUS like NT_STATUS_OK)", tok[0], spec->word, spec->usage);
	if (n - 2 < want || n - 2 > most)
		return fail(c, "'%s' takes %s%zu argument%s before the status (%s %s STATUS), "
			    "not %u", tok[0], most > want ? "up to " : "", most,
			    most == 1 ? "" : "s", spec->word, spec->usage, n - 2);
	if (lg_dbench_status(tok[n - 1], &op.expect, &ok))
		return fail(c, "unknown status '%s' (loadfiles/README.md lists those loadgen "
			    "knows)", tok[n - 1]);
	/* '*' does not care how the open ends: later lines may use the handle */
	rc = op_args(c, spec, tok + 1, n - 2, ok || !strcmp(tok[n - 1], "*"), &op, num);
	if (!rc && spec->build)
		rc = spec->build(c, &op, num);
	if (resolves(spec->kind))
		op.flags |= LG_OP_RESOLVE;
	if (!rc && lg_workload_type(c->wl, spec->label, &op.type))
		return nomem(c);
	if (!rc && spec->kind == LG_OP_CLOSE)
		rc = set_open(c, op.slot, false);
	return rc ? rc : add(c, &op, NULL);
}

/* A directive line: LOOP N ... ENDLOOP, REPEAT N (the next op N times), SLEEP USEC. */
static int compile_directive(struct dctx *c, enum directive d, char **tok, unsigned n)
{
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
	if (d != D_ENDLOOP && (rc = number(c, tok[1], tok[0], &v)))
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

/* Split line [p, end) into c->scratch: fields separated by blanks, double quotes
 * removed (they group blanks into a field), as dbench's next_token does. */
static int tokenize(struct dctx *c, const char *p, const char *end, char **tok,
		    unsigned *n)
{
	size_t need = (size_t)(end - p) + MAX_TOKENS + 1;
	char *o;

	if (need > c->cap) {
		char *s = realloc(c->scratch, need * 2);

		if (!s)
			return nomem(c);
		c->scratch = s;
		c->cap = need * 2;
	}
	if (memchr(p, '\0', (size_t)(end - p)))
		return fail(c, "NUL byte in the line");
	o = c->scratch;
	*n = 0;
	for (;;) {
		bool quoted = false;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == end)
			return 0;
		if (*n == MAX_TOKENS)
			return fail(c, "more than %d fields", MAX_TOKENS);
		tok[(*n)++] = o;
		for (; p < end && (quoted || !(*p == ' ' || *p == '\t' || *p == '\r')); p++) {
			if (*p == '"')
				quoted = !quoted;
			else
				*o++ = *p;
		}
		*o++ = '\0';
	}
}

/* One line of the file. */
static int compile_line(struct dctx *c, const char *p, const char *end)
{
	char *tok[MAX_TOKENS];
	const struct dspec *spec;
	enum directive d;
	unsigned n = 0;
	int rc = tokenize(c, p, end, tok, &n);

	if (rc || n == 0 || tok[0][0] == '#')
		return rc;
	if (tok[0][0] >= '0' && tok[0][0] <= '9') {
		/* a timed loadfile: the time to start the op at, not replayed */
		if (n == 1)
			return fail(c, "a timestamp without an op");
		memmove(tok, tok + 1, --n * sizeof(*tok));
	}
	/* ops first (directives are rare), and the previous line's op before the table */
	if (c->last && !strcasecmp(tok[0], c->last->word))
		return compile_op(c, c->last, tok, n);
	spec = spec_of(tok[0]);
	if (spec) {
		c->last = spec;
		return compile_op(c, spec, tok, n);
	}
	d = directive_of(tok[0]);
	if (d != D_NONE)
		return compile_directive(c, d, tok, n);
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

/* Every line, then what must be closed at the end. */
static int compile_text(struct dctx *c, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int rc = 0;

	while (!rc && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		c->line++;
		rc = compile_line(c, p, nl ? nl : end);
		p = nl ? nl + 1 : end;
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
		if (c->wl->ops[LG_PHASE_RUN][i].kind < LG_OP_LOOP)
			return 0;
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
			return spec_of(word) || directive_of(word) != D_NONE;
		p = eol + 1;
	}
	return false;
}

int lg_dbench_load(const char *fname, const char *text, size_t len, unsigned clients,
		   struct lg_workload **out, char *err, size_t errlen)
{
	struct dctx c = { .fname = fname, .err = err, .errlen = errlen };
	const char *base = strrchr(fname, '/');
	char name[256];
	int rc;

	(void)clients;
	if (err && errlen)
		err[0] = '\0';
	if (lg_workload_create(&c.wl))
		return nomem(&c);
	base = base ? base + 1 : fname;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), *base ? base : "dbench");
	rc = add_setup(&c);
	if (!rc)
		rc = compile_text(&c, text ? text : "", text ? len : 0);
	if (!rc && lg_workload_set_source(c.wl, name[0] ? name : "dbench", fname,
					  text ? text : "", text ? len : 0))
		rc = nomem(&c);
	free(c.scratch);
	free(c.open);
	if (rc) {
		lg_workload_destroy(c.wl);
		return rc;
	}
	*out = c.wl;
	return 0;
}
