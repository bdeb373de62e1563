"""Filesystem calls of dbench 4.0 and of loadgen on the same dbench loadfile, from
`strace -f -o` traces: which calls each program makes for each loadfile line.

A call is named by what it does to the filesystem, not by the libc entry point: dbench
calls unlink(), mkdir(), rename(), statfs() and stat() on absolute paths where loadgen
calls unlinkat(), mkdirat(), renameat(), fstatfs() and fstatat() relative to the run
directory; both are one lookup of the same name. Calls that are neither program's load
on the filesystem are left out: dbench's kill() per line (used here to split its trace
into lines), its stdio reads of the loadfile, memory allocation, loadgen's futexes and
clocks."""
import os
import re
import signal
import subprocess
import time

# syscall -> the name it is counted under (None: not a filesystem call, ignored)
NAMES = {
    "openat": "open", "open": "open",
    "close": "close",
    "getdents64": "getdents64",
    "pread64": "pread", "pwrite64": "pwrite",
    "fsync": "fsync", "fdatasync": "fdatasync",
    "unlink": "unlink", "rmdir": "rmdir",
    "mkdir": "mkdir", "mkdirat": "mkdir",
    "rename": "rename", "renameat": "rename", "renameat2": "rename",
    "utime": "utime", "utimes": "utime", "utimensat": "utime",
    "statfs": "statfs", "fstatfs": "statfs",
    "ftruncate": "ftruncate",
}
LINE = re.compile(r"^(\d+)\s+(?:<\.\.\. )?([a-z0-9_]+)(\(| resumed>)(.*)$")


def call_name(name, args):
    """The counted name of syscall name with argument text args, or None."""
    if name in ("newfstatat", "fstatat64", "statx", "stat", "lstat", "fstat"):
        # fstat is newfstatat(fd, "", AT_EMPTY_PATH) in today's glibc; an unfinished
        # call's text may stop before the flags
        return "fstat" if name == "fstat" or re.match(r'\d+, ""', args) else "stat"
    if name == "unlinkat":
        return "rmdir" if "AT_REMOVEDIR" in args else "unlink"
    if name == "fcntl":
        return "lock" if re.search(r"F_(OFD_)?SETLKW?\b", args) else None
    return NAMES.get(name)


def parse(path):
    """[(pid, syscall, args)] of a strace -f -o file, each call once (at its start)."""
    calls = []
    with open(path) as f:
        for text in f:
            m = LINE.match(text)
            if not m or m.group(3) != "(":
                continue
            calls.append((int(m.group(1)), m.group(2), m.group(4)))
    return calls


def dbench_lines(path, nlines):
    """dbench's trace split into loadfile lines: a list of nlines lists of counted calls.
    Its child calls kill(parent, 0) before each line it reads, so the calls between the
    i-th kill and the next are line i's. Lines past nlines (the next pass) are dropped.
    Returns None when the trace has fewer than nlines lines (dbench stopped early)."""
    calls = parse(path)
    kills = [c for c in calls if c[1] == "kill"]
    if not kills:
        return None
    child = kills[0][0]
    lines, cur = [], None
    for pid, name, args in calls:
        if pid != child:
            continue
        if name == "kill":
            if cur is not None:
                lines.append(cur)
            cur = []
            if len(lines) == nlines:
                break
            continue
        counted = call_name(name, args)
        if cur is not None and counted:
            cur.append(counted)
    else:
        if cur is not None and len(lines) < nlines:
            lines.append(cur)  # the last line: dbench went on to the next pass or ended
    return lines if len(lines) == nlines else None


def loadgen_calls(path, setup_calls):
    """The counted calls of loadgen's one client thread, after the setup_calls calls of
    its setup phase (the mkdirat of clients and clients/clientN). The client is the
    thread that makes clients/ (a sanitizer's own thread may make calls too)."""
    calls = parse(path)
    client = next((pid for pid, name, args in calls
                   if name in ("mkdirat", "mkdir") and '"clients"' in args), None)
    if client is None:
        raise RuntimeError(f"no thread of {path} makes clients/: not a dbench run")
    seq = [c for c in (call_name(name, args) for pid, name, args in calls if pid == client)
           if c]
    return seq[setup_calls:]


def op_words(loadfile):
    """The op word of each line of loadfile ('' for blank and comment lines)."""
    words = []
    with open(loadfile) as f:
        for text in f:
            w = text.split()
            words.append(w[0] if w and not w[0].startswith("#") else "")
    return words


def trace_dbench(loadfile, nlines, work, extra=(), timeout=280):
    """strace of dbench on loadfile in work/dbench until its child has started line
    nlines + 1 (or ended); returns (trace path, dbench's output). work/dbench gets
    clients/client0 first: the tree loadgen's setup phase makes."""
    d = os.path.join(work, "dbench")
    os.makedirs(os.path.join(d, "clients", "client0"))
    out = os.path.join(work, "dbench.strace")
    proc = subprocess.Popen(["strace", "-f", "-o", out, "dbench", "-c", loadfile,
                             "-t", "600", "-D", d, "--skip-cleanup", *extra, "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    deadline, seen, pos = time.time() + timeout, 0, 0
    while proc.poll() is None and time.time() < deadline:
        time.sleep(0.3)
        with open(out, "rb") as f:  # count kill() lines as they come
            f.seek(pos)
            chunk = f.read()
        cut = chunk.rfind(b"\n") + 1
        seen += chunk[:cut].count(b" kill(")
        pos += cut
        if seen > nlines:
            break
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    return out, proc.communicate()[0].decode(errors="replace")


def trace_loadgen(loadgen, loadfile, work, extra=(), timeout=280):
    """strace of loadgen running loadfile once with one client in work/loadgen;
    returns (trace path, CompletedProcess)."""
    d = os.path.join(work, "loadgen")
    os.makedirs(d)
    out = os.path.join(work, "loadgen.strace")
    # --monitor off: the master's reads of /proc are no load, and its calls would cut
    # the client's lines in the trace ("<unfinished ...>")
    cmd = ["strace", "-f", "-o", out, loadgen, "-c", loadfile, "--run-once", "-q",
           "--monitor", "off", "-D", d, *extra, "1"]
    # LeakSanitizer cannot work under ptrace: off for a sanitizer build traced here
    # (the other tests check leaks)
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"),
                                                 "detect_leaks=0"]))
    return out, subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                               env=env)


def calls_per_op(loadgen, loadfile, work):
    """Filesystem calls per op line of one pass of loadfile: (dbench's, loadgen's).
    Raises RuntimeError when a trace is incomplete."""
    words = op_words(loadfile)
    dtrace, dout = trace_dbench(loadfile, len(words), work)
    lines = dbench_lines(dtrace, len(words))
    if lines is None:
        raise RuntimeError("dbench did not finish one pass: " + dout[-300:])
    ltrace, proc = trace_loadgen(loadgen, loadfile, work)
    if proc.returncode != 0:
        raise RuntimeError(f"loadgen exit {proc.returncode}: {proc.stderr[-300:]}")
    nops = sum(1 for w in words if w)
    return (sum(len(x) for x in lines) / nops,
            len(loadgen_calls(ltrace, 2)) / nops)
