"""loadgen record: real programs from Debian packages recorded in a temporary directory
(tar xf of a tarball of 2,000+ files, git init/add/commit/status/checkout, sqlite3
inserting rows in transactions, make -j2 of a generated C project), each checked in the
summary on stderr and in the YAML (streams, the recorded exit status, the calls left out
with an example, setup holding the input tree); a failing program is recorded with its
status; --keep-trace; Ctrl-C leaves no process and no temporary file; bad input (no
strace in PATH, a directory that does not exist, no command) exits 2 with a clear message.
Each recorded workload is then replayed by 2 clients (status complete, no errors). A
program that is not installed skips its part (exit 77); .ci/run installs them all."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

from lgtest import LOADGEN, check, run, skip, tmpdir, write

top = tmpdir()
TMP = os.path.join(top, "tmp")  # record's temporary trace goes to $TMPDIR
os.mkdir(TMP)
ENV = dict(os.environ, TMPDIR=TMP, LC_ALL="C")


def record(args, cwd=None, env=ENV, **kw):
    """Run `loadgen record ARGS` (no --json: record writes none)."""
    p = subprocess.run([LOADGEN, "record"] + args, capture_output=True, text=True,
                       cwd=cwd or top, env=env, timeout=600, **kw)
    p.rc = p.returncode
    p.out, p.err = p.stdout, p.stderr
    return p


def no_leftovers(d, what):
    """No temporary trace in $TMPDIR and no half-written OUT.yaml.XXXXXX in d."""
    left = [f for f in os.listdir(TMP)] + [f for f in os.listdir(d)
                                           if re.search(r"\.yaml\.\w{6}$", f)]
    check(not left, "%s: no temporary file left (got %s)" % (what, left))


# --- Bad input: exit 2 with a message that says what to do -------------------------------
bare = os.path.join(top, "bin")  # a PATH with the program but without strace
os.mkdir(bare)
os.symlink(shutil.which("true") or "/bin/true", os.path.join(bare, "true"))
p = record(["-o", "x.yaml", "--", "true"], env=dict(ENV, PATH=bare))
check(p.rc == 2 and "strace not found: install Debian package strace" in p.err,
      "no strace in PATH: exit 2 naming the Debian package", p)
p = record(["-o", "x.yaml", "-C", os.path.join(top, "nope"), "--", "true"])
check(p.rc == 2 and re.search(r"directory .*nope: No such file or directory", p.err),
      "-C of a directory that does not exist: exit 2 naming it", p)
p = record(["-o", "x.yaml"])
check(p.rc == 2 and "missing the command to record" in p.err and "--help" in p.err,
      "no command: exit 2, usage", p)
p = record(["--", "true"])
check(p.rc == 2 and "missing -o" in p.err, "no -o: exit 2", p)
p = record(["-o", "x.yaml", "--attach", "1", "--for", "1s", "--timing-runs", "2"])
check(p.rc == 2 and "--timing-runs runs the command" in p.err, "--timing-runs with --attach: "
      "exit 2", p)
p = record(["-o", "x.yaml", "--timing-runs", "0", "--", "true"])
check(p.rc == 2 and "invalid --timing-runs '0'" in p.err, "--timing-runs 0: exit 2", p)
p = record(["-o", "x.yaml", "--", "no-such-program-here"])
if shutil.which("strace"):
    check(p.rc == 2 and "no-such-program-here: command not found" in p.err,
          "a command that is not there: exit 2", p)
p = record(["-o", "x.yaml", "--attach", str(os.getpid())])
check(p.rc == 2 and "--attach needs --for" in p.err, "--attach without --for: exit 2", p)
p = record(["-o", "x.yaml", "--attach", "1", "--for", "1s", "--", "true"])
check(p.rc == 2 and "no command" in p.err, "--attach and a command: exit 2", p)
check(not os.path.exists(os.path.join(top, "x.yaml")), "nothing written on bad input")
p = record(["--help"])
check(p.rc == 0 and p.out.startswith("Usage: loadgen record"), "--help", p)

if not shutil.which("strace"):
    skip("strace is not installed (Debian package strace): nothing recorded")
    sys.exit(0)

SUMMARY = re.compile(
    r"exit status (?P<status>-?\d+)\n"
    r"  streams: (?P<streams>\d+), calls kept: (?P<kept>\d+)\n"
    r"  left out (?P<left>\d+) calls on (?P<paths>\d+) paths outside (?P<dir>\S+)"
    r"(?: \(e\.g\. (?P<example>[^\n]*)\))?\n")


def summary(p):
    m = SUMMARY.search(p.err)
    check(m is not None, "the summary on stderr has the exit status, streams, calls "
          "kept and left out", p)
    return m


def sections(path):
    """The YAML's text by top-level key (recorded, setup, streams, ...)."""
    text = open(path).read()
    parts, key = {}, None
    for line in text.splitlines(keepends=True):
        m = re.match(r"^([a-z_]+):", line)
        if m:
            key = m.group(1)
        if key:
            parts[key] = parts.get(key, "") + line
    return parts


