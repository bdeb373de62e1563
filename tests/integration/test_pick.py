"""File sets: 'pick' sets a per-client variable, '${k}' in a path selects one of N files.
A sequential pick over N files touches exactly N distinct files, a shuffle gives every
file once per round, random picks stay inside the set and follow --seed, -S and
--processes work with them, and loadgen import writes them back."""
import os
import shutil

from lgtest import SOURCE, check, listdir, run, tmpdir, write

N = 7

SEQ = """
params:
  n: 3
setup:
  - mkdir: "c${client}"
run:
  # exclusive: a file made twice would be an unexpected EEXIST
  - repeat:
      count: "${n}"
      do:
        - pick: {var: k, count: "${n}", order: seq}
        - create: {path: "c${client}/f${k}", as: f, flags: [write, exclusive]}
        - write: {file: f, size: 100}
        - close: f
        - sleep: 15ms
  # a shuffle gives every name once a round: a missing one would be ENOENT
  - repeat:
      count: "${n}"
      do:
        - pick: {var: s, count: "${n}", order: shuffle}
        - rename: {from: "c${client}/f${s}", to: "c${client}/g${s}"}
"""

RANDOM = """
params:
  n: 3
  picks: 50
setup:
  - mkdir: "c${client}"
run:
  - repeat:
      count: "${picks}"
      do:
        - pick: {var: k, count: "${n}"}
        - create: {path: "c${client}/r${k}", as: f, flags: [write]}
        - close: f
"""


def by_mtime(path):
    """The names in directory path, oldest first: in the order they were written, as the
    workloads below sleep between files, longer than a timestamp tick."""
    return sorted(listdir(path), key=lambda n: os.stat(os.path.join(path, n)).st_mtime_ns)


def run_kept(text, clients, extra=()):
    """Run workload text once with --keep; return (result, {client dir: names in
    creation order})."""
    d = tmpdir()
    target = os.path.join(d, "target")
    os.mkdir(target)
    wl = write(os.path.join(d, "w.yaml"), text)
    res = run(["-q", "--run-once", "--keep", "-D", target, "-c", wl, *extra, str(clients)],
              workdir=d)
    kept = listdir(target)
    rundir = os.path.join(target, kept[0]) if len(kept) == 1 else target
    files = {c: by_mtime(os.path.join(rundir, c)) for c in listdir(rundir)}
    shutil.rmtree(d)
    return res, files


# Sequential: N picks make f0 .. f(N-1), each once and in that order (the first pick
# gives 0); the shuffled renames move all of them (a rename keeps the mtime).
res, files = run_kept(SEQ, 2, ["-p", f"n={N}"])
check(res.rc == 0 and res.json["runs"][0]["errors"] == 0, "seq + shuffle: exit 0, no errors",
      res)
want = [f"g{i}" for i in range(N)]
check(files == {"c0": want, "c1": want},
      f"seq pick over {N} files made exactly {N} distinct files per client, in order, and "
      f"the shuffle renamed each once (got {files})")
r = res.json["runs"][0]
check(r["ops"] == 2 * N * 5 and r["bytes_written"] == 2 * N * 100,
      f"seq + shuffle: ops and bytes exact (got {r['ops']}, {r['bytes_written']})")

# A shuffle's order is random: files made in its order, listed by age, are not in name
# order, and differ between clients. Each order has probability 1/20! by chance.
SHUFFLE = """
setup:
  - mkdir: "c${client}"
run:
  - repeat:
      count: 20
      do:
        - pick: {var: s, count: 20, order: shuffle}
        - create: {path: "c${client}/f${s}", as: f, flags: [write, exclusive]}
        - close: f
        - sleep: 15ms
"""
d = tmpdir()
res = run(["-q", "--run-once", "--keep", "-D", d, "-c", write(os.path.join(d, "s.yaml"),
                                                          SHUFFLE), "2"], workdir=d)
rundir = [os.path.join(d, x) for x in listdir(d) if x.startswith("loadgen.")][0]
orders = [[int(n[1:]) for n in by_mtime(os.path.join(rundir, c))] for c in ("c0", "c1")]
check(res.rc == 0 and sorted(orders[0]) == list(range(20)),
      "shuffle: 20 picks made each of the 20 files once", res)
check(orders[0] != list(range(20)) and orders[0] != orders[1],
      f"shuffle: creation orders are random and per client ({orders})")
shutil.rmtree(d)

# The same with -S (parents of set entries) and in processes mode.
res, files = run_kept(SEQ, 2, ["-p", f"n={N}", "-S", "--processes"])
check(res.rc == 0 and files == {"c0": want, "c1": want},
      f"seq + shuffle with -S --processes: same files ({files})", res)

# Random: every file made is one of the set; the same seed picks the same files.
res, files = run_kept(RANDOM, 2, ["--seed", "7"])
r = res.json["runs"][0]
check(res.rc == 0 and r["ops"] == 2 * 50 * 2, f"random: exit 0, 200 ops (got {r['ops']})",
      res)
names = set(files["c0"]) | set(files["c1"])
check(names <= {"r0", "r1", "r2"} and len(set(files["c0"])) == 3,
      f"random: 50 picks of 3 files stay in the set and reach all 3 ({files})")
res2, files2 = run_kept(RANDOM, 2, ["--seed", "7", "-p", "n=1000"])
res3, files3 = run_kept(RANDOM, 2, ["--seed", "7", "-p", "n=1000"])
same = {c: sorted(f) for c, f in files2.items()} == {c: sorted(f) for c, f in files3.items()}
check(same and len(files2["c0"]) > 10,
      f"random: the same --seed picks the same files ({len(files2['c0'])} files)")
check(sorted(files2["c0"]) != sorted(files2["c1"]), "random: each client has its own stream")

# A timed run of fileserver with few files: random delete/create never collide.
d = tmpdir()
res = run(["-q", "-t", "1", "--warmup", "0", "-D", d, "-c",
           os.path.join(SOURCE, "loadfiles", "fileserver.yaml"), "-p", "nfiles=3",
           "-p", "filesize=4KiB", "2"], workdir=d)
r = res.json["runs"][0]
check(res.rc == 0 and r["errors"] == 0 and r["ops"] > 22,
      f"fileserver nfiles=3 for 1 s: no errors ({r['ops']} ops)", res)
shutil.rmtree(d)

# loadgen import writes pick and ${k} back; the imported YAML runs the same.
d = tmpdir()
src = write(os.path.join(d, "seq.yaml"), SEQ)
out = os.path.join(d, "out.yaml")
res = run(["import", src, "-o", out], json_out=False)
text = open(out).read()
check(res.rc == 0 and '- pick: {var: "k", count: 3, order: seq}' in text and
      '- pick: {var: "s", count: 3, order: shuffle}' in text and
      '{path: "c${client}/f${k}"' in text, "import writes the picks and templates", res)
res, files = run_kept(text, 1)
check(res.rc == 0 and sorted(files["c0"]) == ["g0", "g1", "g2"] and len(files) == 1,
      f"the imported workload makes the same files ({files})", res)
shutil.rmtree(d)

# Load errors exit 2 with the position.
d = tmpdir()
bad = write(os.path.join(d, "bad.yaml"), "run:\n  - stat: \"f${k}\"\n")
res = run(["-c", bad, "1"], workdir=d, json_out=False)
check(res.rc == 2 and "bad.yaml:2:11: undefined parameter '${k}' (nor a variable set by an "
      "earlier 'pick')" in res.err, "a variable used before its pick: exit 2", res)
shutil.rmtree(d)
