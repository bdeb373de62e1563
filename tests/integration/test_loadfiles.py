"""Every shipped workload in loadfiles/ runs once (--run-once) at small parameters: exit 0,
no unexpected result, the exact bytes and op counts its parameters imply, and a run
directory that its own cleanup left empty (runs[].cleanup_left)."""
import os
import shutil

from lgtest import SOURCE, check, listdir, run, tmpdir

KiB = 1024
MiB = 1024 * KiB


def run_once(name, clients, params=()):
    """Run loadfiles/NAME.yaml once per client; check the common properties; return the
    run's JSON object."""
    d = tmpdir()
    target = os.path.join(d, "target")
    os.mkdir(target)
    args = ["-q", "--run-once", "-D", target,
            "-c", os.path.join(SOURCE, "loadfiles", name + ".yaml")]
    for p in params:
        args += ["-p", p]
    res = run(args + [str(clients)], workdir=d)
    what = " ".join([name, *params])
    check(res.rc == 0, f"{what}: exit status 0", res)
    check("unexpected" not in res.err, f"{what}: no unexpected result in setup/cleanup", res)
    r = res.json["runs"][0]
    check(r["status"] == "complete" and r["errors"] == 0, f"{what}: complete, 0 errors", res)
    check(len(r["clients"]) == clients, f"{what}: {clients} clients")
    check(r["cleanup_left"] == 0 and listdir(target) == [],
          f"{what}: cleanup left the run directory empty (cleanup_left "
          f"{r['cleanup_left']}, target {listdir(target)})")
    shutil.rmtree(d)
    return r


def counts(r):
    return {label: t["count"] for label, t in r["ops_by_type"].items()}


def check_totals(name, r, written, read, ops):
    check(r["bytes_written"] == written,
          f"{name}: bytes_written == {written} (got {r['bytes_written']})")
    check(r["bytes_read"] == read, f"{name}: bytes_read == {read} (got {r['bytes_read']})")
    check(r["ops"] == ops, f"{name}: ops == {ops} (got {r['ops']})")


def check_counts(name, r, want):
    got = counts(r)
    check(got == want, f"{name}: ops by type {want} (got {got})")


# dd: create, count writes of bs, close; 'when: ${sync}' adds a syncfs before and after.
r = run_once("dd", 1, ["count=4096"])
check_totals("dd", r, 64 * MiB, 0, 4098)
check_counts("dd", r, {"create": 1, "write": 4096, "close": 1})
r = run_once("dd", 2, ["count=100", "bs=4KiB", "sync=true"])
check_totals("dd sync", r, 2 * 100 * 4 * KiB, 0, 2 * 104)
check_counts("dd sync", r, {"syncfs": 4, "create": 2, "write": 200, "close": 2})

# overwrite: per buffer a write, two sync_file_range, and with fadvise=true one fadvise;
# the first buffer has no block before it: its 'offset: prev' steps are skipped, counted
# apart and never as ops.
r = run_once("overwrite", 1, ["buffers=8", "size=1MiB", "fadvise=true"])
check_totals("overwrite", r, 8 * MiB, 0, 1 + 8 * 4 + 1 - 2)
check_counts("overwrite", r, {"create": 1, "write": 8, "sync_file_range": 15, "fadvise": 7,
                              "close": 1})
check(r["skipped"] == 2 and r["skipped_by_reason"] == {"prev_offset": 2, "not_open": 0, "cut_off": 0},
      f"overwrite: the 2 'prev' steps of the first buffer skipped ({r['skipped_by_reason']})")
check(r["ops_by_type"]["fadvise"]["skipped"] == 1, "overwrite: skipped per op label")
r = run_once("overwrite", 2, ["buffers=3", "size=64KiB"])
check_totals("overwrite no fadvise", r, 2 * 3 * 64 * KiB, 0, 2 * (1 + 3 * 3 + 1 - 1))
check("fadvise" not in r["ops_by_type"], "overwrite: fadvise=false compiles no fadvise")

# bonnie: per client, with blocks x bs = size = 1 MiB; 'files' small files per test,
# stat'ed and deleted in name order and in a shuffled order (any name missing or made
# twice would be an unexpected ENOENT or EEXIST).
bs, blocks, chars, seeks, nfiles = 8 * KiB, 128, 3000, 200, 5
r = run_once("bonnie", 2, ["size=1MiB", "bs=8KiB", f"blocks={blocks}", f"chars={chars}",
                           f"seeks={seeks}", f"files={nfiles}"])
t = r["ops_by_type"]
sw = t["seek write"]["count"]
check(0 < sw < 2 * seeks, f"bonnie: some seeks wrote their block back ({sw} of {2 * seeks})")
check(t["seek write"]["bytes_written"] == sw * bs, "bonnie: seek write bytes")
check(t["seeks"]["bytes_read"] == 2 * seeks * bs, "bonnie: seeks read whole blocks")
check(t["rewrite"]["bytes_read"] == t["rewrite"]["bytes_written"] == 2 * blocks * bs,
      "bonnie: rewrite reads and writes the file")
check(t["putc"]["bytes_written"] == t["getc"]["bytes_read"] == 2 * chars,
      "bonnie: putc/getc bytes")
per_client = {"create": 2, "putc": chars, "close": 6 + 2 * nfiles, "write(2)": blocks,
              "open": 4, "rewrite": 2 * blocks, "getc": chars, "read(2)": blocks,
              "seeks": seeks, "unlink": 1}
