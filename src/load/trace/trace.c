/* lg_trace_convert: read an strace trace line by line, join the halves of interrupted
 * calls per thread, check that the trace has the columns the conversion needs (PID from
 * -f, seconds from -ttt, durations from -T, decoded fds from -y), and hand each call to
 * the call table (trace_paths.c); then write the document (trace_out.c).
 *
 * A line is "PID SECONDS.USEC call(args) = RET <DURATION>", or "PID SECONDS.USEC
 * call(args <unfinished ...>" and later "PID SECONDS.USEC <... call resumed>rest", or
 * "+++ exited with N +++", "+++ killed by SIG +++", "--- SIGNAL {...} ---", and a
 * call strace stopped tracing in (strace -p ended): "... <detached ...>". */
#include "loadgen/load/trace.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/errf.h"
#include "trace_priv.h"

#define UNFINISHED " <unfinished ...>"
#define DETACHED " <detached ...>"

struct src {
	const char *name;       /* file name for messages */
	unsigned long line;     /* current line, 1-based */
	char *err;              /* message buffer */
	size_t errlen;
};

static int foreign(struct src *f, size_t col, const char *why)
{
	return lg_errf(f->err, f->errlen, -EINVAL, "%s:%lu:%zu: not an strace -f -ttt -T -y trace: %s",
		       f->name, f->line, col + 1, why);
}

/* The PID and time columns; *rest: the call. 0 or -EINVAL (message in f). */
static int columns(struct src *f, const char *s, long *tid, uint64_t *ns, const char **rest)
{
	const char *p = s;
	char *end;
	uint64_t frac = 0, scale = 1000000000;

	if (!strncmp(p, "[pid ", 5))
		return foreign(f, 0, "'[pid N]' prefixes, as strace writes to a terminal: take the "
			       "trace with -o FILE");
	if (!isdigit((unsigned char)*p) || (*tid = strtol(p, &end, 10), *end != ' '))
		return foreign(f, 0, isdigit((unsigned char)*p) || strchr(s, '(')
			? "no PID column at the start of the line (strace -f -o FILE)"
			: "expected 'PID SECONDS.USEC call(...) = RESULT <DURATION>'");
	for (p = end; *p == ' '; p++)
		;
	if (!isdigit((unsigned char)*p))
		return foreign(f, (size_t)(p - s), "no timestamp after the PID (strace -ttt)");
	*ns = strtoull(p, &end, 10) * 1000000000ull;
	if (*end == ':')
		return foreign(f, (size_t)(p - s),
			       "a time of day, not seconds since the epoch (strace -ttt, not -t/-tt)");
	if (*end != '.')
		return foreign(f, (size_t)(p - s), "no timestamp after the PID (strace -ttt)");
	for (p = end + 1; isdigit((unsigned char)*p); p++)
		if (scale > 1)
			frac += (uint64_t)(*p - '0') * (scale /= 10);
	*ns += frac;
	if (*ns < 100000000ull * 1000000000ull)
		return foreign(f, (size_t)(p - s), "relative timestamps (strace -r), not seconds "
			       "since the epoch (strace -ttt)");
	if (*p != ' ')
		return foreign(f, (size_t)(p - s), "expected a space after the timestamp");
	*rest = p + 1;
	return 0;
}

/* -y: the fds strace printed must carry their paths. */
static int check_decoded(struct src *f, const struct tr_call *k, const char *s, size_t col)
{
	for (int i = 0; i < k->na; i++)
		if (k->a[i].n >= 8 && !strncmp(k->a[i].s, "AT_FDCWD", 8) && !k->a[i].dec)
			return foreign(f, col + (size_t)(k->a[i].s - s),
				       "fds are not decoded into paths (strace -y)");
	if ((!strcmp(k->name, "openat") || !strcmp(k->name, "open")) && k->has_ret &&
	    k->ret >= 0 && !k->retdec)
		return foreign(f, col, "fds are not decoded into paths (strace -y)");
	return 0;
}

static bool is_clone(const char *s)
{
	return !strncmp(s, "clone(", 6) || !strncmp(s, "clone3(", 7) || !strncmp(s, "fork(", 5) ||
	       !strncmp(s, "vfork(", 6);
}

/* A left-out call's time is taken off the think time in trace_out.c (a wait for
 * another process, the loader's work), and a wait4 or waitid that reaped a child orders
 * the thread's next call after the child's last. */
