/* Parsers of /proc text and the arithmetic of two samples (see loadgen/sysmon.h).
 *
 * Why by hand and not with libproc2: libproc2 reads only the live /proc (tests need canned
 * text); its vmstat reader knows a fixed list of names and says 0 for one the kernel
 * lacks, while loadgen must list every counter that changed and leave absent ones absent;
 * its diskstats reader stops at the 14-field layout (no discards, no flushes); and it has
 * no PSI reader at all. /proc/stat is parsed here only for canned snapshots. */
#include "loadgen/env/sysmon.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const lg_cpu_state_names[LG_CPU_STATES] = {
	[LG_CPU_USER] = "user",       [LG_CPU_NICE] = "nice",   [LG_CPU_SYSTEM] = "system",
	[LG_CPU_IDLE] = "idle",       [LG_CPU_IOWAIT] = "iowait", [LG_CPU_IRQ] = "irq",
	[LG_CPU_SOFTIRQ] = "softirq", [LG_CPU_STEAL] = "steal",
};

const char *const lg_psi_names[LG_PSI_NRES] = {
	[LG_PSI_IO] = "io", [LG_PSI_MEMORY] = "memory", [LG_PSI_CPU] = "cpu",
};

/* The value after "total=" on line, or -1. */
static int psi_total(const char *line, uint64_t *v)
{
	const char *t = strstr(line, "total=");
	char *end;

	if (!t)
		return -1;
	errno = 0;
	*v = strtoull(t + 6, &end, 10);
	return errno || end == t + 6 || (*end && *end != '\n' && *end != ' ') ? -1 : 0;
}

