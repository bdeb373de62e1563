#!/usr/bin/env python3
"""loadgen's performance benchmark: loadgen side by side with the syscall floor, dbench
4.0 and fio, plus its memory, its behaviour at 4096 clients and its per-op cost.

    tests/bench/run.py [--quick] [--pairs K] [-t SECONDS] [--dir DIR] [--only SECTIONS]
                       [--json FILE] BUILD_DIR

BUILD_DIR holds loadgen and the bench programs lg_bench_floor, lg_bench_hist,
lg_bench_load and lg_bench_unmeasured (`cmake --build BUILD_DIR`).
Run as root it mounts a 2 GiB tmpfs of its own and unmounts it at the end; otherwise
give --dir (a tmpfs, for figures comparable to docs/performance.md's). Comparisons run
as pairs, A then B, K times, and report the median of the K ratios. The last thing printed
is one table with PASS/MISS (or SKIP) per target. Exit status: 0 every target met, 1
some missed, 2 a measurement failed (the table says which), 77 the rest met but a
program or file some rows need is missing (fio, dbench, strace, valgrind): those rows
say SKIP."""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "integration"))
import benchlib  # noqa: E402
import dbench_trace  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(SRC, "tests", "bench")
DBENCH_LOADFILE = "/usr/share/dbench/client.txt"
SLICE_LINES = 30184  # client.txt's first lines that close all their handles
SECTIONS = ["floor", "dbench", "fio", "memory", "scale", "hotpath"]


class Row:
    """One line of the final table. target is (op, value): ('>=', 0.95), or None for a
    figure without a target."""

    def __init__(self, section, figure, loadgen, ref, ratio, target):
        self.section, self.figure = section, figure
        self.loadgen, self.ref, self.ratio, self.target = loadgen, ref, ratio, target
        self.error = None
        self.skipped = False

    def verdict(self):
        if self.skipped:
            return "SKIP"
        if self.error:
            return "ERROR"
        if not self.target or self.ratio is None:
            return "info"
        op, want = self.target
        return "PASS" if (self.ratio >= want if op == ">=" else self.ratio <= want) else "MISS"


