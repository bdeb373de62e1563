/* ns per lg_histogram_record: the cost every timed op pays to be recorded.
 *
 *   lg_bench_hist [RECORDS]
 *
 * The values are drawn before timing (log-uniform from 100 ns to 100 ms, as op
 * latencies spread), 64 Ki of them replayed in a loop, so the figure is the record
 * alone, not the random number generator. Prints one JSON line:
 * {"records", "seconds", "ns_per_record"}. */
#include "loadgen/model/histogram.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NVALUES 65536 /* a power of two: the replay index is a mask */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* xorshift64: cheap, and good enough to spread test values. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000u;
	static uint64_t values[NVALUES];
	static struct lg_histogram h;
	uint64_t seed = 88172645463325252u, t0, t1;

	if (n == 0) {
		fprintf(stderr, "usage: lg_bench_hist [RECORDS]\n");
		return 2;
	}
	for (size_t i = 0; i < NVALUES; i++) {
		double u = (double)(next_rand(&seed) >> 11) / 9007199254740992.0; /* [0, 1) */

		values[i] = (uint64_t)(100.0 * pow(1e6, u)); /* 100 ns .. 100 ms */
	}
	lg_histogram_init(&h);
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		lg_histogram_record(&h, values[i & (NVALUES - 1)]);
	t1 = now_ns();
	if (h.count != n) { /* also keeps the loop from being optimised away */
		fprintf(stderr, "lg_bench_hist: recorded %llu of %llu\n",
			(unsigned long long)h.count, (unsigned long long)n);
		return 1;
	}
	printf("{\"records\": %llu, \"seconds\": %.6f, \"ns_per_record\": %.3f, "
	       "\"p50_ns\": %llu}\n", (unsigned long long)n, (double)(t1 - t0) / 1e9,
	       (double)(t1 - t0) / (double)n,
	       (unsigned long long)lg_histogram_percentile(&h, 50));
	return 0;
}
