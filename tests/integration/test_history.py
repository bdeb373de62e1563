"""loadgen history: the SQLite store, series, change points and the CI gate.

One real run gives a result file; synthetic series are made from it by setting each
run's throughput (a planted step, a drift, noise from a seeded generator) and a distinct
start time, so every figure the store and the analysis see is known. Checked: two
writers adding 100 results each at once keep all 200; a truncated, a foreign and a
non-SQLite file are refused (exit 2) and left byte for byte as they were; a result with
other mount options or another client count starts a new series and says why; trend
finds a planted step where it is and no change point in a flat series; --order version
sorts kernel versions; check fails a result 10 % slower than the stable segment (exit 3)
and passes one within it; export gives back the stored document."""
import copy
import hashlib
import json
import os
import random
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lgtest  # noqa: E402
from lgtest import LOADGEN, check  # noqa: E402

work = lgtest.tmpdir()
DB = os.path.join(work, "h.db")


def lg(*args, db=DB, **kw):
    cmd = [LOADGEN, "history"] + [str(a) for a in args]
    if db:
        cmd += ["--db", db]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


# one real result: 2 runs of 1 s
base_res = lgtest.run(["-D", work, "-t", "1", "--warmup", "0", "--repeat", "2", "2"],
                      workdir=work)
check(base_res.rc == 0 and base_res.json, "a real result to build series from", base_res)
BASE = base_res.json
_serial = [0]


def variant(mbps, env=None, clients=None, status=None):
    """A copy of the real result whose runs measured mbps (one value per run)."""
    d = copy.deepcopy(BASE)
    _serial[0] += 1
    d["env"]["start_time"] = "2026-01-01T00:00:00Z#%d" % _serial[0]
    for k, v in (env or {}).items():
        d["env"][k] = v
    runs = [copy.deepcopy(d["runs"][0]) for _ in mbps]
    for r, v in zip(runs, mbps):
        r["throughput_mbps"] = v
        r["ops_per_s"] = v * 10
        if clients:
            r["client_count"] = clients
        if status:
            r["status"] = status
    d["runs"] = runs
    if clients:
        d["config"]["clients"] = clients
    return d


def save(doc, name):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def series_values(rng, n, step_at=None, step=0.0, noise=0.03, drift=0.0):
    out = []
    for i in range(n):
        m = 100.0 * (1 + drift * i)
        if step_at is not None and i >= step_at:
            m *= 1 + step
        out.append(m * (1 + rng.gauss(0, noise)))
    return out


def add_series(db, values, prefix, labels=None):
    paths = []
    for i, v in enumerate(values):
        # two runs around the result's mean, as --repeat 2 gives
        paths.append(save(variant([v * 0.995, v * 1.005]), "%s%03d.json" % (prefix, i)))
    for i, p in enumerate(paths):
        r = lg("add", p, "--label", labels[i] if labels else "r%d" % i, db=db)
        assert r.returncode == 0, r
    return paths


def trend(db, *args):
    r = lg("trend", "--json", *args, db=db)
    check(r.returncode == 0, "trend --json runs (%s)" % db, r)
    return json.loads(r.stdout)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# --- a planted step: found where it is, with its size ---
rng = random.Random(20261205)
db_step = os.path.join(work, "step.db")
add_series(db_step, series_values(rng, 40, step_at=20, step=-0.10), "step")
t = trend(db_step)
check(len(t["series"]) == 1 and len(t["series"][0]["points"]) == 40,
      "40 results stored in one series", t)
cps = t["series"][0]["change_points"]
check(len(cps) == 1 and abs(cps[0]["index"] - 20) <= 1,
      "a -10 %% step at 20 gives one change point at 20 +- 1 (got %s)"
      % [c["index"] for c in cps])
check(-13 < cps[0]["change_pct"] < -7 and cps[0]["ci_pct"][0] < cps[0]["change_pct"]
      < cps[0]["ci_pct"][1], "its change is about -10 %% within its CI (%.1f %%)"
      % cps[0]["change_pct"])
