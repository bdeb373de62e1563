"""Many hosts on MPI: ranks on localhost under the launcher of the binary's MPI (Open MPI's
mpirun, MPICH's mpiexec.hydra: lgtest.mpi_cmd), each rank in its own UTS namespace (its
own host name, with unshare -u) where per-host grouping is tested.

Skips (77) when the launcher is missing or the binary was built without MPI."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

from lgtest import (LOADGEN, MPI_FLAVOUR, MPI_RANK_SH, MPIEXEC, check, doc_block, mpi_cmd,
                    mpi_env, mpi_rank_of, skip, tmpdir, write)

if not MPIEXEC:
    print("SKIP: no MPI launcher (Debian: openmpi-bin, or mpich for an MPICH build)")
    sys.exit(77)
version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
if "(MPI)" not in version:
    print("SKIP: loadgen was built without MPI (LOADGEN_MPI=OFF)")
    sys.exit(77)

ENV = mpi_env()
# Each rank: its own host name h<rank> (with JOIN, ranks from JOIN on share host
# h<JOIN>); with TINY, rank TINY_RANK (1) also gets a private tmpfs of TINY over the
# target directory (so it does not see the other ranks' run directory).
RANK_SCRIPT = r'''
r=@RANK@
h=$r
if [ -n "$JOIN" ] && [ "$r" -ge "$JOIN" ]; then h=$JOIN; fi
hostname "h$h" || exit 97
if [ -n "$TINY" ] && [ "$r" = "$TINY_RANK" ]; then
  mount -t tmpfs -o "size=$TINY" none "$TARGET" || exit 98
fi
exec "$@"
'''.replace("@RANK@", MPI_RANK_SH)
unshare_ok = subprocess.run(["unshare", "-u", "-m", "--propagation", "private", "true"],
                            capture_output=True).returncode == 0


def mpirun(np, args, hosts=False, tiny=None, target=None, timeout=120, popen=False,
           tiny_rank=1, join=None):
    cmd = []
    if hosts:
        cmd += ["unshare", "-u", "-m", "--propagation", "private", "sh", "-c", RANK_SCRIPT,
                "sh"]
    cmd = mpi_cmd(np, cmd + [LOADGEN] + args)
    env = dict(ENV, TINY=tiny or "", TARGET=target or "", TINY_RANK=str(tiny_rank),
               JOIN="" if join is None else str(join))
    if popen:
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def load(path):
    with open(path) as f:
        return json.load(f)


def hist_count(t):
    return sum(b[2] for b in t["histogram"])


def undocumented_keys(doc):
    """Leaf keys of doc missing from the documented key list (docs/results.md; the MPI
    keys are marked '?')."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import re
    import itertools
    _, block = doc_block("json-keys")
    known = set()
    for line in block.split():
        parts = re.split(r"(\{[^}]*\})", line.rstrip("?"))
        known.update("".join(c) for c in itertools.product(
            *[x[1:-1].split(",") if x.startswith("{") else [x] for x in parts]))
    dynamic = {"params", "ops_by_type", "errors_by_errno", "counters", "gauges",
               "vmstat_diff"}
    leaves = set()

    def walk(v, path):
        if isinstance(v, dict) and v:
            star = path.rsplit(".", 1)[-1] in dynamic
            for k, x in v.items():
                walk(x, f"{path}.{'*' if star else k}" if path else k)
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for x in v:
                walk(x, path + "[]")
        else:
            leaves.add(path)
    walk(doc, "")
    return sorted(p for p in leaves if p not in known and not any(
        k.startswith(p + ".") or k.startswith(p + "[]") for k in known))


# --- run-once, exact: 3 ranks x 2 clients, each writing its own file (no cleanup) ---
d = tmpdir()
wl = write(os.path.join(d, "w.yaml"), """name: w
params: {count: 16}
run:
  - create: {path: "f${client}.of${clients}", as: out, flags: [write, truncate]}
  - write: {file: out, size: 4KiB, count: "${count}"}
  - close: out
""")
p = mpirun(3, ["-q", "--run-once", "--keep", "-c", wl, "-D", d, "--json",
               os.path.join(d, "r.json"), "2"])
