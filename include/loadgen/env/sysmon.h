/* System counters sampled once per interval by the master: CPU time, pressure stall
 * information, dirty data and writeback, reclaim, and the target's block devices.
 *
 * Two halves. The parsers and the arithmetic (sysmon_parse.c) are pure: they take the
 * text of a /proc file, or two samples and the seconds between them, so tests feed canned
 * snapshots. The sampler (sysmon.c) reads the running system: /proc/stat and
 * /proc/meminfo through procps' libproc2 (the readers behind vmstat(8) and free(1)), the
 * rest through the parsers here, from files under a root prefix ("/" normally, a canned
 * tree under tests/data/proc in tests).
 *
 * A counter the kernel does not have is absent (its `have` flag false), never zero. */
#ifndef LOADGEN_SYSMON_H
#define LOADGEN_SYSMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define LG_CPU_STATES 8       /* user nice system idle iowait irq softirq steal */
#define LG_DISK_FIELDS 17     /* counters of a 20-field /proc/diskstats line */
#define LG_SYSMON_DISKS 8     /* block devices followed (the target's chain) */
#define LG_VM_NAME_MAX 64     /* longest /proc/vmstat name kept */

/* The CPU time states of /proc/stat's "cpu" line, in its order. */
enum lg_cpu_state {
	LG_CPU_USER, LG_CPU_NICE, LG_CPU_SYSTEM, LG_CPU_IDLE, LG_CPU_IOWAIT, LG_CPU_IRQ,
	LG_CPU_SOFTIRQ, LG_CPU_STEAL
};

/* Names of the CPU states as JSON keys use them ("user", "iowait", ...). */
extern const char *const lg_cpu_state_names[LG_CPU_STATES];

/* The fields of a /proc/diskstats line after major, minor and name, in its order
 * (Documentation/admin-guide/iostats.rst). 14-field lines stop after TIME_IN_QUEUE,
 * 18-field lines (4.18+) after DISCARD_TICKS, 20-field lines (5.5+) have all. */
enum lg_disk_field {
	LG_DK_READS, LG_DK_READS_MERGED, LG_DK_READ_SECTORS, LG_DK_READ_MS,
	LG_DK_WRITES, LG_DK_WRITES_MERGED, LG_DK_WRITE_SECTORS, LG_DK_WRITE_MS,
	LG_DK_IN_FLIGHT, LG_DK_IO_MS, LG_DK_QUEUE_MS,
	LG_DK_DISCARDS, LG_DK_DISCARDS_MERGED, LG_DK_DISCARD_SECTORS, LG_DK_DISCARD_MS,
	LG_DK_FLUSHES, LG_DK_FLUSH_MS
};

/* One pressure file (/proc/pressure/io, memory or cpu). */
struct lg_psi {
	bool have_some;    /* the "some" line was there */
	bool have_full;    /* the "full" line was there (cpu has it only from 5.13) */
	uint64_t some_us;  /* total stall time of some tasks, µs since boot */
	uint64_t full_us;  /* total stall time of all non-idle tasks, µs since boot */
};

/* Which pressure resource. */
enum lg_psi_res { LG_PSI_IO, LG_PSI_MEMORY, LG_PSI_CPU, LG_PSI_NRES };

/* Names of the pressure resources ("io", "memory", "cpu"). */
extern const char *const lg_psi_names[LG_PSI_NRES];

/* One block device's line of /proc/diskstats. */
struct lg_disk {
	char name[32];                 /* kernel name ("vda", "nvme0n1") */
	unsigned nfields;              /* counters present: 11, 15 or 17 */
	uint64_t f[LG_DISK_FIELDS];    /* by enum lg_disk_field; beyond nfields: absent */
};

/* One name = value line of /proc/vmstat. */
struct lg_vm_counter {
	char name[LG_VM_NAME_MAX]; /* counter name */
	uint64_t value;            /* its value (pages or events) */
};

/* Every counter of /proc/vmstat, in file order. */
struct lg_vmstat {
	struct lg_vm_counter *c; /* n entries (owned; lg_vmstat_clear frees) */
	size_t n;                /* entries in c */
};

/* What /proc/meminfo says, in KiB. */
struct lg_meminfo {
	bool have;               /* the file was read */
	uint64_t dirty_kib;      /* Dirty */
	uint64_t writeback_kib;  /* Writeback */
	uint64_t cached_kib;     /* Cached */
	uint64_t available_kib;  /* MemAvailable */
};

/* What /proc/stat says. */
struct lg_cpustat {
	bool have;                       /* the file was read */
	uint64_t ticks[LG_CPU_STATES];   /* USER_HZ ticks since boot, all CPUs */
	uint64_t ctxt;                   /* context switches since boot */
	uint64_t procs_running;          /* runnable tasks now */
	uint64_t procs_blocked;          /* tasks blocked on I/O now */
};

/* One sample of everything, taken at t_ns. */
struct lg_sys_sample {
	uint64_t t_ns;                        /* CLOCK_MONOTONIC when it was taken */
	struct lg_cpustat cpu;                /* /proc/stat */
	struct lg_psi psi[LG_PSI_NRES];       /* /proc/pressure/ *; absent where no PSI */
	struct lg_psi cg_psi[LG_PSI_NRES];    /* <res>.pressure of the cgroup (v2) we run in,
						 when that is not the root; else absent */
	struct lg_meminfo mem;                /* /proc/meminfo */
	struct lg_vmstat vm;                  /* /proc/vmstat (owned) */
	struct lg_disk disks[LG_SYSMON_DISKS]; /* the followed devices' lines */
	bool have_disk[LG_SYSMON_DISKS];      /* the device's line was found */
};

