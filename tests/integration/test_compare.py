"""loadgen compare: verdicts, --min-effect, --fail-if-slower, --json, setup differences,
merged latency histograms, `*` on every significant cell of a sweep's tables, and clear
errors (exit 2 with the file name) for bad files.

Result files are built by hand with known per-run values, so every expected number
below can be worked out on paper. A last check compares two real runs."""
import json
import os
import re
import shutil
import subprocess

from lgtest import LOADGEN, check, run, tmpdir, write

d = tmpdir()


def result(mbps, ops=None, env=None, hist=None, workload=None, config=None, **extra):
    """A loadgen-result/1 document with one run per value of mbps."""
    ops = ops if ops is not None else [10 * x for x in mbps]
    runs = []
    for i, (m, o) in enumerate(zip(mbps, ops)):
        h = hist[i] if hist else [[1000, 1000, 3], [2000, 2015, 1]]
        lat = {"min": h[0][0], "p50": h[0][0], "p99": h[-1][0], "max": h[-1][1]}
        runs.append({"status": "complete", "throughput_mbps": m, "ops_per_s": o,
                     "ops_by_type": {"read": {"count": sum(b[2] for b in h),
                                              "latency_ns": lat, "histogram": h}}})
    doc = {"schema": "loadgen-result/1", "loadgen": {"version": "0.1.0"},
           "env": env or {"kernel": "6.1.0", "hostname": "box", "fs_type": "ext4",
                          "start_time": "2024-01-01T00:00:00Z"},
           "workload": workload or {"name": "w", "sha256": "aa", "params": {"size": "4k"}},
           "config": config or {"clients": 4, "time_s": 10.0},
           "runs": runs}
    doc.update(extra)
    return doc


def save(name, doc):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        if isinstance(doc, str):
            f.write(doc)
        else:
            json.dump(doc, f)
    return path


def compare(*args):
    proc = subprocess.run([LOADGEN, "compare"] + list(args), capture_output=True,
                          text=True, timeout=60)
    proc.rc = proc.returncode
    proc.out = proc.stdout
    proc.err = proc.stderr
    return proc


def show(p):
    return f"rc={p.rc}\nstdout:\n{p.out}\nstderr:\n{p.err}"


base = save("base.json", result([100, 101, 99, 100]))
half = save("half.json", result([50, 51, 49, 50],
                                env={"kernel": "6.6.0", "hostname": "box", "fs_type": "xfs",
                                     "start_time": "2024-02-02T00:00:00Z"}))
same = save("same.json", result([100.5, 99.5, 100, 101, 99]))
fast = save("fast.json", result([110, 111, 109, 110]))
small = save("small.json", result([97, 98, 96, 97]))
single = save("single.json", result([90]))

# Clearly lower: slower, with the setup differences listed first.
p = compare(base, half)
check(p.rc == 0, "compare exits 0", show(p))
check(re.search(r"Verdict: slower \(decided on MB/s: -50\.0 %", p.out) is not None,
      "half the throughput is 'slower', decided on MB/s, -50.0 %", show(p))
check("env.kernel: 6.1.0 \u2192 6.6.0" in p.out and "env.fs_type: ext4 \u2192 xfs" in p.out,
      "kernel and fs_type differences shown", show(p))
check(p.out.index("env.kernel") < p.out.index("Verdict"), "differences come first", show(p))
check("start_time" not in p.out, "volatile keys (start time) are not listed", show(p))
# 95 % CI half-width of {100,101,99,100}: t(0.975,3) * s / sqrt(4) = 3.1824 * 0.8165 / 2
check("100.00 \u00b1 1.30" in p.out, "mean \u00b1 95 % CI half-width", show(p))

p = compare(base, same)
check(p.rc == 0 and "Verdict: no significant difference" in p.out,
      "noise-level change is 'no significant difference'", show(p))
check("Setup differences:\n    no differences" in p.out, "'no differences' when none",
      show(p))

p = compare(base, fast)
check("Verdict: faster" in p.out, "10 % more is 'faster'", show(p))

# --min-effect: -3 % is significant, but below 5 % it is not worth calling.
p = compare(base, small)
check("Verdict: slower" in p.out, "-3 % is significant", show(p))
p = compare("--min-effect", "5", base, small)
check(re.search(r"Verdict: significant, but smaller than --min-effect \(3\.\d % < 5 %\)",
                p.out) and "no significant difference" not in p.out,
      "--min-effect 5: a significant -3 % change is called so, with both figures", show(p))
