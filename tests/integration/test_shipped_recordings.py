"""The recorded workloads shipped in loadfiles/ (rec-*.yaml) are what `loadgen record` makes
of their programs today: each is recorded again here (tests/integration/programs.py makes
the same input), and its calls per op type must match the shipped file's.

A program can vary a little from run to run and from filesystem to filesystem (git
re-reads an index entry whose time stamp is racy; tar's reads follow the block size the
filesystem reports), so a count may differ by 2 % or 3 calls, whichever is more; a program
that changed what it does (a new Debian release of it) differs by more, and the shipped
file must then be recorded again (with --timing-runs 3, so that the shipped think times are
the program's untraced time on the machine that wrote them):

    python3 tests/integration/test_shipped_recordings.py build/loadgen . --write
"""
import os
import subprocess
import sys

import yaml

import programs
from lgtest import LOADGEN, SOURCE, check, skip, tmpdir

SHIPPED = {"untar": "tar", "git": "git", "sqlite": "sqlite", "make": "make"}


def op_counts(doc):
    counts = {}
    for s in doc["streams"]:
        for step in s["steps"]:
            (op, a), = step.items()
            if op in ("after", "think"):
                continue
            n = int(a.get("count", 1)) if isinstance(a, dict) else 1
            counts[op] = counts.get(op, 0) + n
    return counts


def record(prog, out, name, opts=()):
    d = tmpdir()
    work = os.path.join(d, "w")
    os.mkdir(work)
    programs.PROGRAMS[prog][1](work)
    p = subprocess.run([LOADGEN, "record", "-o", out, "--name", name, "-C", work, *opts, "--",
                        *programs.PROGRAMS[prog][2]], env=programs.env(),
                       capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"{name}: recorded again", p.stderr)


write = "--write" in sys.argv
for name, prog in SHIPPED.items():
    shipped = os.path.join(SOURCE, "loadfiles", f"rec-{name}.yaml")
    if programs.missing(prog):
        skip(f"{name}: {programs.missing(prog)} is not installed")
        continue
    if write:
        record(prog, shipped, name, ["--timing-runs", "3"])  # think times measured
        print(f"wrote {shipped}")
        continue
    fresh = os.path.join(tmpdir(), f"{name}.yaml")
    record(prog, fresh, name)
    with open(shipped) as f:
        old = op_counts(yaml.safe_load(f))
    with open(fresh) as f:
        new = op_counts(yaml.safe_load(f))
    off = {op: (old.get(op, 0), new.get(op, 0)) for op in set(old) | set(new)
           if abs(old.get(op, 0) - new.get(op, 0)) > max(3, 0.02 * old.get(op, 0))}
    check(not off, f"rec-{name}.yaml: the calls per op type of a new recording match the "
          f"shipped file's ({sum(old.values())} calls)",
          f"(shipped, now) where they differ: {off}; record it again with --write")
    r = subprocess.run([LOADGEN, "-q", "--monitor", "off", "-D", tmpdir(), "-c", shipped,
                        "2"], capture_output=True, text=True, timeout=600)
    check(r.returncode == 0, f"rec-{name}.yaml replays with 2 clients, no error",
          r.stdout + r.stderr)
