"""--run-once on a deterministic workload: exact op and byte counts in the JSON, and the
run directory removed afterwards."""
import os

from lgtest import check, listdir, run, tmpdir, write

W = """
name: exact
params:
  bs: 4KiB
  n: 16
setup:
  - mkdir: c${client}
run:
  - create: {path: "c${client}/f", as: f, flags: [truncate]}
  - write: {file: f, size: "${bs}", count: "${n}"}
  - fsync: f
  - close: f
  - open: {path: "c${client}/f", as: f}
  - read: {file: f, size: "${bs}", count: "${n}", offset: 0}
  - read: {file: f, size: "${bs}"}
  - close: f
  - stat: c${client}/f
  - unlink: c${client}/f
  - unlink: {path: "c${client}/f", expect: ENOENT}
cleanup:
  - rmdir: c${client}
"""

d = tmpdir()
target = os.path.join(d, "target")
os.mkdir(target)
wl = write(os.path.join(d, "exact.yaml"), W)
res = run(["-q", "--run-once", "-D", target, "-c", wl, "-p", "n=8", "3"], workdir=d)
check(res.rc == 0, "exit status 0", res)
j = res.json
check(j["schema"] == "loadgen-result/1", "schema")
check(j["config"]["clients"] == 3, "3 clients in config")
r = j["runs"][0]
check(r["status"] == "complete", "status complete")
per_client_ops = 1 + 8 + 1 + 1 + 1 + 8 + 1 + 1 + 1 + 2
check(r["ops"] == 3 * per_client_ops, f"ops == {3 * per_client_ops} (got {r['ops']})")
check(r["bytes_written"] == 3 * 8 * 4096, "bytes_written exact")
# the final read at offset 8*4KiB is at end of file: 0 bytes
check(r["bytes_read"] == 3 * 8 * 4096, "bytes_read exact (EOF read returns 0)")
check(r["errors"] == 0, "no errors (the expected ENOENT is not one)")
t = r["ops_by_type"]
check(t["write"]["count"] == 24 and t["read"]["count"] == 27, "per-type counts")
check(t["unlink"]["count"] == 6 and t["create"]["count"] == 3, "unlink/create counts")
check(t["write"]["bytes"] == 3 * 8 * 4096, "write bytes")
check(len(r["clients"]) == 3, "3 clients")
check(sorted(c["ops"] for c in r["clients"]) == [per_client_ops] * 3, "each client's ops")
check(all(c["bytes"] == 2 * 8 * 4096 for c in r["clients"]), "each client's bytes")
lat = t["write"]["latency_ns"]
check(0 < lat["min"] <= lat["p50"] <= lat["p99"] <= lat["max"], "latency ordering")
check(sum(b[2] for b in t["write"]["histogram"]) == 24, "histogram counts sum to count")
check(j["workload"]["params"]["n"] == "8" and j["workload"]["params"]["bs"] == "4KiB",
      "resolved params recorded")
check(len(j["workload"]["sha256"]) == 64, "workload sha256")
check(listdir(target) == [], "target directory left empty")
