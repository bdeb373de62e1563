"""loadgen report / --html in a real browser: one run, a --repeat 3 run, and a
comparison of three files, each loaded in headless Chromium with the network off.

For each page: no console errors, no request made (no resource entries, nothing in the
HTML that would fetch, a CSP that forbids it), every expected chart present and drawn
with data (datasets, points and painted pixels), a table of numbers with every chart,
latency percentiles that are the runs' histograms merged (checked against `loadgen
compare --json`, which merges the same buckets on its own), and in the comparison the
verdicts, numbers and setup differences of `loadgen compare`. A screenshot of each page
is written next to the test's output (see report_browser.shots_dir). Skips (77) only
when chromium is not installed."""
import html
import json
import os
import re
import subprocess

import report_browser as rb
from lgtest import LOADGEN, MPI_RANK_SH, MPIEXEC, check, mpi_cmd, mpi_env, run, skip, tmpdir

rb.chromium()  # SKIP early when there is no browser
d = tmpdir()
shots = rb.shots_dir()


def loadgen(*args, timeout=180):
    return subprocess.run([LOADGEN] + list(args), capture_output=True, text=True,
                          timeout=timeout, cwd=d)


def data_of(path):
    """The data object embedded in a report."""
    with open(path) as f:
        text = f.read()
    m = re.search(r'<script type="application/json" id="lg-data">(.*?)</script>', text, re.S)
    return text, json.loads(m.group(1))


def expected_ops(doc):
    ops = set()
    for r in doc["runs"]:
        for label, t in r.get("ops_by_type", {}).items():
            if t.get("histogram"):
                ops.add(label)
    return ops | {"all ops"}


def check_page(name, path, expect, ops, shot):
    """Load path; check errors, requests, the expected charts and their tables."""
    text, _ = data_of(path)
    check(rb.static_offline(text) == [], f"{name}: nothing in the HTML fetches anything")
    page = rb.load(path, screenshot=os.path.join(shots, shot))
    check(page.status is not None, f"{name}: the page drew and wrote its status",
          page.stderr[-3000:])
    st = page.status
    check(st["errors"] == [], f"{name}: no errors in the page: {st['errors']}")
    check(page.console == [], f"{name}: no console messages: {page.console[:5]}")
    check(st["resources"] == 0, f"{name}: no resource was requested ({st['resources']})")
    charts = page.charts()
    for cid in expect:
        c = charts.get(cid)
        check(c is not None, f"{name}: chart {cid} is present ({sorted(charts)})")
        check(c["datasets"] > 0 and c["points"] > 0,
              f"{name}: chart {cid} has data ({c['datasets']} datasets, {c['points']} points)")
        check(c["painted"] > 0, f"{name}: chart {cid} was painted ({c['painted']} px)")
    figs = page.figures()
    check(set(figs) == set(charts), f"{name}: one figure per chart")
    check(all("<table" in body for body in figs.values()),
          f"{name}: every chart has a table of its numbers")
    drawn_ops = set(re.findall(r'<figure id="latency-\d+" data-chart="[^"]+" data-op="([^"]+)"',
                               page.dom))
    check(drawn_ops == ops, f"{name}: a percentile chart per op type and all ops "
          f"({sorted(drawn_ops)} vs {sorted(ops)})")
    check(os.path.getsize(os.path.join(shots, shot)) > 10000,
          f"{name}: screenshot written to {os.path.join(shots, shot)}")
    print(f"{name}: drawn {len(charts)} charts in {st['ms_since_navigation']} ms after navigation;"
          f" {os.path.getsize(path)} bytes")
    return page


def check_merged(path, json_path):
    """p50 and p99 of every op type in the page equal loadgen compare's merge; for a
    sweep, those of each client count (compare's by_clients) in that count's group."""
    _, data = data_of(path)
    cmp = json.loads(loadgen("compare", "--json", json_path, json_path).stdout)["comparisons"][0]
    pcts = data["percentiles"]
    groups = data["files"][0]["groups"]
    by = cmp.get("by_clients") or [dict(cmp, clients=groups[0]["clients"])]
    check([g["clients"] for g in groups] == [c["clients"] for c in by],
          f"{os.path.basename(path)}: a group per client count {[c['clients'] for c in by]}")
    for g, c in zip(groups, by):
        for label, v in c["latency"].items():
            b = v["baseline"]
            if b["p50_ns"] is None:
                continue
            curve = g["latency"][label]
            p50 = round(curve["ms"][pcts.index(50)] * 1e6)
            p99 = round(curve["ms"][pcts.index(99)] * 1e6)
            check(p50 == b["p50_ns"] and p99 == b["p99_ns"] and curve["count"] == b["count"],
                  f"{os.path.basename(path)}: {c['clients']} clients, {label} merged p50 "
                  f"{p50} p99 {p99} count {curve['count']} = compare's {b['p50_ns']} "
                  f"{b['p99_ns']} {b['count']}")


