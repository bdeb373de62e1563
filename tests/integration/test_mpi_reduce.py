"""Many hosts, reduced: the ranks merge their clients' stats up a tree (per host, then
across hosts) instead of sending rank 0 every client's histograms. Checked against the
clients themselves: with --per-client all every client's rows and histograms are in
the result too, and their merge, computed here without MPI, must equal the reduced
totals bucket for bucket and counter for counter; each host's row must equal the merge
of its clients. Without --per-client all the rows have no histograms, and with
--per-client summary the clients are distributions.

4 ranks x 3 clients on 2 "hosts" (ranks 0-1 on h0, ranks 2-3 on h2: own UTS namespaces).
Skips (77) when mpirun, unshare or an MPI build is missing."""
import json
import os
import shutil
import subprocess
import sys

from lgtest import LOADGEN, check, mpi_env, tmpdir, write

MPIRUN = shutil.which("mpirun")
if not MPIRUN:
    print("SKIP: mpirun not found (Debian: openmpi-bin)")
    sys.exit(77)
if "(MPI)" not in subprocess.run([LOADGEN, "--version"], capture_output=True,
                                 text=True).stdout:
    print("SKIP: loadgen was built without MPI (LOADGEN_MPI=OFF)")
    sys.exit(77)
if subprocess.run(["unshare", "-u", "true"], capture_output=True).returncode:
    print("SKIP: unshare -u is not allowed here (needs root)")
    sys.exit(77)

# ranks 0 and 1 are host h0, ranks 2 and 3 host h2
RANK_SCRIPT = r'''
r=$OMPI_COMM_WORLD_RANK
hostname "h$(( r / 2 * 2 ))" || exit 97
exec "$@"
'''

# Every op type of this workload has its own row. NOTED: every client's stat of a
# missing file fails (an unexpected result), so every client has a note.
WORKLOAD = """\
run:
  - create: {path: "f.${client}", as: f, flags: [write]}
  - write: {file: f, size: 64KiB}
  - fsync: f
  - close: f
  - open: {path: "f.${client}", as: f, flags: [read]}
  - read: {file: f, size: 64KiB}
  - close: f
  - stat: "f.${client}"
  - unlink: "f.${client}"
"""
NOTED = """\
run:
  - stat: "missing.${client}"
  - sleep: 1ms
"""

D = tmpdir()
ENV = mpi_env()


def run(args, np=4):
    cmd = [MPIRUN, "--oversubscribe", "-np", str(np), "unshare", "-u", "sh", "-c",
           RANK_SCRIPT, "sh", LOADGEN] + args
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=180)


def buckets(h):
    """A JSON histogram ([low, high, count] per bucket) as {low: count}."""
    return {b[0]: b[2] for b in h}


def hist_add(acc, h):
    for k, v in buckets(h).items():
        acc[k] = acc.get(k, 0) + v


target = os.path.join(D, "t")
os.mkdir(target)
wl = write(os.path.join(D, "w.yaml"), WORKLOAD)

# --- every client with its histograms: their merge is the reduced result -----------------
out = os.path.join(D, "all.json")
res = run(["-c", wl, "-D", target, "-t", "2", "--per-client", "all", "--json", out, "3"])
check(res.returncode == 0, "4 ranks x 3 clients, --per-client all: exit 0", res.stderr)
r = json.load(open(out))["runs"][0]
cl = r["clients"]
check(r.get("client_rows") == "all" and len(cl) == 12 and
      sorted(c["id"] for c in cl) == list(range(12)),
      "--per-client all: the twelve clients, each listed")
check(all("types" in c and "histogram" in c for c in cl),
      "--per-client all: each client has its rows and histograms")
types = r["ops_by_type"]
check(set(types) >= {"create", "write", "fsync", "close", "open", "read", "stat", "unlink"},
      "every op type of the workload has its row")
for label, t in types.items():
    merged, n, rd, wr, err = {}, 0, 0, 0, 0
    for c in cl:
        ct = c["types"].get(label)
        if not ct:
            continue
        hist_add(merged, ct["histogram"])
        n += ct["count"]
        rd += ct["bytes_read"]
        wr += ct["bytes_written"]
        err += ct["errors"]
    check(merged == buckets(t["histogram"]),
          f"{label}: the reduced histogram equals the twelve clients' merged, bucket for "
          f"bucket ({len(merged)} buckets, {t['count']} ops)")
    check((n, rd, wr, err) == (t["count"], t["bytes_read"], t["bytes_written"],
                               t["errors"]),
          f"{label}: ops, bytes read/written and errors equal the clients' sums")
