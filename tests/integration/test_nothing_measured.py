"""A run that measured nothing (issue 25, item 10): interrupted in its warm-up, it says
so instead of printing an empty table, "Throughput 0 MB/sec" and "Jain's index 1.000";
with -q its one line says "nothing measured" instead of a row of zeros."""
import os
import signal
import subprocess
import time

from lgtest import LOADGEN, check, tmpdir

d = tmpdir()


def interrupted_in_warmup(extra):
    p = subprocess.Popen([LOADGEN, "-D", d, "--monitor", "off", "-t", "1", "--warmup", "60"]
                         + extra + ["2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(1.5)  # well inside the 60 s warm-up, however slow the start
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return p.returncode, out, err


rc, out, err = interrupted_in_warmup([])
check(rc == 130, f"interrupted: exit 130 ({rc}) {err}")
check("Interrupted before the measured phase began: nothing was measured" in out,
      "the report says nothing was measured, and why", out)
check("Throughput" not in out and "Operation" not in out and "Jain" not in out,
      "no table, throughput or fairness of zeros", out)

rc, out, err = interrupted_in_warmup(["-q", "--repeat", "2"])
lines = [ln for ln in out.splitlines() if ln.startswith("clients ")]
check(rc == 130 and lines == ["clients 2 run 1: nothing measured  (interrupted)"],
      f"-q: the run's line says nothing was measured ({lines})", out + err)
