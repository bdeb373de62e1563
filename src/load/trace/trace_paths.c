/* Calls on paths -> steps (open, the stat family, access, mkdir, unlink, rename, link,
 * symlink, readlink, truncate, chmod, chown, utimens, the xattr calls). The table that
 * names them is in trace_table.c. */
#include "trace_calls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ok(const struct tr_call *k)
{
	return k->has_ret && k->ret >= 0 && !k->err;
}

static long long num(const struct tr_call *k, int i)
{
	long long v = 0;

	if (i >= 0 && i < k->na)
		tr_num(&k->a[i], &v);
	return v;
}

static const struct tr_arg *arg(const struct tr_call *k, int i)
{
	return i >= 0 && i < k->na ? &k->a[i] : NULL;
}

/* The path of arguments di (dirfd) and pi in the directory, into rel; NULL when it is
 * elsewhere (the call is then counted as left out). */
static struct tr_path *path_arg(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
				int di, int pi, char *rel, size_t len)
{
	int in = tr_resolve(c, t, arg(k, di), arg(k, pi), rel, len);

	if (in == 1)
		return tr_path(c, rel);
	if (in == 0 || in < 0)
		tr_left_out(c, t, in == 0 ? rel : NULL);
	return NULL;
}

/* The directory holding p, for the calls that change its entries. */
static struct tr_path *parent(struct tr_ctx *c, const char *rel)
{
	char d[4352];
	char *slash;

	if (!rel[0])
		return NULL;
	snprintf(d, sizeof(d), "%s", rel);
	if (d[strlen(d) - 1] == '/')
		d[strlen(d) - 1] = '\0';
	slash = strrchr(d, '/');
	if (slash)
		*slash = '\0';
	else
		d[0] = '\0';
	return tr_path(c, d);
}

/* Write op for path p (and its parent when entries), with c->args already holding its
 * arguments, extra: another resource (a slot) or NULL. */
static int pstep(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k, const char *op,
		 struct tr_path *p, bool entries, struct tr_res *extra)
{
	struct tr_res *res[3];
	int n = 0;
	struct tr_path *d = entries ? parent(c, p->rel) : NULL;

	res[n++] = &p->res;
	if (d)
		res[n++] = &d->res;
	if (extra)
		res[n++] = extra;
	return tr_step(c, t, k, op, res, n);
}

static const struct tr_word open_flags[] = {
	{ "O_EXCL", "exclusive" }, { "O_TRUNC", "truncate" },   { "O_APPEND", "append" },
	{ "O_SYNC", "sync" },      { "O_DSYNC", "dsync" },      { "O_DIRECT", "direct" },
	{ "O_NOFOLLOW", "nofollow" }, { "O_NOATIME", "noatime" }, { "O_PATH", "path" },
	{ "O_TMPFILE", "tmpfile" }, { NULL, NULL },
};
/* The flags of an open as a YAML list: the access mode first, create implied by the op. */
static void open_words(struct tr_ctx *c, const struct tr_arg *f, bool creat)
{
	const char *acc = creat || tr_has(f, "O_WRONLY") ? "write" : tr_has(f, "O_RDWR") ? "rdwr"
										      : "read";

	tr_printf(&c->args, ", flags: [%s%s", acc, creat ? ", truncate" : "");
	for (const struct tr_word *w = open_flags; w->strace; w++)
		if (tr_has(f, w->strace))
			tr_printf(&c->args, ", %s", w->yaml);
	if (!tr_has(f, "O_TMPFILE") && tr_has(f, "O_DIRECTORY"))
		tr_puts(&c->args, ", directory");
	if (tr_puts(&c->args, "]"))
		c->nomem = true;
}

int tr_h_open(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		  const struct tr_spec *sp)
{
	char rel[4352], slot[64];
	struct tr_path *p = path_arg(c, t, k, sp->dirfd, sp->path, rel, sizeof(rel));
	const struct tr_arg *f = arg(k, sp->flags);
	bool creat = sp->flags < 0, create = creat || tr_has(f, "O_CREAT");
	bool tmp = tr_has(f, "O_TMPFILE");
	struct tr_slot *s = NULL;

	if (!p)
		return 0;
	if (ok(k)) {
		tr_use(c, p, create && !tmp, tmp || tr_has(f, "O_DIRECTORY"));
		if (!(s = tr_slot_open(c, t, (long)k->ret, tmp ? NULL : p)))
			return -1;
		if (tr_has(f, "O_TRUNC") || creat)
			p->modified = true;
		if (tr_has(f, "O_APPEND"))
			s->pos = p->size;
	}
	snprintf(slot, sizeof(slot), "%s", s ? s->name : "");
	if (!s)
		snprintf(slot, sizeof(slot), "t%ld.failed", t->ft->owner);
	c->args.len = 0;
	tr_arg_path(c, "path", rel);
	tr_argf(c, "as: %s", slot);
	open_words(c, f, creat);
	return pstep(c, t, k, create ? "create" : "open", p, create || tmp, s ? &s->res : NULL);
}

