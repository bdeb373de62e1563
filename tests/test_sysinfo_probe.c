/* Unit tests of sysinfo_probe.c: the /proc parsers fed made-up machines (escaped,
 * stacked, hidden and bind mounts, btrfs subvolumes, other architectures' cpuinfo) and
 * the block device walk on a fake sysfs tree. */
#include "loadgen/env/sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

/* --- mountinfo --- */

static const char basic[] =
	"22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	"27 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro\n"
	"30 27 0:30 / /tmp rw,nosuid,nodev shared:5 master:2 - tmpfs tmpfs rw,size=1024k\n"
	"31 27 8:3 / /home rw,noatime - xfs /dev/sda3 rw,attr2,inode64\n";

static void find(const char *text, unsigned maj, unsigned min, const char *path,
		 struct lg_mount *m)
{
	assert_int_equal(lg_mountinfo_find(text, makedev(maj, min), path, m), 0);
}

static void test_mountinfo_basic(void **state)
{
	struct lg_mount m;

	(void)state;
	find(basic, 8, 3, "/home/u/x", &m);
	assert_string_equal(m.mount_point, "/home");
	assert_string_equal(m.fs_type, "xfs");
	assert_string_equal(m.source, "/dev/sda3");
	assert_string_equal(m.options, "rw,noatime,attr2,inode64");
	assert_string_equal(m.root, "/");
	assert_int_equal(m.major, 8);
	assert_int_equal(m.minor, 3);
	assert_true(m.dev_match);
	lg_mount_clear(&m);
	/* optional fields (shared:, master:) are skipped; "rw" is not repeated */
	find(basic, 0, 30, "/tmp", &m);
	assert_string_equal(m.fs_type, "tmpfs");
	assert_string_equal(m.options, "rw,nosuid,nodev,size=1024k");
	lg_mount_clear(&m);
	/* /homework is not under /home: prefixes count whole components */
	find(basic, 8, 1, "/homework", &m);
	assert_string_equal(m.mount_point, "/");
	assert_string_equal(m.options, "rw,relatime,errors=remount-ro");
	lg_mount_clear(&m);
	find(basic, 8, 1, "/", &m);
	assert_string_equal(m.fs_type, "ext4");
	lg_mount_clear(&m);
	lg_mount_clear(&m); /* twice, and NULL, are fine */
	lg_mount_clear(NULL);
}

static void test_mountinfo_escapes(void **state)
{
	static const char text[] =
		"27 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		"40 27 8:17 / /mnt/my\\040disk rw - vfat /dev/sdb1 rw\n"
		"41 27 8:33 / /mnt/back\\134slash\\011tab rw - ext4 /dev/my\\040dev rw\n";
	struct lg_mount m;

	(void)state;
	find(text, 8, 17, "/mnt/my disk/photos", &m);
	assert_string_equal(m.mount_point, "/mnt/my disk");
	assert_string_equal(m.fs_type, "vfat");
	lg_mount_clear(&m);
	find(text, 8, 33, "/mnt/back\\slash\ttab", &m);
	assert_string_equal(m.mount_point, "/mnt/back\\slash\ttab");
	assert_string_equal(m.source, "/dev/my dev");
	lg_mount_clear(&m);
	/* the escaped text itself is not a path that matches */
	find(text, 8, 1, "/mnt/my\\040disk", &m);
	assert_string_equal(m.mount_point, "/");
	lg_mount_clear(&m);
}

/* /mnt gets A (ext4), then /mnt/sub B on A, then C (tmpfs) stacked on /mnt: C covers A
 * and hides B, so /mnt/sub/x is on C even though B's mount point is longer. */
static void test_mountinfo_stacked(void **state)
{
	static const char text[] =
		"27 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		"40 27 8:5 / /mnt rw - ext4 /dev/sda5 rw\n"
		"42 40 8:6 / /mnt/sub rw - ext4 /dev/sda6 rw\n"
		"41 40 0:50 / /mnt rw - tmpfs none rw\n"
		"43 41 0:51 / /mnt/other rw - tmpfs two rw\n";
	struct lg_mount m;

	(void)state;
	find(text, 0, 50, "/mnt/sub/x", &m);
	assert_string_equal(m.fs_type, "tmpfs");
	assert_string_equal(m.source, "none");
	assert_true(m.dev_match);
	lg_mount_clear(&m);
	find(text, 0, 50, "/mnt", &m);
	assert_string_equal(m.source, "none");
	lg_mount_clear(&m);
	/* a mount on top of the stacked one is followed */
	find(text, 0, 51, "/mnt/other/y", &m);
	assert_string_equal(m.source, "two");
	lg_mount_clear(&m);
}

/* Two entries on the same point under the same parent (as propagation can leave): the
 * later wins unless only the earlier has the target's device. */
