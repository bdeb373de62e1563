/* The live sampler: one sample of /proc per interval, read by the master only.
 *
 * /proc/stat and /proc/meminfo come through libproc2's select calls (each call rereads
 * the file; its _get calls would cache for a second, longer than a short --interval).
 * PSI, vmstat and diskstats are read with the parsers of sysmon_parse.c (why: see there).
 * Under a root other than "/" (canned snapshots in tests) every file is read by hand,
 * since libproc2 reads only the live /proc. */
#include "loadgen/env/sysmon.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libproc2/meminfo.h>
#include <libproc2/stat.h>

#include "loadgen/env/sysinfo.h"

struct lg_sysmon {
	char root[PATH_MAX];                          /* prefix of /proc paths, "" for "/" */
	bool live;                                    /* root is "/": use libproc2 */
	struct stat_info *stat;                       /* libproc2 /proc/stat reader, or NULL */
	struct meminfo_info *mem;                     /* libproc2 /proc/meminfo reader, or NULL */
	char names[LG_SYSMON_DISKS][32];              /* followed block devices */
	const char *name_ptrs[LG_SYSMON_DISKS];       /* names[i], for lg_sysmon_disks */
	size_t ndisks;                                /* entries in names */
	char cgdir[PATH_MAX];                         /* our cgroup v2 group's directory
							 (under root), "" when not followed */
	const char *cgname;                           /* its path below the cgroup2 mount
							 (into cgdir), or NULL */
};

/* The text of root/rel, or NULL. */
static char *slurp(const struct lg_sysmon *m, const char *rel)
{
	char path[PATH_MAX + 64];
	char *text = NULL;

	snprintf(path, sizeof(path), "%s%s", m->root, rel);
	return lg_sysinfo_slurp(path, &text) == 0 ? text : NULL;
}

/* Follow the pressure of the cgroup we run in when that is not the root: run in a
 * container (or a test's group per fake host), that group's stalls are this host's,
 * where /proc/pressure is the whole machine's. */
static void find_cgroup(struct lg_sysmon *m)
{
	char *cg = slurp(m, "/proc/self/cgroup"), *mounts = slurp(m, "/proc/self/mounts");
	char dir[PATH_MAX];
	size_t rel;

	if (cg && mounts && lg_cgroup_dir(cg, mounts, dir, sizeof(dir), &rel) == 0 &&
	    (size_t)snprintf(m->cgdir, sizeof(m->cgdir), "%s%s", m->root, dir) < sizeof(m->cgdir))
		m->cgname = m->cgdir + strlen(m->root) + rel;
	else
		m->cgdir[0] = '\0';
	free(cg);
	free(mounts);
}

int lg_sysmon_create(const char *root, const char *const *disks, size_t ndisks,
		     struct lg_sysmon **out)
{
	struct lg_sysmon *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->live = !root || strcmp(root, "/") == 0;
	if (!m->live)
		snprintf(m->root, sizeof(m->root), "%s", root);
	for (size_t i = 0; i < ndisks && m->ndisks < LG_SYSMON_DISKS; i++) {
		snprintf(m->names[m->ndisks], sizeof(m->names[0]), "%s", disks[i]);
		m->name_ptrs[m->ndisks] = m->names[m->ndisks];
		m->ndisks++;
	}
	find_cgroup(m);
	/* a failing reader only leaves its counters absent */
	if (m->live && procps_stat_new(&m->stat) < 0)
		m->stat = NULL;
	if (m->live && procps_meminfo_new(&m->mem) < 0)
		m->mem = NULL;
	*out = m;
	return 0;
}

void lg_sysmon_destroy(struct lg_sysmon *m)
{
	if (!m)
		return;
	if (m->stat)
		procps_stat_unref(&m->stat);
	if (m->mem)
		procps_meminfo_unref(&m->mem);
	free(m);
}

const char *lg_sysmon_cgroup(const struct lg_sysmon *m)
{
	return m->cgname;
}

size_t lg_sysmon_disks(const struct lg_sysmon *m, const char *const **names)
{
	*names = m->name_ptrs;
	return m->ndisks;
}

