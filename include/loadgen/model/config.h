/* Run configuration: what the command line asked for. */
#ifndef LOADGEN_CONFIG_H
#define LOADGEN_CONFIG_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "loadgen/model/sweep.h"
#include "loadgen/model/workload.h"

struct lg_coord;

/* Defaults, documented in docs/running.md (Usage) and --help. */
#define LG_DEFAULT_TIME_S 10.0
#define LG_DEFAULT_WARMUP_S 2.0
#define LG_DEFAULT_SEED 1
#define LG_DEFAULT_INTERVAL_S 1.0
#define LG_DEFAULT_STALL_S 1.0

/* --resolve: how the dbench ops resolve names (ops_dbench.c). */
enum lg_resolve_mode {
	LG_RESOLVE_DBENCH, /* as dbench 4.0: stat, on failure a case-insensitive directory
			      search; Find also resolves its literal wildcard pattern */
	LG_RESOLVE_SAMBA,  /* the same, but Find lists without resolving its pattern */
	LG_RESOLVE_STAT    /* only the stat (dbench's --no-resolve) */
};

/* The --resolve word of each mode, for the option and the result's config. */
static const char *const lg_resolve_names[] = {
	[LG_RESOLVE_DBENCH] = "dbench", [LG_RESOLVE_SAMBA] = "samba",
	[LG_RESOLVE_STAT] = "stat",
};

/* Prints one progress line (report.c's lg_report_progress, which main.c hands over):
 * the engine sits below the output layer and reaches it only through this pointer. */
typedef void lg_progress_fn(FILE *out, unsigned clients, uint64_t ops, double mbps,
			    const char *phase, double secs, int decimals, double max_latency_ms);

/* One run's settings. Strings are borrowed from argv unless said otherwise. */
struct lg_config {
	unsigned clients;      /* concurrent clients (of the run being made, in a sweep) */
	unsigned sweep[LG_SWEEP_MAX]; /* every client count to run, in order */
	size_t nsweep;         /* entries in sweep, >= 1 */
	const char *mode;      /* "threads" or "processes" */
	const char *loadfile;  /* workload path, NULL for the built-in one */
	const char *directory; /* where the run directory is created */
	double time_s;         /* measured seconds (ignored with run_once) */
	double warmup_s;       /* warm-up seconds before measuring */
	bool run_once;         /* each client runs the run phase once */
	const char *replay_timing; /* --replay-timing as given (afap, original, scale=X), or
				      NULL */
	bool streams;          /* the workload is a recorded program's streams (set when
				  it is loaded) */
	double think_scale;    /* a recorded program's think times are waited for this
				  many times over (original: 1); 0: not at all (afap) */
	uint64_t seed;         /* base seed of the per-client RNGs */
	const char *json_path; /* --json destination, or NULL */
	const char *html_path; /* --html destination (a report page), or NULL */
	bool keep;             /* leave the run directory in place */
	unsigned per_client;   /* --per-client: enum lg_per_client (counters.h) */
	bool quiet;            /* no progress lines */
	lg_progress_fn *progress; /* prints a progress line; NULL: none */
	bool abort_on_error;   /* stop at the first unexpected result */
	bool processes;        /* one forked process per client instead of a thread */
	bool sync_open;        /* -s: O_SYNC on every open */
	bool sync_dirs;        /* -S: fsync the parent directory after namespace changes */
	bool fsync_writes;     /* -F: fsync after every write */
	bool direct;           /* --direct: O_DIRECT on every open */
	double rate_mbps;      /* -R: per-client limit in MB/s (10^6 bytes), 0 = none */
	double rate_ops;       /* --rate-ops: per-client limit in ops/s, 0 = none */
	bool end_sync;         /* --end-sync: a final syncfs is part of the measured time */
	bool drop_caches;      /* --drop-caches: drop the page cache before measuring */
	bool no_space_check;   /* --no-space-check: run even when the files cannot fit */
	bool verify;           /* --verify: self-describing blocks, checked on every read */
	unsigned repeat;       /* --repeat: measured runs per client count (>= 1; the most
				  with auto) */
	struct lg_repeat repeat_rule; /* --repeat as given: K, or auto with its limits */
	int resolve;           /* --resolve: enum lg_resolve_mode */
	double interval_s;     /* --interval: timeline and progress interval */
	double stall_threshold_s; /* --stall-threshold: ops this slow are stalls */
	struct lg_param *params; /* -p overrides (strings borrowed) */
	size_t nparams;
	int argc;              /* the command line, for the result */
	char **argv;
	struct json_t *env;    /* environment recorded at the start (borrowed), or NULL */
	bool monitor;          /* --monitor on: system counters and kernel messages (default) */
	const char *log_path;  /* --log destination, or NULL */
	struct lg_runlog *runlog; /* the open --log (owned by main), or NULL */
	bool mpi;              /* --mpi: coordinate ranks even without a launcher's variables */
	struct lg_coord *coord; /* the ranks of a run on several hosts (borrowed), or NULL:
				   one host (lg_coord_of gives lg_coord_single()) */
};

#endif