def recorded(what, d, cmd, min_streams=1, status=0, opts=(), **kw):
    """Record cmd in d into d/../NAME.yaml; check what every recording must hold."""
    out = os.path.join(top, what + ".yaml")
    p = record(["-o", out, "-C", d, *opts, "--"] + cmd, **kw)
    check(p.rc == 0, "%s: recorded (exit 0)" % what, p)
    m = summary(p)
    check(int(m["status"]) == status, "%s: the program's exit status %d reported" % (
        what, status), p)
    check(int(m["streams"]) >= min_streams, "%s: at least %d stream(s) (got %s)" % (
        what, min_streams, m["streams"]), p)
    check(int(m["left"]) > 0 and int(m["paths"]) > 0 and m["dir"] == os.path.realpath(d),
          "%s: calls outside the directory left out and counted (%s calls on %s paths)" % (
              what, m["left"], m["paths"]), p)
    check(m["example"] and re.match(r"^/.*/lib[^/]*\.so(\.[\d.]+)?$", m["example"]) and
          not m["example"].startswith(os.path.realpath(d) + "/"),
          "%s: a library the loader read is the example left out: %s" % (
              what, m["example"]), p)
    check(re.search(r"strace overhead: [\d.]+ us per traced call", p.err),
          "%s: strace's overhead per call reported" % what, p)
    y = sections(out)
    check(re.search(r"^  exit_status: %d$" % status, y.get("recorded", ""), re.M),
          "%s: recorded.exit_status %d in the YAML" % (what, status))
    check(re.search(r"^  trace_overhead_ns: \d+$", y.get("recorded", ""), re.M),
          "%s: recorded.trace_overhead_ns in the YAML" % what)
    check(len(re.findall(r"^  - name: ", y.get("streams", ""), re.M)) == int(m["streams"]),
          "%s: the YAML has the %s streams the summary counts" % (what, m["streams"]))
    no_leftovers(top, what)
    return p, m, y, out


def replay(what, out):
    """2 clients replay the recorded workload once: status complete, no errors."""
    target = tempfile.mkdtemp(prefix="replay.", dir=top)  # removed with top
    res = run(["-q", "--run-once", "-D", target, "-c", out, "2"],
              workdir=tempfile.mkdtemp(prefix="result.", dir=top))
    check(res.rc == 0 and res.json is not None, "%s: replayed by 2 clients" % what, res)
    r = res.json["runs"][0]
    check(r["status"] == "complete" and r["errors"] == 0,
          "%s: the replay is complete, with no errors (%s, %s errors)" % (
              what, r["status"], r["errors"]), res)
    check(os.listdir(target) == [], "%s: the replay's run directory removed" % what)


