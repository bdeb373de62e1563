/* Who else was busy: the other processes of the host that used CPU or moved bytes during
 * the measured phase (a backup job, a compile, a dd loop beside the run).
 *
 * The system monitor takes a sample of every process at the start of the measured phase,
 * at each timeline interval and at its end. Two halves, like sysmon: the bookkeeping
 * (busy.c) is pure, fed with samples of struct lg_busy_proc, so tests feed synthetic
 * ones; the live sampler (busy_live.c) reads /proc/PID/stat and io through libproc2's
 * pids API and feeds them; busy_text.c words them.
 *
 * A process is known by (pid, start time), so a reused pid is a new process. One seen at
 * an earlier sample counts what it did since its first sample; one first seen later
 * counts everything when it started during the phase (its start time is not before the
 * phase's), else only from its first sample on. What a process did after its last sample
 * is not in its own counters: a process born and dead between two samples is never
 * seen. But the kernel adds a reaped child's I/O to its parent's: that part comes back
 * through a parent seen reaping children of that name (busy.c); the CPU time of the
 * unseen ones is lost.
 *
 * Left out: this process and its descendants (the clients of --processes, ab's children),
 * found through the parent pids of each sample; in a run of several ranks, also the
 * other ranks on this host (our name, our parent) and theirs. Kernel threads are kept,
 * named up to the first '/' (kworker/u4:2-flush-253:0 is kworker), since kswapd or the
 * flusher threads working hard is news too. Processes are grouped by command name. */
#ifndef LOADGEN_BUSY_H
#define LOADGEN_BUSY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define LG_BUSY_COMM 64  /* longest command name kept (kernel threads' are long) */
#define LG_BUSY_TOP 5    /* groups listed by CPU and by I/O */
#define LG_BUSY_PIDS 4   /* pids listed per group */

/* One process as a sample sees it. */
struct lg_busy_proc {
	int pid;                  /* its pid (the thread group's) */
	int ppid;                 /* its parent's pid */
	uint64_t start_tick;      /* when it started: clock ticks since boot (stat field 22) */
	char comm[LG_BUSY_COMM];  /* its command name (stat field 2) */
	bool kernel;              /* a kernel thread (PF_KTHREAD) */
	bool io_ok;               /* its /proc/PID/io could be read (else the four are 0) */
	uint64_t tics;            /* utime + stime, clock ticks, all its threads */
	uint64_t read_bytes;      /* bytes it made the storage layer read */
	uint64_t write_bytes;     /* bytes it dirtied for writing to storage */
	uint64_t rchar, wchar;    /* bytes through read/write calls of any kind (tmpfs,
				     pipes, sockets, the page cache) */
};

/* Every process of a group (one command name), added up over the phase. */
struct lg_busy_group {
	char comm[LG_BUSY_COMM];  /* the command name (kernel: up to the first '/') */
	bool kernel;              /* kernel threads */
	unsigned processes;       /* processes that did something in the phase */
	unsigned io_unreadable;   /* of those, how many had an unreadable /proc/PID/io */
	int pids[LG_BUSY_PIDS];   /* the first pids met (processes of them) */
	uint64_t tics;            /* CPU ticks in the phase */
	uint64_t read_bytes, write_bytes, rchar, wchar; /* bytes in the phase */
	uint64_t via_parent;      /* of read and write bytes, those found in the counters
				     of a parent seen reaping processes of this name (their
				     tails, and those born and gone between two samples) */
};

struct lg_busy;

/* A tracker leaving out process self and its descendants; hz is the clock tick rate of
 * tics and start_tick (sysconf(_SC_CLK_TCK)). 0 or -ENOMEM. */
int lg_busy_create(int self, long hz, struct lg_busy **out);
void lg_busy_destroy(struct lg_busy *b);
/* Also leave out the processes of our name and parent (the other ranks of an MPI job on
 * this host, children of the launcher's daemon) and their descendants. */