check(r["ops"] == sum(c["ops"] for c in cl), "run ops equal the clients' sum")
hosts = {h["host"]: h for h in r["hosts"]}
check(sorted(hosts) == ["h0", "h2"] and all(h["clients"] == 6 for h in hosts.values()),
      "two hosts, six clients each")
for name, h in hosts.items():
    mine = [c for c in cl if c["host"] == name]
    merged = {}
    for c in mine:
        hist_add(merged, c["histogram"])
    check(h["ops"] == sum(c["ops"] for c in mine) and
          h["bytes"] == sum(c["bytes"] for c in mine) and
          h["latency_ns"]["count"] == sum(merged.values()),
          f"host {name}: ops, bytes and latency count are its clients' sums")
    check(h["latency_ns"]["max"] == max(c["latency_ns"]["max"] for c in mine),
          f"host {name}: its max latency is its slowest client's")

# --- default: rows without histograms ---------------------------------------------------
out = os.path.join(D, "rows.json")
res = run(["-c", wl, "-D", target, "-t", "1", "--json", out, "3"])
check(res.returncode == 0, "default --per-client: exit 0", res.stderr)
r = json.load(open(out))["runs"][0]
check(r.get("client_rows") == "rows" and len(r["clients"]) == 12 and
      not any("histogram" in c or "types" in c for c in r["clients"]),
      "default: twelve rows (up to 4096 clients), none with a histogram")
check(all(c["latency_ns"]["p99"] > 0 and c["ops"] > 0 and c["host"] in ("h0", "h2")
          for c in r["clients"]),
      "each row keeps its ops, latency percentiles and host")
check(r["ops"] == sum(c["ops"] for c in r["clients"]) and
      r["bytes_read"] == sum(h["bytes"] for h in r["hosts"]) - r["bytes_written"],
      "totals equal the rows' and the hosts' sums")

# --- summary: distributions, and only the clients with something to say -----------------
out = os.path.join(D, "summary.json")
res = run(["-c", wl, "-D", target, "-t", "1", "--per-client", "summary", "--json", out,
           "3"])
check(res.returncode == 0, "--per-client summary: exit 0", res.stderr)
doc = json.load(open(out))
r = doc["runs"][0]
d = r.get("client_distribution") or {}
check(r.get("client_rows") == "noted" and r["clients"] == [] and d.get("clients") == 12,
      "summary: no rows (no client has a note), a distribution of the twelve clients")
secs = r["duration_s"]
tp = d["throughput_mbps"]
check(tp["min"] <= tp["p50"] <= tp["max"] and
      abs(tp["mean"] * 12 * secs * 1e6 - (r["bytes_read"] + r["bytes_written"])) <=
      1e-6 * (r["bytes_read"] + r["bytes_written"]) + 12,
      "the distribution's mean throughput times twelve clients is the run's bytes")
check(0 <= tp["min_client"] < 12 and 0 <= tp["max_client"] < 12,
      "the slowest and fastest clients are named")
f = r["fairness"]
check(abs(f["min"] - tp["min"]) < 1e-9 and abs(f["max"] - tp["max"]) < 1e-9,
      "fairness comes from the distribution")
check(sum(h["ops"] for h in r["hosts"]) == r["ops"], "summary: host rows add up to the run")
line = [ln for ln in res.stdout.splitlines() if ln.startswith("Clients: ")]
check(len(line) == 1 and line[0].startswith("Clients: 12, listed only with notes (0); "
                                            "per-client MB/sec min ") and
      f"(client {tp['max_client']})" in line[0],
      "the text shows the clients' distribution and names the fastest client", res.stdout)

# --- summary with failures: the rows of the clients that have notes are kept ---------------
nl = write(os.path.join(D, "noted.yaml"), NOTED)
out = os.path.join(D, "noted.json")
res = run(["-c", nl, "-D", target, "-t", "1", "--per-client", "summary", "--json", out,
           "3"])
check(res.returncode == 1, "summary, every stat failing: exit 1 (ops failed)", res.stderr)
r = json.load(open(out))["runs"][0]
check(r.get("client_rows") == "noted" and
      sorted(c["id"] for c in r["clients"]) == list(range(12)),
      "summary: the twelve clients with notes are listed (up to 64 are)")
check(sorted({n["client"] for n in r["error_notes"]}) == list(range(12)) and
      all(n["got"] == "ENOENT" for n in r["error_notes"]),
      "their notes name each client and what it got")
check(r["errors"] == sum(c["errors"] for c in r["clients"]) and r["errors"] > 0,
      "the errors counted equal the listed clients' errors")
