"""loadgen report of runs that measured nothing, made by the real binary: a run stopped
by SIGINT in its warm-up, and a setup that hits ENOSPC on a 1 MiB tmpfs mounted inside
the test's directory (root only). Their pages (from `loadgen report` and from the run's
own --html) say what went wrong — status, failure, phases, unexpected results, kernel
messages, system counters, environment — and draw no measurement chart; compared with
a run that measured, the charts are of that run and the comparison says why it cannot
be made. Skips (77) without chromium; the ENOSPC part skips when not root or when tmpfs
cannot be mounted, after the other checks passed."""
import atexit
import json
import os
import re
import signal
import subprocess
import time

import report_browser as rb
from lgtest import LOADGEN, check, skip, tmpdir, write

rb.chromium()  # SKIP early when there is no browser
d = tmpdir()
shots = rb.shots_dir()

FILL = """\
name: fill
setup:
  - create: {path: "big${client}", as: f, flags: [write, truncate]}
  - write: {file: f, size: 64KiB, count: 64}
  - close: f
run:
  - stat: {path: "big${client}"}
cleanup:
  - unlink: {path: "big${client}", expect: any}
"""


def loadgen(*args, timeout=180):
    return subprocess.run([LOADGEN] + list(args), capture_output=True, text=True,
                          timeout=timeout, cwd=d)


