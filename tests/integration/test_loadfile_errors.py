"""-c with what is not a loadfile: the message names the path and what it is (exit 2),
instead of a read's "Input/output error" -- a directory, a device, a FIFO nobody writes
(read as empty at once, not a hang), a file the user may not read (run as nobody when
the test runs as root), a missing file; and a pipe that does carry a workload runs."""
import os
import shutil
import subprocess

from lgtest import LOADGEN, check, skip, tmpdir, write

d = tmpdir()
os.chmod(d, 0o755)


def lg(args, user=None, **kw):
    cmd = [LOADGEN] + args
    if user:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30, cwd=d, **kw)


for path, what in (("/etc", "is a directory, not a loadfile"),
                   ("/dev/zero", "not a regular file or pipe"),
                   (os.path.join(d, "missing.yaml"), "No such file or directory")):
    p = lg(["-c", path, "1"])
    check(p.returncode == 2 and f"loadgen: {path}: {what}" in p.stderr,
          f"-c {path}: exit 2, '{what}'", p.stderr)
    check("Input/output error" not in p.stderr, f"-c {path}: no EIO", p.stderr)

fifo = os.path.join(d, "fifo")
os.mkfifo(fifo)
p = lg(["-c", fifo, "1"])
check(p.returncode == 2 and f"{fifo}:1:1: empty workload" in p.stderr,
      "-c FIFO without a writer: read as empty at once, exit 2", p.stderr)

# A workload through a pipe runs (bash's <(...) gives a /dev/fd path to a pipe).
W = write(os.path.join(d, "w.yaml"),
          "run:\n  - mkdir: \"c${client}\"\n  - rmdir: \"c${client}\"\n")
target = os.path.join(d, "t")
os.mkdir(target)
with open(W) as f:
    p = subprocess.run([LOADGEN, "-q", "--run-once", "-D", target, "-c", "/dev/stdin", "1"],
                       stdin=f, capture_output=True, text=True, timeout=60)
check(p.returncode == 0, "-c /dev/stdin redirected from a file runs", p.stderr)
p = subprocess.run(f"cat {W} | {LOADGEN} -q --run-once -D {target} -c /dev/stdin 1",
                   shell=True, capture_output=True, text=True, timeout=60)
check(p.returncode == 0, "-c /dev/stdin from a pipe runs", p.stderr)

# Unreadable: mode 000, read by a user who is not root.
secret = write(os.path.join(d, "secret.yaml"), "run:\n  - mkdir: d\n")
os.chmod(secret, 0)
as_nobody = os.geteuid() == 0
if as_nobody and not shutil.which("setpriv"):
    skip("unreadable loadfile as root: no setpriv (util-linux) to become nobody")
else:
    p = lg(["-c", secret, "1"], user="nobody" if as_nobody else None)
    if as_nobody and p.returncode != 2 and "Permission denied" in p.stderr + p.stdout \
            and "secret" not in p.stderr:
        skip(f"nobody cannot run {LOADGEN} here")
    else:
        check(p.returncode == 2 and f"loadgen: {secret}: permission denied (not readable)"
              in p.stderr, "-c of an unreadable file: permission denied, exit 2", p.stderr)
