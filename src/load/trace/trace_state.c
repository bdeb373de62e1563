/* The converter's model of the traced processes: threads with their fd tables and cwds
 * (shared or copied at a clone as its flags say), the paths of the directory with what
 * the trace shows of them (for an inferred input tree), the replay's file slots, and
 * the writing of one step with the `after` and `think` steps that go before it.
 *
 * Ordering follows ARTC (SOSP 2013): every resource (path, slot) remembers the last call
 * on it; a call whose resource was last used by another stream waits for that call
 * (`after: {stream, calls}`), the strongest wait per other stream only. */
#include "trace_priv.h"

#include <stdlib.h>
#include <string.h>

#include "loadgen/model/errnames.h"

#define TR_MAXFD (1L << 24) /* fs/file.c: sysctl_nr_open is at most 1 << 30; 16M is plenty */

static void *zalloc(struct tr_ctx *c, size_t n)
{
	void *p = calloc(1, n);

	if (!p)
		c->nomem = true;
	return p;
}

static char *dupstr(struct tr_ctx *c, const char *s)
{
	char *p = strdup(s);

	if (!p)
		c->nomem = true;
	return p;
}

/* A new task for tid; one that exited with the same tid (a reused pid) is kept behind
 * it, its stream named apart. */
static struct tr_task *new_task(struct tr_ctx *c, long tid)
{
	bool nomem = false;
	void **at = tr_map_at(&c->tasks, &tid, sizeof(tid), true, &nomem);
	struct tr_task *t;

	if (!at || !(t = zalloc(c, sizeof(*t)))) {
		c->nomem = true;
		return NULL;
	}
	t->tid = tid;
	t->stream = -1;
	t->parent_stream = -1;
	t->reaped_stream = -1;
	if ((t->older = *at))
		t->reuse = t->older->reuse + 1;
	*at = t;
	return t;
}

/* A task first seen without a clone that made it: the traced program, or a thread of an
 * attached one. Its cwd is the directory. */
static struct tr_task *root_task(struct tr_ctx *c, long tid)
{
	struct tr_task *t = new_task(c, tid);
	const char *cmd = c->o->command ? c->o->command : "", *b;
	size_t n = strcspn(cmd, " ");

	if (!t)
		return NULL;
	for (b = cmd + n; b > cmd && b[-1] != '/'; b--)
		;
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(cmd + n - b), b);
	if (!t->comm[0])
		snprintf(t->comm, sizeof(t->comm), "proc");
	t->ft = zalloc(c, sizeof(*t->ft));
	t->fs = zalloc(c, sizeof(*t->fs));
	if (!t->ft || !t->fs || !(t->fs->cwd = dupstr(c, c->dir)))
		return NULL;
	t->ft->refs = t->fs->refs = 1;
	t->ft->owner = tid;
	return t;
}

struct tr_task *tr_task(struct tr_ctx *c, long tid)
{
	void **at = tr_map_at(&c->tasks, &tid, sizeof(tid), false, NULL);

	if (at && *at && !((struct tr_task *)*at)->dead)
		return *at;
	if (c->cloner && c->cloner->cloning && !c->cloner->dead) /* a child that ran before its clone returned */
		return tr_task_clone(c, c->cloner, tid, c->cloner->clone_files,
				     c->cloner->clone_fs);
	return root_task(c, tid);
}

struct tr_task *tr_task_clone(struct tr_ctx *c, struct tr_task *parent, long tid, bool files,
			      bool fs)
{
	struct tr_task *t = new_task(c, tid);

	if (!t)
		return NULL;
	memcpy(t->comm, parent->comm, sizeof(t->comm));
	/* a child the parent reaped before this clone had ended by then: the new child
	 * starts after it (gcc runs as after cc1 has ended), even before the parent's
	 * next call on the directory says so */
	t->reaped_stream = parent->reaped_stream;
	t->parent_stream = parent->stream;
	t->parent_k = parent->stream >= 0 ? c->streams[parent->stream].ncalls : 0;
	if (files) {
		t->ft = parent->ft;
		t->ft->refs++;
	} else if ((t->ft = zalloc(c, sizeof(*t->ft)))) {
		t->ft->refs = 1;
		t->ft->owner = tid;
		if (parent->ft->nfd && !(t->ft->fd = zalloc(c, parent->ft->nfd * sizeof(void *))))
			return NULL;
		t->ft->nfd = parent->ft->nfd;
		for (size_t i = 0; i < t->ft->nfd; i++)
			if ((t->ft->fd[i] = parent->ft->fd[i]))
				t->ft->fd[i]->refs++;
	} else {
		return NULL;
	}
	if (fs) {
		t->fs = parent->fs;
		t->fs->refs++;
	} else if (!(t->fs = zalloc(c, sizeof(*t->fs))) ||
		   !(t->fs->cwd = dupstr(c, parent->fs->cwd))) {
		return NULL;
	} else {
		t->fs->refs = 1;
	}
	return t;
}

