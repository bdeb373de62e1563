"""--verify: clean runs report no corruption (private files with aligned, unaligned,
appended and overwritten writes; netbench; every shipped workload; dbench's client.txt),
a file changed behind loadgen's back between its write and its read is caught (exit 4,
counted, the note names the path and offset), and shared files are written but never
checked."""
import glob
import os
import subprocess
import time
import json

from lgtest import LOADGEN, SOURCE, check, run, skip, tmpdir, write

KiB = 1024
d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)


def clean(res, what, checked=True):
    """A run with --verify that must find nothing; returns its run object."""
    check(res.rc == 0, f"{what}: exit 0", res)
    r = res.json["runs"][0]
    check(res.json["config"]["verify"] is True, f"{what}: config.verify is true")
    check(r["corruptions"] == 0 and r["corruption_notes"] == [],
          f"{what}: no corruption (got {r['corruptions']}, {r['corruption_notes'][:2]})")
    check(all("corruptions" not in t for t in r["ops_by_type"].values()),
          f"{what}: no per-type corruptions")
    if checked:
        check(r["verified_bytes"] > 0, f"{what}: bytes were checked ({r['verified_bytes']})")
        check(f"Data verification: no corruption in {r['verified_bytes']} bytes checked"
              in res.out, f"{what}: the report says so", res)
    return r


# -- (1) Private files: aligned and unaligned writes, random rewrites, appends to an
# O_APPEND file, a truncate that leaves a partial block, all read back whole and at
# random. Blocks written in pieces, or partly never written, must not be flagged.
mixed = write(os.path.join(d, "mixed.yaml"), """
name: verify-mixed
setup:
  - mkdir: "c${client}"
run:
  - create: {path: "c${client}/a", as: f, flags: [truncate]}
  - write: {file: f, size: 64KiB, count: 4}
  - write: {file: f, size: 1000, count: 20, offset: random, range: 300KiB, align: 1}
  - write: {file: f, size: 4KiB, count: 8, offset: random, range: 256KiB, align: 4KiB}
  - write: {file: f, size: 333, count: 3, offset: append}
  - read: {file: f, size: 64KiB, count: 6, offset: 0}
  - read: {file: f, size: 4KiB, count: 20, offset: random, range: 300KiB, align: 1}
  - truncate: {file: f, size: 70001}
  - write: {file: f, size: 10, offset: 90000}
  - read: {file: f, size: 128KiB, offset: 0}
  - close: f
  - create: {path: "c${client}/log", as: log, flags: [append, truncate]}
  - write: {file: log, size: 700, count: 9}
  - close: log
  - open: {path: "c${client}/log", as: log, flags: [read]}
  - read: {file: log, size: 8KiB}
  - close: log
  - rename: {from: "c${client}/a", to: "c${client}/b"}
  - open: {path: "c${client}/b", as: f, flags: [read]}
  - read: {file: f, size: 64KiB, count: 2}
  - close: f
  - unlink: "c${client}/b"
  - unlink: "c${client}/log"
""")
for mode in ([], ["--processes"]):
    res = run(["-D", target, "-c", mixed, "-t", "1.5", "--warmup", "0", "--verify"] + mode
              + ["3"], workdir=d)
    r = clean(res, "private files " + " ".join(mode))
    check(r["verified_bytes"] > r["bytes_read"] // 2,
          f"private files {' '.join(mode)}: most bytes read were checked")

# The built-in netbench for 2 s.
res = run(["-D", target, "-t", "2", "--warmup", "0", "--verify", "2"], workdir=d)
clean(res, "netbench")

# Every shipped workload, once, at the small parameters of test_loadfiles.py.
shipped = {
    "dd": ["count=256"], "overwrite": ["buffers=3", "size=64KiB"],
    "bonnie": ["size=1MiB", "bs=8KiB", "blocks=128", "chars=3000", "seeks=200", "files=5"],
    "fileserver": ["nfiles=5", "filesize=8KiB", "appendsize=2KiB", "iosize=64KiB"],
    "varmail": ["nfiles=6", "filesize=4KiB", "appendsize=1KiB", "iosize=64KiB"],
    "webserver": ["nfiles=3", "filesize=6KiB", "appendsize=1KiB", "reads=7"],
    "mix64k": [], "netbench": [],
}
for name, params in shipped.items():
    args = ["-q", "-D", target, "--run-once", "--verify",
            "-c", os.path.join(SOURCE, "loadfiles", name + ".yaml")]
    for p in params:
        args += ["-p", p]
    res = run(args + ["2"], workdir=d)
    # webserver reads shared files only, dd and overwrite read nothing
    clean(res, f"loadfiles/{name}.yaml", checked=name not in ("webserver", "dd", "overwrite"))

CLIENT_TXT = "/usr/share/dbench/client.txt"
if os.path.exists(CLIENT_TXT):
    res = run(["-q", "-D", target, "-t", "3", "--warmup", "0", "--verify", "-c", CLIENT_TXT,
               "2"], workdir=d)
    # reads of files opened by dbench's NTCreateX are checked once that op tells --verify
    # which file it opened; until then none are, and nothing may be flagged
    clean(res, "dbench client.txt", checked=False)
