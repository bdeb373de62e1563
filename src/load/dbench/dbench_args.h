/* The dbench loader's state and its argument helpers (dbench_args.c), shared by
 * dbench_load.c (the ops) and dbench_args.c (the fields). Private to the loader. Every
 * helper returns 0, or -EINVAL / -ENOMEM with the message in c->err. */
#ifndef LOADGEN_DBENCH_ARGS_H
#define LOADGEN_DBENCH_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dbench_names.h"
#include "dbench_parse.h"
#include "loadgen/model/workload.h"

#define LG_DBENCH_MAX_DEPTH 16 /* nesting of LOOP blocks */

struct dspec;

/* State of one load (dbench_load.c owns it; the argument helpers use it). */
struct dctx {
	const char *fname;       /* for messages */
	char *err;               /* message buffer */
	size_t errlen;
	struct lg_workload *wl;  /* being built */
	uint32_t line;           /* 1-based line being compiled */
	char *scratch;           /* the current line's fields as C strings (owned) */
	size_t cap;              /* allocated bytes of scratch */
	struct lg_dbench_line fields; /* the current line split */
	struct lg_dbench_map paths;   /* path field -> its path index (v[0]) */
	struct lg_dbench_map finds;   /* FIND_FIRST path field -> op.path, op.path2 */
	struct lg_dbench_map handles; /* handle number -> its slot, once opened */
	uint64_t last_handle;    /* the handle of the last lookup (runs of ReadX use one) */
	uint32_t last_slot;      /* and its slot; LG_NO_SLOT before the first */
	int32_t types[32];       /* per specs[] entry: its type index + 1, 0 until known */
	uint8_t most[32];        /* per specs[] entry: arguments it takes at most */
	char path[LG_DBENCH_MAX_PATH + 1]; /* a converted path */
	uint8_t *open;           /* per slot: 1 while the handle is open (owned) */
	size_t nopen;            /* entries of open */
	uint32_t loops[LG_DBENCH_MAX_DEPTH];     /* ops index of each open LOOP */
	uint32_t loop_line[LG_DBENCH_MAX_DEPTH]; /* and its line */
	unsigned depth;          /* open LOOPs */
	bool repeat;             /* a REPEAT waits for its op */
	uint32_t repeat_at;      /* ops index of its LOOP */
	const struct dspec *last; /* the previous line's op: runs of one op are common */
	uint8_t *made;           /* per path index: 1 when an op makes that directory (owned) */
	size_t nmade;            /* entries of made */
	uint32_t *missing;       /* run ops whose status says their path is missing (owned) */
	size_t nmissing, cap_missing;
};


/* "FILE:LINE: " and the message into c->err. Returns -EINVAL. */
__attribute__((format(printf, 2, 3))) int lg_dbench_fail(struct dctx *c, const char *fmt,
							 ...);
/* "FILE: out of memory" into c->err. Returns -ENOMEM. */
int lg_dbench_nomem(struct dctx *c);

/* Split the line at p (up to the first '\n' before end) into c->fields, growing
 * c->scratch; *eol: the line's end. The fields are spans of the text, not C strings. */
int lg_dbench_tokenize(struct dctx *c, const char *p, const char *end, const char **eol);
/* Make c->fields NUL-terminated copies, for what takes C strings. */
void lg_dbench_cstrings(struct dctx *c);
/* The message for field tok (len bytes), which lg_dbench_number refused with rc (what:
 * the field's name in it). Returns -EINVAL. */
int lg_dbench_number_fail(struct dctx *c, const char *tok, size_t len, const char *what,
			  int rc);
/* Field tok (len bytes) as a number (what: its name in the message). Inline: it runs
 * for every number of the file. */
static inline int lg_dbench_arg_number(struct dctx *c, const char *tok, size_t len,
				       const char *what, uint64_t *out)
{
	int rc = lg_dbench_number(tok, len, out);

	return rc ? lg_dbench_number_fail(c, tok, len, what, rc) : 0;
}
/* Path field tok as a path index of the workload. */
int lg_dbench_arg_path(struct dctx *c, const char *tok, size_t len, uint32_t *index);
/* FIND_FIRST's path field: op->path, and op->path2 for a wildcard pattern. */
int lg_dbench_arg_find(struct dctx *c, const char *tok, size_t len, struct lg_op *op);
/* A handle a line uses: its slot, which must be open at this line. */
int lg_dbench_arg_handle(struct dctx *c, const char *tok, size_t len, uint32_t *slot);
/* The handle NTCreateX opens: its slot when bind (the open succeeds), else LG_NO_SLOT. */
int lg_dbench_arg_open_handle(struct dctx *c, const char *tok, size_t len, bool bind,
			      uint32_t *slot);
/* Room for entry i in the zero-filled byte table *a of *n entries: past its end, it
 * grows to twice the larger of i + 1 and want, zero-filled. 0 or -ENOMEM. */
int lg_dbench_flags_room(struct dctx *c, uint8_t **a, size_t *n, size_t i, size_t want);
/* Mark slot open or closed at this point of the file. */
int lg_dbench_set_open(struct dctx *c, uint32_t slot, bool open);

#endif
