#!/usr/bin/env python3
"""The end of a run on many ranks, reduced against gathered (a benchmark, not a timed
test): for 32 ranks x 16 clients and 64 ranks x 8 clients on this machine (oversubscribed,
short runs), rank 0's peak resident memory and the time from the end of the measured
phase to the merged result, with the ranks' stats reduced up a tree (loadgen's way) and
gathered whole into rank 0 (the way before it: LOADGEN_MPI_MERGE=gather), side by side
in one run of this script. Figures come from the result file (runs[].ranks_merge, measured
by rank 0: getrusage and CLOCK_MONOTONIC); the ratios are gather / reduce.

    tests/bench/mpi_merge.py [--shapes 32x16,64x8] [--pairs K] [-t SECONDS] [--dir DIR]
                             [--json FILE] BUILD_DIR

As root it mounts a tmpfs of its own (unmounted at the end); otherwise give --dir."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def one(lg, mpirun, ranks, clients, method, root, secs, jdir):
    j = os.path.join(jdir, f"{ranks}x{clients}-{method}.json")
    env = dict(ENV)
    env.pop("LOADGEN_MPI_MERGE", None)
    if method == "gather":
        env["LOADGEN_MPI_MERGE"] = "gather"
    cmd = [mpirun, "--oversubscribe", "-np", str(ranks), lg, "-q", "-t", str(secs),
           "--warmup", "0", "--monitor", "off", "-D", root, "--json", j, str(clients)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-2000:]}")
    with open(j) as f:
        r = json.load(f)["runs"][0]
    m = r["ranks_merge"]
    if m["method"] != method:
        raise RuntimeError(f"asked for {method}, the result says {m['method']}")
    return {"rss_mib": m["rank0_max_rss_kib"] / 1024, "merge_s": m["seconds"],
            "end_to_merged_s": m["end_to_merged_s"], "ops": r["ops"],
            "ntypes": len(r["ops_by_type"])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--shapes", default="32x16,64x8")
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("-t", "--time", type=float, default=2)
    ap.add_argument("--dir")
    ap.add_argument("--json")
    a = ap.parse_args()
    lg = os.path.join(os.path.abspath(a.build), "loadgen")
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("mpirun not found (Debian: openmpi-bin)")
    root = a.dir or tempfile.mkdtemp(prefix="lgbench-merge.")
    mounted = False
    if not a.dir:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4g", "none", root], check=True)
        mounted = True
    jdir = tempfile.mkdtemp(prefix="lgbench-merge-json.")
    out = []
    try:
        for shape in a.shapes.split(","):
            ranks, clients = (int(x) for x in shape.split("x"))
            got = {"reduce": [], "gather": []}
            for _ in range(a.pairs):  # alternate, so that drift hits both alike
                for method in ("gather", "reduce"):
                    got[method].append(one(lg, mpirun, ranks, clients, method, root,
                                           a.time, jdir))
            row = {"ranks": ranks, "clients_per_rank": clients,
                   "op_types": got["reduce"][0]["ntypes"]}
            for method in ("reduce", "gather"):
                for k in ("rss_mib", "merge_s", "end_to_merged_s"):
                    row[f"{method}_{k}"] = statistics.median(x[k] for x in got[method])
            for k in ("rss_mib", "merge_s", "end_to_merged_s"):
                row[f"ratio_{k}"] = (row[f"gather_{k}"] / row[f"reduce_{k}"]
                                     if row[f"reduce_{k}"] > 0 else float("inf"))
            out.append(row)
            print(f"{ranks:3d} ranks x {clients:2d} clients ({row['op_types']} op types), "
                  f"median of {a.pairs}: rank 0 peak RSS reduce {row['reduce_rss_mib']:.1f} "
                  f"MiB, gather {row['gather_rss_mib']:.1f} MiB (x{row['ratio_rss_mib']:.2f}); "
                  f"merge reduce {row['reduce_merge_s']*1e3:.1f} ms, gather "
                  f"{row['gather_merge_s']*1e3:.1f} ms (x{row['ratio_merge_s']:.2f}); end of "
                  f"measured phase to merged result reduce {row['reduce_end_to_merged_s']:.2f} "
                  f"s, gather {row['gather_end_to_merged_s']:.2f} s", flush=True)
    finally:
        if mounted:
            subprocess.run(["umount", root])
            os.rmdir(root)
        shutil.rmtree(jdir, ignore_errors=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
