/* Who else was busy (see loadgen/env/busy.h): the bookkeeping of the samples, pure.
 *
 * Each sample is sorted by pid and merged with the entries of the previous one (also by
 * pid): a match with the same start time is the same process and moves its last counters
 * on; an entry not matched (gone, or its pid reused by a process with another start) is
 * added to its group and dropped; a process not matched is a new entry. So the entries
 * are only the processes of the last sample, and what the gone ones did is in the groups:
 * memory stays bounded by the processes alive at once, however many a dd loop starts.
 *
 * A parent's /proc/PID/io holds the I/O of the children it has waited for (the kernel
 * adds a reaped child's counters to its parent's, as it does CPU time to cutime; CPU
 * ticks here are the process's own). So when a child is gone while its parent is still
 * there, the child's counters as last seen are taken off the parent's: its I/O counts
 * once, as the child's. What the child did after its last sample, and children never
 * seen (born and gone between two samples), are in the parent's counters too: a parent
 * seen reaping children hands the rest of its I/O to its last such child's name (its
 * CPU time stays its own), counted as via_parent. A shell running a dd loop then shows
 * dd's bytes under dd, not sh; a parent doing I/O of its own beside its children would
 * lend it to them. */
#include "loadgen/env/busy.h"
#include "busy_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 4096 /* longest parent chain followed (a loop in a racy sample) */

int lg_busy_create(int self, long hz, struct lg_busy **out)
{
	struct lg_busy *b = calloc(1, sizeof(*b));

	*out = b;
	if (!b)
		return -ENOMEM;
	b->self = self;
	b->hz = hz > 0 ? hz : 100;
	return 0;
}

void lg_busy_destroy(struct lg_busy *b)
{
	if (!b)
		return;
	lg_busy_live_close(b);
	free(b->buf);
	free(b->e);
	free(b->g);
	free(b);
}

void lg_busy_exclude_siblings(struct lg_busy *b)
{
	b->siblings = true;
}

void lg_busy_begin(struct lg_busy *b, uint64_t start_tick)
{
	b->start_tick = start_tick;
	b->begun = true;
}

size_t lg_busy_samples(const struct lg_busy *b)
{
	return b ? b->samples : 0;
}

void lg_busy_note(struct lg_busy *b, const char *note)
{
	if (!b->note[0])
		snprintf(b->note, sizeof(b->note), "%s", note);
}

