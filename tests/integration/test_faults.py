"""Faults during a run: a full filesystem (in the run and in setup), a directory removed
underneath, a killed client process, a planted symbolic link, escaping paths, too few
file descriptors. Each is handled as documented, and the JSON says so."""
import glob
import os
import resource
import shutil
import signal
import subprocess
import time
import json

from lgtest import LOADGEN, check, listdir, run, skip, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
ROOT = os.geteuid() == 0


def start(args, jpath):
    return subprocess.Popen([LOADGEN, "-q", "--json", jpath] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def rundir():
    for _ in range(100):
        found = glob.glob(os.path.join(target, "loadgen.*"))
        if found:
            return found[0]
        time.sleep(0.05)
    return None


# -- ENOSPC on a small tmpfs: counted by errno, the run goes on, results written, exit 1.
if ROOT:
    small = os.path.join(d, "small")
    os.mkdir(small)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small], check=True)
    try:
        w = write(os.path.join(d, "fill.yaml"), """
run:
  - create: {path: "f${client}", as: f, flags: [truncate]}
  - write: {file: f, size: 64KiB, count: 32}
  - close: f
""")
        res = run(["-q", "-D", small, "-c", w, "-t", "1", "--warmup", "0",
                   "--no-space-check", "2"], workdir=d)
        check(res.rc == 1, "ENOSPC: exit 1", res)
        r = res.json["runs"][0]
        check(r["status"] == "failed" and r["failure"]["phase"] == "run" and
              r["failure"]["errno"] == "ENOSPC" and r["failure"]["count"] == r["errors"],
              f"ENOSPC: the run went on to its end, and the JSON says it failed as the "
              f"exit status does ({r['status']}, {r['failure']})")
        check(r["ops_by_type"]["write"]["errors_by_errno"].get("ENOSPC", 0) > 0,
              "ENOSPC counted by errno name")
        check("ENOSPC" in res.out, "ENOSPC shown in the summary", res)
        check(listdir(small) == [], "ENOSPC: run directory removed")

        # A full filesystem during setup: one clear message, nothing measured, exit 1.
        w = write(os.path.join(d, "fullsetup.yaml"), """
setup:
  - create: {path: "big${client}", as: f}
  - write: {file: f, size: 256KiB, count: 64}
  - close: f
run:
  - stat: "big${client}"
""")
        res = run(["-q", "-D", small, "-c", w, "-t", "1", "--no-space-check", "4"], workdir=d)
        check(res.rc == 1 and "setup failed" in res.err and "full" in res.err,
              "full filesystem in setup: a clear message, exit 1", res)
        check(len(res.err.strip().splitlines()) == 1, "one message, no cascade", res)
        check(res.json is not None, "full setup: the --json file is written", res)
        r = res.json["runs"][0]
        # A filling tmpfs ends a write with ENOSPC, or first with a short write (some of
        # its bytes fit): either is the full filesystem, and either fails the setup.
        setup = r["phases"]["setup"]
        enospc = setup["errors_by_errno"].get("ENOSPC", 0)
        short = setup.get("short_writes", 0)
        check(r["status"] == "failed" and r["failure"]["phase"] == "setup" and
              r["failure"]["errno"] in ("ENOSPC", None) and "full" in r["failure"]["message"],
              f"full setup: status failed, and why ({r['status']}, {r['failure']})")
        check((enospc > 0 or short > 0) and r["ops"] == 0 and
              (r["failure"]["errno"] != "ENOSPC" or enospc > 0),
              f"full setup: setup's ENOSPC ({enospc}) or short write ({short}) in the JSON,"
              " nothing measured", setup)
        check(listdir(small) == [], "full setup: run directory removed")
    finally:
        subprocess.run(["umount", small])
else:
    skip("the ENOSPC tests need root to mount a small tmpfs")

# -- A directory removed underneath: ENOENT counted, the run goes on, cleanup copes.
w = write(os.path.join(d, "shared.yaml"), """
setup:
  - mkdir: {path: shared, expect: any}
run:
  - create: {path: "shared/f${client}", as: f}
  - write: {file: f, size: 4KiB}
  - close: f
  - unlink: "shared/f${client}"
  - sleep: 10ms
""")
jp = os.path.join(d, "removed.json")
p = start(["-D", target, "-c", w, "-t", "2", "--warmup", "0", "2"], jp)
rd = rundir()
time.sleep(0.8)
shutil.rmtree(os.path.join(rd, "shared"), ignore_errors=True)
out, err = p.communicate(timeout=60)
check(p.returncode == 1, f"directory removed: exit 1 ({p.returncode}) {err}")
r = json.load(open(jp))["runs"][0]
check(r["ops_by_type"]["create"]["errors_by_errno"].get("ENOENT", 0) > 0,
      "ENOENT counted after the directory vanished")
check(r["status"] == "failed" and r["failure"]["errno"] == "ENOENT",
      f"directory removed: the run went on; failed, as its exit status says ({r['failure']})")
check(listdir(target) == [], "directory removed: target left empty")

