/* Two samples → the "sys" object of a timeline entry (and of the per-run summary).
 *
 * The object holds two flat maps with dotted names, in the manner of the 0-day robot's
 * "vmstat.system.cs": "counters" are deltas between the samples (events, ticks, µs,
 * sectors), "gauges" are levels at the second sample or rates over the two. Flat maps let
 * `loadgen compare` rank every number the same way and make "the summary is the sum of
 * the intervals" a one-line check. A number the kernel does not give is left out. */
#include "loadgen/env/sysmon.h"
#include "loadgen/model/clock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* /proc/vmstat counters reported as deltas (events since boot). */
static const char *const vm_deltas[] = {
	"nr_dirtied", "nr_written", "nr_throttled_written", "pgpgin", "pgpgout",
	"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct",
	"workingset_refault_file", "pgmajfault",
};

/* /proc/vmstat values reported as gauges (pages now). */
static const char *const vm_gauges[] = {
	"nr_dirty", "nr_writeback", "nr_dirty_threshold", "nr_dirty_background_threshold",
};

/* A diskstats counter and its name under disk.NAME.; min_fields: the line length that has it. */
static const struct {
	enum lg_disk_field f; /* the counter */
	const char *name;     /* its key */
	unsigned min_fields;  /* counters a line needs to hold it */
} disk_counters[] = {
	{ LG_DK_READS, "reads", 11 },            { LG_DK_READS_MERGED, "reads_merged", 11 },
	{ LG_DK_READ_SECTORS, "read_sectors", 11 }, { LG_DK_READ_MS, "read_ms", 11 },
	{ LG_DK_WRITES, "writes", 11 },          { LG_DK_WRITES_MERGED, "writes_merged", 11 },
	{ LG_DK_WRITE_SECTORS, "write_sectors", 11 }, { LG_DK_WRITE_MS, "write_ms", 11 },
	{ LG_DK_IO_MS, "io_ms", 11 },            { LG_DK_QUEUE_MS, "queue_ms", 11 },
	{ LG_DK_DISCARDS, "discards", 15 },      { LG_DK_DISCARD_SECTORS, "discard_sectors", 15 },
	{ LG_DK_DISCARD_MS, "discard_ms", 15 },  { LG_DK_FLUSHES, "flushes", 17 },
	{ LG_DK_FLUSH_MS, "flush_ms", 17 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t d64(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

static int put_int(json_t *o, const char *key, uint64_t v)
{
	return json_object_set_new(o, key, json_integer((json_int_t)v));
}

/* A real, left out when not finite (an await with no request). */
static int put_real(json_t *o, const char *key, double v)
{
	return isfinite(v) ? json_object_set_new(o, key, json_real(v)) : 0;
}

static int cpu_json(const struct lg_sys_sample *a, const struct lg_sys_sample *b, json_t *c,
		    json_t *g)
{
	double pct[LG_CPU_STATES];
	char key[64];
	int rc = 0;

	if (!a->cpu.have || !b->cpu.have)
		return 0;
	if (lg_cpu_percent(&a->cpu, &b->cpu, pct) == 0)
		for (int i = 0; i < LG_CPU_STATES; i++) {
			snprintf(key, sizeof(key), "cpu.%s_pct", lg_cpu_state_names[i]);
			rc |= put_real(g, key, pct[i]);
		}
	rc |= put_int(c, "cpu.ctxt", d64(a->cpu.ctxt, b->cpu.ctxt));
	rc |= put_int(g, "procs_running", b->cpu.procs_running);
	rc |= put_int(g, "procs_blocked", b->cpu.procs_blocked);
	return rc;
}

/* The pressure a → b as counters prefix.RES.some_us / full_us ("psi", or "cgroup.psi"
 * for our cgroup's). */
static int psi_json(const struct lg_psi *a, const struct lg_psi *b, const char *prefix,
		    json_t *c)
{
	char key[64];
	int rc = 0;

	for (int r = 0; r < LG_PSI_NRES; r++) {
		const struct lg_psi *pa = &a[r], *pb = &b[r];

		if (pa->have_some && pb->have_some) {
			snprintf(key, sizeof(key), "%s.%s.some_us", prefix, lg_psi_names[r]);
			rc |= put_int(c, key, d64(pa->some_us, pb->some_us));
		}
		if (pa->have_full && pb->have_full) {
			snprintf(key, sizeof(key), "%s.%s.full_us", prefix, lg_psi_names[r]);
			rc |= put_int(c, key, d64(pa->full_us, pb->full_us));
		}
	}
	return rc;
}

static int mem_json(const struct lg_sys_sample *b, json_t *g)
{
	if (!b->mem.have)
		return 0;
	return put_int(g, "meminfo.dirty_kib", b->mem.dirty_kib) |
	       put_int(g, "meminfo.writeback_kib", b->mem.writeback_kib) |
	       put_int(g, "meminfo.cached_kib", b->mem.cached_kib) |
	       put_int(g, "meminfo.available_kib", b->mem.available_kib);
}

static int vm_delta(const struct lg_sys_sample *a, const struct lg_sys_sample *b,
		    const char *name, json_t *c)
{
	uint64_t va, vb;
	char key[LG_VM_NAME_MAX + 8];

	if (lg_vmstat_get(&a->vm, name, &va) || lg_vmstat_get(&b->vm, name, &vb))
		return 0;
	snprintf(key, sizeof(key), "vmstat.%s", name);
	return put_int(c, key, d64(va, vb));
}

static int vm_json(const struct lg_sys_sample *a, const struct lg_sys_sample *b, json_t *c,
		   json_t *g)
{
	char key[LG_VM_NAME_MAX + 8];
	uint64_t v;
	int rc = 0;

	for (size_t i = 0; i < N(vm_deltas); i++)
		rc |= vm_delta(a, b, vm_deltas[i], c);
	/* allocstall_dma, _dma32, _normal, _movable, _device: whichever zones there are */
	for (size_t i = 0; i < b->vm.n; i++)
		if (strncmp(b->vm.c[i].name, "allocstall_", 11) == 0)
			rc |= vm_delta(a, b, b->vm.c[i].name, c);
	for (size_t i = 0; i < N(vm_gauges); i++) {
		if (lg_vmstat_get(&b->vm, vm_gauges[i], &v))
			continue;
		snprintf(key, sizeof(key), "vmstat.%s", vm_gauges[i]);
		rc |= put_int(g, key, v);
	}
	return rc;
}

static int disk_json(const char *name, const struct lg_disk *a, const struct lg_disk *b,
		     double secs, json_t *c, json_t *g)
{
	struct lg_disk_rates r;
	char key[128];
	int rc = 0;

#define KEY(k) (snprintf(key, sizeof(key), "disk.%s.%s", name, k), key)
	for (size_t i = 0; i < N(disk_counters); i++)
		if (a->nfields >= disk_counters[i].min_fields)
			rc |= put_int(c, KEY(disk_counters[i].name),
				      d64(a->f[disk_counters[i].f], b->f[disk_counters[i].f]));
	rc |= put_int(g, KEY("in_flight"), b->f[LG_DK_IN_FLIGHT]);
	if (lg_disk_rates(a, b, secs, &r) != 0)
		return rc;
	rc |= put_real(g, KEY("read_iops"), r.read_iops) |
	      put_real(g, KEY("write_iops"), r.write_iops) |
	      put_real(g, KEY("read_mbps"), r.read_mbps) |
	      put_real(g, KEY("write_mbps"), r.write_mbps) |
	      put_real(g, KEY("util_pct"), r.util_pct) |
	      put_real(g, KEY("queue_depth"), r.queue_depth) |
	      put_real(g, KEY("read_await_ms"), r.read_await_ms) |
	      put_real(g, KEY("write_await_ms"), r.write_await_ms);
	if (r.have_discard)
		rc |= put_real(g, KEY("discard_iops"), r.discard_iops);
	if (r.have_flush)
		rc |= put_real(g, KEY("flush_iops"), r.flush_iops) |
		      put_real(g, KEY("flush_await_ms"), r.flush_await_ms);
#undef KEY
	return rc;
}

json_t *lg_sys_interval_json(const struct lg_sysmon *m, const struct lg_sys_sample *a,
			     const struct lg_sys_sample *b)
{
	json_t *c = json_object(), *g = json_object();
	double secs = (double)(b->t_ns - a->t_ns) / LG_NS_PER_SEC;
	const char *const *names;
	size_t nd = lg_sysmon_disks(m, &names);
	int rc = !c || !g;

	rc = rc || cpu_json(a, b, c, g) || psi_json(a->psi, b->psi, "psi", c) ||
	     psi_json(a->cg_psi, b->cg_psi, "cgroup.psi", c) || mem_json(b, g) ||
	     vm_json(a, b, c, g);
	for (size_t i = 0; !rc && i < nd; i++)
		if (a->have_disk[i] && b->have_disk[i])
			rc = disk_json(names[i], &a->disks[i], &b->disks[i], secs, c, g);
	if (rc) {
		json_decref(c);
		json_decref(g);
		return NULL;
	}
	return json_pack("{s:f, s:o, s:o}", "seconds", secs, "counters", c, "gauges", g);
}

json_t *lg_vmstat_diff_json(const struct lg_vmstat *a, const struct lg_vmstat *b)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < b->n; i++) {
		uint64_t va;
		int64_t d;

		if (lg_vmstat_get(a, b->c[i].name, &va) || va == b->c[i].value)
			continue;
		d = (int64_t)(b->c[i].value - va); /* gauges (nr_*) may go down */
		if (json_object_set_new(o, b->c[i].name, json_integer(d))) {
			json_decref(o);
			o = NULL;
		}
	}
	return o;
}
