"""Execution modes and sync options: --processes gives the same counts as threads; -R
holds the rate; -s/-S/-F/--direct make the system calls they promise (checked with
strace where it is installed); --end-sync reports buffered and durable throughput."""
import os
import re
import shutil
import subprocess

from lgtest import LOADGEN, check, listdir, run, skip, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
W = write(os.path.join(d, "w.yaml"), """
params:
  n: 4
setup:
  - mkdir: "c${client}"
run:
  - create: {path: "c${client}/f", as: f, flags: [truncate]}
  - write: {file: f, size: 64KiB, count: "${n}"}
  - close: f
  - rename: {from: "c${client}/f", to: "c${client}/g"}
  - open: {path: "c${client}/g", as: f, flags: [read]}
  - read: {file: f, size: 64KiB, count: "${n}"}
  - close: f
  - unlink: "c${client}/g"
cleanup:
  - rmdir: "c${client}"
""")

# Threads and processes: same op counts and bytes for the same --run-once workload.
counts = {}
for mode in ([], ["--processes"]):
    res = run(["-q", "--run-once", "-D", target, "-c", W] + mode + ["3"], workdir=d)
    check(res.rc == 0, f"run-once {mode or 'threads'} exits 0", res)
    r = res.json["runs"][0]
    counts[tuple(mode)] = ({k: v["count"] for k, v in r["ops_by_type"].items()},
                           r["bytes_read"], r["bytes_written"])
    check(res.json["config"]["mode"] == ("processes" if mode else "threads"), "config.mode")
    check(len(r["clients"]) == 3 and all(c["ops"] == 14 for c in r["clients"]),
          f"{mode or 'threads'}: each client ran its 14 ops", res)
check(counts[()] == counts[("--processes",)], "threads and processes give the same counts")
check(counts[()][2] == 3 * 4 * 65536, "bytes written exact")
check(listdir(target) == [], "target empty after both modes")

# Processes mode with a timed run and progress.
res = run(["-D", target, "-t", "1", "--warmup", "0", "--processes", "4"], workdir=d)
check(res.rc == 0 and res.json["runs"][0]["ops"] > 0, "timed run in processes mode", res)
check(sum(c["ops"] for c in res.json["runs"][0]["clients"]) == res.json["runs"][0]["ops"],
      "processes: client ops add up")

# -R 5 with 2 clients holds about 10 MB/s, and latency counts from the intended start.
RW = write(os.path.join(d, "rate.yaml"), """
setup:
  - create: {path: "r${client}", as: f}
run:
  - write: {file: f, size: 64KiB, offset: 0}
cleanup:
  - unlink: "r${client}"
""")
res = run(["-q", "-D", target, "-c", RW, "-t", "3", "--warmup", "0", "-R", "5", "2"],
          workdir=d)
check(res.rc == 0, "rate-limited run", res)
r = res.json["runs"][0]
check(9.0 <= r["throughput_mbps"] <= 10.5, f"-R 5 x 2 clients ~ 10 MB/s ({r['throughput_mbps']:.2f})")
check("service_ns" in r["ops_by_type"]["write"], "service time recorded beside latency")
check(res.json["config"]["rate_mbps"] == 5, "config.rate_mbps")

# --end-sync: the final syncfs is part of the measured time.
res = run(["-q", "-D", target, "-c", W, "--run-once", "--end-sync", "2"], workdir=d)
r = res.json["runs"][0]
check(res.rc == 0 and r["end_sync_s"] > 0, "end_sync_s recorded", res)
check(r["buffered_throughput_mbps"] >= r["throughput_mbps"], "buffered >= durable throughput")
check("final syncfs" in res.out, "text mentions the final syncfs", res)

# --drop-caches needs root; as root it runs.
if os.geteuid() == 0:
    res = run(["-q", "-D", target, "-c", W, "--run-once", "--drop-caches", "1"], workdir=d)
    check(res.rc == 0 and res.json["config"]["drop_caches"], "--drop-caches as root", res)
else:
    skip("--drop-caches needs root")

# --direct: a clear error where the filesystem refuses O_DIRECT, else it runs.
res = run(["-q", "-D", target, "-c", W, "--run-once", "--direct", "1"], workdir=d)
check(res.rc == 0 or (res.rc == 2 and "O_DIRECT" in res.err), "--direct runs or says why", res)

# The syscalls behind -s, -S and -F, counted with strace.
if shutil.which("strace"):
    def trace(opts):
        out = os.path.join(d, "trace")
        subprocess.run(["strace", "-f", "-qq", "-o", out, "-e",
                        "trace=openat,fsync", LOADGEN, "-q", "--run-once", "-D", target,
                        "-c", W] + opts + ["1"], capture_output=True, timeout=60)
        with open(out) as f:
            return f.read()
    plain = trace([])
    t = trace(["-F"])
    check(t.count("fsync(") - plain.count("fsync(") == 4, "-F: one fsync per write call")
    t = trace(["-s"])
    check(len(re.findall(r'openat\([^)]*"c0/[fg]"[^)]*O_SYNC', t)) == 2, "-s: O_SYNC on opens")
    t = trace(["-S"])
    # create, rename, unlink in c0 -> 3 directory fsyncs (plus mkdir/rmdir of c0 in
    # setup/cleanup, whose parent is the run directory: 2 more)
    check(t.count("fsync(") - plain.count("fsync(") == 5, "-S: parent directory fsyncs")
else:
    skip("-s/-S/-F system calls: strace is not installed")
