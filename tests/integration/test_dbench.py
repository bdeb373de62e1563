"""dbench loadfiles replayed unchanged: recognised by content, one timed op per line
under dbench's labels, the expected statuses honoured (errors == 0), an unexpected one
counted with its line, malformed files refused with FILE:LINE, and `loadgen import`
giving a YAML workload that does the same ops. With Debian's dbench installed, the
whole of /usr/share/dbench/client.txt is replayed once and counted line by line."""
import collections
import os
import shutil
import subprocess

from lgtest import LOADGEN, SOURCE, check, listdir, run, skip, tmpdir, write

CLIENT_TXT = "/usr/share/dbench/client.txt"
MINI = os.path.join(SOURCE, "tests", "data", "dbench", "mini.txt")
LABELS = {
    "NTCreateX": "NTCreateX", "Close": "Close", "Rename": "Rename", "Unlink": "Unlink",
    "Deltree": "Deltree", "Mkdir": "Mkdir", "Rmdir": "Rmdir",
    "QUERY_PATH_INFORMATION": "Qpathinfo", "QUERY_FILE_INFORMATION": "Qfileinfo",
    "QUERY_FS_INFORMATION": "Qfsinfo", "SET_FILE_INFORMATION": "Sfileinfo",
    "FIND_FIRST": "Find", "WriteX": "WriteX", "ReadX": "ReadX", "LockX": "LockX",
    "UnlockX": "UnlockX", "Flush": "Flush",
}
# mini.txt per client: its op lines, with REPEAT 3 and LOOP 2 unrolled
MINI_COUNTS = {
    "Deltree": 2, "Mkdir": 1, "NTCreateX": 4, "Close": 3, "Qfsinfo": 5, "WriteX": 2,
    "Qfileinfo": 1, "Sfileinfo": 1, "LockX": 1, "UnlockX": 1, "Flush": 1, "ReadX": 2,
    "Qpathinfo": 2, "Find": 4, "Rename": 1, "Unlink": 2, "Rmdir": 1, "Sleep": 2,
}


def file_counts(path):
    """Op lines per label of a loadfile without LOOP or REPEAT (awk '{print $1}')."""
    counts = collections.Counter()
    with open(path, errors="replace") as f:
        for line in f:
            words = line.split()
            if words and words[0] in LABELS:
                counts[LABELS[words[0]]] += 1
    return dict(counts)


def by_type(res, key="count"):
    return {k: v[key] for k, v in res.json["runs"][0]["ops_by_type"].items()}


def run_once(loadfile, clients, what):
    """--run-once in a fresh target directory; checks the run and the cleanup."""
    d = tmpdir()
    target = os.path.join(d, "target")
    os.mkdir(target)
    res = run(["-q", "--run-once", "-D", target, "-c", loadfile, str(clients)], workdir=d,
              timeout=280)
    check(res.json is not None, f"{what}: JSON written", res)
    check(listdir(target) == [], f"{what}: run directory removed")
    shutil.rmtree(d)
    return res


def import_to(src, out):
    return subprocess.run([LOADGEN, "import", src, "-o", out], capture_output=True,
                          text=True, timeout=120)


d = tmpdir()

# --- mini.txt: every op, three clients, by content under a .yaml name ---
disguised = os.path.join(d, "looks-like.yaml")
shutil.copy(MINI, disguised)
res = run_once(disguised, 3, "mini")
check(res.rc == 0, "mini: exit status 0", res)
r = res.json["runs"][0]
check(r["errors"] == 0, f"mini: no unexpected results ({r['error_notes']})", res)
check(by_type(res) == {k: 3 * v for k, v in MINI_COUNTS.items()},
      f"mini: ops by label x 3 clients (got {by_type(res)})")
check(r["bytes_written"] == 3 * 69632, "mini: bytes written (64 KiB + 4 KiB per client)")
check(r["bytes_read"] == 3 * 65536, "mini: bytes read (the read past the end gives 0)")
check(res.json["workload"]["name"] == "looks-like", "mini: workload named after the file")
mini_res = res

# --- statuses that do not come true are errors, with their lines ---
wrong = write(os.path.join(d, "wrong.txt"),
              'NTCreateX "\\clients\\client1\\f" 0x40 0x2 1 NT_STATUS_OK\n'
              "Close 1 NT_STATUS_OK\n"
              "\n"
              'Unlink "\\clients\\client1\\nothere" NT_STATUS_OK\n'
              'QUERY_PATH_INFORMATION "\\clients\\client1\\f" 1004 '
              "NT_STATUS_OBJECT_NAME_NOT_FOUND\n")
res = run_once(wrong, 1, "wrong statuses")
check(res.rc == 1, "wrong statuses: exit status 1", res)
r = res.json["runs"][0]
check(r["errors"] == 2, "wrong statuses: 2 errors", res)
check(sorted(n["line"] for n in r["error_notes"]) == [4, 5], "errors carry lines 4 and 5")
t = r["ops_by_type"]
check(t["Unlink"]["errors_by_errno"] == {"ENOENT": 1}, "Unlink failed with ENOENT")
check(t["Qpathinfo"]["errors"] == 1 and t["NTCreateX"]["errors"] == 0,
      "the stat that succeeded is the Qpathinfo error")