TIME_CHARTS = ["time-mbps", "time-ops_s", "time-p99_ms", "time-max_ms", "clients"]

# --- One run, report written by the run itself (--html) and by `loadgen report` ---
r1 = run(["-q", "-t", "2", "--warmup", "0.5", "-D", d, "--html", os.path.join(d, "one.html"),
          "3"], workdir=d)
check(r1.rc == 0 and os.path.exists(os.path.join(d, "one.html")),
      "loadgen --json --html writes both files", r1)
one_json = os.path.join(d, "result.json")
os.rename(one_json, os.path.join(d, "one.json"))
one_json = os.path.join(d, "one.json")
p = loadgen("report", one_json, "-o", os.path.join(d, "one_b.html"))
check(p.returncode == 0 and p.stderr == "", "loadgen report FILE -o FILE.html", p)
with open(one_json) as fh:
    one = json.load(fh)
page = check_page("one run (--html)", os.path.join(d, "one.html"), TIME_CHARTS,
                  expected_ops(one), "report_one_run.png")
check("runs-mbps" not in page.charts(), "one run: no per-run chart")
check_page("one run (report)", os.path.join(d, "one_b.html"), TIME_CHARTS, expected_ops(one),
           "report_one_run_b.png")
check_merged(os.path.join(d, "one_b.html"), one_json)

# --- --repeat 3 ---
rep_json = os.path.join(d, "rep.json")
p = loadgen("-q", "-t", "2", "--warmup", "0.3", "--repeat", "3", "-D", d, "--json", rep_json,
            "--html", os.path.join(d, "rep.html"), "2")
check(p.returncode == 0, "--repeat 3 with --json and --html", p)
with open(rep_json) as fh:
    rep = json.load(fh)
page = check_page("--repeat 3", os.path.join(d, "rep.html"),
                  TIME_CHARTS + ["runs-mbps", "runs-ops_s"], expected_ops(rep),
                  "report_repeat3.png")
check_merged(os.path.join(d, "rep.html"), rep_json)
_, data = data_of(os.path.join(d, "rep.html"))
s = data["files"][0]["mbps"]
check(s["n"] == 3 and abs(s["mean"] - rep["summary"]["throughput_mbps"]["mean"]) < 1e-6 and
      abs(s["ci95_lo"] - rep["summary"]["throughput_mbps"]["ci95"][0]) < 1e-6,
      f"--repeat 3: mean {s['mean']:.3f} and CI as in the result's summary")
check(len(data["files"][0]["runs"]) == 3, "--repeat 3: three runs over time")

# --- A comparison of three files ---
others = []
for name, extra in (("sync.json", ["--sync-dirs"]), ("four.json", ["-p", "bs=16KiB"])):
    path = os.path.join(d, name)
    p = loadgen("-q", "-t", "2", "--warmup", "0.3", "--repeat", "3", "-D", d, "--json", path,
                *extra, "2")
    check(p.returncode == 0, f"comparison input {name}", p)
    others.append(path)
cmp_html = os.path.join(d, "cmp.html")
names = [os.path.basename(x) for x in [rep_json] + others]  # short names in the page
p = loadgen("report", *names, "-o", cmp_html)
check(p.returncode == 0, "loadgen report BASE OTHER OTHER -o cmp.html", p)
page = check_page("comparison", cmp_html, TIME_CHARTS + ["runs-mbps", "runs-ops_s"],
                  expected_ops(rep) | set().union(*(expected_ops(json.load(open(o)))
                                                    for o in others)),
                  "report_compare3.png")
# a smaller picture of the top of the comparison, for docs/report.md (docs/report.png)
readme_png = os.path.join(shots, "report_readme.png")
rb.load(cmp_html, screenshot=readme_png, width=1280, height=1500)
check(os.path.getsize(readme_png) > 10000, f"docs/report.md's screenshot written to {readme_png}")
cj = json.loads(loadgen("compare", "--json", *names).stdout)
words = [c["verdict"] for c in cj["comparisons"]]
check([v["verdict"] for v in page.status["verdicts"]] == words,
      f"comparison: verdict words equal loadgen compare's: {words}")
dom_verdicts = re.findall(r'data-verdict="([^"]+)"', page.dom)
check(dom_verdicts == words, f"comparison: the page shows those verdicts: {dom_verdicts}")
ct = loadgen("compare", *names).stdout
for line in re.findall(r"^  (Verdict: .*)$", ct, re.M):
    # the page says the same sentence (without compare's advice about runs)
    head = line.split(";")[0].split(": no verdict possible")[0]
    check(head in page.text, f"comparison: the page says '{head}'")