check(len(t["series"][0]["segments"]) == 2, "two segments around it")
r = lg("trend", db=db_step)
check(r.returncode == 0 and "---- change point: -" in r.stdout,
      "the text trend marks the change point", r)
html = os.path.join(work, "step.html")
r = lg("trend", "--html", html, db=db_step)
page = open(html).read() if os.path.exists(html) else ""
data = page.split('id="lg-data">', 1)[-1].split("</script>", 1)[0]
check(r.returncode == 0 and r.stdout == "" and
      json.loads(data)["series"][0]["change_points"] == cps,
      "trend --html writes the page with the same trend as --json", r)

# --- a flat series: no change point ---
db_flat = os.path.join(work, "flat.db")
add_series(db_flat, series_values(rng, 30), "flat")
t = trend(db_flat)
check(t["series"][0]["change_points"] == [], "a flat series has no change point", t)

# --- check: against the stable segment ---
slow = save(variant([90.0 * 0.995 * 0.9, 90.0 * 1.005 * 0.9]), "slow.json")  # ~ -10 % of ~90
same = save(variant([90.0 * 0.995, 90.0 * 1.005]), "same.json")
r = lg("check", slow, "--fail-if-slower", "5", db=db_step)
check(r.returncode == 3 and "FAIL" in r.stdout, "check: 10 % below the stable segment "
      "exits 3 with --fail-if-slower 5", r)
r = lg("check", same, "--fail-if-slower", "5", "--json", db=db_step)
c = json.loads(r.stdout)
one = c["results"][0]
check(r.returncode == 0 and one["verdict"] == "same" and 18 <= one["segment_results"] <= 22,
      "check: a result at the segment's level passes, against the 20 results since the "
      "step (not the 40)", r)
# the interval is one for a new result (sd * sqrt(1 + 1/n)), not for the segment's mean
T975 = {16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080}
n_seg = one["segment_results"]
want = 2 * T975[n_seg - 1] * one["segment_sd"] * (1 + 1 / n_seg) ** 0.5 / one["segment_mean"] * 100
got = one["prediction_pct"][1] - one["prediction_pct"][0]
check(abs(got - want) < 0.01 * want, "its 95 %% prediction interval is %.2f %% wide (t, n-1 "
      "df: %.2f %%)" % (got, want))
n_before = json.loads(lg("check", slow, "--json", db=db_step).stdout)["results"][0][
    "segment_results"]
r = lg("check", same, "--fail-if-slower", "5", db=os.path.join(work, "none.db"))
check(r.returncode == 5, "check without a history: cannot tell (exit 5)", r)
# add then check: the result is not compared with itself
r = lg("add", slow, db=db_step)
r = lg("check", slow, "--fail-if-slower", "5", "--json", db=db_step)
c = json.loads(r.stdout)
check(r.returncode == 3 and c["self_result_id"] is not None and
      c["results"][0]["segment_results"] == n_before,
      "add then check: the stored result is left out of its own segment", r)

# --- who else was busy: a result with dd writing beside its runs ---
DD = {"comm": "dd", "kernel": False, "processes": 9, "pids": [4121, 4130], "cpu_s": 3.1,
      "read_bytes": 0, "write_bytes": 2_700_000_000, "rchar": 0, "wchar": 2_700_000_000,
      "io_unreadable": 0, "via_parent_bytes": 0}


def with_busy(doc, groups):
    for r in doc["runs"]:
        r["busy"] = {"samples": 10, "samples_skipped": 0, "seconds": 10.0, "interval_s": 1.0,
                     "processes": 200, "io_readable": "all", "io_unreadable": 0,
                     "cpu_ms_per_sample": 1.0, "excluded": "x", "by_cpu": [],
                     "by_io": copy.deepcopy(groups)}
    return doc


db_busy = os.path.join(work, "busy.db")
quiet = [save(with_busy(variant([100 + i, 101 + i]), []), "q%d.json" % i) for i in range(4)]
for q in quiet:
    lg("add", q, db=db_busy)
