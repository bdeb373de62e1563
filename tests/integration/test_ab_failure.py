"""loadgen ab when a run does not exit 0, on real runs:
- a run whose measured phase failed (every stat gets ENOENT) stops the comparison, and
  ab shows the run's own failure lines (the unexpected results, with op, line and errno),
  not only "exit status 1"; a setup that failed is a failure too (also when the cleanup
  failed as well);
- a run whose measured phase succeeded and only its cleanup failed (rmdir of a directory
  that still holds a file: ENOTEMPTY) counts: the comparison goes on, each round line
  says "(cleanup failed: 1 unexpected result: ENOTEMPTY=1)", stderr has the run's
  FAILURE lines, --json lists them in cleanup_errors, and ab exits 0;
- no temporary file of a run is left in --out-dir either way."""
import json
import os
import re
import subprocess

from lgtest import LOADGEN, check, tmpdir, write

d = tmpdir()
RUN = ["-t", "0.2", "--warmup", "0", "--monitor", "off"]
for sub in ("x", "y", "out"):
    os.mkdir(os.path.join(d, sub))

CLEANUP_FAILS = write(os.path.join(d, "cleanup.yaml"), """\
name: cleanup-fails
setup:
  - mkdir: "client${client}"
  - create: {path: "client${client}/data", as: f}
  - close: f
run:
  - stat: "client${client}/data"
cleanup:
  - rmdir: "client${client}"
""")
RUN_FAILS = write(os.path.join(d, "run.yaml"), """\
name: run-fails
setup:
  - mkdir: "client${client}"
run:
  - stat: "client${client}/missing"
cleanup:
  - rmdir: "client${client}"
""")
SETUP_FAILS = write(os.path.join(d, "setup.yaml"), """\
name: setup-fails
setup:
  - mkdir: "d${client}"
  - create: {path: "no-such-dir/f${client}", as: f}
  - close: f
run:
  - stat: "d${client}"
cleanup:
  - rmdir: "d${client}"
  - rmdir: "no-such-dir"
""")


def ab(args):
    return subprocess.run([LOADGEN, "ab", "-D", "x", "-D", "y", "--out-dir", "out"] + args,
                          capture_output=True, text=True, timeout=300, cwd=d)


def show(p):
    return f"rc={p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"


def leftovers():
    return [f for f in os.listdir(os.path.join(d, "out")) if f.startswith(".loadgen-ab")]


# --- the measured phase failed: stop, with the run's own lines
p = ab(["--rounds", "2"] + RUN + ["-c", RUN_FAILS, "1"])
check(p.returncode == 1, "a run with unexpected results in its measured phase stops ab (1)",
      show(p))
check("the run of variant 'x' in round 1 failed (exit status 1):" in p.stderr,
      "ab names the variant, the round and the status", show(p))
check(re.search(r"^\s+Unexpected results\s+Count", p.stderr, re.M) and
      re.search(r"^\s+client 0: line 5: stat got ENOENT, expected OK$", p.stderr, re.M),
      "ab shows the run's own failure lines: op, line, errno", show(p))
check("no round finished" in p.stderr and not leftovers(), "nothing left in --out-dir",
      show(p))

# --- the setup failed (and the cleanup too): a failure, not a cleanup-only one
p = ab(["--rounds", "2"] + RUN + ["-c", SETUP_FAILS, "1"])
check(p.returncode == 1 and "failed (exit status 1):" in p.stderr and
      re.search(r"FAILURE: \d+ unexpected results in setup", p.stderr) and
      "no-such-dir" in p.stderr and "cleanup failed" not in p.stdout,
      "a failed setup stops ab, with its FAILURE line and the path", show(p))

# --- a usage error of the run: its message (on stderr), and no empty block
p = ab(["--rounds", "2"] + RUN + ["--no-such-option", "1"])
check(p.returncode == 2 and re.search(r"failed \(exit status 2\)$", p.stderr, re.M),
      "a run's usage error: exit 2, the line ends without a ':' (nothing to show)", show(p))

# --- only the cleanup failed: the run counts, said beside its round
p = ab(["--rounds", "2", "--json", "an.json"] + RUN + ["-c", CLEANUP_FAILS, "1"])
check(p.returncode == 0, "a cleanup-only failure does not stop ab (exit 0)", show(p))
rounds = re.findall(r"^round (\d)/2  (\S+) .* ops/s  \(cleanup failed: 1 unexpected result: "
                    r"ENOTEMPTY=1\)$", p.stdout, re.M)
check(sorted(rounds) == [("1", "x"), ("1", "y"), ("2", "x"), ("2", "y")],
      "each round line says its run's cleanup failed", show(p))
check(p.stderr.count("the measured phase succeeded, so the run counts") == 4 and
      re.search(r"^\s+client 0: line 9: rmdir client0 got ENOTEMPTY, expected OK$",
                p.stderr, re.M),
      "stderr has the run's own FAILURE lines", show(p))
with open(os.path.join(d, "an.json")) as f:
    an = json.load(f)
check(an["pairs_n"] == 2 and an["verdict"] in ("faster", "slower",
                                               "no significant difference"),
      "the comparison rests on both rounds", json.dumps(an)[:400])
got = sorted((e["round"], e["variant"], e["errors"], e["errors_by_errno"], e["not_executed"])
             for e in an["cleanup_errors"])
check(got == [(r, v, 1, {"ENOTEMPTY": 1}, 0) for r in (1, 2) for v in ("x", "y")],
      f"--json: cleanup_errors per round and variant: {got}")
with open(os.path.join(d, "out", "ab-0-x.json")) as f:
    rx = json.load(f)
check(len(rx["runs"]) == 2 and
      all(r["phases"]["cleanup"]["errors_by_errno"] == {"ENOTEMPTY": 1} for r in rx["runs"]),
      "the variant's result file keeps each run's cleanup failure")
check(not leftovers(), "nothing left in --out-dir")

# a clean run: cleanup_errors is there, empty
p = ab(["--rounds", "2", "--json", "an2.json"] + RUN + ["1"])
with open(os.path.join(d, "an2.json")) as f:
    an = json.load(f)
check(p.returncode == 0 and an["cleanup_errors"] == [] and "cleanup failed" not in p.stdout,
      "a clean comparison: cleanup_errors is []", show(p))
