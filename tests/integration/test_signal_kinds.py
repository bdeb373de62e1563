"""Every signal of the table in src/run/signals.c does what the table says, on the real binary:
SIGHUP, SIGALRM and SIGXCPU stop a run like SIGINT (results written with status
"interrupted", the run directory cleaned up, exit 130); SIGPIPE, SIGUSR1, SIGUSR2 and
SIGXFSZ are ignored (the run ends by itself, "complete", exit 0). A closed stdout
(`loadgen ... | head -3`) stops the run the same way instead of killing it, through EPIPE
on the next progress line; with -q (no progress) the run ends well and keeps its status.
SIGXCPU, which the kernel repeats every second, never counts as the "second signal" that
exits at once; a SIGHUP to the whole process group leaves forked clients to the master;
under nohup (SIGHUP ignored at start) SIGHUP stays ignored.

Each run waits for its first progress line of the measured phase before the signal is
sent, so the signal lands in the run whatever the load of the machine."""
import json
import os
import shutil
import signal
import subprocess
import time

from lgtest import LOADGEN, check, listdir, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
# Sleeps end at a stop request, so a stop takes well under a second; the clients hold a
# file each in the run directory, which cleanup removes.
slow = write(os.path.join(d, "slow.yaml"), """
setup:
  - mkdir: c${client}
  - create: {path: "c${client}/f", as: f}
  - write: {file: f, size: 4KiB}
  - close: f
run:
  - stat: c${client}/f
  - sleep: 200ms
cleanup:
  - unlink: c${client}/f
  - rmdir: c${client}
""")
jpath = os.path.join(d, "r.json")


def start(secs, extra=(), workload=slow, **kw):
    """Start a run of secs seconds; return it once it printed a line of the measured
    phase (the signal handlers are installed, the clients run)."""
    if os.path.exists(jpath):
        os.unlink(jpath)
    p = subprocess.Popen([LOADGEN, "-D", target, "-c", workload, "-t", str(secs), "--warmup", "0",
                          "--json", jpath, *extra, "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, **kw)
    lines = []
    for line in p.stdout:
        lines.append(line)
        if " execute " in line:
            return p, lines
    p.wait()
    check(False, f"the run printed a progress line: {lines} {p.stderr.read()}")


def finish(p, what, rc, status):
    out, err = p.communicate(timeout=100)
    check(p.returncode == rc, f"{what}: exit {rc} (got {p.returncode}) {err}")
    check(os.path.exists(jpath), f"{what}: the JSON was written {err}")
    with open(jpath) as f:
        r = json.load(f)["runs"][0]
    check(r["status"] == status, f"{what}: status {status} (got {r['status']})")
    check(not r.get("lost_clients"), f"{what}: no client lost ({r.get('lost_clients')})")
    check(listdir(target) == [], f"{what}: the run directory was cleaned up "
          f"({listdir(target)})")
    return out, err


# Stop signals, sent to loadgen itself.
for sig in (signal.SIGHUP, signal.SIGALRM, signal.SIGXCPU):
    p, _ = start(120)
    p.send_signal(sig)
    finish(p, sig.name, 130, "interrupted")

# SIGXCPU twice (as the kernel repeats it past the soft CPU limit): still a clean stop,
# never the second signal that exits at once, leaving the run directory behind. The
# cleanup is made long (a million lookups a client: a second at least) so that the
# second signal lands in it; sent at once, the two would merge into one.
slowclean = write(os.path.join(d, "slowclean.yaml"), """
run:
  - sleep: 200ms
cleanup:
  - repeat: {count: 1000000, do: [{stat: {path: nothing, expect: any}}]}
""")
p, _ = start(120, workload=slowclean)
p.send_signal(signal.SIGXCPU)
time.sleep(0.3)
p.send_signal(signal.SIGXCPU)
finish(p, "SIGXCPU twice", 130, "interrupted")

# Ignored signals: the run goes on to its end.
for sig in (signal.SIGPIPE, signal.SIGUSR1, signal.SIGUSR2, signal.SIGXFSZ):
    p, _ = start(3)
    p.send_signal(sig)
    finish(p, sig.name + " ignored", 0, "complete")

# A hangup reaches the whole foreground process group: forked clients ignore it and
# are stopped by the master (none is lost, the status is not "partial").
p, _ = start(120, ["--processes"], start_new_session=True)
os.killpg(p.pid, signal.SIGHUP)
finish(p, "SIGHUP to the process group, --processes", 130, "interrupted")

# nohup: SIGHUP ignored at start stays ignored.
p, _ = start(3, preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
p.send_signal(signal.SIGHUP)
finish(p, "SIGHUP under nohup", 0, "complete")

# The reader of stdout leaves: the next progress line meets a closed pipe, and the run
# stops as with SIGINT instead of dying of SIGPIPE (exit 141, no JSON, no cleanup).
p, lines = start(120)
p.stdout.close()
_, err = p.communicate(timeout=100)
check(p.returncode == 130, f"closed stdout: exit 130 (got {p.returncode}) {err}")
with open(jpath) as f:
    check(json.load(f)["runs"][0]["status"] == "interrupted", "closed stdout: interrupted")
check(listdir(target) == [], "closed stdout: the run directory was cleaned up")

# The same through a shell, as a user types it.
bash = shutil.which("bash")
if bash:
    os.unlink(jpath)
    sh = subprocess.run([bash, "-c", '"$@" | head -3 >/dev/null; exit "${PIPESTATUS[0]}"',
                         "sh", LOADGEN, "-D", target, "-c", slow, "-t", "120", "--warmup",
                         "0", "--json", jpath, "2"], capture_output=True, text=True,
                        timeout=150)
    check(sh.returncode == 130, f"| head -3: exit 130 (got {sh.returncode}) {sh.stderr}")
    with open(jpath) as f:
        check(json.load(f)["runs"][0]["status"] == "interrupted", "| head -3: interrupted")
    check(listdir(target) == [], "| head -3: the run directory was cleaned up")

    # -q prints nothing while the run goes: it ends well, and the results it prints into
    # the closed pipe afterwards are lost quietly; the run keeps its status and exit 0.
    os.unlink(jpath)
    sh = subprocess.run([bash, "-c", '"$@" | head -1 >/dev/null; exit "${PIPESTATUS[0]}"',
                         "sh", LOADGEN, "-q", "-D", target, "-c", slow, "-t", "2",
                         "--warmup", "0", "--json", jpath, "2"], capture_output=True,
                        text=True, timeout=150)
    with open(jpath) as f:
        st = json.load(f)["runs"][0]["status"]
    check(sh.returncode == 0 and st == "complete",
          f"-q | head -1: complete, exit 0 (got {sh.returncode}, {st}) {sh.stderr}")
    check(listdir(target) == [], "-q | head -1: the run directory was cleaned up")
