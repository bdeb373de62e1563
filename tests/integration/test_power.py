"""The power behind the minimum detectable effect, checked on the real binary's JSON.

`loadgen compare --json` (mde_pct and runs_needed of both metrics) on hand-written result
files with fixed samples, and `loadgen ab --json` (mde_pct and pairs_needed) on the pairs
it reports, against values computed here, independently, with R's power.t.test formulas
(strict = TRUE) at power 0.8 and alpha 0.05:

    power(delta) = P(T' > t_crit) + P(T' < -t_crit),  T' noncentral t(df, ncp = delta / se)

two samples: se = sqrt(sa^2/na + sb^2/nb), Welch-Satterthwaite df (with equal sizes and
spreads exactly power.t.test(type = "two.sample"): se = s sqrt(2/n), df = 2 (n - 1));
paired: se = s_d / sqrt(n), df = n - 1 (power.t.test(type = "paired")). The minimum
detectable effect is the delta of power 0.8; runs (pairs) needed the smallest n >= 2 of
power >= 0.8 at the target change (null above 10000).

The noncentral t distribution is computed in pure Python (no scipy): T' = (Z + ncp) / S,
S = sqrt(chi2_df / df), so P(|T'| <= c) = E_S[Phi(c S - ncp) - Phi(-c S - ncp)], integrated
over the density of S with Simpson's rule; the central t quantile from the regularized
incomplete beta function (continued fraction) by bisection. Both are checked first on
reference values from scipy."""
import json
import math
import os
import subprocess

from lgtest import LOADGEN, check, tmpdir
from stat_ref import betainc

ALPHA, POWER, TARGET_PCT, MAX_PLAN = 0.05, 0.8, 2.0, 10000

# --- the t distributions, pure Python --------------------------------------------------


def t_upper(t, df):
    """P(T > t), T central t with df degrees of freedom, t >= 0."""
    return 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))


def qt_upper(p, df):
    """The t with P(T > t) = p (p < 0.5), by bisection."""
    lo, hi = 0.0, 1.0
    while t_upper(hi, df) > p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_upper(mid, df) > p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15 * hi:
            break
    return (lo + hi) / 2


def _phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


_quant = {}


def power_t(ncp, df, alpha=ALPHA, steps=4000):
    """P(|T'| > t_crit) for T' noncentral t(df, ncp): power.t.test's strict power."""
    key = (df, alpha)
    if key not in _quant:
        _quant[key] = qt_upper(alpha / 2, df)
    c = _quant[key]
    # density of S = sqrt(chi2_df / df): mode near 1, spread about 1/sqrt(2 df)
    w = 14.0 / math.sqrt(2 * df)
    lo, hi = max(0.0, 1.0 - w), 1.0 + w * (1 + 8.0 / math.sqrt(df))
    k = df / 2.0
    lnorm = math.log(2.0) + k * math.log(k) - math.lgamma(k)

    def f(s):
        if s <= 0:
            return 0.0
        dens = math.exp(lnorm + (df - 1) * math.log(s) - k * s * s)
        return dens * (_phi(c * s - ncp) - _phi(-c * s - ncp))

    h = (hi - lo) / steps
    acc = f(lo) + f(hi)
    for i in range(1, steps):
        acc += f(lo + i * h) * (4 if i % 2 else 2)
    return 1.0 - acc * h / 3


def welch_design(sa, na, sb, nb):
    va, vb = sa * sa / na, sb * sb / nb
    se2 = va + vb
    df = 1.0 / ((va / se2) ** 2 / (na - 1) + (vb / se2) ** 2 / (nb - 1))
    return math.sqrt(se2), df


def smallest_delta(se, df):
    """The delta of power POWER for standard error se and df (bisection)."""
    lo, hi = 0.0, se
    while power_t(hi / se, df) < POWER:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if power_t(mid / se, df) < POWER:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return hi


def smallest_n(power_at):
    """The smallest n in [2, MAX_PLAN] with power_at(n) >= POWER, or None."""
    if power_at(MAX_PLAN) < POWER:
        return None
    lo, hi = 1, MAX_PLAN  # lo too few (or below 2), hi enough
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid >= 2 and power_at(mid) >= POWER:
            hi = mid
        else:
            lo = mid
    return max(hi, 2)


def mean(v):
    return sum(v) / len(v)


def sd(v):
    m = mean(v)
    return math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))


def expect_compare(base, other, target_pct):
    """mde_pct and runs_needed of one metric, as compare should give them."""
    sa, sb = sd(base), sd(other)
    se, df = welch_design(sa, len(base), sb, len(other))
    mde_pct = 100.0 * smallest_delta(se, df) / abs(mean(base))
    delta = target_pct / 100.0 * abs(mean(base))

    def at(n):
        s, f = welch_design(sa, n, sb, n)
        return power_t(delta / s, f)
    return mde_pct, smallest_n(at)


def expect_paired(a, b, target_pct):
    """mde_pct and pairs_needed of ab's paired t-test."""
    d = [y - x for x, y in zip(a, b)]
    s, n, scale = sd(d), len(d), 100.0 / abs(mean(a))
    mde_pct = smallest_delta(s / math.sqrt(n), n - 1) * scale
    delta = target_pct / scale
    return mde_pct, smallest_n(lambda m: power_t(delta / (s / math.sqrt(m)), m - 1))