def data_of(path):
    with open(path) as f:
        text = f.read()
    m = re.search(r'<script type="application/json" id="lg-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1))


def check_failed_page(name, html, doc, status, words):
    """The page of a result that measured nothing: its run's section, the environment,
    no chart, no error."""
    data = data_of(html)
    f = data["files"][0]
    run = doc["runs"][0]
    check(f["measured"] is False and [u["status"] for u in f["unmeasured"]] == [status],
          f"{name}: the data has the run that measured nothing ({status})")
    u = f["unmeasured"][0]
    for key in ("failure", "phases", "kernel_messages", "vmstat_diff", "client_count"):
        check(u.get(key) == run.get(key), f"{name}: the run's {key} as the result holds it")
    check(f["header"]["env"] == doc["env"], f"{name}: the environment as the result holds it")
    page = rb.load(html, screenshot=os.path.join(shots, f"report_{name}.png"))
    st = page.status
    check(st is not None and st["errors"] == [] and page.console == [],
          f"{name}: drawn without errors", page.stderr[-2000:])
    check(st["charts"] == [], f"{name}: no measurement chart ({[c['id'] for c in st['charts']]})")
    check(st["unmeasured"] == [{"file": f["name"], "status": status}],
          f"{name}: a section for the run: {st['unmeasured']}")
    sec = re.search(r'<section class="unmeasured".*?</section>', page.dom, re.S).group(0)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", sec))
    for w in words + ["Phases", "Kernel messages", "System counters"]:
        check(w in text, f"{name}: the run's section says '{w}'")
    for key in ("hostname", "kernel", "fs_type"):
        check(f">{doc['env'][key]}<" in page.dom, f"{name}: environment {key} shown")
    return page


# --- SIGINT in the warm-up: a 60 s warm-up stopped after 2 s (in setup on a very slow
# machine: a run stopped before measuring either way) ---
target = os.path.join(d, "t")
os.makedirs(target)
intr = os.path.join(d, "intr.json")
proc = subprocess.Popen([LOADGEN, "-D", target, "-t", "5", "--warmup", "60", "--json", intr,
                         "--html", os.path.join(d, "intr_run.html"), "2"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=d)
time.sleep(2)
proc.send_signal(signal.SIGINT)
out, err = proc.communicate(timeout=120)
check(proc.returncode == 130 and os.path.exists(intr),
      f"SIGINT in the warm-up: exit 130 and a result (rc {proc.returncode})", err[-2000:])
with open(intr) as fh:
    idoc = json.load(fh)
check(idoc["runs"][0]["status"] == "interrupted" and idoc["runs"][0]["duration_s"] == 0,
      "the result: interrupted, nothing measured")
p = loadgen("report", "intr.json", "-o", "intr.html")
check(p.returncode == 0 and p.stderr == "",
      f"loadgen report of a run interrupted in warm-up: a page (rc {p.returncode})", p.stderr)
check_failed_page("interrupted", os.path.join(d, "intr.html"), idoc, "interrupted",
                  ["run 1, 2 clients: interrupted", "before its measured phase began"])
check_failed_page("interrupted_run_html", os.path.join(d, "intr_run.html"), idoc,
                  "interrupted", ["interrupted"])

# --- a run that measured, with the interrupted one: charts of the first, no verdict ---
ok_json = os.path.join(d, "ok.json")
p = loadgen("-D", target, "-q", "-t", "1", "--warmup", "0", "--json", ok_json, "1")
check(p.returncode == 0, "a short run that measures", p)
for inputs, why in ((["ok.json", "intr.json"], "it measured nothing"),
                    (["intr.json", "ok.json"], "the baseline measured nothing")):
    html = os.path.join(d, "mixed.html")
    p = loadgen("report", *inputs, "-o", html)
    check(p.returncode == 0, f"loadgen report {inputs}", p)
    data = data_of(html)
    check([c.get("skipped") for c in data["comparisons"]] == [why],
          f"{inputs}: not compared: {why}")
    page = rb.load(html)
    st = page.status
    check(st["errors"] == [] and st["unmeasured"] == [{"file": "intr.json",
                                                       "status": "interrupted"}],
          f"{inputs}: drawn without errors, the interrupted run said", st["errors"])
    ids = {c["id"] for c in st["charts"]}
    check({"time-mbps", "latency-0"} <= ids and all(
        lb == "ok.json" for c in st["charts"] if c["id"] == "time-mbps" for lb in c["labels"]),
        f"{inputs}: the charts are of ok.json ({sorted(ids)})")
    check(f"Not compared: {why}." in page.text, f"{inputs}: the page says why not compared")

# --- ENOSPC in setup: a 1 MiB tmpfs inside the test's directory ---
mnt = os.path.join(d, "mnt")
os.makedirs(mnt)
mounted = os.geteuid() == 0 and subprocess.run(
    ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt], capture_output=True).returncode == 0
if mounted:
    atexit.register(lambda: subprocess.run(["umount", "-l", mnt], capture_output=True))
    wl = write(os.path.join(d, "fill.yaml"), FILL)
    full = os.path.join(d, "full.json")
    # --no-space-check: the free-space check would refuse this run before it starts
    p = loadgen("--no-space-check", "-D", mnt, "-c", wl, "-t", "2", "--warmup", "0",
                "--json", full,
                "--html", os.path.join(d, "full_run.html"), "1")
    check(p.returncode == 1 and os.path.exists(full), "setup hits ENOSPC: exit 1, a result", p)
    with open(full) as fh:
        fdoc = json.load(fh)
    check(fdoc["runs"][0]["status"] == "failed" and
          fdoc["runs"][0]["failure"]["errno"] == "ENOSPC",
          f"the result: failed with ENOSPC in setup ({fdoc['runs'][0]['failure']})")
    p = loadgen("report", "full.json", "-o", "full.html")
    check(p.returncode == 0 and p.stderr == "",
          f"loadgen report of a run whose setup failed: a page (rc {p.returncode})", p.stderr)
    for html in ("full.html", "full_run.html"):
        page = check_failed_page("enospc" if html == "full.html" else "enospc_run_html",
                                 os.path.join(d, html), fdoc, "failed",
                                 ["run 1, 1 client: failed", "is full", "(phase setup, ENOSPC)",
                                  "ENOSPC 1"])
        row = re.search(r"<td[^>]*>setup</td><td[^>]*>client 0</td><td[^>]*>line 4</td>"
                        r"<td[^>]*>write</td><td[^>]*>big0</td><td[^>]*>ENOSPC</td>", page.dom)
        check(row is not None, f"{html}: the unexpected result: setup, client 0, line 4, "
              "write big0 ENOSPC")
    check('>tmpfs<' in page.dom, "the environment shows the tmpfs")
else:
    skip("not root, or tmpfs cannot be mounted: the ENOSPC page")
print("screenshots in", shots)