check(p.returncode == 0, f"mpirun -np 3 --run-once exits 0 ({p.returncode}) {p.stderr}")
doc = load(os.path.join(d, "r.json"))
run = doc["runs"][0]
check(doc["config"]["ranks"] == 3 and doc["config"]["clients_total"] == 6,
      "config.ranks 3, config.clients_total 6")
check(len(run["clients"]) == 6, "6 clients in the result")
check(sorted(c["id"] for c in run["clients"]) == list(range(6)), "client ids 0..5, distinct")
check(all(c["rank"] == c["id"] // 2 for c in run["clients"]), "client id r*2+i ran on rank r")
check(run["bytes_written"] == 6 * 16 * 4096, f"bytes exactly 6 x one client's ({run['bytes_written']})")
check(all(c["bytes"] == 16 * 4096 for c in run["clients"]), "each client wrote 16 x 4 KiB")
check(run["ops"] == 6 * 18, f"ops exactly 6 x 18 ({run['ops']})")
check(sum(hist_count(t) for t in run["ops_by_type"].values()) == run["ops"],
      "histogram counts equal the op count")
check(run["latency_ns"]["p50"] > 0, "merged latency has percentiles")
rundirs = [x for x in os.listdir(d) if x.startswith("loadgen.")]
check(len(rundirs) == 1, "one shared run directory")
files = sorted(os.listdir(os.path.join(d, rundirs[0])))
check(files == sorted(f"f{i}.of6" for i in range(6)), f"6 distinct files, ${{clients}} = 6: {files}")
check(all(os.path.getsize(os.path.join(d, rundirs[0], f)) == 16 * 4096 for f in files),
      "each file holds its client's bytes")
check(run["hosts"][0]["shared_directory"] is True, "hosts[].shared_directory true")
check(p.stdout.count("Throughput ") == 1 and p.stdout.count("Operation") == 1,
      "only rank 0 prints (one table, one Throughput line)", p.stdout)

# --- timed, 3 hosts (UTS namespaces): progress once per interval, totals, per host ---
if unshare_ok:
    d = tmpdir()
    p = mpirun(3, ["-t", "3", "--warmup", "1", "-c", wl, "-p", "count=4", "-D", d,
                   "--json", os.path.join(d, "r.json"), "2"], hosts=True)
    check(p.returncode == 0, f"timed run on 3 hosts exits 0 ({p.returncode}) {p.stderr}")
    doc = load(os.path.join(d, "r.json"))
    run = doc["runs"][0]
    lines = p.stdout.splitlines()
    prog = [l for l in lines if "MB/sec  execute" in l or "MB/sec  warmup" in l]
    check(2 <= len(prog) <= 7, f"progress printed once per interval ({len(prog)} lines)", p.stdout)
    check(all(l.split()[0] == "6" for l in prog), "progress lines count all 6 clients")
    thr = [l for l in lines if l.startswith("Throughput ")]
    check(len(thr) == 1 and "6 clients" in thr[0], f"one Throughput line, 6 clients: {thr}")
    mbps = float(thr[0].split()[1])
    check(abs(mbps - run["throughput_mbps"]) <= 0.001 * run["throughput_mbps"] + 0.001,
          "Throughput line is the JSON total")
    check(doc["config"]["hosts"] == 3, "config.hosts 3")
    names = sorted(h["host"] for h in run["hosts"])
    check(names == ["h0", "h1", "h2"], f"hosts h0 h1 h2: {names}")
    check(all(c["host"] == f"h{c['rank']}" for c in run["clients"]), "clients[].host/rank")
    check(sum(h["bytes"] for h in run["hosts"]) == run["bytes_read"] + run["bytes_written"],
          "hosts' bytes add up to the total")
    check(sum(h["ops"] for h in run["hosts"]) == run["ops"], "hosts' ops add up")
    check(all(h["env"]["hostname"] == h["host"] for h in run["hosts"]), "hosts[].env per host")
    # measured-only counters, and a last interval taken once every rank's clients have
    # stopped: the timeline adds up to the job's totals exactly
    tl = sum(i["ops"] for i in run["timeline"])
    check(tl == run["ops"], f"the timeline sums every rank's ops ({tl} vs {run['ops']})")
    tb = sum(i["bytes"] for i in run["timeline"])
    check(tb == run["bytes_read"] + run["bytes_written"], f"and bytes ({tb})")
    tlen = sum(i["len_s"] for i in run["timeline"])
    check(abs(tlen - run["duration_s"]) < 1e-6,
          f"the intervals span the measured time ({tlen} vs {run['duration_s']})")
    check("sys_summary" in run, "the monitor's summary (rank 0's) is in the result")
    check(undocumented_keys(doc) == [],
          f"every key of an MPI result is in the documented list: {undocumented_keys(doc)}")
    check("start_skew_ms" in run and run["start_skew_ms"] >= 0, "start_skew_ms")
    check("Hosts: 3" in p.stdout and "Fairness: per-host" in p.stdout, "per-host table")
    check(not any(x.startswith("loadgen.") for x in os.listdir(d)), "run directory removed")
else:
    skip("unshare -u -m not permitted here: the per-host tests")

# --- a client sweep: every rank runs the same counts in order, ids global per count ---
d = tmpdir()
p = mpirun(2, ["-q", "--run-once", "-c", wl, "-D", d, "--json", os.path.join(d, "s.json"),
               "1,2"])
check(p.returncode == 0, f"sweep 1,2 on 2 ranks exits 0 ({p.returncode}) {p.stderr}")
doc = load(os.path.join(d, "s.json"))
counts = [(r["client_count"], sorted(c["id"] for c in r["clients"])) for r in doc["runs"]]
check(counts == [(2, [0, 1]), (4, [0, 1, 2, 3])],
      f"runs of 2 and 4 clients in all, ids 0..n-1 ({counts})")
check(all(r["bytes_written"] == r["client_count"] * 16 * 4096 for r in doc["runs"]),
      "each count's bytes exactly its clients' (${clients} is the total of that count)")
check("clients 2 run 1" in p.stdout and "clients 4 run 1" in p.stdout,
      "the -q lines name the job's clients", p.stdout)

# --- a recorded program's streams on 2 ranks: each rank's clients replay in their own
# subtrees (global ids), each client's 2 streams are 1 client in the gathered result ---
STREAMS = """name: two-streams
setup:
  - mkdir: "${client}"
streams:
  - name: "1 maker"
    steps:
      - create: {path: "${client}/f", as: t1.fd3, flags: [write, exclusive]}
      - write: {file: t1.fd3, size: 4096}
      - close: t1.fd3
  - name: "2 reader"
    steps:
      - after: {stream: "1 maker", calls: 2}
      - open: {path: "${client}/f", as: t2.fd3, flags: [read]}
      - read: {file: t2.fd3, size: 4096}
      - close: t2.fd3
cleanup:
  - unlink: "${client}/f"
  - rmdir: "${client}"
"""
d = tmpdir()
swl = write(os.path.join(d, "streams.yaml"), STREAMS)
p = mpirun(2, ["-c", swl, "-D", d, "--json", os.path.join(d, "st.json"), "3"])
check(p.returncode == 0, f"a recorded program on 2 ranks exits 0 ({p.returncode}) {p.stderr}")
doc = load(os.path.join(d, "st.json"))
r0 = doc["runs"][0]
check(r0["client_count"] == 6 and sorted(c["id"] for c in r0["clients"]) == list(range(6))
      and all(c["ops"] == 6 for c in r0["clients"]) and r0["errors"] == 0,
      "6 clients of 2 streams: ids 0..5, each client's 6 calls (its streams added up), "
      "no exclusive create met another client's file", r0["clients"])
check("6 clients  12 threads" in p.stdout, "the summary says 6 clients in 12 threads",
      p.stdout)

# --- --repeat auto under MPI: runs until its rule is met, all ranks together (rank 0's
# rates decide; ranks whose own rates would decide otherwise are not forced here) ---
d = tmpdir()
p = mpirun(2, ["-q", "--run-once", "--repeat", "auto:0.001:3", "-c", wl, "-D", d, "1"],
           timeout=120)
check(p.returncode == 0 and p.stdout.count("clients 2 run ") == 3,
      f"--repeat auto under MPI: 3 runs, every rank stops together ({p.returncode})",
      p.stdout + p.stderr)

# --- the other MPI's launcher (Debian's mpirun with an MPICH build, or hydra with an
# Open MPI one): every rank alone in its world; refused (exit 2), nothing run ---
other = {"mpich": "mpirun.openmpi", "openmpi": "mpiexec.hydra"}.get(MPI_FLAVOUR)
other = other and shutil.which(other)
if other:
    d = tmpdir()
    cmd = [other] + (["--oversubscribe"] if "openmpi" in other else []) + [
        "-n", "2", LOADGEN, "-q", "-c", wl, "-D", d, "--run-once", "--json",
        os.path.join(d, "o.json"), "1"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120)
    check(p.returncode == 2 and "sees a world of 1" in p.stderr,
          f"{os.path.basename(other)} with a {MPI_FLAVOUR} build: exit 2, the launcher "
          f"named ({p.returncode})", p.stderr)
    check(not os.path.exists(os.path.join(d, "o.json")) and
          not any(x.startswith("loadgen.") for x in os.listdir(d)), "nothing was run")
else:
    skip(f"the other MPI's launcher is not installed (a {MPI_FLAVOUR} build): its refusal")

# --- mismatched workloads (MPMD): exit 2 everywhere, one message from rank 0 ---
d = tmpdir()
cmd = mpi_cmd(1, [LOADGEN, "-q", "-c", wl, "-p", "count=1", "-D", d, "--run-once", "2"],
              (1, [LOADGEN, "-q", "-c", wl, "-p", "count=2", "-D", d, "--run-once", "2"]))
p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120)
check(p.returncode == 2, f"mismatched -p: exit 2 ({p.returncode})", p.stderr)
msgs = [l for l in p.stderr.splitlines() if "disagree" in l]
check(len(msgs) == 1 and "rank 1" in msgs[0] and "parameters (-p)" in msgs[0],
      f"one message naming rank 1 and -p: {msgs}")
check(not any(x.startswith("loadgen.") for x in os.listdir(d)), "nothing was created")

# different sweeps (each rank would run other counts): refused alike, before anything runs
d = tmpdir()
cmd = mpi_cmd(1, [LOADGEN, "-q", "-c", wl, "-D", d, "--run-once", "1,2"],
              (1, [LOADGEN, "-q", "-c", wl, "-D", d, "--run-once", "1,2,3"]))
p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120)
check(p.returncode == 2, f"different sweeps: exit 2 ({p.returncode})", p.stderr)
msgs = [l for l in p.stderr.splitlines() if "disagree" in l]
check(len(msgs) == 1 and "rank 1" in msgs[0] and "NCLIENTS" in msgs[0],
      f"one message naming rank 1 and NCLIENTS: {msgs}")

