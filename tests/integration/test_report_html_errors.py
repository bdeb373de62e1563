"""loadgen report without a browser: bad input exits 2 naming the file and why, the
output is written atomically and is self-contained, optional keys of newer results
(summary.by_clients, hosts[], the timeline's sys) reach the page's data object, and
--html refuses an unwritable destination before the run starts."""
import json
import os
import re
import subprocess

from lgtest import LOADGEN, check, run, tmpdir, write

d = tmpdir()


def report(*args):
    return subprocess.run([LOADGEN, "report"] + list(args), capture_output=True, text=True,
                          timeout=60, cwd=d)


def show(p):
    return f"rc={p.returncode}\nstdout:\n{p.stdout[:500]}\nstderr:\n{p.stderr}"


def data_of(text):
    m = re.search(r'<script type="application/json" id="lg-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1))


r = run(["-q", "-t", "1", "--warmup", "0.2", "--repeat", "2", "-D", d, "2"], workdir=d)
check(r.rc == 0 and r.json, "a real result to work with", r)
good = os.path.join(d, "result.json")
doc = r.json

# --- usage ---
p = report()
check(p.returncode == 2 and "need at least one result file" in p.stderr, "no file: exit 2", p)
p = report("--bogus", good)
check(p.returncode == 2 and "--bogus" in p.stderr, "unknown option: exit 2", p)
p = report("-h")
check(p.returncode == 0 and "Usage: loadgen report" in p.stdout, "--help", p)

# --- broken and foreign files: exit 2, the file's name and why ---
cases = {
    "missing.json": (None, "missing.json: No such file or directory"),
    "syntax.json": ('{"schema": "loadgen-result/1",\n  "runs": [}', "syntax.json:2:"),
    "foreign.json": ('{"name": "fio", "jobs": []}', 'foreign.json: no "schema"'),
    "schema.json": ('{"schema": "fio/3", "runs": []}', 'unknown schema "fio/3"'),
    "empty.json": ('{"schema": "loadgen-result/1", "runs": []}', '"runs" is empty'),
}
bad = json.loads(json.dumps(doc))
t = next(iter(bad["runs"][1]["ops_by_type"].values()))
t["histogram"][0] = [1000, 1000, 3]
cases["bucket.json"] = (json.dumps(bad), "runs[1].ops_by_type.")
for name, (text, want) in cases.items():
    if text is not None:
        write(os.path.join(d, name), text)
    out = os.path.join(d, name + ".html")
    p = report(good, name, "-o", out)
    check(p.returncode == 2 and want in p.stderr and name in p.stderr,
          f"{name}: exit 2 with '{want}'", p)
    check(not os.path.exists(out), f"{name}: no page written")
p = report("bucket.json", "-o", "b.html")
check("is not a bucket of loadgen's histogram layout" in p.stderr, "bucket: says why", p)
p = report(d, "-o", "dir.html")
check(p.returncode == 2 and "Is a directory" in p.stderr, "a directory: exit 2", p)

# --- output ---
p = report(good, "-o", os.path.join(d, "nodir", "x.html"))
check(p.returncode == 2 and "nodir" in p.stderr and "No such file" in p.stderr,
      "unwritable output: exit 2 naming it", p)
p = report(good)
check(p.returncode == 0 and p.stdout.startswith("<!DOCTYPE html>") and
      p.stdout.rstrip().endswith("</html>"), "no -o: the page on stdout", p)
page = p.stdout
check(not re.search(r"<(script|link|img|iframe)\b[^>]*\b(src|href)=", page, re.I),
      "self-contained: no src/href attributes")
check("default-src 'none'" in page, "a CSP that forbids every fetch")
check("Chart.js v" in page, "Chart.js is inlined")
p = report(good, "-o", "out.html")
check(p.returncode == 0 and oct(os.stat(os.path.join(d, "out.html")).st_mode & 0o777) != "0o600"
      and not [f for f in os.listdir(d) if f.startswith(".loadgen-report")],
      "-o: written atomically with normal permissions, no temporary left", p)

# a label that tries to close the data block stays inside it
odd = json.loads(json.dumps(doc))
odd["workload"]["name"] = "<!--<script></script><script>alert(1)</script>"
write(os.path.join(d, "odd.json"), json.dumps(odd))
p = report("odd.json")
block = re.search(r'id="lg-data">(.*?)</script>', p.stdout, re.S).group(1)
check(p.returncode == 0 and "<" not in block and
      data_of(p.stdout)["files"][0]["header"]["workload"]["name"] == odd["workload"]["name"],
      "a hostile name cannot close the data block", p)

# --- keys of newer results are passed to the page when present ---
new = json.loads(json.dumps(doc))
new["summary"]["by_clients"] = [
    {"clients": c, "throughput_mbps": {"mean": 10.0 * c, "ci95": [9.0 * c, 11.0 * c]}}
    for c in (1, 2, 4)]
new["hosts"] = [{"host": "a", "throughput_mbps": 5.0}, {"host": "b", "throughput_mbps": 7.0}]
for e in new["runs"][0]["timeline"]:
    e["sys"] = {"cpu": {"user": 10.0, "system": 5.0, "iowait": 1.0}}
for e in new["runs"][1]["timeline"]:
    e.pop("sys", None)
write(os.path.join(d, "new.json"), json.dumps(new))
p = report("new.json")
f = data_of(p.stdout)["files"][0]
check(p.returncode == 0 and len(f["by_clients"]) == 3 and len(f["hosts"]) == 2 and
      f["runs"][0]["series"]["sys"][0]["cpu"]["user"] == 10.0 and
      "sys" not in f["runs"][1]["series"], "by_clients, hosts and sys reach the page", p)
p = report("result.json")
f = data_of(p.stdout)["files"][0]
check("by_clients" not in f and "hosts" not in f, "and are absent when the result has none")

# --- --html before the run: an unwritable destination refuses to start ---
r = run(["-q", "-t", "1", "-D", d, "--html", os.path.join(d, "nodir", "r.html"), "1"],
        workdir=d, json_out=False)
check(r.rc == 2 and "--html" in r.err and "nodir" in r.err, "--html to a missing dir: exit 2",
      r)

# --- --html alone (no --json): the page of the run, named "this run" ---
r = run(["-q", "-t", "0.5", "--warmup", "0", "-D", d, "--html", os.path.join(d, "alone.html"),
         "1"], workdir=d, json_out=False)
with open(os.path.join(d, "alone.html")) as fh:
    f = data_of(fh.read())["files"][0]
check(r.rc == 0 and f["name"] == "this run" and f["nruns"] == 1 and f["groups"][0]["latency"],
      "--html without --json writes the run's page", r)