static void waited(struct tr_ctx *c, struct tr_task *t, const struct tr_call *k)
{
	bool reaped_stream = false;

	if ((!strcmp(k->name, "wait4") || !strcmp(k->name, "waitid")) && k->has_ret && k->ret > 0) {
		long pid = (long)k->ret;
		void **at = tr_map_at(&c->tasks, &pid, sizeof(pid), false, NULL);
		const struct tr_task *child = at ? *at : NULL;

		if (child && child->stream >= 0 && c->streams[child->stream].ncalls) {
			t->reaped_stream = child->stream;
			t->reaped_k = c->streams[child->stream].ncalls;
			reaped_stream = true;
		}
		/* fitted think times (record --timing-runs): a wait for a child that is no
		 * stream (a sleep, a compiler driver) is where the program's time went, and
		 * stays in the gap, to be scaled with the rest */
		if (!reaped_stream && c->o->untraced_runs)
			return;
	}
	t->skipped_ns += k->dur_ns;
}

/* One complete call text s (from column col of the line) of t at t_ns. */
static int call(struct tr_ctx *c, struct src *f, struct tr_task *t, const char *s, size_t col,
		uint64_t t_ns)
{
	struct tr_call k;
	const char *why;
	size_t at;
	uint64_t kept = c->sum->calls_kept;
	int rc = tr_parse_call(s, &k, &at, &why);

	if (rc)
		return foreign(f, col + at, why);
	if ((rc = check_decoded(f, &k, s, col)))
		return rc;
	k.tid = t->tid;
	k.t_ns = t_ns;
	if (!strncmp(k.errname, "ERESTART", 8)) /* interrupted: the restarted call follows */
		return 0;
	if (tr_call(c, t, &k))
		return -ENOMEM;
	if (c->sum->calls_kept == kept) {
		t->skipped++;
		waited(c, t, &k); /* t->skipped_ns += its time, but for some waits */
	}
	return 0;
}

/* The start time of a pending half, stored before its text as "<ns> ". */
static int resumed(struct tr_ctx *c, struct src *f, struct tr_task *t, const char *rest,
		   size_t col)
{
	const char *gt = strchr(rest, '>');
	struct tr_buf b = { 0 };
	char *text;
	uint64_t t0;
	int rc;

	if (!gt)
		return foreign(f, col, "'<... call resumed>' without its '>'");
	if (!t->pending) /* the trace began inside this call (strace -p): nothing to join */
		return 0;
	t0 = strtoull(t->pending, &text, 10);
	if (strstr(gt, UNFINISHED)) { /* killed inside the call */
		free(t->pending);
		t->pending = NULL;
		return 0;
	}
	if (tr_put(&b, text + 1, strlen(text + 1)) || tr_puts(&b, gt + 1)) {
		free(b.p);
		return -ENOMEM;
	}
	free(t->pending);
	t->pending = NULL;
	rc = call(c, f, t, b.p, col, t0);
	free(b.p);
	return rc;
}

static int line(struct tr_ctx *c, struct src *f, char *s)
{
	size_t len = strlen(s), ul = strlen(UNFINISHED), dl = strlen(DETACHED);
	const char *rest = s;
	struct tr_task *t;
	uint64_t ns = 0;
	long tid = 0;
	int rc;

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		s[--len] = '\0';
	if (!len)
		return 0;
	if ((rc = columns(f, s, &tid, &ns, &rest)))
		return rc;
	if (!c->t0)
		c->t0 = ns;
	if (!(t = tr_task(c, tid)))
		return -ENOMEM;
	if (!strncmp(rest, "+++ ", 4)) {
		free(t->pending);
		t->pending = NULL;
		tr_tail(c, t, ns);
		tr_task_exit(c, t);
		return 0;
	}
	if (!strncmp(rest, "--- ", 4))
		return 0;
	if (len > dl && !strcmp(s + len - dl, DETACHED)) { /* strace -p let go of it inside a
							       * call: no result to replay */
		free(t->pending);
		t->pending = NULL;
		t->skipped++;
		return 0;
	}
	if (!strncmp(rest, "<... ", 5))
		return resumed(c, f, t, rest, (size_t)(rest - s));
	if (len > ul && !strcmp(s + len - ul, UNFINISHED)) {
		struct tr_buf b = { 0 };

		s[len - ul] = '\0';
		if (is_clone(rest)) {
			t->cloning = true;
			t->clone_files = strstr(rest, "CLONE_FILES") != NULL;
			t->clone_fs = strstr(rest, "CLONE_FS") != NULL;
			c->cloner = t;
		}
		if (tr_printf(&b, "%llu %s", (unsigned long long)ns, rest))
			return -ENOMEM;
		free(t->pending);
		t->pending = b.p;
		return 0;
	}
	return call(c, f, t, rest, (size_t)(rest - s), ns);
}