# -- A killed client process: reported as lost, the others run to the end, status partial.
w = write(os.path.join(d, "steady.yaml"), """
run:
  - create: {path: "f${client}", as: f, flags: [truncate]}
  - write: {file: f, size: 4KiB}
  - close: f
  - sleep: 5ms
""")
jp = os.path.join(d, "lost.json")
p = start(["-D", target, "-c", w, "-t", "3", "--warmup", "0", "--processes", "3"], jp)
time.sleep(1.2)
kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
check(len(kids) == 3, f"3 client processes ({kids})")
os.kill(int(kids[1]), signal.SIGKILL)
t0 = time.monotonic()
out, err = p.communicate(timeout=60)
check(p.returncode == 1, f"lost client: exit 1 ({p.returncode}) {err}")
check(time.monotonic() - t0 < 5, "the master did not hang on the dead client")
check("was lost" in err and "signal 9" in err, "the lost client is reported", err)
r = json.load(open(jp))["runs"][0]
check(r["status"] == "partial", "status partial")
check(len(r["lost_clients"]) == 1 and r["lost_clients"][0]["signal"] == "SIGKILL",
      "lost_clients names the client and the signal")
alive = [c for c in r["clients"] if c["id"] != r["lost_clients"][0]["client"]]
check(all(c["ops"] > 0 for c in alive), "the other clients kept working")
check(listdir(target) == [], "lost client: target left empty")

# -- A client that finished its pass, then was killed while waiting for the others,
# counts once: the master still waits for the one still running (--run-once; with
# --seed 1, client 0 chooses the 100 ms sleep and client 1 the 3 s one).
w = write(os.path.join(d, "uneven.yaml"), """
run:
  - choose:
      - do: [sleep: 100ms]
      - do: [sleep: 3s]
""")
jp = os.path.join(d, "done-lost.json")
p = start(["-D", target, "-c", w, "--run-once", "--warmup", "0", "--processes", "--seed", "1",
           "2"], jp)
time.sleep(1.0)
kids = sorted(int(k) for k in subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True,
                                             text=True).stdout.split())
check(len(kids) == 2, f"2 client processes ({kids})")
os.kill(kids[0], signal.SIGKILL)
out, err = p.communicate(timeout=60)
r = json.load(open(jp))["runs"][0]
lat = {c["id"]: c["latency_ns"]["max"] for c in r["clients"]}
check(r["status"] == "partial" and [c["client"] for c in r["lost_clients"]] == [0],
      "done, then lost: client 0 is the one lost", r["lost_clients"])
check(lat.get(0, 0) < 0.5e9 and lat.get(1, 0) > 2.9e9,
      f"the other client's 3 s sleep ran to its end ({lat})")
check(r["duration_s"] > 2.9, f"the run lasted until it did ({r['duration_s']})")

# -- A planted symbolic link is removed, never followed.
outside = os.path.join(d, "outside")
os.mkdir(outside)
write(os.path.join(outside, "precious"), "keep me")
jp = os.path.join(d, "link.json")
p = start(["-D", target, "-c", w, "-t", "1.5", "--warmup", "0", "2"], jp)
rd = rundir()
time.sleep(0.3)
os.symlink(outside, os.path.join(rd, "evil"))
os.makedirs(os.path.join(rd, "sub"), exist_ok=True)
os.symlink(os.path.join(outside, "precious"), os.path.join(rd, "sub", "evil2"))
out, err = p.communicate(timeout=60)
check(p.returncode == 0, f"planted link: run fine ({p.returncode}) {err}")
check(open(os.path.join(outside, "precious")).read() == "keep me", "outside file intact")
check(listdir(outside) == ["precious"], "outside directory intact")
check(listdir(target) == [], "planted link: run directory removed")

# -- Paths that would leave the run directory: load errors, exit 2, nothing touched.
for name, text in (("abs.yaml", "run:\n  - stat: /etc/passwd\n"),
                   ("up.yaml", "run:\n  - unlink: a/../../x\n")):
    res = run(["-D", target, "-c", write(os.path.join(d, name), text), "1"], workdir=d,
              json_out=False)
    check(res.rc == 2 and f"{name}:2:" in res.err, f"{name}: escaping path refused", res)
dl = write(os.path.join(d, "escape.txt"), 'Unlink "\\\\..\\\\..\\\\x" NT_STATUS_OK\n')
res = run(["-D", target, "-c", dl, "1"], workdir=d, json_out=False)
check(res.rc == 2 and "escape.txt:1:" in res.err, "dbench path escaping refused", res)
check(listdir(target) == [], "nothing created for refused workloads")

# -- Too few file descriptors for the clients: a clear error before any load.
def low_nofile():
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
res = run(["-D", target, "-c", w, "-t", "1", "100"], workdir=d, json_out=False,
          preexec_fn=low_nofile)
check(res.rc == 2 and "file descriptors" in res.err and "ulimit -n" in res.err,
      "open-file limit checked before the run", res)
check(listdir(target) == [], "nothing created when the limit is short")
