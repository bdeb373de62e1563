"""Phases between barriers (the 'barrier' step, loadfiles/mdtest.yaml):

- one host: mdtest.yaml's four phases, each one's items, ops and bytes exact, its rate
  equal to its items over its span computed again here from the clients' rows, and no
  client beginning a phase before every client ended the one before; the text table
  says the same;
- one host: a client process held 2 s (SIGSTOP) before a barrier holds the others at it,
  across the master's interval;
- two MPI ranks: a rank held 2 s (SIGSTOP) before a barrier holds every client of the
  other rank at it, and so does one client process of a rank (--processes) for every
  other client of both ranks (the phase after it begins for all once the held rank arrives); a
  rank killed (SIGKILL) while the other waits at a barrier does not hang the job; a rank
  interrupted (SIGINT) while the other rank is held ends the run for both, with the
  result written (status interrupted, exit 130).

The MPI part skips (77) without mpirun or an MPI build."""
import glob
import json
import os
import shutil
import signal
import subprocess
import time

from lgtest import (LOADGEN, MPIEXEC, SOURCE, check, mpi_cmd, mpi_env, mpi_rank_of, run, skip,
                    tmpdir, write)

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)

# --- one host: mdtest.yaml, 3 clients, 25 files each ----------------------------------
files, size, n = 25, 4096, 3
r = run(["-c", os.path.join(SOURCE, "loadfiles", "mdtest.yaml"), "-D", target, "-q",
         "-p", f"files={files}", "-p", f"size={size}", str(n)], workdir=d)
check(r.rc == 0 and r.json, "mdtest.yaml: exit 0 with a result", r)
run0 = r.json["runs"][0]
ph = run0["barrier_phases"]
check([p["name"] for p in ph] == ["create", "stat", "read", "remove"],
      f"mdtest.yaml: four phases, the empty one before the first barrier left out "
      f"({[p['name'] for p in ph]})")
want = {"create": (3, size), "stat": (1, 0), "read": (3, size), "remove": (1, 0)}
for p in ph:
    per_item, b = want[p["name"]]
    check(p["items"] == n * files and p["ops"] == n * files * per_item and
          p["bytes"] == n * files * b and p["clients"] == n,
          f"phase {p['name']}: {n * files} items, {n * files * per_item} ops, "
          f"{n * files * b} bytes, {n} clients ({p['items']}, {p['ops']}, {p['bytes']})")
rows = {c["id"]: c["barrier_phases"] for c in run0["clients"]}
for i, p in enumerate(ph):
    mine = [rows[c][i] for c in rows]
    check(all(m["name"] == p["name"] and m["items"] == files for m in mine),
          f"phase {p['name']}: each client's row has its {files} items")
    lo, hi = min(m["start_s"] for m in mine), max(m["end_s"] for m in mine)
    rate = p["items"] / (hi - lo)
    check(abs(p["start_s"] - lo) < 1e-9 and abs(p["end_s"] - hi) < 1e-9 and
          abs(p["items_per_s"] - rate) <= 1e-6 * rate,
          f"phase {p['name']}: rate = items / (last end - first start) of the clients' "
          f"rows ({p['items_per_s']:.1f} vs {rate:.1f})")
    if i:
        prev_end = max(rows[c][i - 1]["end_s"] for c in rows)
        check(lo >= prev_end, f"phase {p['name']}: no client began it before every "
              f"client ended {ph[i - 1]['name']} ({lo:.6f} >= {prev_end:.6f})")
table = r.out.split("Phases between barriers")[1].split("\n\n")[0].split("\n")
for p in ph:
    line = [x for x in table if x.split()[:1] == [p["name"]]]
    check(len(line) == 1 and int(line[0].split()[1]) == p["items"] and
          abs(float(line[0].split()[4]) - p["items_per_s"]) <= 0.06 + 1e-6 * p["items_per_s"],
          f"text: phase {p['name']}'s row has its items and rate", r.out)

