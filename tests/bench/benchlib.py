"""Running the benchmark's programs and reading their figures: loadgen (its JSON),
lg_bench_floor and lg_bench_hist (one JSON line), dbench (its operation table), fio
(its JSON), the PSS of a process tree, and progress lines with their arrival times.

Every program runs as a child of this script, so its CPU time comes from os.wait4
(the child and the processes it waited for), and a hung program is killed after a
timeout instead of hanging the benchmark."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time


class BenchError(Exception):
    """A measurement could not be taken: the message says which and why."""


class Missing(BenchError):
    """A program or file a measurement needs is not on this machine: its rows are skipped,
    not failed."""


def need(program, package=None):
    """Raise Missing unless program is on PATH."""
    if not shutil.which(program):
        raise Missing(f"{program} is not installed (apt-get install {package or program})")


class Proc:
    """A finished child: exit status, output, CPU seconds, wall seconds."""

    def __init__(self, rc, out, err, rusage, wall):
        self.rc = rc
        self.out = out
        self.err = err
        self.utime = rusage.ru_utime
        self.stime = rusage.ru_stime
        self.wall = wall


def _tail(text, n=5):
    return " | ".join(text.strip().splitlines()[-n:])


def _killer(p):
    def kill():
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return kill


def run(cmd, timeout, on_line=None):
    """Run cmd to the end; its own process group, so a timeout kills what it forked.
    on_line(monotonic_time, line, pid) is called for each stdout line as it arrives."""
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True,
                             start_new_session=True)
        timer = threading.Timer(timeout, _killer(p))
        timer.start()
        out = []
        t0 = time.monotonic()
        try:
            for line in p.stdout:
                out.append(line)
                if on_line:
                    on_line(time.monotonic(), line, p.pid)
            _, status, ru = os.wait4(p.pid, 0)
        except BaseException:  # ^C: do not leave the program running on the tmpfs
            _killer(p)()
            os.waitpid(p.pid, 0)
            p.returncode = -signal.SIGKILL
            raise
        finally:
            timer.cancel()
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if wall >= timeout:
            raise BenchError(f"{cmd[0]} timed out after {timeout:.0f} s")
        err.seek(0)
        return Proc(p.returncode, "".join(out), err.read(), ru, wall)


def empty_dir(path):
    """Make path an empty directory (what a previous run left is removed)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def loadgen(exe, args, workdir, timeout, quiet=True, on_line=None):
    """Run loadgen in workdir; returns (its JSON result, Proc)."""
    jpath = os.path.join(os.path.dirname(workdir.rstrip("/")), "loadgen-result.json")
    cmd = [exe, "--json", jpath, "-D", empty_dir(workdir)] + (["-q"] if quiet else [])
    p = run(cmd + list(args), timeout, on_line)
    if p.rc != 0 or not os.path.exists(jpath):
        raise BenchError(f"loadgen {' '.join(args)}: exit {p.rc}: {_tail(p.err)}")
    with open(jpath) as f:
        doc = json.load(f)
    os.unlink(jpath)
    return doc, p


def floor(exe, mode, clients, secs, warm, workdir, timeout):
    """Run lg_bench_floor; returns its JSON line as a dict."""
    cmd = [exe, "-m", mode, "-t", str(secs), "-w", str(warm), "-d", empty_dir(workdir),
           str(clients)]
    p = run(cmd, timeout)
    if p.rc != 0:
        raise BenchError(f"lg_bench_floor -m {mode} {clients}: exit {p.rc}: {_tail(p.err)}")
    doc = json.loads(p.out)
    doc["per_cpu"] = per_cpu(doc["ops_per_s"], p)
    return doc


def per_cpu(ops_per_s, p):
    """ops/s scaled to the CPU the program got: ops/s ÷ (CPU seconds / wall seconds).
    On a machine that other work keeps busy, this still compares the cost per op."""
    cpu = p.utime + p.stime
    return ops_per_s * p.wall / cpu if cpu > 0 else float("nan")


def hist(exe, records, timeout):
    p = run([exe, str(records)], timeout)
    if p.rc != 0:
        raise BenchError(f"lg_bench_hist: exit {p.rc}: {_tail(p.err)}")
    return json.loads(p.out)


def load(exe, loadfile, repeats, timeout):
    """lg_bench_load: user CPU ms per compile of loadfile (one JSON line)."""
    p = run([exe, loadfile, str(repeats)], timeout)
    if p.rc != 0:
        raise BenchError(f"lg_bench_load: exit {p.rc}: {_tail(p.err)}")
    return json.loads(p.out)


_DB_ROW = re.compile(r"^\s*([A-Za-z]+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s*$")


def dbench_ops(out):
    """Sum of the Count column of dbench's operation table (measured phase only: dbench
    4.0 resets its counters when the warm-up ends)."""
    lines = out.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.split()[:2] == ["Operation", "Count"])
    except StopIteration:
        raise BenchError("dbench printed no operation table") from None
    total = 0
    for line in lines[start + 2:]:
        m = _DB_ROW.match(line)
        if not m:
            break
        total += int(m.group(2))
    if total == 0:
        raise BenchError("dbench's operation table is empty")
    return total


