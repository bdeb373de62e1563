/* Load time of workload files: read + compile each FILE given, N times, and print the
 * best and median wall time (CLOCK_MONOTONIC) and the best CPU time of the process
 * (user + system, CLOCK_PROCESS_CPUTIME_ID: steadier on a busy machine) per file, side
 * by side, plus the ratio of each to the first. Used to keep an imported YAML loadfile close to the dbench text it
 * came from (tests/bench/loadtime.py). Not a unit test: timing depends on the machine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loadgen/load/loadfile.h"

#define MAX_REPS 50 /* runs per file */

static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Time one read + compile of path: wall time into *s, CPU time into *cpu. 0 or -1
 * (message printed). */
static int load_once(const char *path, double *s, double *cpu)
{
	struct lg_workload *wl = NULL;
	char err[1024], *text = NULL;
	size_t len = 0;
	double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	int rc = lg_loadfile_read(path, &text, &len);

	if (!rc)
		rc = lg_loadfile_compile(path, text, len, NULL, 0, 1, &wl, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "%s: cannot read", path);
	free(text);
	lg_workload_destroy(wl);
	*s = now_s(CLOCK_MONOTONIC) - t0;
	*cpu = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	if (rc)
		fprintf(stderr, "loadtime: %s\n", err);
	return rc ? -1 : 0;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 0;
	double first = 0, first_cpu = 0;

	if (argc < 3 || reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "usage: loadtime REPS(1-%d) FILE...\n", MAX_REPS);
		return 2;
	}
	printf("%-40s %8s %8s %8s %8s %8s\n", "file", "wall_s", "median_s", "cpu_s", "ratio",
	       "cpu_ratio");
	for (int f = 2; f < argc; f++) {
		double t[MAX_REPS], cpu[MAX_REPS];

		for (int i = 0; i < reps; i++)
			if (load_once(argv[f], &t[i], &cpu[i]))
				return 1;
		qsort(t, (size_t)reps, sizeof(t[0]), cmp_double);
		qsort(cpu, (size_t)reps, sizeof(cpu[0]), cmp_double);
		if (f == 2) {
			first = t[0];
			first_cpu = cpu[0];
		}
		printf("%-40s %8.3f %8.3f %8.3f %8.2f %8.2f\n", argv[f], t[0], t[reps / 2], cpu[0],
		       t[0] / first, cpu[0] / first_cpu);
	}
	return 0;
}