class Bench:
    def __init__(self, args, root):
        self.args, self.root = args, root
        b = args.build
        self.loadgen = os.path.join(b, "loadgen")
        self.floor_exe = os.path.join(b, "tests", "bench", "lg_bench_floor")
        self.hist_exe = os.path.join(b, "tests", "bench", "lg_bench_hist")
        self.load_exe = os.path.join(b, "tests", "bench", "lg_bench_load")
        self.unmeasured_exe = os.path.join(b, "tests", "bench", "lg_bench_unmeasured")
        self.rows, self.env, self.raw = [], None, {}
        self.t, self.warm = args.time, (1 if args.time >= 5 else 0)

    def dir(self, name):
        return os.path.join(self.root, name)

    def timeout(self, secs=None):
        return 60 + 4 * (secs or self.t)

    def lg(self, args, clients, secs=None, warm=None, exe=None):
        """loadgen (or exe, a build of it) for secs (default -t) after warm seconds of
        warm-up (default 1 s, none for runs under 5 s); returns (its run's JSON, Proc)."""
        secs = secs or self.t
        warm = self.warm if warm is None else warm
        full = ["-t", str(secs), "--warmup", str(warm)] + args + [str(clients)]
        doc, p = self.run_lg(full, self.timeout(secs + warm), exe=exe)
        return doc["runs"][0], p

    def run_lg(self, args, timeout, exe=None, **kw):
        """loadgen with exactly these arguments; returns (JSON, Proc)."""
        doc, p = benchlib.loadgen(exe or self.loadgen, args, self.dir("loadgen"), timeout,
                                  **kw)
        self.env = self.env or doc.get("env")
        return doc, p

    def add(self, row):
        self.rows.append(row)
        print(f"  {row.section:8} {row.figure:34} {fmt(row.loadgen)} vs {fmt(row.ref)}"
              f"  ratio {fmt(row.ratio)}  {row.verdict()}", flush=True)
        return row

    def part(self, section, measure):
        """measure(); if it needs a program this machine lacks, a SKIP row says so and the
        section goes on."""
        try:
            measure()
        except benchlib.Missing as e:
            self.add(skipped(section, e))

    def pairs(self, a, b):
        """Run a() then b(), K times; returns the lists of their values and the ratios
        b/a (loadgen is b)."""
        va, vb = [], []
        for _ in range(self.args.pairs):
            va.append(a())
            vb.append(b())
        return va, vb, [y / x if x else float("nan") for x, y in zip(va, vb)]

    # 1. loadgen against the floor: the same syscalls and nothing else.
    def floor(self):
        mix = os.path.join(SRC, "loadfiles", "mix64k.yaml")
        for n in (1, 2, 8):
            fl, lg = [], []

            def one_floor():
                fl.append(benchlib.floor(self.floor_exe, "mix64k", n, self.t, self.warm,
                                         self.dir("floor"), self.timeout()))
                return fl[-1]["ops_per_s"]

            def one_lg():
                run, p = self.lg(["-c", mix], n)
                lg.append(benchlib.per_cpu(run["ops_per_s"], p))
                return run["ops_per_s"]

            a, b, ratio = self.pairs(one_floor, one_lg)
            self.raw[f"floor_mix64k_{n}"] = {"floor": a, "loadgen": b,
                                             "floor_per_cpu": [x["per_cpu"] for x in fl],
                                             "loadgen_per_cpu": lg}
            self.add(Row("floor", f"mix64k ops/s, {n} clients", median(b), median(a),
                         median(ratio), (">=", 0.95)))
            self.add(Row("floor", f"  the same per CPU-second, {n} clients", median(lg),
                         median(x["per_cpu"] for x in fl),
                         median(y / x["per_cpu"] for x, y in zip(fl, lg)), None))

    # 2. dbench 4.0 on its own client.txt, ops/s and user CPU per million ops.
    def dbench(self):
        if not os.path.exists(DBENCH_LOADFILE):
            raise benchlib.Missing(f"{DBENCH_LOADFILE} is missing (apt-get install dbench)")
        benchlib.need("dbench")
        # dbench 4.0 warms up for t // 5 seconds and has no option to change it: give
        # loadgen the same, so both spend the same share of their CPU outside the count.
        warm = self.t // 5
        # What loading the 26 MB loadfile costs loadgen, once per run: a run of 0.1 s.
        load = median(self.run_lg(["-c", DBENCH_LOADFILE, "-t", "0.1", "--warmup", "0", "1"],
                                  self.timeout(1))[1].utime for _ in range(3))
        self.raw["dbench_load_utime_s"] = load
        self.add(Row("dbench", "user CPU s to load client.txt", load, None, None, None))
        # The loader alone (lg_bench_load): user CPU ms per compile of client.txt, the
        # median of 10 (getrusage around each, so preemption by other work is not counted).
        ms = benchlib.load(self.load_exe, DBENCH_LOADFILE, 10, 120)["user_ms_per_load"]
        self.raw["dbench_compile_user_ms"] = ms
        self.add(Row("dbench", "user CPU ms to compile client.txt", ms, 60, ms, ("<=", 60)))
        for n in (1, 2, 8, 48):
            self.dbench_clients(n, warm, load)
        self.part("dbench", self.dbench_instructions)
        self.dbench_calls()  # last: a failure to trace keeps the rows above

    def dbench_clients(self, n, warm, load):
        """dbench and loadgen in pairs with n clients, and after each loadgen run its build
        that reads no clock per op and records nothing but counts (lg_bench_unmeasured):
        what the same ops cost a client before it measures them."""
        db, lg, um = [], [], []
        procs = self.dbench_mode(n)

        def one_db():
            ops, p = benchlib.dbench(DBENCH_LOADFILE, n, self.t, self.dir("dbench"),
                                     self.timeout(self.t + warm))
            db.append((ops / self.t, p.utime / ops * 1e6))
            return db[-1][0]

        def one_lg():
            run, p = self.lg(["-c", DBENCH_LOADFILE] + procs, n, warm=warm)
            lg.append((run["ops_per_s"], p.utime / run["ops"] * 1e6,
                       max(p.utime - load, 0) / run["ops"] * 1e6))
            run, p = self.lg(["-c", DBENCH_LOADFILE] + procs, n, warm=warm,
                             exe=self.unmeasured_exe)
            um.append(p.utime / run["ops"] * 1e6)
            return lg[-1][0]

        _, _, ratio = self.pairs(one_db, one_lg)
        cpu = [b[1] / a[1] for a, b in zip(db, lg)]
        self.raw[f"dbench_{n}"] = {"dbench": db, "loadgen": lg, "unmeasured": um}
        mode = " (processes)" if procs else ""
        self.add(Row("dbench", f"client.txt ops/s, {n} clients{mode}",
                     median(x[0] for x in lg), median(x[0] for x in db),
                     median(ratio), (">=", 1.3)))
        self.add(Row("dbench", f"user CPU s per Mop, {n} clients",
                     median(x[1] for x in lg), median(x[1] for x in db),
                     median(cpu), ("<=", 0.2)))
        self.add(Row("dbench", f"  the same without the load, {n} clients",
                     median(x[2] for x in lg), median(x[1] for x in db),
                     median(b[2] / a[1] for a, b in zip(db, lg)), None))
        self.add(Row("dbench", f"  unmeasured build (no clock, no record), {n} clients",
                     median(um), median(x[1] for x in db),
                     median(u / a[1] for a, u in zip(db, um)), None))

    def dbench_calls(self):
        """Filesystem calls per op of both programs on one pass of client.txt's first
        SLICE_LINES lines, under strace (tests/integration/dbench_trace.py): the ops/s
        rows compare the same load only if these are equal."""
        benchlib.need("strace")
        work = tempfile.mkdtemp(dir=self.root, prefix="trace.")
        try:
            db, lg = dbench_trace.calls_per_op(self.loadgen, self.slice(work), work)
        except RuntimeError as e:
            raise benchlib.BenchError(f"tracing the slice: {e}") from None
        finally:
            shutil.rmtree(work, ignore_errors=True)
        self.raw["dbench_calls_per_op"] = {"dbench": db, "loadgen": lg}
        self.add(Row("dbench", f"filesystem calls per op (strace, {SLICE_LINES} lines)",
                     lg, db, lg / db, (">=", 1.0)))

    def slice(self, work):
        """client.txt's first SLICE_LINES lines in work/slice.txt; returns its path."""
        with open(DBENCH_LOADFILE, errors="replace") as f:
            head = [line for _, line in zip(range(SLICE_LINES), f)]
        path = os.path.join(work, "slice.txt")
        with open(path, "w") as f:
            f.writelines(head)
        return path

    def dbench_instructions(self):
        """User-space instructions per op of both clients' loops on the same slice
        (callgrind): exact, where user CPU seconds are sampled at the timer tick and
        charge user mode with part of every system call's return (see
        docs/performance.md). dbench's one client process, all of it, per loadfile line
        read (its fgets calls: it reads and parses a line per op); loadgen's
        lg_client_main per op (its one-time load has the rows above: under valgrind,
        nettle's SHA-256 runs without the SHA instructions, so instructions would
        overstate it)."""
        benchlib.need("valgrind")
        work = tempfile.mkdtemp(dir=self.root, prefix="callgrind.")
        try:
            path = self.slice(work)
            _, db_ir, calls = benchlib.callgrind_busiest(
                ["dbench", "-c", path, "-D", benchlib.empty_dir(os.path.join(work, "d")),
                 "-t", "2", "1"], os.path.join(work, "out"), 600)
            if not calls.get("fgets"):
                raise benchlib.BenchError("callgrind saw no fgets in dbench's client")
            db = db_ir / calls["fgets"]
            jpath = os.path.join(work, "lg.json")
            lg_cmd = [self.loadgen, "-q", "--json", jpath, "-c", path, "-t", "2",
                      "--warmup", "0", "-D", benchlib.empty_dir(os.path.join(work, "l")), "1"]
            _, lg_ir = benchlib.callgrind(lg_cmd, "lg_client_main", work, 600)
            with open(jpath) as f:
                lg = lg_ir / benchlib.json.load(f)["runs"][0]["ops"]
        finally:
            shutil.rmtree(work, ignore_errors=True)
        self.raw["dbench_instructions_per_op"] = {"dbench": db, "loadgen": lg}
        self.add(Row("dbench", "user instructions per op (callgrind)", lg, db, lg / db,
                     ("<=", 0.2)))

    def dbench_mode(self, n):
        """[] for threads, or ['--processes'] when loadgen refuses n threads because of
        the open-file limit (it counts each of client.txt's 4814 file names as an open
        file per client; forked clients each have their own limit)."""
        try:
            self.run_lg(["-c", DBENCH_LOADFILE, "-t", "0.1", "--warmup", "0", str(n)],
                        self.timeout(1))
            return []
        except benchlib.BenchError as e:
            if "open-file limit" not in str(e):
                raise
            print(f"  (threads refused: {str(e).split(': ', 2)[-1]}; using --processes)")
            return ["--processes"]

    # 3. fio psync 4 KiB random writes and reads, a file per job.
    def fio(self):
        benchlib.need("fio")
        mib = 64 if self.args.quick else 256
        yaml = os.path.join(BENCH, "randrw4k.yaml")
        for jobs in (1, 2):
            for rw in ("randwrite", "randread"):
                wr, rd = ("true", "false") if rw == "randwrite" else ("false", "true")
                cf, cl = [], []

                def one_fio():
                    iops, p = benchlib.fio(rw, jobs, self.t, self.warm, self.dir("fio"),
                                           self.timeout(), mib)
                    cf.append(benchlib.per_cpu(iops, p))
                    return iops

                def one_lg():
                    run, p = self.lg(["-c", yaml, "-p", f"mib={mib}", "-p", f"write={wr}",
                                      "-p", f"read={rd}"], jobs)
                    cl.append(benchlib.per_cpu(run["ops_per_s"], p))
                    return run["ops_per_s"]

                fio, lg, ratio = self.pairs(one_fio, one_lg)
                self.raw[f"fio_{rw}_{jobs}"] = {"fio": fio, "loadgen": lg,
                                                "fio_per_cpu": cf, "loadgen_per_cpu": cl}
                self.add(Row("fio", f"{rw} 4k ops/s, {jobs} jobs", median(lg),
                             median(fio), median(ratio), (">=", 1.0)))
                self.add(Row("fio", f"  the same per CPU-second, {jobs} jobs", median(cl),
                             median(cf), median(b / a for a, b in zip(cf, cl)), None))
        benchlib.empty_dir(self.dir("fio"))

    # 4. Resident memory (PSS of the process tree) in the measured phase.
    def memory(self):
        for mode in ("threads", "processes"):
            for n in (48, 1024):
                mb = self.pss_during_run(n, mode == "processes") / 1e6
                limit = 32 if n == 48 else (256 if mode == "threads" else None)
                row = Row("memory", f"PSS MB, {n} clients, {mode}", mb, limit,
                          mb, ("<=", limit) if limit else None)
                self.raw[f"memory_{n}_{mode}"] = mb
                self.add(row)

    def pss_during_run(self, n, processes):
        """Largest PSS sum seen in the measured phase of `loadgen N` (the built-in
        netbench workload), sampled every 0.3 s once the first execute line arrived."""
        seen = []

        def on_line(_, line, pid):
            if " execute " in line:
                for _ in range(3):
                    seen.append(benchlib.pss_bytes(pid))
                    time.sleep(0.3)
        args = ["-t", "3", "--warmup", "1"] + (["--processes"] if processes else [])
        self.run_lg(args + [str(n)], self.timeout(30), quiet=False, on_line=on_line)
        if not seen:
            raise benchlib.BenchError(f"loadgen {n}: no execute line to sample PSS at")
        return max(seen)

    # 5. 4096 thread clients: finishes, progress on time, complete JSON.
    def scale(self):
        stamps = []

        def on_line(t, line, _):
            if "MB/sec" in line and ("execute" in line or "warmup" in line):
                stamps.append(t)
        # mix4k: a 64 KiB file and one open file per client, so 4096 clients fit the
        # tmpfs and the usual open-file limits.
        args = ["-t", "10", "--warmup", "1", "-c", os.path.join(BENCH, "mix4k.yaml"), "4096"]
        t0 = time.monotonic()
        doc, _ = self.run_lg(args, 300, quiet=False, on_line=on_line)
        wall = time.monotonic() - t0
        run = doc["runs"][0]
        gaps = [b - a for a, b in zip(stamps, stamps[1:])]
        gap = max(gaps) if gaps else float("inf")
        ok = run["status"] == "complete" and len(run["clients"]) == 4096
        self.raw["scale"] = {"wall_s": wall, "gaps": gaps, "ops_per_s": run["ops_per_s"],
                             "duration_s": run["duration_s"], "status": run["status"],
                             "clients_in_json": len(run["clients"])}
        self.add(Row("scale", "4096 clients: complete JSON (1=yes)", 1.0 if ok else 0.0,
                     None, 1.0 if ok else 0.0, (">=", 1.0)))
        # A few clients may get no CPU in 10 s among 4096 runnable threads on a small
        # machine; thousands mean they were stuck, e.g. at the start gate.
        idle = sum(1 for c in run["clients"] if c["ops"] == 0)
        self.raw["scale"]["clients_without_ops"] = idle
        self.add(Row("scale", "clients with no op in the measured phase", idle, None, idle,
                     ("<=", 205)))
        self.add(Row("scale", "measured s of a 10 s run", run["duration_s"], 10,
                     run["duration_s"], ("<=", 11.5)))
        self.add(Row("scale", "max s between progress lines", gap, None, gap, ("<=", 1.5)))
        self.add(Row("scale", "wall s, start to exit", wall, None, None, None))

    # 6. The hot path: ns per histogram record, ns per op over the bare syscall.
    def hotpath(self):
        h = benchlib.hist(self.hist_exe, 20000000 if self.args.quick else 100000000, 120)
        self.add(Row("hotpath", "ns per lg_histogram_record", h["ns_per_record"], None,
                     None, None))
        secs = 2 if self.args.quick else 3
        cf, cl = [], []

        def one_floor():
            doc = benchlib.floor(self.floor_exe, "stat", 1, secs, 0.5, self.dir("floor"),
                                 self.timeout())
            cf.append(1e9 / doc["per_cpu"])
            return 1e9 / doc["ops_per_s"]

        def one_lg():
            run, p = self.lg(["-c", os.path.join(BENCH, "stat1.yaml")], 1, secs=secs, warm=0.5)
            cl.append(1e9 / benchlib.per_cpu(run["ops_per_s"], p))
            return 1e9 / run["ops_per_s"]

        fl, lg, _ = self.pairs(one_floor, one_lg)
        self.raw["hotpath_stat"] = {"floor_ns": fl, "loadgen_ns": lg,
                                    "floor_ns_per_cpu": cf, "loadgen_ns_per_cpu": cl}
        self.add(Row("hotpath", "stat ns/op (loadgen vs bare loop)", median(lg), median(fl),
                     None, None))
        self.add(Row("hotpath", "loadgen ns per op over the syscall",
                     median(b - a for a, b in zip(fl, lg)), None, None, None))
        self.add(Row("hotpath", "  the same per CPU-second",
                     median(b - a for a, b in zip(cf, cl)), None, None, None))
        self.part("hotpath", self.instructions)

    def instructions(self):
        """User-space instructions per op of a client's loop (callgrind), loadgen's
        stat1 against the floor's fstatat loop: exact, unlike times on a busy machine."""
        benchlib.need("valgrind")
        work = benchlib.empty_dir(self.dir("callgrind"))
        p, fl_ir = benchlib.callgrind([self.floor_exe, "-m", "stat", "-t", "0.3", "-d", work,
                                       "1"], "run_stat", self.root, 300)
        fl = fl_ir / benchlib.json.loads(p.out)["ops_total"]
        jpath = os.path.join(self.root, "callgrind.json")
        _, lg_ir = benchlib.callgrind([self.loadgen, "-q", "--json", jpath, "-D", work, "-c",
                                       os.path.join(BENCH, "stat1.yaml"), "-t", "0.3",
                                       "--warmup", "0", "1"], "lg_client_main", self.root, 300)
        with open(jpath) as f:
            ops = benchlib.json.load(f)["runs"][0]["ops"]
        self.raw["hotpath_instructions"] = {"floor": fl, "loadgen": lg_ir / ops}
        self.add(Row("hotpath", "user instructions per stat (callgrind)", lg_ir / ops, fl,
                     None, None))
        self.add(Row("hotpath", "loadgen instructions per op over the loop", lg_ir / ops - fl,
                     None, None, None))