p = compare("--json", "--min-effect", "60", base, small)
check(json.loads(p.out)["comparisons"][0]["verdict"] ==
      "significant, but smaller than --min-effect", "--min-effect verdict in JSON", p.out)
p = compare("--min-effect", "2%", base, small)
check("Verdict: slower" in p.out, "--min-effect 2% keeps it", show(p))

# n < 2: no verdict, and a hint to use --repeat.
p = compare(base, single)
check(p.rc == 0 and "no verdict possible" in p.out and "--repeat" in p.out,
      "one run: no verdict, suggests --repeat", show(p))

# --fail-if-slower: exit 3 only when significantly slower by more than PCT.
p = compare("--fail-if-slower", "5", base, half)
check(p.rc == 3 and "half.json" in p.err, "--fail-if-slower 5 exits 3 at -50 %", show(p))
p = compare("--fail-if-slower", "5", base, small)
check(p.rc == 0, "--fail-if-slower 5 passes at -3 %", show(p))
p = compare("--fail-if-slower", "5", base, single)
check(p.rc == 5 and "cannot tell" in p.err,
      "--fail-if-slower cannot tell without a verdict: exit 5, not a pass", show(p))
p = compare("--fail-if-slower", "5", base, fast, half)
check(p.rc == 3 and re.search(r"fast\.json at 4 clients: faster", p.out) and
      re.search(r"half\.json at 4 clients: slower", p.out),
      "several files: a verdict line each, any slower one trips", show(p))
check(re.search(r"^MB/s: mean", p.out, re.M) and "6.6.0" in p.out,
      "several files: one table per metric, kernels as column headings", show(p))

# --json: one document on stdout, with the p-value.
p = compare("--json", "--fail-if-slower", "5", base, half, same)
check(p.rc == 3, "--json keeps the exit status", show(p))
j = json.loads(p.out)
check(j["schema"] == "loadgen-compare/1" and j["baseline"]["file"] == base,
      "--json output parses, names the baseline")
c0, c1 = j["comparisons"]
check(c0["verdict"] == "slower" and c1["verdict"] == "no significant difference",
      "verdicts in JSON", p.out)
check(c0["p_value"] is not None and 0 <= c0["p_value"] < 1e-4, "p-value in JSON", p.out)
check(0.05 < c1["p_value"] <= 1, "p-value of the noise-level file", p.out)
m = c0["metrics"]["throughput_mbps"]
check(m["baseline"]["values"] == [100, 101, 99, 100] and m["other"]["mean"] == 50,
      "per-run values and means", p.out)
check(abs(m["baseline"]["ci95"][1] - 101.299228) < 1e-5, "CI bound to 1e-5", p.out)
check(abs(c0["change_pct"] + 50) < 1e-9 and c0["decided_by"] == "throughput_mbps",
      "change and deciding metric", p.out)
check({"key": "env.kernel", "baseline": "6.1.0", "other": "6.6.0"}
      in c0["setup_differences"], "setup differences in JSON", p.out)
check(c0["slower_than_limit"] is True and c1["slower_than_limit"] is False,
      "which file tripped --fail-if-slower", p.out)

# Metadata-only workloads: 0 MB/s everywhere, so ops/s decides.
meta_a = save("meta_a.json", result([0, 0, 0], ops=[1000, 1010, 990]))
meta_b = save("meta_b.json", result([0, 0, 0], ops=[500, 505, 495]))
p = compare("--json", meta_a, meta_b)
c = json.loads(p.out)["comparisons"][0]
check(c["decided_by"] == "ops_per_s" and c["verdict"] == "slower",
      "0 MB/s in both: ops/s decides", p.out)
p = compare(meta_a, meta_b)
check("decided on ops/s" in p.out, "text says ops/s decided", show(p))

# Identical constant runs: p = 1; different constants: significant, with a note.
const_a = save("const_a.json", result([100, 100, 100]))
const_b = save("const_b.json", result([90, 90, 90]))
p = compare("--json", const_a, const_a)
check(json.loads(p.out)["comparisons"][0]["p_value"] == 1, "identical runs: p = 1", p.out)
p = compare(const_a, const_b)
check("Verdict: slower" in p.out and "zero variance" in p.out,
      "different constants: slower, with a note", show(p))

