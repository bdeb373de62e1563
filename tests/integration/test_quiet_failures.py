"""-q in a sweep or a --repeat prints one line per run instead of its report: that line
must still say what went wrong, or a CI log shows exit status 1 and nothing to explain it.
- unexpected results of the measured phase, counted as in the JSON;
- unexpected results in setup;
- a run stopped by SIGINT says it was interrupted;
- a clean run's line has none of it."""
import os
import re
import signal
import subprocess
import time

from lgtest import LOADGEN, check, run, tmpdir, write

d = tmpdir()
LINE = re.compile(r"^clients \d+ run \d+: .*$", re.M)

# A stat of a file that is not there, expected to succeed: every op is an unexpected result.
missing = write(os.path.join(d, "missing.yaml"), """
name: missing
run:
  - stat: {path: "nofile${client}"}
""")
res = run(["-D", d, "-q", "-t", "0.2", "--warmup", "0", "-c", missing, "1,2"], workdir=d)
check(res.rc == 1, "unexpected results: exit 1", res)
lines = LINE.findall(res.out)
check(len(lines) == 2, "-q sweep: one line per run", res)
for r, line in zip(res.json["runs"], lines):
    want = f"  FAILURE: {r['errors']} unexpected results"
    check(r["errors"] > 0 and line.endswith(want),
          f"{r['client_count']} clients: the line says {want!r}: {line!r}")

# A failure in setup only: the measured ops are clean, the line says where it failed.
setup = write(os.path.join(d, "setup.yaml"), """
name: setup
setup:
  - unlink: {path: "never${client}"}
run:
  - stat: {path: "never${client}", expect: ENOENT}
""")
res = run(["-D", d, "-q", "-t", "0.2", "--warmup", "0", "--repeat", "2", "-c", setup, "1"],
          workdir=d)
check(res.rc == 1, "setup failure: exit 1", res)
lines = LINE.findall(res.out)
check(len(lines) == 2 and all(x.endswith("  FAILURE: 1 unexpected results in setup")
                              for x in lines), f"setup failures said: {lines}", res)

# A clean --repeat: nothing after the numbers.
res = run(["-D", d, "-q", "-t", "0.2", "--warmup", "0", "--repeat", "2", "1"], workdir=d)
lines = LINE.findall(res.out)
check(res.rc == 0 and len(lines) == 2 and all(x.endswith(" ms") for x in lines),
      f"clean runs: the lines end with the numbers: {lines}", res)

# SIGINT during the second run of a --repeat: its line says so.
p = subprocess.Popen([LOADGEN, "-D", d, "-q", "-t", "3", "--warmup", "0", "--repeat", "2",
                      "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
# The signal comes once the first run's line is out (a fixed sleep raced a slow setup on a
# busy CI machine), while the second run measures its 3 s.
first = ""
t0 = time.monotonic()
while not LINE.match(first) and time.monotonic() - t0 < 60:
    first = p.stdout.readline()
    if not first:
        break
time.sleep(0.5)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=60)
out = first + out
lines = LINE.findall(out)
check(p.returncode == 130 and len(lines) == 2 and not lines[0].endswith("(interrupted)") and
      lines[1].endswith("  (interrupted)"), f"SIGINT: the interrupted run says so: {lines}",
      f"rc={p.returncode}\n{out}\n{err}")
