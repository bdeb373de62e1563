/* What a run ran on: kernel, CPU, memory, the target's filesystem and the block device
 * under it, and the build. Gathered once, off the hot path, so that two results can be
 * compared honestly ("env" in the result JSON, a short header in the text output).
 *
 * A fact that cannot be read is recorded as the string "unknown" (JSON null for numbers
 * and booleans), never guessed. The parsers take the text of /proc files and the root of
 * a sysfs tree as arguments, so tests can feed them made-up machines. */
#ifndef LOADGEN_SYSINFO_H
#define LOADGEN_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>

#define LG_UNKNOWN "unknown"   /* the value of any string fact that could not be read */
#define LG_BLOCK_CHAIN_MAX 8   /* device layers followed (dm over md over partition...) */
#define LG_BLOCK_NAME_MAX 32   /* a kernel disk name ("nvme0n1p2") fits, as DISK_NAME_LEN */

/* The mount that holds a path, as /proc/self/mountinfo describes it. The strings are
 * owned by the struct (lg_mount_clear frees them). */
struct lg_mount {
	unsigned major, minor; /* device number of the filesystem, as mountinfo shows it */
	bool dev_match;        /* that number is the st_dev that was asked for */
	char *root;            /* directory of the filesystem mounted here: "/" for the whole
				* filesystem, a subdirectory for bind mounts and btrfs subvolumes */
	char *mount_point;     /* where it is mounted, octal escapes (\040) decoded */
	char *fs_type;         /* "ext4", "tmpfs", "fuse.sshfs" */
	char *source;          /* "/dev/vda1", "tmpfs", "server:/export" */
	char *options;         /* per-mount options, then the superblock's not already listed */
};

/* The block device under a filesystem, as sysfs describes it. Strings are "" when
 * unknown. */
struct lg_blockdev {
	char name[LG_BLOCK_NAME_MAX];   /* the disk described below ("sda"); partitions lead to
					 * their disk, dm/md devices with one member to it */
	char chain[LG_BLOCK_CHAIN_MAX][LG_BLOCK_NAME_MAX]; /* from the mounted device down to
							    * name: "dm-0", "sda2", "sda" */
	unsigned nchain;                /* entries in chain */
	unsigned members;               /* members of name when it is an aggregate (md RAID, dm
					 * over several devices) and was not followed; else 0 */
	char model[128];                /* device/model (or device/name), trimmed */
	char vendor[64];                /* device/vendor, trimmed */
	char driver[64];                /* the driver bound to device/ ("sd", "virtio_blk") */
	char scheduler[32];             /* the I/O scheduler in use, the [bracketed] one */
	int rotational;                 /* queue/rotational: 1, 0, or -1 unknown */
	long queue_depth;               /* queue/nr_requests, or -1 unknown */
};

/* --- Parsers of /proc text (pure: no file access) --- */

/* Find the mount through which path is reached, in the text of a /proc/PID/mountinfo.
 * path must be absolute and canonical (realpath). The mount tree is walked the way path
 * lookup crosses mounts: in practice the longest mount point that prefixes path, the
 * last entry when mounts are stacked; among entries at the same point the one whose
 * major:minor equals dev is preferred. out is filled (free with lg_mount_clear).
 * Returns 0, -ENOENT when no mount contains path, -EINVAL for a relative path, -ENOMEM.
 * Malformed lines are skipped. */
int lg_mountinfo_find(const char *mountinfo_text, dev_t dev, const char *path,
		      struct lg_mount *out);
/* Free the strings of m and zero it. NULL is fine. */
void lg_mount_clear(struct lg_mount *m);
/* The CPU model in the text of /proc/cpuinfo: "model name" (x86, some ARM), "cpu model"
 * (MIPS), "Processor" (32-bit ARM), "cpu" (POWER), "uarch" (RISC-V), or "CPU implementer"
 * with "CPU part" (arm64, written as "CPU implementer 0x41 part 0xd0c"), of the first CPU;
 * runs of blanks are squeezed. Returns 0, or -ENOENT (buf gets "unknown"). */
int lg_cpuinfo_model(const char *cpuinfo_text, char *buf, size_t len);
/* MemTotal in the text of /proc/meminfo, in bytes. Returns 0 or -ENOENT. */
int lg_meminfo_total(const char *meminfo_text, uint64_t *bytes);

/* --- Readers of the running system --- */

/* The whole file at path, NUL-terminated, in *out (the caller frees); made for /proc
 * files, which report size 0. Returns 0, -EFBIG past 64 MiB, -ENOMEM, or the negative
 * errno of open/read. */
int lg_sysinfo_slurp(const char *path, char **out);

/* Describe the block device major:minor under sysfs_root ("/sys", or a fake tree in
 * tests): follow a partition to its disk and a dm/md device with a single member to that
 * member, then read the disk's queue and device attributes. Returns 0, or -ENOENT when
 * major:minor is not a block device there (tmpfs, overlay, nfs, btrfs anonymous devices);
 * out is then left with every field unknown. */
int lg_blockdev_find(const char *sysfs_root, unsigned major, unsigned minor,
		     struct lg_blockdev *out);

/* The block device under directory dir, found as the result's env finds it: by the
 * device number of dir's mount, else by the device the mount names (btrfs shows files
 * an anonymous device number), else by dir's st_dev. 0, or -ENOENT with out all unknown
 * (tmpfs, nfs, or dir cannot be resolved). */
int lg_dir_blockdev(const char *dir, struct lg_blockdev *out);

/* Build the result's "env" object, describing this machine, the filesystem and device
 * that hold target_dir (NULL: "."), this build of loadgen, the command line argv[0..argc)
 * (joined shell-quoted into one string) and start, the CLOCK_REALTIME start of the run
 * (NULL: now). Keys: loadgen_version, git_describe, compiler, command_line, start_time,
 * hostname, kernel, kernel_version, arch, cpu_model, cpus, cpus_allowed, mem_total_bytes,
 * target_dir, fs_type, mount_point, mount_root, mount_options, device, block_device,
 * block_chain, block_members, model, vendor, driver, rotational, scheduler, queue_depth.
 * *out gets a new reference (the caller's). Facts that cannot be read are "unknown" or
 * null and are not errors. Returns 0 or -ENOMEM. */
/* The commit loadgen was built from (git describe --always --dirty at build time), NULL
 * when it was not built from a git checkout. */
const char *lg_sysinfo_git_describe(void);
int lg_sysinfo_json(const char *target_dir, int argc, char *const argv[],
		    const struct timespec *start, json_t **out);
/* Print the short header of the text output from an "env" object: one line for
 * loadgen, kernel, CPUs and memory, one for the target's filesystem and device. Missing
 * keys print as "unknown". */
void lg_sysinfo_print(FILE *out, const json_t *env);
/* The same in one line, for -q: loadgen's version, the kernel, and the target's
 * directory, filesystem, device and disk. */
void lg_sysinfo_print_short(FILE *out, const json_t *env);

#endif
