"""Quick checks of the benchmark's own tools, so they do not rot between benchmark runs:
lg_bench_floor and lg_bench_hist run briefly and give sane figures, dbench's table is
summed right, PSS is read from /proc, the workloads in tests/bench do what they say,
lg_bench_unmeasured makes and counts the ops loadgen does, bare_replay's two floors of a
recorded workload make its calls (the threaded one keeping the waits between streams),
and run.py skips (exit 77) what needs a program that is missing.

    python3 test_bench_tools.py BUILD_DIR SOURCE_DIR    (CTest entry bench_tools)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
FLOOR = os.path.join(BUILD, "tests", "bench", "lg_bench_floor")
HIST = os.path.join(BUILD, "tests", "bench", "lg_bench_hist")
LOAD = os.path.join(BUILD, "tests", "bench", "lg_bench_load")
LOADGEN = os.path.join(BUILD, "loadgen")
UNMEASURED = os.path.join(BUILD, "tests", "bench", "lg_bench_unmeasured")

DBENCH_OUT = """\
   2    108383   600.37 MB/sec  execute   2 sec  latency 5.199 ms
   2  cleanup   3 sec

 Operation      Count    AvgLat    MaxLat
 ----------------------------------------
 NTCreateX      54860     0.036     5.772
 Close          40399     0.002     1.106
 ReadX          85792     0.003     4.718