for label in ("seq create", "seq stat", "seq delete", "ran create", "ran stat",
              "ran delete"):
    per_client[label] = nfiles
check_totals("bonnie", r, 2 * (chars + 2 * blocks * bs) + sw * bs,
             2 * (2 * blocks * bs + chars + seeks * bs), 2 * sum(per_client.values()) + sw)
want = {k: 2 * v for k, v in per_client.items()}
want["seek write"] = sw
check_counts("bonnie", r, want)

# fileserver: delete+create+write whole, append to a file, read one whole, stat one:
# 11 ops a pass, each part on a file picked at random. With one file every part hits
# it, so the read sees the append; with more the read bytes depend on the picks.
fs = ["filesize=8KiB", "appendsize=2KiB", "iosize=64KiB"]
r = run_once("fileserver", 2, ["nfiles=1"] + fs)
check_totals("fileserver", r, 2 * (8 + 2) * KiB, 2 * (8 + 2) * KiB, 2 * 11)
r = run_once("fileserver", 2, ["nfiles=5"] + fs)
check(r["bytes_written"] == 2 * (8 + 2) * KiB and r["ops"] == 2 * 11,
      f"fileserver nfiles=5: bytes written and ops exact (got {r['bytes_written']}, "
      f"{r['ops']})")
check(2 * 8 * KiB <= r["bytes_read"] <= 2 * (8 + 2) * KiB,
      f"fileserver nfiles=5: each client read one file whole (got {r['bytes_read']})")
check(all(c == 2 for c in counts(r).values()) and len(counts(r)) == 11,
      "fileserver: one of each of its 11 flowop rows per client")

# varmail: delete+create+append+fsync; read+append+fsync; read: each part on a file
# picked at random. With one file: the delivered file (1 KiB) is read, appended to,
# read again (2 KiB).
vm = ["filesize=4KiB", "appendsize=1KiB", "iosize=64KiB"]
r = run_once("varmail", 2, ["nfiles=1"] + vm)
check_totals("varmail", r, 2 * 2 * KiB, 2 * (1 + 2) * KiB, 2 * 13)
r = run_once("varmail", 2, ["nfiles=6"] + vm)
check(r["bytes_written"] == 2 * 2 * KiB and r["ops"] == 2 * 13,
      f"varmail nfiles=6: bytes written and ops exact (got {r['bytes_written']}, {r['ops']})")
# per client: 1 KiB + 2 KiB when all parts hit the delivered file, at most 4 + 5 KiB
check(2 * 3 * KiB <= r["bytes_read"] <= 2 * 9 * KiB,
      f"varmail nfiles=6: two whole-file reads per client (got {r['bytes_read']})")
check(counts(r)["fsyncfile2"] == 2 and counts(r)["fsyncfile3"] == 2, "varmail: fsyncs")

# webserver: 'reads' whole-file reads of shared files picked at random (all of them
# 'filesize' long, so the bytes are exact), one append to the shared log.
r = run_once("webserver", 2, ["nfiles=3", "filesize=6KiB", "appendsize=1KiB", "reads=7"])
check_totals("webserver", r, 2 * KiB, 2 * 7 * 6 * KiB, 2 * (7 * 3 + 1))
check_counts("webserver", r, {"openfile": 14, "readfile": 14, "closefile": 14,
                              "appendlog": 2})

# mix64k: 16 x 64 KiB written and read back per client, 39 ops.
r = run_once("mix64k", 2)
check_totals("mix64k", r, 2 * 16 * 64 * KiB, 2 * 16 * 64 * KiB, 2 * 39)

# netbench: one weighted choice per client, so only the totals' consistency is fixed.
r = run_once("netbench", 2)
t = r["ops_by_type"].values()
check(r["ops"] >= 2 and r["ops"] == sum(x["count"] for x in t), "netbench: ops add up")
check(r["bytes_written"] == sum(x["bytes_written"] for x in t) and
      r["bytes_read"] == sum(x["bytes_read"] for x in t), "netbench: bytes add up")

# mdtest, mdtest-shared: files created with size bytes, stat, read back, removed, in
# four phases between barriers, each with its files as items.
for name in ("mdtest", "mdtest-shared"):
    r = run_once(name, 3, ["files=10", "size=8KiB"])
    check_totals(name, r, 3 * 10 * 8 * KiB, 3 * 10 * 8 * KiB, 3 * 10 * 8)
    check_counts(name, r, {"create": 30, "write": 30, "close": 60, "stat": 30, "open": 30,
                           "read": 30, "unlink": 30})
    check([(p["name"], p["items"]) for p in r["barrier_phases"]] ==
          [("create", 30), ("stat", 30), ("read", 30), ("remove", 30)],
          f"{name}: the four phases, 30 files each")

# ior-easy: blocks transfers of bs written, fsynced, read back.
r = run_once("ior-easy", 2, ["bs=64KiB", "blocks=8"])
check_totals("ior-easy", r, 2 * 8 * 64 * KiB, 2 * 8 * 64 * KiB, 2 * 21)
check([(p["name"], p["items"], p["bytes"]) for p in r["barrier_phases"]] ==
      [("write", 16, 16 * 64 * KiB), ("read", 16, 16 * 64 * KiB)],
      "ior-easy: the write and read phases, 16 transfers each")
