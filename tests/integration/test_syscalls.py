"""System calls that options promise and no figure of the result shows, read under strace:
--drop-caches writes "3" (page cache, dentries and inodes) to /proc/sys/vm/drop_caches,
not "1" or "2"; --log fdatasyncs its file during the measured phase (after each
interval), not only at the end of a run. Each part skips (77) where it cannot run: no
strace, or (--drop-caches) not root.

Robust under load by design: no count depends on timing except that the log's
fdatasyncs asked for at each interval (1 s apart) start before the last interval is
written, seconds later; the sync thread may merge requests, so the count is only
bounded above (one per interval, plus the header's, the run end's and the close's)."""
import os
import re
import shutil
import subprocess

from lgtest import LOADGEN, check, skip, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
W = write(os.path.join(d, "w.yaml"), """
run:
  - create: {path: "f${client}", as: f, flags: [truncate]}
  - write: {file: f, size: 4KiB}
  - close: f
cleanup:
  - unlink: {path: "f${client}", expect: any}
""")


def strace(calls, args):
    """The strace -f lines (pids stripped) of a loadgen run, and its exit status."""
    out = os.path.join(d, "trace")
    # LeakSanitizer cannot work under ptrace: off for a sanitizer build traced here
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(x for x in [env.get("ASAN_OPTIONS", ""),
                                               "detect_leaks=0"] if x)
    p = subprocess.run(["strace", "-f", "-qq", "-s", "48", "-o", out, "-e",
                        "trace=" + calls, LOADGEN] + args, capture_output=True, text=True,
                       timeout=120, env=env)
    with open(out) as f:
        lines = [re.sub(r"^\d+\s+", "", ln) for ln in f]
    return lines, p


def fd_opened(lines, path):
    """The fds openat returned for path, in order."""
    pat = re.compile(r'openat\([^,]*, "' + re.escape(path) + r'",.*\) = (\d+)')
    return [int(m.group(1)) for m in map(pat.search, lines) if m]


if not shutil.which("strace"):
    skip("strace is not installed")
else:
    # --drop-caches: what is written to /proc/sys/vm/drop_caches, and only that
    if os.geteuid() != 0:
        skip("--drop-caches needs root")
    else:
        dc = "/proc/sys/vm/drop_caches"
        lines, p = strace("openat,write,close", ["-q", "--run-once", "--drop-caches", "-D",
                                                  target, "-c", W, "1"])
        check(p.returncode == 0, f"--drop-caches runs under strace: {p.stderr}")
        fds = fd_opened(lines, dc)
        check(len(fds) == 1, f"{dc} opened once ({fds})")
        written, open_fd = [], None
        for ln in lines:
            if fds and re.search(r'openat\([^,]*, "' + re.escape(dc) + '"', ln):
                open_fd = fds[0]
            elif open_fd is not None and re.match(rf"close\({open_fd}\)", ln):
                open_fd = None
            elif open_fd is not None:
                m = re.match(rf'write\({open_fd}, "([^"]*)"', ln)
                if m:
                    written.append(m.group(1))
        check(written == ["3"], f'"3" (page cache, dentries, inodes) written to {dc}: {written}')

    # --log: the log's fdatasyncs during the measured phase
    log = os.path.join(d, "run.log")
    lines, p = strace("openat,write,fdatasync,close",
                      ["--log", log, "-q", "-t", "4", "--warmup", "0", "-D", target, "-c", W,
                       "1"])
    check(p.returncode == 0, f"--log runs under strace: {p.stderr}")
    fds = fd_opened(lines, log)
    check(len(fds) == 1, f"the log opened once ({fds})")
    fd = fds[0]
    events = []  # ("interval" | "header" | "result" | "sync"), in the order they began
    for ln in lines:
        m = re.match(rf'write\({fd}, "{{\\"type\\":\\"(\w+)\\"', ln)
        if m:
            events.append(m.group(1))
        elif re.match(rf"fdatasync\({fd}[,) ]", ln):
            events.append("sync")
    iv = [i for i, e in enumerate(events) if e == "interval"]
    with open(log) as f:
        n_iv = sum('"type":"interval"' in ln for ln in f)
    check(len(iv) == n_iv >= 3, f"one write per interval line ({len(iv)} writes, {n_iv} lines)")
    between = events[iv[0]:iv[-1]].count("sync")
    check(between >= 1, "the log is fdatasync'd during the measured phase, between the first "
          f"and the last interval ({between}; events {events})")
    syncs = events.count("sync")
    check(syncs <= len(iv) + 3, f"at most one fdatasync per interval, plus the header's, the "
          f"run end's and the close's ({syncs} for {len(iv)} intervals)")
    check(events[-1] == "sync" and "result" in events,
          f"the last call on the log is its fdatasync, after the result line: {events[-3:]}")
