"""Every host's counters: 3 MPI ranks as 3 hosts, one of them made busy on purpose.

Each rank runs in its own UTS namespace (host name h<rank>) and its own cgroup v2 group
(h<rank> under a group of this test). Fake hosts on one machine read the same /proc, so
the system-wide pressure is the same for all; the monitor also reads the pressure of the
cgroup it runs in (cgroup.psi.*), which is each fake host's own. Two busy loops in h1's
group, held to a fraction of a CPU (cgroup v2 cpu.max, or v1 cpu.cfs_quota_us where the
cpu controller is on v1), stall there: h1's cgroup cpu pressure is high, h0's and h2's
low. The text must name h1 and no other host; hosts[] must hold a monitor summary for
each host with h1's figure above the others'; with no hog, no host is named; `loadgen
compare` of the two runs ranks h1's change. Skipped (77) without mpirun, an MPI build,
unshare, or a writable cgroup2 hierarchy with a CPU limit."""
import json
import os
import re
import shutil
import subprocess
import tempfile

from lgtest import LOADGEN, check, mpi_env, skip, write

WORKLOAD = """\
name: light
run:
  - sleep: 50ms
"""
KEY = "cgroup.psi.cpu.some_us"


def cgroup2_mount():
    with open("/proc/self/mounts") as f:
        for line in f:
            dev, path, kind = line.split()[:3]
            if kind == "cgroup2":
                return path
    return None


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


class Groups:
    """h0, h1, h2 under a group of this test in the cgroup2 hierarchy, and a CPU limit
    for the hog: `limit` is the group whose cgroup.procs gets the hog besides h1 (v1),
    or h1 itself with cpu.max (v2)."""

    def __init__(self):
        self.made = []

    def setup(self):
        mnt = cgroup2_mount()
        if not mnt or not os.path.exists(os.path.join(mnt, "cgroup.procs")):
            raise OSError("no cgroup2 hierarchy")
        self.base = os.path.join(mnt, f"lghosts.{os.getpid()}")
        self.mkdir(self.base)
        ctl = open(os.path.join(mnt, "cgroup.controllers")).read().split()
        v1 = "/sys/fs/cgroup/cpu"
        if "cpu" in ctl:
            put(os.path.join(self.base, "cgroup.subtree_control"), "+cpu")
        for h in ("h0", "h1", "h2"):
            self.mkdir(self.host(h))
            if not os.path.exists(os.path.join(self.host(h), "cpu.pressure")):
                raise OSError("no cpu.pressure in cgroup2 (kernel without PSI)")
        if "cpu" in ctl:
            put(os.path.join(self.host("h1"), "cpu.max"), "20000 100000")
            self.limit = None
        elif os.path.exists(os.path.join(v1, "cpu.cfs_quota_us")):
            self.limit = os.path.join(v1, f"lghosts.{os.getpid()}")
            self.mkdir(self.limit)
            put(os.path.join(self.limit, "cpu.cfs_period_us"), "100000")
            put(os.path.join(self.limit, "cpu.cfs_quota_us"), "20000")
        else:
            raise OSError("no cpu controller to limit the hog with")

    def mkdir(self, path):
        os.mkdir(path)
        self.made.append(path)

    def host(self, h):
        return os.path.join(self.base, h)

    def hog(self):
        """Two busy loops in h1's group (at most 60 s), limited to 20% of a CPU."""
        joins = f'echo $$ > {self.host("h1")}/cgroup.procs'
        if self.limit:
            joins += f" && echo $$ > {self.limit}/cgroup.procs"
        return [subprocess.Popen(["sh", "-c", joins + " && exec timeout 60 sh -c "
                                  "'while :; do :; done'"]) for _ in range(2)]

    def remove(self):
        for p in reversed(self.made):
            try:
                os.rmdir(p)
            except OSError:
                pass