# Latency: per-run histograms merged bucket by bucket.
# Baseline runs: 3 at 1000 ns + 1 at ~2000, twice -> p50 1000, p99 midpoint 2007.
# Other: run 1 has 1 value at 1000 and 3 at 3000..3015; run 2 has 4 at 3000..3015.
# Merged: [1000,1000]:1, [3000,3015]:7 -> p50 = 3007, max = max of maxes = 5000.
lat_a = save("lat_a.json", result([100, 100]))
lat_b = save("lat_b.json", result([100, 100], hist=[[[1000, 1000, 1], [3000, 3015, 3]],
                                                    [[3000, 3015, 4]]]))
with open(lat_b) as f:
    doc = json.load(f)
doc["runs"][1]["ops_by_type"]["read"]["latency_ns"]["max"] = 5000
save("lat_b.json", doc)
p = compare("--json", lat_a, lat_b)
lat = json.loads(p.out)["comparisons"][0]["latency"]["read"]
check(lat["baseline"] == {"count": 8, "p50_ns": 1000, "p99_ns": 2007, "max_ns": 2015},
      "baseline latency from merged histograms", p.out)
check(lat["other"] == {"count": 8, "p50_ns": 3007, "p99_ns": 3007, "max_ns": 5000},
      "other latency: merged buckets, max of maxes", p.out)
p = compare(lat_a, lat_b)
check(re.search(r"read\s+0\.001\s+0\.003\s+\+200\.7 %", p.out) is not None,
      "latency row: p50 base, other, change", show(p))

# "No significant difference" always says how small a change the runs could see.
p = compare(base, same)
check("could only detect a change of" in p.out and "runs per side would detect 2 %" in p.out,
      "no difference comes with the minimum detectable effect", show(p))
p = compare("--json", base, same)
c = json.loads(p.out)["comparisons"][0]
m = c["metrics"]["throughput_mbps"]
check(c["mde_pct"] is not None and c["mde_pct"] > 0 and m["runs_needed"] >= 2 and
      m["rank_test"]["test"] == "mann-whitney-u" and m["effect_size_g"] is not None,
      "JSON: mde_pct, runs_needed, rank test, effect size", p.out)
check(c["by_clients"][0]["clients"] == 4 and c["by_clients"][0]["verdict"] == c["verdict"],
      "JSON: by_clients with the one client count, same keys at the top", p.out)


def sweep(name, factor, kernel):
    """Runs at 1, 2 and 4 clients, three each, throughput factor x 100 per client."""
    doc = result([factor * 100 * c + dv for c in (1, 2, 4) for dv in (-1, 0, 1)],
                 env={"kernel": kernel, "hostname": "box"})
    for r, c in zip(doc["runs"], [c for c in (1, 2, 4) for _ in range(3)]):
        r["client_count"] = c
    return save(name, doc)


s_a = sweep("sweep_a.json", 1.0, "6.1.0")
s_b = sweep("sweep_b.json", 1.0, "6.6.0")
s_c = sweep("sweep_c.json", 0.8, "6.7.0")
p = compare(s_a, s_b, s_c)
check(p.rc == 0 and re.search(r"^\s+4 +400\.00 ± [\d.]+ +400\.00 ± [\d.]+ \(\+0\.0 %\)",
                              p.out, re.M),
      "sweep: a row per client count, a column per file", show(p))
for clients in (1, 2, 4):
    check(re.search(r"sweep_c\.json at %d clients: slower" % clients, p.out) and
          re.search(r"sweep_b\.json at %d clients: no significant difference.*could detect"
                    % clients, p.out),
          "sweep: 80 %% rate is slower, the same rate not, at %d clients" % clients, show(p))
check(re.search(r"320\.00 ± [\d.]+ \(-20\.0 %\)\*", p.out), "significant cells marked *",
      show(p))
# `*` marks every significant cell, not only the metric that decided the verdict: MB/s
# the same in both (it decides: no significant difference), ops/s 10 % higher at every
# count (p < 0.001). With --min-effect 20 the 10 % is no longer marked.
def sweep_ops(name, ops_factor):
    doc = result([100 * c + dv for c in (1, 2, 4) for dv in (-1, 0, 1)],
                 ops=[ops_factor * 1000 * c + 5 * dv for c in (1, 2, 4) for dv in (-1, 0, 1)])
    for r, c in zip(doc["runs"], [c for c in (1, 2, 4) for _ in range(3)]):
        r["client_count"] = c
    return save(name, doc)


s_o1, s_o2 = sweep_ops("sweep_o1.json", 1.0), sweep_ops("sweep_o2.json", 1.1)
p = compare(s_o1, s_o2)
ops_table = p.out[p.out.index("ops/s: mean"):p.out.index("p99 latency")]
mb_table = p.out[p.out.index("MB/s: mean"):p.out.index("ops/s: mean")]
check(p.rc == 0 and len(re.findall(r"\(\+10\.0 %\)\*", ops_table)) == 3,
      "sweep: ops/s 10 % higher is marked * at every count, though MB/s decided", show(p))
