"""dbench's load, call for call: dbench 4.0 and loadgen replay the same loadfiles under
`strace -f`, and the filesystem calls each makes must be the same calls in the same
order (hence, per op type, the same counts per loadfile line).

Loadfiles: the first 30,184 lines of Debian's client.txt (a slice that closes all its
handles), and hand-made ones for the error paths (NAME_NOT_FOUND, PATH_NOT_FOUND, every
create disposition, a rename onto a missing name, Find with and without matches, a
listing over one getdents64 buffer, Deltree of a tree).

How the two traces are made comparable (see dbench_trace.py for the call names):
- dbench runs with -t long enough and is stopped once its child has read one pass of
  the loadfile plus a line; its trace is cut into lines at the kill(parent, 0) it makes
  before each line, and only the first pass is kept.
- loadgen runs the file once (--run-once) with one client; its setup phase makes
  clients/ and clients/client0 (two mkdirat, not compared), so dbench's directory gets
  the same two directories beforehand: both start from the same tree.
Exit 77 (CTest SKIP) only when dbench or strace is not installed."""
import collections
import os
import re
import shutil
import subprocess
import sys

from lgtest import LOADGEN, check, run, tmpdir, write

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dbench_trace as dt  # noqa: E402

CLIENT_TXT = "/usr/share/dbench/client.txt"
SLICE_LINES = 30184
for tool in ("dbench", "strace"):
    if not shutil.which(tool):
        print(f"SKIP: {tool} is not installed")
        sys.exit(77)


def compare(name, loadfile, dbench_args=(), loadgen_args=(), loadgen_rc=0):
    """Trace both programs on loadfile; check the call sequences are equal. Returns
    {op word: Counter of calls} of dbench's pass, for the report."""
    work = tmpdir()
    words = dt.op_words(loadfile)
    dtrace, dout = dt.trace_dbench(loadfile, len(words), work, dbench_args)
    dlines = dt.dbench_lines(dtrace, len(words))
    check(dlines is not None, f"{name}: dbench ran one whole pass", dout[-2000:])
    # dbench's complaints about a line: "[LINE] ...", "(LINE) ERROR ...", "ERROR: ..."
    check(not re.search(r"^(\[\d+\]|\(\d+\) ERROR|ERROR)", dout, re.M),
          f"{name}: dbench replayed it without errors", dout[-2000:])
    ltrace, proc = dt.trace_loadgen(LOADGEN, loadfile, work, loadgen_args)
    check(proc.returncode == loadgen_rc,
          f"{name}: loadgen replayed it with {'the expected' if loadgen_rc == 0 else 'unexpected'} "
          "statuses",
          proc.stdout[-2000:] + proc.stderr[-2000:])
    lcalls = dt.loadgen_calls(ltrace, 2)
    dcalls = [c for line in dlines for c in line]
    owner = [i for i, line in enumerate(dlines) for _ in line]
    per_op = collections.defaultdict(collections.Counter)
    for w, line in zip(words, dlines):
        per_op[w].update(line)
    where = ""
    for k, (a, b) in enumerate(zip(dcalls, lcalls)):
        if a != b:
            i = owner[k]
            where = (f"first difference at call {k}, loadfile line {i + 1} ({words[i]}): "
                     f"dbench's line {dlines[i]}, loadgen from there "
                     f"{lcalls[k:k + 8]}")
            break
    if not where and len(dcalls) != len(lcalls):
        where = f"dbench {len(dcalls)} calls, loadgen {len(lcalls)}"
    check(not where, f"{name}: the same {len(dcalls)} filesystem calls in the same order "
          f"({len(dcalls) / max(1, sum(1 for w in words if w)):.3f} per op line)", where)
    dtot, ltot = collections.Counter(dcalls), collections.Counter(lcalls)
    check(dtot == ltot, f"{name}: the same count of each call", f"{dtot}\n{ltot}")
    return per_op


def report(per_op, words):
    lines = collections.Counter(w for w in words if w)
    for w in sorted(per_op):
        if w:
            calls = ", ".join(f"{c} {n / lines[w]:.2f}" for c, n in sorted(per_op[w].items()))
            print(f"  {w:24} {lines[w]:6} lines: {calls}")


