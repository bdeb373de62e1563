/* Traced calls -> steps: the table of the calls the converter knows (which arguments
 * hold the dirfd, the path, the flags) and a handler for each family. A call on the
 * directory becomes a step of its thread's stream (tr_step); one elsewhere is counted
 * as left out; one on the directory that no op replays is counted as not replayed.
 * The calls on paths are in trace_paths.c, the ones on open files here.
 *
 * A slot is one open file description: dup'd fds and the fds a child inherits refer to
 * the same slot, as they share one file position. A close is replayed when it drops the
 * slot's last fd (whoever makes it: the parent, or the child that outlived it); the
 * other closes are counted as not replayed. A slot whose last fd went without a traced
 * close (dup2 over it, an exec's close-on-exec, an exit) stays open in the replay; a
 * later open of that fd number gets the name with a ".<n>" suffix, so a name is used
 * again only after the replay closed it. */
#include "trace_calls.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The words of a flag argument that have a YAML name. */
int tr_words(struct tr_ctx *c, const char *key, const struct tr_arg *a,
	     const struct tr_word *w)
{
	bool any = false;

	if (tr_printf(&c->args, ", %s: [", key))
		c->nomem = true;
	for (; w->strace; w++) {
		if (!tr_has(a, w->strace))
			continue;
		if (tr_printf(&c->args, "%s%s", any ? ", " : "", w->yaml))
			c->nomem = true;
		any = true;
	}
	if (tr_puts(&c->args, "]"))
		c->nomem = true;
	return c->nomem ? -1 : 0;
}

