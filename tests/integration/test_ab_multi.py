"""loadgen ab with three variants, on real, short, rate-limited runs:
- a and b identical, c with its own --rate-ops 270 against 300 (10 % fewer op cycles
  of the same bytes): b never strongly different (its verdict follows its p: at alpha
  0.05 one run in 20 calls identical setups different) and c "slower" against a, with
  Holm-adjusted p (checked against the adjustment done here), and --fail-if-slower 2
  exits 3 naming c only;
- the order is the Williams design of three: each variant in each position once every
  three rounds; schema loadgen-ab/2, one comparison each for b and c, and the three
  result files agree with it;
- a variant command failing in round 2 after another variant ran in that round: the
  round is dropped everywhere (1 pair, 1 run in every file);
- usage errors: names not unique, more than 8 variants, a -D count that fits neither
  "one for all" nor "one each".

Robust under load by design: the verdicts come from one paced pass per run (--run-once
--rate-ops 300, a fixed count of ops), not timed runs: a timed run at a rate is cut at its
deadline, so a stall near its end loses ops, and a stall in warm-up leaves a backlog that
bursts into the measured phase; a paced pass of N ops takes at least (N - 1) / rate
however loaded the machine is (so no run is faster than its rate), and a stall mid-pass
is caught up: only the last op's lateness shows."""
import json
import os
import subprocess

from lgtest import LOADGEN, check, tmpdir, write

d = tmpdir()
# timed runs, for the parts that check no measured figure
RUN = ["-t", "1", "--warmup", "0.1", "--rate-ops", "300", "--monitor", "off"]
# one pass of a workload of NOPS ops paced at 300 ops/s: at least (NOPS - 1) / 300 s
PACED = ["--run-once", "--rate-ops", "300", "--monitor", "off"]
NOPS = 182  # create, 180 writes, close
os.mkdir(os.path.join(d, "x"))
os.mkdir(os.path.join(d, "out"))
# a fixed count of ops moving fixed bytes, so MB/s follows the op rate
FIXED = write(os.path.join(d, "fixed.yaml"), """name: fixed
run:
  - create: {path: "d${client}.out", as: out, flags: [write, truncate]}
  - write: {file: out, size: 4KiB, count: 180}
  - close: out
cleanup:
  - unlink: {path: "d${client}.out", expect: any}
""")


def ab(args, timeout=300):
    return subprocess.run([LOADGEN, "ab"] + args, capture_output=True, text=True,
                          timeout=timeout, cwd=d)


def load(path):
    with open(os.path.join(d, path)) as f:
        return json.load(f)


def show(p):
    return f"rc={p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"


