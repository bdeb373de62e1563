"""loadgen ab on real, short, rate-limited runs:
- variants as directories: result files like --repeat results (compare reads them), the
  balanced order A B, B A, ..., the paired analysis in JSON and a verdict line;
- variants as commands, with their environment; a failing command stops with a clear
  message; usage errors exit 2;
- an A/A with a drift injected on purpose: the variant command (the same for both) makes
  every run write more bytes per op than the one before, as a machine that drifts would;
  ab finds no strong difference (p >= 0.001, the verdict following p: at alpha 0.05 one
  A/A in 20 is called different by chance) and reports the drift apart, while two separate
  --repeat batches before and after the drift, compared with `loadgen compare`, differ;
- B really 10 % slower (its own --rate-ops 270 against 300) is called slower, and
  --fail-if-slower exits 3;
- SIGINT keeps the finished rounds and says how many pairs the verdict rests on.

Robust under load by design: where a test asserts on the measured figures (the drift, B
slower) each run is one paced pass (--run-once --rate-ops, a fixed count of ops), not a
timed one. A timed run at a rate is cut at its deadline, so a stall near the end loses
ops, and a stall in warm-up leaves a backlog that bursts into the measured phase (a 300
ops/s run measured 324 ops/s on a loaded machine); a paced pass of N ops takes at least
(N - 1) / rate however the machine is loaded, so its figures are bounded above exactly
and a stall mid-pass is caught up: only the last op's lateness shows."""
import json
import os
import signal
import subprocess
import time

from lgtest import LOADGEN, check, tmpdir, write

d = tmpdir()
RUN = ["-t", "0.6", "--warmup", "0.1", "--rate-ops", "300", "--monitor", "off"]
# one pass of a workload of N ops paced at 300 ops/s: at least (N - 1) / 300 s
PACED = ["--run-once", "--rate-ops", "300", "--monitor", "off"]
NOPS = 182  # create, 180 writes, close


def ab(args, timeout=300):
    p = subprocess.run([LOADGEN, "ab"] + args, capture_output=True, text=True,
                       timeout=timeout, cwd=d)
    return p


def load(path):
    with open(path) as f:
        return json.load(f)


def show(p):
    return f"rc={p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"


# --- variants as directories
for sub in ("x", "y", "out"):
    os.mkdir(os.path.join(d, sub))
p = ab(["-D", "x", "-D", "y", "--rounds", "4", "--out-dir", "out", "--json", "an.json"]
       + RUN + ["2"])
check(p.returncode == 0, "ab -D x -D y exits 0", show(p))
an = load(os.path.join(d, "an.json"))
check(an["schema"] == "loadgen-ab/1" and an["pairs_n"] == 4 and not an["interrupted"],
      "4 pairs in the analysis")
check([pr["order"] for pr in an["pairs"]] == [["x", "y"], ["y", "x"]] * 2,
      "balanced order: A B, B A, A B, B A")
for k in ("mean_diff", "change_pct", "ci95_pct", "paired_t", "signed_rank", "mde_pct",
          "drift"):
    check(k in an, f"analysis has {k}")
check(an["verdict"] in ("no significant difference", "faster", "slower"), "a verdict word")
last = p.stdout.strip().splitlines()[-1]
check(last.startswith("Verdict: " + an["verdict"]), "the text ends with the verdict line", p)
fx, fy = an["variants"][0]["file"], an["variants"][1]["file"]
for f in (fx, fy):
    r = load(os.path.join(d, f))
    check(len(r["runs"]) == 4 and r["summary"]["throughput_mbps"]["n"] == 4,
          f"{f}: 4 runs and a summary like --repeat")
    check(r["config"]["repeat"] == 4 and r["ab"]["rounds"] == 4, f"{f}: repeat and ab keys")
c = subprocess.run([LOADGEN, "compare", "--json", fx, fy], capture_output=True, text=True,
                   cwd=d)
check(c.returncode == 0 and "comparisons" in c.stdout or c.returncode == 0,
      "loadgen compare reads ab's result files", c)

# --- variants as commands, with their environment
log = os.path.join(d, "env.log")
cmd = 'echo "$LOADGEN_AB_VARIANT $LOADGEN_AB_INDEX $LOADGEN_AB_ROUND $LOADGEN_AB_POSITION ' \
      '$LOADGEN_AB_ROUNDS $LOADGEN_AB_DIR" >> ' + log
