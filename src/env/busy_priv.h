/* The tracker of busy.c, shared with its live sampler (busy_live.c). */
#ifndef LOADGEN_BUSY_PRIV_H
#define LOADGEN_BUSY_PRIV_H

#include "loadgen/env/busy.h"

struct pids_info;

/* What a process did so far (the counters of one sample). */
struct busy_counts {
	uint64_t tics, read_bytes, write_bytes, rchar, wchar;
};

/* A process seen in the last sample. */
struct busy_entry {
	int pid;                  /* its pid */
	int ppid;                 /* its parent's, at its latest sample */
	bool fresh;               /* new in the sample being merged (only during a feed) */
	uint64_t start_tick;      /* its start: with pid, who it is */
	char name[LG_BUSY_COMM];  /* its group's name (the latest seen: exec renames) */
	bool kernel;              /* a kernel thread */
	bool io_ok;               /* its io counters could be read (the latest sample) */
	struct busy_counts base;  /* where its phase began: 0 when it started in it */
	struct busy_counts last;  /* at its latest sample */
	struct busy_counts kids;  /* I/O counters of its children gone while it was there,
				     as last seen: its own counters include them (no tics) */
	char kid[LG_BUSY_COMM];   /* the group name of the last of them, or "" */
	bool kid_kernel;          /* that child was a kernel thread */
};

struct lg_busy {
	int self;                      /* our pid: it and its descendants are left out */
	long hz;                       /* clock ticks per second */
	uint64_t start_tick;           /* the phase's start, ticks since boot */
	bool begun, stopped;           /* lg_busy_begin / lg_busy_stop were called */
	bool siblings;                 /* also leave out our siblings of our name (the other
					  ranks on this host) and their descendants */
	struct busy_entry *e;          /* the processes of the last sample, by (pid,
					  start) (owned) */
	size_t n;                      /* entries in e */
	struct lg_busy_group *g;       /* the processes gone or stopped, by group (owned) */
	size_t ng, gcap;               /* groups in g, room */
	size_t samples;                /* samples fed */
	uint64_t t_first, t_last;      /* CLOCK_MONOTONIC of the first and last sample */
	char note[200];                /* the first problem met, or "" */
	/* live sampler (busy_live.c) */
	struct pids_info *info;        /* libproc2's reader, or NULL */
	bool live_failed;              /* it could not be made: no more tries */
	struct lg_busy_proc *buf;      /* one sample's processes (owned) */
	size_t bufcap;                 /* room in buf */
	uint64_t cost_ns;              /* CPU time of the live samples */
	size_t live_samples;           /* live samples taken (for the mean cost) */
	size_t skipped;                /* samples skipped to keep the cost down */
};

#endif