static int by_pid(const void *pa, const void *pb)
{
	const struct lg_busy_proc *a = pa, *b = pb;

	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* The sample's process of pid (procs sorted by pid), or -1. */
static long find_pid(const struct lg_busy_proc *procs, size_t n, int pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (procs[mid].pid == pid)
			return (long)mid;
		if (procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Mark in out[i] (1 left out, 2 kept) whether procs[i] is self or below it (or, with
 * siblings, a process of our name and parent, or below one), following each chain of
 * parents up to a process already decided, pid 0 or 1, or a parent the sample lacks. */
static void mark_excluded(const struct lg_busy *b, const struct lg_busy_proc *procs,
			  size_t n, char *out)
{
	long chain[64], me = find_pid(procs, n, b->self);

	memset(out, 0, n);
	if (me >= 0)
		out[me] = 1;
	for (size_t i = 0; me >= 0 && b->siblings && i < n; i++)
		if (procs[i].ppid == procs[me].ppid && procs[i].ppid > 1 &&
		    strcmp(procs[i].comm, procs[me].comm) == 0)
			out[i] = 1;
	for (size_t i = 0; i < n; i++) {
		long at = (long)i;
		size_t len = 0, depth = 0;
		char v = 2;

		while (at >= 0 && !out[at] && depth++ < MAX_DEPTH) {
			if (procs[at].ppid == b->self) {
				v = 1;
				break;
			}
			if (len < sizeof(chain) / sizeof(chain[0]))
				chain[len++] = at;
			at = procs[at].ppid > 1 ? find_pid(procs, n, procs[at].ppid) : -1;
		}
		if (at >= 0 && out[at])
			v = out[at];
		out[i] = v;
		for (size_t k = 0; k < len; k++) /* the chain walked shares the answer */
			out[chain[k]] = v;
	}
}

/* The group a process belongs to: a kernel thread's name up to its first '/'. */
static void group_name(const struct lg_busy_proc *p, char *out)
{
	size_t len = p->kernel ? strcspn(p->comm, "/") : strlen(p->comm);

	if (len >= LG_BUSY_COMM)
		len = LG_BUSY_COMM - 1;
	memcpy(out, p->comm, len);
	out[len] = '\0';
	if (!out[0])
		snprintf(out, LG_BUSY_COMM, "?");
}

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0; /* a counter never goes back, unless misread */
}

/* a - b - kids, not below 0 (a parent that let the kernel reap its children got none
 * of their counters) */
static uint64_t own(uint64_t a, uint64_t b, uint64_t kids)
{
	return minus(minus(a, b), kids);
}

/* The group called name (kernel threads apart), made when new. NULL on -ENOMEM. */
static struct lg_busy_group *group_of(struct lg_busy *b, const char *name, bool kernel)
{
	struct lg_busy_group *g;

	for (size_t i = 0; i < b->ng; i++)
		if (b->g[i].kernel == kernel && strcmp(b->g[i].comm, name) == 0)
			return &b->g[i];
	if (b->ng == b->gcap) {
		size_t cap = b->gcap ? 2 * b->gcap : 32;
		struct lg_busy_group *p = realloc(b->g, cap * sizeof(*p));

		if (!p)
			return NULL;
		b->g = p;
		b->gcap = cap;
	}
	g = &b->g[b->ng++];
	memset(g, 0, sizeof(*g));
	snprintf(g->comm, sizeof(g->comm), "%s", name);
	g->kernel = kernel;
	return g;
}

static void add_io(struct lg_busy_group *g, const struct busy_counts *d)
{
	g->read_bytes += d->read_bytes;
	g->write_bytes += d->write_bytes;
	g->rchar += d->rchar;
	g->wchar += d->wchar;
}

/* Add what entry e did in the phase to its group. 0 or -ENOMEM (then it is lost). */
static int fold(struct lg_busy *b, const struct busy_entry *e)
{
	struct busy_counts d = {
		minus(e->last.tics, e->base.tics),
		own(e->last.read_bytes, e->base.read_bytes, e->kids.read_bytes),
		own(e->last.write_bytes, e->base.write_bytes, e->kids.write_bytes),
		own(e->last.rchar, e->base.rchar, e->kids.rchar),
		own(e->last.wchar, e->base.wchar, e->kids.wchar),
	};
	struct lg_busy_group *g;

	if (e->kid[0] && (d.read_bytes | d.write_bytes | d.rchar | d.wchar)) {
		/* a parent seen reaping children: the rest of its I/O is taken as theirs (the
		 * tails of those seen, all of those born and gone between two samples) */
		if (!(g = group_of(b, e->kid, e->kid_kernel)))
			return -ENOMEM;
		add_io(g, &d);
		g->via_parent += d.read_bytes + d.write_bytes;
		d.read_bytes = d.write_bytes = d.rchar = d.wchar = 0;
	}
	if (!(d.tics | d.read_bytes | d.write_bytes | d.rchar | d.wchar))
		return 0; /* idle all along: not named */
	if (!(g = group_of(b, e->name, e->kernel)))
		return -ENOMEM;
	if (g->processes < LG_BUSY_PIDS)
		g->pids[g->processes] = e->pid;
	g->processes++;
	g->io_unreadable += !e->io_ok;
	g->tics += d.tics;
	add_io(g, &d);
	return 0;
}

static struct busy_counts counts_of(const struct lg_busy_proc *p)
{
	return (struct busy_counts){ p->tics, p->read_bytes, p->write_bytes, p->rchar, p->wchar };
}

/* The entry of a process not in the last sample: it counts everything when it started
 * in the phase, else from now on (it was there before but missed: a failed read). */
static void new_entry(const struct lg_busy *b, const struct lg_busy_proc *p,
		      struct busy_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->fresh = true;
	e->pid = p->pid;
	e->start_tick = p->start_tick;
	e->last = counts_of(p);
	if (!b->begun || p->start_tick < b->start_tick)
		e->base = e->last;
}

/* Whether entry e and process p are one: same pid, same start. */
static int cmp_entry(const struct busy_entry *e, const struct lg_busy_proc *p)
{
	if (e->pid != p->pid)
		return (e->pid > p->pid) - (e->pid < p->pid);
	return e->start_tick != p->start_tick ? 2 : 0;
}

/* The entry of pid among e[0..n) (sorted by pid), or NULL. */
static struct busy_entry *entry_of(struct busy_entry *e, size_t n, int pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid].pid == pid)
			return &e[mid];
		if (e[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The entries gone[0..n) of the last sample are not in the new one (ne[0..k)): each to
 * its group, its counters off its parent's when the parent is still there (it reaped
 * the child). 0 or -ENOMEM. */
static int fold_gone(struct lg_busy *b, const size_t *gone, size_t n, struct busy_entry *ne,
		     size_t k)
{
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		const struct busy_entry *c = &b->e[gone[i]];
		struct busy_entry *p = entry_of(ne, k, c->ppid);

		if (p && !p->fresh) { /* a fresh one at that pid is another process */
			p->kids.read_bytes += c->last.read_bytes;
			p->kids.write_bytes += c->last.write_bytes;
			p->kids.rchar += c->last.rchar;
			p->kids.wchar += c->last.wchar;
			memcpy(p->kid, c->name, sizeof(p->kid));
			p->kid_kernel = c->kernel;
		}
		rc |= fold(b, c);
	}
	return rc;
}

int lg_busy_feed(struct lg_busy *b, struct lg_busy_proc *procs, size_t n, uint64_t t_ns)
{
	struct busy_entry *ne = malloc((n ? n : 1) * sizeof(*ne));
	size_t *gone = malloc((b->n ? b->n : 1) * sizeof(*gone));
	char *mark = malloc(n ? n : 1);
	size_t i = 0, j = 0, k = 0, ngone = 0;
	int rc = 0;

	if (!ne || !mark || !gone) {
		free(ne);
		free(gone);
		free(mark);
		return -ENOMEM;
	}
	if (b->stopped)
		goto out;
	qsort(procs, n, sizeof(*procs), by_pid);
	mark_excluded(b, procs, n, mark);
	while (i < b->n || j < n) {
		int c = i >= b->n ? 1 : j >= n ? -1 : cmp_entry(&b->e[i], &procs[j]);

		if (j < n && mark[j] == 1 && c >= 0) { /* ours: never counted */
			if (c == 2) /* the pid's former process is gone */
				gone[ngone++] = i;
			i += c == 0 || c == 2;
			j++;
			continue;
		}
		if (c < 0 || c == 2) { /* gone, or its pid now another's */
			gone[ngone++] = i++;
			continue;
		}
		if (c == 0)
			ne[k] = b->e[i++];
		else
			new_entry(b, &procs[j], &ne[k]);
		ne[k].last = counts_of(&procs[j]);
		ne[k].ppid = procs[j].ppid;
		ne[k].kernel = procs[j].kernel;
		ne[k].io_ok = procs[j].io_ok;
		group_name(&procs[j], ne[k].name);
		k++;
		j++;
	}
	rc = fold_gone(b, gone, ngone, ne, k);
	for (size_t x = 0; x < k; x++)
		ne[x].fresh = false;
	free(b->e);
	b->e = ne;
	b->n = k;
	ne = NULL;
	if (!b->samples++)
		b->t_first = t_ns;
	b->t_last = t_ns;
out:
	free(ne);
	free(gone);
	free(mark);
	return rc ? -ENOMEM : 0;
}

void lg_busy_stop(struct lg_busy *b)
{
	if (!b || b->stopped)
		return;
	for (size_t i = 0; i < b->n; i++)
		if (fold(b, &b->e[i]))
			lg_busy_note(b, "out of memory: some processes are not counted");
	b->n = 0;
	b->stopped = true;
}

static uint64_t io_bytes(const struct lg_busy_group *g)
{
	return g->read_bytes + g->write_bytes;
}

static uint64_t char_bytes(const struct lg_busy_group *g)
{
	return g->rchar + g->wchar;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b); /* larger first */
}

