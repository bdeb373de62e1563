"""A workload whose files cannot fit in the free space of -D is refused before it starts
(exit 2, nothing created), with the need, the free space and a `-p` that fits; the
suggested value does fit; --no-space-check runs it anyway (into ENOSPC). The need is a
lower bound: repeats of sequential writes count, random writes, writes in place and
files shared by the clients do not. On an 8 MiB tmpfs (root only: exit 77 otherwise)."""
import os
import re
import subprocess

from lgtest import LOADGEN, SOURCE, check, listdir, run, skip, tmpdir, write

d = tmpdir()
small = os.path.join(d, "small")
os.mkdir(small)
if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs",
                                        small]).returncode != 0:
    skip("needs root to mount an 8 MiB tmpfs")
    raise SystemExit(0)
dd = os.path.join(SOURCE, "loadfiles", "dd.yaml")
try:
    # The shipped dd (2 GiB a client) on 8 MiB: refused, saying why and what fits.
    res = run(["-q", "-D", small, "-c", dd, "-t", "1", "--warmup", "0", "2"], workdir=d)
    check(res.rc == 2, "dd on 8 MiB: refused, exit 2", res)
    check("dd needs at least 4.0 GiB" in res.err and "2.0 GiB per client" in res.err and
          "it has 8.0 MiB free" in res.err and "--no-space-check" in res.err,
          "the message names the need, per client, the free space and the override", res)
    m = re.search(r"-p count=(\d+)", res.err)
    check(m is not None and "bs=16KiB" in res.err, "it suggests -p count=N", res)
    check(res.json is None and listdir(small) == [], "nothing written, nothing created", res)

    # The suggestion fits: one full pass of each client, no error.
    n = int(m.group(1))
    res = run(["-q", "-D", small, "-c", dd, "--run-once", "-p", f"count={n}", "2"], workdir=d)
    r = res.json["runs"][0] if res.json else {}
    check(res.rc == 0 and r.get("bytes_written") == 2 * n * 16384 and r.get("errors") == 0,
          f"-p count={n}: both files written whole, no error", res)
    check(listdir(small) == [], "cleaned up")

    # The override: the run goes on into ENOSPC.
    res = run(["-q", "-D", small, "-c", dd, "-t", "1", "--warmup", "0", "--no-space-check",
               "2"], workdir=d)
    errs = res.json["runs"][0]["ops_by_type"]["write"]["errors_by_errno"] if res.json else {}
    check(res.rc == 1 and errs.get("ENOSPC", 0) > 0, "--no-space-check: runs, hits ENOSPC", res)
    check(listdir(small) == [], "cleaned up after ENOSPC")

    # A repeat of sequential writes counts every pass of the repeat (overwrite's shape):
    # 12 x 512 KiB = 6 MiB a client, 12 MiB for 2 clients.
    loop = write(os.path.join(d, "loop.yaml"), """
params: {buffers: 12}
run:
  - create: {path: "o${client}", as: f, flags: [write, truncate]}
  - repeat:
      count: "${buffers}"
      do:
        - write: {file: f, size: 512KiB}
  - close: f
""")
    res = run(["-q", "-D", small, "-c", loop, "-t", "1", "--warmup", "0", "2"], workdir=d)
    check(res.rc == 2 and "12.0 MiB" in res.err and "-p buffers=" in res.err,
          "repeated sequential writes: refused, -p buffers suggested", res)
    res = run(["-q", "-D", small, "-c", loop, "-t", "1", "--warmup", "0", "1"], workdir=d)
    check(res.rc == 0, "the same at 1 client (6 MiB) runs", res)

    # Not counted: random writes and writes in place (perhaps over the same blocks), and
    # a file every client shares.
    quiet = write(os.path.join(d, "inplace.yaml"), """
setup:
  - create: {path: "r${client}", as: f, flags: [write]}
  - write: {file: f, size: 4KiB}
  - close: f
run:
  - open: {path: "r${client}", as: f, flags: [rdwr]}
  - write: {file: f, size: 4KiB, count: 4096, offset: random, range: 16MiB}
  - repeat: {count: 4096, do: [{write: {file: f, size: 4KiB, offset: last}}]}
  - close: f
  - create: {path: shared, as: s, flags: [write, truncate]}
  - write: {file: s, size: 1MiB, count: 4}
  - close: s
""")
    res = run(["-q", "-D", small, "-c", quiet, "--run-once", "4"], workdir=d)
    check(res.rc in (0, 1) and "needs at least" not in res.err,
          "random, in-place and shared writes are not counted: not refused", res)
finally:
    subprocess.run(["umount", small])
