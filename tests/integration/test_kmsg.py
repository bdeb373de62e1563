"""Kernel messages during a run: a line written to /dev/kmsg while loadgen measures is in
the result (level, time relative to the measured phase) and in the box at the end of the
text report. Needs root to write /dev/kmsg: skipped with 77 otherwise.
Robust under load by design: the line is written once loadgen has printed its first
progress line of the measured phase (not after a fixed sleep, which a slow start on a
busy machine outlasts), and its time is checked against the run's own measured time."""
import json
import os
import subprocess
import sys
import time
import uuid

from lgtest import LOADGEN, check, tmpdir


def main():
    if os.geteuid() != 0 or not os.access("/dev/kmsg", os.W_OK):
        print("SKIP: writing /dev/kmsg needs root")
        sys.exit(77)
    work = tmpdir()
    tag = f"loadgen-kmsg-test-{uuid.uuid4().hex[:12]}"
    jpath = os.path.join(work, "r.json")
    proc = subprocess.Popen([LOADGEN, "--json", jpath, "-D", work, "-t", "4", "--warmup",
                             "0", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    head = []  # up to the first progress line of the measured phase (about 1 s in)
    for line in proc.stdout:
        head.append(line)
        if " execute " in line:
            break
    check(" execute " in head[-1], f"a progress line of the measured phase: {head}")
    with open("/dev/kmsg", "w") as k:
        k.write(f"<4>{tag}: a warning planted by the test\n")
    with open("/dev/kmsg", "w") as k:  # info level, no sign of trouble: not kept
        k.write(f"<6>{tag}-info: routine\n")
    out, err = proc.communicate(timeout=120)
    out = "".join(head) + out
    check(proc.returncode == 0, f"run finishes (rc {proc.returncode}): {err}")
    with open(jpath) as f:
        doc = json.load(f)
    km = doc["runs"][0]["kernel_messages"]
    check(km["readable"] is True and km["note"] is None, "the kernel log was readable")
    mine = [m for m in km["messages"] if tag in m["text"]]
    check(len(mine) == 1, f"the planted warning is kept, the info line is not: {mine}")
    m = mine[0]
    check(m["level"] == 4 and m["level_name"] == "warning", "its level is warning")
    check(m["facility"] == 1, "its facility is user (written from user space)")
    dur = doc["runs"][0]["duration_s"]
    check(0.5 < m["t_s"] <= dur, f"its time is inside the measured phase, after its first "
          f"interval: {m['t_s']:.3f} s of {dur:.3f} s")
    check(km["count"] >= 1, "it is counted")
    check("KERNEL:" in out and tag in out, "the text report's box shows it", out)
    box = out[out.index("KERNEL:"):]
    check("warning" in box.split(tag)[0].splitlines()[-1], "with its level in the box")


main()
