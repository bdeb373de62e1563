/* The host whose system counters stand out, in the text of a multi-host run.
 *
 * The "why" of a slow multi-host run is often one host: swapping, its disk saturated, its
 * CPU taken by something else. Each host's monitor summary (hosts[].sys_summary) is set
 * against the others', figure by figure: a host stands out in a figure when its value is
 * at least that figure's floor and more than OUTLIER_RATIO times the median of the other
 * hosts' values. The floor keeps noise quiet (3 ms/s of PSI against 0.5 is no news); the
 * median of the others, not their mean, so that two bad hosts of ten are both named.
 * Hosts alike print nothing. */
#include "loadgen/output/hosts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OUTLIER_RATIO 3.0 /* times the others' median */

/* One figure set against the other hosts'. */
struct figure {
	const char *key;    /* key in counters (per second) or gauges; with disk: the
			       suffix of disk.NAME.<key>, the host's largest over its disks */
	bool counter;       /* a counter: shown per second of measured time */
	bool disk;          /* a per-device gauge (see key) */
	bool busy;          /* cpu.idle_pct shown as 100 - idle: the CPU's busy share */
	double scale;       /* the value is multiplied by this */
	const char *label;  /* printed before the value (after "disk NAME " for disks) */
	const char *unit;   /* printed after it */
	int prec;           /* decimals */
	double floor;       /* a host stands out only from this value on (scaled) */
};

#define PSI(k, l) { .key = k, .counter = true, .scale = 1e-3, .label = l, .unit = "ms/s", \
		    .floor = 50 }

static const struct figure figures[] = {
	PSI("psi.cpu.some_us", "PSI cpu some"),
	PSI("psi.cpu.full_us", "PSI cpu full"),
	PSI("psi.io.some_us", "PSI io some"),
	PSI("psi.io.full_us", "PSI io full"),
	PSI("psi.memory.some_us", "PSI memory some"),
	PSI("psi.memory.full_us", "PSI memory full"),
	PSI("cgroup.psi.cpu.some_us", "cgroup PSI cpu some"),
	PSI("cgroup.psi.cpu.full_us", "cgroup PSI cpu full"),
	PSI("cgroup.psi.io.some_us", "cgroup PSI io some"),
	PSI("cgroup.psi.io.full_us", "cgroup PSI io full"),
	PSI("cgroup.psi.memory.some_us", "cgroup PSI memory some"),
	PSI("cgroup.psi.memory.full_us", "cgroup PSI memory full"),
	{ .key = "cpu.idle_pct", .busy = true, .scale = 1, .label = "CPU busy", .unit = "%",
	  .prec = 1, .floor = 20 },
	{ .key = "cpu.iowait_pct", .scale = 1, .label = "CPU iowait", .unit = "%", .prec = 1,
	  .floor = 10 },
	{ .key = "cpu.steal_pct", .scale = 1, .label = "CPU steal", .unit = "%", .prec = 1,
	  .floor = 10 },
	{ .key = "vmstat.pgscan_direct", .counter = true, .scale = 1, .label = "reclaim direct scan",
	  .unit = "pages/s", .floor = 1000 },
	{ .key = "vmstat.pgscan_kswapd", .counter = true, .scale = 1, .label = "reclaim kswapd scan",
	  .unit = "pages/s", .floor = 1000 },
	{ .key = "vmstat.allocstall_normal", .counter = true, .scale = 1, .label = "allocstall",
	  .unit = "/s", .floor = 10 },
	{ .key = "vmstat.pgmajfault", .counter = true, .scale = 1, .label = "major faults",
	  .unit = "/s", .floor = 100 },
	{ .key = "vmstat.nr_throttled_written", .counter = true, .scale = 1,
	  .label = "writeback throttled", .unit = "pages/s", .floor = 100 },
	{ .key = "meminfo.writeback_kib", .scale = 1.0 / 1024, .label = "writeback", .unit = "MiB",
	  .prec = 1, .floor = 64 },
	{ .key = "meminfo.dirty_kib", .scale = 1.0 / 1024, .label = "dirty", .unit = "MiB",
	  .prec = 1, .floor = 256 },
	{ .key = "util_pct", .disk = true, .scale = 1, .label = "util", .unit = "%", .floor = 30 },
	{ .key = "write_await_ms", .disk = true, .scale = 1, .label = "write await", .unit = "ms",
	  .prec = 2, .floor = 10 },
	{ .key = "read_await_ms", .disk = true, .scale = 1, .label = "read await", .unit = "ms",
	  .prec = 2, .floor = 10 },
};

/* The host's value of f in summary s (dev: the device it comes from, for disk figures),
 * or NAN when it has none. */
static double value_of(const struct figure *f, const json_t *s, char *dev, size_t devlen)
{
	const json_t *g = json_object_get(s, f->counter ? "counters" : "gauges"), *v;
	double secs = json_number_value(json_object_get(s, "seconds")), best = NAN;
	const char *key;

	if (!f->disk) {
		v = json_object_get(g, f->key);
		if (!json_is_number(v) || (f->counter && !(secs > 0)))
			return NAN;
		if (f->busy)
			return 100 - json_number_value(v);
		return json_number_value(v) * f->scale / (f->counter ? secs : 1);
	}
	json_object_foreach((json_t *)g, key, v) {
		size_t len = strlen(key), sl = strlen(f->key);

		/* disk.NAME.<key>: the largest of the host's devices */
		if (strncmp(key, "disk.", 5) || len < 5 + sl + 2 || strcmp(key + len - sl, f->key) ||
		    key[len - sl - 1] != '.' || !json_is_number(v) ||
		    json_number_value(v) * f->scale <= best)
			continue;
		best = json_number_value(v) * f->scale;
		snprintf(dev, devlen, "%.*s", (int)(len - sl - 6), key + 5);
	}
	return best;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the n values of v (sorted here). */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Print the hosts that stand out in figure f; val[i]: host i's value or NAN. */
static void one_figure(FILE *out, const struct figure *f, const char *const *names,
		       const double *val, char (*dev)[64], size_t n, double *others)
{
	for (size_t h = 0; h < n; h++) {
		size_t k = 0;
		double max = 0;

		if (isnan(val[h]) || val[h] < f->floor)
			continue;
		for (size_t i = 0; i < n; i++)
			if (i != h && !isnan(val[i])) {
				others[k++] = val[i];
				max = val[i] > max ? val[i] : max;
			}
		if (!k || !(val[h] > OUTLIER_RATIO * median(others, k)))
			continue;
		fprintf(out, "host %s: %s%s%s%s %.*f%s%s, others \u2264 %.*f\n", names[h],
			f->disk ? "disk " : "", f->disk ? dev[h] : "", f->disk ? " " : "", f->label,
			f->prec, val[h], f->unit[0] == '%' ? "" : " ", f->unit, f->prec, max);
	}
}

void lg_hosts_standout(FILE *out, const char *const *names, const json_t *const *summaries,
		       size_t n)
{
	double *val = calloc(n ? n : 1, sizeof(*val)), *others = calloc(n ? n : 1, sizeof(*others));
	char (*dev)[64] = calloc(n ? n : 1, sizeof(*dev));

	for (size_t i = 0; val && others && dev && n > 1 &&
			   i < sizeof(figures) / sizeof(figures[0]); i++) {
		for (size_t h = 0; h < n; h++)
			val[h] = value_of(&figures[i], summaries[h], dev[h], sizeof(dev[h]));
		one_figure(out, &figures[i], names, val, dev, n, others);
	}
	free(val);
	free(others);
	free(dev);
}
