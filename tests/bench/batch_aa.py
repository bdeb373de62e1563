#!/usr/bin/env python3
"""Batch A/A and A/B experiments (issue 31): how often `loadgen compare`, used the way
docs/comparing.md recommends for kernels, calls identical batches different, and how
often it catches a real 10 % slowdown.

The setup of the issue: loadfiles/mix64k.yaml, 2 clients, `-t 0.5 --warmup 0.3 --repeat 5`
per batch, on DIR (a tmpfs gives the figures the issue quotes). Kernels cannot be
interleaved, so each side's batches run one after the other, as reboots would.

1. calibrate: `loadgen calibrate --batches C` of the setup into a store of this run's
   own; its "10 %: N" is the number of batches per side loadgen says a 10 % change
   needs here (--slow-batches overrides it).
2. A/A, per pair: K batches of A, then K batches of the same setup (B), then
   `compare A1..AK -- B1..BK` (K >= 2: batch means), or, with K = 1, one batch against one
   with the calibration; a pair called "faster" or "slower" is a false alarm.
3. 10 % slower, per pair: K' = N batches of A, then N batches of B paced at 90 % of the
   mean rate of this pair's A batches (`--rate`, per client), compared the same way; a
   pair called "slower" is a catch. A miss must carry a minimum detectable effect above
   10 % (never a bare "no difference").

    tests/bench/batch_aa.py [--pairs 40] [--batches 3] [--calib-batches 5] [--slow-batches N]
                            [--only aa|slow] --dir DIR BUILD_DIR

Prints one line per pair, then the rates with the command that measured them. Exit
status 0 when the targets hold (A/A false alarms <= 5 %, catches >= 90 %, no bare miss),
1 when not, 2 when a run failed."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKLOAD = os.path.join(SRC, "loadfiles", "mix64k.yaml")
RUN = ["-t", "0.5", "--warmup", "0.3", "--repeat", "5", "-c", WORKLOAD]
CLIENTS = "2"


class Bench:
    def __init__(self, a, tmp):
        self.lg = os.path.join(a.build, "loadgen")
        self.dir = a.dir
        self.tmp = tmp
        self.store = os.path.join(tmp, "calibration.json")
        self.n = 0

    def batch(self, extra=()):
        self.n += 1
        out = os.path.join(self.tmp, f"b{self.n}.json")
        p = subprocess.run([self.lg, "-D", self.dir, *RUN, *extra, "-q", "--json", out,
                            CLIENTS], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, timeout=600)
        if p.returncode != 0:
            sys.exit(f"batch_aa: a batch failed ({p.returncode}): {p.stderr.strip()}")
        return out

    def compare(self, a, b):
        args = [*a, "--", *b] if len(a) > 1 else [a[0], b[0]]
        p = subprocess.run([self.lg, "compare", "--json", "--calibration", self.store, *args],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            sys.exit(f"batch_aa: compare failed ({p.returncode}): {p.stderr.strip()}")
        return json.loads(p.stdout)["comparisons"][0]

    def calibrate(self, k):
        out = os.path.join(self.tmp, "calib")
        os.mkdir(out)
        p = subprocess.run([self.lg, "calibrate", "--batches", str(k), "--out-dir", out,
                            "--store", self.store, "-D", self.dir, *RUN, CLIENTS],
                           capture_output=True, text=True, timeout=3600)
        if p.returncode != 0:
            sys.exit(f"batch_aa: calibrate failed: {p.stderr.strip()}")
        print(p.stdout, end="")
        m = re.search(r"10 %: (\d+);", p.stdout)
        mean = re.search(r"mean ([0-9.]+) MB/s", p.stdout)
        return (int(m.group(1)) if m else 0), float(mean.group(1))


def mean_mbps(files):
    """Mean throughput of every run of the result files, MB/s."""
    runs = [r["throughput_mbps"] for f in files for r in json.load(open(f))["runs"]]
    return sum(runs) / len(runs)


def run_pairs(b, pairs, k, what, slow=False):
    called, bare = [], 0
    for i in range(pairs):
        a = [b.batch() for _ in range(k)]
        # 10 % slower than this pair's A, whatever the machine's pace is just now: each
        # client paced at 90 % of A's mean rate per client (a rate fixed once, from the
        # calibration, stops binding when the machine drifts below it)
        extra_b = ("--rate", f"{0.9 * mean_mbps(a) / int(CLIENTS):.3f}") if slow else ()
        o = [b.batch(extra_b) for _ in range(k)]
        c = b.compare(a, o)
        v = c["verdict"]
        bare_miss = what == "slow" and v != "slower" and not (c["mde_pct"] or 0) > 10
        bare += bare_miss
        called.append(v)
        print(f"{what} pair {i + 1:2d}: {v:26s} change {c['change_pct']:+6.1f} %  "
              f"p {c['p_value']:.4f}  mde {c['mde_pct'] or 0:5.1f} %  unit {c['unit']}"
              f"{'  calibrated' if c['calibration_used'] else ''}"
              f"{'  BARE MISS' if bare_miss else ''}", flush=True)
        for f in a + o:
            os.unlink(f)
    return called, bare


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--batches", type=int, default=3)
    ap.add_argument("--calib-batches", type=int, default=5)
    ap.add_argument("--slow-batches", type=int, default=0)
    ap.add_argument("--only", choices=["aa", "slow"])
    ap.add_argument("--dir", required=True)
    ap.add_argument("build")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="lg-batch-aa.")
    ok = True
    try:
        b = Bench(a, tmp)
        needed, _ = b.calibrate(a.calib_batches)
        print(f"loadgen says a 10 % change needs {needed or 'over 1000'} batches per side")
        if a.only != "slow":
            called, _ = run_pairs(b, a.pairs, a.batches, "aa")
            fa = sum(v in ("faster", "slower") for v in called)
            print(f"A/A: {fa} of {a.pairs} pairs called different with {a.batches} "
                  f"batch(es) per side (target <= 5 %: {fa <= 0.05 * a.pairs})")
            ok &= fa <= 0.05 * a.pairs
        if a.only != "aa":
            k = a.slow_batches or needed or 1
            called, bare = run_pairs(b, a.pairs, k, "slow", slow=True)
            caught = sum(v == "slower" for v in called)
            print(f"10 % slower: caught in {caught} of {a.pairs} pairs with {k} batch(es) "
                  f"per side (target >= 90 %: {caught >= 0.9 * a.pairs}); misses without "
                  f"a minimum detectable effect above 10 %: {bare}")
            ok &= caught >= 0.9 * a.pairs and bare == 0
        print("command: " + " ".join(sys.argv))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
