#!/usr/bin/env python3
"""What the system monitor costs: loadgen at 48 clients on a tmpfs with --monitor on (the
default) and --monitor off, interleaved in pairs (the order alternating from pair to
pair), the median of the K on/off throughput ratios; and the monitor's own work per
interval (lg_bench_sysmon: CPU time of one interval's sampling and JSON on the master)
as a share of the machine's CPU time per interval, an upper bound of what it can take
from a CPU-bound run. Target: at most 1 % lost. On a loaded machine the pairs' ratios
scatter by far more than 1 %; the verdict is then the direct bound, provided the pairs'
95 % confidence interval does not show a larger cost.

    tests/bench/monitor_cost.py [--pairs K] [-t SECONDS] [--clients N] [--dir DIR] BUILD_DIR

Run as root it mounts a 2 GiB tmpfs of its own (and unmounts it); otherwise give --dir, a
tmpfs. Exit status: 0 target met, 1 missed, 2 a run failed."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
import json  # noqa: E402

TARGET = 0.99  # on/off throughput ratio


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("-t", "--time", type=float, default=5)
    ap.add_argument("--clients", type=int, default=48)
    ap.add_argument("--dir")
    return ap.parse_args()


def one(exe, work, args, monitor):
    doc, _ = benchlib.loadgen(exe, ["-t", str(args.time), "--warmup", "1", "--monitor", monitor,
                                    str(args.clients)], os.path.join(work, "run"),
                              timeout=args.time * 10 + 120)
    return doc["runs"][0]["throughput_mbps"]


def main():
    args = parse_args()
    exe = os.path.join(args.build, "loadgen")
    work, mounted = args.dir, False
    if not work:
        if os.geteuid() != 0:
            print("monitor_cost: give --dir (a tmpfs) or run as root", file=sys.stderr)
            return 2
        work = tempfile.mkdtemp(prefix="lgbench.")
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2g", "tmpfs", work], check=True)
        mounted = True
    ratios = []
    try:
        for k in range(args.pairs):
            order = ["on", "off"] if k % 2 == 0 else ["off", "on"]
            got = {m: one(exe, work, args, m) for m in order}
            ratios.append(got["on"] / got["off"])
            print(f"pair {k + 1}: on {got['on']:.1f} MB/s  off {got['off']:.1f} MB/s  "
                  f"ratio {ratios[-1]:.4f}", flush=True)
    except benchlib.BenchError as e:
        print(f"monitor_cost: {e}", file=sys.stderr)
        return 2
    finally:
        if mounted:
            subprocess.run(["umount", work])
            shutil.rmtree(work, ignore_errors=True)
    med = statistics.median(ratios)
    mean = statistics.mean(ratios)
    half = 2.45 * statistics.stdev(ratios) / len(ratios) ** 0.5 if len(ratios) > 1 else 0
    print(f"monitor on/off throughput over {len(ratios)} pairs: median {med:.4f}, "
          f"mean {mean:.4f} +/- {half:.4f} (95 % CI, t for 6 df)")
    cost = direct_cost(args.build)
    bound = cost["cpu_us_per_interval"] / (1e6 * os.cpu_count()) * 100
    print(f"monitor work per 1 s interval: {cost['cpu_us_per_interval']:.0f} us CPU "
          f"({cost['wall_us_per_interval']:.0f} us wall) = {bound:.3f} % of {os.cpu_count()} "
          f"CPUs' time")
    ok = bound <= 1 and mean + half >= TARGET
    print(f"monitor cost: {bound:.3f} % (target <= 1 %; pairs' CI upper bound "
          f"{mean + half:.4f} >= {TARGET}): {'PASS' if ok else 'MISS'}")
    return 0 if ok else 1


def direct_cost(build):
    """lg_bench_sysmon following every disk of the machine (more than a run follows)."""
    exe = os.path.join(build, "tests", "bench", "lg_bench_sysmon")
    disks = [d for d in os.listdir("/sys/block") if not d.startswith(("loop", "ram"))]
    p = subprocess.run([exe, "2000"] + disks, capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


if __name__ == "__main__":
    sys.exit(main())
