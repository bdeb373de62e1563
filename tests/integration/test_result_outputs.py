"""Each result file of a run is written even when another cannot be: --json whose
directory is gone by the end of the run (as a full filesystem would refuse it) is said
on stderr with exit 1, and --html and --log, elsewhere, still get the result. Before,
the report was skipped without a word once --json had failed."""
import os
import subprocess
import time

from lgtest import LOADGEN, check, tmpdir

d = tmpdir()
gone = os.path.join(d, "gone")
os.mkdir(gone)
html, log = os.path.join(d, "r.html"), os.path.join(d, "r.log")
p = subprocess.Popen([LOADGEN, "-D", d, "-q", "-t", "1.5", "--warmup", "0", "--json",
                      os.path.join(gone, "r.json"), "--html", html, "--log", log, "1"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
time.sleep(0.7)  # checked before the run; removed during it
os.rmdir(gone)
out, err = p.communicate(timeout=60)
res = f"rc={p.returncode}\nstdout:\n{out}\nstderr:\n{err}"
check(p.returncode == 1 and f"{gone}/r.json" in err, "--json not written: said, exit 1", res)
check(os.path.exists(html) and open(html).read().startswith("<!DOCTYPE html>"),
      "--html written all the same", res)
check(open(log).read().splitlines()[-1].startswith('{"type":"result"'),
      "--log ends with the result all the same", res)
