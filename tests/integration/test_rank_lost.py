"""A rank that dies (MPI): kill -9 of rank 2 of 4 (2 clients each, on tmpfs) about 5 s
into a 12 s run. mpirun ends; rank 0 has written the result: status partial, the
timeline up to the last interval every rank counted (at least the first 4 s), totals
that are the timeline's sums, the lost rank and its host named (each rank has its own
host name where unshare works), no latency percentiles and the missing figures named;
--log holds every interval and the result as its last line; rank 0 exits 1 (each
rank's exit status is recorded by a wrapper: mpirun's own says how the job ended, not
what rank 0 wrote). With --repeat 3 and the kill in run 2: run 1 whole, run 2 partial,
no run 3. The same over TCP (Open MPI's tcp transport, as between hosts). A rank alive but busy (its client process held in the cleanup) when every rank
is told to stop, rank 0 waiting for it, is not lost: it answers rank 0's call from its
wait for the clients, and the result is the interrupted one.

Skips (77) when mpirun is missing or the binary was built without MPI."""
import glob
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

from lgtest import LOADGEN, check, mpi_env, skip, tmpdir, write

MPIRUN = shutil.which("mpirun")
version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
if not MPIRUN or "(MPI)" not in version:
    skip("mpirun or an MPI build of loadgen is missing")
    raise SystemExit(0)

# Each rank: its own host name h<rank> (with HOSTS), SIGTERM ignored by the shell (it
# waits to record the rank's exit status; loadgen sets its own handler), the status in
# $EXITS/rank<r>.
RANK_SCRIPT = r'''
r=$OMPI_COMM_WORLD_RANK
if [ -n "$HOSTS" ]; then hostname "h$r" || exit 97; fi
trap '' TERM
"$@"
echo $? > "$EXITS/rank$r"
'''
hosts = subprocess.run(["unshare", "-u", "true"], capture_output=True).returncode == 0
d = tmpdir()
shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
WL = write(os.path.join(d, "w.yaml"), """name: w
run:
  - create: {path: "f${client}", as: out, flags: [write, truncate]}
  - write: {file: out, size: 4KiB, count: 16}
  - close: out
""")


def rank_pids(top):
    """The pids by rank of the loadgen ranks of the job on directory top (not another
    job's ranks), as test_barrier.py finds them; not their client processes (with
    --processes), which look the same but are children of a rank."""
    found, parent = {}, {}
    for p in glob.glob("/proc/[0-9]*"):
        try:
            ours = (open(p + "/comm").read().strip() == "loadgen" and
                    top.encode() in open(p + "/cmdline", "rb").read().split(b"\0"))
            env = open(p + "/environ", "rb").read().split(b"\0") if ours else []
            ppid = int(open(p + "/stat").read().rsplit(")", 1)[1].split()[1]) if ours else 0
        except OSError:
            continue
        for e in env:
            if e.startswith(b"OMPI_COMM_WORLD_RANK="):
                found.setdefault(int(e.split(b"=")[1]), []).append(int(p[6:]))
                parent[int(p[6:])] = ppid
    return {r: [x for x in pids if parent[x] not in pids][0] for r, pids in found.items()}


def intervals(log, run):
    """Interval lines of run (0-based) in the --log file so far."""
    try:
        lines = open(log).read().split("\n")
    except OSError:
        return []
    out = []
    for line in lines:
        try:
            x = json.loads(line)
        except ValueError:
            continue  # the line being written
        if x.get("type") == "interval" and x.get("run") == run:
            out.append(x)
    return out


