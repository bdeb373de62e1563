#!/usr/bin/env python3
"""Two builds of the dbench loader, file for file: the same output or the same message.

    tests/dbench_differential.py OLD_LOADGEN NEW_LOADGEN [SEED] [FILES]

Writes FILES (default 500) dbench loadfiles made from random slices of client.txt, with
loadgen's directives mixed in and about half the lines mutated (a quote, blank, NUL,
'#', '*', digit or letter put in; a byte taken out; a run of 1 to 2049 'x'; the line in
lower case), and has both binaries import each one (`loadgen import FILE -o OUT`). Prints
the first three files on which the exit status, stderr or the YAML written differ, and
the count. Exit status 0 when none differ, 1 otherwise, 2 on bad arguments.

For a change to the dbench loader meant to keep its results (a faster splitter, say):
build the commit before it and the change, and run this with several seeds. SEED makes
a run repeatable."""
import os
import random
import subprocess
import sys
import tempfile

CLIENT_TXT = "/usr/share/dbench/client.txt"
EXTRA = [b'LOOP 3', b'ENDLOOP', b'REPEAT 2', b'SLEEP 10', b'# c', b'1.5 Close 1 NT_STATUS_OK',
         b'ntcreatex "\\a\\b" 0 2 7 NT_STATUS_OK', b'ReadX 7 0 10 10 *', b'Close 7 NT_STATUS_OK',
         b'Unlink "\\a\\b" 0x16 NT_STATUS_OK', b'FIND_FIRST "\\a\\<.x" 0x104 1366 0 NT_STATUS_OK',
         b'WriteX 7 010 0x10 16 NT_STATUS_OK', b'Rename "a b" "c\\d" NT_STATUS_OK']
BYTES = b'"  \t\r\n\x00!#*+0x9aZ\\<>?-'


def mutate(rng, line):
    b = bytearray(line)
    for _ in range(rng.randint(0, 4)):
        op, i = rng.random(), rng.randint(0, len(b))
        if op < 0.4:
            b[i:i] = bytes([rng.choice(BYTES)])
        elif op < 0.7 and b:
            del b[min(i, len(b) - 1)]
        elif op < 0.85:
            b[i:i] = b'x' * rng.choice([1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 2049])
        else:
            b = bytearray(b.lower())
    return bytes(b)


def loadfile(rng, lines):
    n = rng.randint(1, 25)
    start = rng.randint(0, len(lines) - n)
    body = lines[start:start + n] + rng.sample(EXTRA, rng.randint(0, 3))
    if rng.random() < 0.3:
        rng.shuffle(body)
    body = [mutate(rng, x) if rng.random() < 0.5 else x for x in body]
    return b'\n'.join(body) + (b'\n' if rng.random() < 0.7 else b'')


def imported(exe, path, out):
    if os.path.exists(out):
        os.unlink(out)
    p = subprocess.run([exe, "import", path, "-o", out], capture_output=True)
    yaml = open(out, "rb").read() if os.path.exists(out) else None
    return p.returncode, p.stderr, yaml


def main():
    if len(sys.argv) not in (3, 4, 5) or not all(os.access(x, os.X_OK) for x in sys.argv[1:3]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    if not os.path.exists(CLIENT_TXT):
        print(f"{CLIENT_TXT} is missing (apt-get install dbench)", file=sys.stderr)
        return 2
    old, new = sys.argv[1:3]
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    files = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    with open(CLIENT_TXT, "rb") as f:
        lines = f.read().split(b'\n')[:3000]
    differ = 0
    with tempfile.TemporaryDirectory(prefix="lg-dbdiff.") as d:
        path, out = os.path.join(d, "in.txt"), os.path.join(d, "out.yaml")
        for i in range(files):
            with open(path, "wb") as f:
                f.write(loadfile(rng, lines))
            a, b = imported(old, path, out), imported(new, path, out)
            if a != b:
                differ += 1
                if differ <= 3:
                    print(f"file {i}: exit {a[0]} vs {b[0]}\n  old: {a[1][:300]!r}\n"
                          f"  new: {b[1][:300]!r}\n  text: {open(path, 'rb').read()[:300]!r}")
    print(f"{files} files, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
