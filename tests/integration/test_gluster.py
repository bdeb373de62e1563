"""Many hosts on a real shared filesystem: a GlusterFS volume (replica 2, two bricks) with
2 and then 3 client hosts, each its own mount and UTS namespace with its own FUSE client
(tests/gluster_hosts.py), one MPI rank per host.

- exact: every client of every host writes its own file; the job's bytes and ops are
  exactly the clients' own, each host sees the directory as shared, and both bricks hold
  every file whole (the data went through GlusterFS, replicated); another host then sees
  each file at its size through its own client;
- timed: the built-in workload runs across the hosts, the hosts' counts add up to the
  job's, the run directory is removed through the volume.

Skips (77) without glusterd, the FUSE client, root, mpirun or an MPI build."""
import json
import os
import shutil
import subprocess
import sys

from lgtest import LOADGEN, SOURCE, check, mpi_env, write

sys.path.insert(0, os.path.join(SOURCE, "tests"))
import gluster_hosts  # noqa: E402



def give_up(why):
    print("SKIP:", why)
    sys.exit(77)


MPIRUN = shutil.which("mpirun")
if not MPIRUN:
    give_up("mpirun not found (Debian: openmpi-bin)")
version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
if "(MPI)" not in version:
    give_up("loadgen was built without MPI (LOADGEN_MPI=OFF)")
why = gluster_hosts.missing()
if why:
    give_up(f"a GlusterFS volume needs {why}")

ENV = mpi_env()


def mpirun(g, np, args, timeout=240):
    cmd = [MPIRUN, "--oversubscribe", "-np", str(np), g.on_host, LOADGEN] + args
    return subprocess.run(cmd, capture_output=True, text=True, env=g.env(ENV),
                          timeout=timeout)


def on_host(g, host, cmd):
    return subprocess.run([g.on_host] + cmd, capture_output=True, text=True,
                          env=dict(g.env(ENV), LG_GLUSTER_HOST=str(host)), timeout=60)