static void stat_live(struct lg_sysmon *m, struct lg_cpustat *c)
{
	static enum stat_item items[] = {
		STAT_TIC_USER, STAT_TIC_NICE, STAT_TIC_SYSTEM, STAT_TIC_IDLE, STAT_TIC_IOWAIT,
		STAT_TIC_IRQ, STAT_TIC_SOFTIRQ, STAT_TIC_STOLEN, STAT_SYS_CTX_SWITCHES,
		STAT_SYS_PROC_RUNNING, STAT_SYS_PROC_BLOCKED,
	};
	struct stat_stack *s = m->stat ? procps_stat_select(m->stat, items, 11) : NULL;

	if (!s)
		return;
	for (int i = 0; i < LG_CPU_STATES; i++)
		c->ticks[i] = s->head[i].result.ull_int;
	c->ctxt = s->head[8].result.ul_int;
	c->procs_running = s->head[9].result.ul_int;
	c->procs_blocked = s->head[10].result.ul_int;
	c->have = true;
}

static void meminfo_live(struct lg_sysmon *m, struct lg_meminfo *mi)
{
	static enum meminfo_item items[] = {
		MEMINFO_MEM_DIRTY, MEMINFO_MEM_WRITEBACK, MEMINFO_MEM_CACHED, MEMINFO_MEM_AVAILABLE,
	};
	struct meminfo_stack *s = m->mem ? procps_meminfo_select(m->mem, items, 4) : NULL;

	if (!s)
		return;
	mi->dirty_kib = s->head[0].result.ul_int;
	mi->writeback_kib = s->head[1].result.ul_int;
	mi->cached_kib = s->head[2].result.ul_int;
	mi->available_kib = s->head[3].result.ul_int;
	mi->have = true;
}

/* "Key:   123 kB" of /proc/meminfo, for canned snapshots. */
static int meminfo_value(const char *text, const char *key, uint64_t *v)
{
	const char *p = strstr(text, key);
	size_t len = strlen(key);

	while (p && !(p == text || p[-1] == '\n'))
		p = strstr(p + 1, key);
	if (!p || p[len] != ':')
		return -1;
	return sscanf(p + len + 1, " %" SCNu64, v) == 1 ? 0 : -1;
}

static void read_canned(struct lg_sysmon *m, struct lg_sys_sample *s)
{
	char *t = slurp(m, "/proc/stat");

	if (t && lg_cpustat_parse(t, &s->cpu) != 0)
		s->cpu.have = false;
	free(t);
	t = slurp(m, "/proc/meminfo");
	if (t)
		s->mem.have = !meminfo_value(t, "Dirty", &s->mem.dirty_kib) &&
			      !meminfo_value(t, "Writeback", &s->mem.writeback_kib) &&
			      !meminfo_value(t, "Cached", &s->mem.cached_kib) &&
			      !meminfo_value(t, "MemAvailable", &s->mem.available_kib);
	free(t);
}

static void read_disks(struct lg_sysmon *m, struct lg_sys_sample *s)
{
	char *t = slurp(m, "/proc/diskstats");

	for (size_t i = 0; t && i < m->ndisks; i++)
		s->have_disk[i] = lg_diskstats_find(t, m->names[i], &s->disks[i]) == 0;
	free(t);
}

int lg_sysmon_sample(struct lg_sysmon *m, uint64_t t_ns, struct lg_sys_sample *out)
{
	char *t;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->t_ns = t_ns;
	if (m->live) {
		stat_live(m, &out->cpu);
		meminfo_live(m, &out->mem);
	} else {
		read_canned(m, out);
	}
	for (int r = 0; r < LG_PSI_NRES; r++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "/proc/pressure/%s", lg_psi_names[r]);
		t = slurp(m, rel);
		if (t)
			lg_psi_parse(t, &out->psi[r]);
		free(t);
	}
	for (int r = 0; m->cgname && r < LG_PSI_NRES; r++) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/%s.pressure", m->cgdir, lg_psi_names[r]);
		t = NULL;
		if (lg_sysinfo_slurp(path, &t) == 0)
			lg_psi_parse(t, &out->cg_psi[r]);
		free(t);
	}
	t = slurp(m, "/proc/vmstat");
	if (t)
		rc = lg_vmstat_parse(t, &out->vm);
	free(t);
	read_disks(m, out);
	return rc;
}

void lg_sys_sample_clear(struct lg_sys_sample *s)
{
	if (s)
		lg_vmstat_clear(&s->vm);
}
