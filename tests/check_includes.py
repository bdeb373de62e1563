#!/usr/bin/env python3
"""No file includes a header of a layer above its own (issue 26).

    tests/check_includes.py [SOURCE_DIR]
    tests/check_includes.py --self-test

The layers are the folders of src/, in the order src/CMakeLists.txt adds them (lowest
first); a file's layer is the first folder of its path under src/ or include/loadgen/
(src/run/ranks/coord.c and include/loadgen/run/coord.h are both in run), and src/main.c
is above them all. Each `#include "..."` of a .c or .h file is resolved as the compiler
resolves it (the file's own folder, then include/, then src/); a header that resolves
to a higher layer is a wrong-way include and is printed as

    src/counters/counters.c:15: includes loadgen/run/coord.h (run, above counters)

The link checks (cmake/layers.cmake) catch a call the wrong way, but not an include of a
higher layer's types, macros or inline functions, which this catches. Also refused: a
source file at the top of src/ other than main.c, and a folder of src/ that is not a
layer. Exit 0 when all is well, 1 when something is wrong, 2 on a usage error.
--self-test plants a wrong-way include in a copy of a small tree and checks that it is
caught (and that the clean tree passes)."""
import os
import re
import shutil
import sys
import tempfile

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include\s+"([^"]+)"', re.M)
SUBDIR = re.compile(r'^\s*add_subdirectory\(\s*([A-Za-z0-9_]+)\s*\)', re.M)


def layers(root):
    with open(os.path.join(root, "src", "CMakeLists.txt")) as f:
        order = SUBDIR.findall(f.read())
    if not order:
        raise SystemExit("check_includes: no add_subdirectory() in src/CMakeLists.txt")
    return {name: rank for rank, name in enumerate(order)}


def layer_of(root, path, rank):
    """(layer name, rank) of a file of the tree, or None when it belongs to no layer."""
    rel = os.path.relpath(path, root).split(os.sep)
    if rel[:2] == ["src", "main.c"]:
        return ("main", len(rank))
    if rel[0] == "src" and len(rel) > 2:
        top = rel[1]
    elif rel[:2] == ["include", "loadgen"] and len(rel) > 3:
        top = rel[2]
    else:
        return None
    return (top, rank[top]) if top in rank else ("?" + top, -1)


def check(root):
    rank = layers(root)
    problems = []
    src = os.path.join(root, "src")
    for name in sorted(os.listdir(src)):
        p = os.path.join(src, name)
        if os.path.isdir(p) and name not in rank:
            problems.append(f"src/{name}/: a folder that is not a layer of src/CMakeLists.txt")
        if os.path.isfile(p) and name.endswith((".c", ".h")) and name != "main.c":
            problems.append(f"src/{name}: a source file outside the layer folders")
    files = []
    for top in (src, os.path.join(root, "include", "loadgen")):
        for d, _, fs in os.walk(top):
            files += [os.path.join(d, f) for f in fs if f.endswith((".c", ".h"))]
    for path in sorted(files):
        mine = layer_of(root, path, rank)
        if mine is None:
            continue
        if mine[1] < 0:
            problems.append(f"{os.path.relpath(path, root)}: in {mine[0][1:]}/, not a layer")
            continue
        with open(path) as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            where = f"{os.path.relpath(path, root)}:{line}"
            for base in (os.path.dirname(path), os.path.join(root, "include"), src):
                target = os.path.join(base, m.group(1))
                if os.path.isfile(target):
                    break
            else:
                continue  # generated (lg_git_describe.h) or a system header in quotes
            theirs = layer_of(root, os.path.normpath(target), rank)
            if theirs is None:
                problems.append(f"{where}: includes {m.group(1)}, which is in no layer")
            elif theirs[1] > mine[1]:
                problems.append(f"{where}: includes {m.group(1)} ({theirs[0]}, above {mine[0]})")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "src", "low"))
        os.makedirs(os.path.join(tmp, "src", "high", "sub"))
        os.makedirs(os.path.join(tmp, "include", "loadgen", "high"))
        def put(rel, text):
            with open(os.path.join(tmp, rel), "w") as f:
                f.write(text)
        put("src/CMakeLists.txt", "add_subdirectory(low)\nadd_subdirectory(high)\n")
        put("src/main.c", '#include "high/sub/priv.h"\n#include "loadgen/high/api.h"\n')
        put("src/low/a.h", "int a;\n")
        put("src/low/a.c", '#include "a.h"\n#include <stdio.h>\n')
        put("src/high/sub/priv.h", '#include "low/a.h"\n')
        put("include/loadgen/high/api.h", '#include "generated.h"\n')
        clean = check(tmp)
        assert clean == [], clean
        put("src/low/a.c", '#include "a.h"\n\n#include "high/sub/priv.h"\n')
        put("src/stray.c", "\n")
        os.makedirs(os.path.join(tmp, "src", "misc"))
        got = check(tmp)
        want = ["src/misc/: a folder that is not a layer of src/CMakeLists.txt",
                "src/stray.c: a source file outside the layer folders",
                "src/low/a.c:3: includes high/sub/priv.h (high, above low)"]
        assert got == want, got
        shutil.rmtree(os.path.join(tmp, "src", "misc"))
        os.remove(os.path.join(tmp, "src", "stray.c"))
        put("src/low/a.c", '#include "loadgen/high/api.h"\n')
        assert check(tmp) == ["src/low/a.c:1: includes loadgen/high/api.h (high, above low)"]
    print("check_includes: self-test passed (a wrong-way include, a stray file and folder caught)")


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        self_test()
        return 0
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_includes: {len(problems)} wrong-way include(s) or misplaced file(s)",
              file=sys.stderr)
        return 1
    print("check_includes: every include goes down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
