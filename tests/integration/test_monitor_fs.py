"""The system monitor follows the device the result's env names, on ext4, xfs and btrfs,
each made on a loop device: the env's block_device is that loop device, and the
monitor's per-interval disk counters are that device's (it wrote during the run), with
its line in the text report. btrfs shows files an anonymous device number that is no
block device: the device is found through the mount's source, as the env finds it.
Needs root and losetup; a filesystem whose mkfs is missing is skipped (77)."""
import os
import shutil
import subprocess

from lgtest import WRITE_WORKLOAD, check, run, skip, tmpdir, write

# (filesystem, its Debian package, mkfs command)
FILESYSTEMS = (("ext4", "e2fsprogs", ["mkfs.ext4", "-q", "-F"]),
               ("xfs", "xfsprogs", ["mkfs.xfs", "-q", "-f"]),
               ("btrfs", "btrfs-progs", ["mkfs.btrfs", "-q", "-f"]))


def sh(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def on_loop(work, fs, mkfs):
    """Make fs on a loop device over a sparse image in work, mount it, and check a run
    on it. The image, loop device and mount are removed again."""
    image = os.path.join(work, f"{fs}.img")
    mnt = os.path.join(work, f"{fs}.mnt")
    os.mkdir(mnt)
    with open(image, "wb") as f:
        f.truncate(320 << 20)  # btrfs wants more than 256 MiB for its default profiles
    dev = sh(["losetup", "-f", "--show", image])
    try:
        sh(mkfs + [dev])
        sh(["mount", dev, mnt])
        try:
            check_run(work, mnt, fs, os.path.basename(dev))
        finally:
            subprocess.run(["umount", mnt])
    finally:
        subprocess.run(["losetup", "-d", dev])
        os.unlink(image)


def check_run(work, mnt, fs, loop):
    wl = write(os.path.join(work, "w.yaml"), WRITE_WORKLOAD)
    res = run(["-c", wl, "-D", mnt, "-t", "1.5", "--warmup", "0", "-q", "2"], workdir=work)
    check(res.rc == 0 and res.json, f"{fs}: the run finishes", res)
    env = res.json["env"]
    check(env["fs_type"] == fs and env["block_device"] == loop,
          f"{fs}: env names {env['fs_type']} on {env['block_device']} (want {loop})")
    counters = res.json["runs"][0]["sys_summary"]["counters"]
    disks = sorted({k.split(".")[1] for k in counters if k.startswith("disk.")})
    check(disks == [loop], f"{fs}: the monitor follows {disks} (want [{loop}])")
    check(counters[f"disk.{loop}.writes"] > 0, f"{fs}: {loop} wrote during the run")
    check(f"Disk {loop}" in res.out, f"{fs}: the text report has {loop}'s line", res)


def main():
    if os.geteuid() != 0 or not shutil.which("losetup"):
        skip("needs root and losetup to make filesystems on loop devices")
        return
    work = tmpdir()
    try:
        for fs, package, mkfs in FILESYSTEMS:
            if shutil.which(mkfs[0]):
                on_loop(work, fs, mkfs)
            else:
                skip(f"{mkfs[0]} is missing (apt-get install {package})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