def lose_rank2(tag, args, run, after, env=None):
    """4 ranks x 2 clients with args; kill -9 of rank 2 once the log shows interval
    `after` of run `run`. Returns (mpirun's result, exits by rank, json, log lines)."""
    top = tempfile.mkdtemp(prefix=f"lgtest.{tag}.", dir=shm)
    exits = os.path.join(d, tag + ".exit")
    os.mkdir(exits)
    jp, lp = os.path.join(d, tag + ".json"), os.path.join(d, tag + ".log")
    cmd = [MPIRUN, "--oversubscribe", "-np", "4"]
    cmd += ["unshare", "-u"] if hosts else []
    cmd += ["sh", "-c", RANK_SCRIPT, "sh", LOADGEN, "--warmup", "0", "-c", WL, "-D", top,
            "--json", jp, "--log", lp, *args, "2"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(mpi_env(), EXITS=exits, HOSTS="1" if hosts else "", **(env or {})))
    t0, ranks = time.monotonic(), {}
    while len(intervals(lp, run)) < after:
        if p.poll() is not None or time.monotonic() - t0 > 120:
            p.kill()
            check(False, f"{tag}: the run reached interval {after} of run {run + 1}",
                  p.communicate()[1])
        if len(ranks) < 4:
            ranks = rank_pids(top)
        time.sleep(0.05)
    check(len(ranks) == 4, f"{tag}: 4 ranks found ({ranks})")
    os.kill(ranks[2], signal.SIGKILL)
    t1 = time.monotonic()
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        for pid in rank_pids(top).values():
            os.kill(pid, signal.SIGKILL)
        p.kill()
        out, err = p.communicate()
        check(False, f"{tag}: mpirun ended within 60 s of the kill", err)
    print(f"{tag}: mpirun ended {time.monotonic() - t1:.1f} s after the kill, exit "
          f"{p.returncode}")
    got = {}
    for f in os.listdir(exits):
        got[int(f[4:])] = int(open(os.path.join(exits, f)).read())
    check(os.path.exists(jp), f"{tag}: rank 0 wrote the result file", err)
    doc = json.load(open(jp))
    lines = [json.loads(x) for x in open(lp).read().split("\n") if x.strip()]
    shutil.rmtree(top, ignore_errors=True)  # left behind: no time to remove it
    return p, out, err, got, doc, lines


def check_partial(tag, out, err, got, run, lines, k, least, mpirun_status=None):
    """Run k of the result (run) is rank 2's loss, after `least` seconds at least."""
    host = "h2" if hosts else os.uname().nodename
    # Rank 0's own status, recorded by its shell; under a sanitizer (TSan: CI) rank 0
    # leaves slowly enough that the launcher's SIGKILL, a second after its SIGTERM, can
    # reach that shell first: then mpirun's status is rank 0's, the first non-zero exit
    # of a rank it saw (the killed rank counts as killed, not as an exit status).
    status = got.get(0, mpirun_status if 0 not in got else None)
    check(status == 1, f"{tag}: rank 0 exits 1, partial ({got}, mpirun {mpirun_status})",
          err)
    check(run["status"] == "partial", f"{tag}: status partial ({run['status']})")
    tl = run["timeline"]
    check(len(tl) >= least and tl[-1]["t_s"] >= least and
          all(abs(tl[i]["t_s"] - (i + 1)) < 0.5 for i in range(len(tl))),
          f"{tag}: the timeline covers the first {least} s at least, interval by interval "
          f"({[round(x['t_s'], 2) for x in tl]})")
    lost = run["lost_ranks"]
    check(len(lost) == 1 and lost[0]["rank"] == 2 and lost[0]["host"] == host and
          abs(lost[0]["time_s"] - tl[-1]["t_s"]) < 1e-9,
          f"{tag}: rank 2 on host {host} lost after the last interval ({lost})")
    check(run["ops"] == sum(x["ops"] for x in tl) and
          run["bytes_written"] == sum(x["bytes_written"] for x in tl) and run["ops"] > 0 and
          abs(run["duration_s"] - tl[-1]["t_s"]) < 1e-9,
          f"{tag}: totals are the timeline's sums over its time ({run['ops']})")
    check(run["latency_ns"] is None and run["clients"] == [] and run["ops_by_type"] == {} and
          {"latency_ns", "clients", "ops_by_type", "errors"} <= set(run["missing"]),
          f"{tag}: no percentiles or rows, and missing says so ({run['missing']})")
    check(f"Partial: rank 2 (host {host}) was lost after" in out and "Missing:" in out,
          f"{tag}: the text says which rank and host were lost", out)
    mine = [x for x in lines if x.get("type") == "interval" and x["run"] == k]
    check(lines[-1]["type"] == "result" and
          lines[-1]["result"]["runs"][k]["status"] == "partial" and len(mine) == len(tl),
          f"{tag}: --log has every interval and the result as its last line")


# --- one 12 s run, rank 2 killed at ~5 s --------------------------------------------
p, out, err, got, doc, lines = lose_rank2("one", ["-t", "12"], 0, 5)
check(len(doc["runs"]) == 1, f"one: one run ({len(doc['runs'])})")
check_partial("one", out, err, got, doc["runs"][0], lines, 0, 4, p.returncode)
check(p.returncode != 0, f"one: mpirun fails ({p.returncode})")