def holm(ps):
    """Holm's adjusted p-values as R's p.adjust: sort, (m - i) p, cumulative max, cap."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, top = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        top = max(top, (len(ps) - rank) * ps[i])
        adj[i] = min(1.0, top)
    return adj


# --- three variants: b identical to a, c 10 % slower
p = ab(["--variant", "a=", "--variant", "b=", "--variant", "c=", "--variant-opts",
        "c=--rate-ops 270", "-D", "x", "-c", FIXED, "--rounds", "6", "--out-dir", "out",
        "--json", "multi.json", "--fail-if-slower", "2"] + PACED + ["1"])
an = load("multi.json")
check(an["schema"] == "loadgen-ab/2" and an["pairs_n"] == 6 and not an["interrupted"],
      "loadgen-ab/2 with 6 rounds", show(p))
check(an["adjustment"] == "holm" and [v["name"] for v in an["variants"]] == ["a", "b", "c"],
      "the variants in order, Holm's adjustment")
cmp = {c["variant"]: c for c in an["comparisons"]}
check(list(cmp) == ["b", "c"], "one comparison for each variant after a")
b, c = cmp["b"], cmp["c"]
# b is a: at alpha 0.05 one run in 20 calls it different (CI met one, 0.01 % at p 0.026);
# what must hold every time is that the verdict follows its adjusted p, and that b is
# never strongly different (p < 0.001) nor by more than a fraction of c's 10 %
check(b["verdict"] == ("no significant difference" if b["p_adjusted"] >= 0.05 else
                       "faster" if b["change_pct"] > 0 else "slower"),
      f"b: the verdict follows its adjusted p ({b['verdict']}, p {b['p_adjusted']:.3g})")
check(b["p_adjusted"] >= 0.001 and abs(b["change_pct"]) < 2,
      f"b (identical to a): no strong difference ({b['change_pct']:.2f} %, p "
      f"{b['p_adjusted']:.3g})", show(p))
# the size of the change is what the runs say (stalls, one-sided, move it by any amount:
# c 8-20 % below its rate in all 6 runs once on a loaded machine; so no band: each
# variant's rate is checked below as its setting and as a bound no run exceeds)
pa, pc = [pr["a"] for pr in c["pairs"]], [pr["b"] for pr in c["pairs"]]
want = (sum(pc) - sum(pa)) / sum(pa) * 100
check(c["verdict"] == "slower" and abs(c["change_pct"] - want) <= 1e-9 * abs(want),
      f"c at 90 % of the rate: slower ({c['change_pct']:.2f} %, from the runs {want:.2f} %)",
      show(p))
want = holm([b["paired_t"]["p"], c["paired_t"]["p"]])
check(abs(b["p_adjusted"] - want[0]) <= 1e-9 * want[0] + 1e-15
      and abs(c["p_adjusted"] - want[1]) <= 1e-9 * want[1] + 1e-15,
      f"p_adjusted is Holm's: {b['p_adjusted']:.4g} {c['p_adjusted']:.4g}, want "
      f"{want[0]:.4g} {want[1]:.4g}")
check(c["p_adjusted"] >= c["paired_t"]["p"] and b["p_adjusted"] >= b["paired_t"]["p"],
      "adjusting never lowers a p")
orders = [pr["order"] for pr in b["pairs"]]
check(orders == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"],
                 ["c", "b", "a"], ["a", "c", "b"], ["b", "a", "c"]],
      f"the Williams order of three: {orders}")
for start in (0, 3):
    for pos in range(3):
        check(sorted(o[pos] for o in orders[start:start + 3]) == ["a", "b", "c"],
              f"rounds {start + 1}-{start + 3}: each variant once at position {pos + 1}")
check([pr["order"] for pr in c["pairs"]] == orders and
      [pr["a"] for pr in c["pairs"]] == [pr["a"] for pr in b["pairs"]] and
      b["mean_a"] == c["mean_a"], "both comparisons share a's rounds")
for i, name in enumerate(("a", "b", "c")):
    f = an["variants"][i]["file"]
    check(f == f"out/ab-{i}-{name}.json", f"{name}'s result file is {f}")
    r = load(f)
    rates = [run["throughput_mbps"] for run in r["runs"]]
    got = [pr["a"] for pr in b["pairs"]] if i == 0 else [pr["b"] for pr in cmp[name]["pairs"]]
    check(len(rates) == 6 and rates == got and r["ab"]["index"] == i,
          f"{f}: the 6 runs the analysis used")
    ops, rate = [run["ops_per_s"] for run in r["runs"]], 270 if name == "c" else 300
    check(max(ops) <= rate * NOPS / (NOPS - 1) * 1.001,
          f"{f}: no run faster than its rate {rate} ops/s ({ops})")
    check(r["config"]["rate_ops"] == rate, f"{f}: ran at --rate-ops {rate}")
lines = p.stdout.strip().splitlines()
check(lines[-2:] == [
    f"Verdict: b: {b['verdict']} (against A, paired t-test on 6 pairs, "
    "Holm-adjusted, alpha = 0.05)",
    "Verdict: c: slower (against A, paired t-test on 6 pairs, Holm-adjusted, alpha = 0.05)"],
      "one verdict line per variant, Holm-adjusted", show(p))
check(p.stdout.count("Holm-adjusted p = ") == 2 and "Variants: A = a, B = b, C = c"
      in p.stdout and "Drift (all variants)" in p.stdout, "the text names the adjustment")
check(p.returncode == 3 and "'c' is" in p.stderr and "'b' is" not in p.stderr,
      "--fail-if-slower 2 exits 3 and names c only", show(p))

# --- a failure in round 2, after b ran in it: the round counts for nobody
log = os.path.join(d, "env.log")
env = 'echo "$LOADGEN_AB_VARIANT $LOADGEN_AB_INDEX $LOADGEN_AB_POSITION" >> ' + log
p = ab(["--variant", "a=" + env, "--variant", "b=" + env, "--variant",
        'c=test "$LOADGEN_AB_ROUND" -lt 2', "-D", "x", "--rounds", "3", "--json",
        "stop.json"] + RUN + ["1"])
check(p.returncode == 1 and "the command of variant 'c' failed in round 2" in p.stderr,
      "c's command fails in round 2: exit 1", show(p))
check(open(log).read().split("\n")[:-1] == ["a 0 1", "b 1 2", "b 1 1"],
      "round 1 ran a b c, round 2 began with b: index and position in the environment")
an = load("stop.json")
check(an["pairs_n"] == 1 and all(len(cm["pairs"]) == 1 for cm in an["comparisons"]),
      "only round 1 is analysed")
for v in an["variants"]:
    check(len(load(v["file"])["runs"]) == 1, f"{v['file']}: round 2 left out (b ran in it)")
check("Stopped early: the verdicts rest on 1 pair of 3 rounds asked" in p.stdout,
      "the text says so", show(p))

# --- usage errors
many = []
for i in range(9):
    many += ["--variant", f"v{i}="]
for args, what in ((["-D", "x", "-D", "out", "-D", "x"], "two variants are named 'x'"),
                   (["--variant", "a=", "--variant", "b=", "--variant", "a=true"],
                    "--variant 'a' given twice"),
                   (many, "ab compares at most 8"),
                   (["--variant", "a=", "--variant", "b=", "--variant", "c=", "-D", "x",
                     "-D", "out"], "2 -D for 3 variants")):
    p = ab(args + ["--rounds", "3", "1"])
    check(p.returncode == 2 and what in p.stderr, f"usage error: {what}", show(p))