# --- malformed loadfiles: exit 2, FILE:LINE: message, nothing run ---
for text, msg in [
        ("Deltree \"\\clients\\client1\" NT_STATUS_OK\n\nClose 7 NT_STATUS_OK\n",
         ":3: handle 7 used before it is opened"),
        ("Flush\n", ":1: 'Flush' needs a status"),
        ("NTCreateX \"\\f\" 0x40 0x2 1 NT_STATUS_OK\nReadX 1 0 x 1 NT_STATUS_OK\n",
         ":2: argument 'x' is not a number"),
        ("Unlink \"\\a\" NT_STATUS_WHAT\n", ":1: unknown status 'NT_STATUS_WHAT'"),
        ("Unlink \"\\..\\..\\etc\\passwd\" NT_STATUS_OK\n",
         ":1: path '\\..\\..\\etc\\passwd': path leaves the run directory"),
        ("Mkdir \"\\x\" NT_STATUS_OK\nFrobnicate 1 NT_STATUS_OK\n",
         ":2: unknown op 'Frobnicate'"),
]:
    bad = write(os.path.join(d, "bad.txt"), text)
    target = os.path.join(d, "t2")
    os.makedirs(target, exist_ok=True)
    res = run(["-q", "-D", target, "-c", bad, "1"], workdir=d, json_out=False)
    check(res.rc == 2 and f"bad.txt{msg}" in res.err, f"malformed: {msg.strip()}", res)
    check(listdir(target) == [], "malformed: nothing created")

# --- import: YAML that runs the same ops ---
yaml_out = os.path.join(d, "mini.yaml")
p = import_to(MINI, yaml_out)
check(p.returncode == 0 and p.stderr == "", f"import mini.txt: exit 0 ({p.stderr})")
with open(yaml_out) as f:
    text = f.read()
check('\nlabels:\n' in text and '\n  ntcreate: "NTCreateX"\n' in text
      and 'label: "Qfileinfo"' in text and "expect: ENOENT" in text,
      "imported YAML keeps labels (common ones under 'labels:') and expected statuses")
p = subprocess.run([LOADGEN, "import", MINI], capture_output=True, text=True)
check(p.returncode == 0 and p.stdout == text, "import without -o writes the same to stdout")
p = subprocess.run([LOADGEN, "import", MINI, "-o", "-"], capture_output=True, text=True)
check(p.returncode == 0 and p.stdout == text, "import -o - writes to stdout")
res = run_once(yaml_out, 3, "imported mini")
check(res.rc == 0 and res.json["runs"][0]["errors"] == 0, "imported mini: no errors", res)
check(by_type(res) == by_type(mini_res), "imported mini: same ops by label")
check(by_type(res, "bytes") == by_type(mini_res, "bytes"), "imported mini: same bytes")

bad = write(os.path.join(d, "bad.txt"), "Close 1 NT_STATUS_OK\n")
for args, msg in [([bad, "-o", os.path.join(d, "x.yaml")], "bad.txt:1: handle 1 used"),
                  ([os.path.join(d, "missing.txt")], "missing.txt: No such file"),
                  ([], "missing the loadfile"),
                  ([MINI, "--bogus"], "unknown option '--bogus'"),
                  ([MINI, "-o", os.path.join(d, "no", "dir.yaml")], "No such file")]:
    p = subprocess.run([LOADGEN, "import"] + args, capture_output=True, text=True)
    check(p.returncode == 2 and msg in p.stderr, f"import error exits 2: {msg}")
check(not os.path.exists(os.path.join(d, "x.yaml")), "failed import writes no file")

# --- many passes through a loadfile: dbench's Deltree leaves directories, so a status
# saying a directory the file makes is missing holds on the first pass only ---
passes = write(os.path.join(d, "passes.txt"),
               'Deltree "\\clients\\client1" NT_STATUS_OK\n'
               'QUERY_PATH_INFORMATION "\\clients\\client1\\d" 1004 '
               'NT_STATUS_OBJECT_NAME_NOT_FOUND\n'
               'NTCreateX "\\clients\\client1\\d" 0x1 0x2 7 NT_STATUS_OK\n'
               'Close 7 NT_STATUS_OK\n'
               'NTCreateX "\\clients\\client1\\d\\f" 0x40 0x2 8 NT_STATUS_OK\n'
               'Close 8 NT_STATUS_OK\n')
ptarget = os.path.join(d, "passes")
os.mkdir(ptarget)
res = run(["-q", "-D", ptarget, "-c", passes, "-t", "1", "--warmup", "0", "1"], workdir=d)
r = res.json["runs"][0] if res.json else {}
check(res.rc == 0 and r.get("errors") == 0 and r.get("ops", 0) > 12,
      f"many passes through a loadfile: no unexpected results ({r.get('error_notes')})", res)

# --- Debian's client.txt, unchanged ---
if not os.path.exists(CLIENT_TXT):
    skip(f"the client.txt part: {CLIENT_TXT} is not installed (apt-get install dbench)")
else:
    want = file_counts(CLIENT_TXT)
    res = run_once(CLIENT_TXT, 1, "client.txt")
    r = res.json["runs"][0]
    check(res.rc == 0 and r["errors"] == 0,
          f"client.txt: every status as expected ({r['error_notes'][:3]})", res)
    check(by_type(res) == want, f"client.txt: ops by label equal the file's op lines ({want})")
    check(want["ReadX"] == 124199 and want["NTCreateX"] == 79230, "client.txt: Debian's file")
    yaml_out = os.path.join(d, "client.yaml")
    p = import_to(CLIENT_TXT, yaml_out)
    check(p.returncode == 0, f"import client.txt ({p.stderr})")
    res2 = run_once(yaml_out, 1, "imported client.txt")
    check(res2.rc == 0 and res2.json["runs"][0]["errors"] == 0, "imported: no errors", res2)
    check(by_type(res2) == by_type(res), "imported client.txt: same ops by label")
    check(by_type(res2, "bytes") == by_type(res, "bytes"), "imported client.txt: same bytes")

shutil.rmtree(d)
