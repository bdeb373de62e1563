"""--direct and flags: [direct]: a read or write whose size or offset the target's logical
block size does not divide is refused before the run (exit 2, FILE:LINE:COL, the alignment
needed and where it came from), instead of failing every call with EINVAL. An EINVAL the
check could not foresee (an append at an unaligned end) is noted with what O_DIRECT needs."""
import os
import re

from lgtest import check, listdir, run, skip, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
ALIGN = r"multiple of (\d+): with (--direct|flags: \[direct\]), sizes and offsets must be " \
        r"multiples of the target's logical block size \(\d+ bytes, [^)]+\)"

# flags: [direct] on one open: its fixed offset is checked, with line and column.
w = write(os.path.join(d, "off.yaml"), "run:\n  - create: {path: a, as: f, flags: [direct]}\n"
          "  - write: {file: f, size: 4KiB, offset: 100}\n  - close: f\n")
res = run(["-D", target, "-c", w, "1"], workdir=d, json_out=False)
check(res.rc == 2, "unaligned offset with flags: [direct] exits 2", res)
m = re.search(re.escape(w) + r":3:34: 'offset' of write on 'f' is 100 bytes, not a " + ALIGN,
              res.err)
check(m is not None and int(m.group(1)) >= 512 and m.group(2) == "flags: [direct]",
      "FILE:LINE:COL, the key, its value and the alignment needed", res)
check(listdir(target) == [], "nothing ran", res)

# A slot opened without O_DIRECT is not checked ...
w2 = write(os.path.join(d, "buffered.yaml"), "run:\n  - create: {path: a, as: f}\n"
           "  - write: {file: f, size: 100, offset: 100}\n  - close: f\n")
res = run(["-D", target, "-c", w2, "-q", "--run-once", "1"], workdir=d, json_out=False)
check(res.rc == 0, "buffered I/O of any size runs", res)
# ... unless --direct makes every open O_DIRECT: then its size is refused.
res = run(["-D", target, "-c", w2, "--direct", "1"], workdir=d, json_out=False)
check(res.rc == 2 and re.search(re.escape(w2) + r":3:22: 'size' of write on 'f' is 100 "
                                r"bytes, not a " + ALIGN, res.err),
      "--direct checks every read and write", res)

# Random placement: align and base count too; the built-in workload with a bad -p.
w3 = write(os.path.join(d, "rand.yaml"), "run:\n  - create: {path: a, as: f, flags: [direct]}\n"
           "  - read: {file: f, size: 4KiB, offset: random, range: 1MiB, align: 1000}\n"
           "  - close: f\n")
res = run(["-D", target, "-c", w3, "1"], workdir=d, json_out=False)
check(res.rc == 2 and ":3:" in res.err and "'align' of read on 'f' is 1000 bytes" in res.err,
      "random placement: align checked", res)
res = run(["-D", target, "--direct", "-p", "bs=1000", "1"], workdir=d, json_out=False)
check(res.rc == 2 and re.search(r"builtin:netbench:\d+:\d+: 'size' of \w+ on '\w+' is 1000 "
                                r"bytes", res.err) and "loadgen show" in res.err,
      "built-in workload with -p bs=1000 --direct", res)

# In the run: an append at the unaligned end a buffered setup write left is not refused
# before the run (only the file knows its end); its EINVAL says what O_DIRECT needs,
# with the alignment the refusals above named (or the device's logical block size, when
# that was only assumed).
align = int(m.group(1))
want = ("O_DIRECT: the offset and size must be multiples of the device's logical block size"
        if "assumed" in m.group(0) else
        f"O_DIRECT: the offset and size must be multiples of {align} bytes")
try:
    fd = os.open(os.path.join(target, "probe"), os.O_CREAT | os.O_WRONLY | os.O_DIRECT, 0o600)
    os.close(fd)
    os.unlink(os.path.join(target, "probe"))
    direct_ok = True
except OSError as e:
    direct_ok = False
    skip(f"the run-time part: {target} refuses O_DIRECT ({e})")
if direct_ok:
    w4 = write(os.path.join(d, "append.yaml"), "setup:\n"
               "  - create: {path: \"a${client}\", as: f}\n"
               "  - write: {file: f, size: 100, offset: 0}\n"
               "  - close: f\n"
               "run:\n"
               "  - open: {path: \"a${client}\", as: f, flags: [write, direct]}\n"
               "  - write: {file: f, size: 4KiB, offset: append}\n"
               "  - close: f\n")
    res = run(["-D", target, "-c", w4, "-q", "--run-once", "1"], workdir=d)
    r = res.json["runs"][0] if res.json else None
    check(r is not None, "the append runs", res)
    if r["errors"] == 0:
        skip(f"the run-time part: {target} takes unaligned O_DIRECT writes (buffered)")
    else:
        check(r["error_notes"] == [{"client": 0, "phase": "run", "line": 7, "type": "write",
                                    "path": "a0", "got": "EINVAL", "expected": "OK",
                                    "hint": want}],
              f"the note of the EINVAL says what O_DIRECT needs ({r['error_notes']})", res)
        check(f" client 0: line 7: write got EINVAL, expected OK ({want})\n" in res.out,
              "and so does the text report", res)
