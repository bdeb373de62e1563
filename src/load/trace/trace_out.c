/* The converter's output: each kept call as a step of its thread's stream with the
 * `after` steps that keep the trace's order on the resources it touches and the `think`
 * step of its gap (tr_step), then the whole document (tr_write): provenance under
 * `recorded:`, the input tree as `setup`, the streams, and a `cleanup` that removes the
 * client's tree.
 *
 * A stream's name ("TID COMM") is only known at the end (a child execs after its first
 * calls), so the steps refer to streams as "\x01<index>\x02", replaced when written. */
#include "trace_priv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/errnames.h"
#include "loadgen/model/workload.h"

#define MIB (1024 * 1024)
#define UNIFORM_THINK_NS 1000 /* a gap's even share of think time before the fit scales it */

struct wait {
	int stream;             /* the other stream */
	uint64_t k;             /* its calls to wait for */
};

/* The strongest wait on each other stream of the call's resources. */
static int waits(struct tr_task *t, struct tr_res **res, int nres, bool first, struct wait *w)
{
	int n = 0;

	if (first && t->parent_stream >= 0 && t->parent_k)
		w[n++] = (struct wait){ t->parent_stream, t->parent_k };
	if (t->reaped_stream >= 0 && t->reaped_stream != t->stream) /* the child's end, its
								       last think time too */
		w[n++] = (struct wait){ t->reaped_stream, LG_AFTER_END };
	for (int i = 0; i < nres; i++) {
		int j;

		if (!res[i] || res[i]->stream < 0 || res[i]->stream == t->stream)
			continue;
		for (j = 0; j < n && w[j].stream != res[i]->stream; j++)
			;
		if (j == n)
			w[n++] = (struct wait){ res[i]->stream, res[i]->k };
		else if (res[i]->k > w[j].k)
			w[j].k = res[i]->k;
	}
	return n;
}

static int new_stream(struct tr_ctx *c, struct tr_task *t)
{
	if (c->nstreams == c->capstreams) {
		size_t cap = c->capstreams ? c->capstreams * 2 : 16;
		struct tr_stream *s = realloc(c->streams, cap * sizeof(*s));

		if (!s)
			return -1;
		c->streams = s;
		c->capstreams = cap;
	}
	memset(&c->streams[c->nstreams], 0, sizeof(c->streams[0]));
	c->streams[c->nstreams].t = t;
	t->stream = (int)c->nstreams++;
	c->sum->streams++;
	return 0;
}

int tr_step(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k, const char *op,
	    struct tr_res **res, int nres)
{
	bool first = t->stream < 0;
	struct wait w[9]; /* a clone's, a reaped child's, one per resource */
	struct tr_stream *s;
	uint64_t base;
	const char *e = NULL;
	int n, rc = 0;

	if (first && new_stream(c, t))
		return -1;
	s = &c->streams[t->stream];
	n = waits(t, res, nres, first, w);
	for (int i = 0; !rc && i < n; i++) {
		bool nomem = false;
		void **at = tr_map_at(&s->waited, &w[i].stream, sizeof(w[i].stream), true, &nomem);

		if (!at)
			return c->nomem = true, -1;
		if ((uintptr_t)*at >= w[i].k) /* an earlier step waited for as much */
			continue;
		*at = (void *)(uintptr_t)w[i].k;
		rc = w[i].k == LG_AFTER_END
			? tr_printf(&s->steps, "      - after: {stream: \"\x01%d\x02\", calls: end}\n",
				    w[i].stream)
			: tr_printf(&s->steps, "      - after: {stream: \"\x01%d\x02\", calls: %"
				    PRIu64 "}\n", w[i].stream, w[i].k);
	}
	/* a stream's first think time: since the clone that made it, or for the traced
	 * program itself since the trace began (its exec, the loader's work) */
	base = !first ? t->prev_end : t->clone_end ? t->clone_end
		    : t->parent_stream < 0 && t->stream == 0 ? c->t0 : 0;
	/* The gap less the calls left out in it (waits for other processes; the loader's
	 * calls, whose own time is the tracer's more than theirs), held as "\x03GAP:N\x04"
	 * until the tracer's cost per gap is known (steps()); N gaps: one per traced call */
	if (!rc && base) {
		uint64_t gap = k->t_ns > base ? k->t_ns - base : 0;

		if (!first && !t->skipped) {
			c->pure_sum += gap;
			c->pure_n++;
		}
		gap = gap > t->skipped_ns ? gap - t->skipped_ns : 0;
		rc = tr_printf(&s->steps, "\x03%" PRIu64 ":%" PRIu64 "\x04", gap, 1 + t->skipped);
	}
	if (k->err)
		e = lg_errno_value(k->errname) > 0 ? k->errname : "any";
	if (!rc)
		rc = tr_printf(&s->steps, "      - %s: {%s%s%s%s}\n", op, c->args.len ? c->args.p : "",
			       e && c->args.len ? ", " : "", e ? "expect: " : "", e ? e : "");
	if (rc) {
		c->nomem = true;
		return -1;
	}
	s->ncalls++;
	for (int i = 0; i < nres; i++) {
		if (res[i]) {
			res[i]->stream = t->stream;
			res[i]->k = s->ncalls;
		}
	}
	t->prev_end = k->t_ns + k->dur_ns;
	t->skipped = 0;
	t->skipped_ns = 0;
	t->reaped_stream = -1;
	c->sum->calls_kept++;
	return 0;
}

