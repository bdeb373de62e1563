"""Hostile workloads through the real binary: every file in tests/data/hostile/ and a few
generated ones (100k-deep nesting, 10 MB lines, a 1 MB dbench path, random bytes with a
fixed seed). Each must exit 2 with "FILE:LINE[:COL]: message" before touching the target
directory, within a few seconds and a bounded amount of memory.

The binary runs with RLIMIT_AS = 1 GiB (not under ASan/TSan, which reserve terabytes of
address space up front) and a hard timeout; the peak RSS of all runs is checked too.
A file added to tests/data/hostile/ must get its expected message in EXPECT below."""
import os
import random
import re
import resource
import subprocess
import time

from lgtest import LOADGEN, SOURCE, check, listdir, tmpdir

HOSTILE = os.path.join(SOURCE, "tests", "data", "hostile")
with open(LOADGEN, "rb") as f:
    exe = f.read()
SANITIZED = b"__asan_init" in exe or b"__tsan_init" in exe
del exe
SECONDS = 15 if SANITIZED else 5  # bound per run; a sanitizer slows loading ~10 times
MEMORY = 1 << 30

# file -> (position, message): position is LINE:COL for YAML, LINE for dbench loadfiles.
EXPECT = {
    "billion_laughs.yaml": ("3:4", "YAML anchors (&a) are not supported"),
    "merge_alias.yaml": ("3:17", "YAML aliases (*base) are not supported"),
    "comment_only.yaml": ("1:1", "empty workload: expected a mapping with a 'run' section"),
    "empty.yaml": ("1:1", "empty workload: expected a mapping with a 'run' section"),
    "count_1e30.yaml": ("3:41", "bad number '1e30' for 'count': expected a whole number"),
    "huge_size.yaml": ("3:28", "bad size '99999999999999999999999' for 'size': value too large"),
    "size_2_64.yaml": ("4:28", "bad size '18446744073709551616' for 'size': value too large"),
    "size_unit_overflow.yaml": ("4:28", "bad size '17179869184GiB' for 'size': value too large"),
    "param_huge.yaml": ("6:28", "(from '${bs}') for 'size': value too large"),
    "repeat_2_64.yaml": ("3:14", "number '18446744073709551616' for 'count': value too large"),
    "multi_document.yaml": ("3:1", "a workload is one YAML document; found a second one"),
    "tabs.yaml": ("2:1", "YAML does not allow tabs for indentation, use spaces"),
    "invalid_utf8.yaml": ("2:18", "invalid leading UTF-8 octet"),
    "nul_byte.yaml": ("3:1", "control characters are not allowed"),
    "nul_escape.yaml": ("2:11", "NUL character in value"),
    "utf16_odd.yaml": ("1:11", "incomplete UTF-16 character"),
    "dbench_negative.txt": ("2", "argument '-4096' is not a number (negative)"),
    "dbench_offset_overflow.txt": ("2", "'99999999999999999999999' is not a number (more than 64"),
    "dbench_offset_plus_size.txt": ("2", "offset 9223372036854775807 + size is past the"),
    "dbench_lock_overflow.txt": ("2", "lock range 9223372036854775807+2 is past the"),
    "dbench_handle_2_64.txt": ("1", "handle '18446744073709551616' is not a number (more than"),
    "dbench_loop_2_64.txt": ("1", "LOOP '18446744073709551616' is not a number (more than 64"),
    "dbench_sleep_overflow.txt": ("2", "SLEEP 18446744073709551615: too long"),
    "dbench_status_overflow.txt": ("1", "unknown status '0x1C0000034'"),
    "dbench_nul_byte.txt": ("2", "NUL byte in the line"),
}


def limits():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


target = os.path.join(tmpdir(), "target")
os.mkdir(target)