void lg_busy_exclude_siblings(struct lg_busy *b);
/* The measured phase begins at start_tick (clock ticks since boot, CLOCK_BOOTTIME). */
void lg_busy_begin(struct lg_busy *b, uint64_t start_tick);
/* One sample of every process (procs[0..n), reordered in place), taken at t_ns. 0 or
 * -ENOMEM (the sample then counts for nothing). */
int lg_busy_feed(struct lg_busy *b, struct lg_busy_proc *procs, size_t n, uint64_t t_ns);
/* The phase is over: the processes still there are added up; later samples are not
 * taken. */
void lg_busy_stop(struct lg_busy *b);
/* The groups that did something, by CPU ticks (by_cpu) or by I/O (storage bytes, then
 * rchar + wchar: by_io), largest first, at most max into out. How many. After stop. */
size_t lg_busy_top(const struct lg_busy *b, bool by_io, struct lg_busy_group *out, size_t max);
/* The "busy" object of a run (docs/results.md), or NULL on -ENOMEM. After stop. */
json_t *lg_busy_json(const struct lg_busy *b);
/* How many samples were fed. */
size_t lg_busy_samples(const struct lg_busy *b);
/* A note for the result (the sampler could not read /proc: "..."), kept once. */
void lg_busy_note(struct lg_busy *b, const char *note);

/* --- The live sampler (busy_live.c) --- */

/* Take a sample of the running system (first call: the phase begins now). Unless always,
 * the sample is skipped while the samples so far took more than 2% of one CPU over the
 * phase so far (a host of 10000 processes: ~190 ms a sample), and counted as skipped.
 * Errors leave a note in the result, never fail the run. */
void lg_busy_sample(struct lg_busy *b, bool always);
/* The CPU time the live samples took so far (this thread's), ns. */
uint64_t lg_busy_cost_ns(const struct lg_busy *b);
/* Free the live sampler's reader (also done by lg_busy_destroy). */
void lg_busy_live_close(struct lg_busy *b);

/* --- Text --- */

#define LG_BUSY_JSON_HZ 1000 /* ticks per second of groups read back from JSON */

/* The bytes that rank g by I/O: storage bytes, or rchar + wchar when it did none. */
double lg_busy_io_amount(const struct lg_busy_group *g);
/* Whether g's I/O is worth naming over a phase of secs (0: unknown): its amount at least
 * 16 MB and 1 MB/s. */
bool lg_busy_io_notable(const struct lg_busy_group *g, double secs);
/* Whether g's CPU time is: at least 0.5 CPU-s and 5% of one CPU. */
bool lg_busy_cpu_notable(const struct lg_busy_group *g, long hz, double secs);
/* Either. */
bool lg_busy_notable(const struct lg_busy_group *g, long hz, double secs);
/* "dd (9 processes) wrote 2.7 GB" into buf: what g did, as far as it is notable over
 * secs (everything when nothing is); with_pid: "(9 processes, first pid 4121)". */
void lg_busy_describe(const struct lg_busy_group *g, long hz, double secs, bool with_pid,
		      char *buf, size_t len);
/* The group of a by_cpu or by_io entry of a run's "busy" object. false when it is not
 * one. */
bool lg_busy_group_from_json(const json_t *o, long hz, struct lg_busy_group *g);
/* What the notable groups of a run's "busy" object did, into buf: "dd (9 processes)
 * wrote 2.7 GB; cc1 (pid 43) used 34 CPU-s" (at most 3, I/O first), "" when none was
 * notable. How many were named. (The history's "busy" of a result, the report's line.) */
size_t lg_busy_summary(const json_t *busy, char *buf, size_t len);
/* One line of the text report from a run's "busy" object: "  Busy beside the run: " and
 * lg_busy_summary's text (and a word when other users' I/O was unreadable); nothing
 * when no group was notable. */
void lg_busy_print(FILE *out, const json_t *busy);

#endif
