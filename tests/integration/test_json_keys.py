"""The README's list of JSON keys ("Every key of the result") equals the keys of a real
result, in both directions: every key a result holds is documented, every documented key
(but those marked '?') is in the result."""
import itertools
import os
import re
import shutil

from lgtest import SOURCE, check, run, tmpdir, write

# objects keyed by names from data (labels, errno names, system counters)
DYNAMIC = {"params", "ops_by_type", "errors_by_errno", "counters", "gauges", "vmstat_diff"}


def expand(line):
    """'a.{x,y}.b' -> ['a.x.b', 'a.y.b'] (any number of brace groups, no nesting)."""
    parts = re.split(r"(\{[^}]*\})", line)
    choices = [p[1:-1].split(",") if p.startswith("{") else [p] for p in parts]
    return ["".join(c) for c in itertools.product(*choices)]


def documented():
    text = open(os.path.join(SOURCE, "README.md")).read()
    m = re.search(r"<!-- json-keys:begin -->\s*```text\n(.*?)```\s*<!-- json-keys:end -->",
                  text, re.S)
    assert m, "README.md has no json-keys block"
    keys, optional = set(), set()
    for line in m.group(1).splitlines():
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
real = set()
flatten(res.json, "", real)
keys, optional = documented()
everything = keys | optional


def covered(p):
    """A real leaf is documented: exactly, or as the container of documented keys."""
    return p in everything or any(k.startswith(p + ".") or k.startswith(p + "[]")
                                  for k in everything)


undocumented = sorted(p for p in real if not covered(p))
check(not undocumented, f"every key of a real result is documented (missing: {undocumented})")
absent = sorted(k for k in keys if k not in real)
check(not absent, f"every documented key is in a real result (absent: {absent})")
check(len(keys) > 150, f"the list is the full one ({len(keys)} keys)")
shutil.rmtree(d)