# --keep on one rank only (who removes the run directory, and cleanup_left): refused too
d = tmpdir()
cmd = mpi_cmd(1, [LOADGEN, "-q", "-c", wl, "-D", d, "--run-once", "1"],
              (1, [LOADGEN, "-q", "-c", wl, "-D", d, "--run-once", "--keep", "1"]))
p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120)
msgs = [l for l in p.stderr.splitlines() if "disagree" in l]
check(p.returncode == 2 and len(msgs) == 1 and "--keep" in msgs[0],
      f"--keep on one rank: exit 2, one message naming the flags ({p.returncode}) {msgs}")

# --- a rank failing setup (its own full filesystem): all exit 1, rank named ---
if unshare_ok:
    d = tmpdir()
    big = write(os.path.join(d, "big.yaml"), """name: big
setup:
  - create: {path: "s${client}", as: f, flags: [write]}
  - write: {file: f, size: 64KiB, count: 64}
  - close: f
run:
  - stat: "s${client}"
cleanup:
  - unlink: "s${client}"
""")
    t = os.path.join(d, "t")
    os.mkdir(t)
    p = mpirun(3, ["-q", "-t", "2", "-c", big, "-D", t, "--json", os.path.join(d, "f.json"),
                   "--no-space-check", "2"], hosts=True, tiny="1m", target=t)
    check(p.returncode == 1, f"setup ENOSPC on rank 1: exit 1 ({p.returncode})", p.stderr)
    check("rank 1" in p.stderr and "h1" in p.stderr, "message names host h1 and rank 1", p.stderr)
    check(sum("full" in l for l in p.stderr.splitlines()) == 1, "one message", p.stderr)
    check(os.listdir(t) == [], "run directory removed")
    run = load(os.path.join(d, "f.json"))["runs"][0]
    check(run["status"] == "failed" and "h1" in run["failure"]["message"] and
          "rank 1" in run["failure"]["message"],
          f"rank 0 writes the result: status failed, naming rank 1 ({run.get('failure')})")
    # a filling tmpfs ends a write with ENOSPC, or first with a short write (as in
    # test_faults); a short write has no errno of its own, and ranks agree on EIO for it
    f = run["failure"]
    short = re.search(r"wrote \d+ of \d+ bytes", f["message"]) is not None
    check(f["phase"] == "setup" and (f["errno"] == "ENOSPC" or (short and f["errno"] == "EIO")),
          f"failure phase setup, errno ENOSPC, or EIO for a short write ({f})")
    ph = run["phases"]["setup"]
    check(ph["errors"] > 0 or (short and ph.get("short_writes", 0) > 0),
          f"rank 1's setup errors (or its short write) are counted ({ph})")

    # an unshared directory that works: rank 1 on its own (big enough) tmpfs
    d = tmpdir()
    t = os.path.join(d, "t")
    os.mkdir(t)
    p = mpirun(3, ["--run-once", "-c", wl, "-D", t, "--json", os.path.join(d, "r.json"),
                   "2"], hosts=True, tiny="64m", target=t)
    check(p.returncode == 0, f"unshared directory on rank 1 works ({p.returncode})", p.stderr)
    run = load(os.path.join(d, "r.json"))["runs"][0]
    shared = {h["host"]: h["shared_directory"] for h in run["hosts"]}
    check(shared == {"h0": True, "h1": False, "h2": True}, f"shared_directory per host {shared}")
    check(run["hosts"][1]["env"]["fs_type"] == "tmpfs", "rank 1's env shows its tmpfs")
    check("Warning: hosts differ in fs_type" in p.stdout, "warning: hosts differ", p.stdout)
    check(os.listdir(t) == [], "run directory removed")
    check(run["cleanup_left"] == 6, f"cleanup_left counts rank 1's own directory too "
          f"({run['cleanup_left']})")

    # two ranks of one host that does not see rank 0's directory share their own
    d = tmpdir()
    t = os.path.join(d, "t")
    os.mkdir(t)
    p = mpirun(3, ["--run-once", "-c", wl, "-D", t, "--json", os.path.join(d, "r.json"),
                   "2"], hosts=True, tiny="64m", target=t, tiny_rank=0, join=1)
    check(p.returncode == 0, f"ranks 1 and 2 share host h1's own directory ({p.returncode})",
          p.stderr)
    run = load(os.path.join(d, "r.json"))["runs"][0]
    hosts = [(h["host"], h["ranks"], h["clients"], h["shared_directory"])
             for h in run["hosts"]]
    check(hosts == [("h0", 1, 2, True), ("h1", 2, 4, False)], f"hosts {hosts}")
    check(run["bytes_written"] == 6 * 16 * 4096, "every client wrote")
    check(run["cleanup_left"] == 6, f"cleanup_left {run['cleanup_left']}")
    check(os.listdir(t) == [] and "removing" not in p.stderr,
          "h1's directory removed once", p.stderr)


