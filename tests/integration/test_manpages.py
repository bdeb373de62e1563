"""The man pages say what the binary does: every option of `loadgen [SUB] --help` is an
option entry of the page built from it (build/man, cmake/install.cmake) and the page has no
option that --help lacks; every option the code accepts (its getopt table) is in --help;
the pages render without a troff warning at 80 columns; each SYNOPSIS is the usage of
--help, complete; loadgen(1)'s SEE ALSO and the README's install table name every page;
loadgen-workload(5) has every section of loadfiles/README.md. The checker is first shown to catch an option added to one side only.
Exit 77 (skipped) when the build has no man pages (LOADGEN_MAN off: no help2man/pandoc)."""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from lgtest import LOADGEN, SOURCE, check

MANDIR = os.path.join(os.path.dirname(LOADGEN), "man")
PAGES = {"loadgen": None, "loadgen-compare": "compare", "loadgen-ab": "ab", "loadgen-import": "import",
         "loadgen-record": "record",
         "loadgen-report": "report", "loadgen-calibrate": "calibrate",
         "loadgen-history": "history"}
OPT = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9-]*")


def help_options(text):
    """Options defined by a --help text: the option words of lines that start (indented
    by at most 8 spaces) with '-', up to the gap before the description."""
    opts = set()
    for line in text.splitlines():
        m = re.match(r"^ {1,8}(-\S.*?)(?: {2,}|$)", line)
        if m:
            opts.update(o for o in OPT.findall(m.group(1)) if not o.startswith("---"))
    return opts


def roff_text(s):
    s = s.replace("\\-", "-").replace("\\,", "").replace("\\/", "")
    for name, char in (("aq", "'"), ("dq", '"'), ("em", "\u2014"), ("ti", "~"), ("ha", "^")):
        s = s.replace("\\[%s]" % name, char)
    return re.sub(r"\\f(\[[^\]]*\]|.)", "", s)


def man_options(roff):
    """Options the page defines: the option words at the start of each .TP tag. A help
    line that help2man could not read as an option shows up as a .HP paragraph that
    starts with '-': returned separately, as it is an option without an entry."""
    lines = roff.splitlines()
    opts, broken = set(), []
    for i, line in enumerate(lines[:-1]):
        nxt = roff_text(lines[i + 1]).strip()
        if line.startswith(".TP") and nxt.startswith("-"):
            for word in re.split(r"[\s,]+", nxt):
                if not OPT.fullmatch(word):
                    break
                opts.add(word)
        elif line.startswith(".HP") and nxt.startswith("-"):
            broken.append(nxt)
    return opts, broken


def code_options(sub):
    """Options the getopt table of SUB's source accepts (None when no file has one)."""
    want = "Usage: loadgen " + (sub + " " if sub else "[")
    for path in glob.glob(os.path.join(SOURCE, "src", "**", "*.c"), recursive=True):
        src = open(path).read()
        if want not in src or "struct option" not in src:
            continue
        opts = {"--" + n for n in re.findall(
            r'\{\s*"([A-Za-z0-9-]+)"\s*,\s*(?:no|required|optional)_argument', src)}
        for n in re.findall(r"_argument\s*,\s*NULL\s*,\s*'(.)'", src):
            opts.add("-" + n)
        for optstring in re.findall(r'getopt_long\([^,]+,[^,]+,\s*"([^"]*)"', src):
            opts.update("-" + c for c in optstring if c.isalnum())
        return opts
    return None


def differences(help_opts, page_opts, broken):
    """What is wrong between --help and the page, as sentences (empty when they agree)."""
    out = ["in --help but not in the man page: " + o for o in sorted(help_opts - page_opts)]
    out += ["in the man page but not in --help: " + o for o in sorted(page_opts - help_opts)]
    out += ["help line not laid out as an option (needs 2 spaces before the text): " + b
            for b in broken]
    return out


def help_text(sub):
    args = [LOADGEN] + ([sub] if sub else []) + ["--help"]
    p = subprocess.run(args, capture_output=True, text=True)
    first = p.stdout.splitlines()[0] if p.stdout else ""
    if p.returncode == 0 and first.startswith("Usage: loadgen " + (sub + " " if sub else "")):
        return p.stdout
    fallback = os.path.join(SOURCE, "man", "loadgen-%s.help" % sub)
    check(os.path.exists(fallback), "loadgen %s --help works or man/ has its text" % sub, p)
    print("note: loadgen %s: no such subcommand in this binary; page from %s" % (sub, fallback))
    return open(fallback).read()


