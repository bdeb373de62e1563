/* Run configuration: what the command line asked for. */
#ifndef LOADGEN_CONFIG_H
#define LOADGEN_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "loadgen/workload.h"

struct lg_coord;

/* Defaults, documented in README.md and --help. */
#define LG_DEFAULT_TIME_S 10.0
#define LG_DEFAULT_WARMUP_S 2.0
#define LG_DEFAULT_SEED 1
#define LG_DEFAULT_INTERVAL_S 1.0
#define LG_DEFAULT_STALL_S 1.0

/* One run's settings. Strings are borrowed from argv unless said otherwise. */
struct lg_config {
	unsigned clients;      /* concurrent clients */
	const char *mode;      /* "threads" or "processes" */
	const char *loadfile;  /* workload path, NULL for the built-in one */
	const char *directory; /* where the run directory is created */
	double time_s;         /* measured seconds (ignored with run_once) */
	double warmup_s;       /* warm-up seconds before measuring */
	bool run_once;         /* each client runs the run phase once */
	uint64_t seed;         /* base seed of the per-client RNGs */
	const char *json_path; /* --json destination, or NULL */
	bool keep;             /* leave the run directory in place */
	bool quiet;            /* no progress lines */
	bool abort_on_error;   /* stop at the first unexpected result */
	bool processes;        /* one forked process per client instead of a thread */
	bool sync_open;        /* -s: O_SYNC on every open */
	bool sync_dirs;        /* -S: fsync the parent directory after namespace changes */
	bool fsync_writes;     /* -F: fsync after every write */
	bool direct;           /* --direct: O_DIRECT on every open */
	double rate_mbps;      /* -R: per-client limit in MB/s (10^6 bytes), 0 = none */
	bool end_sync;         /* --end-sync: a final syncfs is part of the measured time */
	bool drop_caches;      /* --drop-caches: drop the page cache before measuring */
	bool verify;           /* --verify: self-describing blocks, checked on every read */
	unsigned repeat;       /* --repeat: measured runs in this invocation (>= 1) */
	double interval_s;     /* --interval: timeline and progress interval */
	double stall_threshold_s; /* --stall-threshold: ops this slow are stalls */
	struct lg_param *params; /* -p overrides (strings borrowed) */
	size_t nparams;
	int argc;              /* the command line, for the result */
	char **argv;
	struct json_t *env;    /* environment recorded at the start (borrowed), or NULL */
	bool mpi;              /* --mpi: coordinate ranks even without a launcher's variables */
	struct lg_coord *coord; /* the ranks of a run on several hosts (borrowed), or NULL:
				   one host */
};

#endif