void tr_tail(struct tr_ctx *c, struct tr_task *t, uint64_t t_ns)
{
	struct tr_stream *s;
	uint64_t gap;

	if (t->stream < 0 || !t->prev_end || t_ns <= t->prev_end)
		return;
	s = &c->streams[t->stream];
	gap = t_ns - t->prev_end;
	gap = gap > t->skipped_ns ? gap - t->skipped_ns : 0;
	if (tr_printf(&s->steps, "\x03%" PRIu64 ":%" PRIu64 "\x04", gap, 1 + t->skipped))
		c->nomem = true;
	t->prev_end = 0;
}

static void qput(FILE *f, const char *key, const char *v)
{
	struct tr_buf b = { 0 };

	if (!v)
		return;
	if (!tr_quote(&b, v, strlen(v)))
		fprintf(f, "  %s: %s\n", key, b.p);
	free(b.p);
}

static void recorded(struct tr_ctx *c, FILE *f)
{
	const struct lg_trace_opts *o = c->o;
	const struct lg_trace_summary *s = c->sum;
	char line[1024];
	size_t n = 0;

	/* the tracer's cost of a gap between two calls: what the trace's own back-to-back
	 * calls show, where it has enough of them (the conditions of this very run), else the
	 * cost record measured beside it */
	c->gap_ns = c->pure_n >= 50 ? c->pure_sum / c->pure_n : o->overhead_ns;
	fprintf(f, "recorded:\n");
	qput(f, "command", o->command);
	qput(f, "dir", c->dir);
	qput(f, "kernel", o->kernel);
	qput(f, "date", o->date);
	fprintf(f, "  exit_status: %d\n", o->exit_status);
	qput(f, "tracer", o->tracer);
	fprintf(f, "  trace_overhead_ns: %" PRIu64 "\n", o->overhead_ns);
	fprintf(f, "  think_gap_ns: %" PRIu64 "\n", c->gap_ns);
	qput(f, "think_gap_from", c->pure_n >= 50 ? "the mean gap between back-to-back calls "
	     "in this trace" : "trace_overhead_ns (too few back-to-back calls in the trace)");
	if (o->untraced_runs) {
		fprintf(f, "  untraced_runs: %u\n  untraced_median_s: %.6f\n  think_scale: %.6g\n",
			o->untraced_runs, o->untraced_s, o->think_scale);
		snprintf(line, sizeof(line), "scaled so that a replay by one client with "
			 "--replay-timing original took %.6f s here, against the untraced "
			 "runs' median, %.6f s", o->fit_replay_s, o->untraced_s);
		qput(f, "think_fitted", line);
	}
	snprintf(line, sizeof(line), "%" PRIu64 " calls on %" PRIu64 " paths outside %s%s%s%s",
		 s->calls_left_out, s->paths_left_out, c->dir, s->example_left_out[0] ? " (e.g. " : "",
		 s->example_left_out, s->example_left_out[0] ? ")" : "");
	qput(f, "left_out", line);
	fprintf(f, "  file_mmaps: %" PRIu64 "\n", s->file_mmaps);
	line[0] = '\0';
	for (size_t i = 0; i < s->n_not_replayed && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s %" PRIu64, i ? ", " : "",
				      s->not_replayed[i].name, s->not_replayed[i].count);
	qput(f, "not_replayed", line[0] ? line : "none");
	if (c->inferred)
		qput(f, "input_tree", "inferred from the trace (no snapshot of the directory)");
}