def near(got, want, what, rel=1e-5):
    check(got is not None and abs(got - want) <= rel * abs(want),
          f"{what}: {got} against {want:.10g}")


# The pure-Python distribution itself, on reference values from scipy (stats.t.ppf and
# stats.nct: the power of power.t.test(n = 5, delta = 1, sd = 1, strict = TRUE)).
near(qt_upper(0.025, 8), 2.3060041350333704, "qt(0.975, 8)", 1e-10)
near(power_t(1 / math.sqrt(2 / 5), 8), 0.28629549342627775,
     "power.t.test(n=5, delta=1, sd=1) power", 1e-9)

# --- compare: fixed samples ------------------------------------------------------------

d = tmpdir()


def result(mbps, ops):
    runs = [{"status": "complete", "throughput_mbps": m, "ops_per_s": o, "ops_by_type": {}}
            for m, o in zip(mbps, ops)]
    return {"schema": "loadgen-result/1", "loadgen": {"version": "0.1.0"},
            "env": {"kernel": "6.1.0"}, "workload": {"name": "w"},
            "config": {"clients": 2}, "runs": runs}


def save(name, doc):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


# unequal sizes and spreads (Welch's df), and one pair of equal ones (power.t.test's
# two-sample case exactly)
B_MB = [100.0, 102.5, 97.0, 101.0, 99.5]
O_MB = [103.0, 98.0, 104.5, 100.0, 101.0, 96.5]
B_OPS = [1000.0, 1010.0, 990.0, 1005.0, 995.0]
O_OPS = [1020.0, 1031.0, 1010.0, 1025.0, 1015.0, 1018.0]
base = save("base.json", result(B_MB, B_OPS))
other = save("other.json", result(O_MB, O_OPS))
for args, target in (([], TARGET_PCT), (["--min-effect", "0.5"], 0.5)):
    p = subprocess.run([LOADGEN, "compare", "--json"] + args + [base, other],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"compare --json {args} exits 0: {p.stderr}")
    doc = json.loads(p.stdout)
    check(doc["power"] == POWER, "compare --json says power 0.8")
    c = doc["comparisons"][0]
    for key, bv, ov in (("throughput_mbps", B_MB, O_MB), ("ops_per_s", B_OPS, O_OPS)):
        m = c["metrics"][key]
        mde, need = expect_compare(bv, ov, target)
        near(m["mde_pct"], mde, f"compare {args} {key} mde_pct")
        check(m["target_pct"] == target and m["runs_needed"] == need,
              f"compare {args} {key} runs_needed {m['runs_needed']} == {need}"
              f" for {target} %")
    near(c["mde_pct"], c["metrics"]["throughput_mbps"]["mde_pct"], "the verdict's mde_pct", 0)

# Equal sizes and spreads (the baseline + 20): exactly power.t.test(type = "two.sample",
# n = 5, sd = sd(B_OPS), power = 0.8, strict = TRUE); its delta, 16.0045982423 (scipy:
# brentq on stats.nct; 11.1444759163 at power 0.5), also checked as a number.
same = save("same.json", result(B_MB, [x + 20 for x in B_OPS]))
p = subprocess.run([LOADGEN, "compare", "--json", base, same], capture_output=True,
                   text=True, timeout=60)
m = json.loads(p.stdout)["comparisons"][0]["metrics"]["ops_per_s"]
s = sd(B_OPS)
near(m["mde_pct"], 100 * smallest_delta(s * math.sqrt(2 / 5), 8) / mean(B_OPS),
     "equal samples: the two-sample power.t.test delta")
near(m["mde_pct"] / 100 * mean(B_OPS), 16.004598242341068,
     "equal samples: the delta of power 0.8 is scipy's 16.0046")

# --- ab: the pairs it reports ----------------------------------------------------------

for sub in ("x", "y", "out"):
    os.makedirs(os.path.join(d, sub), exist_ok=True)
p = subprocess.run([LOADGEN, "ab", "-D", "x", "-D", "y", "--rounds", "3", "--out-dir", "out",
                    "--json", "an.json", "-t", "0.3", "--warmup", "0", "--monitor", "off",
                    "1"], capture_output=True, text=True, timeout=300, cwd=d)
check(p.returncode == 0, f"ab -D x -D y --rounds 3 exits 0: {p.stderr}")
with open(os.path.join(d, "an.json")) as f:
    an = json.load(f)
a = [pr["a"] for pr in an["pairs"]]
b = [pr["b"] for pr in an["pairs"]]
check(an["target_pct"] == TARGET_PCT and len(a) == 3, "ab: 3 pairs, planned for 2 %")
mde, need = expect_paired(a, b, TARGET_PCT)
near(an["mde_pct"], mde, "ab mde_pct (paired power.t.test at power 0.8 on its pairs)")
check(an["pairs_needed"] == need, f"ab pairs_needed {an['pairs_needed']} == {need}")
