/* Who else was busy: the live sampler, every process of the host through libproc2's pids
 * API (the reader behind ps(1) and top(1)): /proc/PID/stat for the name, parent, start,
 * flags and CPU ticks, /proc/PID/io for the bytes.
 *
 * /proc/PID/io of another user's process can be read only with the right to trace it
 * (root, or the same user): libproc2 then gives zeros, not an error, so a process whose
 * owner is not ours is marked io_ok false (when we are not root) and the result says
 * "io_readable": "partial" or "none" rather than showing its zeros as idle.
 *
 * Cost: one sample reads two small files per process (stat and io; the owner comes from
 * the directory's stat(2)): 305 processes took 5.7 ms of one CPU per sample (2 vCPU VM,
 * about 19 µs a process), 0.6% of a CPU at the default 1 s interval; each result keeps
 * its own figure as cpu_ms_per_sample. On the master thread, never on a client's path. */
#include "loadgen/env/busy.h"
#include "busy_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/pids.h>

#define PF_KTHREAD 0x00200000 /* a kernel thread (include/linux/sched.h) */
#define COST_SHARE 0.02       /* of one CPU over the phase, at most, but for the first
				 and last sample */

static enum pids_item items[] = {
	PIDS_ID_PID, PIDS_ID_PPID, PIDS_TICS_BEGAN, PIDS_CMD, PIDS_FLAGS, PIDS_ID_EUID,
	PIDS_TICS_ALL, PIDS_IO_READ_BYTES, PIDS_IO_WRITE_BYTES, PIDS_IO_READ_CHARS,
	PIDS_IO_WRITE_CHARS,
};
/* The value of item i (its libproc2 type t) in stack s. */
#define VAL(s, i, t) PIDS_VAL(i, t, s, NULL)

enum { I_PID, I_PPID, I_BEGAN, I_CMD, I_FLAGS, I_EUID, I_TICS, I_RB, I_WB, I_RC, I_WC, NITEMS };

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void lg_busy_live_close(struct lg_busy *b)
{
	if (b && b->info)
		procps_pids_unref(&b->info);
	if (b)
		b->info = NULL;
}

uint64_t lg_busy_cost_ns(const struct lg_busy *b)
{
	return b ? b->cost_ns : 0;
}

/* Room for n processes in b->buf. 0 or -ENOMEM. */
static int room(struct lg_busy *b, size_t n)
{
	struct lg_busy_proc *p;

	if (n <= b->bufcap)
		return 0;
	p = realloc(b->buf, n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	b->buf = p;
	b->bufcap = n;
	return 0;
}

/* One process of the reaped stack s. */
static void proc_of(struct pids_stack *s, unsigned me, struct lg_busy_proc *p)
{
	const char *cmd = VAL(s, I_CMD, str);

	memset(p, 0, sizeof(*p));
	p->pid = VAL(s, I_PID, s_int);
	p->ppid = VAL(s, I_PPID, s_int);
	p->start_tick = VAL(s, I_BEGAN, ull_int);
	snprintf(p->comm, sizeof(p->comm), "%s", cmd ? cmd : "?");
	p->kernel = (VAL(s, I_FLAGS, ul_int) & PF_KTHREAD) != 0;
	p->io_ok = me == 0 || VAL(s, I_EUID, u_int) == me;
	p->tics = VAL(s, I_TICS, ull_int);
	p->read_bytes = VAL(s, I_RB, ul_int);
	p->write_bytes = VAL(s, I_WB, ul_int);
	p->rchar = VAL(s, I_RC, ul_int);
	p->wchar = VAL(s, I_WC, ul_int);
}

void lg_busy_sample(struct lg_busy *b, bool always)
{
	uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), t = clock_ns(CLOCK_MONOTONIC);
	unsigned me = (unsigned)geteuid();
	struct pids_fetch *f;
	size_t n = 0;

	if (!b || b->stopped || b->live_failed)
		return;
	if (!always && b->samples && (double)b->cost_ns > COST_SHARE * (double)(t - b->t_first)) {
		b->skipped++; /* what the next sample sees covers this interval too */
		return;
	}
	if (!b->info && procps_pids_new(&b->info, items, NITEMS) < 0) {
		b->info = NULL;
		b->live_failed = true;
		lg_busy_note(b, "libproc2 could not read the processes: nothing sampled");
		return;
	}
	if (!b->begun) /* /proc's start times count from boot, suspend included */
		lg_busy_begin(b, clock_ns(CLOCK_BOOTTIME) / (1000000000u / (uint64_t)b->hz));
	f = procps_pids_reap(b->info, PIDS_FETCH_TASKS_ONLY);
	if (!f) {
		lg_busy_note(b, "a sample of the processes failed: the figures may miss some");
		goto out;
	}
	if (room(b, (size_t)f->counts->total)) {
		lg_busy_note(b, "out of memory for a sample of the processes");
		goto out;
	}
	for (int i = 0; i < f->counts->total; i++)
		proc_of(f->stacks[i], me, &b->buf[n++]);
	if (lg_busy_feed(b, b->buf, n, t))
		lg_busy_note(b, "out of memory for a sample of the processes");
out:
	b->cost_ns += clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	b->live_samples++;
}
