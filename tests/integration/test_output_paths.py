"""An output named like an input or another output is refused before anything is
written (exit 2, both names in the message), and the file is left as it was:
- a run's --html, --log or --json over another of them or over the loadfile (before,
  `--json r.json --html r.json` left only the report, the result was lost);
- `loadgen report r.json -o r.json` (the page replaced the result);
- `loadgen import client.txt -o client.txt` (the YAML replaced the dbench file).
`report -o` and `import -o` refuse what is not a regular file, as --json does: their
rename replaced a FIFO, or as root /dev/null, with a regular file. A run's '-' as an
output is refused too (it wrote a file named '-')."""
import os
import shutil
import stat
import subprocess

from lgtest import LOADGEN, SOURCE, check, run, tmpdir

d = tmpdir()


def refused(args, keep, what):
    """loadgen args exits 2 naming the clash, and the file keep is unchanged."""
    before = open(keep, "rb").read() if os.path.exists(keep) else None
    p = subprocess.run([LOADGEN] + args, capture_output=True, text=True, cwd=d, timeout=60)
    after = open(keep, "rb").read() if os.path.exists(keep) else None
    check(p.returncode == 2 and "name the same file" in p.stderr and before == after,
          f"{what}: exit 2, said, {os.path.basename(keep)} unchanged",
          f"rc={p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p


# A real result to protect, and a loadfile of our own.
res = run(["-D", d, "-q", "-t", "0.2", "--warmup", "0", "1"], workdir=d)
check(res.rc == 0, "a result to start from", res)
result = os.path.join(d, "result.json")
dd = shutil.copy(os.path.join(SOURCE, "loadfiles", "dd.yaml"), os.path.join(d, "dd.yaml"))
short = ["-D", d, "-q", "-t", "0.2", "--warmup", "0"]

p = refused(short + ["--json", "new.json", "--html", "./new.json", "1"],
            os.path.join(d, "new.json"), "--json and --html the same new file")
check("--json new.json and --html ./new.json" in p.stderr, "both outputs named", p.stderr)
check(not os.path.exists(os.path.join(d, "new.json")), "nothing written")
refused(short + ["--log", "x.log", "--json", "x.log", "1,2"], os.path.join(d, "x.log"),
        "--log and --json")
p = refused(short + ["-c", dd, "-p", "count=4", "--log", "dd.yaml", "1"], dd,
            "--log over the loadfile")
check("writing --log would replace the loadfile" in p.stderr, "says what would be replaced",
      p.stderr)

p = refused(["report", result, "-o", result], result, "report -o over its input")
check("the result file" in p.stderr, "report names the input", p.stderr)
p = subprocess.run([LOADGEN, "report", result, "-o", os.path.join(d, "r.html")],
                   capture_output=True, text=True, timeout=60)
check(p.returncode == 0, "report to another file still works", p.stderr)

refused(["import", dd, "-o", "./dd.yaml"], dd, "import -o over its input")
p = subprocess.run([LOADGEN, "import", dd, "-o", "-"], capture_output=True, text=True,
                   timeout=60)
check(p.returncode == 0 and "name: " in p.stdout, "import to stdout still works", p.stderr)

# Not a regular file: refused, and still what it was (a FIFO here; /dev/null as root).
fifo = os.path.join(d, "fifo")
os.mkfifo(fifo)
for args in (["report", result, "-o", fifo], ["import", dd, "-o", fifo]):
    p = subprocess.run([LOADGEN] + args, capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and f"{fifo}: not a regular file" in p.stderr and
          stat.S_ISFIFO(os.stat(fifo).st_mode), f"{args[0]} -o FIFO: refused, FIFO kept",
          f"rc={p.returncode}\n{p.stderr}")

# '-' as a run's output: standard output carries the text report, so it is refused
# (exit 2, said) instead of writing a file named '-'.
for opt in ("--json", "--html", "--log"):
    p = subprocess.run([LOADGEN] + short + [opt, "-", "1"], capture_output=True, text=True,
                       cwd=d, timeout=60)
    check(p.returncode == 2 and f"{opt} -: standard output carries the text report" in
          p.stderr and not os.path.exists(os.path.join(d, "-")),
          f"{opt} -: refused, no file named '-'", f"rc={p.returncode}\n{p.stderr}")
