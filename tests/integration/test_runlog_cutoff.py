"""A --log cut off by kill -9 of every process (issue 29: rank 0 itself dies, the log is
what survives) is read by `loadgen report` and `loadgen compare` as a partial run: status
partial, totals equal to the sums of the log's interval lines, the note that says so and
that latency percentiles are not available, never a percentile made up. Killed in both
modes (threads, --processes: the whole session, clients too) and on 2 MPI ranks
(mpirun and every rank, rank 0 the log's writer). A log truncated in
the middle of its last line still reads (that line dropped, said on stderr); an empty
file, garbage, or a log cut before its first interval is refused: exit 2, FILE:LINE:COL.
Runs on a tmpfs mounted in the test's directory when root (else in the directory)."""
import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import time

import report_browser as rb
from lgtest import LOADGEN, check, mpi_env, skip, tmpdir

NOTE = re.compile(r"partial run \(log cut off after ([0-9.]+) s\): totals from the timeline "
                  r"\((\d+) intervals?: (\d+) ops, (\d+) bytes read, (\d+) bytes written\); "
                  r"latency percentiles not available")

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
if os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1g", "tmpfs",
                                         target]).returncode == 0:
    atexit.register(lambda: subprocess.run(["umount", "-l", target]))


def loadgen(*args):
    return subprocess.run([LOADGEN] + list(args), capture_output=True, text=True,
                          timeout=120, cwd=d)


def whole_intervals(path):
    try:
        with open(path) as f:
            return sum(ln.endswith("\n") and '"type":"interval"' in ln for ln in f)
    except FileNotFoundError:
        return 0


def session(sid):
    """The live processes of session sid (the run's own: it was started in a new one;
    mpirun puts each rank in a process group of its own, but not in another session)."""
    pids = []
    for p in os.listdir("/proc"):
        try:
            with open(f"/proc/{p}/stat") as f:
                st = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if st[3] == str(sid) and st[0] != "Z":  # field 6, session; not a zombie
            pids.append(int(p))
    return pids