for row in re.findall(r"^  (MB/s|ops/s) +(.+)$", ct, re.M):
    cells = [c.strip() for c in re.split(r"\s{2,}", row[1].strip())]
    for cell in cells:
        check(html.escape(cell, quote=False) in page.dom or cell in page.text,
              f"comparison: {row[0]} cell '{cell}' as in loadgen compare")
for key in ("config.sync_dirs", "workload.params.bs"):
    check(re.search(r'class="diffs".*?' + re.escape(key), page.dom, re.S) is not None,
          f"comparison: setup difference {key} is highlighted")
print("screenshots in", shots)

# --- Runs averaged by time, not by entry: a run whose master woke late has one long entry
# (2 to 5 s) where the others have three; its entry at 5 s goes with theirs at 5 s ---
late = json.loads(json.dumps(rep))
for i, r in enumerate(late["runs"]):
    ends = [1, 2, 5] if i == 1 else [1, 2, 3, 4, 5]
    mbps = [20, 20, 50] if i == 1 else [10] * 5
    tpl = r["timeline"][0]
    r["timeline"] = [dict(tpl, t_s=t + 0.0004 * i, len_s=t - (ends[k - 1] if k else 0), mbps=m)
                     for k, (t, m) in enumerate(zip(ends, mbps))]
late_json = os.path.join(d, "late.json")
with open(late_json, "w") as fh:
    json.dump(late, fh)
p = loadgen("report", "late.json", names[1], "-o", os.path.join(d, "late.html"))
check(p.returncode == 0, "report of a result with a late entry against another", p)
drawn = rb.load(os.path.join(d, "late.html")).charts()["time-mbps"]["data"][0]
at = {round(x): y for x, y in drawn}
check(sorted(at) == [1, 2, 3, 4, 5] and abs(at[3] - 10) < 1e-9 and abs(at[4] - 10) < 1e-9 and
      abs(at[5] - 70 / 3) < 1e-9 and abs(at[1] - 40 / 3) < 1e-9,
      f"mean of runs by time: 3 s and 4 s from the two runs with entries there, 5 s from "
      f"all three: {drawn}")

# --- Keys of newer results (sweeps, hosts, system metrics), drawn where present ---
new = json.loads(json.dumps(rep))
new["summary"]["by_clients"] = [
    {"clients": c, "throughput_mbps": {"mean": 10.0 * c, "ci95": [9.0 * c, 11.0 * c]}}
    for c in (1, 2, 4, 8)]
new["hosts"] = [{"host": "a", "throughput_mbps": 5.0}, {"host": "b", "throughput_mbps": 7.0}]
for e in new["runs"][0]["timeline"]:
    e["sys"] = {"cpu": {"user": 10.0, "system": 5.0, "iowait": 1.0}}
new_json = os.path.join(d, "newer.json")
with open(new_json, "w") as fh:
    json.dump(new, fh)
p = loadgen("report", new_json, "-o", os.path.join(d, "newer.html"))
check(p.returncode == 0, "report of a result with by_clients, hosts and sys", p)
check_page("newer keys", os.path.join(d, "newer.html"),
           TIME_CHARTS + ["runs-mbps", "sweep", "hosts-0", "sys-0"], expected_ops(new),
           "report_newer_keys.png")

# --- Real results of the newer kinds: a client sweep, and a run on two hosts (MPI) ---
target = os.path.join(d, "t")
os.makedirs(target, exist_ok=True)
p = loadgen("-D", target, "-q", "-t", "0.5", "--warmup", "0", "--repeat", "2",
            "--json", os.path.join(d, "sweep.json"), "--html", os.path.join(d, "sweep.html"),
            "1,2")
check(p.returncode == 0, "a sweep 1,2 with --repeat 2 writes its report", p)
with open(os.path.join(d, "sweep.json")) as fh:
    sweep = json.load(fh)
check_page("sweep", os.path.join(d, "sweep.html"), TIME_CHARTS + ["runs-mbps", "sweep"],
           expected_ops(sweep), "report_sweep.png")
check_merged(os.path.join(d, "sweep.html"), os.path.join(d, "sweep.json"))


