"""`loadgen show [WORKLOAD]`: the built-in workload's text (a valid, runnable copy) and its
parameters with defaults and types; a file's likewise; errors exit 2. Errors about the
built-in workload say how to see it, and -p with an unknown name lists the parameters."""
import os
import re

from lgtest import SOURCE, check, run, tmpdir, write

d = tmpdir()

# The built-in workload: its exact text, then the parameters as YAML comments.
res = run(["show"], workdir=d, json_out=False)
check(res.rc == 0 and res.err == "", "show exits 0", res)
with open(os.path.join(SOURCE, "loadfiles", "netbench.yaml")) as f:
    builtin = f.read()
check(builtin in res.out, "show prints the built-in text", res)


def table(out):
    """The rows of the last parameter table of show's output: name -> (default, type)."""
    tail = out.rsplit("# Parameters (set with", 1)[-1]
    return {m[0]: (m[1], m[2]) for m in re.findall(r"^#   (\w+)\s+(\S+)\s+(.*)$", tail, re.M)
            if m[0] != "NAME"}


params = [(n, v[0], v[1]) for n, v in table(res.out).items()]
names = {p[0]: (p[1], p[2]) for p in params if p[0] != "NAME"}
declared = re.findall(r"^  (\w+): (\S+)", builtin.split("\nparams:\n", 1)[1].split("\n\n")[0],
                      re.M) if "\nparams:\n" in builtin else []
check(declared and all(names.get(n, ("",))[0] == v for n, v in declared),
      f"every declared parameter with its default ({declared})", res)
check(all(t.startswith("size") for _, t in names.values()), "types are shown", res)

# The copy runs as the built-in would: it is valid YAML with the parameters as comments.
copy = write(os.path.join(d, "copy.yaml"), res.out)
res2 = run(["show", copy], workdir=d, json_out=False)
check(res2.rc == 0 and table(res2.out) == names, "a saved copy loads with the same parameters",
      res2)

# A file of one's own: kinds from how each parameter is used.
wl = write(os.path.join(d, "w.yaml"),
           "params:\n  bs: 4KiB\n  nap: 10ms\n  n: 3\n  dir: data\n  spare: x\n"
           "run:\n  - create: {path: \"${dir}/f\", as: f}\n"
           "  - write: {file: f, size: \"${bs}\", count: \"${n}\"}\n"
           "  - sleep: \"${nap}\"\n  - close: f\n")
res = run(["show", wl], workdir=d, json_out=False)
rows = {n: v[1] for n, v in table(res.out).items()}
check(res.rc == 0, "show FILE exits 0", res)
check(rows.get("bs", "").startswith("size") and rows.get("nap", "").startswith("duration")
      and rows.get("n", "").startswith("whole number") and rows.get("dir", "").startswith("path")
      and rows.get("spare") == "unused", f"types of parameters ({rows})", res)

# A workload that would not load: its error, exit 2.
bad = write(os.path.join(d, "bad.yaml"), "run:\n  - wirte: {file: f, size: 1}\n")
res = run(["show", bad], workdir=d, json_out=False)
check(res.rc == 2 and f"{bad}:2:5: unknown op 'wirte'; did you mean 'write'?" in res.err,
      "show of a bad workload: its error and a suggestion", res)
res = run(["show", os.path.join(d, "missing.yaml")], workdir=d, json_out=False)
check(res.rc == 2 and "No such file" in res.err, "show of a missing file", res)

# -p with an unknown name on the built-in workload: the parameters listed, and how to see
# the workload the position points into.
res = run(["-D", d, "-p", "bogus=1", "1"], workdir=d, json_out=False)
check(res.rc == 2, "-p bogus exits 2", res)
check(all(f"{n}={v[0]}" in res.err for n, v in names.items()),
      "-p bogus lists the declared parameters with defaults", res)
check("builtin:netbench:" in res.err and "'loadgen show'" in res.err,
      "an error in the built-in workload says how to see it", res)
res = run(["-D", d, "-p", "smal=1", "1"], workdir=d, json_out=False)
check("did you mean 'small'?" in res.err, "-p misspelt parameter gets a suggestion", res)

# A shipped loadfile by name: show finds what -c finds (one lookup for both), and a typo
# gets the closest shipped name and the list of them, from show and from -c alike.
with open(os.path.join(SOURCE, "loadfiles", "fileserver.yaml")) as f:
    shipped = f.read()
res = run(["show", "fileserver"], workdir=d, json_out=False)
check(res.rc == 0 and shipped in res.out, "show fileserver prints the shipped loadfile", res)
shipped_names = sorted(n[:-5] for n in os.listdir(os.path.join(SOURCE, "loadfiles"))
                       if n.endswith(".yaml"))
listed = "Shipped loadfiles: " + ", ".join(shipped_names) + " (looked in "
for args in (["show", "filesever"], ["-D", d, "-c", "filesever", "1"]):
    res = run(args, workdir=d, json_out=False)
    check(res.rc == 2 and "filesever: No such file or directory" in res.err
          and "did you mean 'fileserver'?" in res.err and listed in res.err,
          f"{args[0]} filesever: did-you-mean and the shipped names", res)
