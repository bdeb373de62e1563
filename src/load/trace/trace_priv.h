/* The strace converter's internals: the lines of a trace (trace.c), one parsed into a call
 * (trace_parse.c), the traced processes with their fd tables, cwds and file slots
 * (trace_state.c), the calls mapped to steps (trace_table.c names them; trace_calls.c:
 * calls on open files, trace_paths.c: on paths), the streams, ordering and think times
 * and the YAML around them (trace_out.c), small containers (trace_util.c).
 *
 * Everything is found through hash tables (paths, tids, slot names), so a trace converts
 * in time linear in its length. The table is a small open-addressing one (trace_util.c):
 * Debian has glib's GHashTable, but pulling glib into the load layer for one table of
 * strings is more weight than the 60 lines it replaces. */
#ifndef LOADGEN_TRACE_PRIV_H
#define LOADGEN_TRACE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "loadgen/load/trace.h"

/* A growable byte string (always NUL-terminated once anything was put). */
struct tr_buf {
	char *p;                /* the bytes (owned) */
	size_t len, cap;        /* bytes used, allocated */
};
int tr_put(struct tr_buf *b, const char *s, size_t n);
int tr_puts(struct tr_buf *b, const char *s);
int tr_printf(struct tr_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s (n bytes) as a double-quoted YAML scalar. */
int tr_quote(struct tr_buf *b, const char *s, size_t n);

/* A hash table from byte strings to pointers. */
struct tr_ent {
	char *key;              /* a copy of the key (owned), NULL: empty */
	size_t klen;            /* key length in bytes */
	uint64_t h;             /* hash of the key */
	void *val;              /* the value (owned by the caller) */
};
struct tr_map {
	struct tr_ent *e;       /* cap entries */
	size_t cap, n;          /* entries allocated, used */
};
/* The value cell of key, made (holding NULL) when absent and make is set; NULL when absent
 * and not made, or out of memory (then *nomem is set). */
void **tr_map_at(struct tr_map *m, const void *key, size_t klen, bool make, bool *nomem);
void tr_map_free(struct tr_map *m);

/* One argument of a call, as strace wrote it. */
struct tr_arg {
	const char *s;          /* raw text of the argument (not NUL-terminated) */
	size_t n;               /* its length */
	const char *dec;        /* for "3</path>" or "AT_FDCWD</path>": the path, else NULL */
	size_t decn;            /* its length (still escaped as strace wrote it) */
};

#define TR_MAXARGS 8
/* One complete call of one thread (an <unfinished ...> half joined with its resumed half). */
struct tr_call {
	long tid;               /* thread id */
	uint64_t t_ns;          /* start, ns since the epoch */
	uint64_t dur_ns;        /* duration (strace -T) */
	char name[32];          /* syscall name */
	struct tr_arg a[TR_MAXARGS]; /* arguments (further ones are dropped) */
	int na;                 /* number of arguments */
	bool has_ret;           /* a numeric return value was given ("= ?" has none) */
	long long ret;          /* the return value */
	const char *retdec;     /* decoded path of a returned fd, else NULL */
	size_t retdecn;         /* its length */
	int err;                /* errno of a failed call (ret -1), else 0 */
	char errname[24];       /* its name as strace wrote it */
};

/* Parse the text of a call "name(args) = ret <dur>" (after PID and time) into k. 0, or
 * -EINVAL with the column of the problem in *col and a reason in *why. */
int tr_parse_call(const char *s, struct tr_call *k, size_t *col, const char **why);
/* An argument as a number (decimal, 0x hex, 0 octal, or the fd of "3</p>"); false if not. */
bool tr_num(const struct tr_arg *a, long long *v);
/* Whether argument a holds the flag word w ("O_CREAT" in "O_WRONLY|O_CREAT"). */
bool tr_has(const struct tr_arg *a, const char *w);
/* The string of a quoted argument, unescaped, into out (NUL-terminated); false if a is not a
 * string, is truncated ("..."), or does not fit. */
bool tr_str(const char *s, size_t n, char *out, size_t outlen);

/* The last call on a resource (a path, a slot), for the ordering of streams. */
struct tr_res {
	int stream;             /* index of the stream of that call, -1: none yet */
	uint64_t k;             /* that call's 1-based index among the stream's calls */
};

/* A path under the directory, by its name relative to it ("" is the directory). */
struct tr_path {
	struct tr_res res;      /* the last call that named it */
	char *rel;              /* its name (owned) */
	bool used;              /* a call naming it succeeded */
	bool existed;           /* the first such call did not create it: it was there */
	bool dir;               /* used as a directory */
	bool link;              /* seen as a symlink (readlink) */
	char *target;           /* what readlink returned (owned), or NULL */
	bool modified;          /* written or truncated since: its size says no more */
	uint64_t size;          /* the largest size it was seen with while unmodified */
};

/* An open file of the replay: what an open made, shared by dup'd and inherited fds. */
struct tr_slot {
	char name[48];          /* "t<TID>.fd<N>", ".<k>" added while that name is in use */
	int refs;               /* fd-table entries referring to it */
	bool closed;            /* its close is a step: the replay may use its name again */
	struct tr_path *path;   /* the file it opened */
	uint64_t pos;           /* file position, for the sizes of inferred files */
	struct tr_res res;      /* the last call on it */
	struct tr_slot *next;   /* all slots, for freeing */
};

/* An fd table, shared by threads (CLONE_FILES). Only fds on the directory are kept. */
struct tr_fdtab {
	int refs;               /* tasks using it */
	long owner;             /* tid of the task that made it (slot names) */
	struct tr_slot **fd;    /* fd -> slot, NULL: not open on the directory */
	size_t nfd;             /* entries of fd */
};

/* A cwd, shared by threads (CLONE_FS). */
struct tr_fs {
	int refs;               /* tasks using it */
	char *cwd;              /* absolute path (owned) */
};

/* A traced thread. */
struct tr_task {
	long tid;               /* thread id */
	char comm[64];          /* program name: basename of what it execve'd, else its parent's */
	struct tr_fdtab *ft;    /* its fd table */
	struct tr_fs *fs;       /* its cwd */
	char *pending;          /* the first half of an <unfinished ...> call (owned) */
	int stream;             /* index of its stream, -1 until its first kept call */
	uint64_t prev_end;      /* end of its previous kept call, ns (0: none) */
	uint64_t skipped;       /* traced calls left out since then */
	uint64_t skipped_ns;    /* their time (as traced): waits for other processes, the
				   loader's work; not think time */
	int reaped_stream;      /* a child wait4 reaped since then: its stream (-1: none) */
	uint64_t reaped_k;      /* and its calls, all done before the wait returned */
	int parent_stream;      /* a child: its parent's stream at the clone (-1: none) */
	uint64_t parent_k;      /* the parent's calls at the clone */
	uint64_t clone_end;     /* when the clone returned in the parent, ns (0: unknown) */
	bool cloning;           /* a clone of its is <unfinished ...> */
	bool clone_files;       /* that clone shares the fd table (CLONE_FILES) */
	bool clone_fs;          /* that clone shares the cwd (CLONE_FS) */
	bool dead;              /* exited */
	unsigned reuse;         /* earlier tasks with this tid (the pid was reused) */
	struct tr_task *older;  /* the earlier task with this tid, kept for its stream */
};

/* One stream of the output: the steps of one thread. */
struct tr_stream {
	struct tr_task *t;      /* its thread */
	struct tr_buf steps;    /* its steps as YAML; stream references as "\x01<index>\x02" */
	uint64_t ncalls;        /* its calls (timed ops) so far */
	struct tr_map waited;   /* other stream's index -> the calls of it already waited for */
};

/* The state of one conversion. */
struct tr_ctx {
	const struct lg_trace_opts *o;
	struct lg_trace_summary *sum;
	const char *dir;        /* the directory, no trailing '/' */
	size_t dirlen;          /* its length */
	struct tr_map tasks;    /* tid (as a long's bytes) -> struct tr_task */
	struct tr_map paths;    /* relative name -> struct tr_path */
	struct tr_map outside;  /* absolute names used outside the directory -> (void *)1 */
	struct tr_map names;    /* slot base name -> the slot last given that name */
	struct tr_slot *slots;  /* every slot */
	struct tr_stream *streams; /* in the order of their first calls */
	size_t nstreams, capstreams;
	struct tr_task *cloner; /* the last task with a clone <unfinished ...> */
	uint64_t t0;            /* the trace's first time stamp (the program's exec), ns */
	uint64_t pure_sum, pure_n; /* gaps between two kept calls of a thread with no traced
				   call between them: their sum (ns) and number, for the
				   tracer's cost per gap (trace_out.c) */
	uint64_t gap_ns;        /* that cost, as used for think times (set when written) */
	struct tr_buf args;     /* the arguments of the step being written */
	struct tr_map specs;    /* call name -> its struct tr_spec */
	bool nomem;             /* an allocation failed: the conversion fails with -ENOMEM */
	bool inferred;          /* the input tree was inferred from the trace */
	int example_rank;       /* how good example_left_out is (a library is best) */
	char fdpath[4352];      /* the decoded path of the last tr_fd: relative or absolute */
};

/* trace_state.c: tasks, paths, slots, and writing one step. */
/* The time a thread spent after its last call on the directory until it exited at t_ns
 * (a compiler's work, writing elsewhere): the last think time of its stream. */
void tr_tail(struct tr_ctx *c, struct tr_task *t, uint64_t t_ns);
struct tr_task *tr_task(struct tr_ctx *c, long tid);
void tr_task_exit(struct tr_ctx *c, struct tr_task *t);
/* A child of parent made by a clone (files, fs: CLONE_FILES, CLONE_FS). */
struct tr_task *tr_task_clone(struct tr_ctx *c, struct tr_task *parent, long tid, bool files,
			      bool fs);
struct tr_path *tr_path(struct tr_ctx *c, const char *rel);
/* Resolve the path argument p (relative to dirfd d, or to t's cwd when d is NULL) into out:
 * 1 when under the directory (out: relative, "" for the directory itself), 0 when outside
 * (out: absolute), -1 when p is no path strace printed whole. */
int tr_resolve(struct tr_ctx *c, struct tr_task *t, const struct tr_arg *d,
	       const struct tr_arg *p, char *out, size_t outlen);
/* name against base (absolute) into out, as tr_resolve. */
int tr_classify(struct tr_ctx *c, const char *base, const char *name, char *out, size_t outlen);
/* The fd argument a: 1 on the directory with *slot set (NULL: opened where the trace does
 * not show, such as before it), 0 elsewhere, -1 not a decoded fd. */
int tr_fd(struct tr_ctx *c, struct tr_task *t, const struct tr_arg *a, struct tr_slot **slot);
/* A new slot for fd of t's table, on path p. NULL when out of memory. */
struct tr_slot *tr_slot_open(struct tr_ctx *c, struct tr_task *t, long fd, struct tr_path *p);
/* Make fd of t's table refer to slot s (NULL: close it); the old slot loses a reference.
 * Returns the old slot when that was its last reference, else NULL. */
struct tr_slot *tr_fd_set(struct tr_ctx *c, struct tr_task *t, long fd, struct tr_slot *s);
/* A successful call used path p (creates: it made it; dir: as a directory); its parents
 * are used as directories. */
void tr_use(struct tr_ctx *c, struct tr_path *p, bool creates, bool dir);
/* A call outside the directory (path: the absolute name it used, may be NULL). */
void tr_left_out(struct tr_ctx *c, struct tr_task *t, const char *path);
/* A call on the directory that cannot be replayed. */
void tr_not_replayed(struct tr_ctx *c, struct tr_task *t, const char *name);
/* Write the step op with the arguments in c->args, for call k of t touching the nres
 * resources res: the after and think steps before it, its expect. 0 or -ENOMEM. */
int tr_step(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k, const char *op,
	    struct tr_res **res, int nres);
/* Append ", key: "${client}/rel"" to c->args. */
int tr_arg_path(struct tr_ctx *c, const char *key, const char *rel);

/* trace_table.c: the call table into c->specs; one traced call (0 or -ENOMEM). */
int tr_specs(struct tr_ctx *c);
int tr_call(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k);

/* trace_out.c: the document around the streams. */
int tr_write(struct tr_ctx *c, FILE *out);

#endif
