"""loadgen report of client sweeps (1,2,4,8 clients, --repeat 2), alone and two compared,
in headless Chromium at 1280 px: what each chart draws is checked against the result
files.

- Per-client throughput: one series of bars per file and client count, each client's
  MB/s the mean over the runs at that count only (never over the runs at 1, 2, 4 and 8).
- CPU over time: a chart per file and client count, each CPU figure the mean of every
  run of that count at each moment (not run 1 alone).
- No legend item is clipped: every item lies inside its chart's width (a long legend
  item is centred and cut at both ends, as the Jain indexes of eight runs were).
- The legend lists only what is drawn: every dataset of every chart has a point (a
  sweep has no mean or interval across its counts).
- Two sweeps compared: the setup differences (the same at every count) shown once.
- Throughput against clients: a 95 % interval reaching below 0 is drawn from 0, and the
  page says so; its table keeps the interval as computed.
Skips (77) when chromium is not installed."""
import json
import os
import re
import subprocess

import report_browser as rb
from lgtest import LOADGEN, check, tmpdir

rb.chromium()  # SKIP early when there is no browser
d = tmpdir()
shots = rb.shots_dir()
COUNTS = [1, 2, 4, 8]


def loadgen(*args, timeout=300):
    return subprocess.run([LOADGEN] + list(args), capture_output=True, text=True,
                          timeout=timeout, cwd=d)