void tr_seen_stat(struct tr_ctx *c, struct tr_path *p, const struct tr_arg *buf, bool good)
{
	uint64_t size = tr_field(buf, "st_size=") | tr_field(buf, "stx_size=");

	if (!good || !p)
		return;
	if (buf && memmem(buf->s, buf->n, "S_IFDIR", 7)) {
		tr_use(c, p, false, true);
		return;
	}
	tr_use(c, p, false, false);
	if (!p->modified && !p->dir && size > p->size)
		p->size = size;
}

/* An empty path with AT_EMPTY_PATH (or NULL): the call is on its dirfd. */
static bool on_fd(const struct tr_call *k, const struct tr_spec *sp)
{
	const struct tr_arg *p = arg(k, sp->path);

	return p && ((p->n == 2 && !memcmp(p->s, "\"\"", 2)) || (p->n == 4 && !memcmp(p->s, "NULL", 4)));
}

int tr_h_stat(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		  const struct tr_spec *sp)
{
	char rel[4352];
	bool x = !strcmp(sp->op, "statx");
	const struct tr_arg *buf = arg(k, x ? 4 : sp->path + 1);
	bool nofollow = (sp->variant & TR_NOFOLLOW) || tr_has(arg(k, sp->flags), "AT_SYMLINK_NOFOLLOW");
	struct tr_path *p;

	if (sp->dirfd >= 0 && on_fd(k, sp)) {
		struct tr_spec fs = { .op = x ? "statx" : "fstat", .variant = TR_STATBUF };
		struct tr_call k2 = *k;

		k2.a[1] = buf ? *buf : k->a[1];
		return tr_h_fd(c, t, &k2, &fs);
	}
	if (!(p = path_arg(c, t, k, sp->dirfd, sp->path, rel, sizeof(rel))))
		return 0;
	tr_seen_stat(c, p, buf, ok(k));
	c->args.len = 0;
	tr_arg_path(c, "path", rel);
	if (x && nofollow)
		tr_argf(c, "nofollow: true");
	else if (!x && !nofollow)
		tr_argf(c, "follow: true");
	return pstep(c, t, k, sp->op, p, false, NULL);
}

static const struct tr_word access_modes[] = {
	{ "R_OK", "read" }, { "W_OK", "write" }, { "X_OK", "exec" }, { NULL, NULL },
};

int tr_h_access(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		    const struct tr_spec *sp)
{
	char rel[4352];
	struct tr_path *p = path_arg(c, t, k, sp->dirfd, sp->path, rel, sizeof(rel));
	const struct tr_arg *m = arg(k, sp->path + 1);

	if (!p)
		return 0;
	if (ok(k))
		tr_use(c, p, false, false);
	c->args.len = 0;
	tr_arg_path(c, "path", rel);
	if (m && !tr_has(m, "F_OK"))
		tr_words(c, "mode", m, access_modes);
	return pstep(c, t, k, "access", p, false, NULL);
}

/* mkdir, unlink, rmdir, readlink, truncate: one path. */
int tr_h_named(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		   const struct tr_spec *sp)
{
	char rel[4352], target[4352];
	struct tr_path *p = path_arg(c, t, k, sp->dirfd, sp->path, rel, sizeof(rel));
	const char *op = sp->op;
	bool entries = true;

	if (!p)
		return 0;
	if ((sp->variant & TR_RMDIR) || tr_has(arg(k, sp->flags), "AT_REMOVEDIR"))
		op = "rmdir";
	c->args.len = 0;
	tr_arg_path(c, "path", rel);
	if (!strcmp(op, "readlink") || !strcmp(op, "truncate")) {
		entries = false;
		if (!strcmp(op, "truncate"))
			tr_argf(c, "size: %lld", num(k, sp->path + 1));
	}
	if (ok(k)) {
		tr_use(c, p, !strcmp(op, "mkdir"), !strcmp(op, "mkdir") || !strcmp(op, "rmdir"));
		if (!strcmp(op, "truncate"))
			p->modified = true;
		if (!strcmp(op, "readlink") && p->existed && !p->target && arg(k, sp->path + 1) &&
		    tr_str(arg(k, sp->path + 1)->s, arg(k, sp->path + 1)->n, target, sizeof(target))) {
			p->link = true;
			free(p->target);
			p->target = strdup(target);
		}
	}
	return pstep(c, t, k, op, p, entries, NULL);
}