void tr_task_exit(struct tr_ctx *c, struct tr_task *t)
{
	(void)c;
	if (t->dead)
		return;
	t->dead = true;
	if (t->ft && --t->ft->refs == 0) {
		for (size_t i = 0; i < t->ft->nfd; i++)
			if (t->ft->fd[i])
				t->ft->fd[i]->refs--;
		free(t->ft->fd);
		free(t->ft);
	}
	if (t->fs && --t->fs->refs == 0) {
		free(t->fs->cwd);
		free(t->fs);
	}
	t->ft = NULL;
	t->fs = NULL;
}

struct tr_path *tr_path(struct tr_ctx *c, const char *rel)
{
	bool nomem = false;
	size_t n = strlen(rel) - (rel[0] && rel[strlen(rel) - 1] == '/'); /* "d/" is d */
	void **at = tr_map_at(&c->paths, rel, n, true, &nomem);
	struct tr_path *p;

	if (!at) {
		c->nomem = true;
		return NULL;
	}
	if (*at)
		return *at;
	if (!(p = zalloc(c, sizeof(*p))))
		return NULL;
	p->res.stream = -1;
	*at = p;
	if (!(p->rel = strndup(rel, n))) {
		c->nomem = true;
		return NULL;
	}
	return p;
}

/* Append the components of s to out (at *o), "." and ".." resolved. */
static bool join(const char *s, char *out, size_t *o, size_t len)
{
	while (*s) {
		size_t n = strcspn(s, "/");

		if (n == 0 || (n == 1 && s[0] == '.')) {
			/* nothing */
		} else if (n == 2 && s[0] == '.' && s[1] == '.') {
			while (*o > 0 && out[--*o] != '/')
				;
		} else {
			if (*o + n + 2 > len)
				return false;
			out[(*o)++] = '/';
			memcpy(out + *o, s, n);
			*o += n;
		}
		s += n + (s[n] == '/');
	}
	out[*o] = '\0';
	return true;
}

/* Absolute out from base and name, classified against the directory (see tr_resolve). */
int tr_classify(struct tr_ctx *c, const char *base, const char *name, char *out, size_t outlen)
{
	size_t o = 0;

	if ((name[0] != '/' && !join(base, out, &o, outlen)) || !join(name, out, &o, outlen))
		return -1;
	if (!o)
		strcpy(out, "/");
	if (!strncmp(out, c->dir, c->dirlen) && (out[c->dirlen] == '/' || !out[c->dirlen])) {
		size_t skip = c->dirlen + (out[c->dirlen] == '/');

		size_t n = strlen(out + skip);

		memmove(out, out + skip, n + 1);
		if (n && n + 1 < outlen && name[0] && name[strlen(name) - 1] == '/')
			strcpy(out + n, "/"); /* kept: "d/" is not "d" to the kernel */
		return 1;
	}
	return 0;
}

/* The decoded path of fd argument a, unescaped, " (deleted)" removed. */
static bool decoded(const struct tr_arg *a, char *out, size_t len)
{
	size_t n;

	if (!a || !a->dec || !tr_str(a->dec, a->decn, out, len))
		return false;
	n = strlen(out);
	if (n > 10 && !strcmp(out + n - 10, " (deleted)"))
		out[n - 10] = '\0';
	return true;
}

int tr_resolve(struct tr_ctx *c, struct tr_task *t, const struct tr_arg *d,
	       const struct tr_arg *p, char *out, size_t outlen)
{
	char name[4352], base[4352];
	long long fd;

	if (!p || !p->n || p->s[0] != '"' || !tr_str(p->s, p->n, name, sizeof(name)))
		return -1;
	if (d && d->dec) {
		if (!decoded(d, base, sizeof(base)))
			return -1;
	} else if (!d || (tr_num(d, &fd) && fd == -100)) {
		snprintf(base, sizeof(base), "%s", t->fs->cwd);
	} else if (name[0] != '/') {
		return -1; /* a dirfd strace did not decode */
	}
	return tr_classify(c, base, name, out, outlen);
}

int tr_fd(struct tr_ctx *c, struct tr_task *t, const struct tr_arg *a, struct tr_slot **slot)
{
	char p[4352];
	long long fd;
	int in;

	*slot = NULL;
	if (!decoded(a, p, sizeof(p)) || !tr_num(a, &fd))
		return -1;
	if (p[0] != '/') { /* socket:[1], pipe:[2], anon_inode:... */
		snprintf(c->fdpath, sizeof(c->fdpath), "%s", p);
		return 0;
	}
	in = tr_classify(c, "/", p, c->fdpath, sizeof(c->fdpath));
	if (in == 1 && fd >= 0 && t->ft && (size_t)fd < t->ft->nfd)
		*slot = t->ft->fd[fd];
	return in < 0 ? -1 : in;
}

struct tr_slot *tr_fd_set(struct tr_ctx *c, struct tr_task *t, long fd, struct tr_slot *s)
{
	struct tr_fdtab *ft = t->ft;
	struct tr_slot *old;