static void test_mountinfo_same_point_dev(void **state)
{
	static const char text[] =
		"27 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		"50 27 8:16 / /data rw - ext4 /dev/sdb rw\n"
		"51 27 8:32 / /data rw - ext4 /dev/sdc rw\n";
	struct lg_mount m;

	(void)state;
	find(text, 8, 16, "/data/f", &m);
	assert_string_equal(m.source, "/dev/sdb");
	assert_true(m.dev_match);
	lg_mount_clear(&m);
	find(text, 8, 32, "/data/f", &m);
	assert_string_equal(m.source, "/dev/sdc");
	lg_mount_clear(&m);
	find(text, 9, 9, "/data/f", &m);
	assert_string_equal(m.source, "/dev/sdc"); /* neither: the later one */
	assert_false(m.dev_match);
	lg_mount_clear(&m);
}

/* A bind mount shows the same device and the source directory as its root. */
static void test_mountinfo_bind(void **state)
{
	static const char text[] =
		"27 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
		"60 27 8:1 /srv/www /var/www rw,nosuid - ext4 /dev/sda1 rw\n";
	struct lg_mount m;

	(void)state;
	find(text, 8, 1, "/var/www/html", &m);
	assert_string_equal(m.mount_point, "/var/www");
	assert_string_equal(m.root, "/srv/www");
	assert_string_equal(m.options, "rw,nosuid");
	assert_true(m.dev_match);
	lg_mount_clear(&m);
}

/* btrfs: every subvolume mount shows the filesystem's number, but files report their
 * subvolume's anonymous device, which matches nothing. The path decides. */
static void test_mountinfo_btrfs(void **state)
{
	static const char text[] =
		"26 1 0:26 /@ / rw,noatime - btrfs /dev/nvme0n1p2 rw,ssd,space_cache=v2,subvolid=256,subvol=/@\n"
		"27 26 0:26 /@home /home rw,noatime - btrfs /dev/nvme0n1p2 rw,ssd,space_cache=v2,subvolid=257,subvol=/@home\n";
	struct lg_mount m;

	(void)state;
	find(text, 0, 44, "/home/u", &m);
	assert_string_equal(m.mount_point, "/home");
	assert_string_equal(m.root, "/@home");
	assert_string_equal(m.fs_type, "btrfs");
	assert_string_equal(m.source, "/dev/nvme0n1p2");
	assert_non_null(strstr(m.options, "subvol=/@home"));
	assert_false(m.dev_match);
	lg_mount_clear(&m);
	find(text, 0, 43, "/etc", &m);
	assert_string_equal(m.root, "/@");
	lg_mount_clear(&m);
}

static void test_mountinfo_bad_input(void **state)
{
	static const char junk[] =
		"\n"
		"garbage\n"
		"x 1 8:1 / / rw - ext4 /dev/sda1 rw\n"            /* id not a number */
		"27 1 8-1 / / rw - ext4 /dev/sda1 rw\n"           /* no major:minor */
		"27 1 8:1 / / rw shared:1 ext4 /dev/sda1 rw\n"    /* no separator */
		"27 1 8:1 / / rw -\n"                             /* cut short */
		"27 1 8:1 relative / rw - ext4 /dev/sda1 rw\n";   /* root not absolute */
	static const char loop[] =  /* parents pointing at each other */
		"27 28 8:1 / / rw - ext4 /dev/a rw\n"
		"28 27 8:2 / / rw - ext4 /dev/b rw\n";
	struct lg_mount m;

	(void)state;
	assert_int_equal(lg_mountinfo_find("", makedev(8, 1), "/x", &m), -ENOENT);
	assert_null(m.mount_point);
	assert_int_equal(lg_mountinfo_find(junk, makedev(8, 1), "/x", &m), -ENOENT);
	assert_int_equal(lg_mountinfo_find(basic, makedev(8, 1), "relative", &m), -EINVAL);
	/* good lines after bad ones still count */
	char mixed[sizeof(junk) + sizeof(basic)];

	snprintf(mixed, sizeof(mixed), "%s%s", junk, basic);
	find(mixed, 8, 3, "/home", &m);
	assert_string_equal(m.fs_type, "xfs");
	lg_mount_clear(&m);
	/* no entry is outside the loop, so there is no place to start: not found, no hang */
	assert_int_equal(lg_mountinfo_find(loop, makedev(8, 1), "/x", &m), -ENOENT);
}

/* --- cpuinfo, meminfo --- */