/* "${client}/rel" quoted. */
static void cpath(FILE *f, const char *rel)
{
	struct tr_buf b = { 0 }, q = { 0 };

	if (!tr_printf(&b, "${client}%s%s", rel[0] ? "/" : "", rel) && !tr_quote(&q, b.p, b.len))
		fputs(q.p, f);
	free(b.p);
	free(q.p);
}

static int by_rel(const void *a, const void *b)
{
	return strcmp((*(const struct lg_tree_entry *const *)a)->rel,
		      (*(const struct lg_tree_entry *const *)b)->rel);
}

/* A symlink target of the tree as the symlink op takes it (relative, inside), or NULL. */
static const char *link_target(struct tr_ctx *c, const struct lg_tree_entry *e, char *buf,
			       size_t len)
{
	char base[4400], *slash;
	size_t dl = strlen(c->dir);

	snprintf(base, sizeof(base), "%s/%s", c->dir, e->rel);
	if ((slash = strrchr(base, '/')))
		*slash = '\0';
	if (!e->target || strstr(e->target, "${") ||
	    tr_classify(c, base, e->target, buf, len) != 1)
		return NULL;
	if (e->target[0] != '/')
		return e->target;
	/* absolute inside: from the link's directory */
	{
		char to[4400];
		const char *from = base + (strlen(base) > dl ? dl + 1 : dl);
		size_t up = 0, i = 0;

		snprintf(to, sizeof(to), "%s", buf);
		for (const char *p = from; *p; p += strcspn(p, "/"), p += *p == '/')
			up++;
		buf[0] = '\0';
		for (; i < up; i++)
			strncat(buf, "../", len - strlen(buf) - 1);
		strncat(buf, to[0] ? to : ".", len - strlen(buf) - 1);
		return buf;
	}
}

static void setup_entries(struct tr_ctx *c, FILE *f, const struct lg_tree_entry **v, size_t n)
{
	char buf[4400];

	qsort(v, n, sizeof(*v), by_rel);
	fprintf(f, "setup:\n  - mkdir: \"${client}\"\n");
	for (size_t i = 0; i < n; i++) {
		if (v[i]->type != 'd' || !v[i]->rel[0])
			continue;
		fputs("  - mkdir: ", f);
		cpath(f, v[i]->rel);
		fputc('\n', f);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t sz = v[i]->size;

		if (v[i]->type != 'f')
			continue;
		fputs("  - create: {path: ", f);
		cpath(f, v[i]->rel);
		fputs(", as: setup, flags: [write, truncate]}\n", f);
		if (sz >= MIB)
			fprintf(f, "  - write: {file: setup, size: %d, count: %" PRIu64 "}\n", MIB,
				sz / MIB);
		if (sz % MIB)
			fprintf(f, "  - write: {file: setup, size: %" PRIu64 "}\n", sz % MIB);
		fputs("  - close: setup\n", f);
	}
	for (size_t i = 0; i < n; i++) {
		const char *tg;
		struct tr_buf q = { 0 };

		if (v[i]->type != 'l')
			continue;
		if (!(tg = link_target(c, v[i], buf, sizeof(buf))) || tr_quote(&q, tg, strlen(tg))) {
			tr_not_replayed(c, NULL, "setup symlink out of the dir");
			free(q.p);
			continue;
		}
		fprintf(f, "  - symlink: {target: %s, path: ", q.p);
		cpath(f, v[i]->rel);
		fputs("}\n", f);
		free(q.p);
	}
}