def data_of(path):
    with open(path) as f:
        text = f.read()
    m = re.search(r'<script type="application/json" id="lg-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1))


def sweep(name, *extra):
    target = os.path.join(d, "t")
    os.makedirs(target, exist_ok=True)
    p = loadgen("-D", target, "-q", "-t", "1", "--interval", "0.5", "--warmup", "0",
                "--repeat", "2", "--json", name, *extra, ",".join(map(str, COUNTS)))
    check(p.returncode == 0, f"a sweep {COUNTS} with --repeat 2 ({name})", p)
    with open(os.path.join(d, name)) as fh:
        return json.load(fh)


def at_count(doc, c):
    return [r for r in doc["runs"] if r["client_count"] == c]


def mean(xs):
    return sum(xs) / len(xs)


def per_client(doc, c):
    """Client id -> mean MB/s over the runs at count c."""
    by = {}
    for r in at_count(doc, c):
        for k, cl in enumerate(r["clients"]):
            by.setdefault(cl.get("id", k), []).append(cl["throughput_mbps"])
    return {i: mean(v) for i, v in by.items()}


def cpu_means(doc, c, key):
    """The mean of cpu.<key>_pct over the runs at count c, per moment (interval 0.5 s):
    [(t, value)]."""
    bins = {}
    for r in at_count(doc, c):
        for e in r["timeline"]:
            v = ((e.get("sys") or {}).get("gauges") or {}).get(f"cpu.{key}_pct")
            b = bins.setdefault(round(e["t_s"] / 0.5), [[], []])
            b[0].append(e["t_s"])
            if isinstance(v, (int, float)):
                b[1].append(v)
    return [(mean(b[0]), mean(b[1]) if b[1] else None) for _, b in sorted(bins.items())]


def close(a, b):
    return a is None and b is None or (a is not None and b is not None and
                                       abs(a - b) <= 1e-6 * max(1.0, abs(b)))


def drawable(p):
    """A point Chart.js draws: a number, a floating bar [lo, hi], or [x, y] / [x, [lo, hi]]
    as the page's status gives {x, y} points."""
    num = lambda v: isinstance(v, (int, float))
    if num(p):
        return True
    if isinstance(p, list) and len(p) == 2:
        return (num(p[0]) or isinstance(p[0], str)) and (num(p[1]) or (
            isinstance(p[1], list) and all(map(num, p[1])))) if not all(map(num, p)) else True
    return False


def check_legends(name, page):
    for c in page.status["charts"]:
        lg = c.get("legend")
        if not lg:
            continue
        bad = [it for it in lg["items"] if it[0] < 0 or it[1] > lg["width"]]
        check(not bad, f"{name}: chart {c['id']}: every legend item inside the chart's "
              f"{lg['width']} px (outside: {bad}, labels {c['labels']})")


def check_page(name, path, files, shot):
    """files: [(file name, its result)] as given to loadgen report."""
    page = rb.load(path, screenshot=os.path.join(shots, shot), sized=True)
    check(page.status is not None and page.status["errors"] == [],
          f"{name}: drawn without errors", page.stderr[-2000:])
    charts = page.charts()
    data = data_of(path)
    # per client: the data, a group per count, each the mean over that count's runs
    for (fname, doc), f in zip(files, data["files"]):
        for g in f["groups"]:
            want = per_client(doc, g["clients"])
            pc = g["per_client"]
            got = dict(zip(pc["id"], pc["mbps"]))
            check(len(got) == g["clients"] and all(close(got[i], want[i]) for i in want),
                  f"{name}: {fname} at {g['clients']} clients: per-client MB/s {got} = the "
                  f"mean of that count's runs {want}")
            check(pc["jain"] == [r["fairness"]["jain_index"] for r in at_count(doc, g["clients"])],
                  f"{name}: {fname} at {g['clients']} clients: the Jain index of each of its runs")
    # ... and drawn: a bar series per file and count, the values sorted
    c = charts["clients"]
    want_labels = [f"{fn}, {k} client{'s' if k > 1 else ''}" for fn, _ in files for k in COUNTS]
    check(c["labels"] == want_labels, f"{name}: per-client bars per file and count: {c['labels']}")
    for lb, bars, (fname, doc) in zip(c["labels"], c["data"],
                                       [x for x in files for _ in COUNTS]):
        k = int(lb.split(", ")[1].split()[0])
        want = sorted(per_client(doc, k).values(), reverse=True)
        check(len(bars) == k and all(close(a, b) for a, b in zip(bars, want)),
              f"{name}: {lb}: bars {bars} = {want}")
    # CPU over time: a chart per file and count, each figure the mean of that count's runs
    sys_charts = sorted((cid for cid in charts if cid.startswith("sys-")),
                        key=lambda x: int(x[4:]))
    check(len(sys_charts) == len(files) * len(COUNTS),
          f"{name}: a CPU chart per file and count: {sys_charts}")
    figs = page.figures()
    for cid, (fname, doc, k) in zip(sys_charts, [(fn, doc, k) for fn, doc in files
                                                  for k in COUNTS]):
        cap = re.search(r"<figcaption>(.*?)</figcaption>", figs[cid]).group(1)
        check(cap == f"CPU over time: {fname}, {k} client{'s' if k > 1 else ''} (mean of 2 runs)",
              f"{name}: {cid} caption '{cap}'")
        c = charts[cid]
        for key in ("user", "system"):
            drawn = c["data"][c["labels"].index(key)]
            want = [(t, v) for t, v in cpu_means(doc, k, key) if v is not None]
            check(len(drawn) == len(want) and all(close(x, wx) and close(y, wy)
                                                  for (x, y), (wx, wy) in zip(drawn, want)),
                  f"{name}: {cid} {key}: the mean of the runs at {k} clients {drawn} = {want}")
    check_legends(name, page)
    for c in page.status["charts"]:
        empty = [lb for lb, pts in zip(c["labels"], c["data"]) if not any(map(drawable, pts))]
        check(not empty, f"{name}: chart {c['id']}: every dataset in the legend is drawn "
              f"(nothing to draw: {empty})")
    print(f"{name}: the first chart begins {page.status['first_chart_top']} px down")
    return page


a = sweep("sw.json")
b = sweep("sw16.json", "-p", "bs=16KiB")
p = loadgen("report", "sw.json", "-o", "sw.html")
check(p.returncode == 0, "loadgen report sw.json", p)
check_page("sweep", os.path.join(d, "sw.html"), [("sw.json", a)], "report_sweep_alone.png")
p = loadgen("report", "sw.json", "sw16.json", "-o", "swcmp.html")
check(p.returncode == 0, "loadgen report sw.json sw16.json", p)
cmp_page = check_page("two sweeps", os.path.join(d, "swcmp.html"),
                      [("sw.json", a), ("sw16.json", b)], "report_sweep_cmp.png")
print("screenshots in", shots)

# the setup differences of two sweeps are the files': one box, not one per client count
boxes = re.findall(r'<div class="diffs">(.*?)</div>', cmp_page.dom, re.S)
check(len(boxes) == 1 and "workload.params.bs" in boxes[0],
      f"two sweeps: one setup-differences box for the four counts ({len(boxes)})")
check(len(re.findall(r'data-verdict="', cmp_page.dom)) == len(COUNTS),
      "two sweeps: a verdict per client count")
check(re.search(r">sw16.json against sw.json at 1 client<", cmp_page.dom),
      "two sweeps: '1 client', not '1 clients'")

# a 95 % interval reaching below 0 (as two runs that vary much give): drawn from 0, said
neg = json.loads(json.dumps(a))
by = neg["summary"]["by_clients"]
for i, e in enumerate(by):  # only the interval at 2 clients reaches below 0
    t = e["throughput_mbps"]
    t["ci95"] = [-t["mean"] if i == 1 else 0.9 * t["mean"], 1.1 * t["mean"]]
m = by[1]["throughput_mbps"]
with open(os.path.join(d, "neg.json"), "w") as fh:
    json.dump(neg, fh)
p = loadgen("report", "neg.json", "-o", "neg.html")
check(p.returncode == 0, "report of a sweep whose interval at 2 clients reaches below 0", p)
page = rb.load(os.path.join(d, "neg.html"), screenshot=os.path.join(shots, "report_sweep_neg.png"),
               sized=True)
sw = page.charts()["sweep"]
ys = [y for pts in sw["data"] for _, y in pts]
check(min(ys) == 0 and all(y >= 0 for y in ys),
      f"interval below 0: the sweep chart draws nothing below 0 (lowest {min(ys)})")
low = sw["data"][sw["labels"].index("neg.json 95 % CI low")]
check([x for x, y in low if y == 0] == [by[1]["clients"]],
      f"interval below 0: drawn from 0 at {by[1]['clients']} clients only: {low}")
note = re.search(r'<p class="note clipped">(.*?)</p>', page.dom, re.S)
check(note is not None and "drawn from 0" in note.group(1) and "2 (neg.json)" in note.group(1),
      f"interval below 0: the page says it is drawn from 0 ({note and note.group(1)})")
check(f"{m['ci95'][0]:.2f} \u2026 " in page.text,
      f"interval below 0: the table keeps the interval as computed ({m['ci95'][0]:.2f})")
print("screenshots in", shots)