# --- SIGTERM to every rank: interrupted result from rank 0 within about a second ---
def rank_pids(marker):
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv and os.path.basename(argv[0].decode()) == "loadgen" and marker.encode() in argv:
            pids.append(int(pid))
    return pids


d = tmpdir()
proc = mpirun(3, ["-q", "-t", "60", "--warmup", "0", "-c", wl, "-D", d, "--json",
                  os.path.join(d, "r.json"), "2"], popen=True)
time.sleep(4)
pids = rank_pids(d)
check(len(pids) == 3, f"3 rank processes found ({pids})")
t0 = time.monotonic()
for pid in pids:
    os.kill(pid, signal.SIGTERM)
out, err = proc.communicate(timeout=60)
took = time.monotonic() - t0
check(took < 10, f"the job ended {took:.1f} s after SIGTERM")
check(proc.returncode == 130, f"exit 130 ({proc.returncode})", err)
run = load(os.path.join(d, "r.json"))["runs"][0]
check(run["status"] == "interrupted", "rank 0 wrote status interrupted")
check(len(run["clients"]) == 6 and run["ops"] > 0, "the job's results were reduced")

# --- SIGTERM to one rank only: it tells the others at the next interval ---
d = tmpdir()
proc = mpirun(3, ["-q", "-t", "60", "--warmup", "0", "-c", wl, "-D", d, "--json",
                  os.path.join(d, "r.json"), "2"], popen=True)