def refused(path, pos, msg, args=()):
    """Run loadgen on workload path; it must exit 2 with PATH:POS: ...MSG, in time."""
    t0 = time.monotonic()
    try:
        proc = subprocess.run([LOADGEN, "-q", "-t", "1", "-D", target, "-c", path, *args, "4"],
                              capture_output=True, timeout=4 * SECONDS, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        check(False, f"{os.path.basename(path)}: finished within {4 * SECONDS} s")
    took = time.monotonic() - t0
    err = proc.stderr.decode(errors="replace")
    name = os.path.basename(path)
    # The format always; the position too where given ("2:" only fixes the line).
    form = re.match(r"loadgen: " + re.escape(path) + r":[1-9]\d*(:[1-9]\d*)?: \S", err)
    at = f"loadgen: {path}:{pos}" + ("" if pos.endswith(":") else ": ")
    what = f"{name}: exit 2 and '{path}:{pos or 'LINE'}...{msg}' in {took:.2f} s"
    check(proc.returncode == 2 and form is not None and (not pos or err.startswith(at)) and
          msg in err, what, f"rc={proc.returncode}\nstderr: {err[:2000]}")
    check(took < SECONDS, f"{name}: under {SECONDS} s")
    check(len(err) < 2048, f"{name}: message of {len(err)} bytes")
    check(listdir(target) == [], f"{name}: nothing created")


# Every committed hostile input, and every one of them listed here.
files = sorted(os.listdir(HOSTILE))
check(sorted(EXPECT) == files, "every file in tests/data/hostile has an expected message",
      f"not listed: {sorted(set(files) - set(EXPECT))}, "
      f"missing: {sorted(set(EXPECT) - set(files))}")
for name in files:
    refused(os.path.join(HOSTILE, name), *EXPECT[name])

# Generated ones, too big (or too random) to commit.
gen = tmpdir()


def generated(name, data, pos, msg, args=()):
    path = os.path.join(gen, name)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    refused(path, pos, msg, args)


MB = 1 << 20
generated("deep_flow.yaml", "[" * 100000, "1:65", "nesting deeper than 64 levels")
generated("deep_map.yaml", "run: " + "{a: " * 100000, "1:", "nesting deeper than 64 levels")
generated("deep_block.yaml", "run:\n  " + "- " * 100000 + "stat: a\n", "2:",
          "nesting deeper than 64 levels")
generated("line_path.yaml", "run: [{stat: " + "a" * (10 * MB) + "}]\n", "1:14",
          "path longer than 2048 bytes")
generated("line_key.yaml", "run: [{stat: a}]\n" + "k" * (10 * MB) + ": 1\n", "2:",
          "could not find expected ':'")
generated("line_comment.yaml", "#" * (10 * MB), "1:1", "empty workload")
generated("dbench_path.txt", 'NTCreateX "\\clients\\client1\\' + "a" * MB +
          '" 0x0 2 1 NT_STATUS_OK\n', "1", "is 1048593 bytes long (at most 2048)")
generated("dbench_line.txt", "QUERY_FS_INFORMATION 3 NT_STATUS_OK\nClose " + "1 " * (5 * MB),
          "2", "more than 16 fields")
rng = random.Random(20240601)
for i in range(4):
    # Random bytes (as from /dev/urandom, but the same on every run). Most start with a
    # byte that is no UTF-8, some get further: any YAML error at line 1 or later will do.
    blob = bytes(rng.getrandbits(8) for _ in range(64 * 1024))
    generated(f"random{i}.bin", blob, "", "")
generated("random_text.yaml", "".join(rng.choice("ab:-[]{}#&*!|>'\"\n ") for _ in range(MB)),
          "", "")

# Hostile -p values for a workload that declares them.
dd = os.path.join(SOURCE, "loadfiles", "dd.yaml")
refused(dd, "", "bad size '99999999999999999999999' (from '${bs}')",
        ["-p", "bs=99999999999999999999999"])
refused(dd, "", "parameter values are literal", ["-p", "bs=${bs}"])
# (one argument can be at most 128 KiB: MAX_ARG_STRLEN)
refused(dd, "", "declares no parameter", ["-p", "x" * 100000 + "=1"])

peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
check(peak < MEMORY, f"peak RSS of all runs {peak >> 20} MiB < {MEMORY >> 20} MiB")