/* The input tree: the snapshot, or what the trace shows existed (c->inferred). */
static int tree(struct tr_ctx *c, const struct lg_tree_entry ***v, struct lg_tree_entry **own,
		size_t *n)
{
	size_t k = 0;

	*own = NULL;
	if (c->o->tree) {
		*n = c->o->ntree;
		if (!(*v = calloc(*n + 1, sizeof(**v))))
			return -1;
		for (size_t i = 0; i < *n; i++) {
			(*v)[i] = &c->o->tree[i];
			if (c->o->tree[i].type == 'd' && !tr_path(c, c->o->tree[i].rel))
				return -1;
			if (c->o->tree[i].type == 'd')
				tr_path(c, c->o->tree[i].rel)->dir = true;
		}
		return 0;
	}
	c->inferred = true;
	if (!(*own = calloc(c->paths.n + 1, sizeof(**own))) ||
	    !(*v = calloc(c->paths.n + 1, sizeof(**v))))
		return -1;
	for (size_t i = 0; i < c->paths.cap; i++) {
		struct tr_path *p = c->paths.e[i].key ? c->paths.e[i].val : NULL;

		if (!p || !p->existed || !p->rel[0])
			continue;
		(*own)[k] = (struct lg_tree_entry){ .rel = p->rel, .size = p->size,
			.type = p->dir ? 'd' : p->link && p->target ? 'l' : 'f', .target = p->target };
		(*v)[k] = &(*own)[k];
		k++;
	}
	*n = k;
	return 0;
}

static int deepest_first(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t dx = 0, dy = 0;

	for (const char *p = x; *p; p++)
		dx += *p == '/';
	for (const char *p = y; *p; p++)
		dy += *p == '/';
	return dx != dy ? (dx < dy) - (dx > dy) : strcmp(y, x);
}

/* deltree leaves directories: remove every one the run may have left, deepest first. */
static int cleanup(struct tr_ctx *c, FILE *f)
{
	const char **d = calloc(c->paths.n + 1, sizeof(*d));
	size_t n = 0;

	if (!d)
		return -1;
	for (size_t i = 0; i < c->paths.cap; i++) {
		struct tr_path *p = c->paths.e[i].key ? c->paths.e[i].val : NULL;

		if (p && p->dir && p->rel[0])
			d[n++] = p->rel;
	}
	qsort(d, n, sizeof(*d), deepest_first);
	fprintf(f, "cleanup:\n  - deltree: \"${client}\"\n");
	for (size_t i = 0; i < n; i++) {
		fputs("  - rmdir: {path: ", f);
		cpath(f, d[i]);
		fputs(", expect: any}\n", f);
	}
	fprintf(f, "  - rmdir: \"${client}\"\n");
	free(d);
	return 0;
}

static void stream_name(struct tr_ctx *c, FILE *f, long i)
{
	const struct tr_task *t = c->streams[i].t;

	if (t->reuse)
		fprintf(f, "%ld.%u ", t->tid, t->reuse);
	else
		fprintf(f, "%ld ", t->tid);
	for (const char *q = t->comm; *q; q++) {
		if (*q == '"' || *q == '\\')
			fprintf(f, "\\%c", *q);
		else if ((unsigned char)*q < 0x20)
			fprintf(f, "\\x%02x", (unsigned char)*q);
		else
			fputc(*q, f);
	}
}

/* A gap held as "\x03GAP:N\x04" at m (tr_step): GAP ns with N traced gaps in it. */
static uint64_t gap_at(const char *m, uint64_t *n)
{
	char *end;
	uint64_t gap = strtoull(m + 1, &end, 10);

	*n = strtoull(end + 1, NULL, 10);
	return gap;
}

/* The gap at m less the tracer's cost of its N gaps, which may come out below zero (the
 * cost is an average). */
static double excess(const struct tr_ctx *c, const char *m)
{
	uint64_t n, gap = gap_at(m, &n);

	/* in double: a hostile trace's times may be anywhere in 64 bits */
	return (double)gap - (double)n * (double)c->gap_ns;
}

/* The stream's think time in all, and the sum of its gaps' excesses above zero. The
 * tracer's cost is an average: taken off each gap alone and floored at zero, a stream
 * of back-to-back calls would keep all of the tracer's jitter above its mean as think
 * time (on a VM where a traced call costs 100 us, more than the program's own time).
 * So the total is the excesses' sum (zero or more), and each gap above zero gets its
 * share of it (think()). (Taking the gaps with calls left out in them as they are,
 * floored, was tried: it made git's and sqlite3's replays 2 to 4 times too slow.) */