time.sleep(4)
pids = sorted(rank_pids(d))
os.kill(pids[-1], signal.SIGTERM)
out, err = proc.communicate(timeout=60)
check(proc.returncode == 130, f"SIGTERM to one rank: all exit 130 ({proc.returncode})", err)
check(load(os.path.join(d, "r.json"))["runs"][0]["status"] == "interrupted",
      "interrupted result")


# --- SIGTERM to one rank in a cleanup, between --repeat runs: no rank waits for it ---
def rank_of(pid):
    with open(f"/proc/{pid}/environ", "rb") as f:
        env = dict(x.split(b"=", 1) for x in f.read().split(b"\0") if b"=" in x)
    return mpi_rank_of(env)


d = tmpdir()
slow = write(os.path.join(d, "slow.yaml"), """name: slow
run:
  - mkdir: "m${client}"
  - rmdir: "m${client}"
cleanup:
  - create: {path: "c${client}", as: f, flags: [write]}
  - write: {file: f, size: 4KiB, offset: 0, count: 1000000}
  - close: f
  - unlink: "c${client}"
""")
proc = mpirun(2, ["-q", "-t", "1", "--warmup", "0", "--repeat", "3", "-c", slow, "-D", d,
                  "--json", os.path.join(d, "r.json"), "1"], popen=True)