# --- tar xf of a tarball of 2,000+ small files in a few directories ----------------------
if shutil.which("tar"):
    d = os.path.join(top, "untar")
    src = os.path.join(top, "tarsrc")
    for i in range(2100):
        sub = os.path.join(src, "proj", "d%d" % (i % 5))
        os.makedirs(sub, exist_ok=True)
        write(os.path.join(sub, "f%04d.txt" % i), "x" * (i % 300 + 1))
    os.makedirs(d)
    with tarfile.open(os.path.join(d, "in.tar"), "w") as t:
        t.add(os.path.join(src, "proj"), arcname="proj")
    write(os.path.join(d, "old.yaml"), "an output of an earlier run\n")
    os.symlink("in.tar", os.path.join(d, "link"))
    p, m, y, out = recorded("tar", d, ["tar", "xf", "in.tar"])
    check(int(m["kept"]) > 2100 * 3, "tar: open, write and close of each file kept "
          "(%s calls)" % m["kept"], p)
    setup = y.get("setup", "")
    check('"${client}/in.tar"' in setup and re.search(r"- write: ", setup),
          "tar: setup creates and writes the tarball, the input tree")
    check(re.search(r'symlink: \{target: "?in\.tar"?, path: "\$\{client\}/link"\}', setup),
          "tar: the symlink in setup, with its target")
    check("proj" not in setup, "tar: setup holds what was there before, not tar's output")
    replay("tar", out)
    # the output inside the directory is no part of its tree
    p = record(["-o", os.path.join(d, "old.yaml"), "--keep-trace",
                os.path.join(top, "tar.strace"), "--", "tar", "tf", "in.tar"], cwd=d)
    check(p.rc == 0, "tar tf: recorded, -o inside the directory", p)
    check("old.yaml" not in sections(os.path.join(d, "old.yaml")).get("setup", ""),
          "  ... the output file is left out of the setup")
    head = open(os.path.join(top, "tar.strace")).readline()
    check(re.match(r"^\d+ +\d+\.\d{6} execve\(", head),
          "--keep-trace: strace's raw trace kept (%r)" % head[:60])
    no_leftovers(d, "tar tf")
else:
    skip("tar is not installed")

# --- git: init, add, commit, status, checkout -b, checkout -------------------------------
if shutil.which("git"):
    d = os.path.join(top, "repo")
    os.makedirs(os.path.join(d, "src"))
    for i in range(20):
        write(os.path.join(d, "src", "m%02d.c" % i), "int m%d(void) { return %d; }\n" % (i, i))
    write(os.path.join(d, "README"), "a repository made by test_record.py\n")
    home = os.path.join(top, "home")
    os.mkdir(home)
    genv = dict(ENV, HOME=home, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
                GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org",
                GIT_CONFIG_NOSYSTEM="1")
    script = ("git init -q -b main . && git add . && git commit -qm one && git status "
              "--short && git checkout -qb topic && echo more >> README && git commit -qam "
              "two && git checkout -q main && git status --short")
    p, m, y, out = recorded("git", d, ["sh", "-c", script], min_streams=2, env=genv)
    check('"${client}/src/m07.c"' in y.get("setup", ""), "git: setup holds the work tree")
    check(".git/" in y.get("streams", ""), "git: the repository's files in the streams")
    replay("git", out)
else:
    skip("git is not installed (Debian package git)")

# --- sqlite3: rows inserted in transactions (its journal and fsync pattern) -------------
if shutil.which("sqlite3"):
    d = os.path.join(top, "db")
    os.mkdir(d)
    sql = "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT);\n"
    for tx in range(5):
        sql += "BEGIN;\n" + "".join("INSERT INTO t (v) VALUES ('row %d-%d');\n" % (tx, i)
                                    for i in range(50)) + "COMMIT;\n"
    p, m, y, out = recorded("sqlite3", d, ["sqlite3", "t.db"], input=sql)
    streams = y.get("streams", "")
    check(re.search(r"- (fsync|fdatasync):", streams), "sqlite3: its syncs in the stream")
    check("t.db-journal" in streams, "sqlite3: its rollback journal in the stream")
    replay("sqlite3", out)
else:
    skip("sqlite3 is not installed (Debian package sqlite3)")

# --- make -j2 of a small generated C project: several processes, several streams --------
if shutil.which("make") and shutil.which("cc"):
    d = os.path.join(top, "proj")
    os.mkdir(d)
    objs = []
    for i in range(6):
        write(os.path.join(d, "u%d.c" % i), "int u%d(int x) { return x + %d; }\n" % (i, i))
        objs.append("u%d.o" % i)
    write(os.path.join(d, "main.c"), "".join("int u%d(int);\n" % i for i in range(6)) +
          "int main(void) { return u0(0)" + "".join(" + u%d(0)" % i for i in range(1, 6)) +
          " - 15; }\n")
    write(os.path.join(d, "Makefile"), "prog: main.o %s\n\tcc -o $@ $^\n%%.o: %%.c\n"
          "\tcc -c -o $@ $<\n" % " ".join(objs))
    p, m, y, out = recorded("make", d, ["make", "-j2"], min_streams=2)
    check('"${client}/Makefile"' in y.get("setup", ""), "make: setup holds the sources")
    check(os.path.exists(os.path.join(d, "prog")), "make: the program was built")
    replay("make", out)
