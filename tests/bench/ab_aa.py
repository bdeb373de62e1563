#!/usr/bin/env python3
"""A/A trials on this machine: how often `loadgen ab` (interleaved, paired test) and two
separate `--repeat` batches compared with `loadgen compare` call identical setups faster
or slower, with a CPU hog started halfway through each trial (--hog, the default) or
with only the machine's own drift (--no-hog).

Each trial: the same workload and directory for both sides, K runs (rounds) each.
- compare: `loadgen --repeat K` (batch 1), [hog starts], `loadgen --repeat K` (batch 2),
  `loadgen compare --json batch1 batch2`;
- ab: `loadgen ab --rounds K` with two variants whose command starts the hog before the
  first run of round K/2 + 1 (so the hog runs during the second half, as above).
The hog is two busy-looping shells (this machine has 2 CPUs), killed after each trial.

    tests/bench/ab_aa.py [--trials N] [--runs K] [-t SECONDS] [--clients N] [--no-hog]
                         BUILD_DIR

Prints one line per trial and the count of significant verdicts of each method."""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile


def start_hog(pidfile):
    with open(pidfile, "a") as f:
        for _ in range(2):
            p = subprocess.Popen(["sh", "-c", "while :; do :; done"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL,
                                 start_new_session=True)
            f.write(f"{p.pid}\n")


def stop_hog(pidfile):
    if not os.path.exists(pidfile):
        return
    for line in open(pidfile).read().split():
        try:
            os.kill(int(line), signal.SIGKILL)
        except ProcessLookupError:
            pass
    os.unlink(pidfile)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=8)
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("-t", type=float, default=1.0)
    ap.add_argument("--clients", type=int, default=2)
    ap.add_argument("--no-hog", action="store_true")
    ap.add_argument("build")
    a = ap.parse_args()
    lg = os.path.join(a.build, "loadgen")
    d = tempfile.mkdtemp(prefix="lg-ab-aa.")
    pidfile = os.path.join(d, "hog.pids")
    run = ["-t", str(a.t), "--warmup", "0.2", "--monitor", "off", "-D", d]
    half = a.runs // 2 + 1
    hogcmd = ("" if a.no_hog else
              f'[ "$LOADGEN_AB_ROUND" = {half} ] && [ "$LOADGEN_AB_POSITION" = 1 ] && '
              f'{sys.executable} {os.path.abspath(__file__)} --start-hog {pidfile}; true')
    sig = {"compare": 0, "ab": 0}
    try:
        for t in range(a.trials):
            files = []
            for b in range(2):
                if b == 1 and not a.no_hog:
                    start_hog(pidfile)
                out = os.path.join(d, f"b{b}.json")
                subprocess.run([lg, "--repeat", str(a.runs), "-q", "--json", out] + run +
                               [str(a.clients)], check=True, capture_output=True)
                files.append(out)
            stop_hog(pidfile)
            c = json.loads(subprocess.run([lg, "compare", "--json"] + files, check=True,
                                          capture_output=True, text=True).stdout)
            cv = json.dumps(c)
            cverdict = ("faster" if '"faster"' in cv else "slower" if '"slower"' in cv
                        else "no significant difference")
            an = os.path.join(d, "an.json")
            subprocess.run([lg, "ab", "--variant", "A1=" + hogcmd, "--variant",
                            "A2=" + hogcmd, "--rounds", str(a.runs), "--json", an,
                            "--out-dir", d] + run + [str(a.clients)], check=True,
                           capture_output=True)
            stop_hog(pidfile)
            j = json.load(open(an))
            sig["compare"] += cverdict != "no significant difference"
            sig["ab"] += j["verdict"] != "no significant difference"
            print(f"trial {t + 1}: compare {cverdict}; ab {j['verdict']} "
                  f"({j['change_pct']:+.2f} %, p {j['paired_t']['p']:.3f}, drift "
                  f"{j['drift']['total_pct']:+.1f} %)", flush=True)
    finally:
        stop_hog(pidfile)
        shutil.rmtree(d, ignore_errors=True)
    print(f"{'no hog' if a.no_hog else 'CPU hog from halfway'}, {a.trials} A/A trials of "
          f"{a.runs} runs per side, -t {a.t}, {a.clients} clients: significant verdicts: "
          f"compare {sig['compare']}/{a.trials}, ab {sig['ab']}/{a.trials}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--start-hog":
        start_hog(sys.argv[2])
    else:
        main()