if not os.path.isdir(MANDIR):
    print("SKIP: no man pages in %s (configure found no help2man/pandoc)" % MANDIR)
    sys.exit(77)

# The checker catches an option added on one side only (here, to copies of loadgen's).
roff = open(os.path.join(MANDIR, "loadgen.1")).read()
text = help_text(None)
base = set(differences(help_options(text), *man_options(roff)))


def added(help_copy, roff_copy):
    return sorted(set(differences(help_options(help_copy), *man_options(roff_copy))) - base)


more_help = text + "      --probe-help-only        an option added to --help only\n"
check(added(more_help, roff) == ["in --help but not in the man page: --probe-help-only"],
      "checker: catches a --help-only option")
more_man = roff.replace(".SH EXAMPLES", ".TP\n\\fB\\-\\-probe\\-man\\-only\\fR\nadded\n.SH EXAMPLES")
check(added(text, more_man) == ["in the man page but not in --help: --probe-man-only"],
      "checker: catches a man-only option")
squeezed = text.replace("--keep             leave", "--keep leave")
check(any("--keep" in d for d in added(squeezed, roff.replace(
    ".TP\n\\fB\\-\\-keep\\fR\n", ".HP\n\\fB\\-\\-keep\\fR "))),
      "checker: catches a help line help2man cannot read")

for page, sub in PAGES.items():
    path = os.path.join(MANDIR, page + ".1")
    check(os.path.exists(path), "%s.1 was built" % page)
    text = help_text(sub)
    help_opts = help_options(text)
    page_opts, broken = man_options(open(path).read())
    check(len(help_opts) >= 2, "%s: --help lists options (%d)" % (page, len(help_opts)))
    problems = differences(help_opts, page_opts, broken)
    check(not problems, "%s(1): the options of --help and the page agree (%s)" % (
        page, " ".join(sorted(page_opts))) + "".join("\n  " + p for p in problems))
    code = code_options(sub)
    if code is None:
        print("note: %s: no getopt table found in src/, code not compared" % page)
        continue
    check(code == help_opts, "%s: the getopt table and --help agree" % page +
          "".join("\n  accepted but not in --help: " + o for o in sorted(code - help_opts)) +
          "".join("\n  in --help but not accepted: " + o for o in sorted(help_opts - code)))

# loadgen-workload(5) is loadfiles/README.md: every section is there.
workload = roff_text(open(os.path.join(MANDIR, "loadgen-workload.5")).read())
readme = open(os.path.join(SOURCE, "loadfiles", "README.md")).read()
sections = re.findall(r"^##+ (.+)$", readme, re.M)
for name in ["NAME", "DESCRIPTION", "SEE ALSO"] + [re.sub(r"`", "", s) for s in sections]:
    found = re.search(r'^\.S[HS] "?' + re.escape(name) + r'"?\s*$', workload, re.M)
    check(found, "loadgen-workload(5) has the section '%s'" % name)
check("client${client}" in workload and "\n.TS" in open(
    os.path.join(MANDIR, "loadgen-workload.5")).read(),
      "loadgen-workload(5) keeps the examples and the tables")

# Every page renders without a single troff warning at 80 columns (typesetting ones
# included: "cannot adjust line" is a cell too narrow for its text).
man = shutil.which("man")
if not man:
    print("note: no man(1) here: rendering not checked")


def render(path, width):
    p = subprocess.run([man, "--warnings", "-l", path], capture_output=True, text=True,
                       env=dict(os.environ, MANWIDTH=str(width)))
    return p, re.sub(r".\x08", "", p.stdout)


def sections(text):
    """The rendered page's sections: heading -> lines (indentation removed, blank lines
    dropped)."""
    out, cur = {}, None
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Z ]*$", line):
            cur = out.setdefault(line, [])
        elif cur is not None and line.strip():
            cur.append(" ".join(line.split()))
    return out


