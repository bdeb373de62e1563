"""Call fidelity of a replay (issue 27): record real programs (tar, git, sqlite3, make -j2;
tests/integration/programs.py), then strace one client's replay. Per call type, the calls
the program made in its directory and the calls the replay made in the client's
directory are equal in number, and so are the bytes read and written; setup's own calls
(the input tree, known from the workload) are taken off the replay's first.

Both traces are read by strace_calls.py, written apart from loadgen's converter, so a call
type the converter drops, doubles or maps to another shows here. A program whose package
is missing is skipped (exit 77); CI installs them all."""
import os
import shutil
import subprocess

import yaml

import programs
import strace_calls
from lgtest import LOADGEN, check, skip, tmpdir

# setup's steps and the calls they make (a write of count N is N calls)
SETUP_FAMILY = {"mkdir": "mkdir", "create": "open", "open": "open", "write": "write",
                "close": "close", "symlink": "symlink", "truncate": "truncate",
                "link": "link", "chmod": "chmod", "utimens": "utimens"}


def setup_calls(doc):
    calls, written = {}, 0
    for step in doc.get("setup") or []:
        (op, a), = step.items()
        n = int(a.get("count", 1)) if isinstance(a, dict) else 1
        fam = SETUP_FAMILY[op]
        calls[fam] = calls.get(fam, 0) + n
        if op == "write":
            written += n * int(a["size"])
    return calls, written


def fidelity(name):
    d = tmpdir()
    work, rundir = os.path.join(d, "prog"), os.path.join(d, "replay")
    os.mkdir(work)
    os.mkdir(rundir)
    programs.PROGRAMS[name][1](work)
    rec, orig = os.path.join(d, f"{name}.yaml"), os.path.join(d, "orig.strace")
    p = subprocess.run([LOADGEN, "record", "-o", rec, "--keep-trace", orig, "-C", work, "--",
                        *programs.PROGRAMS[name][2]], env=programs.env(),
                       capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"{name}: recorded", p.stderr)
    with open(rec) as f:
        doc = yaml.safe_load(f)
    want, want_rd, want_wr = strace_calls.count(orig, work)
    rep = os.path.join(d, "replay.strace")
    # LeakSanitizer cannot run under ptrace (a sanitizer build's exit would fail): the
    # calls are what this test is about, leaks are for the other tests
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    p = subprocess.run(["strace", "-f", "-y", "-qq", "-o", rep, LOADGEN, "-q", "--monitor",
                        "off", "--keep", "-D", rundir, "-c", rec, "1"],
                       capture_output=True, text=True, timeout=600, env=env)
    check(p.returncode == 0, f"{name}: one client's replay under strace exits 0",
          p.stdout + p.stderr[-2000:])
    (client,) = [os.path.join(rundir, r, "0") for r in os.listdir(rundir)]
    got, got_rd, got_wr = strace_calls.count(rep, client)
    setup, setup_wr = setup_calls(doc)
    for fam, n in setup.items():
        got[fam] = got.get(fam, 0) - n
    got = {k: v for k, v in got.items() if v}
    got_wr -= setup_wr
    diff = {k: (want.get(k, 0), got.get(k, 0)) for k in set(want) | set(got)
            if want.get(k, 0) != got.get(k, 0)}
    check(not diff, f"{name}: every call type as often in the replay as in the program "
          f"({sum(want.values())} calls: {dict(sorted(want.items()))})",
          f"differences (program, replay): {diff}")
    check((got_rd, got_wr) == (want_rd, want_wr),
          f"{name}: bytes read and written equal ({want_rd}, {want_wr})",
          f"program {want_rd}/{want_wr}, replay {got_rd}/{got_wr}")
    shutil.rmtree(d, ignore_errors=True)


if not shutil.which("strace"):
    skip("strace is not installed (apt-get install strace)")
else:
    for prog in programs.PROGRAMS:
        if programs.missing(prog):
            skip(f"{prog}: {programs.missing(prog)} is not installed")
            continue
        fidelity(prog)
