"""loadgen compare: a file whose runs drift over their order is said to drift.

Runs in a result file are in time order. A batch whose runs fall 2 % per run (planted
here) must be reported as drifting, beside the verdict and in --json, with the slope
the least-squares line gives (computed here with Python's statistics module); a first
run far from the rest is reported as such; exchangeable runs are not flagged."""
import json
import os
import statistics
import subprocess

from lgtest import LOADGEN, check, tmpdir


def result(path, mbps):
    runs = [{"status": "complete", "throughput_mbps": m, "ops_per_s": 10 * m}
            for m in mbps]
    doc = {"schema": "loadgen-result/1", "loadgen": {"version": "0.1.0"},
           "env": {"kernel": "6.1.0", "hostname": "box"},
           "workload": {"name": "w", "sha256": "aa", "params": {}},
           "config": {"clients": 1, "time_s": 10.0}, "runs": runs}
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def compare(*args):
    return subprocess.run([LOADGEN, "compare", *args], capture_output=True, text=True,
                          timeout=60)


d = tmpdir()
STEADY = [100.0, 99.5, 100.4, 99.8, 100.2, 99.9]
FALLING = [100.0 * (1 - 0.02 * i) + e for i, e in enumerate([0.2, -0.3, 0.1, 0.3, -0.2, 0.0])]
FIRST = [80.0, 100.0, 100.5, 99.6, 100.2, 99.9]
base = result(os.path.join(d, "steady.json"), STEADY)
fall = result(os.path.join(d, "falling.json"), FALLING)
first = result(os.path.join(d, "first.json"), FIRST)

slope = statistics.linear_regression(range(len(FALLING)), FALLING).slope
want_pct = 100 * slope / statistics.mean(FALLING)

p = compare(base, fall)
check(p.returncode == 0, "compare ran", p)
check("Drift: falling.json drifts" in p.stdout.replace(d + "/", ""),
      "the falling file is said to drift", p.stdout)
check(f"{want_pct:+.1f} % per run" in p.stdout, f"with its slope {want_pct:+.1f} % per run",
      p.stdout)
check("steady.json drifts" not in p.stdout, "the steady file is not flagged", p.stdout)

j = json.loads(compare("--json", base, fall).stdout)
dr = j["comparisons"][0]["drift"]
check(dr["other"]["drifts"] is True and dr["baseline"]["drifts"] is False,
      "JSON: drifts true for the falling file only", dr)
check(abs(dr["other"]["trend_pct_per_run"] - want_pct) < 1e-6,
      f"JSON: trend {dr['other']['trend_pct_per_run']} = {want_pct}", dr)
check(dr["other"]["trend_p"] < 0.01, "JSON: a 2 %/run fall over 6 runs has p < 0.01", dr)
check(dr["baseline"]["first_run_apart"] is False, "steady: first run not apart", dr)

j = json.loads(compare("--json", base, first).stdout)
dr = j["comparisons"][0]["drift"]
check(dr["other"]["first_run_apart"] is True, "a first run 20 % low is apart", dr)
want = 100 * (80.0 - statistics.mean(FIRST[1:])) / statistics.mean(FIRST[1:])
check(abs(dr["other"]["first_run_pct"] - want) < 1e-6, f"first run {want:.2f} %", dr)
p = compare(base, first)
check("the first run of" in p.stdout and f"{want:+.1f} % off its other runs" in p.stdout,
      "text names the first run apart", p.stdout)

# A sweep's table: the drift line follows the file's verdict line.
two = result(os.path.join(d, "two.json"), STEADY[:2])
j = json.loads(compare("--json", two, two).stdout)
check(j["comparisons"][0]["drift"]["baseline"] is None, "2 runs: drift not tested (null)", j)
print("ok")
