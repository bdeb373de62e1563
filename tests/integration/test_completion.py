"""Bash completion (completion/loadgen.bash.in, as installed by cmake --install): options
from --help, subcommands, loadfile names (installed ones and files here), result files for
compare/report, directories for -D. Each case sources bash-completion and the installed
script in a fresh bash, sets COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT as bash would,
calls _loadgen and checks COMPREPLY. Exit 77 without bash-completion or cmake."""
import os
import shlex
import shutil
import subprocess
import sys

from lgtest import LOADGEN, check, tmpdir, write

BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
BUILD = os.path.dirname(LOADGEN)
cmake, bash = shutil.which("cmake"), shutil.which("bash")
if not (cmake and bash and os.path.exists(BASH_COMPLETION)):
    print("SKIP: needs bash, cmake and bash-completion (%s)" % BASH_COMPLETION)
    sys.exit(77)

top = tmpdir()
prefix = os.path.join(top, "prefix")
p = subprocess.run([cmake, "--install", BUILD, "--prefix", prefix], capture_output=True,
                   text=True)
check(p.returncode == 0, "cmake --install --prefix " + prefix, p)
script = os.path.join(prefix, "share/bash-completion/completions/loadgen")
check(os.path.exists(script), "completion installed in share/bash-completion/completions")
exe = os.path.join(prefix, "bin/loadgen")

work = os.path.join(top, "work")  # what a user's directory might hold
os.mkdir(work)
os.mkdir(os.path.join(work, "results"))
for name in ("base.json", "new.json", "notes.txt", "my.yaml", "old.html"):
    write(os.path.join(work, name), "{}\n")
# outputs of compare --json and ab --json, and a result: only the result is an input
write(os.path.join(work, "cmp.json"), '{\n  "schema": "loadgen-compare/1",\n  "alpha": 0.05\n}\n')
write(os.path.join(work, "pairs.json"), '{\n  "schema": "loadgen-ab/1"\n}\n')
write(os.path.join(work, "run.json"), '{\n  "schema": "loadgen-result/1"\n}\n')
RESULTS = ["base.json", "new.json", "results", "run.json"]


def complete(line):
    """COMPREPLY for the command line `line` (the cursor at its end), as a sorted list."""
    words = shlex.split(line) + ([""] if line.endswith(" ") else [])
    if "=" in words[-1] and words[-1].startswith("--"):  # bash splits --opt=value at '='
        opt, val = words[-1].split("=", 1)
        words[-1:] = [opt, "=", val]
    words[0] = exe
    line = line.replace("loadgen", exe, 1)
    prog = "\n".join([
        "source %s" % BASH_COMPLETION,
        "source %s" % shlex.quote(script),
        # compopt works only inside a real completion: record what was asked instead.
        "compopt() { local IFS=' '; printf 'compopt %s\\n' \"$*\" >&2; }",
        "cd %s" % shlex.quote(work),
        "COMP_WORDS=(%s)" % " ".join(shlex.quote(w) for w in words),
        "COMP_CWORD=%d" % (len(words) - 1),
        "COMP_LINE=%s" % shlex.quote(line),
        "COMP_POINT=${#COMP_LINE}",
        "_loadgen %s %s %s" % (shlex.quote(exe), shlex.quote(words[-1]),
                               shlex.quote(words[-2] if len(words) > 1 else "")),
        "printf '%s\\n' \"${COMPREPLY[@]}\"",
    ])
    p = subprocess.run([bash, "--norc", "--noprofile", "-c", prog], capture_output=True,
                       text=True)
    errors = [l for l in p.stderr.splitlines() if not l.startswith("compopt ")]
    check(p.returncode == 0 and not errors, "bash ran the completion of %r" % line, p)
    complete.compopt = [l.split(" ", 1)[1] for l in p.stderr.splitlines()
                        if l.startswith("compopt ")]
    return sorted(w for w in p.stdout.split("\n") if w)


def expect(line, want=(), exact=None, absent=()):
    got = complete(line)
    if exact is not None:
        check(got == sorted(exact), "%r completes to exactly %s (got %s)" % (line, exact, got))
        return
    missing = [w for w in want if w not in got]
    extra = [w for w in absent if w in got]
    check(not missing and not extra, "%r offers %s%s (got %s)" % (
        line, list(want), " and not %s" % list(absent) if absent else "", got))


expect("loadgen --pro", exact=["--processes"])
expect("loadgen -", want=["--loadfile", "--json", "--repeat", "--stall-threshold", "--verify",
                          "--help"])
shipped = ["bonnie", "dd", "fileserver", "mix64k", "netbench", "overwrite", "varmail",
           "webserver"]
expect("loadgen -c ", want=shipped + ["my.yaml", "results"])
expect("loadgen -c file", exact=["fileserver"])
expect("loadgen --loadfile=var", exact=["varmail"])
expect("loadgen -q --loadfile net", exact=["netbench"])
expect("loadgen ", exact=["ab", "calibrate", "compare", "history", "import", "record", "report",
                          "show"])
