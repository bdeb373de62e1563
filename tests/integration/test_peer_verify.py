"""One host reads what another wrote (IOR -C, mdtest -N): ${peer} paths under --verify.

Each client writes f${client} in setup and reads f${peer} in the run phase. On one rank
(peer_shift: 1, client 0 reads client 1's file) the test changes the file between the
phases, during a sleep that opens the run phase: 512 bytes at 4096 overwritten must be a
corruption naming writer 1, reader 0, offset 4096 and the bytes (exit 4); the file
removed must be stale metadata. On 2 MPI ranks x 2 clients (the default shift: the same
index on the other rank) every byte read is checked and clean; a block changed on rank
1's file is reported with both ranks (and host names, each rank in its own UTS namespace
when unshare works). Runs on tmpfs (/dev/shm). The MPI parts are skipped (77) when
mpirun or an MPI build is missing."""
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time

from lgtest import LOADGEN, MPI_RANK_SH, MPIEXEC, check, mpi_cmd, mpi_env, skip, write

SIZE = 4 * 4096
WORKLOAD = """\
name: peer
params: {shift: 1, nap: 0s}
peer_shift: ${shift}
setup:
  - create: {path: "f${client}", as: w, flags: [truncate]}
  - write: {file: w, size: 4KiB, count: 4}
  - close: w
run:
  - sleep: "${nap}"
  - stat: "f${peer}"
  - open: {path: "f${peer}", as: r, flags: [read]}
  - read: {file: r, size: 4KiB, count: 4}
  - close: r
"""
# The default shift (clients per rank): the workload without peer_shift.
WORKLOAD_DEFAULT = WORKLOAD.replace("peer_shift: ${shift}\n", "").replace(
    "params: {shift: 1, nap: 0s}", "params: {nap: 0s}")


def shm_dir():
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    return tempfile.mkdtemp(prefix="lgpeer.", dir=base)


def load(path):
    with open(path) as f:
        return json.load(f)


def tamper(d, name, action, stop):
    """Wait for run directory file `name` to hold all SIZE bytes (setup wrote it), then
    act on it. Returns the thread; it sets stop['done'] once it acted."""
    def body():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not stop.get("quit"):
            for rd in os.listdir(d):
                p = os.path.join(d, rd, name)
                if rd.startswith("loadgen.") and os.path.exists(p) and \
                        os.path.getsize(p) == SIZE:
                    time.sleep(0.05)  # the close after the last write
                    action(p)
                    stop["done"] = True
                    return
            time.sleep(0.005)
    t = threading.Thread(target=body)
    t.start()
    return t


def overwrite(p):
    with open(p, "r+b") as f:
        f.seek(4096)
        f.write(b"\x5a" * 512)


def one_rank(action, nap="1500ms"):
    d = shm_dir()
    wl = write(os.path.join(d, "w.yaml"), WORKLOAD)
    stop = {}
    t = tamper(d, "f1", action, stop)
    p = subprocess.run([LOADGEN, "-q", "--run-once", "--verify", "-c", wl, "-p",
                        f"nap={nap}", "-D", d, "--json", os.path.join(d, "r.json"), "2"],
                       capture_output=True, text=True, timeout=120)
    stop["quit"] = True
    t.join()
    doc = load(os.path.join(d, "r.json")) if os.path.exists(os.path.join(d, "r.json")) else None
    shutil.rmtree(d, ignore_errors=True)
    return p, doc, stop.get("done")


# --- one rank, peer_shift 1: clean, then a block changed, then the file removed ---
d = shm_dir()
wl = write(os.path.join(d, "w.yaml"), WORKLOAD)
p = subprocess.run([LOADGEN, "-q", "--run-once", "--verify", "-c", wl, "-D", d, "--json",
                    os.path.join(d, "r.json"), "2"], capture_output=True, text=True)
check(p.returncode == 0, f"clean peer run exits 0 ({p.returncode}) {p.stderr}")
run = load(os.path.join(d, "r.json"))["runs"][0]
check(run["corruptions"] == 0, "no corruption")
check(run["bytes_read"] == 2 * SIZE, f"each client read its peer's file ({run['bytes_read']})")
check(run["verified_bytes"] == run["bytes_read"] == run["peer_verified_bytes"],
      f"every byte read from a peer was checked ({run['verified_bytes']}, "
      f"{run['peer_verified_bytes']})")
shutil.rmtree(d, ignore_errors=True)

p, doc, done = one_rank(overwrite)
check(done, "the test overwrote 512 bytes at 4096 of f1 between setup and run")
check(p.returncode == 4, f"a changed block of the peer's file: exit 4 ({p.returncode})", p)
run = doc["runs"][0]
notes = run["corruption_notes"]
check(run["corruptions"] == 1 and len(notes) == 1, f"one corrupt block, one note: {notes}")
n = notes[0]
check(n["path"] == "f1" and n["offset"] == 4096 and n["bad_offset"] == 4096,
      f"the note names f1, offset 4096: {n}")
