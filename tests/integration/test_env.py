"""The result's `env` describes the machine and the target: a 1-second run's env keys
are filled and agree with uname, getconf/nproc, /proc/meminfo, findmnt (when installed)
and /sys; on a tmpfs target the block device is "unknown"/null, not guessed."""
import datetime
import os
import shutil
import subprocess

from lgtest import LOADGEN, SOURCE, check, run, skip, tmpdir


def cmd(*args):
    """Output of a command without OMP_* (nproc obeys them), or None when it is missing."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMP_")}
    if not shutil.which(args[0]):
        return None
    proc = subprocess.run(args, capture_output=True, text=True, env=env)
    return proc.stdout.strip() if proc.returncode == 0 else None


def findmnt(column, path):
    """findmnt's COLUMN for the mount holding path: the last line, as stacked mounts list
    every layer and the top one is the one in use."""
    out = cmd("findmnt", "-no", column, "-T", path)
    return out.splitlines()[-1].strip() if out else out


def loadgen_env(target):
    res = run(["-q", "-t", "1", "--warmup", "0", "-D", target, "1"])
    check(res.rc == 0 and res.json is not None, f"run on {target} wrote its JSON", res)
    quiet_header(res.out, res.json["env"])
    return res.json["env"]


def quiet_header(out, e):
    """-q keeps the environment header, in one line: loadgen and its commit, the kernel,
    the target with its filesystem, device and (when there is one) disk."""
    lines = out.splitlines()
    want = f"loadgen {e['loadgen_version']}" + \
        (f" ({e['git_describe']})" if e["git_describe"] else "") + \
        f"  kernel {e['kernel']}  target {e['target_dir']}: {e['fs_type']} on {e['device']}" + \
        (f" (disk {e['block_device']})" if e["block_device"] != "unknown" else "")
    check(lines and lines[0] == want, f"-q: the header in one line: {want!r} "
          f"(got {lines[:2]!r})")
    check(len(lines) > 1 and not lines[1].startswith("target "),
          "-q: one line, not the two of the full header")


d = tmpdir()
target = os.path.join(d, "target")
os.mkdir(target)
env = loadgen_env(target)

for key in ("kernel", "kernel_version", "hostname", "arch", "cpu_model", "fs_type",
            "mount_options", "mount_point", "device", "compiler", "command_line",
            "start_time", "loadgen_version", "target_dir"):
    v = env.get(key)
    check(isinstance(v, str) and v not in ("", "unknown"), f"env.{key} filled ({v!r})")
for key in ("cpus", "cpus_allowed", "mem_total_bytes"):
    check(isinstance(env.get(key), int) and env[key] > 0, f"env.{key} is a count ({env.get(key)})")

u = os.uname()
check(env["kernel"] == u.release, "kernel = uname -r")
check(env["kernel_version"] == u.version, "kernel_version = uname -v")
check(env["hostname"] == u.nodename, "hostname = uname -n")
check(env["arch"] == u.machine, "arch = uname -m")
online = cmd("getconf", "_NPROCESSORS_ONLN")
check(env["cpus"] == (int(online) if online else os.cpu_count()),
      f"cpus = online CPUs ({online})")
nproc = cmd("nproc")
check(env["cpus_allowed"] == (int(nproc) if nproc else len(os.sched_getaffinity(0))),
      f"cpus_allowed = nproc ({nproc})")
with open("/proc/meminfo") as f:
    kb = next(int(l.split()[1]) for l in f if l.startswith("MemTotal:"))
check(env["mem_total_bytes"] == kb * 1024, "mem_total_bytes = MemTotal")
check(env["target_dir"] == os.path.realpath(target), "target_dir is the -D directory")
check(env["loadgen_version"] in (cmd(LOADGEN, "--version") or ""),
      "loadgen_version = loadgen --version")
check("--warmup 0" in env["command_line"] and target in env["command_line"],
      "command_line is the command")
started = datetime.datetime.strptime(env["start_time"], "%Y-%m-%dT%H:%M:%SZ")
now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
age = abs((now - started).total_seconds())
check(age < 600, f"start_time is about now ({env['start_time']})")
if os.path.exists(os.path.join(SOURCE, ".git")) and shutil.which("git"):
    check(isinstance(env["git_describe"], str) and env["git_describe"],
          f"git_describe recorded ({env['git_describe']!r})")
else:
    check(env["git_describe"] is None or isinstance(env["git_describe"], str),
          "git_describe null or a string")

fm = findmnt("FSTYPE", target)
if fm is not None:
    check(env["fs_type"] == fm, f"fs_type = findmnt FSTYPE ({fm})")
    check(env["mount_point"] == findmnt("TARGET", target),
          "mount_point = findmnt TARGET")
    ours = set(env["mount_options"].split(","))
    for col in ("VFS-OPTIONS", "FS-OPTIONS"):
        theirs = set((findmnt(col, target) or "").split(",")) - {""}
        check(theirs <= ours, f"mount_options hold findmnt {col} ({sorted(theirs - ours)})")
else:
    skip("mount options against findmnt: no findmnt (util-linux)")

# The block device, when there is one, is what /sys says about it.
rot = env["rotational"]
check(rot is None or isinstance(rot, bool), "rotational is a boolean or null")
if env["block_device"] != "unknown":
    q = f"/sys/block/{env['block_device']}/queue"
    check(os.path.isdir(q), f"{q} exists")
    with open(f"{q}/nr_requests") as f:
        check(env["queue_depth"] == int(f.read()), "queue_depth = nr_requests")
    with open(f"{q}/scheduler") as f:
        sched = f.read().strip()
    check(f"[{env['scheduler']}]" in sched or sched == env["scheduler"],
          f"scheduler = the selected one in '{sched}'")
    check(env["block_chain"][-1] == env["block_device"], "block_chain ends at the disk")
else:
    check(env["rotational"] is None and env["queue_depth"] is None,
          "no block device: rotational and queue_depth null")

# tmpfs has no block device: say so rather than guess.
shm = "/dev/shm"
if os.path.isdir(shm) and os.access(shm, os.W_OK) and findmnt("FSTYPE", shm) == "tmpfs":
    sd = subprocess.run(["mktemp", "-d", "-p", shm], capture_output=True, text=True)
    sdir = sd.stdout.strip()
    try:
        e2 = loadgen_env(sdir)
    finally:
        shutil.rmtree(sdir, ignore_errors=True)
    check(e2["fs_type"] == "tmpfs", "tmpfs target: fs_type tmpfs")
    check(e2["device"] == "tmpfs", "tmpfs target: device is the mount source")
    check(e2["block_device"] == "unknown" and e2["model"] == "unknown"
          and e2["rotational"] is None and e2["queue_depth"] is None
          and e2["block_chain"] is None, "tmpfs target: block device unknown/null")
else:
    skip("the tmpfs target: no writable tmpfs at /dev/shm")
