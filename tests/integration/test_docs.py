"""Every documented example runs (issue 10): each ```yaml block of README.md, of every
page of docs/ and of loadfiles/README.md is run with --run-once and must exit 0 — a whole
workload as it is, a list of steps (a fragment) inside a generated workload that first
opens the file slots it uses but does not open itself. A block shown to illustrate a
failure is preceded by `<!-- doc-test: exit N -->` and must exit N. Each shell example
line that calls loadgen runs too (shortened to one second, at most 2 runs of --repeat and
2 rounds of ab), unless it names a file that does not exist here."""
import os
import re
import shlex
import shutil
import subprocess
import tempfile

from lgtest import LOADGEN, SOURCE, check, doc_pages, run, tmpdir, write

BLOCK = re.compile(r"(?:<!-- doc-test: exit (\d+) -->\n)?```(yaml|sh)\n(.*?)```", re.S)
SLOT_OPS = ("file", "close", "fsync", "fdatasync", "fstat", "sync_file_range", "fadvise",
            "syncfs", "truncate", "setinfo", "lock", "unlock")
PARAMS = {"think": "1ms"}  # parameters fragments use without declaring them


def blocks():
    for page in doc_pages():
        doc = os.path.relpath(page, SOURCE)
        text = open(page).read()
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start(2)) + 1
            yield f"{doc}:{line}", m.group(2), m.group(3), int(m.group(1) or 0)


def wrap(fragment):
    """A workload running fragment once: the directories its paths name are made in
    setup, the slots it uses but does not open are opened first."""
    bound = set(re.findall(r"\bas: *(\w+)", fragment))
    used = set(re.findall(r"\bfile: *(\w+)", fragment))
    used |= set(re.findall(r"- *\{?(?:%s): *(\w+)" % "|".join(SLOT_OPS), fragment))
    used -= bound | {"f"} if "as: f" in fragment else bound
    names = set(re.findall(r"\$\{(\w+)\}", fragment)) - {"client"}
    lines = ["name: fragment", "params:"] + [f"  {n}: {PARAMS.get(n, 1)}" for n in names
                                              if not re.search(r"var: *%s\b" % n, fragment)]
    if lines[-1] == "params:":
        lines.pop()
    dirs = []
    paths = re.findall(r'path: *"([^"]+)"', fragment)
    paths += re.findall(r'(?:path|stat|unlink|mkdir|rmdir|readdir): *([^"{\s,}][^,}\s]*)',
                        fragment)
    for path in paths:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            p = "/".join(parts[:i])
            if "*" not in p and p not in dirs:
                dirs.append(p)
    if dirs:  # the directories its paths need, made first
        lines.append("setup:")
        lines += [f'  - mkdir: {{path: "{p}", expect: any}}' for p in dirs]
    lines.append("run:")
    for s in sorted(used):
        lines.append(f'  - create: {{path: "{s}${{client}}", as: {s}, flags: [rdwr]}}')
    return "\n".join(lines) + "\n" + fragment.rstrip() + "\n"


d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
# what the examples of loadgen record trace: tar xf src.tar, in the test's directory
os.mkdir(os.path.join(d, "src"))
write(os.path.join(d, "src", "a.txt"), "a\n" * 100)
subprocess.run(["tar", "cf", "src.tar", "src"], cwd=d, check=True)
shutil.rmtree(os.path.join(d, "src"))
n_yaml = n_sh = 0
for where, lang, text, want in blocks():
    if lang == "yaml":
        whole = re.search(r"^(run|streams):", text, re.M) is not None
        wl = write(os.path.join(d, "example.yaml"), text if whole else wrap(text))
        # a whole workload also runs timed, where the deadline cuts a pass anywhere
        for how in (["--run-once"],) + ((["-t", "1", "--warmup", "0"],) if whole else ()):
            res = run(["-q", *how, "-D", target, "-c", wl, "2"], workdir=d, json_out=False)
            check(res.rc == want, f"{where}: the example exits {want} with {how[0]}" +
                  ("" if whole else " (a fragment, inside a generated workload)"),
                  None if res.rc == want else f"{res}\nworkload:\n{open(wl).read()}")
        n_yaml += 1
        continue
    for cmd in text.splitlines():
        cmd = cmd.split("#", 1)[0].strip()
        words = shlex.split(cmd)
        if not words or words[0] not in ("loadgen", "./build/loadgen"):
            continue
        if any(re.fullmatch(r"\[?[A-Z_]+\]?", w) or "[" in w for w in words[1:]):
            continue  # a synopsis (FILE, [-o OUT]), not a command
        if any(w in ("||", "&&", "|", ";") for w in words):
            print(f"skip: {where}: {cmd} (a line of a script)")
            continue
        words = [w.replace("loadfiles/", os.path.join(SOURCE, "loadfiles") + "/")
                 for w in words[1:]]
        missing = [w for w in words if "/" in w and not w.startswith("-") and
                   w.endswith((".txt", ".yaml")) and not os.path.exists(w)]
        missing += [w for w in words[1:] if w.endswith(".json") and words[0] in
                    ("compare", "report", "history") and not os.path.exists(os.path.join(d, w))]
        missing += [w for w in words if w == "my.yaml"]
        if words[0] == "record" and "-C" in words:  # a directory of the reader's
            missing += [w for w in words[words.index("-C") + 1:][:1] if not os.path.isdir(w)]
        if missing:
            print(f"skip: {where}: {cmd} (needs {missing})")
            continue
        for i, w in enumerate(words[:-1]):  # shortened too: at most 2 runs, 2 ab rounds
            if w in ("--repeat", "--rounds") and words[i + 1].isdigit():
                words[i + 1] = str(min(int(words[i + 1]), 2))
        if words[0] == "calibrate":  # shortened too: 3 batches of 2 runs, no pauses
            words = [w for i, w in enumerate(words)
                     if w not in ("--batches", "--gap") and
                     words[i - 1] not in ("--batches", "--gap")]
            words[1:1] = ["--batches", "3", "--repeat", "2", "--out-dir",
                          tempfile.mkdtemp(dir=d)]
        if words[0] not in ("import", "compare", "report", "show", "record", "history"):
            words += ["-q", "-t", "1", "--warmup", "0", "-D", target]
        # calibrate's store goes to the test's directory, never the user's
        proc = subprocess.run([LOADGEN] + words, cwd=d, capture_output=True, text=True,
                              timeout=300, env=dict(os.environ, XDG_DATA_HOME=d))
        # a gate on a store that holds one night has too little history: "cannot tell"
        ok = (0, 5) if words[:2] == ["history", "check"] and "--fail-if-slower" in words else (0,)
        check(proc.returncode in ok, f"{where}: `{cmd}` exits {' or '.join(map(str, ok))}",
              None if proc.returncode in ok else proc.stderr[-2000:])
        n_sh += 1
check(n_yaml >= 15 and n_sh >= 3, f"examples found: {n_yaml} YAML, {n_sh} shell")
shutil.rmtree(d)