check(n["writer"] == {"client": 1, "rank": 0, "host": None}, f"writer client 1: {n['writer']}")
check(n["reader"] == {"client": 0, "rank": 0, "host": None}, f"reader client 0: {n['reader']}")
check(n["client"] == 0, "the note is the reader's")
check(n["expected_byte"] == ord("L") and n["found_byte"] == 0x5A,
      f"expected byte 'L' (the magic), found 0x5a: {n['expected_byte']}, {n['found_byte']}")
check(n["expected"].startswith("client 1, offset 4096,"), f"expected names the writer: {n['expected']}")
check("written by client 1 (rank 0), read by client 0 (rank 0)" in p.stdout,
      "the text report names writer and reader", p.stdout)

p, doc, done = one_rank(os.unlink)
check(done, "the test removed f1 between setup and run")
check(p.returncode == 4, f"the peer's file not found: exit 4 ({p.returncode})", p)
run = doc["runs"][0]
stale = [n for n in run["corruption_notes"] if n["reason"] == "stale metadata"]
check(stale and stale[0]["writer"]["client"] == 1 and stale[0]["reader"]["client"] == 0 and
      stale[0]["found"] == "ENOENT" and stale[0]["path"] == "f1",
      f"stale metadata: f1, writer 1, reader 0, ENOENT: {run['corruption_notes']}")
check(run["corruptions"] >= 1, "stale metadata counts as a corruption")
check("stale metadata: ENOENT" in p.stdout, "the text report says stale metadata", p.stdout)

# --- 2 MPI ranks x 2 clients, the default shift ---
version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
if not MPIEXEC:
    skip("no MPI launcher (Debian: openmpi-bin, or mpich for an MPICH build)")
elif "(MPI)" not in version:
    skip("loadgen was built without MPI (LOADGEN_MPI=OFF)")
else:
    ENV = mpi_env()
    HOSTS = subprocess.run(["unshare", "-u", "true"], capture_output=True).returncode == 0

    def mpirun(args, d, action=None, name=None):
        cmd = []
        if HOSTS:  # each rank its own host name, h<rank>
            cmd += ["unshare", "-u", "sh", "-c", f'hostname "h{MPI_RANK_SH}" && exec "$@"',
                    "sh"]
        stop = {}
        t = tamper(d, name, action, stop) if action else None
        p = subprocess.run(mpi_cmd(2, cmd + [LOADGEN] + args), capture_output=True, text=True,
                           env=ENV, timeout=180)
        stop["quit"] = True
        if t:
            t.join()
        return p, stop.get("done")

    d = shm_dir()
    wl = write(os.path.join(d, "w.yaml"), WORKLOAD_DEFAULT)
    p, _ = mpirun(["-q", "--run-once", "--verify", "-c", wl, "-D", d, "--json",
                   os.path.join(d, "r.json"), "2"], d)
    check(p.returncode == 0, f"2 ranks x 2 clients, clean: exit 0 ({p.returncode}) {p.stderr}")
    doc = load(os.path.join(d, "r.json"))
    run = doc["runs"][0]
    check(doc["config"]["clients_total"] == 4, "4 clients in all")
    check(run["corruptions"] == 0 and run["corruption_notes"] == [], "no corruption")
    check(run["bytes_read"] == 4 * SIZE, f"every client read its peer's file ({run['bytes_read']})")
    check(run["verified_bytes"] == run["bytes_read"] == run["peer_verified_bytes"],
          f"every byte read from a peer on the other rank was checked "
          f"({run['verified_bytes']}, {run['peer_verified_bytes']})")
    shutil.rmtree(d, ignore_errors=True)

    # client 3 (rank 1) wrote f3; client 1 (rank 0) reads it
    d = shm_dir()
    wl = write(os.path.join(d, "w.yaml"), WORKLOAD_DEFAULT)
    p, done = mpirun(["-q", "--run-once", "--verify", "-c", wl, "-p", "nap=2s", "-D", d,
                      "--json", os.path.join(d, "r.json"), "2"], d, overwrite, "f3")
    check(done, "the test overwrote 512 bytes at 4096 of f3 between setup and run")
    check(p.returncode == 4, f"2 ranks, a changed block: exit 4 ({p.returncode}) {p.stderr}")
    run = load(os.path.join(d, "r.json"))["runs"][0]
    n = run["corruption_notes"][0]
    h0, h1 = ("h0", "h1") if HOSTS else (n["reader"]["host"], n["writer"]["host"])
    check(n["writer"] == {"client": 3, "rank": 1, "host": h1} and
          n["reader"] == {"client": 1, "rank": 0, "host": h0} and n["offset"] == 4096,
          f"writer client 3 on rank 1 ({h1}), reader client 1 on rank 0 ({h0}): {n}")
    check(f"written by client 3 (rank 1, host {h1}), read by client 1 (rank 0, host {h0})"
          in p.stdout, "the text report names both hosts", p.stdout)
    shutil.rmtree(d, ignore_errors=True)
