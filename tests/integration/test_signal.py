"""SIGINT stops the clients promptly; the partial result is printed and written with
status "interrupted", cleanup runs, exit status 130."""
import os
import signal
import subprocess
import time
import json
import shutil

from lgtest import LOADGEN, check, listdir, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
w = write(os.path.join(d, "slow.yaml"), """
setup:
  - mkdir: c${client}
run:
  - create: {path: "c${client}/f", as: f}
  - write: {file: f, size: 4KiB}
  - close: f
  - sleep: 5s
cleanup:
  - unlink: c${client}/f
  - rmdir: c${client}
""")
jpath = os.path.join(d, "r.json")
p = subprocess.Popen([LOADGEN, "-D", target, "-c", w, "-t", "60", "--warmup", "0",
                      "--json", jpath, "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True)
time.sleep(1.5)
t0 = time.monotonic()
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=30)
elapsed = time.monotonic() - t0
check(p.returncode == 130, f"exit 130 (got {p.returncode}) {err}")
check(elapsed < 2.0, f"stopped within about a second ({elapsed:.2f} s)")
check("Throughput" in out, "results printed")
with open(jpath) as f:
    r = json.load(f)["runs"][0]
check(r["status"] == "interrupted", "status interrupted")
check(r["ops_by_type"]["write"]["count"] == 3, "the writes before the signal are counted")
check(r["bytes_written"] == 3 * 4096, "bytes written exact")
check(listdir(target) == [], "cleanup ran")

# SIGTERM behaves like the first SIGINT.
p = subprocess.Popen([LOADGEN, "-q", "-D", target, "-c", w, "-t", "60", "--warmup", "0",
                      "--json", jpath, "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True)
time.sleep(1.0)
p.send_signal(signal.SIGTERM)
out, err = p.communicate(timeout=30)
check(p.returncode == 130, f"SIGTERM: exit 130 (got {p.returncode})")
with open(jpath) as f:
    check(json.load(f)["runs"][0]["status"] == "interrupted", "SIGTERM: status interrupted")
check(listdir(target) == [], "SIGTERM: cleanup ran")

# A second SIGINT exits at once, leaving the run directory and saying where it is. The
# cleanup phase is made long (sleeps end at a stop request; lookups do not) so that the
# second signal lands while it runs.
w2 = write(os.path.join(d, "slowclean.yaml"), """
run:
  - sleep: 10ms
cleanup:
  - repeat: {count: 20000000, do: [{stat: {path: nothing, expect: any}}]}
""")
p = subprocess.Popen([LOADGEN, "-q", "-D", target, "-c", w2, "-t", "60", "--warmup", "0",
                      "--processes", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True)
time.sleep(1.0)
p.send_signal(signal.SIGINT)
time.sleep(0.5)
t0 = time.monotonic()
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=30)
check(p.returncode == 130 and time.monotonic() - t0 < 2, "second SIGINT exits at once")
left = listdir(target)
check(len(left) == 1 and left[0] in err, f"it says which run directory it left: {err!r}")
time.sleep(0.5)
check(subprocess.run(["pgrep", "-f", "slowclean.yaml"], capture_output=True).stdout == b"",
      "no client process left behind")
shutil.rmtree(os.path.join(target, left[0]))
