"""The documented list of JSON keys (docs/results.md, "Every key of the result") equals
the keys of a real result, in both directions: every key a result holds is documented,
every documented key (but those marked '?') is in the result. The same for a per-variant
file of `loadgen ab` (its `ab` keys) and for both schemas of `loadgen ab --json` (two
variants, three)."""
import itertools
import json
import os
import re
import shutil

from lgtest import check, doc_block, run, tmpdir, write

# objects keyed by names from data (labels, errno names, system counters)
DYNAMIC = {"params", "ops_by_type", "errors_by_errno", "counters", "gauges", "vmstat_diff"}


def expand(line):
    """'a.{x,y}.b' -> ['a.x.b', 'a.y.b'] (any number of brace groups, no nesting)."""
    parts = re.split(r"(\{[^}]*\})", line)
    choices = [p[1:-1].split(",") if p.startswith("{") else [p] for p in parts]
    return ["".join(c) for c in itertools.product(*choices)]


def documented(block="json-keys"):
    _, listed = doc_block(block)  # the page that holds the block (docs/results.md)
    keys, optional = set(), set()
    for line in listed.splitlines():
        line = line.strip()
        if not line:
            continue
        opt = line.endswith("?")
        for k in expand(line.rstrip("?")):
            (optional if opt else keys).add(k)
    return keys, optional


def flatten(v, path, out):
    """Leaf key paths of v; an empty object or array, or null, is a leaf."""
    if isinstance(v, dict) and v:
        last = path.rsplit(".", 1)[-1]
        for k, x in v.items():
            name = "*" if last in DYNAMIC else k
            flatten(x, f"{path}.{name}" if path else name, out)
    elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        for x in v:
            flatten(x, path + "[]", out)
    else:
        out.add(path)


d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
# A run that fills as much of the document as one run can: errors in every place,
# skipped steps of both kinds, two clients, --rate for service_ns, two runs.
w = write(os.path.join(d, "rich.yaml"), """name: rich
params:
  n: 2
setup:
  - stat: "missing${client}"
run:
  - create: {path: "f${client}", as: f, flags: [write, truncate]}
  - write: {file: f, size: 4KiB, count: "${n}"}
  - sync_file_range: {file: f, offset: prev, size: 4KiB, flags: [write]}
  - close: f
  - stat: "nothere${client}"
  - open: {path: "nodir/x", as: g, flags: [write]}
  - write: {file: g, size: 4KiB}
cleanup:
  - unlink: "f${client}"
  - unlink: "gone${client}"
""")
res = run(["-q", "-t", "1", "--warmup", "1", "-R", "20", "--repeat", "2", "-D", target,
           "-c", w, "2"])
check(res.json is not None, "a result was written", res)


def compare(doc, block, what, optional_seen=(), both=True):
    """doc's leaf keys against the documented block: every key documented and, when both,
    every documented key (but '?' ones) in doc; optional_seen: keys doc must hold."""
    keys, optional = documented(block)
    everything = keys | optional
    real = set()
    flatten(doc, "", real)
    undocumented = sorted(p for p in real if not (
        p in everything or any(k.startswith(p + ".") or k.startswith(p + "[]")
                               for k in everything)))
    check(not undocumented, f"every key of {what} is documented (missing: {undocumented})")
    absent = sorted(k for k in (keys if both else set()) | set(optional_seen)
                    if k not in real)
    check(not absent, f"every documented key is in {what} (absent: {absent})")
    return keys


keys = compare(res.json, "json-keys", "a real result")
check(len(keys) > 150, f"the list is the full one ({len(keys)} keys)")

# A workload with barriers: the keys of its phases (absent from the list's "?" keys above).
bar = write(os.path.join(d, "bar.yaml"), "run:\n  - mkdir: {path: \"d${client}\", expect: any}\n"
            "  - barrier: {phase: gone, items: rmdir}\n  - rmdir: {path: \"d${client}\"}\n")
res = run(["-q", "--monitor", "off", "-c", bar, "-D", target, "2"], json_out=True)
check(res.rc == 0, "a workload with barriers ran", res)
compare(res.json, "json-keys", "a result with barriers",
        [k for k in documented()[1] if "barrier_phases" in k], both=False)

# loadgen ab: its per-variant files (the result plus `ab`) and its analysis, for two
# variants and for three. Short runs of a tiny workload: only the keys matter here.
tiny = write(os.path.join(d, "tiny.yaml"), "run:\n  - mkdir: {path: \"d${client}\", expect: any}\n")
quick = ["-t", "1", "--warmup", "0", "--monitor", "off", "-c", tiny, "-D", target]
for variants, schema in ((2, "1"), (3, "2")):
    out = os.path.join(d, "ab%d" % variants)
    os.mkdir(out)
    names = [a for i in range(variants)
             for a in ("--variant", "v%d=%s" % (i, "true" if i == 0 else ""))]
    res = run(["ab"] + names + ["--rounds", str(variants), "--out-dir", out, "--json",
                                os.path.join(d, "an%d.json" % variants)] + quick + ["1"],
              json_out=False, timeout=300)
    check(res.rc == 0, f"ab with {variants} variants exits 0", res)
    with open(os.path.join(d, "an%d.json" % variants)) as f:
        an = json.load(f)
    check(an.get("schema") == "loadgen-ab/" + schema, f"ab --json schema loadgen-ab/{schema}")
    compare(an, "ab-json-keys-" + schema, f"ab --json (loadgen-ab/{schema})",
            ["variants[].command"])
    with open(os.path.join(out, "ab-0-v0.json")) as f:
        compare(json.load(f), "json-keys", "ab's per-variant file",
                ["ab.variant", "ab.index", "ab.rounds", "ab.rounds_asked", "ab.command"],
                both=False)  # a run without errors: the error keys are not all there
shutil.rmtree(d)
