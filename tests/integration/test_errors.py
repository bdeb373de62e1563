"""Errors: usage and workload errors exit 2 before any load; unexpected results are
counted per op type with errno names and make the exit status 1."""
import os
import re

from lgtest import check, listdir, run, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)

# A malformed workload: FILE:LINE:COL: message, exit 2, nothing created.
bad = write(os.path.join(d, "bad.yaml"), "name: bad\nrun:\n  - frobnicate: x\n")
res = run(["-D", target, "-c", bad, "2"], workdir=d, json_out=False)
check(res.rc == 2, "malformed workload exits 2", res)
check(re.search(re.escape(bad) + r":3:\d+: ", res.err) is not None, "FILE:LINE:COL: message",
      res)
check(listdir(target) == [], "nothing created for a bad workload")

# Unknown parameter override.
res = run(["-D", target, "-p", "nosuch=1", "2"], workdir=d, json_out=False)
check(res.rc == 2 and "nosuch" in res.err, "unknown -p parameter exits 2", res)

# Usage errors.
for args, what in ((["0"], "zero clients"), (["x"], "non-numeric clients"), ([], "no clients"),
                   (["-t", "abc", "2"], "bad --time"), (["--bogus", "2"], "unknown option")):
    res = run(args, workdir=d, json_out=False)
    check(res.rc == 2, f"{what} exits 2", res)

# -D pointing at a file or a missing directory.
f = write(os.path.join(d, "file"), "x")
res = run(["-D", f, "-t", "1", "1"], workdir=d, json_out=False)
check(res.rc == 2 and "Not a directory" in res.err, "-D at a file exits 2", res)
res = run(["-D", os.path.join(d, "missing"), "-t", "1", "1"], workdir=d, json_out=False)
check(res.rc == 2 and "No such file" in res.err, "-D at a missing dir exits 2", res)
check(res.out == "", "-D at a missing dir: refused before the environment header", res)

# --json into a missing directory is refused before the run.
res = run(["-D", target, "--json", os.path.join(d, "no", "r.json"), "-t", "1", "1"],
          workdir=d, json_out=False)
check(res.rc == 2 and "--json" in res.err, "unwritable --json exits 2 before the run", res)
check(listdir(target) == [], "nothing created when --json is unwritable")

# Unexpected results: counted by errno name, run goes on, exit 1.
w = write(os.path.join(d, "enoent.yaml"), """
run:
  - stat: missing
  - unlink: missing
  - unlink: {path: missing, expect: ENOENT}
  - mkdir: dir${client}
  - rmdir: dir${client}
""")
res = run(["-q", "-D", target, "-c", w, "--run-once", "2"], workdir=d)
check(res.rc == 1, "unexpected results exit 1", res)
r = res.json["runs"][0]
check(r["errors"] == 4, "4 unexpected results (stat, unlink x 2 clients)", res)
check(r["ops_by_type"]["stat"]["errors_by_errno"] == {"ENOENT": 2}, "stat errors by errno")
check(r["ops_by_type"]["unlink"]["errors"] == 2, "expected ENOENT not counted")
check(r["ops_by_type"]["mkdir"]["errors"] == 0, "mkdir ok")
check(r["ops"] == 10, "all ops ran")
check("ENOENT" in res.out, "errors shown in the text summary", res)
check(listdir(target) == [], "target left empty")

# --abort-on-error stops at the first unexpected result.
res = run(["-q", "-D", target, "-c", w, "-t", "5", "--warmup", "0", "--abort-on-error", "1"],
          workdir=d)
check(res.rc == 1, "abort-on-error exits 1", res)
r = res.json["runs"][0]
check(r["status"] == "aborted" and r["errors"] == 1, "stopped after the first error, status aborted", res)
check(r["duration_s"] < 2, "stopped promptly")