Throughput 600.366 MB/sec  2 clients  2 procs  max_latency=5.776 ms
"""


# callgrind's format, names compressed: "(2) fgets" defines name 2, "(2)" uses it
CALLGRIND_OUT = """\
version: 1
events: Ir
fn=(1) main
cfn=(2) fgets
calls=3 0x10
12 40
cfn=(3) close'2
calls=1 0x20
13 5
fn=(4) child
cfn=(2)
calls=4 0x10
20 50
totals: 1234
"""


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


def test_floor(tmp):
    # on a tmpfs where there is one (.ci/run makes /dev/shm one): mix64k's fsync on a disk
    # busy with other tests took longer than the 0.3 s measured, which then held no op
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        tmp = tempfile.mkdtemp(prefix="bench-tools.", dir="/dev/shm")
    for mode, clients in (("mix64k", 2), ("stat", 1)):
        doc = benchlib.floor(FLOOR, mode, clients, 0.3, 0.1, os.path.join(tmp, "f"), 60)
        check(doc["mode"] == mode and doc["clients"] == clients, f"floor {mode}: header")
        check(doc["ops"] > 0 and 0.25 < doc["seconds"] < 2, f"floor {mode}: {doc['ops']} ops")
        rate = doc["ops"] / doc["seconds"]  # seconds is printed to the microsecond
        check(abs(doc["ops_per_s"] - rate) <= 1e-4 * rate, f"floor {mode}: rate")
        check(os.listdir(os.path.join(tmp, "f")) == [], f"floor {mode}: removed its directory")
    p = subprocess.run([FLOOR, "-d", tmp], capture_output=True, text=True)
    check(p.returncode == 2 and "usage" in p.stderr, "floor: usage error without NTHREADS")
    if tmp.startswith("/dev/shm/"):
        shutil.rmtree(tmp, ignore_errors=True)


def test_hist():
    doc = benchlib.hist(HIST, 1000000, 60)
    check(doc["records"] == 1000000, "hist: every value recorded")
    check(0 < doc["ns_per_record"] < 1000, f"hist: {doc['ns_per_record']} ns per record")
    # log-uniform from 100 ns to 100 ms: the median is near 100 * 1e3 = 100 us
    check(80000 < doc["p50_ns"] < 125000, f"hist: median {doc['p50_ns']} ns")


def test_load(tmp):
    path = os.path.join(tmp, "l.txt")
    with open(path, "w") as f:
        f.write('NTCreateX "\\clients\\client1\\f" 0x0 0x2 7 NT_STATUS_OK\n'
                "Close 7 NT_STATUS_OK\n")
    doc = benchlib.load(LOAD, path, 3, 60)
    check(doc["repeats"] == 3 and doc["bytes"] == os.path.getsize(path), "load: header")
    check(0 <= doc["min_user_ms"] <= doc["user_ms_per_load"] < 1000, "load: user ms")
    p = subprocess.run([LOAD, tmp], capture_output=True, text=True)
    check(p.returncode == 2 and "is a directory" in p.stderr, "load: a directory refused")


def test_dbench_parse():
    check(benchlib.dbench_ops(DBENCH_OUT) == 54860 + 40399 + 85792, "dbench: table summed")
    try:
        benchlib.dbench_ops("no table here\n")
        check(False, "dbench: missing table is an error")
    except benchlib.BenchError:
        check(True, "dbench: missing table is an error")


def test_callgrind_file(tmp):
    path = os.path.join(tmp, "callgrind.out.1")
    with open(path, "w") as f:
        f.write(CALLGRIND_OUT)
    total, calls = benchlib.callgrind_file(path)
    check(total == 1234, "callgrind: totals read")
    check(calls == {"fgets": 7, "close": 1}, f"callgrind: calls by name summed: {calls}")


def test_pss():
    pss = benchlib.pss_bytes(os.getpid())
    check(1e6 < pss < 1e9, f"pss of this python: {pss / 1e6:.1f} MB")
    check(os.getpid() in benchlib.descendants(os.getpid()), "descendants include the root")


def test_workloads(tmp):
    yaml = os.path.join(SOURCE, "tests", "bench", "randrw4k.yaml")
    for wr, rd in (("true", "false"), ("false", "true")):
        doc, _ = benchlib.loadgen(LOADGEN, ["--run-once", "-c", yaml, "-p", "mib=2", "-p",
                                            f"write={wr}", "-p", f"read={rd}", "2"],
                                  os.path.join(tmp, "lg"), 60)
        run = doc["runs"][0]
        want = "write" if wr == "true" else "read"
        check(run["ops"] == 2 and list(run["ops_by_type"]) == [want],
              f"randrw4k {want}: one {want} per client and pass")
        check(run["ops_by_type"][want]["bytes"] == 2 * 4096, f"randrw4k {want}: 4 KiB each")
    doc, _ = benchlib.loadgen(LOADGEN, ["--run-once", "-c", os.path.join(
        SOURCE, "tests", "bench", "stat1.yaml"), "3"], os.path.join(tmp, "lg"), 60)
    run = doc["runs"][0]
    check(run["ops"] == 3 and run["errors"] == 0 and list(run["ops_by_type"]) == ["stat"],
          "stat1: one stat per client, no errors")
    doc, _ = benchlib.loadgen(LOADGEN, ["--run-once", "-c", os.path.join(
        SOURCE, "tests", "bench", "mix4k.yaml"), "2"], os.path.join(tmp, "lg"), 60)
    run = doc["runs"][0]
    check(run["ops"] == 2 * 39 and run["errors"] == 0, "mix4k: 39 ops a pass, no errors")
    check(run["bytes_written"] == run["bytes_read"] == 2 * 16 * 4096,
          "mix4k: 64 KiB written and read back per client")


def test_unmeasured(tmp):
    """The unmeasured build makes and counts the same ops as loadgen, and times none."""
    yaml = os.path.join(SOURCE, "tests", "bench", "mix4k.yaml")
    runs = [benchlib.loadgen(exe, ["--run-once", "-c", yaml, "2"], os.path.join(tmp, "lg"),
                             60)[0]["runs"][0] for exe in (LOADGEN, UNMEASURED)]
    for key in ("ops", "errors", "bytes_written", "bytes_read"):
        check(runs[0][key] == runs[1][key], f"unmeasured build: the same {key} "
              f"({runs[1][key]}, loadgen {runs[0][key]})")
    counts = {k: v["count"] for k, v in runs[1]["ops_by_type"].items()}
    check(counts == {k: v["count"] for k, v in runs[0]["ops_by_type"].items()},
          "unmeasured build: the same ops of each type")
    check(all(v["latency_ns"]["max"] == 0 for v in runs[1]["ops_by_type"].values()),
          "unmeasured build: no latency recorded")


def test_bare_replay(tmp):
    """bare_replay's two floors make the workload's calls, the threaded one in one thread
    per stream with its waits: a stream that writes a file another then reads."""
    import bare_replay
    doc = {"setup": [{"mkdir": "${client}"}], "streams": [
        {"name": "maker", "steps": [
            {"create": {"path": "${client}/f", "as": "w", "flags": ["write"]}},
            {"write": {"file": "w", "size": 4096}},
            {"think": "1ms"},
            {"close": "w"}]},
        {"name": "reader", "steps": [
            {"after": {"stream": "maker", "calls": 3}},
            {"open": {"path": "${client}/f", "as": "r", "flags": ["read"]}},
            {"read": {"file": "r", "size": 4096, "count": 2}},
            {"after": {"stream": "maker", "calls": "end"}},
            {"close": "r"}]}]}
    src, calls = bare_replay.generate_threads(doc)
    check(calls == 7 and "waitfor(0, 3);" in src and "waitfor(0, INT_MAX);" in src,
          f"bare_replay threads: 7 calls, the waits kept ({calls})")
    for threads in (False, True):
        d = os.path.join(tmp, f"bare{int(threads)}")
        os.makedirs(d)
        exe, n = bare_replay.build(doc, d, threads=threads)
        p = subprocess.run([exe, os.path.join(d, "r")], capture_output=True, text=True,
                           timeout=60)
        out = json.loads(p.stdout) if p.returncode == 0 else {}
        check(n == 7 and out.get("ops") == 7 and out.get("seconds", -1) >= 0,
              f"bare_replay (threads={threads}): ran its 7 calls ({p.stdout}{p.stderr})")
        check(os.path.getsize(os.path.join(d, "r", "0", "f")) == 4096,
              f"bare_replay (threads={threads}): the file written")


def test_missing(tmp):
    """A section whose program is missing is skipped (exit 77, a SKIP row), not failed."""
    empty = os.path.join(tmp, "nobin")
    os.makedirs(empty, exist_ok=True)
    p = subprocess.run([sys.executable, os.path.join(SOURCE, "tests", "bench", "run.py"),
                        "--quick", "--only", "fio", "--dir", tmp, BUILD],
                       env=dict(os.environ, PATH=empty), capture_output=True, text=True,
                       timeout=60)
    check(p.returncode == 77, f"run.py without fio exits 77 (got {p.returncode})")
    check("SKIP" in p.stdout and "fio is not installed" in p.stdout,
          "run.py without fio prints a SKIP row that names fio")


def main():
    with tempfile.TemporaryDirectory(prefix="lgbench-test.") as tmp:
        test_floor(tmp)
        test_hist()
        test_load(tmp)
        test_dbench_parse()
        test_callgrind_file(tmp)
        test_pss()
        test_workloads(tmp)
        test_unmeasured(tmp)
        test_bare_replay(tmp)
        test_missing(tmp)


if __name__ == "__main__":
    main()
