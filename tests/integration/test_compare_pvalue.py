"""loadgen compare: the threshold and the p-value against an independent computation.

The data are R's `sleep` data set (Student's 1908 hypnotics; extra hours of sleep for
two drugs, ten patients each), shifted by +10 so that they are positive throughputs
(Welch's t-test does not change under a shift). R's `t.test(extra ~ group, data =
sleep)` prints t = -1.8608, df = 17.776, p-value = 0.07939: between alpha = 0.05 and
2 alpha, so the verdict must be "no significant difference" -- a one-sided p-value
(half of it, 0.0397) or a threshold at 2 alpha would say "faster".

The p-value in --json must equal, to 1e-6, Welch's two-sided p computed here from the
definitions: the t statistic and Welch-Satterthwaite df with Python's statistics
module, and the Student t tail from the regularized incomplete beta function,
I_x(a, b) with x = df / (df + t^2), a = df / 2, b = 1/2, evaluated by its continued
fraction (modified Lentz) with math.lgamma -- no code shared with loadgen (which is C)."""
import json
import os
import subprocess

from lgtest import LOADGEN, check, tmpdir
from stat_ref import betainc, welch

SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def result(path, mbps):
    runs = [{"status": "complete", "throughput_mbps": m, "ops_per_s": 10 * m,
             "ops_by_type": {"read": {"count": 1, "latency_ns": {"min": 1, "p50": 1,
                                                                  "p99": 1, "max": 1},
                                      "histogram": [[1000, 1000, 1]]}}} for m in mbps]
    doc = {"schema": "loadgen-result/1", "loadgen": {"version": "0.1.0"},
           "env": {"kernel": "6.1.0", "hostname": "box"},
           "workload": {"name": "w", "sha256": "aa", "params": {}},
           "config": {"clients": 1, "time_s": 10.0}, "runs": runs}
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


# The independent computation agrees with R's printed figures first.
t, df, p = welch(SLEEP_1, SLEEP_2)
check(abs(t + 1.8608) < 1e-4 and abs(df - 17.776) < 1e-3 and abs(p - 0.07939) < 1e-5,
      f"Welch by hand matches R: t {t:.4f}, df {df:.3f}, p {p:.5f}")
# and a textbook tail: Student t with 10 df, t = 2.228 is the 97.5 % point (p = 0.05)
check(abs(betainc(5, 0.5, 10 / (10 + 2.228 ** 2)) - 0.05) < 1e-4, "t(10) 2.228: p = 0.05")

d = tmpdir()
base = result(os.path.join(d, "base.json"), [10 + v for v in SLEEP_1])
other = result(os.path.join(d, "other.json"), [10 + v for v in SLEEP_2])
proc = subprocess.run([LOADGEN, "compare", base, other], capture_output=True, text=True,
                      timeout=60)
check(proc.returncode == 0 and "Verdict: no significant difference" in proc.stdout,
      "0.05 < p < 0.1: no significant difference at alpha 0.05", proc.stdout + proc.stderr)
proc = subprocess.run([LOADGEN, "compare", "--json", base, other], capture_output=True,
                      text=True, timeout=60)
c = json.loads(proc.stdout)["comparisons"][0]
check(c["verdict"] == "no significant difference", "the same verdict in --json", proc.stdout)
check(abs(c["p_value"] - p) < 1e-6, f"p-value {c['p_value']} equals {p:.8f} to 1e-6",
      proc.stdout)
# Swapping the files gives the same two-sided p.
proc = subprocess.run([LOADGEN, "compare", "--json", other, base], capture_output=True,
                      text=True, timeout=60)
check(abs(json.loads(proc.stdout)["comparisons"][0]["p_value"] - p) < 1e-6,
      "p-value symmetric in the two files", proc.stdout)
