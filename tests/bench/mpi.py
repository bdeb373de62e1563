#!/usr/bin/env python3
"""Many hosts on MPI, measured on one machine (a benchmark, not a timed test):

  1. the cost of MPI itself: `mpirun -np 1 loadgen 4` against `loadgen 4`, ops/s, as
     K pairs on a tmpfs (median of the ratios; target: within 3 %);
  2. the start skew of 2, 4 and 8 ranks on localhost (start_skew_ms of the result);
  3. 8 ranks x 64 clients = 512 clients complete a 10 s run.

    tests/bench/mpi.py [--pairs K] [-t SECONDS] [--dir DIR] [--json FILE] BUILD_DIR

As root it mounts a tmpfs of its own (unmounted at the end); otherwise give --dir."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def run(cmd, jpath):
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    with open(jpath) as f:
        return json.load(f)["runs"][0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("-t", "--time", type=float, default=5)
    ap.add_argument("--dir")
    ap.add_argument("--json")
    a = ap.parse_args()
    lg = os.path.join(os.path.abspath(a.build), "loadgen")
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("mpirun not found (Debian: openmpi-bin)")
    root = a.dir or tempfile.mkdtemp(prefix="lgbench-mpi.")
    mounted = False
    if not a.dir:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2g", "none", root], check=True)
        mounted = True
    j = os.path.join(tempfile.mkdtemp(prefix="lgbench-mpi-json."), "r.json")
    base = ["-q", "-t", str(a.time), "--warmup", "1", "-D", root, "--json", j]
    # Open MPI binds a rank to one core when there are at most 2 ranks: a rank's clients
    # are threads that need every core, as a plain loadgen's do
    mpi = [mpirun, "--oversubscribe", "--bind-to", "none", "-np"]
    out = {"pairs": [], "skew": {}, "big": None}
    try:
        for k in range(a.pairs):
            plain = run([lg] + base + ["4"], j)["ops_per_s"]
            one = run(mpi + ["1", lg] + base + ["4"], j)["ops_per_s"]
            out["pairs"].append({"plain_ops_s": plain, "mpi1_ops_s": one, "ratio": one / plain})
            print(f"pair {k + 1}: loadgen 4 {plain:.0f} ops/s, mpirun -np 1 loadgen 4 "
                  f"{one:.0f} ops/s, ratio {one / plain:.3f}", flush=True)
        for np in (2, 4, 8):
            skews = [run(mpi + [str(np), lg] + base[:2] + ["2"] + base[3:] + ["2"],
                         j)["start_skew_ms"] for _ in range(3)]
            out["skew"][np] = skews
            print(f"start skew, {np} ranks: " + " ".join(f"{s:.3f}" for s in skews) + " ms",
                  flush=True)
        big = run(mpi + ["8", lg, "-q", "-t", "10", "--warmup", "2", "-D", root, "--json", j,
                         "64"], j)
        out["big"] = {"clients": len(big["clients"]), "status": big["status"],
                      "ops_per_s": big["ops_per_s"], "duration_s": big["duration_s"],
                      "start_skew_ms": big["start_skew_ms"]}
        print(f"8 ranks x 64 clients: {len(big['clients'])} clients, {big['status']}, "
              f"{big['ops_per_s']:.0f} ops/s over {big['duration_s']:.2f} s, start skew "
              f"{big['start_skew_ms']:.3f} ms", flush=True)
    finally:
        if mounted:
            subprocess.run(["umount", root])
            os.rmdir(root)
    med = statistics.median(p["ratio"] for p in out["pairs"])
    out["median_ratio"] = med
    print(f"\nmpirun -np 1 / plain, median of {a.pairs} pairs: {med:.3f} "
          f"({'PASS' if abs(med - 1) <= 0.03 else 'MISS'} within 3 %)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0 if abs(med - 1) <= 0.03 and out["big"]["clients"] == 512 else 1


if __name__ == "__main__":
    sys.exit(main())