marker, t0 = None, time.monotonic()
while not marker and time.monotonic() - t0 < 60 and proc.poll() is None:
    marker = [x for x in os.listdir(d) if x.startswith("loadgen.") and
              os.path.exists(os.path.join(d, x, "c1"))]
    time.sleep(0.01)
pids = [x for x in rank_pids(d) if rank_of(x) == 1]
check(marker and len(pids) == 1, f"rank 1 reached the cleanup of run 1 ({pids})")
os.kill(pids[0], signal.SIGTERM)
try:
    out, err = proc.communicate(timeout=60)
except subprocess.TimeoutExpired:
    for pid in rank_pids(d):
        os.kill(pid, signal.SIGKILL)
    out, err = proc.communicate()
    check(False, "the job ended after SIGTERM to rank 1 in its cleanup (it hung)")
check(proc.returncode == 130, f"all exit 130 ({proc.returncode})", err)
runs = load(os.path.join(d, "r.json"))["runs"]
check([r["status"] for r in runs] == ["interrupted"],
      f"one run, interrupted ({[r['status'] for r in runs]})")

# --- kill -9 of one rank: the job must not hang ---
d = tmpdir()
proc = mpirun(3, ["-q", "-t", "120", "-c", wl, "-D", d, "2"], popen=True)
time.sleep(4)
pids = sorted(rank_pids(d))
os.kill(pids[-1], signal.SIGKILL)
t0 = time.monotonic()
try:
    out, err = proc.communicate(timeout=30)
except subprocess.TimeoutExpired:
    proc.kill()
    check(False, "the job ended within 30 s of kill -9")
check(proc.returncode != 0, f"kill -9 of a rank: non-zero exit ({proc.returncode})")
# Open MPI's mpirun says so on stderr ("exited on signal 9 (Killed)"), MPICH's hydra in
# its banner on stdout ("Killed (signal 9)")
check("signal 9" in err + out, "with a message naming the signal", err + out)
print(f"ok: job ended {time.monotonic() - t0:.1f} s after kill -9")
