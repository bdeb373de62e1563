"""Client sweeps, --repeat auto and --rate-ops, on real runs:
- `1,2,4 --repeat 3` tags every run with its client count, prints a scaling table and
  writes summary.by_clients; config.clients is the first count (2 for `2,1`); a single
  count keeps today's summary keys;
- `--repeat auto:5:10` stops at 3 runs on a steady rate-limited workload and runs to 10
  when its target cannot be met;
- `--rate-ops 500` x 2 clients of a stat-only workload gives 1000 ops/s within 2 %, and a
  1 s SIGSTOP of the process shows in p99 (latency from each op's intended start) while
  the service time stays small;
- compare on three real sweeps: the same rate is no significant difference with a minimum
  detectable effect, 80 % of the rate is slower at every client count."""
import json
import os
import re
import signal
import subprocess
import time

from lgtest import LOADGEN, SOURCE, check, run, tmpdir

d = tmpdir()
stat1 = os.path.join(SOURCE, "tests", "bench", "stat1.yaml")
dd = os.path.join(SOURCE, "loadfiles", "dd.yaml")

# A sweep: every count in order, three runs each.
res = run(["-D", d, "-q", "-t", "0.3", "--warmup", "0", "--repeat", "3", "-c", stat1,
           "1,2,4"], workdir=d)
check(res.rc == 0, "sweep 1,2,4 --repeat 3 exits 0", res)
j = res.json
check([r["client_count"] for r in j["runs"]] == [1, 1, 1, 2, 2, 2, 4, 4, 4],
      "runs are tagged with their client count, in order", res)
check([len(r["clients"]) for r in j["runs"]] == [1, 1, 1, 2, 2, 2, 4, 4, 4],
      "each run had that many clients")
check(j["config"]["client_counts"] == [1, 2, 4], "config.client_counts")
check(j["config"]["clients"] == 1, "config.clients is the sweep's first count (docs/results.md)",
      json.dumps(j["config"]))
by = j["summary"]["by_clients"]
check([b["clients"] for b in by] == [1, 2, 4] and all(b["runs"] == 3 for b in by),
      "summary.by_clients: one entry per count, 3 runs each", json.dumps(j["summary"]))
for b in by:
    vals = [r["ops_per_s"] for r in j["runs"] if r["client_count"] == b["clients"]]
    mean = sum(vals) / 3
    check(abs(b["ops_per_s"]["mean"] - mean) < 1e-6 * mean,
          f"by_clients[{b['clients']}]: mean of its own runs")
    check(b["cv_pct"] is not None and b["latency_ns"]["max"] ==
          max(r["latency_ns"]["max"] for r in j["runs"] if r["client_count"] == b["clients"]),
          f"by_clients[{b['clients']}]: CV and the max of its runs' latencies")
check("throughput_mbps" not in j["summary"], "no summary across different client counts")
table = re.search(r"Scaling .*\n.*clients.*CV %\n((?:\s+\d+\s+3 .*\n){3})", res.out)
check(table is not None, "a scaling table with a row per count", res)
check(len(re.findall(r"^clients \d run \d: ", res.out, re.M)) == 9,
      "-q: one line per run", res)

# The first count, not the smallest or the last: a descending sweep says 2.
res = run(["-D", d, "-q", "-t", "0.2", "--warmup", "0", "-c", stat1, "2,1"], workdir=d)
check(res.rc == 0 and res.json["config"]["clients"] == 2 and
      res.json["config"]["client_counts"] == [2, 1],
      "sweep 2,1: config.clients 2, config.client_counts [2, 1]", res)

# A single count keeps today's summary shape (and gains CV and by_clients).
res = run(["-D", d, "-q", "-t", "0.3", "--warmup", "0", "--repeat", "2", "-c", stat1, "2"],
          workdir=d)
s = res.json["summary"]
check(res.rc == 0 and s["ops_per_s"]["n"] == 2 and "cv_pct" in s["ops_per_s"] and
      s["by_clients"][0]["clients"] == 2, "single count: summary keys as before", res)

