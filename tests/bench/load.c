/* lg_bench_load: what compiling a loadfile costs, in user CPU, without running it.
 *
 *     lg_bench_load FILE [REPEATS]
 *
 * Reads FILE once, compiles it REPEATS times (default 10) with the loader loadgen's -c
 * would choose, and prints one JSON line: {"file": ..., "bytes": ..., "repeats": ...,
 * "user_ms_per_load": ..., "min_user_ms": ..., "mean_user_ms": ...}: the median, the
 * least and the mean of the compiles' user CPU (getrusage around each, so a busy
 * machine's preemptions count only as wall time; the median, so one compile slowed by
 * a neighbour's cache traffic does not move it). tests/bench/run.py gives it
 * /usr/share/dbench/client.txt for its "dbench loader" row. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "loadgen/load/loadfile.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double user_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3;
}

int main(int argc, char **argv)
{
	int repeats = argc > 2 ? atoi(argv[2]) : 10;
	double total = 0, *ms = NULL;
	char err[1024], *text = NULL;
	size_t len = 0;
	int rc;

	if (argc < 2 || repeats < 1) {
		fprintf(stderr, "usage: lg_bench_load FILE [REPEATS]\n");
		return 2;
	}
	if ((rc = lg_loadfile_read(argv[1], &text, &len))) {
		fprintf(stderr, "lg_bench_load: %s: %s\n", argv[1], lg_loadfile_strerror(rc));
		return 2;
	}
	if (!(ms = calloc((size_t)repeats, sizeof(*ms)))) {
		fprintf(stderr, "lg_bench_load: out of memory\n");
		goto fail;
	}
	for (int i = 0; i < repeats; i++) {
		struct lg_workload *wl = NULL;
		double t0 = user_ms(), t;

		if (lg_loadfile_compile(argv[1], text, len, NULL, 0, 1, &wl, err, sizeof(err))) {
			fprintf(stderr, "lg_bench_load: %s\n", err);
			goto fail;
		}
		t = user_ms() - t0;
		total += t;
		ms[i] = t;
		lg_workload_destroy(wl);
	}
	qsort(ms, (size_t)repeats, sizeof(*ms), by_value);
	printf("{\"file\": \"%s\", \"bytes\": %zu, \"repeats\": %d, \"user_ms_per_load\": %.2f, "
	       "\"min_user_ms\": %.2f, \"mean_user_ms\": %.2f}\n", argv[1], len, repeats,
	       repeats % 2 ? ms[repeats / 2] : (ms[repeats / 2 - 1] + ms[repeats / 2]) / 2,
	       ms[0], total / repeats);
	free(ms);
	free(text);
	return 0;
fail:
	free(ms);
	free(text);
	return 2;
}