static const struct tr_word rename_flags[] = {
	{ "RENAME_NOREPLACE", "noreplace" }, { "RENAME_EXCHANGE", "exchange" },
	{ "RENAME_WHITEOUT", "whiteout" }, { NULL, NULL },
};

/* rename, link: two paths, both in the directory. */
int tr_h_two(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		 const struct tr_spec *sp)
{
	char a[4352], b[4352];
	int ia = tr_resolve(c, t, arg(k, sp->dirfd), arg(k, sp->path), a, sizeof(a));
	int ib = tr_resolve(c, t, arg(k, sp->dirfd2), arg(k, sp->path2), b, sizeof(b));
	struct tr_path *pa, *pb, *da, *db;
	struct tr_res *res[4];
	int n = 0;

	if (ia != 1 && ib != 1) {
		tr_left_out(c, t, ia == 0 ? a : NULL);
		return 0;
	}
	if (ia != 1 || ib != 1) {
		tr_not_replayed(c, t, !strcmp(sp->op, "link") ? "link across the directory"
							     : "rename across the directory");
		return 0;
	}
	if (!(pa = tr_path(c, a)) || !(pb = tr_path(c, b)))
		return -1;
	c->args.len = 0;
	tr_arg_path(c, "from", a);
	tr_arg_path(c, "to", b);
	if (!strcmp(sp->op, "rename") && arg(k, sp->flags) && num(k, sp->flags) == 0 &&
	    !(arg(k, sp->flags)->n == 1 && arg(k, sp->flags)->s[0] == '0'))
		tr_words(c, "flags", arg(k, sp->flags), rename_flags);
	if (ok(k)) {
		tr_use(c, pa, false, false);
		tr_use(c, pb, !tr_has(arg(k, sp->flags), "RENAME_EXCHANGE"), pa->dir);
	}
	da = parent(c, pa->rel);
	db = parent(c, pb->rel);
	res[n++] = &pa->res;
	res[n++] = &pb->res;
	if (da)
		res[n++] = &da->res;
	if (db && db != da)
		res[n++] = &db->res;
	return tr_step(c, t, k, sp->op, res, n);
}

/* The path from directory from to to (both relative to the directory) into out. */
static void relative(const char *from, const char *to, char *out, size_t len)
{
	size_t i = 0, cf, ct, o = 0;

	while (from[i] && from[i] == to[i])
		i++;
	if (!from[i] && (to[i] == '/' || !to[i])) { /* from is a prefix of to */
		cf = i;
		ct = i + (to[i] == '/');
	} else {
		while (i > 0 && from[i - 1] != '/')
			i--;
		cf = ct = i;
	}
	if (!from[0])
		cf = ct = 0;
	for (const char *p = from + cf; *p; p += strcspn(p, "/"), p += *p == '/')
		if (*p != '/')
			o += (size_t)snprintf(out + o, o < len ? len - o : 0, "../");
	if (o < len)
		snprintf(out + o, len - o, "%s", to + ct);
	if (o > 1 && o < len && !to[ct])
		out[o - 1] = '\0'; /* "../" -> ".." */
	if (!out[0])
		snprintf(out, len, ".");
}

int tr_h_symlink(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		     const struct tr_spec *sp)
{
	char rel[4352], tg[4352], abs[4352], dir[4352], base[4352], *slash;
	struct tr_path *p = path_arg(c, t, k, sp->dirfd, sp->path, rel, sizeof(rel));
	const struct tr_arg *a = arg(k, 0);
	int in;

	if (!p)
		return 0;
	snprintf(dir, sizeof(dir), "%s", rel);
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	else
		dir[0] = '\0';
	if (!a || !tr_str(a->s, a->n, tg, sizeof(tg))) {
		tr_not_replayed(c, t, "symlink");
		return 0;
	}
	if ((size_t)snprintf(base, sizeof(base), "%s/%s", c->dir, dir) >= sizeof(base)) {
		tr_not_replayed(c, t, "symlink of a path too long");
		return 0;
	}
	in = tr_classify(c, base, tg, abs, sizeof(abs));
	if (in != 1 || strstr(tg, "${")) {
		tr_not_replayed(c, t, "symlink out of the directory");
		return 0;
	}
	if (tg[0] == '/')
		relative(dir, abs, tg, sizeof(tg));
	c->args.len = 0;
	tr_puts(&c->args, "target: ");
	tr_quote(&c->args, tg, strlen(tg));
	tr_arg_path(c, "path", rel);
	if (ok(k))
		tr_use(c, p, true, false);
	return pstep(c, t, k, "symlink", p, true, NULL);
}