int tr_argf(struct tr_ctx *c, const char *fmt, ...)
{
	char small[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (tr_printf(&c->args, "%s%s", c->args.len ? ", " : "", small))
		c->nomem = true;
	return c->nomem ? -1 : 0;
}

uint64_t tr_field(const struct tr_arg *a, const char *key)
{
	const char *p;
	size_t kl = strlen(key);

	if (!a)
		return 0;
	for (p = a->s; p && p < a->s + a->n; p++) {
		p = memchr(p, key[0], (size_t)(a->s + a->n - p));
		if (!p)
			break;
		if ((size_t)(a->s + a->n - p) > kl && !memcmp(p, key, kl))
			return strtoull(p + kl, NULL, 0);
	}
	return 0;
}

/* The file argument i of k: the slot on the directory, or the call is counted. */
struct tr_slot *tr_file_arg(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k, int i)
{
	struct tr_slot *s = NULL;
	int in = tr_fd(c, t, i < k->na ? &k->a[i] : NULL, &s);

	if (in == 1 && !s)
		tr_not_replayed(c, t, "call on an fd opened untraced");
	else if (in == 0)
		tr_left_out(c, t, c->fdpath);
	else if (in < 0)
		tr_left_out(c, t, NULL);
	return s;
}

/* Write op on slot s with the arguments already in c->args after "file: s". Its
 * resources: the slot, and the file the slot opened (its data: a read through one slot
 * waits for a write through another). */
static int fstep(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k, const char *op,
		 struct tr_slot *s)
{
	struct tr_res *res[2] = { &s->res, s->path ? &s->path->res : NULL };

	return tr_step(c, t, k, op, res, 2);
}

static int begin_file(struct tr_ctx *c, struct tr_slot *s)
{
	c->args.len = 0;
	return tr_argf(c, "file: %s", s->name);
}

static bool ok(const struct tr_call *k)
{
	return k->has_ret && k->ret >= 0 && !k->err;
}

static long long num(const struct tr_call *k, int i)
{
	long long v = 0;

	if (i < k->na)
		tr_num(&k->a[i], &v);
	return v;
}

int tr_h_close(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
	       const struct tr_spec *sp)
{
	struct tr_slot *s = tr_file_arg(c, t, k, 0), *last;

	(void)sp;
	if (!s)
		return 0;
	last = tr_fd_set(c, t, (long)num(k, 0), NULL);
	if (!last) {
		tr_not_replayed(c, t, "close of an inherited/dup'd fd");
		return 0;
	}
	begin_file(c, s);
	s->closed = true;
	return fstep(c, t, k, "close", s);
}

/* The bytes a readv/writev asked for: the sum of its iov_len. */
static uint64_t iov_total(const struct tr_arg *a)
{
	uint64_t sum = 0;

	for (const char *p = a->s, *e = a->s + a->n; p && p < e; p++) {
		if (!(p = strstr(p, "iov_len=")) || p >= e)
			break;
		sum += strtoull(p + 8, NULL, 0);
	}
	return sum;
}

int tr_h_rw(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
	    const struct tr_spec *sp)
{
	struct tr_slot *s = tr_file_arg(c, t, k, 0);
	bool write = sp->variant & TR_WRITE, pos = sp->variant & TR_POS, vec = sp->variant & TR_VEC;
	uint64_t want = vec ? (k->na > 1 ? iov_total(&k->a[1]) : 0) : (uint64_t)num(k, 2);
	uint64_t size = ok(k) && k->ret > 0 ? (uint64_t)k->ret : want;
	uint64_t start;

	if (!s)
		return 0;
	start = pos ? (uint64_t)num(k, 3) : s->pos;
	begin_file(c, s);
	tr_argf(c, "size: %llu", (unsigned long long)(size ? size : 1));
	if (pos)
		tr_argf(c, "offset: %llu", (unsigned long long)start);
	if (vec)
		tr_argf(c, "vector: true");
	if (ok(k) && s->path) {
		uint64_t end = start + (uint64_t)k->ret;

		if (write)
			s->path->modified = true;
		else if (!s->path->modified && end > s->path->size)
			s->path->size = end;
		if (!pos)
			s->pos = end;
	}
	return fstep(c, t, k, write ? "write" : "read", s);
}

static const struct tr_word whences[] = {
	{ "SEEK_SET", "set" }, { "SEEK_CUR", "cur" },   { "SEEK_END", "end" },
	{ "SEEK_DATA", "data" }, { "SEEK_HOLE", "hole" }, { NULL, NULL },
};

int tr_h_lseek(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
	       const struct tr_spec *sp)
{
	struct tr_slot *s = tr_file_arg(c, t, k, 0);
	const struct tr_word *w;

	(void)sp;
	if (!s)
		return 0;
	begin_file(c, s);
	tr_argf(c, "offset: %lld", num(k, 1));
	for (w = whences; w->strace && !(k->na > 2 && tr_has(&k->a[2], w->strace)); w++)
		;
	if (w->strace)
		tr_argf(c, "whence: %s", w->yaml);
	if (ok(k))
		s->pos = (uint64_t)k->ret;
	return fstep(c, t, k, "seek", s);
}

/* fsync, fdatasync, syncfs, fstat: the file alone (sp->op). */
int tr_h_fd(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
	    const struct tr_spec *sp)
{
	struct tr_slot *s = tr_file_arg(c, t, k, 0);

	if (!s)
		return 0;
	begin_file(c, s);
	if (sp->variant & TR_STATBUF)
		tr_seen_stat(c, s->path, k->na > 1 ? &k->a[1] : NULL, ok(k));
	return fstep(c, t, k, sp->op, s);
}

static const struct tr_word sfr_flags[] = {
	{ "SYNC_FILE_RANGE_WAIT_BEFORE", "wait_before" },
	{ "SYNC_FILE_RANGE_WRITE", "write" },
	{ "SYNC_FILE_RANGE_WAIT_AFTER", "wait_after" },
	{ NULL, NULL },
};
static const struct tr_word advices[] = {
	{ "POSIX_FADV_NORMAL", "normal" },     { "POSIX_FADV_SEQUENTIAL", "sequential" },
	{ "POSIX_FADV_RANDOM", "random" },     { "POSIX_FADV_WILLNEED", "willneed" },
	{ "POSIX_FADV_DONTNEED", "dontneed" }, { "POSIX_FADV_NOREUSE", "noreuse" },
	{ NULL, NULL },
};
static const struct tr_word falloc_modes[] = {
	{ "FALLOC_FL_KEEP_SIZE", "keep_size" }, { "FALLOC_FL_PUNCH_HOLE", "punch_hole" },
	{ "FALLOC_FL_ZERO_RANGE", "zero_range" }, { NULL, NULL },
};

/* sync_file_range, fadvise64, fallocate, ftruncate: a range of the file. */
int tr_h_range(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
	       const struct tr_spec *sp)
{
	struct tr_slot *s = tr_file_arg(c, t, k, 0);
	const struct tr_word *w;

	if (!s)
		return 0;
	begin_file(c, s);
	if (!strcmp(sp->op, "sync_file_range")) {
		tr_argf(c, "offset: %lld, size: %lld", num(k, 1), num(k, 2));
		tr_words(c, "flags", k->na > 3 ? &k->a[3] : NULL, sfr_flags);
	} else if (!strcmp(sp->op, "fadvise")) {
		for (w = advices; w->strace && !(k->na > 3 && tr_has(&k->a[3], w->strace)); w++)
			;
		tr_argf(c, "advice: %s, offset: %lld, size: %lld", w->strace ? w->yaml : "normal",
			num(k, 1), num(k, 2));
	} else if (!strcmp(sp->op, "fallocate")) {
		tr_argf(c, "offset: %lld, size: %lld", num(k, 2), num(k, 3));
		tr_words(c, "mode", k->na > 1 ? &k->a[1] : NULL, falloc_modes);
	} else { /* ftruncate */
		tr_argf(c, "size: %lld", num(k, 1));
	}
	if (ok(k) && s->path && strcmp(sp->op, "sync_file_range") && strcmp(sp->op, "fadvise"))
		s->path->modified = true;
	return fstep(c, t, k, sp->op, s);
}

int tr_h_getdents(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		  const struct tr_spec *sp)
{
	struct tr_slot *s = tr_file_arg(c, t, k, 0);

	(void)sp;
	if (!s)
		return 0;
	begin_file(c, s);
	tr_argf(c, "size: %lld", num(k, 2));
	if (ok(k))
		tr_use(c, s->path, false, true);
	return fstep(c, t, k, "getdents", s);
}

/* dup, dup2, dup3, fcntl(F_DUPFD...): the new fd refers to the same slot. */
int tr_h_dup(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
	     const struct tr_spec *sp)
{
	struct tr_slot *s = NULL;
	int in = tr_fd(c, t, k->na ? &k->a[0] : NULL, &s);

	(void)sp;
	if (!strcmp(k->name, "fcntl") && !(k->na > 1 && (tr_has(&k->a[1], "F_DUPFD") ||
							  tr_has(&k->a[1], "F_DUPFD_CLOEXEC"))))
		return tr_h_other(c, t, k, sp);
	if (ok(k))
		tr_fd_set(c, t, (long)k->ret, s);
	if (in == 1)
		tr_not_replayed(c, t, k->name);
	else
		tr_left_out(c, t, in == 0 ? c->fdpath : NULL);
	return 0;
}

int tr_h_mmap(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
	      const struct tr_spec *sp)
{
	struct tr_slot *s = NULL;
	int in = k->na > 4 ? tr_fd(c, t, &k->a[4], &s) : -1;

	(void)sp;
	if (in == 1 && !tr_has(&k->a[3], "MAP_ANONYMOUS"))
		c->sum->file_mmaps++;
	else if (in == 0)
		tr_left_out(c, t, c->fdpath);
	return 0;
}

/* Any other call: not replayed when an fd of it is on the directory, else left out. */
int tr_h_other(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
	       const struct tr_spec *sp)
{
	char outside[4352] = "", name[32];

	(void)sp;
	for (int i = 0; i < k->na; i++) {
		struct tr_slot *s;
		int in = tr_fd(c, t, &k->a[i], &s);

		if (in == 1) {
			if (!strcmp(k->name, "fcntl") && k->na > 1)
				snprintf(name, sizeof(name), "fcntl %.*s", (int)k->a[1].n, k->a[1].s);
			else
				snprintf(name, sizeof(name), "%s", k->name);
			tr_not_replayed(c, t, name);
			return 0;
		}
		if (in == 0 && !outside[0])
			snprintf(outside, sizeof(outside), "%s", c->fdpath);
	}
	if (outside[0])
		tr_left_out(c, t, outside);
	return 0;
}