int lg_psi_parse(const char *text, struct lg_psi *out)
{
	const char *l = text;

	memset(out, 0, sizeof(*out));
	while (l && *l) {
		if (strncmp(l, "some ", 5) == 0 && psi_total(l, &out->some_us) == 0)
			out->have_some = true;
		else if (strncmp(l, "full ", 5) == 0 && psi_total(l, &out->full_us) == 0)
			out->have_full = true;
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return out->have_some || out->have_full ? 0 : -EINVAL;
}

int lg_diskstats_parse_line(const char *line, struct lg_disk *out)
{
	unsigned major, minor, n = 0;
	int used = 0;
	const char *p;

	memset(out, 0, sizeof(*out));
	if (sscanf(line, "%u %u %31s%n", &major, &minor, out->name, &used) != 3)
		return -EINVAL;
	p = line + used;
	for (;;) {
		char *end;
		uint64_t v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		if (*p < '0' || *p > '9' || n == LG_DISK_FIELDS)
			return -EINVAL;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		out->f[n++] = v;
		p = end;
	}
	/* 14, 18 or 20 fields in all: 11, 15 or 17 counters */
	if (n != 11 && n != 15 && n != 17)
		return -EINVAL;
	out->nfields = n;
	return 0;
}

int lg_diskstats_find(const char *text, const char *name, struct lg_disk *out)
{
	const char *l = text;

	while (l && *l) {
		struct lg_disk d;

		if (lg_diskstats_parse_line(l, &d) == 0 && strcmp(d.name, name) == 0) {
			*out = d;
			return 0;
		}
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return -ENOENT;
}

int lg_vmstat_parse(const char *text, struct lg_vmstat *out)
{
	const char *l = text;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	while (l && *l) {
		struct lg_vm_counter c;
		uint64_t v;
		char name[LG_VM_NAME_MAX];

		if (sscanf(l, "%63s %" SCNu64, name, &v) == 2) {
			if (out->n == cap) {
				size_t ncap = cap ? 2 * cap : 256;
				struct lg_vm_counter *p = realloc(out->c, ncap * sizeof(*p));

				if (!p) {
					lg_vmstat_clear(out);
					return -ENOMEM;
				}
				out->c = p;
				cap = ncap;
			}
			memcpy(c.name, name, sizeof(name));
			c.value = v;
			out->c[out->n++] = c;
		}
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return 0;
}

int lg_vmstat_get(const struct lg_vmstat *vm, const char *name, uint64_t *v)
{
	for (size_t i = 0; i < vm->n; i++) {
		if (strcmp(vm->c[i].name, name) == 0) {
			*v = vm->c[i].value;
			return 0;
		}
	}
	return -ENOENT;
}

void lg_vmstat_clear(struct lg_vmstat *vm)
{
	if (!vm)
		return;
	free(vm->c);
	vm->c = NULL;
	vm->n = 0;
}

/* The number after key at the start of a line of text, or -1. */
static int line_value(const char *text, const char *key, uint64_t *v)
{
	size_t len = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (strncmp(l, key, len) == 0 && l[len] == ' ')
			return sscanf(l + len, " %" SCNu64, v) == 1 ? 0 : -1;
	return -1;
}

int lg_cpustat_parse(const char *text, struct lg_cpustat *out)
{
	uint64_t *t = out->ticks;

	memset(out, 0, sizeof(*out));
	/* steal came with 2.6.11; older lines have 7 states and steal stays 0 */
	if (sscanf(text, "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64, &t[0], &t[1], &t[2], &t[3], &t[4],
		   &t[5], &t[6], &t[7]) < 7)
		return -EINVAL;
	if (line_value(text, "ctxt", &out->ctxt) || line_value(text, "procs_running",
		&out->procs_running) || line_value(text, "procs_blocked", &out->procs_blocked))
		return -EINVAL;
	out->have = true;
	return 0;
}

int lg_cpu_percent(const struct lg_cpustat *a, const struct lg_cpustat *b,
		   double pct[LG_CPU_STATES])
{
	uint64_t d[LG_CPU_STATES], total = 0;

	if (!a->have || !b->have)
		return -ERANGE;
	for (int i = 0; i < LG_CPU_STATES; i++) {
		/* a counter that went backwards (iowait may, on some kernels) counts as 0 */
		d[i] = b->ticks[i] > a->ticks[i] ? b->ticks[i] - a->ticks[i] : 0;
		total += d[i];
	}
	if (!total)
		return -ERANGE;
	for (int i = 0; i < LG_CPU_STATES; i++)
		pct[i] = 100.0 * (double)d[i] / (double)total;
	return 0;
}

static uint64_t delta(const struct lg_disk *a, const struct lg_disk *b, int f)
{
	return b->f[f] >= a->f[f] ? b->f[f] - a->f[f] : 0;
}

/* ms of field ms per completed request of field ios, or NaN when none completed. */
static double await(const struct lg_disk *a, const struct lg_disk *b, int ios, int ms)
{
	uint64_t n = delta(a, b, ios);

	return n ? (double)delta(a, b, ms) / (double)n : NAN;
}

int lg_disk_rates(const struct lg_disk *a, const struct lg_disk *b, double secs,
		  struct lg_disk_rates *out)
{
	if (!(secs > 0) || a->nfields != b->nfields)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->read_iops = (double)delta(a, b, LG_DK_READS) / secs;
	out->write_iops = (double)delta(a, b, LG_DK_WRITES) / secs;
	/* sectors are 512 bytes whatever the device's block size */
	out->read_mbps = (double)delta(a, b, LG_DK_READ_SECTORS) * 512 / 1e6 / secs;
	out->write_mbps = (double)delta(a, b, LG_DK_WRITE_SECTORS) * 512 / 1e6 / secs;
	out->util_pct = 100.0 * (double)delta(a, b, LG_DK_IO_MS) / (secs * 1000);
	if (out->util_pct > 100)
		out->util_pct = 100; /* io_ticks is sampled at jiffies: a little over is noise */
	out->queue_depth = (double)delta(a, b, LG_DK_QUEUE_MS) / (secs * 1000);
	out->read_await_ms = await(a, b, LG_DK_READS, LG_DK_READ_MS);
	out->write_await_ms = await(a, b, LG_DK_WRITES, LG_DK_WRITE_MS);
	out->have_discard = a->nfields >= 15;
	if (out->have_discard)
		out->discard_iops = (double)delta(a, b, LG_DK_DISCARDS) / secs;
	out->have_flush = a->nfields >= 17;
	if (out->have_flush) {
		out->flush_iops = (double)delta(a, b, LG_DK_FLUSHES) / secs;
		out->flush_await_ms = await(a, b, LG_DK_FLUSHES, LG_DK_FLUSH_MS);
	}
	return 0;
}

/* The mount point of the first cgroup2 line of /proc/self/mounts ("cgroup2 /sys/fs/cgroup
 * cgroup2 rw 0 0"; spaces in it are octal escapes, left as they are), or -ENOENT. */
static int cgroup2_mount(const char *mounts, char *out, size_t len)
{
	for (const char *l = mounts; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char dev[64], dir[512], type[32];

		if (sscanf(l, "%63s %511s %31s", dev, dir, type) == 3 &&
		    strcmp(type, "cgroup2") == 0) {
			if ((size_t)snprintf(out, len, "%s", dir) >= len)
				return -ENAMETOOLONG;
			return 0;
		}
	}
	return -ENOENT;
}

int lg_cgroup_dir(const char *cgroup, const char *mounts, char *out, size_t len, size_t *rel)
{
	const char *l = cgroup, *end;
	char mnt[512];
	int rc;

	while (l && strncmp(l, "0::", 3) != 0) {
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	if (!l)
		return -ENOENT;
	l += 3;
	end = strchr(l, '\n');
	end = end ? end : l + strlen(l);
	/* the root group: its pressure is /proc/pressure's; " (deleted)": gone */
	if (end - l < 2 || l[0] != '/' || memchr(l, ' ', (size_t)(end - l)))
		return -ENOENT;
	if ((rc = cgroup2_mount(mounts, mnt, sizeof(mnt))))
		return rc;
	*rel = strlen(mnt);
	if ((size_t)snprintf(out, len, "%s%.*s", mnt, (int)(end - l), l) >= len)
		return -ENAMETOOLONG;
	return 0;
}