else:
    skip("make or cc is not installed (build-essential)")

# --- a failing program is recorded, with its status -------------------------------------
d = os.path.join(top, "fail")
os.mkdir(d)
write(os.path.join(d, "here"), "x\n")
p, m, y, out = recorded("fail", d, ["sh", "-c", "cat here missing; exit 3"], status=3)
check(re.search(r"^\s+- \w+: \{?.*\$\{client\}/missing.*expect: ENOENT", y.get("streams", ""),
                re.M), "fail: the traced ENOENT kept as the step's expectation")
replay("fail", out)

# --- an strace that refuses --seccomp-bpf (an older kernel): recorded without it --------
fake = os.path.join(top, "fakebin")
os.mkdir(fake)
write(os.path.join(fake, "strace"), """#!/bin/sh
for a; do
    shift
    if [ "$a" = --seccomp-bpf ]; then
        echo "strace: --seccomp-bpf is not enabled because the kernel does not support it" >&2
    else
        set -- "$@" "$a"
    fi
done
exec %s "$@"
""" % shutil.which("strace"))
os.chmod(os.path.join(fake, "strace"), 0o755)
p, m, y, out = recorded("noseccomp", d, ["sh", "-c", "cat here"],
                       env=dict(ENV, PATH=fake + ":" + ENV.get("PATH", "/usr/bin:/bin")))
check("without --seccomp-bpf" in p.err and "kernel does not support it" in p.err,
      "no --seccomp-bpf: said, with strace's reason", p)
check("--seccomp-bpf" not in y.get("recorded", "") and "-ttt" in y.get("recorded", ""),
      "no --seccomp-bpf: the recorded tracer options say so")