p = ab(["--variant", "one=" + cmd, "--variant", "two=" + cmd, "-D", "x", "--rounds", "2",
        "--seed", "7", "--json", "an2.json"] + RUN + ["1"])
check(p.returncode == 0, "ab --variant NAME=CMD twice exits 0", show(p))
an = load(os.path.join(d, "an2.json"))
lines = open(log).read().split("\n")[:-1]
want = []
for pr in an["pairs"]:
    for pos, name in enumerate(pr["order"]):
        want.append(f"{name} {0 if name == 'one' else 1} {pr['round']} {pos + 1} 2 x")
check(lines == want, f"each run's command ran before it with its environment: {lines}")

# --- a failing variant command stops with a clear message
p = ab(["--variant", "a=", "--variant", 'b=test "$LOADGEN_AB_ROUND" -lt 2', "-D", "x",
        "--rounds", "3", "--json", "an3.json"] + RUN + ["1"])
check(p.returncode == 1, "a failing variant command exits 1", show(p))
check("the command of variant 'b' failed in round 2 (exit status 1)" in p.stderr,
      "the failure names the variant, the round and the status", show(p))
an = load(os.path.join(d, "an3.json"))
check(an["pairs_n"] == 1 and not an["interrupted"], "the finished round is kept")
check("Stopped early: the verdict rests on 1 pair of 3 rounds asked" in p.stdout,
      "the text says the verdict rests on 1 pair", show(p))

# --- usage errors
for args, what in ((["-D", "x", "--rounds", "3", "1"], "two variants are needed"),
                   (["-D", "x", "-D", "y", "1"], "missing --rounds"),
                   (["-D", "x", "-D", "y", "--rounds", "3", "--repeat", "3", "1"],
                    "cannot be used with ab"),
                   (["--variant", "a", "-D", "x", "--rounds", "3", "1"], "expected NAME=CMD"),
                   (["-D", "x", "-D", "nonexist", "--rounds", "3", "1"],
                    "-D nonexist: No such file or directory")):
    p = ab(args)
    check(p.returncode == 2 and what in p.stderr, f"usage error: {what}", show(p))

# --- A/A with drift: every run writes 512 bytes more per write than the one before (+50 %
# at first, +10 % at the end), at the same op rate: a drift well above the noise of
# short runs on a loaded machine (a stall late in a pass costs it 10 % or more)
wl = os.path.join(d, "drift.yaml")
gen = write(os.path.join(d, "gen.sh"), f"""k=$(cat {d}/count 2>/dev/null || echo 0)
echo $((k + 1)) > {d}/count
cat > {wl} <<EOF2
name: drift
params: {{size: $((512 * (2 + k)))}}
run:
  - create: {{path: "d\\${{client}}.out", as: out, flags: [write, truncate]}}
  - write: {{file: out, size: "\\${{size}}", count: 180}}
  - close: out
cleanup:
  - unlink: {{path: "d\\${{client}}.out", expect: any}}
EOF2
""")
subprocess.run(["sh", gen], check=True)  # a workload file for the option check
os.unlink(os.path.join(d, "count"))
p = ab(["--variant", "A1=sh " + gen, "--variant", "A2=sh " + gen, "-D", "x", "-c", wl,
        "--rounds", "6", "--json", "aa.json"] + PACED + ["1"])
check(p.returncode == 0, "A/A with drift exits 0", show(p))
aa = load(os.path.join(d, "aa.json"))
# A/A: at alpha 0.05 one run in 20 calls the two different by chance; what must hold
# every time is that the verdict follows p, and that the drift (over 20 % across the
# rounds) never comes out as a strong difference (p < 0.001), as it does in two batches
aa_p = aa["paired_t"]["p"]  # one comparison: nothing to adjust
check(aa["verdict"] == ("no significant difference" if aa_p >= 0.05 else
                        "faster" if aa["change_pct"] > 0 else "slower"),
      f"A/A with drift: the verdict follows p ({aa['verdict']}, p {aa_p:.3g})")
check(aa_p >= 0.001, f"A/A with drift: no strong difference (change {aa['change_pct']:.2f} %, "
      f"p {aa_p:.3g})", show(p))
check(aa["drift"]["p"] < 0.05 and aa["drift"]["total_pct"] > 20,
      f"the drift is reported apart: {aa['drift']['total_pct']:.1f} % over the rounds, "
      f"p {aa['drift']['p']:.4f}", show(p))
