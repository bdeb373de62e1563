"""Every failure is seen (issue 10): unexpected results in setup and cleanup are in the
JSON (runs[].phases: count, errno names, notes with phase, op label, path and line), in
the text report, and give exit 1; files opened in setup stay open for cleanup; --keep
skips the cleanup phase and leaves the run directory, saying where it is."""
import os
import shutil

from lgtest import check, listdir, run, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)

# -- an unexpected result in setup and one in cleanup.
w = write(os.path.join(d, "fail.yaml"), """name: fail
setup:
  - mkdir: "d${client}"
  - stat: "d${client}/missing"
run:
  - stat: "d${client}"
cleanup:
  - rmdir: "d${client}"
  - unlink: "gone${client}"
""")
res = run(["-q", "--run-once", "-D", target, "-c", w, "2"])
r = res.json["runs"][0]
ph = r["phases"]
check(res.rc == 1, "setup/cleanup failures: exit 1", res)
check(r["errors"] == 0, "the measured ops themselves were fine")
check(r["status"] == "failed" and r["failure"]["phase"] == "setup" and
      r["failure"]["errno"] == "ENOENT" and r["failure"]["count"] == 4 and
      r["failure"]["message"] == "2 unexpected results in setup; 2 unexpected results in "
      "cleanup", f"the JSON's verdict is the exit status's: failed, in setup ({r['failure']})")
check(ph["setup"]["errors"] == 2 and ph["setup"]["errors_by_errno"] == {"ENOENT": 2},
      f"setup: count and errno names ({ph['setup']})")
check(ph["cleanup"]["errors"] == 2 and ph["cleanup"]["errors_by_errno"] == {"ENOENT": 2},
      f"cleanup: count and errno names ({ph['cleanup']})")
check(ph["warmup"]["errors"] == 0, "warmup: none")
n = sorted(ph["setup"]["error_notes"], key=lambda x: x["client"])
check(n[0] == {"client": 0, "phase": "setup", "line": 4, "type": "stat",
               "path": "d0/missing", "got": "ENOENT", "expected": "OK", "hint": None},
      f"setup note: phase, label, path, line ({n[0]})")
n = sorted(ph["cleanup"]["error_notes"], key=lambda x: x["client"])
check(n[1]["path"] == "gone1" and n[1]["line"] == 9 and n[1]["type"] == "unlink" and
      n[1]["phase"] == "cleanup", f"cleanup note ({n[1]})")
check("unexpected results in setup" in res.out and "unexpected results in cleanup" in res.out
      and "d0/missing" in res.out, "setup/cleanup failures in the text report", res)

# -- a file opened in setup is still open in cleanup; one opened by the run phase and
# left open is closed before cleanup, so cleanup may open its slot afresh.
w = write(os.path.join(d, "keepopen.yaml"), """name: keepopen
setup:
  - create: {path: "log${client}", as: log, flags: [write]}
  - write: {file: log, size: 4KiB}
run:
  - write: {file: log, size: 4KiB}
  - create: {path: "tmp${client}", as: t, flags: [write]}
cleanup:
  - fsync: log
  - close: log
  - create: {path: "tmp${client}", as: t, flags: [write]}
  - close: t
  - unlink: "tmp${client}"
  - unlink: "log${client}"
""")
res = run(["-q", "--run-once", "-D", target, "-c", w, "1"])
r = res.json["runs"][0]
check(res.rc == 0 and r["phases"]["cleanup"]["errors"] == 0 and
      r["phases"]["cleanup"]["skipped"]["not_open"] == 0,
      "a file opened in setup is usable in cleanup", res)
check(r["cleanup_left"] == 0 and listdir(target) == [], "cleanup removed everything")

# -- --keep: no cleanup phase, the run directory stays, and loadgen says where.
res = run(["-q", "--run-once", "--keep", "-D", target, "-c", w, "1"])
kept = listdir(target)
check(res.rc == 0 and len(kept) == 1, "--keep leaves the run directory", res)
left = listdir(os.path.join(target, kept[0]))
check(left == ["log0", "tmp0"], f"--keep: cleanup did not run, the files stay ({left})")
check(os.path.join(target, kept[0]) in res.err, "--keep says where the directory is", res)
check(res.json["runs"][0]["cleanup_left"] is None, "--keep: cleanup_left is null")
shutil.rmtree(d)
