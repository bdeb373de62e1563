"""The history trend page in a real browser (headless Chromium, network off), drawn from
the hand-made trends of tests/data/trend_*.json.

`loadgen history` is not what writes these pages here: the unit test test_report_trend
writes the fixtures' pages through lg_report_html_trend_write when LG_TREND_PAGES names a
directory, and this test opens them (its path comes from CTest as LG_TREND_PAGE_WRITER;
by hand, it is looked for in the build directory beside the loadgen binary).

For each page: no script error, no console message, nothing requested; one chart per
series, drawn; each change point's caption in the DOM and its vertical line drawn
between the last result before it and its first; text from the data (labels, workload,
host, mount options with HTML in them) shown as text, never as markup; a series of one
result and a history of no series said in words. A screenshot of the two-series page is
written (trend.png, see report_browser.shots_dir)."""
import json
import os
import re
import subprocess

import report_browser as rb
from lgtest import LOADGEN, SOURCE, check, tmpdir

rb.chromium()  # SKIP early when there is no browser
d = tmpdir()
shots = rb.shots_dir()

writer = os.environ.get("LG_TREND_PAGE_WRITER") or \
    os.path.join(os.path.dirname(LOADGEN), "tests", "test_report_trend")
check(os.access(writer, os.X_OK), f"the page writer {writer} is there")
proc = subprocess.run([writer], env=dict(os.environ, LG_TREND_PAGES=d), capture_output=True,
                      text=True, timeout=120)
check(proc.returncode == 0, "the unit test wrote the fixtures' pages", proc.stdout + proc.stderr)


def fixture(name):
    with open(os.path.join(SOURCE, "tests", "data", f"trend_{name}.json")) as f:
        return json.load(f)


def open_page(name, shot=None):
    path = os.path.join(d, f"trend_{name}.html")
    with open(path) as f:
        text = f.read()
    check(rb.static_offline(text) == [], f"{name}: nothing in the HTML fetches anything")
    page = rb.load(path, screenshot=shot, width=1280, height=1800 if shot else 3000,
                   sized=True)
    check(page.status is not None, f"{name}: the page drew and wrote its status",
          page.stderr[-3000:])
    st = page.status
    check(st["errors"] == [], f"{name}: no errors in the page: {st['errors']}")
    check(page.console == [], f"{name}: no console messages: {page.console[:5]}")
    check(st["resources"] == 0, f"{name}: no resource was requested")
    return page


def caption(cp):
    """The caption the page must show, from the fixture's numbers."""
    def signed(v):
        return ("\u2212" if v < 0 else "+" if v > 0 else "") + f"{abs(v):.1f}"
    lo, hi = cp["ci_pct"]
    return (f"{cp['label']}: {signed(cp['change_pct'])} % (95 % CI "
            f"{signed(lo).lstrip('+')}\u2026{signed(hi).lstrip('+')} %), p {cp['p']:g}")


# --- two series: change point, busy results, HTML in names, a drift ---
trend = fixture("kernels")
shot = os.path.join(shots, "trend.png")
page = open_page("kernels", shot)
st = page.status
check(st["series"] == 2 and len(st["charts"]) == 2, f"one chart per series ({st['charts']})")
for c, s in zip(st["charts"], trend["series"]):
    check(c["points"] == len(s["points"]) and c["painted"] > 0,
          f"{c['id']}: {c['points']} results drawn, {c['painted']} px painted")
check(len(re.findall(r"<canvas\b", page.dom)) == 2, "two canvases in the DOM")
cps = trend["series"][0]["change_points"]
for cp in cps:
    text = caption(cp)
    check(text in page.text, f"the change point's caption is in the page: {text!r}")
drawn = st["changes"]
check(len(drawn) == len(cps), f"every change point drawn ({drawn})")
for cp, dr in zip(cps, drawn):
    check(dr["index"] == cp["index"] and dr["label"] == cp["label"],
          f"change point at index {cp['index']} ({cp['label']}) drawn as {dr}")
    check(dr["left"] < dr["x"] < dr["right"],
          f"its line is between the last result before it and its first ({dr})")
# the fixture's label with HTML special characters, its workload and host: text only
check('6.4<rc2>&co "x"' in page.text, "a label with < & \" is shown as text")
check("web<server> & \"db\"" in page.text and "<b>bold</b>" in page.text,
      "the workload and host with HTML in them are shown as text")
check(not re.search(r"<(b|img|server)\b", page.dom.split('id="lg-data"')[0] +
                    page.dom.split("</main>")[0]),
      "no element was made from the data (no <b>, <img>, <server>)")
check("<img src=x" not in page.dom.replace("&lt;img src=x", ""),
      "the mount options' <img> stayed text")
check("drift" in page.text and "\u22122.1 %" in page.text,
      "the second series' significant trend is called a drift")
check("busy" in page.text and "something else was busy" in page.text,
      "busy results are said and in the legend")
tips = st["tooltips"]
busy = next(i for i, p in enumerate(trend["series"][0]["points"]) if p["busy"])
check(len(tips) == 1 and tips[0]["index"] == busy and
      any(trend["series"][0]["points"][busy]["busy"] in line for line in tips[0]["lines"]),
      f"the busy result's tooltip holds its note ({tips})")
check("No change point" in page.text, "a series without change points says so")
check(os.path.getsize(shot) > 10000, f"screenshot written to {shot}")

# --- one result ---
page = open_page("one")
st = page.status
check(len(st["charts"]) == 1 and st["charts"][0]["points"] == 1 and
      st["charts"][0]["painted"] > 0, f"a series of one result is drawn ({st['charts']})")
check("One result" in page.text and "too few results" in page.text,
      "one result: no change point, no trend, said in words")

# --- no series ---
page = open_page("empty")
st = page.status
check(st["series"] == 0 and st["charts"] == [], "no series: no chart")
check("No results" in page.text, "no series: a clear 'No results' message")
print("ok: trend pages drawn; screenshot", shot)