# two separate batches, one before and one after the same drift
os.unlink(os.path.join(d, "count"))
batches = []
for b in range(2):
    for _ in range(6 * b + 1):  # batch 2 starts where the 6 rounds of drift left it
        subprocess.run(["sh", gen], check=True)
    out = os.path.join(d, f"batch{b}.json")
    r = subprocess.run([LOADGEN, "-D", "x", "-c", wl, "--repeat", "3", "-q", "--json", out]
                       + PACED + ["1"], capture_output=True, text=True, cwd=d)
    check(r.returncode == 0, f"batch {b + 1} ran", r)
    batches.append(out)
c = subprocess.run([LOADGEN, "compare", "--json"] + batches, capture_output=True,
                   text=True, cwd=d)
cj = json.loads(c.stdout)
verdicts = json.dumps(cj)
check('"faster"' in verdicts, "the same drift between two --repeat batches: compare says"
      " faster", c)

# --- B 10 % slower: its own --rate-ops 270 against 300, on a workload whose every op
# cycle moves the same bytes (so MB/s follows the op rate). A paced pass is never faster
# than its rate and a stall only makes it slower, by any amount (seen: one variant 8-20 %
# below its rate in all 6 runs on a loaded machine): so each variant's rate is checked as
# its setting and as a bound no run exceeds, and ab's change against the runs it
# analysed, not against a band around -10 %.
fixed = write(os.path.join(d, "fixed.yaml"), open(wl).read())
# 6 rounds: one slow run (a loaded machine, a sanitizer build) must not decide it
p = ab(["--variant", "a=", "--variant", "b=", "--variant-opts", "b=--rate-ops 270",
        "-D", "x", "-c", fixed, "--rounds", "6", "--json", "ab.json", "--fail-if-slower", "2"]
       + PACED + ["1"])
ab_an = load(os.path.join(d, "ab.json"))
for v, rate in ((ab_an["variants"][0], 300), (ab_an["variants"][1], 270)):
    ops = [r["ops_per_s"] for r in load(os.path.join(d, v["file"]))["runs"]]
    check(len(ops) == 6 and max(ops) <= rate * NOPS / (NOPS - 1) * 1.001,
          f"variant {v['name']}: no run faster than its rate {rate} ops/s ({ops})", show(p))
    check(load(os.path.join(d, v["file"]))["config"]["rate_ops"] == rate,
          f"variant {v['name']} ran at --rate-ops {rate}")
# the size of the change is what the runs say (stalls, one-sided, move it; so no band)
pa, pb = [pr["a"] for pr in ab_an["pairs"]], [pr["b"] for pr in ab_an["pairs"]]
want = (sum(pb) - sum(pa)) / sum(pa) * 100
check(ab_an["verdict"] == "slower" and abs(ab_an["change_pct"] - want) <= 1e-9 * abs(want),
      f"B at 90 % of the rate: slower ({ab_an['change_pct']:.2f} %, from the runs "
      f"{want:.2f} %)", show(p))
check(p.returncode == 3, "--fail-if-slower 2 exits 3", show(p))

# --- SIGINT keeps the finished rounds
proc = subprocess.Popen([LOADGEN, "ab", "-D", "x", "-D", "y", "--rounds", "50", "--json",
                         "int.json", "--out-dir", "out"] + RUN + ["1"], cwd=d,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
seen = 0
for line in proc.stdout:
    if line.startswith("round 2/50"):
        seen += 1
        if seen == 2:
            break
time.sleep(0.3)
proc.send_signal(signal.SIGINT)
out, err = proc.communicate(timeout=120)
check(proc.returncode == 130, "interrupted ab exits 130", err)
an = load(os.path.join(d, "int.json"))
n = an["pairs_n"]
check(n >= 2 and an["interrupted"], f"the finished rounds are analysed ({n})")
check(f"rests on the {n} finished rounds" in err, "it says how many pairs", err)
check(f"rests on {n} pairs of 50 rounds" in out, "the text says it too", out)
for f in (an["variants"][0]["file"], an["variants"][1]["file"]):
    check(len(load(os.path.join(d, f))["runs"]) == n, f"{f} holds the {n} finished rounds")
check(not [f for f in os.listdir(os.path.join(d, "out")) if f.startswith(".loadgen-ab")],
      "no temporary files left")