static int by_cpu(const void *pa, const void *pb)
{
	const struct lg_busy_group *a = pa, *b = pb;
	int c = cmp_u64(a->tics, b->tics);

	return c ? c : strcmp(a->comm, b->comm);
}

/* Storage bytes first (the disk a run competes for), then bytes through read/write
 * calls (tmpfs, pipes, the page cache), which rank those without storage I/O. */
static int by_io(const void *pa, const void *pb)
{
	const struct lg_busy_group *a = pa, *b = pb;
	int c = cmp_u64(io_bytes(a), io_bytes(b));

	if (!c)
		c = cmp_u64(char_bytes(a), char_bytes(b));
	return c ? c : strcmp(a->comm, b->comm);
}

size_t lg_busy_top(const struct lg_busy *b, bool io, struct lg_busy_group *out, size_t max)
{
	struct lg_busy_group *v = malloc((b->ng ? b->ng : 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return 0;
	for (size_t i = 0; i < b->ng; i++)
		if (io ? io_bytes(&b->g[i]) + char_bytes(&b->g[i]) > 0 : b->g[i].tics > 0)
			v[n++] = b->g[i];
	qsort(v, n, sizeof(*v), io ? by_io : by_cpu);
	n = n < max ? n : max;
	memcpy(out, v, n * sizeof(*v));
	free(v);
	return n;
}

static json_t *group_json(const struct lg_busy *b, const struct lg_busy_group *g)
{
	json_t *pids = json_array();
	size_t n = g->processes < LG_BUSY_PIDS ? g->processes : LG_BUSY_PIDS;

	for (size_t i = 0; pids && i < n; i++)
		if (json_array_append_new(pids, json_integer(g->pids[i]))) {
			json_decref(pids);
			return NULL;
		}
	return json_pack("{s:s, s:b, s:I, s:o, s:f, s:I, s:I, s:I, s:I, s:I, s:I}", "comm", g->comm,
			 "kernel", (int)g->kernel, "processes", (json_int_t)g->processes,
			 "pids", pids, "cpu_s", (double)g->tics / (double)b->hz,
			 "read_bytes", (json_int_t)g->read_bytes,
			 "write_bytes", (json_int_t)g->write_bytes, "rchar", (json_int_t)g->rchar,
			 "wchar", (json_int_t)g->wchar,
			 "io_unreadable", (json_int_t)g->io_unreadable,
			 "via_parent_bytes", (json_int_t)g->via_parent);
}

static json_t *list_json(const struct lg_busy *b, bool io)
{
	struct lg_busy_group top[LG_BUSY_TOP];
	size_t n = lg_busy_top(b, io, top, LG_BUSY_TOP);
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, group_json(b, &top[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *lg_busy_json(const struct lg_busy *b)
{
	double secs = (double)(b->t_last - b->t_first) / 1e9;
	unsigned procs = 0, unreadable = 0;
	const char *readable;

	for (size_t i = 0; i < b->ng; i++) {
		procs += b->g[i].processes;
		unreadable += b->g[i].io_unreadable;
	}
	readable = !unreadable ? "all" : unreadable < procs ? "partial" : "none";
	return json_pack("{s:I, s:I, s:f, s:f, s:I, s:s, s:I, s:f, s:s, s:s*, s:o, s:o}",
			 "samples", (json_int_t)b->samples,
			 "samples_skipped", (json_int_t)b->skipped, "seconds", secs,
			 "interval_s", b->samples > 1 ? secs / (double)(b->samples - 1) : 0.0,
			 "processes", (json_int_t)procs, "io_readable", readable,
			 "io_unreadable", (json_int_t)unreadable,
			 "cpu_ms_per_sample", b->live_samples ? (double)b->cost_ns / 1e6 /
				(double)b->live_samples : 0.0,
			 "excluded", b->siblings ? "this loadgen process, the other ranks on this "
				     "host, and their descendants"
				 : "this loadgen process and its descendants",
			 "note", b->note[0] ? b->note : NULL,
			 "by_cpu", list_json(b, false), "by_io", list_json(b, true));
}