C = r"\clients\client1"
ERRORS = f"""Deltree "{C}" NT_STATUS_OK
Mkdir "\\clients" NT_STATUS_OK
NTCreateX "{C}" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "{C}\\missing" 0x40 0x1 2 NT_STATUS_OBJECT_NAME_NOT_FOUND
NTCreateX "{C}\\nodir\\x" 0x40 0x1 3 NT_STATUS_OBJECT_PATH_NOT_FOUND
QUERY_PATH_INFORMATION "{C}\\missing" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
QUERY_PATH_INFORMATION "{C}\\nodir\\x" 1004 NT_STATUS_OBJECT_PATH_NOT_FOUND
NTCreateX "{C}\\a.txt" 0x40 0x2 4 NT_STATUS_OK
WriteX 4 0 5000 5000 NT_STATUS_OK
Close 4 NT_STATUS_OK
QUERY_PATH_INFORMATION "{C}\\a.txt" 1004 NT_STATUS_OK
QUERY_PATH_INFORMATION "{C}\\A.TXT" 1004 NT_STATUS_OK
NTCreateX "{C}\\a.txt" 0x40 0x0 5 NT_STATUS_OK
Close 5 NT_STATUS_OK
NTCreateX "{C}\\a.txt" 0x40 0x1 6 NT_STATUS_OK
ReadX 6 0 5000 5000 NT_STATUS_OK
QUERY_FILE_INFORMATION 6 1004 NT_STATUS_OK
SET_FILE_INFORMATION 6 1004 NT_STATUS_OK
LockX 6 0 10 NT_STATUS_OK
UnlockX 6 0 10 NT_STATUS_OK
Flush 6 NT_STATUS_OK
Close 6 NT_STATUS_OK
NTCreateX "{C}\\a.txt" 0x40 0x2 7 NT_STATUS_OK
Close 7 NT_STATUS_OK
NTCreateX "{C}\\a.txt" 0x40 0x3 8 NT_STATUS_OK
Close 8 NT_STATUS_OK
NTCreateX "{C}\\a.txt" 0x40 0x4 9 NT_STATUS_OK
Close 9 NT_STATUS_OK
NTCreateX "{C}\\new.txt" 0x40 0x5 10 NT_STATUS_OK
Close 10 NT_STATUS_OK
NTCreateX "{C}\\sub" 0x1 0x2 11 NT_STATUS_OK
Close 11 NT_STATUS_OK
NTCreateX "{C}\\sub" 0x1 0x2 12 NT_STATUS_OK
Close 12 NT_STATUS_OK
NTCreateX "{C}\\sub" 0x0 0x1 13 NT_STATUS_OK
Close 13 NT_STATUS_OK
NTCreateX "{C}\\sub\\deep.txt" 0x40 0x2 14 NT_STATUS_OK
Close 14 NT_STATUS_OK
Rename "{C}\\a.txt" "{C}\\b.txt" NT_STATUS_OK
Rename "{C}\\gone.txt" "{C}\\c.txt" NT_STATUS_OBJECT_NAME_NOT_FOUND
Unlink "{C}\\b.txt" 0x20 NT_STATUS_OK
Unlink "{C}\\b.txt" 0x20 NT_STATUS_OBJECT_NAME_NOT_FOUND
Mkdir "{C}\\made" NT_STATUS_OK
Mkdir "{C}\\made" NT_STATUS_OK
Rmdir "{C}\\made" NT_STATUS_OK
Rmdir "{C}\\made" NT_STATUS_OBJECT_NAME_NOT_FOUND
FIND_FIRST "{C}\\*" 260 1366 5 NT_STATUS_OK
FIND_FIRST "{C}\\*" 260 2 2 NT_STATUS_OK
FIND_FIRST "{C}\\<.JNK" 260 1366 0 NT_STATUS_NO_SUCH_FILE
FIND_FIRST "{C}\\NEW.*" 260 1366 1 NT_STATUS_OK
FIND_FIRST "{C}\\nodir\\*" 260 1366 0 NT_STATUS_OBJECT_PATH_NOT_FOUND
FIND_FIRST "{C}\\new.txt" 260 1366 1 NT_STATUS_OK
FIND_FIRST "{C}\\none.txt" 260 1366 0 NT_STATUS_NO_SUCH_FILE
QUERY_FS_INFORMATION 1 NT_STATUS_OK
"""
# A directory whose listing needs more than one 32 KiB getdents64 buffer, read by
# Find and emptied by Deltree (twice: the directories stay, as in dbench 4.0).
BIG = [f'NTCreateX "{C}\\big" 0x1 0x2 1 NT_STATUS_OK', "Close 1 NT_STATUS_OK"]
for i in range(700):
    BIG += [f'NTCreateX "{C}\\big\\{"long-file-name-" * 3}{i:05d}.dat" 0x40 0x2 2 '
            "NT_STATUS_OK", "Close 2 NT_STATUS_OK"]
BIG += [f'FIND_FIRST "{C}\\big\\*" 260 1366 702 NT_STATUS_OK',
        f'FIND_FIRST "{C}\\big\\*.JNK" 260 1366 0 NT_STATUS_NO_SUCH_FILE',
        f'Deltree "{C}" NT_STATUS_OK', f'Deltree "{C}" NT_STATUS_OK']