expect("loadgen ab --ro", exact=["--rounds"])
expect("loadgen co", exact=["compare"])
expect("loadgen compare ", exact=RESULTS)  # not cmp.json, pairs.json: not results
expect("loadgen compare base.json n", exact=["new.json"])
expect("loadgen compare --", want=["--min-effect", "--fail-if-slower", "--json"],
       absent=["--loadfile"])
expect("loadgen report ", exact=RESULTS)
expect("loadgen compare --json base.json ", exact=RESULTS)
expect("loadgen report base.json -o ", exact=["old.html", "results"])
expect("loadgen import --", want=["--output"], absent=["--loadfile"])
expect("loadgen show ", want=shipped)
expect("loadgen -D ", exact=["results"])
expect("loadgen --json ", exact=["base.json", "cmp.json", "new.json", "pairs.json", "results",
                                  "run.json"])  # an output: any JSON file
expect("loadgen -t ", exact=[])
expect("loadgen -c fileserver -p ", exact=["appendsize=", "filesize=", "iosize=", "nfiles="])
check("-o nospace" in complete.compopt, "  ... with no space after NAME=")
expect("loadgen -p fi --loadfile fileserver.yaml -p n", exact=["nfiles="])
expect("loadgen --param ", want=["bs=", "large="])  # the built-in netbench
write(os.path.join(work, "p.yaml"), "name: p\nparams:\n  alpha: 1\n  # c: 2\n  beta_2: 3\n"
      "run:\n  - sleep: 1ms\n")
expect("loadgen -c p.yaml -p ", exact=["alpha=", "beta_2="])
expect("loadgen -c fileserver 4 ", absent=["compare", "report"])
# Fixed-word values: --monitor on|off (also in ab, which passes it on), --resolve MODE.
expect("loadgen --monitor ", exact=["off", "on"])
expect("loadgen --monitor=o", exact=["off", "on"])
expect("loadgen --per-client ", exact=["all", "auto", "rows", "summary"])
expect("loadgen -q --monitor o", exact=["off", "on"])
expect("loadgen ab --monitor ", exact=["off", "on"])
expect("loadgen --resolve s", exact=["samba", "stat"])
# Each option once (ab's help wraps a line that starts with --variant; ab --help and the
# run options share -D, --json, --seed), and not the run options ab refuses.
for line in ("loadgen ab --", "loadgen -", "loadgen compare --", "loadgen report -",
             "loadgen calibrate --", "loadgen record -"):
    got = complete(line)
    check(len(got) == len(set(got)), "%r offers each option once (got %s)" % (
        line, [o for o in got if got.count(o) > 1]))
expect("loadgen ab --var", exact=["--variant", "--variant-opts"])
expect("loadgen ab --", want=["--rounds", "--out-dir", "--warmup", "--monitor"],
       absent=["--repeat", "--html", "--log", "--keep"])
expect("loadgen ab -c ", want=shipped)
# history: its commands, then each command's own options, result files for add/check
expect("loadgen history ", exact=["add", "check", "export", "list", "trend"])
expect("loadgen hist", exact=["history"])
expect("loadgen history trend --", want=["--workload", "--clients", "--order", "--html",
                                         "--db", "--alpha"],
       absent=["--label", "--fail-if-slower"])
expect("loadgen history add --", exact=["--db", "--help", "--label"])
expect("loadgen history check --", want=["--fail-if-slower", "--json", "--metric"],
       absent=["--label", "--html", "--workload"])
expect("loadgen history trend --order ", exact=["stored", "version"])
expect("loadgen history add ", exact=RESULTS)
expect("loadgen history check --fail-if-slower ", exact=[])
# calibrate: its options and the run's, not the outputs it writes itself; --from files
expect("loadgen calibrate --", want=["--batches", "--gap", "--store", "--from", "--loadfile",
                                     "--repeat"], absent=["--json", "--html", "--log"])
expect("loadgen calibrate -c file", exact=["fileserver"])
expect("loadgen calibrate --from ", exact=RESULTS)
expect("loadgen calibrate --batches ", exact=[])
# record: its options, -o a YAML file, -C a directory, --attach a PID, then the command's
# own completion after "--" (or after the command's name)
expect("loadgen rec", exact=["record"])
expect("loadgen record --", want=["--output", "--directory", "--attach", "--for",
                                  "--keep-trace", "--name", "--"], absent=["--loadfile"])
expect("loadgen record -o ", exact=["my.yaml", "p.yaml", "results"])
expect("loadgen record -o x.yaml -C ", exact=["results"])
expect("loadgen record --attach %d" % os.getpid(), want=[str(os.getpid())])
expect("loadgen record -o x.yaml -- tru", want=["true"])
expect("loadgen record -o x.yaml -- cat no", exact=["notes.txt"])
expect("loadgen record -o x.yaml --for ", exact=[])
# the run's --replay-timing afap|original|scale=X
expect("loadgen --replay-timing ", exact=["afap", "original", "scale="])
expect("loadgen --replay-timing s", exact=["scale="])
check("-o nospace" in complete.compopt, "  ... with no space after scale=")
shutil.rmtree(top)