/* A mode as strace writes it ("0644", "S_ISUID|0755"). */
static unsigned mode_of(const struct tr_arg *a)
{
	unsigned m = 0;

	if (!a)
		return 0;
	for (const char *p = a->s, *e = a->s + a->n; p < e; p += strcspn(p, "|,)") + 1) {
		if (!strncmp(p, "S_ISUID", 7))
			m |= 04000;
		else if (!strncmp(p, "S_ISGID", 7))
			m |= 02000;
		else if (!strncmp(p, "S_ISVTX", 7))
			m |= 01000;
		else
			m |= (unsigned)strtoul(p, NULL, 8);
	}
	return m & 07777; /* git passes st_mode, file type bits and all */
}

/* chmod, chown, utimens, the xattr calls: on a path or (f- variants, an empty path or
 * NULL with a dirfd) an open file; c->args gets "path: P" or "file: f". */
static struct tr_res *object(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
			     const struct tr_spec *sp, struct tr_path **pp)
{
	char rel[4352];

	c->args.len = 0;
	*pp = NULL;
	if ((sp->variant & TR_FILE) || (sp->dirfd >= 0 && on_fd(k, sp))) {
		struct tr_slot *s = tr_file_arg(c, t, k, (sp->variant & TR_FILE) ? 0 : sp->dirfd);

		if (s)
			tr_argf(c, "file: %s", s->name);
		return s ? &s->res : NULL;
	}
	if (!(*pp = path_arg(c, t, k, sp->dirfd, sp->path, rel, sizeof(rel))))
		return NULL;
	tr_arg_path(c, "path", rel);
	if ((sp->variant & TR_NOFOLLOW) || tr_has(arg(k, sp->flags), "AT_SYMLINK_NOFOLLOW"))
		tr_argf(c, "nofollow: true");
	if (ok(k))
		tr_use(c, *pp, false, false);
	return &(*pp)->res;
}

int tr_h_meta(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		  const struct tr_spec *sp)
{
	struct tr_path *p;
	struct tr_res *r;
	struct tr_spec s2 = *sp;
	int mode_at = (sp->variant & TR_FILE) ? 1 : sp->path + 1;

	if (!strcmp(sp->op, "chmod"))
		s2.flags = -1; /* chmod follows links, whatever fchmodat's flags */
	if (!(r = object(c, t, k, &s2, &p)))
		return 0;
	if (!strcmp(sp->op, "chmod"))
		tr_argf(c, "mode: 0%o", mode_of(arg(k, mode_at)));
	return tr_step(c, t, k, sp->op, &r, 1);
}

static const struct tr_word xattr_flags[] = {
	{ "XATTR_CREATE", "create" }, { "XATTR_REPLACE", "replace" }, { NULL, NULL },
};

int tr_h_xattr(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		   const struct tr_spec *sp)
{
	char name[256];
	struct tr_path *p;
	struct tr_res *r = object(c, t, k, sp, &p);
	bool list = !strcmp(sp->op, "listxattr");

	if (!r)
		return 0;
	if (!list && arg(k, 1) && tr_str(arg(k, 1)->s, arg(k, 1)->n, name, sizeof(name))) {
		tr_puts(&c->args, ", name: ");
		tr_quote(&c->args, name, strlen(name));
	}
	if (!strcmp(sp->op, "setxattr") || !strcmp(sp->op, "getxattr") || list)
		tr_argf(c, "size: %lld", num(k, list ? 2 : 3));
	if (!strcmp(sp->op, "setxattr") && arg(k, 4) && !(arg(k, 4)->n == 1 && arg(k, 4)->s[0] == '0'))
		tr_words(c, "flags", arg(k, 4), xattr_flags);
	return tr_step(c, t, k, sp->op, &r, 1);
}

/* statfs, fstatfs of the directory: the run directory's (the op takes no path). */
int tr_h_statfs(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		    const struct tr_spec *sp)
{
	char rel[4352];
	struct tr_slot *s = NULL;

	if (sp->variant & TR_FILE) {
		if (!(s = tr_file_arg(c, t, k, 0)))
			return 0;
	} else if (!path_arg(c, t, k, -1, 0, rel, sizeof(rel))) {
		return 0;
	}
	c->args.len = 0;
	return tr_step(c, t, k, "statfs", NULL, 0);
}

/* Calls on paths that no op replays (mknod, chroot, ...): counted when in the directory. */
int tr_h_unmapped(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k,
		      const struct tr_spec *sp)
{
	char rel[4352];

	if (path_arg(c, t, k, sp->dirfd, sp->path, rel, sizeof(rel)))
		tr_not_replayed(c, t, k->name);
	return 0;
}

