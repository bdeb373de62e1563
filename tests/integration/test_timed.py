"""The acceptance run of the foundation: `loadgen -D DIR -t 3 --json r.json 4` on the
built-in workload prints progress and the Throughput line, writes the JSON with 4 clients
and percentiles, and leaves DIR empty."""
import os
import re

from lgtest import check, listdir, run, tmpdir

d = tmpdir()
target = os.path.join(d, "x")
os.mkdir(target)
res = run(["-D", target, "-t", "2", "--warmup", "1", "4"], workdir=d)
check(res.rc == 0, "exit status 0", res)
prog = re.compile(r"^ {0,3}4 +\d+ +\d+\.\d\d MB/sec  (warmup|execute|cleanup) +\d+ sec  "
                  r"latency \d+\.\d{3} ms$")
lines = res.out.splitlines()
progress = [l for l in lines if prog.match(l)]
check(any("warmup" in l for l in progress), "a warmup progress line", res)
check(sum("execute" in l for l in progress) >= 2, "execute progress lines", res)
tp = [l for l in lines if l.startswith("Throughput ")]
check(len(tp) == 1, "one Throughput line", res)
m = re.match(r"^Throughput (\S+) MB/sec  4 clients  4 threads  max_latency=(\d+\.\d{3}) ms$",
             tp[0])
check(m is not None, "Throughput line format", res)
j = res.json
r = j["runs"][0]
check(abs(float(m.group(1)) - r["throughput_mbps"]) <= 0.01 * r["throughput_mbps"] + 1e-6,
      "text throughput matches JSON")
check(1.9 <= r["duration_s"] <= 3.0, f"measured about 2 s (got {r['duration_s']})")
tput = (r["bytes_read"] + r["bytes_written"]) / r["duration_s"] / 1e6
check(abs(tput - r["throughput_mbps"]) < 1e-6 * max(1, tput), "throughput = bytes / time")
check(abs(r["ops"] / r["duration_s"] - r["ops_per_s"]) < 1e-3 * r["ops_per_s"], "ops/s")
check(r["ops"] > 0 and r["errors"] == 0, "ops ran without errors", res)
check(len(r["clients"]) == 4 and sorted(c["id"] for c in r["clients"]) == [0, 1, 2, 3],
      "4 clients in JSON")
for c in r["clients"]:
    check(c["ops"] > 0 and c["latency_ns"]["p99"] >= c["latency_ns"]["p50"] > 0,
          f"client {c['id']} percentiles")
check(sum(c["ops"] for c in r["clients"]) == r["ops"], "client ops add up")
KEYS = ("min", "mean", "p50", "p90", "p99", "p999", "p9999", "max")
for name, t in r["ops_by_type"].items():
    lat = t["latency_ns"]
    check(all(k in lat for k in KEYS), f"{name}: every percentile key")
    check(lat["min"] <= lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["p999"] <= lat["max"],
          f"{name}: percentiles ordered")
check(sum(t["count"] for t in r["ops_by_type"].values()) == r["ops"], "type counts add up")
check(len(r["timeline"]) >= 2, "timeline has entries")
check(sum(i["ops"] for i in r["timeline"]) >= r["ops"] * 0.9, "timeline covers the ops")
check(j["env"]["kernel"] == os.uname().release, "env.kernel")
check(j["env"]["hostname"] == os.uname().nodename, "env.hostname")
check(j["config"]["mode"] == "threads" and j["config"]["time_s"] == 2, "config")
check(j["workload"]["source"] == "builtin:netbench", "built-in workload")
check(listdir(target) == [], "target directory left empty")