static void test_cpuinfo(void **state)
{
	static const char x86[] =
		"processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
		"model\t\t: 85\nmodel name\t: Intel(R) Xeon(R)  Gold   6148 CPU @ 2.40GHz\n"
		"cpu MHz\t\t: 2400.000\n\nprocessor\t: 1\nmodel name\t: Other\n";
	static const char arm64[] =
		"processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n"
		"CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\n"
		"CPU part\t: 0xd0c\nCPU revision\t: 1\n";
	static const char ppc[] =
		"processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\n"
		"clock\t\t: 2200.000000MHz\n";
	static const char riscv[] =
		"processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc\nmmu\t\t: sv39\n"
		"uarch\t\t: sifive,u74-mc\n";
	static const char arm32[] = "Processor\t: ARMv7 Processor rev 4 (v7l)\nBogoMIPS : 38\n";
	static const char mips[] = "system type\t: X\ncpu model\t: MIPS 24Kc V7.4\n";
	char buf[128];

	(void)state;
	assert_int_equal(lg_cpuinfo_model(x86, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz");
	assert_int_equal(lg_cpuinfo_model(arm64, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "CPU implementer 0x41 part 0xd0c");
	assert_int_equal(lg_cpuinfo_model(ppc, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "POWER9 (architected), altivec supported");
	assert_int_equal(lg_cpuinfo_model(riscv, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "sifive,u74-mc");
	assert_int_equal(lg_cpuinfo_model(arm32, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ARMv7 Processor rev 4 (v7l)");
	assert_int_equal(lg_cpuinfo_model(mips, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "MIPS 24Kc V7.4");
	/* "cpu MHz", "cpu family" are not "cpu"; nothing known: unknown */
	assert_int_equal(lg_cpuinfo_model("cpu MHz : 1\ncpu family: 6\n", buf, sizeof(buf)),
			 -ENOENT);
	assert_string_equal(buf, "unknown");
	assert_int_equal(lg_cpuinfo_model("", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(lg_cpuinfo_model("model name\t:\n", buf, sizeof(buf)), -ENOENT);
	/* a small buffer truncates, never overflows */
	assert_int_equal(lg_cpuinfo_model(x86, buf, 6), 0);
	assert_string_equal(buf, "Intel");
}

static void test_meminfo(void **state)
{
	uint64_t b = 0;

	(void)state;
	assert_int_equal(lg_meminfo_total("MemTotal:       24683652 kB\nMemFree: 1 kB\n", &b), 0);
	assert_true(b == UINT64_C(24683652) * 1024);
	assert_int_equal(lg_meminfo_total("MemFree: 1 kB\nMemTotal: 2048\n", &b), 0);
	assert_true(b == 2048);
	assert_int_equal(lg_meminfo_total("MemFree: 1 kB\n", &b), -ENOENT);
	assert_int_equal(lg_meminfo_total("MemTotal: lots\n", &b), -ENOENT);
	assert_int_equal(lg_meminfo_total("MemTotal: 5 MB\n", &b), -ENOENT);
	assert_int_equal(lg_meminfo_total("", &b), -ENOENT);
}

/* --- the block device, on a fake sysfs --- */

static char sysfs[] = "/tmp/lg_sysinfo_testXXXXXX";

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	for (slash = strchr(path + strlen(sysfs) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		*slash = '/';
	}
	if (!text) {
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		return;
	}
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void link_to(const char *target, const char *rel)
{
	char path[PATH_MAX];

	put(rel, NULL); /* make the parents, then swap the directory for the link */
	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(symlink(target, path), 0);
}

static void disk(const char *dir, const char *rot, const char *sched, const char *nr)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/queue/rotational", dir);
	put(rel, rot);
	snprintf(rel, sizeof(rel), "%s/queue/scheduler", dir);
	put(rel, sched);
	snprintf(rel, sizeof(rel), "%s/queue/nr_requests", dir);
	put(rel, nr);
	snprintf(rel, sizeof(rel), "%s/slaves", dir);
	put(rel, NULL);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int make_sysfs(void **state)
{
	(void)state;
	if (!mkdtemp(sysfs))
		return -1;
	disk("devices/pci0/host0/block/sda", "0\n", "none [mq-deadline] kyber bfq\n", "64\n");
	put("devices/pci0/host0/block/sda/device/model", "Samsung SSD 860 \n");
	put("devices/pci0/host0/block/sda/device/vendor", "ATA     \n");
	link_to("../../../../../bus/scsi/drivers/sd", "devices/pci0/host0/block/sda/device/driver");
	put("devices/pci0/host0/block/sda/sda2/partition", "2\n");
	disk("devices/virtual/block/dm-0", "0\n", "none\n", "128\n");
	link_to("../../../../pci0/host0/block/sda/sda2", "devices/virtual/block/dm-0/slaves/sda2");
	disk("devices/virtual/block/md0", "1\n", "none\n", "128\n");
	link_to("../../../../pci0/host1/block/sdb/sdb1", "devices/virtual/block/md0/slaves/sdb1");
	link_to("../../../../pci0/host1/block/sdc/sdc1", "devices/virtual/block/md0/slaves/sdc1");
	disk("devices/pci0/virtio1/block/vda", "1\n", "[none] mq-deadline\n", "256\n");
	put("devices/pci0/virtio1/block/vda/device/vendor", "0x1af4\n");
	link_to("../../../../../bus/virtio/drivers/virtio_blk",
		"devices/pci0/virtio1/block/vda/device/driver");
	disk("devices/virtual/block/odd", "maybe\n", "noop deadline\n", "-3\n");
	link_to("../../devices/pci0/host0/block/sda", "dev/block/8:0");
	link_to("../../devices/pci0/host0/block/sda/sda2", "dev/block/8:2");
	link_to("../../devices/virtual/block/dm-0", "dev/block/253:0");
	link_to("../../devices/virtual/block/md0", "dev/block/9:0");
	link_to("../../devices/pci0/virtio1/block/vda", "dev/block/254:0");
	link_to("../../devices/virtual/block/odd", "dev/block/7:7");
	return 0;
}

static int remove_sysfs(void **state)
{
	(void)state;
	return nftw(sysfs, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void assert_sda(const struct lg_blockdev *bd)
{
	assert_string_equal(bd->name, "sda");
	assert_string_equal(bd->model, "Samsung SSD 860");
	assert_string_equal(bd->vendor, "ATA");
	assert_string_equal(bd->driver, "sd");
	assert_string_equal(bd->scheduler, "mq-deadline");
	assert_int_equal(bd->rotational, 0);
	assert_int_equal(bd->queue_depth, 64);
	assert_int_equal(bd->members, 0);
}

static void test_blockdev(void **state)
{
	struct lg_blockdev bd;

	(void)state;
	assert_int_equal(lg_blockdev_find(sysfs, 8, 0, &bd), 0);
	assert_sda(&bd);
	assert_int_equal(bd.nchain, 1);
	/* a partition leads to its disk */
	assert_int_equal(lg_blockdev_find(sysfs, 8, 2, &bd), 0);
	assert_sda(&bd);
	assert_int_equal(bd.nchain, 2);
	assert_string_equal(bd.chain[0], "sda2");
	assert_string_equal(bd.chain[1], "sda");
	/* device-mapper with one member: down through the partition to the disk */
	assert_int_equal(lg_blockdev_find(sysfs, 253, 0, &bd), 0);
	assert_sda(&bd);
	assert_int_equal(bd.nchain, 3);
	assert_string_equal(bd.chain[0], "dm-0");
	assert_string_equal(bd.chain[2], "sda");
}

static void test_blockdev_aggregate_and_unknown(void **state)
{
	struct lg_blockdev bd;

	(void)state;
	/* a RAID of two is described as itself: no member stands for the others */
	assert_int_equal(lg_blockdev_find(sysfs, 9, 0, &bd), 0);
	assert_string_equal(bd.name, "md0");
	assert_int_equal(bd.members, 2);
	assert_string_equal(bd.model, "");
	assert_string_equal(bd.scheduler, "none");
	assert_int_equal(bd.rotational, 1);
	assert_int_equal(bd.queue_depth, 128);
	/* virtio: no model file; vendor and driver are still facts */
	assert_int_equal(lg_blockdev_find(sysfs, 254, 0, &bd), 0);
	assert_string_equal(bd.model, "");
	assert_string_equal(bd.vendor, "0x1af4");
	assert_string_equal(bd.driver, "virtio_blk");
	assert_string_equal(bd.scheduler, "none");
	assert_int_equal(bd.queue_depth, 256);
	/* values that do not parse stay unknown */
	assert_int_equal(lg_blockdev_find(sysfs, 7, 7, &bd), 0);
	assert_int_equal(bd.rotational, -1);
	assert_int_equal(bd.queue_depth, -1);
	assert_string_equal(bd.scheduler, "");
	/* tmpfs, overlay, nfs: no block device at all */
	assert_int_equal(lg_blockdev_find(sysfs, 0, 30, &bd), -ENOENT);
	assert_string_equal(bd.name, "");
	assert_int_equal(bd.nchain, 0);
	assert_int_equal(bd.rotational, -1);
	assert_int_equal(bd.queue_depth, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mountinfo_basic),
		cmocka_unit_test(test_mountinfo_escapes),
		cmocka_unit_test(test_mountinfo_stacked),
		cmocka_unit_test(test_mountinfo_same_point_dev),
		cmocka_unit_test(test_mountinfo_bind),
		cmocka_unit_test(test_mountinfo_btrfs),
		cmocka_unit_test(test_mountinfo_bad_input),
		cmocka_unit_test(test_cpuinfo),
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_blockdev),
		cmocka_unit_test(test_blockdev_aggregate_and_unknown),
	};

	return cmocka_run_group_tests(tests, make_sysfs, remove_sysfs);
}