def usage_lines(help_text):
    """The usage lines of --help, each continued line joined: what SYNOPSIS must show."""
    lines, usage = [], True
    for i, line in enumerate(help_text.splitlines()):
        if i == 0:
            lines.append(line[len("Usage: "):])
        elif usage and re.match(r"^ +loadgen ", line):
            lines.append(line)
        elif usage and re.match(r"^ +\S", line):
            lines[-1] += " " + line
        else:
            break
    return [" ".join(l.split()) for l in lines]


for page in sorted(os.listdir(MANDIR)) if man else []:
    if page.endswith(".gz"):
        continue
    p, _ = render(os.path.join(MANDIR, page), 80)
    check(p.returncode == 0 and p.stderr == "" and len(p.stdout) > 500,
          "MANWIDTH=80 man --warnings -l %s: no warning (%d bytes)" % (page, len(p.stdout)) +
          "".join("\n  " + b for b in p.stderr.splitlines()))

# Each section-1 page's SYNOPSIS is its --help usage, every line complete (a line
# continued in --help is one synopsis line, not a stray start of DESCRIPTION), and no
# usage line leaks into the options or DESCRIPTION. Wide, so nothing wraps.
for page, sub in PAGES.items() if man else []:
    _, text = render(os.path.join(MANDIR, page + ".1"), 400)
    secs = sections(text)
    want = usage_lines(help_text(sub))
    check(secs.get("SYNOPSIS") == want, "%s(1): SYNOPSIS is the usage of --help\n  got:  %s"
          "\n  want: %s" % (page, secs.get("SYNOPSIS"), want))
    # at 80 columns a wrapped item goes on under a hanging indent (.SY), not at the margin
    _, text80 = render(os.path.join(MANDIR, page + ".1"), 80)
    syn = text80.split("\nSYNOPSIS\n", 1)[-1].split("\n\n", 1)[0].splitlines()
    flat = [l for l in syn if not l.lstrip().startswith("loadgen ") and
            len(l) - len(l.lstrip()) <= 7]
    check(syn and not flat, "%s(1): SYNOPSIS continuation lines are indented (%s)" % (
        page, flat))
    body = secs.get("DESCRIPTION", []) + secs.get("OPTIONS", [])
    leaked = [l for l in body if l.startswith("(see loadgen") or
              (len(l) > 8 and not l.startswith("-") and any(l in u for u in want))]
    check(not leaked, "%s(1): no usage line outside SYNOPSIS (%s)" % (page, leaked))

# loadgen(1)'s SEE ALSO and the README's install table name every page.
if man:
    _, text = render(os.path.join(MANDIR, "loadgen.1"), 400)
    see_also = " ".join(sections(text).get("SEE ALSO", []))
readme = open(os.path.join(SOURCE, "README.md")).read()
table = re.search(r"^\| man pages \|(.*)$", readme, re.M)
for page in sorted(os.listdir(MANDIR)):
    m = re.fullmatch(r"(loadgen[a-z-]*)\.([15])", page)
    if not m:
        continue
    ref = "%s(%s)" % m.groups()
    if man and m.group(1) != "loadgen":
        check(ref in see_also, "loadgen(1) SEE ALSO names %s (%s)" % (ref, see_also))
    check(table and "`%s`" % ref in table.group(1), "README's install table lists %s" % ref)

# ab --help's example of --variant-opts runs: the NAME it sets is a variant it defines
# (ab takes NAME=OPTIONS only for a --variant given before it; 'B=...' was refused).
ab_help = " ".join(help_text("ab").split())
m = re.search(r"e\.g\. (--variant \S+ --variant-opts '([^'=]+)=[^']*')", ab_help)
check(m and re.search(r"--variant %s=" % re.escape(m.group(2)), m.group(1)),
      "ab --help: the --variant-opts example names a variant it defines (%s)" % (
          m.group(1) if m else ab_help))
d = tempfile.mkdtemp()
example = shlex.split(m.group(1)) + ["--variant", "other=", "--rounds", "2", "-D", d, "-t", "1",
                                     "--warmup", "0", "--out-dir", d, "1"]
p = subprocess.run([LOADGEN, "ab"] + example, capture_output=True, text=True, timeout=300)
check(p.returncode == 0, "ab runs its --help example: %s\n%s" % (example, p.stderr))
shutil.rmtree(d)
