"""loadgen calibrate and compare's use of a calibration.

Planted batches of one setup whose means differ by a few % (a reboot, another hour)
with runs that agree to 0.5 %: one batch against one is called "slower" without a
calibration. calibrate --from stores the spread between batches (method-of-moments
variance components, recomputed here); compare then adds it to the noise, and its
p-value equals the t test computed here with that variance component and Welch-
Satterthwaite degrees of freedom (stat_ref.py). The store is keyed by the setup, not the
kernel. Then the real thing: calibrate takes its own batches of a short run."""
import json
import math
import os
import statistics
import subprocess

from lgtest import LOADGEN, check, tmpdir
from stat_ref import t_two_sided

NOISE = [0.3, -0.4, 0.1, 0.5, -0.2]
d = tmpdir()
ENV = dict(os.environ, XDG_DATA_HOME=os.path.join(d, "xdg"))
STORE = os.path.join(d, "xdg", "loadgen", "calibration.json")


def result(path, mbps, kernel="6.1.0", fs="ext4"):
    runs = [{"status": "complete", "throughput_mbps": m, "ops_per_s": 10 * m}
            for m in mbps]
    doc = {"schema": "loadgen-result/1", "loadgen": {"version": "0.1.0"},
           "env": {"kernel": kernel, "hostname": "box", "fs_type": fs},
           "workload": {"name": "w", "sha256": "aa", "params": {}},
           "config": {"clients": 1, "time_s": 10.0}, "runs": runs}
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def lg(*args):
    return subprocess.run([LOADGEN, *args], capture_output=True, text=True, timeout=120,
                          env=ENV, cwd=d)


A_MEANS = [100, 104, 97, 101]
a = [result(os.path.join(d, f"a{i}.json"), [m + e for e in NOISE])
     for i, m in enumerate(A_MEANS)]
b1 = result(os.path.join(d, "b1.json"), [99 + e for e in NOISE], kernel="6.6.0")

p = lg("compare", "--json", a[0], b1)
j = json.loads(p.stdout)["comparisons"][0]
check(j["verdict"] == "slower" and j["calibration_used"] is None,
      "no calibration yet: one batch against one is a false alarm", j)

p = lg("calibrate", "--from", *a)
check(p.returncode == 0, "calibrate --from 4 batches", p)
groups = [[m + e for e in NOISE] for m in A_MEANS]
allv = [v for g in groups for v in g]
gm = statistics.mean(allv)
msw = sum(sum((v - statistics.mean(g)) ** 2 for v in g) for g in groups) / (20 - 4)
msb = sum(5 * (statistics.mean(g) - gm) ** 2 for g in groups) / 3
vb = (msb - msw) / 5
store = json.load(open(STORE))
check(store["schema"] == "loadgen-calibration/1" and len(store["entries"]) == 1,
      "one entry stored", store)
e = store["entries"][0]
m = e["metrics"]["throughput_mbps"]
check(abs(m["var_between"] - vb) < 1e-9 and abs(m["var_within"] - msw) < 1e-9,
      f"variance components {m} = {vb}, {msw}", e)
check(e["batches"] == 4 and e["runs"] == 20 and e["key"]["clients"] == 1, "batches, runs", e)
check("kernel" not in e["key"]["env"], "the key leaves out the kernel", e)
check(f"sd between batches {100 * math.sqrt(vb) / gm:.2f} %" in p.stdout,
      "the spread is printed in % of the mean", p.stdout)
check("batches per side that detect a change" in p.stdout, "and the batches needed", p.stdout)

# compare with the calibration: p from the t test with the batch variance added.
p = lg("compare", "--json", a[0], b1)
j = json.loads(p.stdout)["comparisons"][0]
ma, mb_ = statistics.mean(groups[0]), statistics.mean([99 + e for e in NOISE])
va = statistics.variance(groups[0]) / 5
vo = statistics.variance([99 + e for e in NOISE]) / 5
vbn = vb / gm ** 2 * ma ** 2
se2 = 2 * vbn + va + vo
df = se2 ** 2 / ((2 * vbn) ** 2 / 3 + va ** 2 / 4 + vo ** 2 / 4)
want = t_two_sided((mb_ - ma) / math.sqrt(se2), df)
check(j["calibration_used"] is not None and j["calibration_used"]["batches"] == 4,
      "the calibration is used (a kernel differs, the setup does not)", j)
check(abs(j["p_value"] - want) < 1e-6, f"p {j['p_value']} = {want}", j)
check(j["verdict"] == "no significant difference", "no false alarm with it", j)
check(j["mde_pct"] > 5 and j["batches_needed"] and j["batches_needed"] > 2,
      "says what one batch per side can detect and the batches needed", j)
p = lg("compare", a[0], b1)
check("Calibrated: batches of this setup differ by" in p.stdout, "text says so", p.stdout)
check("batches per side would detect 2 %" in p.stdout, "the plan is in batches", p.stdout)

p = lg("compare", "--json", "--no-calibration", a[0], b1)
check(json.loads(p.stdout)["comparisons"][0]["verdict"] == "slower", "--no-calibration", p)
c1 = result(os.path.join(d, "c1.json"), [99 + e for e in NOISE], fs="xfs")
p = lg("compare", "--json", c1, a[0])
check(json.loads(p.stdout)["comparisons"][0]["calibration_used"] is None,
      "another filesystem's baseline gets no calibration", p.stdout)

# Errors: exit 2 with a reason, the store untouched.
for args, why in [(("calibrate", "--from", a[0], a[1]), "at least 3"),
                  (("calibrate", "--batches", "2", "1"), "invalid --batches"),
                  (("calibrate",), "need NCLIENTS"),
                  (("calibrate", "--json", "x.json", "1"), "writes each batch's result")]:
    p = lg(*args)
    check(p.returncode == 2 and why in p.stderr, f"{args}: {why}", p)
bad = os.path.join(d, "bad.json")
with open(bad, "w") as f:
    f.write("{\"schema\": ")
p = lg("calibrate", "--store", bad, "--from", *a)
check(p.returncode == 2 and bad + ":1:" in p.stderr, "a malformed store: file:line:col", p)
check(open(bad).read() == "{\"schema\": ", "and it is not overwritten", bad)
p = lg("compare", "--calibration", bad, a[0], b1)
check(p.returncode == 0 and "not used" in p.stderr, "compare goes on without it", p)

# The real thing: three short batches of one client.
run_dir = os.path.join(d, "run")
os.mkdir(run_dir)
out = os.path.join(d, "batches")
os.mkdir(out)
p = lg("calibrate", "--batches", "3", "--out-dir", out, "--store", os.path.join(d, "s.json"),
       "-D", run_dir, "-t", "0.3", "--warmup", "0", "--repeat", "2", "1")
check(p.returncode == 0, "calibrate takes 3 batches of a real run", p)
check(sorted(os.listdir(out)) == ["calibrate-1.json", "calibrate-2.json", "calibrate-3.json"],
      "its batches are kept", os.listdir(out))
s = json.load(open(os.path.join(d, "s.json")))["entries"][0]
check(s["batches"] == 3 and s["runs"] == 6 and s["key"]["clients"] == 1,
      "stored: 3 batches of 2 runs at 1 client", s)
check(os.listdir(run_dir) == [], "the run directory is left empty", os.listdir(run_dir))
p = lg("calibrate", "--batches", "3", "--out-dir", out, "-D", run_dir, "-t", "0.3", "1")
check(p.returncode == 2 and "not overwritten" in p.stderr, "earlier batches are kept", p)
print("ok")