for k in (2, 3):
    try:
        g = gluster_hosts.GlusterHosts(k).__enter__()
    except gluster_hosts.Missing as e:
        give_up(f"a GlusterFS volume needs {e}")
    top = g.dir
    try:
        out = os.path.join(top, "out")  # outside the volume
        os.mkdir(out)
        clients = [p for p in g.volume_pids() if g.mount.encode() + b"\0" in
                   open(f"/proc/{p}/cmdline", "rb").read()]  # a client names its mount
        check(len(clients) == k, f"{k} hosts: {k} GlusterFS clients, one per host "
              f"({len(clients)})")

        # --- exact: each client writes its own file ---------------------------------
        wl = write(os.path.join(out, "w.yaml"), """name: w
run:
  - create: {path: "f${client}.of${clients}", as: out, flags: [write, truncate]}
  - write: {file: out, size: 64KiB, count: 4}
  - fsync: out
  - close: out
""")
        p = mpirun(g, k, ["-q", "--run-once", "--keep", "-c", wl, "-D", g.mount, "--json",
                          os.path.join(out, "r.json"), "2"])
        check(p.returncode == 0, f"{k} hosts, exact: exit 0 ({p.returncode})",
              p.stdout + p.stderr)
        run = json.load(open(os.path.join(out, "r.json")))["runs"][0]
        n = 2 * k
        names = sorted(h["host"] for h in run["hosts"])
        check(names == [f"lg-host-{i}" for i in range(1, k + 1)],
              f"{k} hosts, exact: one host per rank, by name ({names})")
        check(all(h["shared_directory"] is True for h in run["hosts"]),
              f"{k} hosts, exact: every host sees the directory as shared")
        check(run["bytes_written"] == n * 4 * 65536 and run["ops"] == n * 7,
              f"{k} hosts, exact: {n} clients' bytes and ops exactly "
              f"({run['bytes_written']}, {run['ops']})")
        rundirs = [x for x in os.listdir(g.bricks[0]) if x.startswith("loadgen.")]
        check(len(rundirs) == 1, f"{k} hosts, exact: one run directory on the volume")
        want = sorted(f"f{i}.of{n}" for i in range(n))
        for b in g.bricks:
            files = sorted(x for x in os.listdir(os.path.join(b, rundirs[0])))
            sizes = {os.path.getsize(os.path.join(b, rundirs[0], f)) for f in files}
            check(files == want and sizes == {4 * 65536},
                  f"{k} hosts, exact: brick {os.path.basename(b)} holds every file whole "
                  f"({files}, sizes {sizes})")
        # the last host reads the sizes through its own client
        p = on_host(g, k, ["sh", "-c", 'hostname; cd "$1" && stat -c "%n %s" *',
                           "sh", os.path.join(g.mount, rundirs[0])])
        lines = p.stdout.split("\n")
        check(p.returncode == 0 and lines[0] == f"lg-host-{k}" and
              sorted(lines[1:-1]) == sorted(f"{f} {4 * 65536}" for f in want),
              f"{k} hosts, exact: host {k} sees every file at its size", p.stdout + p.stderr)

        # --- mdtest phases across the hosts, in one shared directory ---------------------
        for wl in ("mdtest.yaml", "mdtest-shared.yaml"):
            p = mpirun(g, k, ["-q", "-c", os.path.join(SOURCE, "loadfiles", wl), "-p",
                              "files=20", "-D", g.mount, "--json",
                              os.path.join(out, "md.json"), "2"])
            check(p.returncode == 0, f"{k} hosts, {wl}: exit 0 ({p.returncode})",
                  p.stdout + p.stderr)
            run = json.load(open(os.path.join(out, "md.json")))["runs"][0]
            ph = run["barrier_phases"]
            rows = [c["barrier_phases"] for c in run["clients"]]
            check([x["name"] for x in ph] == ["create", "stat", "read", "remove"] and
                  all(x["items"] == 2 * k * 20 and x["clients"] == 2 * k for x in ph),
                  f"{k} hosts, {wl}: four phases of {2 * k * 20} files by {2 * k} clients")
            for i, x in enumerate(ph):
                lo = min(r[i]["start_s"] for r in rows)
                hi = max(r[i]["end_s"] for r in rows)
                check(abs(x["items_per_s"] - x["items"] / (hi - lo)) <= 1e-6 * x["items_per_s"]
                      and (i == 0 or lo >= max(r[i - 1]["end_s"] for r in rows)),
                      f"{k} hosts, {wl}: phase {x['name']} {x['items_per_s']:.0f} files/s = "
                      f"items over the span of the clients' rows, after the phase before")
            check("Phases between barriers" in p.stdout,
                  f"{k} hosts, {wl}: the text has the phase table")

        # --- timed: the built-in workload across the hosts ---------------------------
        p = mpirun(g, k, ["-t", "2", "--warmup", "0", "-D", g.mount, "--json",
                          os.path.join(out, "t.json"), "2"])
        check(p.returncode == 0, f"{k} hosts, built-in workload: exit 0 ({p.returncode})",
              p.stdout + p.stderr)
        doc = json.load(open(os.path.join(out, "t.json")))
        run = doc["runs"][0]
        check(doc["config"]["hosts"] == k and run["status"] == "complete" and run["ops"] > 0,
              f"{k} hosts, built-in workload: {k} hosts, complete, ops counted "
              f"({doc['config']['hosts']}, {run['status']}, {run['ops']})")
        check(sum(h["ops"] for h in run["hosts"]) == run["ops"] and
              sum(h["bytes"] for h in run["hosts"]) ==
              run["bytes_read"] + run["bytes_written"],
              f"{k} hosts, built-in workload: the hosts' ops and bytes add up to the job's")
        left = [x for x in os.listdir(g.bricks[0]) if x.startswith("loadgen.")]
        check(left == rundirs, f"{k} hosts, built-in workload: its run directory removed "
              f"through the volume ({left})")
    finally:
        g.close()
    ours = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if top.encode() in open(f"/proc/{pid}/cmdline", "rb").read():
                ours.append(pid)
        except OSError:
            pass
    check(not os.path.exists(top) and not ours,
          f"{k} hosts: the harness left no directory and no process ({ours})")