def median(values):
    values = list(values)
    return statistics.median(values) if values else None


def fmt(x):
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.3g}" if abs(x) < 10 else f"{x:.1f}"


def print_table(bench):
    env = bench.env or {}
    print()
    print(f"loadgen {env.get('git_describe')} ({env.get('compiler')}) on {env.get('cpu_model')}"
          f", {env.get('cpus')} CPUs, kernel {env.get('kernel')}, "
          f"{(env.get('mem_total_bytes') or 0) / 2**30:.1f} GiB, target {env.get('fs_type')}; "
          f"{bench.args.pairs} pairs of {bench.t} s, medians")
    print(f"open-file limit {bench.raw.get('nofile')}")
    busy = bench.raw.get("busy_before", 0)
    print(f"CPUs busy in the second before the start: {100 * busy:.0f} %" +
          ("  WARNING: other work was running; the plain ratios are unreliable "
           "(the per-CPU rows less so)" if busy > 0.1 else ""))
    head = ("section", "figure", "loadgen", "reference", "ratio", "target", "result")
    lines = [head]
    for r in bench.rows:
        tgt = f"{r.target[0]} {r.target[1]:g}" if r.target else ""
        lines.append((r.section, r.figure + (f" [{r.error}]" if r.error else ""),
                      fmt(r.loadgen), fmt(r.ref), fmt(r.ratio), tgt, r.verdict()))
    w = [max(len(x[i]) for x in lines) for i in range(len(head))]
    for x in lines:
        print("  ".join(c.ljust(w[i]) if i < 2 else c.rjust(w[i]) for i, c in enumerate(x)))