check("*" not in mb_table and len(re.findall(r"no significant difference", p.out)) == 3,
      "sweep: the unchanged MB/s (the verdict) has no mark", show(p))
p = compare("--min-effect", "20", s_o1, s_o2)
check("*" not in p.out[p.out.index("ops/s: mean"):p.out.index("p99 latency")],
      "sweep: --min-effect 20: the significant +10 % ops/s is not marked", show(p))
# `?` too: ops/s 1..5 against 6..9 and one outlier of 1000 at each count: the rank test
# says different (exact p = 0.0079), Welch's does not (the outlier's variance).
def sweep_rank(name, ops):
    doc = result([100 * c + dv for c in (1, 2) for dv in (-2, -1, 0, 1, 2)],
                 ops=[x * c for c in (1, 2) for x in ops])
    for r, c in zip(doc["runs"], [c for c in (1, 2) for _ in range(5)]):
        r["client_count"] = c
    return save(name, doc)


p = compare(sweep_rank("sweep_r1.json", [1, 2, 3, 4, 5]),
            sweep_rank("sweep_r2.json", [6, 7, 8, 9, 1000]))
ops_table = p.out[p.out.index("ops/s: mean"):p.out.index("p99 latency")]
check(len(re.findall(r"\)\?\s*$", ops_table, re.M)) == 2 and "*" not in ops_table and
      "DISAGREES" not in p.out,
      "sweep: ops/s where only the rank test sees a change is marked ?, though MB/s decided",
      show(p))

p = compare("--json", "--fail-if-slower", "10", s_a, s_c)
c = json.loads(p.out)["comparisons"][0]
check(p.rc == 3 and [x["clients"] for x in c["by_clients"]] == [1, 2, 4] and
      all(x["slower_than_limit"] for x in c["by_clients"]) and "verdict" not in c,
      "sweep JSON: by_clients per count, --fail-if-slower per count", p.out)
check("at 4 clients" in p.err, "--fail-if-slower names the client count", show(p))

# Files that cannot be compared are left out with a message; exit 2 only when none can.
other_wl = save("other_wl.json", result([50, 51, 49], workload={"name": "dd", "sha256": "bb"}))
p = compare(base, other_wl, half)
check(p.rc == 0 and "other_wl.json: not compared" in p.err and "different workload" in p.err
      and "half.json at 4 clients: slower" in p.out,
      "a different workload is skipped, the rest compared", show(p))
p = compare(base, other_wl)
check(p.rc == 2 and "nothing to compare" in p.err, "nothing comparable: exit 2", show(p))
no_common = sweep("no_common.json", 1.0, "6.1.0")
with open(no_common) as f:
    doc = json.load(f)
for r in doc["runs"]:
    r["client_count"] *= 16
save("no_common.json", doc)
p = compare(s_a, no_common)
check(p.rc == 2 and "no client count in common" in p.err,
      "sweeps with no client count in common: exit 2", show(p))
eight = save("eight.json", result([100, 101, 99], config={"clients": 8, "time_s": 10.0}))
p = compare(base, eight)
check(p.rc == 0 and "config.clients: 4 \u2192 8" in p.out and "Verdict:" in p.out,
      "two single-count files at 4 and 8 clients: compared, the count a setup difference",
      show(p))

# Bad input: exit 2 with the file name (and line:column for JSON syntax errors).
broken = save("broken.json", '{"schema": "loadgen-result/1",\n  "runs": [1, 2,]\n}\n')
p = compare(base, broken)
check(p.rc == 2 and re.search(re.escape(broken) + r":2:\d+: ", p.err) is not None,
      "broken JSON: exit 2, FILE:LINE:COL: message", show(p))
check(p.out == "", "nothing on stdout for a broken file", show(p))
unknown = save("unknown.json", {"schema": "loadgen-result/99", "runs": []})
p = compare(unknown, base)
check(p.rc == 2 and unknown in p.err and "unknown schema" in p.err,
      "unknown schema: exit 2 with the file name", show(p))
