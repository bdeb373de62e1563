"""Usage errors are uniform: exactly two lines on stderr, 'loadgen[ SUB]: what is wrong' and
"Try 'loadgen[ SUB] --help' for more information.", exit 2, nothing on stdout, the program
called 'loadgen' whatever path it was run by; misspelt options get a suggestion."""
import os

from lgtest import LOADGEN, check, run, tmpdir

d = tmpdir()


def usage_error(args, sub, want):
    """Run args; check the two-line form and that the first line contains want."""
    res = run(args, workdir=d, json_out=False)
    prog = "loadgen" + (" " + sub if sub else "")
    lines = res.err.splitlines()
    check(res.rc == 2, f"{args}: exit 2", res)
    check(res.out == "", f"{args}: nothing on stdout", res)
    check(len(lines) == 2, f"{args}: two lines on stderr", res)
    check(lines[0].startswith(prog + ": ") and want in lines[0],
          f"{args}: '{prog}: ...{want}...'", res)
    check(lines[1] == f"Try '{prog} --help' for more information.", f"{args}: help hint", res)
    check(os.path.dirname(LOADGEN) not in res.err, f"{args}: no binary path", res)


usage_error(["--bogus", "2"], None, "unknown option '--bogus'")
usage_error(["--tiem", "3", "2"], None, "did you mean '--time'?")
usage_error(["--procseses", "2"], None, "did you mean '--processes'?")
usage_error(["--d", "x", "2"], None, "'--d' is ambiguous")
usage_error(["-x", "2"], None, "unknown option '-x'")
usage_error(["2", "-t"], None, "option '-t' needs a value")
usage_error(["2", "--time"], None, "option '--time' needs a value")
usage_error(["--run-once=3", "2"], None, "'--run-once' takes no value")
usage_error(["-t", "abc", "2"], None, "invalid --time 'abc'")
usage_error(["-t", "1.5m", "2"], None, "did you mean '--time 90'?")
# too large: the message says the bound rather than "> 0", which 2e7 is
usage_error(["-t", "2e7", "2"], None,
            "invalid --time '2e7': expected seconds > 0 (at most 10000000)")
usage_error(["--rate-ops", "1e8", "2"], None, "expected ops/s > 0 (at most 10000000)")
# too small: 1e-12 s rounded to 0 ns, and every op was a stall
usage_error(["--stall-threshold", "1e-12", "2"], None,
            "invalid --stall-threshold '1e-12': expected seconds >= 0.000001")
usage_error(["--interval", "250ms", "2"], None, "did you mean '--interval 0.25'?")
usage_error(["-p", "novalue", "2"], None, "invalid --param 'novalue'")
usage_error([], None, "missing NCLIENTS")
usage_error(["0"], None, "invalid NCLIENTS '0'")
usage_error(["many"], None, "invalid NCLIENTS 'many'")
usage_error(["2", "3"], None, "unexpected argument '3'")
usage_error(["shwo"], None, "did you mean 'loadgen show'?")
usage_error(["comapre", "a", "b"], None, "did you mean 'loadgen compare'?")
usage_error(["compare", "--bogus", "a", "b"], "compare", "unknown option '--bogus'")
usage_error(["compare", "--min-efect", "5", "a", "b"], "compare", "did you mean '--min-effect'?")
usage_error(["compare", "--min-effect"], "compare", "'--min-effect' needs a value")
usage_error(["compare", "a.json"], "compare", "need a baseline")
usage_error(["import", "--outptu", "x", "f"], "import", "did you mean '--output'?")
usage_error(["import", "-o"], "import", "option '-o' needs a value")
usage_error(["import"], "import", "missing the loadfile")
usage_error(["show", "--bogus"], "show", "unknown option '--bogus'")
usage_error(["show", "a.yaml", "b.yaml"], "show", "unexpected argument 'b.yaml'")

# --help stays on stdout with exit 0.
res = run(["--help"], workdir=d, json_out=False)
check(res.rc == 0 and "Usage: loadgen" in res.out and res.err == "", "--help on stdout", res)
check("loadgen show" in res.out, "--help mentions show", res)
