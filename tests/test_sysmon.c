/* Unit tests of sysmon: the diskstats parser on 14-, 18- and 20-field lines, PSI, vmstat
 * and /proc/stat text, and the arithmetic of two canned snapshots (tests/data/proc/a and
 * b, 2 s apart), every expected value computed by hand in the comments. */
#include "loadgen/env/sysmon.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define EPS 1e-9

/* --- diskstats --- */

static void diskstats_14_fields(void **state)
{
	struct lg_disk d;

	(void)state;
	assert_int_equal(lg_diskstats_parse_line("   8       0 sda 10 0 80 5 20 0 160 10 0 12 15\n",
						 &d), 0);
	assert_string_equal(d.name, "sda");
	assert_int_equal(d.nfields, 11);
	assert_int_equal(d.f[LG_DK_READS], 10);
	assert_int_equal(d.f[LG_DK_READ_SECTORS], 80);
	assert_int_equal(d.f[LG_DK_WRITE_SECTORS], 160);
	assert_int_equal(d.f[LG_DK_IO_MS], 12);
	assert_int_equal(d.f[LG_DK_QUEUE_MS], 15);
}

static void diskstats_18_fields(void **state)
{
	struct lg_disk d;

	(void)state;
	assert_int_equal(lg_diskstats_parse_line("8 16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &d), 0);
	assert_int_equal(d.nfields, 15);
	assert_int_equal(d.f[LG_DK_IN_FLIGHT], 9);
	assert_int_equal(d.f[LG_DK_DISCARDS], 12);
	assert_int_equal(d.f[LG_DK_DISCARD_MS], 15);
	assert_int_equal(d.f[LG_DK_FLUSHES], 0); /* absent: not there */
}

static void diskstats_20_fields(void **state)
{
	struct lg_disk d;

	(void)state;
	assert_int_equal(lg_diskstats_parse_line(
		" 254 0 vda 100 5 800 50 1000 10 16000 2000 2 1500 2100 4 0 64 2 300 90\n", &d), 0);
	assert_int_equal(d.nfields, 17);
	assert_int_equal(d.f[LG_DK_WRITES], 1000);
	assert_int_equal(d.f[LG_DK_FLUSHES], 300);
	assert_int_equal(d.f[LG_DK_FLUSH_MS], 90);
}

static void diskstats_bad_lines(void **state)
{
	struct lg_disk d;

	(void)state;
	/* 16 fields, 21 fields, a word among the numbers, no name */
	assert_int_equal(lg_diskstats_parse_line("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13", &d), -EINVAL);
	assert_int_equal(lg_diskstats_parse_line(
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18", &d), -EINVAL);
	assert_int_equal(lg_diskstats_parse_line("8 0 sda 1 2 x 4 5 6 7 8 9 10 11", &d), -EINVAL);
	assert_int_equal(lg_diskstats_parse_line("8 0", &d), -EINVAL);
	assert_int_equal(lg_diskstats_find("8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n", "sdb", &d), -ENOENT);
	/* the partition vda1 is not the disk vda */
	assert_int_equal(lg_diskstats_find("254 1 vda1 1 1 1 1 1 1 1 1 1 1 1\n"
					   "254 0 vda 2 2 2 2 2 2 2 2 2 2 2\n", "vda", &d), 0);
	assert_int_equal(d.f[LG_DK_READS], 2);
}

static void disk_rates_by_hand(void **state)
{
	struct lg_disk a, b;
	struct lg_disk_rates r;

	(void)state;
	lg_diskstats_parse_line("254 0 vda 100 5 800 50 1000 10 16000 2000 2 1500 2100 4 0 64 2 300 90", &a);
	lg_diskstats_parse_line("254 0 vda 300 5 2400 150 1800 10 32000 3600 3 2500 5100 6 0 80 4 400 140", &b);
	assert_int_equal(lg_disk_rates(&a, &b, 2.0, &r), 0);
	assert_float_equal(r.read_iops, 100, EPS);           /* 200 reads / 2 s */
	assert_float_equal(r.write_iops, 400, EPS);          /* 800 writes / 2 s */
	assert_float_equal(r.read_mbps, 0.4096, EPS);        /* 1600 * 512 B / 2 s */
	assert_float_equal(r.write_mbps, 4.096, EPS);        /* 16000 * 512 B / 2 s */
	assert_float_equal(r.util_pct, 50, EPS);             /* 1000 ms busy of 2000 */
	assert_float_equal(r.queue_depth, 1.5, EPS);         /* 3000 ms weighted / 2000 */
	assert_float_equal(r.read_await_ms, 0.5, EPS);       /* 100 ms / 200 reads */
	assert_float_equal(r.write_await_ms, 2.0, EPS);      /* 1600 ms / 800 writes */
	assert_true(r.have_discard && r.have_flush);
	assert_float_equal(r.discard_iops, 1, EPS);          /* 2 / 2 s */
	assert_float_equal(r.flush_iops, 50, EPS);           /* 100 / 2 s */
	assert_float_equal(r.flush_await_ms, 0.5, EPS);      /* 50 ms / 100 flushes */
	/* shapes must match; the interval must be positive */
	lg_diskstats_parse_line("8 0 sda 10 0 80 5 20 0 160 10 0 12 15", &b);
	assert_int_equal(lg_disk_rates(&a, &b, 2.0, &r), -EINVAL);
	assert_int_equal(lg_disk_rates(&a, &a, 0, &r), -EINVAL);
	/* a 14-field line: no discard or flush figures, no await without requests */
	lg_diskstats_parse_line("8 0 sda 20 0 160 15 20 0 160 10 0 20 25", &a);
	assert_int_equal(lg_disk_rates(&b, &a, 1.0, &r), 0);
	assert_false(r.have_discard || r.have_flush);
	assert_float_equal(r.read_await_ms, 1.0, EPS);       /* 10 ms / 10 reads */
	assert_true(isnan(r.write_await_ms));
}

/* --- PSI, vmstat, stat --- */

static void psi_lines(void **state)
{
	struct lg_psi p;

	(void)state;
	assert_int_equal(lg_psi_parse("some avg10=1.00 avg60=0.50 avg300=0.10 total=1250000\n"
				      "full avg10=0.50 avg60=0.20 avg300=0.05 total=500000\n", &p), 0);
	assert_true(p.have_some && p.have_full);
	assert_int_equal(p.some_us, 1250000);
	assert_int_equal(p.full_us, 500000);
	/* cpu before 5.13: no full line, which is absent, not 0 */
	assert_int_equal(lg_psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=9000\n", &p), 0);
	assert_true(p.have_some);
	assert_false(p.have_full);
	assert_int_equal(lg_psi_parse("nothing here\n", &p), -EINVAL);
	assert_int_equal(lg_psi_parse("some avg10=0.00 total=12x\n", &p), -EINVAL);
}

static void vmstat_text(void **state)
{
	struct lg_vmstat a, b;
	uint64_t v;
	json_t *d;

	(void)state;
	assert_int_equal(lg_vmstat_parse("nr_dirty 250\nbogus\npgpgout 500\nnr_free_pages 10\n", &a), 0);
	assert_int_equal(a.n, 3);
	assert_int_equal(lg_vmstat_get(&a, "pgpgout", &v), 0);
	assert_int_equal(v, 500);
	assert_int_equal(lg_vmstat_get(&a, "nr_throttled_written", &v), -ENOENT);
	assert_int_equal(lg_vmstat_parse("nr_dirty 750\npgpgout 500\nnr_free_pages 4\nnew_one 3\n", &b), 0);
	/* every counter that changed, signed; unchanged and new ones are left out */
	d = lg_vmstat_diff_json(&a, &b);
	assert_int_equal(json_object_size(d), 2);
	assert_int_equal(json_integer_value(json_object_get(d, "nr_dirty")), 500);
	assert_int_equal(json_integer_value(json_object_get(d, "nr_free_pages")), -6);
	json_decref(d);
	lg_vmstat_clear(&a);
	lg_vmstat_clear(&b);
}

static void cpu_percent_by_hand(void **state)
{
	struct lg_cpustat a, b;
	double pct[LG_CPU_STATES];

	(void)state;
	assert_int_equal(lg_cpustat_parse("cpu  1000 10 500 8000 200 5 15 20 0 0\nctxt 50000\n"
					  "procs_running 3\nprocs_blocked 1\n", &a), 0);
	assert_int_equal(lg_cpustat_parse("cpu  1300 10 700 8400 250 5 35 50 0 0\nctxt 52500\n"
					  "procs_running 5\nprocs_blocked 2\n", &b), 0);
	assert_int_equal(b.procs_blocked, 2);
	/* deltas 300 0 200 400 50 0 20 30: 1000 ticks */
	assert_int_equal(lg_cpu_percent(&a, &b, pct), 0);
	assert_float_equal(pct[LG_CPU_USER], 30, EPS);
	assert_float_equal(pct[LG_CPU_SYSTEM], 20, EPS);
	assert_float_equal(pct[LG_CPU_IDLE], 40, EPS);
	assert_float_equal(pct[LG_CPU_IOWAIT], 5, EPS);
	assert_float_equal(pct[LG_CPU_SOFTIRQ], 2, EPS);
	assert_float_equal(pct[LG_CPU_STEAL], 3, EPS);
	assert_int_equal(lg_cpu_percent(&a, &a, pct), -ERANGE);
	assert_int_equal(lg_cpustat_parse("intr 1\n", &a), -EINVAL);
}

/* --- two canned snapshots through the sampler and the JSON --- */

static double num(const json_t *sys, const char *group, const char *key)
{
	const json_t *v = json_object_get(json_object_get(sys, group), key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static bool has(const json_t *sys, const char *group, const char *key)
{
	return json_object_get(json_object_get(sys, group), key) != NULL;
}

static void sample(const char *snap, uint64_t t_ns, struct lg_sysmon **m, struct lg_sys_sample *s)
{
	static const char *const disks[] = { "vda", "sda", "nvme9n9" };
	char root[512];

	snprintf(root, sizeof(root), "%s/tests/data/proc/%s", LG_SOURCE_DIR, snap);
	assert_int_equal(lg_sysmon_create(root, disks, 3, m), 0);
	assert_int_equal(lg_sysmon_sample(*m, t_ns, s), 0);
}

static void canned_interval(void **state)
{
	struct lg_sysmon *ma, *mb;
	struct lg_sys_sample a, b;
	json_t *sys;

	(void)state;
	sample("a", 1000000000ull, &ma, &a);
	sample("b", 3000000000ull, &mb, &b);
	assert_false(b.have_disk[2]); /* nvme9n9 is in neither */
	sys = lg_sys_interval_json(ma, &a, &b);
	assert_non_null(sys);
	assert_float_equal(json_number_value(json_object_get(sys, "seconds")), 2.0, EPS);
	assert_float_equal(num(sys, "gauges", "cpu.user_pct"), 30, EPS);
	assert_float_equal(num(sys, "gauges", "cpu.iowait_pct"), 5, EPS);
	assert_float_equal(num(sys, "counters", "cpu.ctxt"), 2500, EPS);
	assert_float_equal(num(sys, "gauges", "procs_running"), 5, EPS);
	assert_float_equal(num(sys, "counters", "psi.io.some_us"), 250000, EPS);
	assert_float_equal(num(sys, "counters", "psi.io.full_us"), 100000, EPS);
	assert_float_equal(num(sys, "counters", "psi.cpu.some_us"), 2000, EPS);
	assert_false(has(sys, "counters", "psi.cpu.full_us"));    /* no full line */
	assert_false(has(sys, "counters", "psi.memory.some_us")); /* no file */
	assert_float_equal(num(sys, "gauges", "meminfo.dirty_kib"), 3000, EPS);
	assert_float_equal(num(sys, "gauges", "meminfo.writeback_kib"), 100, EPS);
	assert_float_equal(num(sys, "gauges", "meminfo.cached_kib"), 60000, EPS);
	assert_float_equal(num(sys, "gauges", "meminfo.available_kib"), 880000, EPS);
	assert_float_equal(num(sys, "gauges", "vmstat.nr_dirty"), 750, EPS);
	assert_float_equal(num(sys, "counters", "vmstat.nr_dirtied"), 750, EPS);
	assert_float_equal(num(sys, "counters", "vmstat.nr_written"), 600, EPS);
	assert_float_equal(num(sys, "counters", "vmstat.pgpgout"), 2400, EPS);
	assert_float_equal(num(sys, "counters", "vmstat.allocstall_normal"), 2, EPS);
	assert_float_equal(num(sys, "counters", "vmstat.allocstall_movable"), 0, EPS);
	assert_false(has(sys, "counters", "vmstat.nr_throttled_written")); /* not in this kernel */
	assert_false(has(sys, "counters", "vmstat.workingset_refault_file"));
	assert_float_equal(num(sys, "counters", "disk.vda.writes"), 800, EPS);
	assert_float_equal(num(sys, "counters", "disk.vda.flushes"), 100, EPS);
	assert_float_equal(num(sys, "gauges", "disk.vda.util_pct"), 50, EPS);
	assert_float_equal(num(sys, "gauges", "disk.vda.queue_depth"), 1.5, EPS);
	assert_float_equal(num(sys, "gauges", "disk.vda.write_await_ms"), 2.0, EPS);
	assert_float_equal(num(sys, "gauges", "disk.vda.flush_await_ms"), 0.5, EPS);
	assert_float_equal(num(sys, "gauges", "disk.vda.in_flight"), 3, EPS);
	assert_float_equal(num(sys, "gauges", "disk.sda.read_await_ms"), 1.0, EPS);
	assert_false(has(sys, "gauges", "disk.sda.write_await_ms")); /* no write completed */
	assert_false(has(sys, "counters", "disk.sda.flushes"));      /* 14-field line */
	assert_false(has(sys, "counters", "disk.sda.discards"));
	assert_false(has(sys, "counters", "disk.nvme9n9.reads"));
	/* the canned cgroup v2 group /lg.slice/h1 has a cpu.pressure only */
	assert_string_equal(lg_sysmon_cgroup(ma), "/lg.slice/h1");
	assert_float_equal(num(sys, "counters", "cgroup.psi.cpu.some_us"), 1800000, EPS);
	assert_float_equal(num(sys, "counters", "cgroup.psi.cpu.full_us"), 1600000, EPS);
	assert_false(has(sys, "counters", "cgroup.psi.io.some_us"));
	json_decref(sys);
	lg_sys_sample_clear(&a);
	lg_sys_sample_clear(&b);
	lg_sysmon_destroy(ma);
	lg_sysmon_destroy(mb);
}

/* Which cgroup's pressure is read: the v2 group of /proc/self/cgroup under the cgroup2
 * mount, never the root (its pressure is /proc/pressure's). */
static void cgroup_dir(void **state)
{
	static const char *const mounts = "proc /proc proc rw 0 0\n"
					  "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n";
	char dir[256];
	size_t rel = 0;

	(void)state;
	assert_int_equal(lg_cgroup_dir("0::/user.slice/x.scope\n", mounts, dir, sizeof(dir),
				       &rel), 0);
	assert_string_equal(dir, "/sys/fs/cgroup/user.slice/x.scope");
	assert_string_equal(dir + rel, "/user.slice/x.scope");
	assert_int_equal(lg_cgroup_dir("1:cpu:/a\n0::/h1", mounts, dir, sizeof(dir), &rel), 0);
	assert_string_equal(dir, "/sys/fs/cgroup/h1");
	assert_int_equal(lg_cgroup_dir("0::/\n", mounts, dir, sizeof(dir), &rel), -ENOENT);
	assert_int_equal(lg_cgroup_dir("1:cpu:/a\n", mounts, dir, sizeof(dir), &rel), -ENOENT);
	assert_int_equal(lg_cgroup_dir("0::/gone (deleted)\n", mounts, dir, sizeof(dir), &rel),
			 -ENOENT);
	assert_int_equal(lg_cgroup_dir("0::/h1\n", "proc /proc proc rw 0 0\n", dir, sizeof(dir),
				       &rel), -ENOENT);
	assert_int_equal(lg_cgroup_dir("0::/h1\n", mounts, dir, 8, &rel), -ENAMETOOLONG);
}

static void summary_print(void **state)
{
	json_t *s = json_pack("{s:f, s:{s:i, s:i}, s:{s:f, s:f}}", "seconds", 2.0, "counters",
			      "cpu.ctxt", 2500, "disk.vda.reads", 200, "gauges", "cpu.user_pct", 30.0,
			      "disk.vda.util_pct", 50.0);
	char buf[2048] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	lg_sys_summary_print(f, s);
	fclose(f);
	assert_non_null(strstr(buf, "user 30.0%"));
	assert_non_null(strstr(buf, "cs/s 1250")); /* 2500 / 2 s */
	assert_non_null(strstr(buf, "Disk vda"));
	assert_non_null(strstr(buf, "util 50%"));
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diskstats_14_fields),
		cmocka_unit_test(diskstats_18_fields),
		cmocka_unit_test(diskstats_20_fields),
		cmocka_unit_test(diskstats_bad_lines),
		cmocka_unit_test(disk_rates_by_hand),
		cmocka_unit_test(psi_lines),
		cmocka_unit_test(vmstat_text),
		cmocka_unit_test(cpu_percent_by_hand),
		cmocka_unit_test(canned_interval),
		cmocka_unit_test(cgroup_dir),
		cmocka_unit_test(summary_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
