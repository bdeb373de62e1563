#!/usr/bin/env python3
"""What the system monitor costs: loadgen at 48 clients on a tmpfs with --monitor on (the
default) and --monitor off, interleaved in pairs (the order alternating from pair to
pair), the median of the K on/off throughput ratios against the target of at most 1 %
lost.

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
    verdict = "PASS" if med >= TARGET else "MISS"
    print(f"monitor on/off throughput, median of {len(ratios)} pairs: {med:.4f} "
          f"(cost {100 * (1 - med):+.2f} %; target <= 1 %): {verdict}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