else:
    skip(f"--verify over client.txt: {CLIENT_TXT} is not installed (apt-get install dbench)")

# -- (2) A file changed behind loadgen's back between its write and its read.
tamper = write(os.path.join(d, "tamper.yaml"), """
name: verify-tamper
setup:
  - create: {path: "c${client}", as: f, flags: [truncate]}
  - write: {file: f, size: 64KiB, count: 4}
  - close: f
run:
  - sleep: 3s
  - open: {path: "c${client}", as: f, flags: [read]}
  - read: {file: f, size: 64KiB, count: 4}
  - close: f
""")
BLOCK = 136 * 512          # a block inside the second write
FLIP = BLOCK + 300         # a byte in the middle of its payload


def tampered_run(mode):
    jpath = os.path.join(d, "tamper.json")
    proc = subprocess.Popen([LOADGEN, "-q", "--json", jpath, "-D", target, "-c", tamper,
                             "--run-once", "--verify"] + mode + ["2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    path, deadline = None, time.time() + 20
    while time.time() < deadline and path is None:
        for p in glob.glob(os.path.join(target, "loadgen.*", "c0")):
            files = [p, os.path.join(os.path.dirname(p), "c1")]
            try:
                if all(os.path.getsize(f) == 256 * KiB for f in files):
                    path = p
            except FileNotFoundError:  # c1 not created yet
                pass
        time.sleep(0.05)
    check(path is not None, "tamper: found the written file c0 in the run directory")
    time.sleep(0.3)  # setup is over; the clients sleep 3 s before reading
    with open(path, "r+b") as f:
        f.seek(FLIP)
        b = f.read(4)
        f.seek(FLIP)
        f.write(bytes(x ^ 0xFF for x in b))
    out, err = proc.communicate(timeout=60)
    with open(jpath) as f:
        doc = json.load(f)
    return proc.returncode, out, err, doc


for mode in ([], ["--processes"]):
    what = "tamper " + " ".join(mode)
    rc, out, err, doc = tampered_run(mode)
    r = doc["runs"][0]
    check(rc == 4, f"{what}: exit status 4 (got {rc})", out + err)
    check(r["corruptions"] == 1, f"{what}: one corrupt block (got {r['corruptions']})")
    check(r["errors"] == 0, f"{what}: a corruption is not an error")
    check(r["ops_by_type"]["read"]["corruptions"] == 1, f"{what}: counted for the read row")
    check(r["verified_bytes"] == 2 * 256 * KiB, f"{what}: every block of both files checked")
    notes = r["corruption_notes"]
    check(len(notes) == 1, f"{what}: one note", notes)
    n = notes[0]
    check(n["client"] == 0 and n["path"] == "c0" and n["offset"] == BLOCK,
          f"{what}: the note names client 0, path c0, offset {BLOCK}", n)
    check(n["bad_offset"] == FLIP and n["reason"] == "payload differs" and n["line"] == 10,
          f"{what}: first wrong byte at {FLIP}, payload differs, line 10", n)
    check(n["found_byte"] == n["expected_byte"] ^ 0xFF, f"{what}: the bytes are the flipped ones")
    check(n["expected"].startswith(f"client 0, offset {BLOCK}, xxh64 0x") and
          n["found"].startswith(f"client 0, offset {BLOCK}, xxh64 0x") and
          n["expected"] != n["found"], f"{what}: expected and found differ in the checksum")
    check(f"Data verification: 1 corrupt block in {2 * 256 * KiB} bytes checked" in out and
          f"client 0: line 10: read c0 at offset {BLOCK}: payload differs" in out,
          f"{what}: the report shows the corruption", out)

# -- (3) Shared files: every client writes the same blocks of one file and reads them
# back; the last writer wins, so they are written self-describing but never checked.
shared = write(os.path.join(d, "shared.yaml"), """
name: verify-shared
setup:
  - create: {path: shared, as: s, flags: [truncate], expect: any}
  - close: s
run:
  - open: {path: shared, as: s}
  - write: {file: s, size: 4KiB, count: 16, offset: random, range: 64KiB, align: 512}
  - read: {file: s, size: 64KiB, offset: 0}
  - close: s
""")
res = run(["-D", target, "-c", shared, "-t", "1", "--warmup", "0", "--verify", "4"],
          workdir=d)
r = clean(res, "shared file", checked=False)
check(r["verified_bytes"] == 0, "shared file: nothing checked")
check("Data verification: no corruption in 0 bytes checked" in res.out,
      "shared file: the report says nothing was checked", res)

# -- Without --verify: the keys are there, zero, and the report says nothing about it.
res = run(["-D", target, "-c", tamper, "--run-once", "1"], workdir=d)
r = res.json["runs"][0]
check(res.rc == 0 and res.json["config"]["verify"] is False and r["corruptions"] == 0 and
      r["verified_bytes"] == 0 and r["corruption_notes"] == [],
      "without --verify: config.verify false, corruptions 0, nothing checked", res)
check("Data verification" not in res.out, "without --verify: no verification line", res)
