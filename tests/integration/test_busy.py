"""Who else was busy: a loop of `dd ... bs=1M count=300 conv=fsync` beside a run (its
file in this test's own directory on the disk, never in the run's target) is named among
the run's top I/O processes (runs[].busy.by_io) and on the report's "Busy beside the run"
line; a quiet run has no dd; `loadgen compare quiet.json busy.json` names dd as busy
beside busy.json's runs only, in its text and in --json's busy_neighbours. The busy run
uses --processes: its clients (children of loadgen) are never listed.

The host is shared: another dd beside the quiet run (not ours) would make the comparison
meaningless, so the quiet run is retried, and the part skipped (77) if dd is always
there."""
import json
import os
import signal
import subprocess
import time

from lgtest import LOADGEN, check, skip, tmpdir


def children(pid):
    """The pids whose parent is pid now."""
    found = set()
    for d in os.listdir("/proc"):
        try:
            with open(f"/proc/{d}/stat") as f:
                if d.isdigit() and int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(d))
        except (OSError, ValueError, IndexError):
            pass
    return found


def loadgen(args, jpath):
    """Run loadgen with --json jpath; its pid and its children's (as seen while it
    ran), stdout and the document."""
    p = subprocess.Popen([LOADGEN, "--json", jpath] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    kids = set()
    while p.poll() is None:  # its output (a few lines) fits in the pipes meanwhile
        kids |= children(p.pid)
        time.sleep(0.2)
    out, err = p.communicate(timeout=120)
    check(p.returncode == 0, f"loadgen {' '.join(args)} exits 0: {err}")
    with open(jpath) as f:
        return (p.pid, kids), out, json.load(f)


def names(busy, key):
    return [g["comm"] for g in busy[key]]


def main():
    work = tmpdir()
    rundir = os.path.join(work, "run")
    dddir = os.path.join(work, "dd")
    os.makedirs(rundir)
    os.makedirs(dddir)
    pids = os.path.join(dddir, "pids")
    args = ["-D", rundir, "-t", "5", "--warmup", "0", "--processes", "4"]
    loop = subprocess.Popen(
        ["sh", "-c", "while :; do dd if=/dev/zero of=%s bs=1M count=300 conv=fsync "
         "2>/dev/null & echo $! >> %s; wait $!; done" % (os.path.join(dddir, "f"), pids)],
        start_new_session=True)
    try:
        while not os.path.exists(pids):
            time.sleep(0.05)
        (pid, kids), out, doc = loadgen(args, os.path.join(work, "busy.json"))
    finally:
        os.killpg(loop.pid, signal.SIGKILL)  # our loop's own group: sh and its dd
        loop.wait()
        if os.path.exists(os.path.join(dddir, "f")):
            os.unlink(os.path.join(dddir, "f"))  # 300 MB
    busy = doc["runs"][0]["busy"]
    with open(pids) as f:
        ours = [int(x) for x in f.read().split()]
    check(len(ours) >= 2, f"{len(ours)} dd processes ran beside the run")
    check(busy["samples"] >= 6, f"{busy['samples']} samples over the 5 s phase")
    check(busy["cpu_ms_per_sample"] < 100, f"a sample costs {busy['cpu_ms_per_sample']} ms")
    dd = [g for g in busy["by_io"] if g["comm"] == "dd"]
    # write_bytes on a disk; only wchar where the test's directory is on a tmpfs
    check(dd and max(dd[0]["write_bytes"], dd[0]["wchar"]) >= 300e6,
          f"dd is among the top I/O processes: {names(busy, 'by_io')}", out)
    check(any("Busy beside the run:" in line and "dd (" in line for line in out.splitlines()),
          "the report names dd", out)
    listed = [p for key in ("by_io", "by_cpu") for g in busy[key] for p in g["pids"]]
    check(pid not in listed, "loadgen itself is not listed")
    check(len(kids) >= 4, f"its client processes seen: {sorted(kids)}")
    check(not kids & set(listed), f"its client processes are not listed: {busy['by_cpu']}")

    quiet = os.path.join(work, "quiet.json")
    for attempt in range(3):
        _, out, qdoc = loadgen(args, quiet)
        qbusy = qdoc["runs"][0]["busy"]
        if "dd" not in names(qbusy, "by_io") + names(qbusy, "by_cpu"):
            break
        print(f"another dd ran beside quiet run {attempt + 1}: {qbusy['by_io']}")
    else:
        skip("another dd (not ours) ran beside every quiet run: nothing to compare")
        return
    check(True, "the quiet run has no dd")
    check("Busy beside the run:" not in out or "dd (" not in out, "nor does its report")

    busyf = os.path.join(work, "busy.json")
    cmp = subprocess.run([LOADGEN, "compare", quiet, busyf], capture_output=True, text=True)
    check(cmp.returncode in (0, 1), f"compare runs: {cmp.stderr}")
    want = f"during {busyf}'s runs, nothing comparable in {quiet}"
    lines = [line for line in cmp.stdout.splitlines() if line.strip().startswith("dd (")]
    check(lines and want in lines[0], "compare's text names dd beside busy.json only",
          cmp.stdout)
    cmp = subprocess.run([LOADGEN, "compare", "--json", quiet, busyf], capture_output=True,
                         text=True)
    notes = json.loads(cmp.stdout)["comparisons"][0]["busy_neighbours"]
    dd = [n for n in notes if n["comm"] == "dd"]
    check(dd and dd[0]["side"] == "other" and dd[0]["by"] == "io_bytes" and
          want in dd[0]["text"], f"--json's busy_neighbours names dd: {notes}")


main()