# --- one host, a client process held 2 s: the others wait at the barrier for it ------
HOLD = write(os.path.join(d, "hold.yaml"), """name: hold
run:
  - create: {path: "started${client}", as: f}
  - close: f
  - sleep: 1s
  - barrier: after
  - stat: "started${client}"
cleanup:
  - unlink: "started${client}"
""")
top = os.path.join(d, "proc")
os.mkdir(top)
jp = os.path.join(d, "proc.json")
p = subprocess.Popen([LOADGEN, "-q", "-c", HOLD, "-D", top, "--json", jp, "--processes", "3"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
t0 = time.monotonic()
while len(glob.glob(os.path.join(top, "*", "started*"))) < 3 and time.monotonic() - t0 < 60:
    time.sleep(0.01)
kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
check(len(kids) == 3, f"one host: 3 client processes ({kids})")
os.kill(int(kids[1]), signal.SIGSTOP)
time.sleep(2)  # the master takes an interval (1 s) meanwhile: it must not open the barrier
os.kill(int(kids[1]), signal.SIGCONT)
out, err = p.communicate(timeout=60)
check(p.returncode == 0, f"one host, held client: exit 0 ({p.returncode})", err)
rows = [c["barrier_phases"] for c in json.load(open(jp))["runs"][0]["clients"]]
ends = sorted(x[0]["end_s"] for x in rows)
after = [x[1]["start_s"] for x in rows]
check(ends[1] < 1.5 and ends[2] > 1.8 and min(after) >= ends[2],
      f"one host: the held client ended its phase at ~2 s, and no client began 'after' "
      f"before it arrived ({ends}, {after})")

# --- two ranks ---------------------------------------------------------------------
version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
if not MPIEXEC or "(MPI)" not in version:
    skip("an MPI launcher or an MPI build of loadgen is missing: the barriers across ranks")
    raise SystemExit(0)


def rank_pids(top):
    """The pids by rank of the loadgen ranks of the job on directory top (not another
    test's MPI job running meanwhile), in one look through /proc."""
    found = {}
    for p in glob.glob("/proc/[0-9]*"):
        try:
            ours = (open(p + "/comm").read().strip() == "loadgen" and
                    top.encode() in open(p + "/cmdline", "rb").read().split(b"\0"))
            env = open(p + "/environ", "rb").read().split(b"\0") if ours else []
        except OSError:
            continue
        rank = mpi_rank_of(dict(e.split(b"=", 1) for e in env if b"=" in e))
        if rank is not None:
            found[rank] = int(p[6:])
    return found


def start(tag, extra=()):
    """2 ranks x 2 clients of hold.yaml; returns once every client has begun."""
    top = os.path.join(d, tag)
    os.mkdir(top)
    jp = os.path.join(d, tag + ".json")
    p = subprocess.Popen(mpi_cmd(2, [LOADGEN, "-q", "-c", HOLD, "-D", top, "--json", jp,
                                     *extra, "2"]), env=mpi_env(),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    ranks = {}
    while len(ranks) < 2 or len(glob.glob(os.path.join(top, "*", "started*"))) < 4:
        if p.poll() is not None or time.monotonic() - t0 > 60:
            check(False, f"{tag}: the clients began", p.communicate()[1])
        if len(ranks) < 2:  # before the clients begin: then no time is lost looking
            ranks = rank_pids(top)
        time.sleep(0.01)
    return p, jp, top, ranks


# A rank held 2 s: the other rank's clients wait at the barrier for it.
p, jp, top, ranks = start("held")
r1 = ranks[1]
os.kill(r1, signal.SIGSTOP)
time.sleep(2)
os.kill(r1, signal.SIGCONT)
out, err = p.communicate(timeout=120)
check(p.returncode == 0, f"held: exit 0 ({p.returncode})", err)
doc = json.load(open(jp))["runs"][0]
rows = {c["id"]: c["barrier_phases"] for c in doc["clients"]}
first = {c: rows[c][0]["end_s"] for c in rows}
after = [rows[c][1]["start_s"] for c in rows]
check(max(first[0], first[1]) < 1.5 and min(first[2], first[3]) > 1.8,
      f"held: rank 0's clients ended their first phase at ~1 s, the held rank's at "
      f"~2 s or later ({first})")
# the ranks' rows are on rank 0's clock to within the error of the clocks' offsets
tol = doc["start_skew_clock_error_ms"] / 1e3 + 1e-4
check(min(after) >= max(first.values()) - tol and max(after) - min(after) < 0.5,
      f"held: every client of both ranks began 'after' once the held rank arrived, "
      f"together ({after})")
check(os.listdir(top) == [], "held: the run directory removed")

# One client process of rank 1 held 2 s: every other client, of both ranks, waits for it.
p, jp, top, ranks = start("held client", ["--processes"])
kids = subprocess.run(["pgrep", "-P", str(ranks[1])], capture_output=True,
                      text=True).stdout.split()
check(len(kids) == 2, f"held client: rank 1 runs 2 client processes ({kids})")
os.kill(int(kids[0]), signal.SIGSTOP)
time.sleep(2)
os.kill(int(kids[0]), signal.SIGCONT)
out, err = p.communicate(timeout=120)
check(p.returncode == 0, f"held client: exit 0 ({p.returncode})", err)
doc = json.load(open(jp))["runs"][0]
rows = {c["id"]: c["barrier_phases"] for c in doc["clients"]}
ends = sorted((rows[c][0]["end_s"], c) for c in rows)
after = [rows[c][1]["start_s"] for c in rows]
check(ends[2][0] < 1.5 and ends[3][0] > 1.8 and ends[3][1] in (2, 3),
      f"held client: three clients ended their first phase at ~1 s, the held one of "
      f"rank 1 at ~2 s ({ends})")
tol = doc["start_skew_clock_error_ms"] / 1e3 + 1e-4
check(min(after) >= ends[3][0] - tol,
      f"held client: the other client of its rank and both of rank 0 began 'after' only "
      f"once it arrived ({after})")

# A rank killed while the other waits at the barrier: the job ends, it does not hang.
p, jp, top, ranks = start("killed")
r1 = ranks[1]
os.kill(r1, signal.SIGSTOP)  # held, so that rank 0's clients wait at the barrier
time.sleep(1.3)  # from 1 s on
os.kill(r1, signal.SIGKILL)
t0 = time.monotonic()
try:
    p.communicate(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    check(False, "killed: the job ended within 30 s of the kill")
check(p.returncode != 0, f"killed: the job ended, in {time.monotonic() - t0:.1f} s, "
      f"failing ({p.returncode})")

# A rank interrupted while the other is held: both stop, the result is written.
p, jp, top, ranks = start("interrupted")
r0, r1 = ranks[0], ranks[1]
os.kill(r0, signal.SIGSTOP)
time.sleep(1.3)  # rank 1's clients wait at the barrier for rank 0's
os.kill(r1, signal.SIGINT)
time.sleep(0.5)
os.kill(r0, signal.SIGCONT)
try:
    out, err = p.communicate(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    check(False, "interrupted: the job ended within 30 s")
doc = json.load(open(jp))["runs"][0]
check(p.returncode == 130 and doc["status"] == "interrupted",
      f"interrupted: exit 130, status interrupted ({p.returncode}, {doc['status']})")
check(all(len(c["barrier_phases"]) == 1 for c in doc["clients"]),
      "interrupted: no client began the phase after the barrier")
check(os.listdir(top) == [], "interrupted: the run directory removed")
shutil.rmtree(d)