def check_sweep_series(charts, expect):
    """Over time and in latency, one series per file and client count (expect: label ->
    the runs it stands for); over time each is the mean of its runs' entries, never an
    average across counts."""
    for cid, c in charts.items():
        if cid.startswith("latency-"):
            check(c["labels"] == [lb.split(" (")[0] for lb in expect],
                  f"sweep: {cid} has a curve per file and count: {c['labels']}")
    c = charts["time-mbps"]
    lines = [lb for lb in c["labels"] if not lb.startswith("stall")]
    check(lines == list(expect), f"sweep: a line over time per file and count: {lines}")
    for label, drawn in zip(lines, c["data"]):
        runs = expect[label]
        if runs is None:  # a file of one count: drawn as before (checked above)
            continue
        n = len(runs[0]["timeline"])
        check(all(len(r["timeline"]) == n for r in runs), f"{label}: entries alike in its runs")
        want = [(sum(r["timeline"][i]["t_s"] for r in runs) / len(runs),
                 sum(r["timeline"][i]["mbps"] for r in runs) / len(runs)) for i in range(n)]
        check(len(drawn) == n and all(abs(x - wx) < 1e-9 and abs(y - wy) < 1e-6 * max(1, wy)
                                      for (x, y), (wx, wy) in zip(drawn, want)),
              f"{label}: the mean of its {len(runs)} runs at each moment: {drawn} vs {want}")


def at_count(doc, c):
    return [r for r in doc["runs"] if r["client_count"] == c]


# the sweep alone, then against a file of one count (rep.json, 2 clients): the sweep's
# counts apart, the other file one series as always
by_count = {"sweep.json, 1 client (mean of 2 runs)": at_count(sweep, 1),
            "sweep.json, 2 clients (mean of 2 runs)": at_count(sweep, 2)}
for inputs, out, more in ((["sweep.json"], "sweep_b.html", {}),
                          (["sweep.json", "rep.json"], "sweep_cmp.html",
                           {"rep.json (mean of 3 runs)": None})):
    p = loadgen("report", *inputs, "-o", os.path.join(d, out))
    check(p.returncode == 0, f"report of {inputs}", p)
    page = check_page(f"sweep: {inputs}", os.path.join(d, out),
                      TIME_CHARTS + ["runs-mbps", "sweep"],
                      expected_ops(sweep) | (expected_ops(rep) if more else set()),
                      out.replace(".html", ".png"))
    check_sweep_series(page.charts(), dict(by_count, **more))
# runs that end on both sides of an interval's half (0.4999 s and 0.5009 s, with 1 s
# intervals: runs of -t 0.5 do) are one moment, not two (this test met it in CI)
edge = json.loads(json.dumps(sweep))
edge["config"]["interval_s"] = 1.0
for c in (1, 2):
    for r, t in zip(at_count(edge, c), (0.4999, 0.5009)):
        r["timeline"] = [dict(r["timeline"][0], t_s=t)]
with open(os.path.join(d, "edge.json"), "w") as fh:
    json.dump(edge, fh)
p = loadgen("report", "edge.json", "-o", os.path.join(d, "edge.html"))
check(p.returncode == 0, "report of runs ending on both sides of an interval's half", p)
page = check_page("edge", os.path.join(d, "edge.html"), TIME_CHARTS + ["runs-mbps", "sweep"],
                  expected_ops(edge), "report_edge.png")
check_sweep_series(page.charts(), {"edge.json, 1 client (mean of 2 runs)": at_count(edge, 1),
                                   "edge.json, 2 clients (mean of 2 runs)": at_count(edge, 2)})
if MPIEXEC and "(MPI)" in loadgen("--version").stdout and subprocess.run(
        ["unshare", "-u", "true"], capture_output=True).returncode == 0:
    env = mpi_env()  # Open MPI's own allocations and locks are not loadgen's
    mj = os.path.join(d, "mpi.json")
    p = subprocess.run(mpi_cmd(2, ["unshare", "-u", "sh", "-c",
                                   f'hostname "h{MPI_RANK_SH}" && exec "$@"', "sh",
                                   LOADGEN, "-D", target, "-q", "-t", "0.5", "--warmup", "0",
                                   "--json", mj, "2"], bind_none=True),
                       capture_output=True, text=True, env=env, timeout=180, cwd=d)
    check(p.returncode == 0, "a run on two ranks with their own host names", p)
    p = loadgen("report", mj, "-o", os.path.join(d, "mpi.html"))
    check(p.returncode == 0, "report of a two-host result", p)
    with open(mj) as fh:
        multi = json.load(fh)
    page = check_page("two hosts", os.path.join(d, "mpi.html"), TIME_CHARTS + ["hosts-0"],
                      expected_ops(multi), "report_hosts.png")
    check(page.charts()["hosts-0"]["points"] == 2, "two hosts, a bar each")
else:
    skip("no MPI launcher, a binary without MPI, or no unshare -u: the two-host report")
print("screenshots in", shots)