def mount_tmpfs():
    path = tempfile.mkdtemp(prefix="lgbench.")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2g", "tmpfs", path], check=True)
    return path


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build", help="build directory with loadgen and the bench programs")
    ap.add_argument("--dir", help="work here instead of a tmpfs of our own (needs root)")
    ap.add_argument("--quick", action="store_true", help="1 pair of 2 s each (~3 minutes)")
    ap.add_argument("--pairs", type=int, help="A/B pairs per comparison (default 3)")
    ap.add_argument("-t", "--time", type=int, help="seconds per measurement (default 5)")
    ap.add_argument("--only", help="comma-separated sections: " + ",".join(SECTIONS))
    ap.add_argument("--json", help="also write every figure to this file")
    a = ap.parse_args()
    a.pairs = a.pairs or (1 if a.quick else 3)
    a.time = a.time or (2 if a.quick else 5)
    a.only = a.only.split(",") if a.only else SECTIONS
    bad = [s for s in a.only if s not in SECTIONS]
    if bad or a.pairs < 1 or a.time < 1:
        ap.error(f"unknown section {bad[0]}" if bad else "--pairs and -t must be >= 1")
    return a


def skipped(section, why):
    row = Row(section, "measurement skipped", None, None, None, None)
    row.error, row.skipped = str(why), True
    return row