static void ctx_free(struct tr_ctx *c)
{
	for (size_t i = 0; i < c->tasks.cap; i++) {
		struct tr_task *t = c->tasks.e[i].key ? c->tasks.e[i].val : NULL;

		while (t) {
			struct tr_task *older = t->older;

			tr_task_exit(c, t);
			free(t->pending);
			free(t);
			t = older;
		}
	}
	for (size_t i = 0; i < c->paths.cap; i++) {
		struct tr_path *p = c->paths.e[i].key ? c->paths.e[i].val : NULL;

		if (p) {
			free(p->rel);
			free(p->target);
			free(p);
		}
	}
	for (size_t i = 0; i < c->names.cap; i++)
		if (c->names.e[i].key)
			free(c->names.e[i].val);
	while (c->slots) {
		struct tr_slot *s = c->slots;

		c->slots = s->next;
		free(s);
	}
	for (size_t i = 0; i < c->nstreams; i++) {
		free(c->streams[i].steps.p);
		tr_map_free(&c->streams[i].waited);
	}
	free(c->streams);
	free(c->args.p);
	tr_map_free(&c->tasks);
	tr_map_free(&c->paths);
	tr_map_free(&c->outside);
	tr_map_free(&c->names);
	tr_map_free(&c->specs);
}

/* The end of the trace: a thread still inside a call means it was cut short. */
static int ends(struct tr_ctx *c, struct src *f, bool any)
{
	if (!any)
		return lg_errf(f->err, f->errlen, -EINVAL, "%s:1:1: not an strace -f -ttt -T -y trace: "
			       "the file is empty", f->name);
	for (size_t i = 0; i < c->tasks.cap; i++) {
		struct tr_task *t = c->tasks.e[i].key ? c->tasks.e[i].val : NULL;

		if (t && t->pending && !t->dead)
			return lg_errf(f->err, f->errlen, -EINVAL, "%s:%lu:1: the trace ends inside "
				       "a call of %ld (%s): a truncated trace?", f->name, f->line,
				       t->tid, strchr(t->pending, ' ') + 1);
	}
	return 0;
}

int lg_trace_convert(FILE *in, const char *in_name, const struct lg_trace_opts *o, FILE *out,
		     struct lg_trace_summary *sum, char *err, size_t errlen)
{
	struct tr_ctx *c = calloc(1, sizeof(*c));
	struct src f = { .name = in_name, .err = err, .errlen = errlen };
	char *buf = NULL, *dir = NULL;
	size_t cap = 0;
	bool any = false;
	int rc = 0;

	memset(sum, 0, sizeof(*sum));
	if (!c || !(dir = strdup(o->dir && o->dir[0] ? o->dir : "/")) || tr_specs(c)) {
		rc = -ENOMEM;
		goto out;
	}
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	c->o = o;
	c->sum = sum;
	c->dir = dir;
	c->dirlen = strcmp(dir, "/") ? strlen(dir) : 0;
	while (!rc && getline(&buf, &cap, in) > 0) {
		f.line++;
		any = true;
		rc = line(c, &f, buf);
		if (!rc && c->nomem)
			rc = -ENOMEM;
	}
	if (!rc)
		rc = ends(c, &f, any);
	if (!rc && !c->nstreams) { /* no workload: nothing would be measured */
		snprintf(err, errlen, "%s: the program made no call on %s that loadgen replays "
			 "(%" PRIu64 " calls left out elsewhere): nothing to record; is %s the "
			 "directory it works in?", in_name, dir, sum->calls_left_out, dir);
		rc = -EINVAL;
	}
	if (!rc && tr_write(c, out))
		rc = -ENOMEM;
	if (rc == -ENOMEM)
		lg_errf(err, errlen, rc, "%s: out of memory", in_name);
out:
	if (c)
		ctx_free(c);
	free(c);
	free(dir);
	free(buf);
	return rc;
}

int lg_trace_sniff(const char *text, size_t len)
{
	const char *p = text, *e = text + len;

	while (p < e && isspace((unsigned char)*p))
		p++;
	if (p < e && isdigit((unsigned char)*p)) { /* PID, or a time */
		while (p < e && (isdigit((unsigned char)*p) || *p == '.' || *p == ':' || *p == ' '))
			p++;
	}
	if (p + 4 < e && (!strncmp(p, "+++ ", 4) || !strncmp(p, "--- ", 4) || !strncmp(p, "<... ", 5)))
		return 1;
	if (p == e || !(islower((unsigned char)*p) || *p == '_'))
		return 0;
	while (p < e && (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
		p++;
	if (p == e || *p != '(')
		return 0;
	for (; p < e && *p != '\n'; p++)
		if (*p == '=' && p[-1] == ' ' && p + 1 < e && p[1] == ' ')
			return 1;
	return 0;
}