noisy = save(with_busy(variant([99.0, 100.0]), [DD]), "noisy.json")
r = lg("check", noisy, "--json", db=db_busy)
c = json.loads(r.stdout)
busy = c["results"][0]["busy"]
check(r.returncode == 0 and len(busy) == 1 and busy[0].startswith("dd (") and
      "noisy.json" in busy[0], "check names dd, busy beside the new result only (%s)" % busy, r)
r = lg("check", noisy, db=db_busy)
check("dd (" in r.stdout and "wrote" in r.stdout, "and says it in its text", r)
lg("add", noisy, db=db_busy)
t = trend(db_busy)
pts = t["series"][0]["points"]
check([p["busy"] is not None for p in pts] == [False] * 4 + [True] and
      pts[-1]["busy"].startswith("dd (9 processes") and "wrote 2.7 GB" in pts[-1]["busy"],
      "trend marks the result dd was busy beside (%s)" % pts[-1]["busy"])
r = lg("trend", db=db_busy)
check("busy beside it: dd (9 processes" in r.stdout, "the text trend says it", r)

# --- series split, with the reason said ---
db_split = os.path.join(work, "split.db")
p1 = save(variant([100, 101]), "a.json")
p2 = save(variant([100, 101], env={"mount_options": "rw,noatime"}), "b.json")
r1, r2 = lg("add", p1, db=db_split), lg("add", p2, db=db_split)
check(r2.returncode == 0 and "a new series" in r2.stdout and "mount options" in r2.stdout
      and "rw,noatime here" in r2.stdout, "other mount options start a new series and say "
      "which", r2)
p3 = save(variant([100, 101], clients=5), "c.json")
r3 = lg("add", p3, db=db_split)
check("client count" in r3.stdout and "5 here" in r3.stdout,
      "another client count starts a new series and says so", r3)
p4 = save(variant([100, 101], env={"kernel": "9.9.9"}), "d.json")
r4 = lg("add", p4, db=db_split)
check("a new series" not in r4.stdout and "series 1" in r4.stdout,
      "another kernel joins the series (the kernel is what a series follows)", r4)
r = lg("add", p1, db=db_split)
check(r.returncode == 0 and "already stored" in r.stdout, "the same file is stored once", r)
t = trend(db_split)
check(len(t["series"]) == 3, "three series")

# --- order by version ---
db_ver = os.path.join(work, "ver.db")
labels = ["6.10.1", "6.9", "6.10", "6.10-rc1", "6.2"]
add_series(db_ver, [100, 101, 102, 103, 104], "ver", labels=labels)
t = trend(db_ver, "--order", "version")
got = [p["label"] for p in t["series"][0]["points"]]
check(got == ["6.2", "6.9", "6.10-rc1", "6.10", "6.10.1"], "--order version: %s" % got)
t = trend(db_ver)
check([p["label"] for p in t["series"][0]["points"]] == labels, "default order: as stored")

# --- export gives the document back ---
r = lg("export", "1", db=db_split)
check(r.returncode == 0 and json.loads(r.stdout)["runs"][0]["throughput_mbps"] == 100,
      "export returns the stored result", r)

# --- two writers at once ---
db_two = os.path.join(work, "two.db")
files = [[save(variant([100 + i, 101 + i]), "w%d_%03d.json" % (w, i)) for i in range(100)]
         for w in range(2)]