def run_sections(bench):
    failed = False
    for name in bench.args.only:
        print(f"{name}:", flush=True)
        try:
            getattr(bench, name)()
        except benchlib.Missing as e:
            bench.add(skipped(name, e))
        except (benchlib.BenchError, OSError, ValueError, KeyError) as e:
            failed = True
            row = Row(name, "measurement failed", None, None, None, None)
            row.error = str(e)
            bench.add(row)
    return failed


def cpu_busy(secs=1.0):
    """Share of all CPUs busy (not idle, not waiting for I/O) over the next secs."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]
    t0, i0 = sample()
    time.sleep(secs)
    t1, i1 = sample()
    return 1 - (i1 - i0) / (t1 - t0) if t1 > t0 else 0.0


def raise_nofile():
    """Raise the open-file limit the programs inherit as far as allowed: loadgen refuses
    to start when clients x the workload's files would not fit (client.txt has 4814
    file names, so 48 clients need about 231,000 descriptors). Returns the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard
    if os.geteuid() == 0:
        try:
            with open("/proc/sys/fs/nr_open") as f:
                want = max(hard, int(f.read()))
        except (OSError, ValueError):
            pass
    for limit in (want, hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
            return limit
        except (OSError, ValueError):
            continue
    return soft


def fail(message):
    print(f"run.py: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    args = parse_args()
    for exe in ("loadgen", "tests/bench/lg_bench_floor", "tests/bench/lg_bench_hist",
                "tests/bench/lg_bench_load", "tests/bench/lg_bench_unmeasured"):
        if not os.access(os.path.join(args.build, exe), os.X_OK):
            fail(f"{args.build}/{exe} not found: build it first (cmake --build {args.build})")
    if not args.dir and os.geteuid() != 0:
        fail("run as root (to mount a tmpfs) or give --dir DIR")
    if args.dir and not os.path.isdir(args.dir):
        fail(f"--dir {args.dir}: not a directory")
    root = args.dir or mount_tmpfs()
    work = tempfile.mkdtemp(prefix="lgbench.", dir=root) if args.dir else root
    t0 = time.monotonic()
    try:
        bench = Bench(args, work)
        bench.raw["command"] = sys.argv
        bench.raw["nofile"] = raise_nofile()
        bench.raw["busy_before"] = cpu_busy()
        failed = run_sections(bench)
    finally:
        if args.dir:
            benchlib.shutil.rmtree(work, ignore_errors=True)
        else:
            subprocess.run(["umount", root], check=False)
            os.rmdir(root)
    print_table(bench)
    print(f"total {time.monotonic() - t0:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            benchlib.json.dump({"env": bench.env, "raw": bench.raw, "rows": [
                dict(vars(r), verdict=r.verdict()) for r in bench.rows]}, f, indent=1)
    if failed:
        sys.exit(2)
    verdicts = [r.verdict() for r in bench.rows]
    sys.exit(1 if "MISS" in verdicts else 77 if "SKIP" in verdicts else 0)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("run.py: interrupted", file=sys.stderr)
        sys.exit(130)