noruns = save("noruns.json", {"schema": "loadgen-result/1", "env": {}})
p = compare(base, noruns)
check(p.rc == 2 and noruns in p.err and "runs" in p.err, "missing runs: exit 2", show(p))
empty = save("empty.json", {"schema": "loadgen-result/1", "runs": []})
p = compare(base, empty)
check(p.rc == 2 and empty in p.err and "empty" in p.err, "empty runs: exit 2", show(p))
badrun = result([1, 2])
badrun["runs"][1]["throughput_mbps"] = "fast"
badrun = save("badrun.json", badrun)
p = compare(base, badrun)
check(p.rc == 2 and badrun + ": runs[1].throughput_mbps" in p.err,
      "non-numeric throughput: exit 2 naming the value", show(p))
badhist = result([1, 2], hist=[[[1, 2, 3]], [[5, 4, 1]]])
badhist = save("badhist.json", badhist)
p = compare(base, badhist)
check(p.rc == 2 and "runs[1].ops_by_type.read.histogram[0]" in p.err,
      "malformed histogram bucket: exit 2 naming it", show(p))
missing = os.path.join(d, "missing.json")
p = compare(base, missing)
check(p.rc == 2 and missing + ": No such file" in p.err, "missing file: exit 2", show(p))
p = compare(base, d)
check(p.rc == 2 and "Is a directory" in p.err, "a directory: exit 2", show(p))
p = compare(base, save("array.json", "[1, 2]"))
check(p.rc == 2 and "not a loadgen result" in p.err, "a JSON array: exit 2", show(p))
p = compare(base, save("blank.json", ""))
check(p.rc == 2 and "blank.json:1:1: " in p.err, "an empty file: exit 2, at 1:1", show(p))
p = compare(broken, missing)
check(p.rc == 2 and "broken.json" in p.err and "missing.json" in p.err,
      "every bad file is reported", show(p))

# A run cut short still counts, with a warning on stderr.
cut = result([100, 101, 99])
cut["runs"][2]["status"] = "interrupted"
cut = save("cut.json", cut)
p = compare("--json", base, cut)
check(p.rc == 0 and 'runs[2] is "interrupted"' in p.err and json.loads(p.out),
      "interrupted run: warned on stderr, JSON intact", show(p))
# A run that failed in setup measured nothing: left out, and said (its 0 MB/s is no
# slowdown).
failed = result([100, 101, 99, 0])
failed["runs"][3]["status"] = "failed"
p = compare("--json", "--fail-if-slower", "5", base, save("failed.json", failed))
cmp_doc = json.loads(p.out) if p.out else {}
check(p.rc == 0 and "1 run measured nothing (failed in setup, or interrupted before "
      "measuring); left out" in p.err and cmp_doc["comparisons"][0]["runs"] == 3,
      "failed run: left out, said on stderr", show(p))

# Usage errors and --help.
for args, what in (([base], "one file"), ([], "no files"), (["--bogus", base, half], "bad option"),
                   (["--min-effect", "-1", base, half], "negative --min-effect"),
                   (["--fail-if-slower", "x", base, half], "bad --fail-if-slower"),
                   ([base, half, "--min-effect"], "missing value")):
    p = compare(*args)
    check(p.rc == 2 and "loadgen compare" in p.err, f"usage error ({what}) exits 2", show(p))
p = compare("--help")
check(p.rc == 0 and "Usage: loadgen compare" in p.out and "--fail-if-slower" in p.out,
      "--help", show(p))

# Two real runs of the same setup: compare reads loadgen's own files.
t = os.path.join(d, "target")
os.mkdir(t)
wl = write(os.path.join(d, "tiny.yaml"), "run:\n  - mkdir: d${client}\n  - rmdir: d${client}\n")
r1 = run(["-q", "-D", t, "-c", wl, "--run-once", "1"], workdir=tmpdir())
r2 = run(["-q", "-D", t, "-c", wl, "--run-once", "1"], workdir=tmpdir())
check(r1.rc == 0 and r2.rc == 0, "two real runs", r1)
f1 = save("real1.json", r1.json)
f2 = save("real2.json", r2.json)
p = compare("--json", f1, f2)
check(p.rc == 0, "real result files compare", show(p))
c = json.loads(p.out)["comparisons"][0]
check(c["verdict"] == "no verdict" and c["decided_by"] == "ops_per_s",
      "one run each: no verdict; 0 MB/s so ops/s", p.out)
lat = c["latency"]["mkdir"]["baseline"]
want = r1.json["runs"][0]["ops_by_type"]["mkdir"]["latency_ns"]
check(lat["p50_ns"] == want["p50"] and lat["p99_ns"] == want["p99"]
      and lat["max_ns"] == want["max"], "one run's histogram gives its own percentiles", p.out)
shutil.rmtree(d)
print("all compare checks passed")
