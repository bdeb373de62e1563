"""loadgen compare with several batches per side (A1 A2 A3 -- B1 B2 B3).

Planted: two setups that are the same, measured in batches whose means differ by a few %
(what a reboot or another hour does), with runs inside a batch that agree to 0.5 %. One
file against one file calls the batches different (the false alarm issue 31 is about);
the batches compared as batches do not, and the p-value is Welch's test on the batch
means computed here independently (stat_ref.py). The variance components equal the
method-of-moments estimates written out here. A real 10 % slowdown is still called."""
import json
import math
import os
import statistics
import subprocess

from lgtest import LOADGEN, check, tmpdir
from stat_ref import t_two_sided, welch

NOISE = [0.3, -0.4, 0.1, 0.5, -0.2]


def result(path, mbps, name="w"):
    runs = [{"status": "complete", "throughput_mbps": m, "ops_per_s": 10 * m}
            for m in mbps]
    doc = {"schema": "loadgen-result/1", "loadgen": {"version": "0.1.0"},
           "env": {"kernel": "6.1.0", "hostname": "box"},
           "workload": {"name": name, "sha256": "aa", "params": {}},
           "config": {"clients": 1, "time_s": 10.0}, "runs": runs}
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def batches(d, prefix, means):
    out = []
    for i, m in enumerate(means):
        out.append(result(os.path.join(d, f"{prefix}{i + 1}.json"), [m + e for e in NOISE]))
    return out


def compare(*args):
    return subprocess.run([LOADGEN, "compare", *args], capture_output=True, text=True,
                          timeout=60)


def components(groups):
    """Method-of-moments variance components of runs nested in batches."""
    allv = [v for g in groups for v in g]
    n, k = len(allv), len(groups)
    gm = statistics.mean(allv)
    msw = sum(sum((v - statistics.mean(g)) ** 2 for v in g) for g in groups) / (n - k)
    msb = sum(len(g) * (statistics.mean(g) - gm) ** 2 for g in groups) / (k - 1)
    n0 = (n - sum(len(g) ** 2 for g in groups) / n) / (k - 1)
    return max(0.0, (msb - msw) / n0), msw


d = tmpdir()
A_MEANS, B_MEANS, SLOW_MEANS = [100, 104, 97], [99, 103, 101], [90, 93, 88]
a = batches(d, "a", A_MEANS)
b = batches(d, "b", B_MEANS)
slow = batches(d, "s", SLOW_MEANS)

# One batch against one: 100 against 99 with runs 0.5 % apart is "slower" (p tiny).
j = json.loads(compare("--json", a[0], b[0]).stdout)["comparisons"][0]
check(j["verdict"] == "slower" and j["unit"] == "run", "one batch each: a false alarm", j)
check(j["batches"] == {"baseline": 1, "other": 1}, "one batch per side in JSON", j)
p = compare(a[0], b[0])
check("One batch per side" in p.stdout, "the text says the batch spread is unknown", p.stdout)

# As batches: no significant difference, p = Welch on the batch means.
p = compare("--json", *a, "--", *b)
check(p.returncode == 0, "compare A1 A2 A3 -- B1 B2 B3 runs", p)
j = json.loads(p.stdout)["comparisons"][0]
bm_a = [statistics.mean(m + e for e in NOISE) for m in A_MEANS]
bm_b = [statistics.mean(m + e for e in NOISE) for m in B_MEANS]
_, _, want_p = welch(bm_b, bm_a)
check(j["unit"] == "batch" and j["batches"] == {"baseline": 3, "other": 3},
      "decided on batches, 3 per side", j)
check(j["verdict"] == "no significant difference", "same setup: no difference", j)
check(abs(j["p_value"] - want_p) < 1e-6, f"p {j['p_value']} = Welch on batch means {want_p}",
      j)
check(j["metrics"]["throughput_mbps"]["baseline"]["n"] == 3, "n counts batches", j)
vb, vw = components([[m + e for e in NOISE] for m in A_MEANS])
vc = j["variance_components"]["baseline"]
check(abs(vc["var_between"] - vb) < 1e-9 and abs(vc["var_within"] - vw) < 1e-9,
      f"variance components {vc} = {vb}, {vw}", j)
check(vc["p_value"] < 0.001, "batches of A differ far beyond their runs' spread", vc)

p = compare(*a, "--", *b)
check("Decided on batch means: 3 batches against 3" in p.stdout, "text names the unit",
      p.stdout)
check("batches per side would detect" in p.stdout, "the plan is in batches", p.stdout)
check("Baseline: " + "+".join(a) + " (3 batches, 15 runs)" in p.stdout,
      "the baseline is named by its batches", p.stdout)

# A real 10 % slowdown across batches is still called.
j = json.loads(compare("--json", *a, "--", *slow).stdout)["comparisons"][0]
check(j["verdict"] == "slower" and j["unit"] == "batch", "10 % slower batches: slower", j)

# A side of one batch against three: that batch is a new observation of the other side's
# batch means (prediction interval: se = s sqrt(1 + 1/k), df = k - 1).
p = compare(*a, "--", *b, "--", slow[0])
check(p.returncode == 0 and "is one batch: set against the spread of the other side's 3"
      in p.stdout, "a side of one batch is named", p.stdout)
j = json.loads(compare("--json", *a, "--", slow[0]).stdout)["comparisons"][0]
y = statistics.mean(SLOW_MEANS[0] + e for e in NOISE)
se = statistics.stdev(bm_a) * math.sqrt(1 + 1 / 3)
want_p = t_two_sided((y - statistics.mean(bm_a)) / se, 2)
check(j["unit"] == "batch" and j["batches"] == {"baseline": 3, "other": 1}, "3 against 1", j)
check(abs(j["p_value"] - want_p) < 1e-6, f"p {j['p_value']} = prediction test {want_p}", j)
check(j["verdict"] == "no significant difference" and j["mde_pct"] > 10,
      "one batch 10 % lower is not enough against this spread, and it says what would be", j)

# Usage errors: exit 2 with a reason.
for args, why in [((a[0], "--"), "an empty side"), (("--", a[0]), "no baseline files"),
                  ((a[0], "--", "--", b[0]), "an empty side")]:
    p = compare(*args)
    check(p.returncode == 2 and why in p.stderr, f"compare {args}: {why}", p)
other = result(os.path.join(d, "x.json"), [1, 2, 3], name="other")
p = compare(a[0], other, "--", *b)
check(p.returncode == 2 and "not a batch of the setup of" in p.stderr,
      "a batch of another workload is refused", p)
print("ok")
