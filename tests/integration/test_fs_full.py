"""A full filesystem (issue 25, items 6a and 6b), on a small tmpfs mounted in the test's
directory (root only; exit 77 otherwise):
- dd's writes run into ENOSPC: the text says FAILURE and the exit status is 1, and the
  result file says the same (status "failed", a failure naming the count and errno);
  the headline's ops/sec counts the successful ops, the failed ones beside it.
- short writes (a write that wrote less than asked, no error) are counted per op type,
  said in the text and JSON; a setup whose writes come back short fails the run."""
import os
import re
import subprocess
import sys

from lgtest import SOURCE, check, run, tmpdir

if os.geteuid() != 0:
    print("SKIP: mounting a small tmpfs needs root")
    sys.exit(77)

d = tmpdir()
small = os.path.join(d, "small")
os.mkdir(small)
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", small], check=True)
try:
    dd = os.path.join(SOURCE, "loadfiles", "dd.yaml")
    res = run(["--monitor", "off", "--no-space-check", "-D", small,
                "-c", dd, "-t", "1", "--warmup", "0", "1"],
              workdir=d)
    r = res.json["runs"][0]
    w = r["ops_by_type"]["write"]
    enospc = w["errors_by_errno"].get("ENOSPC", 0)
    check(res.rc == 1 and enospc > 0 and r["errors"] == enospc,
          f"dd on a full tmpfs: ENOSPC counted, exit 1 ({enospc})", res)
    check(r["status"] == "failed", f"the JSON's status is failed, as the exit status says "
          f"({r['status']})")
    f = r["failure"]
    check(f is not None and f["phase"] == "run" and f["errno"] == "ENOSPC" and
          f["count"] == r["errors"] and f["message"] == f"{r['errors']} unexpected results",
          f"failure names the count and the errno ({f})")
    m = re.search(r"^Ops ([0-9.]+) ops/sec  failed (\d+) ops \(([0-9.]+)/sec\)", res.out, re.M)
    check(m is not None, "the headline shows the failed ops apart", res)
    ok = (r["ops"] - r["errors"]) / r["duration_s"]
    check(abs(float(m.group(1)) - ok) <= 0.05 + 1e-6 * ok and int(m.group(2)) == r["errors"],
          f"headline ops/sec counts the successful ops only ({m.group(1)} vs {ok:.1f}; "
          f"{m.group(2)} failed)")
    check(f"Failed: {r['errors']} unexpected results" in res.out,
          "the text ends with the same verdict", res)

    # 6b: 12 KiB writes on 4 MiB: the last one that fits writes 4 KiB, with no error.
    res = run(["--monitor", "off", "--no-space-check", "-D", small,
                "-c", dd, "-p", "bs=12KiB", "-t", "1",
               "--warmup", "0", "1"], workdir=d)
    r = res.json["runs"][0]
    w = r["ops_by_type"]["write"]
    check(w["short_writes"] >= 1 and r["short_writes"] == w["short_writes"] and
          r["ops_by_type"]["create"]["short_writes"] == 0,
          f"short writes counted per op type and run ({w['short_writes']})", res)
    m = re.search(r"^ Short writes +Count\n write +(\d+)$", res.out, re.M)
    check(m is not None and int(m.group(1)) == w["short_writes"],
          "short writes in the text report, per op type", res)

    # 6b: a setup write of 8 MiB on the 4 MiB tmpfs writes 4 MiB, with no error: the
    # files are not what the workload describes, so the run fails before measuring.
    big = os.path.join(d, "big.yaml")
    with open(big, "w") as fh:
        fh.write("""name: big
setup:
  - create: {path: "big${client}", as: f, flags: [write, truncate]}
  - write: {file: f, size: 8MiB}
  - close: f
run:
  - stat: "big${client}"
cleanup:
  - unlink: "big${client}"
""")
    res = run(["--monitor", "off", "--no-space-check", "-D", small,
                "-c", big, "-t", "1", "--warmup", "0", "1"],
              workdir=d)
    r = res.json["runs"][0]
    f = r["failure"]
    check(res.rc == 1 and r["status"] == "failed" and r["ops"] == 0,
          f"a short setup write fails the run, exit 1 ({r['status']})", res)
    check(f["phase"] == "setup" and f["errno"] is None and f["count"] == 1 and
          "wrote 4194304 of 8388608 bytes" in f["message"] and "line 4" in f["message"],
          f"the failure says which write and how short ({f})")
    check(r["phases"]["setup"]["short_writes"] == 1, "setup's short writes in phases")
    check("Short writes in setup: 1" in res.out and
          "line 4: write big0 wrote 4194304 of 8388608 bytes" in res.out and
          "wrote 4194304 of 8388608 bytes" in res.err, "said in the text and on stderr", res)
    check(os.listdir(small) == [], "cleanup ran: the tmpfs is empty again")
finally:
    subprocess.run(["umount", small])