procs = [subprocess.Popen([LOADGEN, "history", "add", "--db", db_two] + fl,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
         for fl in files]
outs = [p.communicate(timeout=300) for p in procs]
check(all(p.returncode == 0 for p in procs) and not any(e for _, e in outs),
      "two writers adding 100 results each at once: no error (%s)"
      % [e[:200] for _, e in outs])
con = sqlite3.connect(db_two)
n = con.execute("SELECT count(*) FROM results").fetchone()[0]
npts = con.execute("SELECT count(*) FROM points").fetchone()[0]
con.close()
check(n == 200 and npts == 200, "200 results and 200 points stored (%d, %d)" % (n, npts))

# --- writers that find no store yet: each must see the store another is making either
# as absent, empty or whole, never half made (a store with tables but no application_id
# yet was once refused as "an SQLite database of something else") ---
one = [save(variant([200 + i, 201 + i]), "c%02d.json" % i) for i in range(6)]
refused = []
for rnd in range(50):
    db_new = os.path.join(work, "new%02d.db" % rnd)
    procs = [subprocess.Popen([LOADGEN, "history", "add", "--db", db_new, f],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for f in one]
    for p in procs:
        _, e = p.communicate(timeout=120)
        if p.returncode != 0 or e:
            refused.append(e.strip()[:160])
    con = sqlite3.connect(db_new)
    n = con.execute("SELECT count(*) FROM results").fetchone()[0]
    con.close()
    if n != len(one):
        refused.append("round %d: %d results stored, not %d" % (rnd, n, len(one)))
check(not refused, "50 rounds of 6 writers making a new store at once: all stored, none "
      "refused (%s)" % refused[:3])

# --- refused files are left as they were ---
trunc = os.path.join(work, "trunc.db")
with open(db_two, "rb") as f:
    data = f.read()
with open(trunc, "wb") as f:
    f.write(data[:len(data) // 2])
before = sha(trunc)
for cmd in (["add", same], ["trend"], ["check", same]):
    r = lg(*cmd, db=trunc)
    check(r.returncode == 2 and "truncated" in r.stderr and sha(trunc) == before,
          "a truncated store: %s exits 2, says so, file untouched" % cmd[0], r)
foreign = os.path.join(work, "foreign.db")
con = sqlite3.connect(foreign)
con.execute("CREATE TABLE t (x)")
con.commit()
con.close()
before = sha(foreign)
r = lg("add", same, db=foreign)
check(r.returncode == 2 and "not a loadgen history" in r.stderr and sha(foreign) == before,
      "an SQLite database of something else is refused, untouched", r)
text = lgtest.write(os.path.join(work, "text.db"), "hello\n" * 100)
before = sha(text)
r = lg("add", same, db=text)
check(r.returncode == 2 and "not an SQLite database" in r.stderr and sha(text) == before,
      "a text file is refused, untouched", r)

# --- usage ---
r = lg("trend", "--metric", "speed")
check(r.returncode == 2 and "--metric" in r.stderr, "a bad --metric: exit 2", r)
r = lg("trnd", db=None)
check(r.returncode == 2 and "did you mean 'trend'" in r.stderr, "a misspelt command", r)
r = lg("add", os.path.join(work, "missing.json"))
check(r.returncode == 2 and "missing.json" in r.stderr, "a missing result file: exit 2", r)
bad = lgtest.write(os.path.join(work, "bad.json"), '{"schema": "loadgen-result/1",\n  "runs": [}')
r = lg("add", bad)
check(r.returncode == 2 and "bad.json:2:" in r.stderr, "a broken result file: file:line:col", r)

# --- the nightly script of docs/kernel-ci.md, three nights (the third gate still has
# too little history: "cannot tell", so exit 0 whatever the noise of these short runs) ---
doc = open(os.path.join(lgtest.SOURCE, "docs", "kernel-ci.md")).read()
script = doc.split("<!-- nightly-script -->\n```bash\n", 1)[1].split("```", 1)[0]
sp = lgtest.write(os.path.join(work, "nightly.sh"), script)
night_dir = os.path.join(work, "nights")
mnt = os.path.join(work, "mnt")
os.mkdir(mnt)
env = dict(os.environ, LOADGEN=LOADGEN, MNT=mnt, DB=os.path.join(work, "nightly.db"),
           WORKLOAD="netbench", CLIENTS="2", T="1", REPEAT="2", OUT=night_dir)
for night in range(3):
    p = subprocess.run(["sh", sp], env=env, capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, "the nightly script, night %d: exit 0" % (night + 1), p)
con = sqlite3.connect(env["DB"])
n = con.execute("SELECT count(*) FROM points").fetchone()[0]
con.close()
check(n == 3 and os.path.exists(os.path.join(night_dir, "trend.html")),
      "three nights stored in one series, the trend drawn (%d)" % n)
