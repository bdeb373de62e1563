/* The call table of the strace converter and its handlers (trace_calls.c: calls on
 * open files; trace_paths.c: calls on paths, the table and the dispatch). */
#ifndef LOADGEN_TRACE_CALLS_H
#define LOADGEN_TRACE_CALLS_H

#include "trace_priv.h"

/* A flag word of strace and its YAML name. */
struct tr_word {
	const char *strace;     /* "O_TRUNC" */
	const char *yaml;       /* "truncate" */
};

struct tr_spec;
typedef int tr_handler(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		       const struct tr_spec *sp);

/* variant bits */
#define TR_WRITE 0x1    /* tr_h_rw: a write */
#define TR_POS 0x2      /* tr_h_rw: at the offset of argument 3 */
#define TR_VEC 0x4      /* tr_h_rw: an iovec */
#define TR_STATBUF 0x8  /* the stat buffer follows the path (or file) */
#define TR_NOFOLLOW 0x10 /* the l- variant: no following of a last symlink */
#define TR_RMDIR 0x20   /* unlink: rmdir */
#define TR_FILE 0x40    /* xattr: the f- variant, on argument 0 as a file */

/* One known call. */
struct tr_spec {
	const char *name;       /* syscall name as strace writes it */
	tr_handler *fn;         /* what it becomes */
	const char *op;         /* the op it becomes, for the handlers of several */
	signed char dirfd;      /* index of the dirfd argument, -1: none (the cwd) */
	signed char path;       /* index of the path argument, -1: none */
	signed char flags;      /* index of the flags argument, -1: none */
	signed char dirfd2, path2; /* the second path (rename, link), -1: none */
	unsigned variant;       /* TR_* bits */
};

tr_handler tr_h_close, tr_h_rw, tr_h_lseek, tr_h_fd, tr_h_range, tr_h_getdents, tr_h_dup,
	tr_h_mmap, tr_h_other, tr_h_open, tr_h_stat, tr_h_access, tr_h_named, tr_h_two,
	tr_h_symlink, tr_h_meta, tr_h_xattr, tr_h_statfs, tr_h_unmapped;

/* ", key: [words of a that w names]" into c->args. */
int tr_words(struct tr_ctx *c, const char *key, const struct tr_arg *a,
	     const struct tr_word *w);
/* One more "key: value" (formatted) into c->args. */
int tr_argf(struct tr_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The number after key ("st_size=") in a struct argument, 0 if absent. */
uint64_t tr_field(const struct tr_arg *a, const char *key);
/* The fd argument i of k: its slot when on the directory; NULL, the call counted, if not. */
struct tr_slot *tr_file_arg(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k, int i);
/* What a stat buffer shows of p (its size, whether a directory), when the call succeeded. */
void tr_seen_stat(struct tr_ctx *c, struct tr_path *p, const struct tr_arg *buf, bool ok);

#endif