def killed_run(name, *extra, launcher=(), env=None):
    """A 12 s run killed with SIGKILL, every process of its session, after 5 intervals
    (about 5 s): its log's path."""
    log, res = os.path.join(d, name + ".log"), os.path.join(d, name + ".json")
    proc = subprocess.Popen(list(launcher) + [LOADGEN, "-t", "12", "--warmup", "0", "-q",
                                              "--log", log, "--json", res, "-D", target] +
                            list(extra) + ["4"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, cwd=d, env=env)
    deadline = time.time() + 60
    while time.time() < deadline and whole_intervals(log) < 5 and proc.poll() is None:
        time.sleep(0.1)
    deadline = time.time() + 10
    while session(proc.pid) and time.time() < deadline:
        for pid in session(proc.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.1)
    proc.wait()
    check(not session(proc.pid), f"{name}: every process of the run is gone")
    check(not os.path.exists(res), f"{name}: killed before it wrote its result")
    for x in os.listdir(target):  # the run directory the kill left
        shutil.rmtree(os.path.join(target, x), ignore_errors=True)
    return log


def whole_lines(path):
    """The log's lines that parse, and whether a last one was dropped."""
    out, dropped = [], False
    with open(path) as f:
        for ln in f:
            try:
                out.append(json.loads(ln))
            except ValueError:
                dropped = True
    return out, dropped


def sums(path):
    iv = [x for x in whole_lines(path)[0] if x["type"] == "interval"]
    return {"n": len(iv), "ops": sum(x["ops"] for x in iv),
            "rd": sum(x["bytes_read"] for x in iv), "wr": sum(x["bytes_written"] for x in iv),
            "len": sum(x["len_s"] for x in iv), "last": iv[-1]["t_s"] if iv else None}


def page_data(html):
    with open(html) as f:
        m = re.search(r'<script type="application/json" id="lg-data">(.*?)</script>',
                      f.read(), re.S)
    return json.loads(m.group(1))


def check_report(name, log):
    """loadgen report reads the cut log as a partial run whose totals are its intervals'."""
    s = sums(log)
    html = os.path.join(d, name + ".html")
    r = loadgen("report", log, "-o", html)
    check(r.returncode == 0, f"{name}: loadgen report reads the cut log: {r.stderr}")
    m = NOTE.search(r.stderr)
    check(m is not None, f"{name}: report says partial, totals, no percentiles: {r.stderr}")
    got = [float(m.group(1))] + [int(m.group(i)) for i in range(2, 6)]
    check(got == [round(s["last"], 1), s["n"], s["ops"], s["rd"], s["wr"]],
          f"{name}: the totals are the sums of the log's {s['n']} interval lines: {got}")
    f = page_data(html)["files"][0]
    check(NOTE.search(f["partial"]["note"]) and "latency_ns" in f["partial"]["missing"],
          f"{name}: the page says partial and what is missing: {f['partial']}")
    check([x["status"] for x in f["runs"]] == ["partial"] and
          len(f["runs"][0]["series"]["t"]) == s["n"],
          f"{name}: one partial run, its timeline the log's {s['n']} intervals")
    mbps = (s["rd"] + s["wr"]) / 1e6 / s["len"]
    check(abs(f["mbps"]["values"][0] - mbps) <= 1e-9 * max(mbps, 1) and
          abs(f["ops_s"]["values"][0] - s["ops"] / s["len"]) <= 1e-9 * max(s["ops"], 1),
          f"{name}: MB/s and ops/s from those totals ({mbps:.2f} MB/s)")
    check(all(g["latency"] == {} for g in f["groups"]),
          f"{name}: no latency curve made up: {[g['latency'] for g in f['groups']]}")
    return s


# two runs killed mid-way: threads, then processes (clients are processes of the group)
logs = [killed_run("threads"), killed_run("procs", "--processes")]
for name, log in zip(("threads", "procs"), logs):
    check(sums(log)["n"] >= 5, f"{name}: the log has the intervals up to the kill")
    check_report(name, log)
# on MPI, rank 0 (the log's writer) dies with every other rank and mpirun
mpirun = shutil.which("mpirun")
version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
if mpirun and "(MPI)" in version:
    log = killed_run("mpi", launcher=[mpirun, "--oversubscribe", "-np", "2"], env=mpi_env())
    check(sums(log)["n"] >= 5, "mpi: the log has the intervals up to the kill")
    check_report("mpi", log)
else:
    skip("a cut log of an MPI job: no mpirun, or loadgen built without MPI")

# the page in a browser: drawn without error, the note above the charts
if shutil.which("chromium") or shutil.which("chromium-browser"):
    page = rb.load(os.path.join(d, "threads.html"))
    check(page.status is not None and not page.status["errors"] and
          NOTE.search(re.sub(r"\s+", " ", page.text)),
          f"the page draws and says partial: {page.status and page.status['errors']}")
else:
    skip("the page in a browser: chromium is not installed")

# compare: two cut logs; a cut log against a complete result
r = loadgen("compare", *logs)
check(r.returncode == 0 and f"Partial: {logs[0]}: partial run" in r.stdout and
      f"Partial: {logs[1]}: partial run" in r.stdout and "MB/s" in r.stdout,
      f"compare of two cut logs compares throughput and says both are partial: {r}")
whole = os.path.join(d, "whole.json")
r = loadgen("-t", "2", "--warmup", "0", "-q", "--json", whole, "-D", target, "4")
check(r.returncode == 0, f"a complete run for the other side: {r.stderr}")
r = loadgen("compare", "--json", logs[0], whole)
check(r.returncode == 0, f"compare --json of a cut log and a complete result: {r.stderr}")
c = json.loads(r.stdout)
check(NOTE.search(c["baseline"]["partial"]["note"]) and
      c["comparisons"][0]["partial"] is None,
      f"compare --json says which side is partial: {c['baseline']['partial']}")
s = sums(logs[0])
mb = c["comparisons"][0]["metrics"]["throughput_mbps"]["baseline"]["values"]
check(len(mb) == 1 and abs(mb[0] - (s["rd"] + s["wr"]) / 1e6 / s["len"]) <= 1e-6 * max(mb[0], 1),
      f"its throughput is the intervals' ({mb})")
lat = c["comparisons"][0]["latency"]
check(lat and all(v["baseline"]["p50_ns"] is None and v["baseline"]["p99_ns"] is None and
                  v["other"]["p99_ns"] is not None for v in lat.values()),
      f"no percentile made up for the cut side, the complete side's kept: {lat}")
r = loadgen("compare", whole, logs[1])
check(r.returncode == 0 and f"Partial: {logs[1]}:" in r.stdout, f"and as the other side: {r}")

# cut in the middle of its last line (a few bytes short): that line is dropped, said
torn = os.path.join(d, "torn.log")
shutil.copy(logs[0], torn)
os.truncate(torn, os.path.getsize(torn) - 5)
lines, dropped = whole_lines(torn)
check(dropped, "the truncated copy ends in a half line")
r = loadgen("report", torn, "-o", os.path.join(d, "torn.html"))
check(r.returncode == 0 and re.search(rf"{re.escape(torn)}:{len(lines) + 1}: the last line is "
                                      r"cut short \(\d+ bytes", r.stderr),
      f"report reads it, dropping the half line with a note: {r.stderr}")
check_report("torn", torn)
r = loadgen("compare", torn, logs[0])
check(r.returncode == 0 and f"Partial: {torn}:" in r.stdout, f"compare reads it too: {r}")

# nothing usable: refused, exit 2, FILE:LINE:COL
bad = {"empty.log": "", "garbage.log": "this is no log\n\x00\x01",
       "head.log": open(logs[0]).readline(),
       "halfhead.log": open(logs[0]).readline()[:60]}
for fname, text in bad.items():
    p = os.path.join(d, fname)
    with open(p, "w") as f:
        f.write(text)
    for cmd in (["report", p, "-o", os.path.join(d, "x.html")], ["compare", p, whole]):
        r = loadgen(*cmd)
        check(r.returncode == 2 and re.search(rf"{re.escape(p)}:\d+:\d+: ", r.stderr),
              f"{cmd[0]} refuses {fname}: exit 2, file:line:col: {r.stderr.strip()}")