# --- Ctrl-C: strace and the program stopped, no temporary file ---------------------------
d = os.path.join(top, "ctrlc")
os.mkdir(d)
marker = "61.%d" % os.getpid()  # a sleep of its own, to be found in /proc
proc = subprocess.Popen([LOADGEN, "record", "-o", os.path.join(top, "c.yaml"), "-C", d,
                         "--", "sh", "-c", "sleep %s & sleep %s" % (marker, marker)],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def sleepers():
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = open("/proc/%s/cmdline" % pid, "rb").read().split(b"\0")
        except OSError:
            continue
        if cmd[:2] == [b"sleep", marker.encode()]:
            pids.append(int(pid))
    return pids


def interrupt(proc, n, what):
    """Once the program runs (its n sleeps are there), Ctrl-C record; its stderr."""
    deadline = time.time() + 60
    while len(sleepers()) < n and time.time() < deadline and proc.poll() is None:
        time.sleep(0.1)
    check(len(sleepers()) == n, "%s: the recorded program runs (its %d sleep(s))" % (what, n))
    proc.send_signal(signal.SIGINT)
    return proc.communicate(timeout=60)[1]


err = interrupt(proc, 2, "Ctrl-C")
check(proc.returncode == 130 and "interrupted" in err, "Ctrl-C: exit 130 (%s)" % err.strip())
time.sleep(0.2)
check(sleepers() == [], "Ctrl-C: the program's processes are gone")
check(not os.path.exists(os.path.join(top, "c.yaml")), "Ctrl-C: no workload written")
no_leftovers(top, "Ctrl-C")

# --- --attach PID --for DURATION: the process goes on afterwards -------------------------
d = os.path.join(top, "attached")
os.mkdir(d)
# one process (a shell's loop would fork, and strace may attach while it waits)
loop = subprocess.Popen([sys.executable, "-c", "import time\nwhile True:\n"
                         "    open('f', 'w').write('x')\n    open('f').read()\n"
                         "    time.sleep(0.02)\n"], cwd=d)
# the input tree is what the directory holds when record attaches: wait for the loop's
# first f (attached before it, the trace would begin inside the open that makes it)
for _ in range(500):
    if os.path.exists(os.path.join(d, "f")):
        break
    time.sleep(0.01)
time.sleep(0.05)
p = record(["-o", os.path.join(top, "att.yaml"), "--attach", str(loop.pid), "--for", "2s"])
alive = loop.poll() is None
loop.kill()
loop.wait()
check(p.rc == 0 and re.search(r"traced process %d .* for 2 s in %s\n" % (loop.pid, re.escape(
    os.path.realpath(d))), p.err, re.S), "--attach: traced for 2 s in the process's directory",
      p)
check("without --seccomp-bpf" in p.err, "--attach: says it traces without --seccomp-bpf", p)
check(alive, "--attach: the process goes on after the recording")
kept = re.search(r"calls kept: (\d+)", p.err)
check(kept and int(kept.group(1)) > 0, "--attach: its calls on f kept", p)
replay("--attach", os.path.join(top, "att.yaml"))
no_leftovers(top, "--attach")

# --- --timing-runs N: the program untraced on DIR as it was, the think times fitted ------
# Its sleeps are no traced call (sleep is a process of its own with no call in DIR, and
# sh's wait for it is left out): from the trace alone the think times hold almost none of
# them; fitted to the untraced runs, a replay takes at least the 0.3 s slept (a lower
# bound: a busy machine only makes a run longer).
d = os.path.join(top, "timed")
os.mkdir(d)
write(os.path.join(d, "log"), "start\n")
prog = "sleep 0.2; echo run >> log; cat log > copy; sleep 0.1"
p, m, y, out = recorded("timing-runs", d, ["sh", "-c", prog], opts=["--timing-runs", "2"])
runs = [float(x) for x in re.findall(r"untraced run \d of 2: ([\d.]+) s, exit status 0",
                                     p.err)]
check(len(runs) == 2 and min(runs) >= 0.3, "--timing-runs 2: two untraced runs of >= 0.3 s "
      "(%s)" % runs, p)
more = [float(x) for x in re.findall(r"untraced run \d+, beside the fit: ([\d.]+) s, exit "
                                     r"status 0", p.err)]
fit = re.search(r"fitted in (\d+) replays", p.err)
check(fit and int(fit.group(1)) <= len(more) <= int(fit.group(1)) + 1 and min(more) >= 0.3,
      "--timing-runs: the program runs once more beside each point of the fit (%s)" % more, p)
check(open(os.path.join(d, "log")).read() == "start\nrun\n" and
      open(os.path.join(d, "copy")).read() == "start\nrun\n",
      "--timing-runs: DIR put back after each untraced run (the program's append is there "
      "once: %r)" % open(os.path.join(d, "log")).read())
left = [f for f in os.listdir(top) if ".loadgen-orig." in f or ".loadgen-traced." in f] + \
    [f for f in os.listdir(d) if f.startswith(".loadgen-fit.")]
check(not left, "--timing-runs: the copy of DIR and the replays' directory removed (%s)" % left)
rec = y.get("recorded", "")
med = re.search(r"^  untraced_median_s: ([\d.]+)$", rec, re.M)
scale = re.search(r"^  think_scale: ([\d.e+-]+)$", rec, re.M)
every = sorted(runs + more)
mid = len(every) // 2
check(re.search(r"^  untraced_runs: %d$" % len(every), rec, re.M) and med and
      abs(float(med.group(1)) - (every[mid] if len(every) % 2 else
                                 (every[mid - 1] + every[mid]) / 2)) < 1e-5 and
      scale and float(scale.group(1)) > 1 and "think_fitted:" in rec,
      "--timing-runs: recorded holds the runs, their median, the scale (> 1) and how it was "
      "fitted")
check(re.search(r"think times: x [\d.e+]+, fitted in \d+ replays", p.err),
      "--timing-runs: the summary says how the think times were fitted", p)
res = run(["-q", "-D", tempfile.mkdtemp(prefix="replay.", dir=top), "-c", out,
           "--replay-timing", "original", "1"], workdir=tempfile.mkdtemp(dir=top))
check(res.rc == 0 and res.json["runs"][0]["duration_s"] >= 0.3,
      "--timing-runs: a replay with --replay-timing original lasts the 0.3 s slept (%s s)" % (
          res.json["runs"][0]["duration_s"] if res.json else None), res)

# Ctrl-C in an untraced run: DIR put back as it was, the copy removed, nothing written
d = os.path.join(top, "timed-ctrlc")
os.mkdir(d)
write(os.path.join(d, "log"), "start\n")
marker = "62.%d" % os.getpid()
proc = subprocess.Popen([LOADGEN, "record", "-o", os.path.join(top, "tc.yaml"), "-C", d,
                         "--timing-runs", "1", "--", "sh", "-c",
                         "echo run >> log; sleep %s" % marker],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
err = interrupt(proc, 1, "Ctrl-C in an untraced run")
check(proc.returncode == 130, "Ctrl-C in an untraced run: exit 130 (%s)" % err.strip())
check(open(os.path.join(d, "log")).read() == "start\n" and os.listdir(d) == ["log"],
      "Ctrl-C in an untraced run: DIR put back as it was (%s)" % os.listdir(d))
check(not [f for f in os.listdir(top) if ".loadgen-orig." in f] and
      not os.path.exists(os.path.join(top, "tc.yaml")),
      "Ctrl-C in an untraced run: the copy removed, no workload written")
no_leftovers(top, "Ctrl-C in an untraced run")

# Ctrl-C in an untraced run beside the fit (the third run: one before the trace, the
# traced one, then this): DIR as the traced run left it, both copies removed, nothing
# written. The runs are counted in a file outside DIR, which no restore touches.
d = os.path.join(top, "timed-fitc")
os.mkdir(d)
write(os.path.join(d, "log"), "start\n")
count = os.path.join(top, "fitc-count")
marker = "63.%d" % os.getpid()
proc = subprocess.Popen([LOADGEN, "record", "-o", os.path.join(top, "fc.yaml"), "-C", d,
                         "--timing-runs", "1", "--", "sh", "-c",
                         "n=$(cat %s 2>/dev/null | wc -l); echo x >> %s; echo run >> log; "
                         "if [ $n -ge 2 ]; then sleep %s; fi" % (count, count, marker)],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
err = interrupt(proc, 1, "Ctrl-C beside the fit")
check(proc.returncode == 130 and "fitting the think times" in err,
      "Ctrl-C beside the fit: exit 130 (%s)" % err.strip())
check(open(os.path.join(d, "log")).read() == "start\nrun\n" and os.listdir(d) == ["log"],
      "Ctrl-C beside the fit: DIR as the traced run left it (%s, %r)" % (
          os.listdir(d), open(os.path.join(d, "log")).read()))
check(not [f for f in os.listdir(top) if ".loadgen-orig." in f or ".loadgen-traced." in f]
      and not os.path.exists(os.path.join(top, "fc.yaml")),
      "Ctrl-C beside the fit: the copies removed, no workload written")
os.unlink(count)
no_leftovers(top, "Ctrl-C beside the fit")

# OUT inside DIR (as in `cd src && loadgen record -o x.yaml --timing-runs 3 -- ...`): the
# runs beside the fit put DIR back as it was, and the workload they replay is elsewhere
d = os.path.join(top, "timed-inside")
os.mkdir(d)
p = record(["-o", "in.yaml", "--timing-runs", "1", "--", "sh", "-c", "echo x > f"], cwd=d)
check(p.rc == 0 and os.path.exists(os.path.join(d, "in.yaml")) and
      sorted(os.listdir(d)) == ["f", "in.yaml"],
      "--timing-runs with OUT inside DIR: recorded, DIR as the traced run left it (%s)" %
      sorted(os.listdir(d)), p)
no_leftovers(d, "--timing-runs with OUT inside DIR")
# --keep-trace inside DIR with --timing-runs: refused before anything runs
p = record(["-o", os.path.join(top, "kt.yaml"), "--keep-trace", "t.txt", "--timing-runs", "1",
            "--", "sh", "-c", "echo y > g"], cwd=d)
check(p.rc == 2 and "--keep-trace" in p.err and "inside" in p.err and
      not os.path.exists(os.path.join(d, "g")),
      "--keep-trace inside DIR with --timing-runs: exit 2, nothing run (%s)" % p.err.strip(), p)

# a program that makes no call in the directory: nothing to replay, exit 2, no file
d = os.path.join(top, "none")
os.mkdir(d)
p = record(["-o", os.path.join(top, "none.yaml"), "-C", d, "--", "ls", "/"])
check(p.rc == 2 and "made no call on" in p.err and not os.path.exists(
    os.path.join(top, "none.yaml")), "a program with no call in DIR: exit 2, nothing written", p)

shutil.rmtree(top)
