#!/usr/bin/env python3
"""How faithfully loadgen replays a recorded program, measured side by side on this machine
(issue 27's targets):

  timing   `loadgen -c REC --replay-timing original 1` against the program itself, run on a
           fresh copy of its input without a tracer: |replay - original| / original <= 10 %
           for each program (ARTC, SOSP 2013, averaged 10.6 % across machines);
  afap     `loadgen -c REC 1` (afap) ops/s against the floor, the same calls as
           straight-line C (bare_replay.py) with the same threads, one per stream, and
           the same waits between them: >= 0.95. The one-thread floor (all streams'
           calls in one thread, in an order that keeps the waits) is printed beside it:
           it measures what running the program's streams concurrently costs, not what
           loadgen adds.

  python3 tests/bench/replay.py [--runs N] [--dir DIR] [--only tar,git,...] BUILD_DIR

Each program (tests/integration/programs.py) is recorded once with `loadgen record`, then
timed N times each way, alternating, each run on a fresh copy; medians are compared. It
prints one row per program and exits 1 when a target is missed (2 when it could not
measure)."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)

import bare_replay  # noqa: E402
import programs  # noqa: E402
import yaml  # noqa: E402

TIMING_TARGET = 0.10
AFAP_TARGET = 0.95


def fresh(parent, name):
    d = tempfile.mkdtemp(prefix=f"{name}.", dir=parent)
    programs.PROGRAMS[name][1](d)
    return d


def original(parent, name):
    """Seconds the program takes on a fresh copy of its input, untraced."""
    d = fresh(parent, name)
    argv, env = programs.PROGRAMS[name][2], programs.env()
    null = os.open(os.devnull, os.O_WRONLY)
    here = os.getcwd()
    try:
        # posix_spawn and waitpid, as loadgen record times its untraced runs: the
        # subprocess module costs a few ms of its own (pipes, closing fds), which is a
        # third of sqlite3's run
        os.chdir(d)
        t = time.monotonic()
        pid = os.posix_spawnp(argv[0], argv, env, file_actions=[
            (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)])
        _, status = os.waitpid(pid, 0)
        elapsed = time.monotonic() - t
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{name} failed on a fresh copy: exit status {status}")
        return elapsed
    finally:
        os.chdir(here)
        os.close(null)
        shutil.rmtree(d, ignore_errors=True)


def replay(loadgen, rec, parent, timing):
    """One replay by one client: the result's first run."""
    j = os.path.join(parent, "replay.json")
    p = subprocess.run([loadgen, "-q", "--monitor", "off", "-D", parent, "-c", rec,
                        "--replay-timing", timing, "--json", j, "1"],
                       capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        raise SystemExit(f"replay of {rec} failed (exit {p.returncode}):\n{p.stdout}{p.stderr}")
    with open(j) as f:
        return json.load(f)["runs"][0]


def record(loadgen, parent, name, out, timing):
    d = fresh(parent, name)
    try:
        p = subprocess.run([loadgen, "record", "-o", out, "-C", d, *timing, "--",
                            *programs.PROGRAMS[name][2]], env=programs.env(),
                           capture_output=True, text=True, timeout=900)
        if p.returncode != 0:
            raise SystemExit(f"loadgen record of {name} failed (exit {p.returncode}):\n"
                             f"{p.stderr}")
        return p.stderr
    finally:
        shutil.rmtree(d, ignore_errors=True)


def measure(loadgen, parent, name, runs, timing_runs):
    rec = os.path.join(parent, f"{name}.yaml")
    summary = record(loadgen, parent, name, rec,
                     ["--timing-runs", str(timing_runs)] if timing_runs else [])
    with open(rec) as f:
        doc = yaml.safe_load(f)
    exe, calls = bare_replay.build(doc, parent, threads=True)
    exe1, calls1 = bare_replay.build(doc, parent)
    orig, timed, afap, floor, floor1 = [], [], [], [], []
    for _ in range(runs):  # alternating, so a drift of the machine hits both sides
        orig.append(original(parent, name))
        timed.append(replay(loadgen, rec, parent, "original")["duration_s"])
        a = replay(loadgen, rec, parent, "afap")
        afap.append(a["ops_per_s"])
        b = bare_replay.run(exe, parent)
        floor.append(b["ops"] / b["seconds"])
        b = bare_replay.run(exe1, parent)
        floor1.append(b["ops"] / b["seconds"])
    if a["ops"] != calls:
        raise SystemExit(f"{name}: loadgen made {a['ops']} calls, the floor {calls}")
    if calls1 != calls:
        raise SystemExit(f"{name}: the threaded floor makes {calls} calls, the other {calls1}")
    o, t = statistics.median(orig), statistics.median(timed)
    u = (doc.get("recorded") or {}).get("untraced_median_s")
    return {"program": name, "streams": len(doc["streams"]), "calls": calls,
            "original_s": o, "replay_s": t, "timing_error": abs(t - o) / o,
            # the program against itself: its untraced runs while it was recorded (what
            # the think times were fitted to) and its runs here, a minute later
            "recorded_s": u, "drift": (o - u) / u if u else None,
            "afap_ops_s": statistics.median(afap), "floor_ops_s": statistics.median(floor),
            "afap_ratio": statistics.median(afap) / statistics.median(floor),
            "floor1_ops_s": statistics.median(floor1),
            "record_summary": summary.strip().splitlines()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--dir", default=None, help="where inputs and replays go (default: /tmp)")
    ap.add_argument("--only", default=",".join(programs.PROGRAMS))
    ap.add_argument("--timing-runs", type=int, default=5,
                    help="loadgen record --timing-runs N (0: think times from the trace alone)")
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args()
    loadgen = os.path.join(os.path.abspath(args.build), "loadgen")
    parent = tempfile.mkdtemp(prefix="replay-bench.", dir=args.dir)
    rows, ok = [], True
    try:
        for name in args.only.split(","):
            if programs.missing(name):
                print(f"{name}: skipped, {programs.missing(name)} is not installed")
                continue
            rows.append(measure(loadgen, parent, name, args.runs, args.timing_runs))
    finally:
        shutil.rmtree(parent, ignore_errors=True)
    print(f"{'program':8} {'streams':>7} {'calls':>6} {'original s':>10} {'replay s':>9} "
          f"{'error':>6} {'afap ops/s':>10} {'floor ops/s':>11} {'ratio':>5} "
          f"{'1-thread floor':>14} {'drift':>6}")
    for r in rows:
        t_ok = r["timing_error"] <= TIMING_TARGET
        a_ok = r["afap_ratio"] >= AFAP_TARGET
        ok = ok and t_ok and a_ok
        print(f"{r['program']:8} {r['streams']:7} {r['calls']:6} {r['original_s']:10.3f} "
              f"{r['replay_s']:9.3f} {100 * r['timing_error']:5.1f}%{'' if t_ok else '!'} "
              f"{r['afap_ops_s']:10.0f} {r['floor_ops_s']:11.0f} {r['afap_ratio']:5.2f}"
              f"{'' if a_ok else '!'} {r['floor1_ops_s']:14.0f} "
              + (f"{100 * r['drift']:+5.1f}%" if r["drift"] is not None else "     -"))
    print(f"targets: timing error <= {100 * TIMING_TARGET:.0f} % per program, afap/floor >= "
          f"{AFAP_TARGET}; medians of {args.runs} runs each ('!': missed)")
    print("drift: the program's own median here against its untraced runs' while it was "
          "recorded (the think times' fit); a timing error beside a drift as large is the "
          "machine's")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    sys.exit(0 if ok and rows else 1)


if __name__ == "__main__":
    main()
