/* What one interval of the system monitor costs the master: N samples of /proc (libproc2
 * for stat and meminfo, PSI, vmstat, diskstats of the devices named on the command line)
 * each turned into the interval's "sys" object, timed in CPU time of this thread and in
 * wall time. Prints one JSON line: {"intervals", "cpu_us_per_interval", "wall_us_per_interval"}.
 *
 *     lg_bench_sysmon [N [DISK...]] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "loadgen/env/sysmon.h"

static double now_us(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	struct lg_sys_sample a, b;
	struct lg_sysmon *m;
	double c0, w0;

	if (n < 1 || lg_sysmon_create("/", (const char *const *)argv + 2,
				      argc > 2 ? (size_t)argc - 2 : 0, &m))
		return 2;
	lg_sysmon_sample(m, 0, &a);
	c0 = now_us(CLOCK_THREAD_CPUTIME_ID);
	w0 = now_us(CLOCK_MONOTONIC);
	for (int i = 1; i <= n; i++) {
		json_t *j;

		lg_sysmon_sample(m, (uint64_t)i * 1000000000u, &b);
		j = lg_sys_interval_json(m, &a, &b);
		json_decref(j);
		lg_sys_sample_clear(&a);
		a = b;
	}
	printf("{\"intervals\": %d, \"cpu_us_per_interval\": %.1f, \"wall_us_per_interval\": %.1f}\n",
	       n, (now_us(CLOCK_THREAD_CPUTIME_ID) - c0) / n, (now_us(CLOCK_MONOTONIC) - w0) / n);
	lg_sys_sample_clear(&a);
	lg_sysmon_destroy(m);
	return 0;
}