def mpirun(g, d, name):
    """3 ranks, rank r on host h<r> in group h<r>; the text and the result."""
    inner = 'hostname "h$OMPI_COMM_WORLD_RANK" && exec "$@"'
    outer = (f'echo $$ > {g.base}/h$OMPI_COMM_WORLD_RANK/cgroup.procs && '
             f'exec unshare -u sh -c \'{inner}\' sh "$@"')
    wl = write(os.path.join(d, "w.yaml"), WORKLOAD)
    out = os.path.join(d, name)
    p = subprocess.run([shutil.which("mpirun"), "--oversubscribe", "-np", "3", "sh", "-c",
                        outer, "sh", LOADGEN, "-c", wl, "-t", "4", "-D", d, "--json", out,
                        "1"], capture_output=True, text=True, env=mpi_env(), timeout=180)
    check(p.returncode == 0, f"{name}: 3 ranks exit 0 ({p.returncode})", p.stdout + p.stderr)
    with open(out) as f:
        return p.stdout, json.load(f), out


def named(text):
    """The hosts the text says stand out."""
    return sorted(set(re.findall(r"^host (\S+): ", text, re.M)))


def main():
    version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
    if not shutil.which("mpirun"):
        return skip("mpirun not found (Debian: openmpi-bin)")
    if "(MPI)" not in version:
        return skip("loadgen was built without MPI (LOADGEN_MPI=OFF)")
    if subprocess.run(["unshare", "-u", "true"], capture_output=True).returncode:
        return skip("unshare -u does not work here (not root?)")
    g = Groups()
    try:
        g.setup()
    except OSError as e:
        g.remove()
        return skip(f"no cgroup v2 group per fake host: {e}")
    d = tempfile.mkdtemp(prefix="lghosts.")
    hogs = []
    try:
        hogs = g.hog()
        text, doc, busy_json = mpirun(g, d, "busy.json")
        for h in hogs:
            h.terminate()  # timeout passes it on to its busy loop
            h.wait()
        hogs = []
        hosts = doc["runs"][0].get("hosts", [])
        check(sorted(h["host"] for h in hosts) == ["h0", "h1", "h2"], "3 hosts in hosts[]",
              hosts)
        val = {}
        for h in hosts:
            s = h.get("sys_summary", {})
            check(s.get("seconds", 0) > 0 and "kernel_messages" in h,
                  f"{h['host']}: a monitor summary and kernel messages of its own")
            check(s.get("cgroup") == "/" + os.path.relpath(g.host(h["host"]), cgroup2_mount()),
                  f"{h['host']}: its own cgroup ({s.get('cgroup')})")
            val[h["host"]] = s.get("counters", {}).get(KEY, 0) / s.get("seconds", 1)
        check(val.get("h1", 0) > 3 * max(val.get("h0", 0), val.get("h2", 0)),
              f"h1's cgroup cpu pressure above the others' (us/s: {val})")
        check(named(text) == ["h1"], f"the text names h1 alone ({named(text)})", text)
        check(re.search(r"^host h1: cgroup PSI cpu some \d+ ms/s, others \u2264 \d+$", text,
                        re.M), "the line says the figure and the others'", text)

        text, doc, calm_json = mpirun(g, d, "calm.json")
        check(named(text) == [], f"no hog: no host named ({named(text)})", text)

        p = subprocess.run([LOADGEN, "compare", calm_json, busy_json], capture_output=True,
                           text=True, timeout=60)
        check(p.returncode in (0, 1, 3), f"compare runs ({p.returncode})", p.stderr)
        rows = re.findall(r"^\s+\S+\s+(h\d)\s+cgroup\.psi\.cpu\.\w+/s", p.stdout, re.M)
        check("h1" in rows, "compare ranks h1's cgroup cpu pressure among the per-host "
              "changes", p.stdout)
    finally:
        for h in hogs:
            h.terminate()  # timeout passes it on to its busy loop
            h.wait()
        g.remove()
        shutil.rmtree(d, ignore_errors=True)


main()
