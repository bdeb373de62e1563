/* One entry of a run's timeline: what the clients did in one interval of the measured
 * phase. Filled by the engine from the counters, kept in the run, shown by the monitor. */
#ifndef LOADGEN_INTERVAL_H
#define LOADGEN_INTERVAL_H

#include <stdint.h>

/* One timeline interval of the measured phase. */
struct lg_interval {
	double t_s;              /* end of the interval, seconds since the measured phase began */
	uint64_t ops;            /* ops completed in the interval */
	uint64_t bytes;          /* bytes read + written in the interval */
	uint64_t bytes_read;     /* bytes read in the interval */
	uint64_t bytes_written;  /* bytes written in the interval */
	double len_s;            /* length of the interval (the last one may be shorter) */
	double mbps;             /* bytes / interval length / 1e6 */
	uint64_t p99_ns;         /* 99th percentile latency of the interval's ops (~3 %) */
	uint64_t max_latency_ns; /* slowest op completed in the interval */
};

#endif