	if (fd < 0 || fd >= TR_MAXFD || !ft) /* beyond any RLIMIT_NOFILE: not an fd */
		return NULL;
	if ((size_t)fd >= ft->nfd) {
		size_t n = (size_t)fd + 16;
		struct tr_slot **p;

		if (!s)
			return NULL;
		if (!(p = realloc(ft->fd, n * sizeof(*p)))) {
			c->nomem = true;
			return NULL;
		}
		memset(p + ft->nfd, 0, (n - ft->nfd) * sizeof(*p));
		ft->fd = p;
		ft->nfd = n;
	}
	old = ft->fd[fd];
	ft->fd[fd] = s;
	if (s)
		s->refs++;
	if (old && --old->refs == 0)
		return old;
	return NULL;
}

/* The name holder of a slot base name: the slot now called so, and suffixes used. */
struct tr_name {
	struct tr_slot *holder; /* the slot with exactly this name */
	unsigned n;             /* ".<n>" suffixes given */
};

struct tr_slot *tr_slot_open(struct tr_ctx *c, struct tr_task *t, long fd, struct tr_path *p)
{
	struct tr_slot *s = zalloc(c, sizeof(*s));
	char base[40];
	bool nomem = false;
	void **at;
	struct tr_name *nm;

	if (!s)
		return NULL;
	s->next = c->slots;
	c->slots = s;
	s->path = p;
	s->res.stream = -1;
	snprintf(base, sizeof(base), "t%ld.fd%ld", t->ft->owner, fd);
	if (!(at = tr_map_at(&c->names, base, strlen(base), true, &nomem)) ||
	    (!*at && !(*at = zalloc(c, sizeof(struct tr_name))))) {
		c->nomem = true;
		return NULL;
	}
	nm = *at;
	if (!nm->holder || nm->holder->closed) {
		snprintf(s->name, sizeof(s->name), "%s", base);
		if (nm->holder) /* the same name: after the old file's last call (its close) */
			s->res = nm->holder->res;
		nm->holder = s;
	} else {
		snprintf(s->name, sizeof(s->name), "%s.%u", base, ++nm->n);
	}
	tr_fd_set(c, t, fd, s);
	return s;
}

void tr_use(struct tr_ctx *c, struct tr_path *p, bool creates, bool dir)
{
	char rel[4352];

	if (!p)
		return;
	if (!p->used) {
		p->used = true;
		p->existed = !creates;
	}
	p->dir |= dir;
	snprintf(rel, sizeof(rel), "%s", p->rel);
	while (rel[0]) {
		char *slash = strrchr(rel, '/');
		struct tr_path *a;

		if (slash)
			*slash = '\0';
		else
			rel[0] = '\0';
		if (!(a = tr_path(c, rel)))
			return;
		if (a->used && a->dir)
			break; /* and so are its parents */
		if (!a->used)
			a->used = a->existed = true;
		a->dir = true;
	}
}

void tr_left_out(struct tr_ctx *c, struct tr_task *t, const char *path)
{
	bool nomem = false;
	void **at;
	int rank;

	(void)t;
	c->sum->calls_left_out++;
	if (!path || !path[0])
		return;
	if (!(at = tr_map_at(&c->outside, path, strlen(path), true, &nomem))) {
		c->nomem |= nomem;
		return;
	}
	if (*at)
		return;
	*at = (void *)1;
	c->sum->paths_left_out++;
	rank = 1 + (strstr(path, ".so") != NULL) + 2 * (strstr(path, "/lib") != NULL);
	if (rank > c->example_rank) {
		c->example_rank = rank;
		snprintf(c->sum->example_left_out, sizeof(c->sum->example_left_out), "%s", path);
	}
}

void tr_not_replayed(struct tr_ctx *c, struct tr_task *t, const char *name)
{
	struct lg_trace_summary *s = c->sum;
	size_t i;

	(void)t;
	for (i = 0; i < s->n_not_replayed; i++)
		if (!strcmp(s->not_replayed[i].name, name))
			break;
	if (i == s->n_not_replayed) {
		if (i == sizeof(s->not_replayed) / sizeof(s->not_replayed[0])) {
			i--; /* the last row becomes "other" */
			snprintf(s->not_replayed[i].name, sizeof(s->not_replayed[i].name), "other");
		} else {
			snprintf(s->not_replayed[i].name, sizeof(s->not_replayed[i].name), "%s",
				 name);
			s->n_not_replayed++;
		}
	}
	s->not_replayed[i].count++;
}

int tr_arg_path(struct tr_ctx *c, const char *key, const char *rel)
{
	char p[4400];

	snprintf(p, sizeof(p), "${client}%s%s", rel[0] ? "/" : "", rel);
	if (tr_printf(&c->args, "%s%s: ", c->args.len ? ", " : "", key) ||
	    tr_quote(&c->args, p, strlen(p)))
		c->nomem = true;
	return c->nomem ? -1 : 0;
}
