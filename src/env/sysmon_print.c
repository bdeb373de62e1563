/* The "System" block of the text report, from a run's "sys_summary" (see sysmon.h).
 * Counters are shown per second of the measured phase, level gauges as their means. */
#include "loadgen/env/sysmon.h"

#include <math.h>
#include <string.h>

/* One printed number: where it comes from and how it is shown. */
struct item {
	const char *key;   /* key in counters (per_s) or gauges, "%s" = device name */
	const char *label; /* printed before the value */
	const char *fmt;   /* printf format of the value */
	bool counter;      /* a counter, shown per second */
	double scale;      /* the value is multiplied by this */
};

static const struct item cpu_items[] = {
	{ .key = "cpu.user_pct", .label = "user", .fmt = "%.1f%%", .scale = 1 },
	{ .key = "cpu.nice_pct", .label = "nice", .fmt = "%.1f%%", .scale = 1 },
	{ .key = "cpu.system_pct", .label = "system", .fmt = "%.1f%%", .scale = 1 },
	{ .key = "cpu.iowait_pct", .label = "iowait", .fmt = "%.1f%%", .scale = 1 },
	{ .key = "cpu.irq_pct", .label = "irq", .fmt = "%.1f%%", .scale = 1 },
	{ .key = "cpu.softirq_pct", .label = "softirq", .fmt = "%.1f%%", .scale = 1 },
	{ .key = "cpu.steal_pct", .label = "steal", .fmt = "%.1f%%", .scale = 1 },
	{ .key = "cpu.idle_pct", .label = "idle", .fmt = "%.1f%%", .scale = 1 },
	{ .key = "cpu.ctxt", .label = "cs/s", .fmt = "%.0f", .counter = true, .scale = 1 },
	{ .key = "procs_running", .label = "running", .fmt = "%.1f", .scale = 1 },
	{ .key = "procs_blocked", .label = "blocked", .fmt = "%.1f", .scale = 1 },
	{ 0 },
};

static const struct item psi_items[] = {
	{ .key = "psi.io.some_us", .label = "io some", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ .key = "psi.io.full_us", .label = "full", .fmt = "%.0f ms/s", .counter = true, .scale = 1e-3 },
	{ .key = "psi.memory.some_us", .label = "memory some", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ .key = "psi.memory.full_us", .label = "full", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ .key = "psi.cpu.some_us", .label = "cpu some", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ 0 },
};

/* the pressure of the cgroup loadgen runs in (a container's, a fake host's) */
static const struct item cg_items[] = {
	{ .key = "cgroup.psi.io.some_us", .label = "io some", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ .key = "cgroup.psi.io.full_us", .label = "full", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ .key = "cgroup.psi.memory.some_us", .label = "memory some", .fmt = "%.0f ms/s",
	  .counter = true, .scale = 1e-3 },
	{ .key = "cgroup.psi.memory.full_us", .label = "full", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ .key = "cgroup.psi.cpu.some_us", .label = "cpu some", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ .key = "cgroup.psi.cpu.full_us", .label = "full", .fmt = "%.0f ms/s", .counter = true,
	  .scale = 1e-3 },
	{ 0 },
};

static const struct item mem_items[] = {
	{ .key = "meminfo.dirty_kib", .label = "dirty", .fmt = "%.1f MiB", .scale = 1.0 / 1024 },
	{ .key = "meminfo.writeback_kib", .label = "writeback", .fmt = "%.1f MiB",
	  .scale = 1.0 / 1024 },
	{ .key = "meminfo.cached_kib", .label = "cached", .fmt = "%.0f MiB", .scale = 1.0 / 1024 },
	{ .key = "meminfo.available_kib", .label = "available", .fmt = "%.0f MiB",
	  .scale = 1.0 / 1024 },
	{ .key = "vmstat.nr_dirty_threshold", .label = "dirty threshold", .fmt = "%.0f pages",
	  .scale = 1 },
	{ 0 },
};

static const struct item wb_items[] = {
	{ .key = "vmstat.nr_dirtied", .label = "dirtied", .fmt = "%.0f pg/s", .counter = true,
	  .scale = 1 },
	{ .key = "vmstat.nr_written", .label = "written", .fmt = "%.0f pg/s", .counter = true,
	  .scale = 1 },
	{ .key = "vmstat.nr_throttled_written", .label = "throttled", .fmt = "%.0f pg/s",
	  .counter = true, .scale = 1 },
	{ .key = "vmstat.pgpgin", .label = "pgpgin", .fmt = "%.0f KiB/s", .counter = true, .scale = 1 },
	{ .key = "vmstat.pgpgout", .label = "pgpgout", .fmt = "%.0f KiB/s", .counter = true,
	  .scale = 1 },
	{ 0 },
};

