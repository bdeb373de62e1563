"""Many hosts on a real shared filesystem: a GlusterFS volume (replica 2, two bricks) with
2 and then 3 client hosts, each its own mount and UTS namespace with its own FUSE client
(tests/gluster_hosts.py), one MPI rank per host.

- exact: every client of every host writes its own file; the job's bytes and ops are
  exactly the clients' own, each host sees the directory as shared, and both bricks hold
  every file whole (the data went through GlusterFS, replicated); another host then sees
  each file at its size through its own client;
- mdtest: mdtest.yaml and mdtest-shared.yaml across the hosts, each phase's rate equal
  to its files over its span, recomputed from the clients' own rows;
- read back by a peer (IOR -C): each client reads, with --verify, the file the client
  ${peer} on the next host wrote, and every byte read is checked against its writer;
  then one block of one file is changed through another host's mount between the write
  phase and the read-back: exit 4, and the note names the file, the offset, the writer
  and the reader with their hosts;
- timed: the built-in workload runs across the hosts, the hosts' counts add up to the
  job's, the run directory is removed through the volume.

Skips (77) without glusterd, the FUSE client, root, mpirun or an MPI build."""
import glob
import json
import os
import subprocess
import sys
import time

from lgtest import LOADGEN, MPIEXEC, SOURCE, check, mpi_cmd, mpi_env, write

sys.path.insert(0, os.path.join(SOURCE, "tests"))
import gluster_hosts  # noqa: E402



def give_up(why):
    print("SKIP:", why)
    sys.exit(77)


if not MPIEXEC:
    give_up("no MPI launcher (Debian: openmpi-bin, or mpich for an MPICH build)")
version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
if "(MPI)" not in version:
    give_up("loadgen was built without MPI (LOADGEN_MPI=OFF)")
why = gluster_hosts.missing()
if why:
    give_up(f"a GlusterFS volume needs {why}")

ENV = mpi_env()


def mpirun(g, np, args, timeout=240):
    cmd = mpi_cmd(np, [g.on_host, LOADGEN] + args)
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
            # the hosts' rows are on rank 0's clock to within the error of the offsets
            tol = run["start_skew_clock_error_ms"] / 1e3 + 1e-4
            check([x["name"] for x in ph] == ["create", "stat", "read", "remove"] and
                  all(x["items"] == 2 * k * 20 and x["clients"] == 2 * k for x in ph),
                  f"{k} hosts, {wl}: four phases of {2 * k * 20} files by {2 * k} clients")
            for i, x in enumerate(ph):
                lo = min(r[i]["start_s"] for r in rows)
                hi = max(r[i]["end_s"] for r in rows)
                check(abs(x["items_per_s"] - x["items"] / (hi - lo)) <= 1e-6 * x["items_per_s"]
                      and (i == 0 or lo >= max(r[i - 1]["end_s"] for r in rows) - tol),
                      f"{k} hosts, {wl}: phase {x['name']} {x['items_per_s']:.0f} files/s = "
                      f"items over the span of the clients' rows, after the phase before")
            check("Phases between barriers" in p.stdout,
                  f"{k} hosts, {wl}: the text has the phase table")

        # --- one host reads what another wrote (IOR -C), --verify ----------------------
        xv = write(os.path.join(out, "xv.yaml"), """name: xv
params: {pause: 0s}
run:
  - barrier: {phase: write, items: write}
  - create: {path: "x.${client}", as: f, flags: [write, truncate]}
  - write: {file: f, size: 64KiB, count: 4}
  - fsync: f
  - close: f
  - barrier: pause
  - sleep: "${pause}"
  - barrier: {phase: read, items: read}
  - open: {path: "x.${peer}", as: f, flags: [read]}
  - read: {file: f, size: 64KiB, count: 4}
  - close: f
cleanup:
  - unlink: {path: "x.${client}", expect: any}
""")
        p = mpirun(g, k, ["-q", "--verify", "-c", xv, "-D", g.mount, "--json",
                          os.path.join(out, "xv.json"), "2"])
        run = json.load(open(os.path.join(out, "xv.json")))["runs"][0]
        n = 2 * k
        check(p.returncode == 0 and run["corruptions"] == 0 and
              run["bytes_read"] == n * 4 * 65536 and
              run["peer_verified_bytes"] == run["bytes_read"],
              f"{k} hosts, read back by a peer on another host: every one of the "
              f"{n * 4 * 65536} bytes read was checked against its writer "
              f"({p.returncode}, {run['corruptions']}, {run['peer_verified_bytes']})",
              p.stdout + p.stderr)

        # a block of client 1's file changed through host k's own mount between the write
        # phase and the read-back: the peer that reads it reports it, naming both
        proc = subprocess.Popen(mpi_cmd(k, [g.on_host, LOADGEN, "-q", "--verify", "-c", xv,
                                            "-p", "pause=3s", "-D", g.mount, "--json",
                                            os.path.join(out, "bad.json"), "2"]),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=g.env(ENV))
        t0 = time.monotonic()
        files = []
        while time.monotonic() - t0 < 60 and proc.poll() is None:
            files = [f for f in glob.glob(os.path.join(g.bricks[0], "loadgen.*", "x.*"))
                     if os.path.getsize(f) == 4 * 65536]
            if len(files) == n:
                break
            time.sleep(0.05)
        check(len(files) == n, f"{k} hosts, planted fault: every file written ({files})")
        time.sleep(0.3)  # the write phase's last fsync and close
        rundir = os.path.basename(os.path.dirname(files[0]))
        victim = os.path.join(g.mount, rundir, "x.1")
        # 'Z's, not zeros: --verify takes an all-zero block for one never written (a hole)
        q = on_host(g, k, ["sh", "-c", "head -c 512 /dev/zero | tr '\\0' Z | dd of=\"$1\" "
                           "bs=512 seek=24 count=1 conv=notrunc,fsync", "sh", victim])
        check(q.returncode == 0, f"{k} hosts, planted fault: host {k} changed one block "
              f"of x.1 at offset 12288 through its own mount", q.stderr)
        outp, errp = proc.communicate(timeout=120)
        run = json.load(open(os.path.join(out, "bad.json")))["runs"][0]
        notes = run["corruption_notes"]
        reader = (1 - 2) % n  # the client whose peer is client 1
        check(proc.returncode == 4 and run["corruptions"] == 1 and len(notes) == 1,
              f"{k} hosts, planted fault: exit 4, one corrupt block "
              f"({proc.returncode}, {run['corruptions']})", outp + errp)
        nt = notes[0]
        check(nt["path"].endswith("x.1") and nt["offset"] == 12288 and
              nt["writer"]["client"] == 1 and nt["writer"]["host"] == "lg-host-1" and
              nt["reader"]["client"] == reader and nt["reader"]["host"] == f"lg-host-{k}" and
              nt["found_byte"] == ord("Z"),
              f"{k} hosts, planted fault: the note names x.1, offset 12288, writer client 1 "
              f"on lg-host-1, reader client {reader} on lg-host-{k} ({nt})")

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
