"""`loadgen compare` lists, below the verdict, the system counters that changed most
(per second of measured time, ranked by p-value across runs), at most 12; files without
sys_summary (--monitor off) get no such list. Large values are whole numbers, never
1.36103e+06."""
import os
import re
import subprocess

from lgtest import LOADGEN, check, run, tmpdir


def main():
    work = tmpdir()
    a = run(["-D", work, "-t", "1", "--warmup", "0", "-q", "--repeat", "3", "1"], workdir=work)
    check(a.rc == 0, "baseline: 3 runs of 1 client", a)
    base = os.path.join(work, "base.json")
    os.rename(os.path.join(work, "result.json"), base)
    b = run(["-D", work, "-t", "1", "--warmup", "0", "-q", "--repeat", "3", "-F", "4"],
            workdir=work)
    check(b.rc == 0, "other: 3 runs of 4 clients with fsync after every write", b)
    other = os.path.join(work, "result.json")
    cmp = subprocess.run([LOADGEN, "compare", base, other], capture_output=True, text=True)
    check(cmp.returncode == 0, f"compare runs: {cmp.stderr}")
    out = cmp.stdout
    check("System counters that changed most" in out, "the list is there", out)
    rows = out[out.index("System counters that changed most"):].splitlines()[1:]
    rows = [r for r in rows if re.match(r"^\s+([+-]\d+\.\d%|new)\s+\S+", r)]
    check(1 <= len(rows) <= 12, f"{len(rows)} rows, at most 12")
    check(all("p=" in r for r in rows), "each row has its p-value (3 runs on each side)")
    ps = [float(re.search(r"p=(\S+)", r).group(1)) for r in rows]
    check(ps == sorted(ps), f"ranked by significance: {ps}")
    check(any("/s" in r for r in rows), "counters are per second")
    check(not any(re.search(r"\d[eE][+-]\d", r.split("p=")[0]) for r in rows),
          "values are printed without an exponent (1361030, not 1.36103e+06)", out)
    off = run(["-D", work, "-t", "1", "--warmup", "0", "-q", "--monitor", "off", "1"],
              workdir=work)
    cmp = subprocess.run([LOADGEN, "compare", base, os.path.join(work, "result.json")],
                         capture_output=True, text=True)
    check(off.rc == 0 and cmp.returncode == 0 and "System counters" not in cmp.stdout,
          "no list against a file without system counters", cmp)


main()
