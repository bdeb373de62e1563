"""--log: a complete log is a JSON line per interval and kernel message, the header first
and the result last, and `loadgen compare` reads it like a result file; a run killed with
SIGKILL leaves a log whose every line parses, with the intervals up to the kill, and
compare reads it as a partial run of what it holds (test_runlog_cutoff.py has the rest).
Robust under load by design: the kill waits for three interval lines (not any three lines:
kernel messages of the whole machine are logged too), and the intervals are checked by
how they add up, not by when the master, maybe late, took them."""
import json
import os
import signal
import subprocess
import time

from lgtest import LOADGEN, check, run, tmpdir


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f]  # every line must parse


def intervals_in(path):
    """Interval lines written so far, whole lines only (kernel messages of the whole
    machine go to the log too, so lines are not intervals)."""
    try:
        with open(path) as f:
            return sum(ln.endswith("\n") and '"type":"interval"' in ln for ln in f)
    except FileNotFoundError:
        return 0


def main():
    work = tmpdir()
    log = os.path.join(work, "run.log")
    res = run(["--log", log, "-D", work, "-t", "2", "--warmup", "0", "-q", "--repeat", "2",
               "2"], workdir=work)
    check(res.rc == 0, "a run with --log finishes", res)
    ls = lines(log)
    check(ls[0]["type"] == "header" and ls[0]["schema"] == "loadgen-log/1",
          "the first line is the header")
    check(all(k in ls[0] for k in ("env", "config", "workload", "command")),
          "the header has env, config, workload and command")
    check(ls[-1]["type"] == "result" and ls[-1]["result"] == res.json,
          "the last line is the result, the same as --json's")
    iv = [x for x in ls if x["type"] == "interval"]
    tl = sum(len(r["timeline"]) for r in res.json["runs"])
    check(len(iv) == tl, f"one interval line per timeline entry ({len(iv)} vs {tl})")
    check({x["run"] for x in iv} == {0, 1}, "interval lines say their run")
    check(all("sys" in x for x in iv), "interval lines carry sys")
    other = os.path.join(work, "result.json")
    cmp = subprocess.run([LOADGEN, "compare", log, other], capture_output=True, text=True)
    check(cmp.returncode == 0,
          f"compare reads the complete log: {cmp.stderr}")
    check("Verdict" in cmp.stdout, "and gives a verdict", cmp.stdout)

    # SIGKILL mid-run
    killed = os.path.join(work, "killed.log")
    proc = subprocess.Popen([LOADGEN, "--log", killed, "-D", work, "-t", "30", "--warmup", "0",
                             "-q", "4"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and intervals_in(killed) < 3:
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    ls = lines(killed)
    iv = [x for x in ls if x["type"] == "interval"]
    check(ls[0]["type"] == "header" and ls[-1]["type"] != "result",
          f"the killed run's log has its header and no result ({len(ls)} lines)")
    check(len(iv) >= 3, f"it has the intervals up to the kill ({len(iv)})")
    # in order, each ending where the ones before it add up to; the first no earlier
    # than one interval in (the master never ticks early; late, on a busy machine, it may)
    ts, ends = [x["t_s"] for x in iv], []
    for x in iv:
        ends.append((ends[-1] if ends else 0) + x["len_s"])
    check(ts == sorted(ts) and ts[0] >= 1.0 - 1e-6 and
          all(abs(t - e) < 1e-3 for t, e in zip(ts, ends)),
          f"in order, one per interval: t_s {ts}, lengths add up to {ends}")
    cmp = subprocess.run([LOADGEN, "compare", killed, other], capture_output=True, text=True)
    check(cmp.returncode == 0 and f"Partial: {killed}: partial run (log cut off" in cmp.stdout
          and f"({len(iv)} intervals: " in cmp.stdout,
          f"compare reads it as a partial run of its {len(iv)} intervals: {cmp.stdout}"
          f"{cmp.stderr}")
    # bad usage
    res = run(["--log", os.path.join(work, "no", "such", "dir.log"), "1"], json_out=False)
    check(res.rc == 2 and "--log" in res.err and "No such file" in res.err,
          "an unwritable --log is a usage error", res)


main()