static void think_budget(const struct tr_ctx *c, const struct tr_stream *s, double *scale)
{
	const char *p = s->steps.p, *e = p + s->steps.len;
	double total = 0, pos = 0;

	for (; p && (p = memchr(p, '\x03', (size_t)(e - p))); p++) {
		double v = excess(c, p);

		total += v;
		pos += v > 0 ? v : 0;
	}
	*scale = total > 0 && pos > 0 ? total / pos : 0;
	/* Nothing left above the tracer's cost (tar: 0.5 us of its own per call under 160 us
	 * of strace's): the trace cannot say where the program's time between calls goes.
	 * When untraced runs measured how much there is, each gap gets the same share
	 * (UNIFORM_THINK_NS per traced gap in it, scaled by the fit), rather than none. */
	if (*scale == 0 && c->o->untraced_runs)
		*scale = -1;
}

static void think(const struct tr_ctx *c, FILE *f, const char *m, double scale)
{
	double v = excess(c, m), t;
	uint64_t ns;

	if (scale < 0) { /* the even share: think_budget */
		(void)gap_at(m, &ns);
		v = (double)ns * UNIFORM_THINK_NS;
		scale = 1;
	}
	if (v <= 0 || scale <= 0)
		return;
	if (c->o->untraced_runs)
		scale *= c->o->think_scale;
	t = v * scale;
	ns = t < 0x1p63 ? (uint64_t)t : UINT64_C(1) << 63; /* a conversion past 2^64 is UB */
	if (!ns)
		return;
	if (ns % 1000)
		fprintf(f, "      - think: %" PRIu64 "ns\n", ns);
	else
		fprintf(f, "      - think: %" PRIu64 "us\n", ns / 1000);
}

/* The steps of a stream with its references to streams named and its think times. */
static void steps(struct tr_ctx *c, FILE *f, const struct tr_stream *s)
{
	const char *p = s->steps.p, *e = p + s->steps.len;
	double scale;

	think_budget(c, s, &scale);
	while (p && p < e) {
		const char *m = p;

		while (m < e && *m != '\x01' && *m != '\x03')
			m++;
		fwrite(p, 1, (size_t)(m - p), f);
		if (m == e)
			break;
		if (*m == '\x01')
			stream_name(c, f, strtol(m + 1, NULL, 10));
		else
			think(c, f, m, scale);
		p = memchr(m, *m == '\x01' ? '\x02' : '\x04', (size_t)(e - m)) + 1;
	}
}

int tr_write(struct tr_ctx *c, FILE *out)
{
	const struct lg_tree_entry **v = NULL;
	struct lg_tree_entry *own = NULL;
	char *setup = NULL, desc[2048];
	size_t n = 0, setup_len = 0;
	FILE *mem = NULL;
	int rc = -1;

	if (tree(c, &v, &own, &n) || !(mem = open_memstream(&setup, &setup_len)))
		goto out;
	setup_entries(c, mem, v, n);
	if (fclose(mem))
		goto out;
	fprintf(out, "name: ");
	{
		struct tr_buf q = { 0 };
		const char *name = c->o->name ? c->o->name : "recorded";

		if (tr_quote(&q, name, strlen(name)))
			goto out;
		fprintf(out, "%s\n", q.p);
		free(q.p);
	}
	if (c->o->command)
		snprintf(desc, sizeof(desc), "recorded from: %s (exit %d) in %s%s%s%s%s",
			 c->o->command, c->o->exit_status, c->dir, c->o->kernel ? " on " : "",
			 c->o->kernel ? c->o->kernel : "", c->o->date ? ", " : "",
			 c->o->date ? c->o->date : "");
	else
		snprintf(desc, sizeof(desc), "recorded from an strace trace in %s", c->dir);
	fprintf(out, "description: ");
	{
		struct tr_buf q = { 0 };

		if (tr_quote(&q, desc, strlen(desc)))
			goto out;
		fprintf(out, "%s\n", q.p);
		free(q.p);
	}
	recorded(c, out);
	fwrite(setup, 1, setup_len, out);
	fprintf(out, "streams:%s\n", c->nstreams ? "" : " []");
	for (size_t i = 0; i < c->nstreams; i++) {
		fprintf(out, "  - name: \"");
		stream_name(c, out, (long)i);
		fprintf(out, "\"\n    steps:\n");
		steps(c, out, &c->streams[i]);
	}
	rc = cleanup(c, out);
out:
	free(setup);
	free(v);
	free(own);
	return rc;
}