# --- the same over TCP (as between hosts), where a message sent to the dead rank could
# hang rank 0 inside MPI: rank 0 sends it none ---------------------------------------
p, out, err, got, doc, lines = lose_rank2("tcp", ["-t", "8"], 0, 3, {"OMPI_MCA_btl": "tcp,self"})
check_partial("tcp", out, err, got, doc["runs"][0], lines, 0, 3, p.returncode)

# --- --repeat 3 of 4 s, rank 2 killed in run 2: run 1 whole, run 2 partial -----------
p, out, err, got, doc, lines = lose_rank2("repeat", ["-t", "4", "--repeat", "3"], 1, 2)
runs = doc["runs"]
check([r["status"] for r in runs] == ["complete", "partial"],
      f"repeat: run 1 complete, run 2 partial, no run 3 ({[r['status'] for r in runs]})")
first = runs[0]
check(len(first["clients"]) == 8 and first["latency_ns"]["p99"] > 0 and
      first["lost_ranks"] == [] and first["missing"] == [],
      "repeat: run 1 kept whole (8 client rows, percentiles, nothing missing)")
tl = runs[1]["timeline"]
check(len(tl) >= 2 and tl[-1]["t_s"] < 3.6, f"repeat: run 2's timeline ends before its "
      f"4 s ({[round(x['t_s'], 2) for x in tl]})")
check_partial("repeat", out, err, got, runs[1], lines, 1, 2, p.returncode)

# --- every rank stopped while rank 1's cleanup is held: rank 1 is not lost ----------
CL = write(os.path.join(d, "cl.yaml"), """name: cl
run:
  - mkdir: "m${client}"
  - rmdir: "m${client}"
cleanup:
  - create: {path: "c${client}", as: f, flags: [write]}
  - write: {file: f, size: 4KiB, offset: 0, count: 400000}
  - close: f
  - unlink: "c${client}"
""")
top = tempfile.mkdtemp(prefix="lgtest.busy.", dir=shm)
jp = os.path.join(d, "busy.json")
p = subprocess.Popen([MPIRUN, "--oversubscribe", "-np", "2", LOADGEN, "-q", "--processes",
                      "-t", "2", "--warmup", "0", "-c", CL, "-D", top, "--json", jp, "1"],
                     env=mpi_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
t0, kid, kids = time.monotonic(), None, []
while not kids and time.monotonic() - t0 < 60 and p.poll() is None:
    # in the run phase: rank 1's client process, a child of rank 1
    ranks = rank_pids(top)
    if 1 in ranks:
        kids = subprocess.run(["pgrep", "-P", str(ranks[1])], capture_output=True,
                              text=True).stdout.split()
    time.sleep(0.05)
while kids and kid is None and time.monotonic() - t0 < 60 and p.poll() is None:
    if glob.glob(os.path.join(top, "loadgen.*", "c1")):  # in its cleanup
        kid = int(kids[0])
        os.kill(kid, signal.SIGSTOP)
    time.sleep(0.002)
check(kid is not None, "busy: rank 1's client process held in its cleanup")
while glob.glob(os.path.join(top, "loadgen.*", "c0")) and time.monotonic() - t0 < 60:
    time.sleep(0.05)  # rank 0's cleanup over: it waits for rank 1
time.sleep(0.5)
for pid in rank_pids(top).values():
    os.kill(pid, signal.SIGTERM)  # a batch system's time limit: every rank told to stop
time.sleep(1.5)  # rank 0 calls meanwhile, rank 1 must answer
os.kill(kid, signal.SIGCONT)
try:
    out, err = p.communicate(timeout=60)
except subprocess.TimeoutExpired:
    p.kill()
    out, err = p.communicate()
    check(False, "busy: the job ended", err)
doc = json.load(open(jp))
check(p.returncode == 130 and [r["status"] for r in doc["runs"]] == ["interrupted"] and
      doc["runs"][0]["lost_ranks"] == [] and "was lost" not in err,
      f"busy: interrupted, exit 130, no rank lost ({p.returncode})", err)
shutil.rmtree(top, ignore_errors=True)
shutil.rmtree(d)