static const struct item reclaim_items[] = {
	{ .key = "vmstat.pgscan_kswapd", .label = "scan kswapd", .fmt = "%.0f/s", .counter = true,
	  .scale = 1 },
	{ .key = "vmstat.pgscan_direct", .label = "direct", .fmt = "%.0f/s", .counter = true, .scale = 1 },
	{ .key = "vmstat.pgsteal_kswapd", .label = "steal kswapd", .fmt = "%.0f/s", .counter = true,
	  .scale = 1 },
	{ .key = "vmstat.pgsteal_direct", .label = "direct", .fmt = "%.0f/s", .counter = true,
	  .scale = 1 },
	{ .key = "vmstat.allocstall_normal", .label = "allocstall", .fmt = "%.0f/s", .counter = true,
	  .scale = 1 },
	{ .key = "vmstat.workingset_refault_file", .label = "refault", .fmt = "%.0f/s",
	  .counter = true, .scale = 1 },
	{ .key = "vmstat.pgmajfault", .label = "majfault", .fmt = "%.0f/s", .counter = true,
	  .scale = 1 },
	{ 0 },
};

static const struct item disk_items[] = {
	{ .key = "disk.%s.read_iops", .label = "r", .fmt = "%.0f", .scale = 1 },
	{ .key = "disk.%s.write_iops", .label = "w", .fmt = "%.0f IOPS", .scale = 1 },
	{ .key = "disk.%s.read_mbps", .label = "r", .fmt = "%.1f", .scale = 1 },
	{ .key = "disk.%s.write_mbps", .label = "w", .fmt = "%.1f MB/s", .scale = 1 },
	{ .key = "disk.%s.util_pct", .label = "util", .fmt = "%.0f%%", .scale = 1 },
	{ .key = "disk.%s.queue_depth", .label = "queue", .fmt = "%.2f", .scale = 1 },
	{ .key = "disk.%s.read_await_ms", .label = "await r", .fmt = "%.2f", .scale = 1 },
	{ .key = "disk.%s.write_await_ms", .label = "w", .fmt = "%.2f", .scale = 1 },
	{ .key = "disk.%s.flush_await_ms", .label = "flush", .fmt = "%.2f ms", .scale = 1 },
	{ 0 },
};

static void print_line(FILE *out, const json_t *s, const char *title, const struct item *it,
		       const char *dev)
{
	double secs = json_number_value(json_object_get(s, "seconds"));
	bool any = false;

	for (; it->key; it++) {
		char key[128];
		const json_t *v;

		snprintf(key, sizeof(key), it->key, dev ? dev : "");
		v = json_object_get(json_object_get(s, it->counter ? "counters" : "gauges"), key);
		if (!json_is_number(v) || (it->counter && !(secs > 0)))
			continue;
		if (!any)
			fprintf(out, "  %-10s", title);
		any = true;
		fprintf(out, " %s ", it->label);
		fprintf(out, it->fmt, json_number_value(v) * it->scale / (it->counter ? secs : 1));
	}
	if (any)
		fputc('\n', out);
}

void lg_sys_summary_print(FILE *out, const json_t *summary)
{
	const json_t *c = json_object_get(summary, "counters");
	const char *key;
	json_t *v;

	if (!json_is_object(summary))
		return;
	fprintf(out, "\nSystem during the measured phase (%.1f s; levels are means):\n",
		json_number_value(json_object_get(summary, "seconds")));
	print_line(out, summary, "CPU", cpu_items, NULL);
	print_line(out, summary, "Pressure", psi_items, NULL);
	print_line(out, summary, "Cgroup", cg_items, NULL);
	print_line(out, summary, "Memory", mem_items, NULL);
	print_line(out, summary, "Writeback", wb_items, NULL);
	print_line(out, summary, "Reclaim", reclaim_items, NULL);
	/* one line per device: the names are in the counters' keys ("disk.NAME.reads") */
	json_object_foreach((json_t *)c, key, v) {
		char dev[64];
		size_t len = strlen(key);

		if (strncmp(key, "disk.", 5) != 0 || len < 11 || strcmp(key + len - 6, ".reads") != 0 ||
		    len - 11 >= sizeof(dev))
			continue;
		memcpy(dev, key + 5, len - 11);
		dev[len - 11] = '\0';
		char title[80];

		snprintf(title, sizeof(title), "Disk %s", dev);
		print_line(out, summary, title, disk_items, dev);
	}
}
