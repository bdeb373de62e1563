"""Count only what was done (issue 10): a step that is skipped ('offset: prev' with no
block before) or an op on a slot that is not open (its open failed) is never an op, and
the syscalls strace sees equal the ops counted; an open into a slot still open is an
error. Skips are counted apart (`skipped`, per label, per client, per run)."""
import os
import re
import shutil
import subprocess
import sys

from lgtest import LOADGEN, check, run, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)

# -- offset: prev with no block before the last one: skipped, not an op.
skip = write(os.path.join(d, "skip.yaml"), """name: skip
run:
  - create: {path: "f${client}", as: f, flags: [write, truncate]}
  - write: {file: f, size: 4KiB, count: 3}
  - sync_file_range: {file: f, offset: prev, size: 4KiB, flags: [write]}
  - fadvise: {file: f, advice: dontneed, offset: prev, size: 4KiB}
  - close: f
  - create: {path: "f${client}", as: f, flags: [write]}
  - sync_file_range: {file: f, offset: prev, size: 4KiB, flags: [write]}
  - fadvise: {file: f, advice: dontneed, offset: prev, size: 4KiB}
  - close: f
cleanup:
  - unlink: "f${client}"
""")
res = run(["-q", "--run-once", "-D", target, "-c", skip, "2"])
r = res.json["runs"][0]
sfr = r["ops_by_type"]["sync_file_range"]
check(res.rc == 0, "prev skips are not failures: exit 0", res)
check(sfr["count"] == 2 and sfr["skipped"] == 2 and
      sfr["skipped_by_reason"] == {"prev_offset": 2, "not_open": 0, "cut_off": 0},
      f"sync_file_range: 2 done, 2 skipped over 2 clients ({sfr})")
check(sum(h[2] for h in sfr["histogram"]) == 2, "skipped steps not in the histogram")
check(r["ops"] == 2 * (2 + 3 + 1 + 1 + 2) and r["skipped"] == 4,
      f"run: ops exclude skips, skipped counted apart ({r['ops']}, {r['skipped']})")
check(all(c["skipped"] == 2 for c in r["clients"]), "skipped per client")
check("Skipped (not executed)" in res.out and "prev_offset=2" in res.out,
      "skips shown in the text report", res)
check(sum(iv["ops"] for iv in r["timeline"]) == r["ops"], "timeline holds no skipped step")

# -- ops on a slot whose open failed: not executed, counted as skipped with the line of
# the open, said loudly, exit 1.
notopen = write(os.path.join(d, "notopen.yaml"), """name: notopen
run:
  - open: {path: nodir/f, as: f, flags: [write, create]}
  - write: {file: f, size: 4KiB, count: 5}
  - fsync: f
  - close: f
""")
res = run(["-q", "-t", "1", "--warmup", "0", "-D", target, "-c", notopen, "1"])
r = res.json["runs"][0]
t = r["ops_by_type"]
check(res.rc == 1, "ops on a slot not open: exit 1", res)
opens = t["open"]["count"]
check(r["ops"] == opens and t["write"]["count"] == 0 and t["fsync"]["count"] == 0,
      "ops on a slot not open are not ops", res)
check(5 * (opens - 1) <= t["write"]["skipped_by_reason"]["not_open"] <= 5 * opens,
      "5 writes skipped per failed open (the deadline may cut the last pass)")
check(r["bytes_written"] == 0, "no bytes from skipped writes")
n = r["not_open_notes"]
check(len(n) == 1 and n[0]["line"] == 4 and n[0]["slot_line"] == 3 and
      n[0]["slot_event"] == "open failed" and n[0]["phase"] == "run",
      f"the note names the op and the open that failed ({n})")
check("FAILURE:" in res.out and "open failed at line 3" in res.out,
      "the text report says so loudly", res)

# -- the same, and an open into a slot still open, checked against strace.
reopen = write(os.path.join(d, "reopen.yaml"), """name: reopen
run:
  - repeat:
      count: 2
      do:
        - create: {path: a, as: f, flags: [write]}
  - close: f
cleanup:
  - unlink: a
""")
res = run(["-q", "--run-once", "-D", target, "-c", reopen, "1"])
r = res.json["runs"][0]
c = r["ops_by_type"]["create"]
check(res.rc == 1 and c["count"] == 2 and c["errors"] == 1 and
      c["errors_by_errno"] == {"ESLOTOPEN": 1},
      f"open into a slot still open: an error, never a silent close ({c})", res)

if shutil.which("strace") is None:
    print("skip: strace is not installed")
    sys.exit(77)


def strace_counts(workload, calls):
    """Run once under strace; return (result, {syscall: calls made by the clients})."""
    log = os.path.join(d, "strace.txt")
    jpath = os.path.join(d, "strace.json")
    proc = subprocess.run(["strace", "-f", "-qq", "-o", log, "-e", "trace=" + ",".join(calls),
                           LOADGEN, "-q", "--run-once", "--json", jpath, "-D", target,
                           "-c", workload, "1"], capture_output=True, text=True, timeout=120,
                          # LeakSanitizer cannot run under ptrace; the ASan build still
                          # checks everything else
                          env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    if proc.returncode != 0 and "ptrace" in proc.stderr:
        print("skip: strace cannot trace here:", proc.stderr.strip())
        sys.exit(77)
    import json
    with open(jpath) as f:
        doc = json.load(f)
    text = open(log).read()
    return doc["runs"][0], {s: len(re.findall(r"\b%s\(" % s, text)) for s in calls}


r, n = strace_counts(skip, ["sync_file_range", "fadvise64", "pwrite64"])
t = r["ops_by_type"]
check(n["sync_file_range"] == t["sync_file_range"]["count"] == 1,
      f"strace: sync_file_range calls == ops counted ({n}, {t['sync_file_range']['count']})")
check(n["fadvise64"] == t["fadvise"]["count"] == 1, f"strace: fadvise64 calls == ops ({n})")
check(n["pwrite64"] == t["write"]["count"] == 3, "strace: pwrite64 calls == write ops")

notonce = write(os.path.join(d, "notonce.yaml"), """name: notonce
run:
  - open: {path: nodir/f, as: f, flags: [write, create]}
  - write: {file: f, size: 4KiB, count: 5}
  - fsync: f
  - close: f
""")
r, n = strace_counts(notonce, ["pwrite64", "close", "fsync"])
check(n["pwrite64"] == 0 and r["ops"] == 1,
      f"strace: no write call on a slot not open, none counted ({n}, ops {r['ops']})")
shutil.rmtree(d)