/* --- Parsers (pure) --- */

/* Parse the text of /proc/pressure/<res>. Returns 0, or -EINVAL when neither line is
 * there (out then has nothing). */
int lg_psi_parse(const char *text, struct lg_psi *out);
/* Parse one /proc/diskstats line (14, 18 or 20 fields; other counts are refused).
 * Returns 0 or -EINVAL. */
int lg_diskstats_parse_line(const char *line, struct lg_disk *out);
/* Find the line of device name in the text of /proc/diskstats. 0, -ENOENT, -EINVAL. */
int lg_diskstats_find(const char *text, const char *name, struct lg_disk *out);
/* Parse the text of /proc/vmstat into out (lg_vmstat_clear frees). Malformed lines are
 * skipped. Returns 0 or -ENOMEM. */
int lg_vmstat_parse(const char *text, struct lg_vmstat *out);
/* The counter called name: 0 with *v set, or -ENOENT. */
int lg_vmstat_get(const struct lg_vmstat *vm, const char *name, uint64_t *v);
void lg_vmstat_clear(struct lg_vmstat *vm);
/* The directory of the cgroup v2 group we run in, from the texts of /proc/self/cgroup
 * (its "0::/path" line) and /proc/self/mounts (where cgroup2 is mounted), into out
 * (mount point + path; *rel: where the path starts in out). 0, or -ENOENT when there is
 * no v2 group or it is the root (whose pressure is the system's, /proc/pressure),
 * -ENAMETOOLONG. */
int lg_cgroup_dir(const char *cgroup, const char *mounts, char *out, size_t len, size_t *rel);
/* Parse /proc/stat's text ("cpu" line, ctxt, procs_running, procs_blocked); used on
 * canned snapshots and where libproc2 is missing. 0 or -EINVAL. */
int lg_cpustat_parse(const char *text, struct lg_cpustat *out);

/* --- Arithmetic of two samples --- */

/* Share of each CPU state in the ticks between a and b, in %, into pct. Returns 0, or
 * -ERANGE when no tick passed (pct untouched). */
int lg_cpu_percent(const struct lg_cpustat *a, const struct lg_cpustat *b,
		   double pct[LG_CPU_STATES]);

/* What a block device did between two samples secs apart. */
struct lg_disk_rates {
	double read_iops, write_iops;   /* completed requests per second */
	double read_mbps, write_mbps;   /* 10^6 bytes per second (512-byte sectors) */
	double util_pct;                /* time with I/O in flight, % of the interval */
	double queue_depth;             /* weighted time in queue / interval: mean requests */
	double read_await_ms;           /* mean time of a read (queue + service), or NaN */
	double write_await_ms;          /* same for writes, or NaN */
	bool have_flush;                /* the kernel counts flushes (20-field lines) */
	double flush_iops;              /* flushes per second (have_flush) */
	double flush_await_ms;          /* mean time of a flush, or NaN (have_flush) */
	bool have_discard;              /* the kernel counts discards (18+ fields) */
	double discard_iops;            /* discards per second (have_discard) */
};

/* Rates of device a → b over secs > 0. Returns 0, or -EINVAL when the two lines differ
 * in shape or secs is not positive. */
int lg_disk_rates(const struct lg_disk *a, const struct lg_disk *b, double secs,
		  struct lg_disk_rates *out);

/* --- The live sampler --- */

struct lg_sysmon;

/* A sampler reading files under root ("/": the running system, /proc/stat and meminfo
 * through libproc2; anything else: a canned tree read with the parsers above) for the
 * block devices named in disks[0..ndisks) (at most LG_SYSMON_DISKS). Returns 0 or
 * -ENOMEM. */
int lg_sysmon_create(const char *root, const char *const *disks, size_t ndisks,
		     struct lg_sysmon **out);
void lg_sysmon_destroy(struct lg_sysmon *m);
/* Take a sample at t_ns; what cannot be read stays absent. Returns 0 or -ENOMEM. */
int lg_sysmon_sample(struct lg_sysmon *m, uint64_t t_ns, struct lg_sys_sample *out);
/* The cgroup whose pressure is sampled as cgroup.psi.* ("/h1", relative to the cgroup2
 * mount), or NULL when none is (we run in the root group, or there is no cgroup v2). */
const char *lg_sysmon_cgroup(const struct lg_sysmon *m);
/* The names of the followed block devices. */
size_t lg_sysmon_disks(const struct lg_sysmon *m, const char *const **names);
void lg_sys_sample_clear(struct lg_sys_sample *s);

/* --- JSON of two samples (sysmon_json.c) --- */

/* The "sys" object of the interval a → b: {"counters": {...}, "gauges": {...}} with the
 * dotted key families documented in docs/results.md (cpu.*, psi.*, meminfo.*, vmstat.*,
 * disk.NAME.*). Counters are deltas a → b, gauges are b's values or rates over a → b.
 * New reference, or NULL on -ENOMEM. */
json_t *lg_sys_interval_json(const struct lg_sysmon *m, const struct lg_sys_sample *a,
			     const struct lg_sys_sample *b);
/* Every /proc/vmstat counter that differs between a and b: {name: b - a}. */
json_t *lg_vmstat_diff_json(const struct lg_vmstat *a, const struct lg_vmstat *b);

/* The short block of the text report from a "sys_summary" object (sysmon_print.c):
 * CPU, pressure, dirty data, writeback, reclaim and each device; absent numbers are not
 * printed. */
void lg_sys_summary_print(FILE *out, const json_t *summary);

#endif