def dbench(loadfile, clients, secs, workdir, timeout):
    """Run dbench 4.0; returns (ops, Proc). Its measured phase is `secs` seconds after a
    warm-up of secs // 5 (dbench 4.0 has no option for it)."""
    cmd = ["dbench", "-c", loadfile, "-D", empty_dir(workdir), "-t", str(secs), str(clients)]
    p = run(cmd, timeout)
    if p.rc != 0 or "Throughput" not in p.out:
        raise BenchError(f"dbench {clients}: exit {p.rc}: {_tail(p.err or p.out)}")
    return dbench_ops(p.out), p


def fio(rw, jobs, secs, warm, workdir, timeout, size_mib):
    """fio psync 4 KiB random I/O, one file per job, uniform offsets (--norandommap, as
    loadgen draws them); returns the summed iops of the jobs and the Proc. The files are kept in
    workdir between calls, so fio lays them out once."""
    os.makedirs(workdir, exist_ok=True)
    cmd = ["fio", "--name=bench", f"--directory={workdir}", "--ioengine=psync",
           f"--rw={rw}", "--bs=4k", f"--size={size_mib}m", f"--numjobs={jobs}",
           "--time_based", f"--runtime={int(secs * 1000)}ms",
           f"--ramp_time={int(warm * 1000)}ms", "--norandommap", "--randrepeat=0",
           "--output-format=json"]
    p = run(cmd, timeout)
    if p.rc != 0:
        raise BenchError(f"fio {rw} {jobs}: exit {p.rc}: {_tail(p.err)}")
    doc = json.loads(p.out[p.out.index("{"):])
    side = "write" if "write" in rw else "read"
    return sum(j[side]["iops"] for j in doc["jobs"]), p


def callgrind(cmd, function, outdir, timeout):
    """Run cmd under valgrind's callgrind, counting only the instructions executed inside
    `function` and what it calls (a client's loop); returns (Proc, instructions).
    --fair-sched keeps valgrind's one-thread-at-a-time scheduling from starving the
    thread that ends the run."""
    out = os.path.join(outdir, "callgrind.out")
    p = run(["valgrind", "--tool=callgrind", "--fair-sched=yes",
             f"--toggle-collect={function}", f"--callgrind-out-file={out}"] + cmd, timeout)
    if p.rc != 0:
        raise BenchError(f"callgrind {cmd[0]}: exit {p.rc}: {_tail(p.err)}")
    total = callgrind_file(out)[0]
    os.unlink(out)
    if total == 0:
        raise BenchError(f"callgrind counted nothing in {function} (renamed?)")
    return p, total


_CG_NAME = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")


def callgrind_file(path):
    """(instructions, {function: calls}) of one callgrind output file: its totals, and
    how often each function was called (callgrind's compressed names resolved)."""
    total, names, calls, callee = 0, {}, {}, None
    with open(path) as f:
        for line in f:
            m = _CG_NAME.match(line)
            if m:
                if m.group(2):
                    names[m.group(1)] = m.group(2).split("'")[0]
                callee = names.get(m.group(1)) if line.startswith("cfn=") else None
            elif line.startswith("calls=") and callee:
                calls[callee] = calls.get(callee, 0) + int(line.split()[0][6:])
            elif line.startswith("totals:"):
                total = int(line.split()[1])
    return total, calls


def callgrind_busiest(cmd, outdir, timeout):
    """Run cmd under callgrind with its children (dbench forks one process per client);
    returns (Proc, instructions, calls) of the process that executed the most user
    instructions (callgrind_file)."""
    os.makedirs(outdir, exist_ok=True)
    pattern = os.path.join(outdir, "callgrind.out.%p")
    p = run(["valgrind", "--tool=callgrind", "--trace-children=yes",
             f"--callgrind-out-file={pattern}"] + cmd, timeout)
    if p.rc != 0:
        raise BenchError(f"callgrind {cmd[0]}: exit {p.rc}: {_tail(p.err)}")
    files = [os.path.join(outdir, f) for f in os.listdir(outdir)
             if f.startswith("callgrind.out.")]
    best = max((callgrind_file(f) for f in files), default=(0, {}), key=lambda r: r[0])
    for f in files:
        os.unlink(f)
    if best[0] == 0:
        raise BenchError(f"callgrind counted nothing in {cmd[0]}")
    return p, best[0], best[1]


def descendants(pid):
    """pid and every process below it (children of each of its threads)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass  # exited meanwhile
    return found


def pss_bytes(pid):
    """Sum of the proportional set size over pid and its descendants: shared pages
    count once in total, so this is the memory the process tree really occupies."""
    total = 0
    for p in descendants(pid):
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            pass
    return total
