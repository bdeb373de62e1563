"""The ops of recorded programs under the real binary: tests/data/yaml/recorded_ops.yaml
(every new op in each form, failures the trace saw kept as expect) runs one pass with 2
clients, with no unexpected result, each op type counted once per step per client, and
nothing left in the target; `loadgen import` writes it back as a workload that runs the
same."""
import errno
import os
import re

from lgtest import SOURCE, check, listdir, run, skip, tmpdir

WORKLOAD = os.path.join(SOURCE, "tests/data/yaml/recorded_ops.yaml")


def run_steps(path):
    """Op name -> steps of it in the run phase (one flow step per line)."""
    counts, inside = {}, False
    with open(path) as f:
        for line in f:
            if re.match(r"^\w+:", line):
                inside = line.startswith("run:")
            m = re.match(r"^  - (\w+):", line)
            if inside and m:
                counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return counts


def check_run(workload, what):
    d = tmpdir()
    target = os.path.join(d, "t")
    os.mkdir(target)
    res = run(["-q", "-c", workload, "-D", target, "--run-once", "--monitor", "off", "2"],
              workdir=d)
    check(res.rc == 0 and res.json is not None, f"{what}: runs, exit 0", res)
    r = res.json["runs"][0]
    steps = run_steps(workload)
    check(r["errors"] == 0 and r["skipped"] == 0, f"{what}: no unexpected result", res)
    check(r["ops"] == 2 * sum(steps.values()), f"{what}: one op per step per client")
    for name, n in steps.items():
        got = r["ops_by_type"].get(name, {}).get("count")
        check(got == 2 * n, f"{what}: {name}: {got} ops, want {2 * n}")
    check(listdir(target) == [], f"{what}: cleanup left nothing")
    return d


d = tmpdir()
probe = os.path.join(d, "probe")
open(probe, "w").close()
try:
    os.setxattr(probe, "user.lgtest", b"x")
except OSError as e:
    if e.errno not in (errno.ENOTSUP, errno.EOPNOTSUPP):
        raise
    skip("the temporary directory's filesystem has no user xattrs")
else:
    check_run(WORKLOAD, "recorded_ops.yaml")
    out = os.path.join(d, "again.yaml")
    res = run(["import", WORKLOAD, "-o", out], json_out=False)
    check(res.rc == 0, "import writes it back", res)
    check_run(out, "its import")