# --repeat auto: a steady rate stops at 3 runs; a target that cannot be met runs to MAX.
res = run(["-D", d, "-q", "-t", "1.5", "--warmup", "0.2", "--rate-ops", "200",
           "--repeat", "auto:5:10", "-c", stat1, "2"], workdir=d)
check(res.rc == 0 and len(res.json["runs"]) == 3 and "Stopped after 3 runs" in res.out,
      "--repeat auto:5:10 stops at 3 runs on a steady rate-limited workload", res)
check(res.json["config"]["repeat_auto"] == {"ci_pct": 5.0, "min": 3, "max": 10},
      "config.repeat_auto")
res = run(["-D", d, "-q", "-t", "0.2", "--warmup", "0", "--repeat", "auto:0.000001:10",
           "-c", dd, "1"], workdir=d)
check(res.rc == 0 and len(res.json["runs"]) == 10 and
      "Stopped at the most runs, 10" in res.out,
      "--repeat auto runs to MAX when the interval stays wider than asked", res)

# --rate-ops: ops/s exact, and a stop of the process shows in p99.
res = run(["-D", d, "-q", "-t", "3", "--warmup", "0.5", "--rate-ops", "500", "-c", stat1,
           "2"], workdir=d)
ops = res.json["runs"][0]["ops_per_s"]
check(res.rc == 0 and abs(ops - 1000) <= 20, f"--rate-ops 500 x 2 clients: {ops:.1f} ops/s",
      res)
check(res.json["config"]["rate_ops"] == 500, "config.rate_ops")
jpath = os.path.join(d, "stop.json")
p = subprocess.Popen([LOADGEN, "-D", d, "-q", "-t", "5", "--warmup", "0.5", "--rate-ops",
                      "500", "--json", jpath, "-c", stat1, "2"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
time.sleep(2.5)
p.send_signal(signal.SIGSTOP)
time.sleep(1.0)
p.send_signal(signal.SIGCONT)
p.communicate(timeout=60)
with open(jpath) as f:
    st = json.load(f)["runs"][0]["ops_by_type"]["stat"]
check(st["latency_ns"]["p99"] > 500e6,
      f"a 1 s stop shows in p99: {st['latency_ns']['p99'] / 1e6:.1f} ms")
check(st["service_ns"]["p99"] < 100e6,
      f"service time p99 stays small: {st['service_ns']['p99'] / 1e6:.3f} ms")
res = run(["-D", d, "--rate-ops", "5", "-R", "1", "2"], workdir=d, json_out=False)
check(res.rc == 2 and "cannot be combined" in res.err, "--rate with --rate-ops: exit 2", res)

# Three real sweeps: A, A again, and A at 80 % of its rate.
files = []
for name, rate in (("a", 400), ("b", 400), ("c", 320)):
    path = os.path.join(d, name + ".json")
    res = run(["-D", d, "-q", "-t", "1", "--warmup", "0.2", "--rate-ops", str(rate),
               "--repeat", "4", "-c", stat1, "1,2"], workdir=d)
    check(res.rc == 0, f"sweep {name} at {rate} ops/s", res)
    os.replace(os.path.join(d, "result.json"), path)
    files.append(path)
p = subprocess.run([LOADGEN, "compare", "--min-effect", "2"] + files, capture_output=True,
                   text=True)
check(p.returncode == 0 and re.search(r"^MB/s: ", p.stdout, re.M) and
      re.search(r"^ops/s: ", p.stdout, re.M), "compare: one table per metric", p.stdout)
for c in (1, 2):
    check(re.search(r"b\.json at %d clients: (no significant difference|significant, but "
                    r"smaller than --min-effect).*could detect" % c, p.stdout),
          f"same rate at {c} clients: no difference (beyond --min-effect), with the MDE",
          p.stdout)
    check(re.search(r"c\.json at %d clients: slower \(-(1[5-9]|2[0-5])\.\d %% ops/s" % c,
                    p.stdout),
          f"80 % of the rate at {c} clients: slower", p.stdout)
print("all sweep checks passed")