work = tmpdir()
for name, text in (("errors", ERRORS), ("big directory", "\n".join(BIG) + "\n")):
    path = write(os.path.join(work, name.replace(" ", "_") + ".txt"), text)
    report(compare(name, path), dt.op_words(path))

# dbench's --no-resolve (only the stat) is loadgen's --resolve stat
path = os.path.join(work, "errors.txt")
compare("errors, dbench --no-resolve vs loadgen --resolve stat", path,
        ["--no-resolve"], ["--resolve", "stat"], 1)  # A.TXT is no longer a.txt

# --resolve samba: Find lists without looking its pattern up as a name; the rest as
# dbench. The calls of loadgen alone (dbench has no such mode).
MODES = f"""QUERY_PATH_INFORMATION "{C}\\missing" 1004 NT_STATUS_OBJECT_NAME_NOT_FOUND
FIND_FIRST "{C}\\*" 260 1366 2 NT_STATUS_OK
"""
path = write(os.path.join(work, "modes.txt"), MODES)
SCAN = ["open", "fstat", "getdents64", "getdents64", "close"]
for mode, want in (("dbench", ["stat"] + SCAN + ["stat"] + SCAN + SCAN),
                   ("samba", ["stat"] + SCAN + SCAN),
                   ("stat", ["stat", "stat"] + SCAN)):
    mwork = tmpdir()
    ltrace, proc = dt.trace_loadgen(LOADGEN, path, mwork, ["--resolve", mode])
    got = dt.loadgen_calls(ltrace, 2)
    check(proc.returncode == 0 and got == want, f"--resolve {mode}: {len(want)} calls",
          f"{got}\n{proc.stderr}")
for mode in ("samba", None):
    res = run(["-c", path, "--run-once", "-q"] + (["--resolve", mode] if mode else []) +
              ["1"])
    check(res.rc == 0 and res.json["config"]["resolve"] == (mode or "dbench"),
          f"the result's config says resolve: {mode or 'dbench'}", res)
bad = subprocess.run([LOADGEN, "--resolve", "smb", "1"], capture_output=True, text=True)
check(bad.returncode == 2 and "--resolve 'smb'" in bad.stderr, "--resolve smb refused",
      bad.stderr)

# The YAML readdir op reads with the same scanner: open, getdents64 of 32 KiB until the
# end, close; no fstat, no fcntl, no allocation (it used opendir before). 1200 names of
# 36 bytes need more than one read.
YAML = """name: readdir
setup:
  - mkdir: "clients"
  - mkdir: "clients/d"
  - repeat:
      count: 1200
      do:
        - pick: {var: k, count: 1200, order: seq}
        - create: {path: "clients/d/a-file-name-of-some-forty-bytes-${k}", as: f}
        - close: f
run:
  - readdir: "clients/d"
"""
ypath = write(os.path.join(work, "readdir.yaml"), YAML)
ywork = tmpdir()
ltrace, proc = dt.trace_loadgen(LOADGEN, ypath, ywork)
calls = dt.parse(ltrace)
reader = [c for c in calls if c[1] == "openat" and '"clients/d"' in c[2]]
check(proc.returncode == 0 and reader, "readdir: traced", proc.stderr)
tid = reader[-1][0]
seq = [(n, a) for pid, n, a in calls if pid == tid and dt.call_name(n, a)]
start = max(i for i, (n, a) in enumerate(seq) if n == "openat" and '"clients/d"' in a)
raw = [n for pid, n, a in calls if pid == tid]
got = [dt.call_name(n, a) for n, a in seq[start:]]
mid = got[1:-1]
# (a call another thread's call interrupts is written "getdents64(5, <unfinished ...>",
# its arguments cut anywhere: only whole lines say the size)
sizes = {a.rsplit(",", 1)[-1].split(")")[0].strip() for n, a in seq[start:]
         if n == "getdents64" and "<unfinished" not in a}
check(got[0] == "open" and got[-1] == "close" and len(mid) >= 3 and
      set(mid) == {"getdents64"} and sizes == {"32768"} and "fcntl" not in raw and
      "lseek" not in raw,
      "readdir: open, getdents64 of 32 KiB until the end (more than one), close",
      f"{got} {sizes}")

if os.path.exists(CLIENT_TXT):
    with open(CLIENT_TXT, errors="replace") as f:
        head = [next(f) for _ in range(SLICE_LINES)]
    path = write(os.path.join(work, "client_slice.txt"), "".join(head))
    report(compare(f"client.txt, first {SLICE_LINES} lines", path), dt.op_words(path))
else:
    print(f"note: {CLIENT_TXT} not found (Debian's dbench ships it); slice not compared")
