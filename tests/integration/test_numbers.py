"""Numbers that agree (issues 9 and 10): the timeline adds up exactly to the run's totals
(ops and bytes per direction; a write-only workload reads 0 bytes in every interval);
--run-once reports no warm-up; the last progress line shows the final figures; with
--interval below one second the progress line shows fractional seconds."""
import os
import re
import shutil

from lgtest import SOURCE, check, run, tmpdir

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
dd = os.path.join(SOURCE, "loadfiles", "dd.yaml")

# -- timed dd runs, with and without warm-up: the timeline holds every op and byte.
res = run(["-q", "-t", "2", "--warmup", "0", "--repeat", "3", "-D", target, "-c", dd,
           "-p", "count=2000", "-p", "bs=16KiB", "1"])
check(res.rc == 0, "dd runs", res)
res2 = run(["-q", "-t", "1", "--warmup", "1", "--repeat", "2", "-D", target, "-c", dd,
            "-p", "count=2000", "-p", "bs=16KiB", "2"])
check(res2.rc == 0, "dd runs with warm-up", res2)
for i, r in enumerate(res.json["runs"] + res2.json["runs"]):
    tl = r["timeline"]
    for key, total in (("ops", r["ops"]), ("bytes_written", r["bytes_written"]),
                       ("bytes_read", r["bytes_read"]),
                       ("bytes", r["bytes_read"] + r["bytes_written"])):
        s = sum(iv[key] for iv in tl)
        check(s == total, f"run {i}: timeline {key} adds up ({s} == {total})")
    check(all(iv["bytes_read"] == 0 for iv in tl), f"run {i}: write-only: no bytes read")
    check(abs(tl[-1]["t_s"] - r["duration_s"]) < 1e-6,
          f"run {i}: the last interval ends with the measured time")

# -- --run-once: no warm-up happened, so none is reported; progress agrees with the end.
res = run(["--run-once", "--interval", "0.1", "-D", target, "-c", dd, "-p", "count=20000",
           "-p", "bs=16KiB", "1"])
r = res.json["runs"][0]
check(res.json["config"]["warmup_s"] == 0 and res.json["config"]["run_once"],
      "--run-once reports warmup_s 0", res)
lines = [ln for ln in res.out.splitlines() if "MB/sec  " in ln and " sec  latency" in ln]
check(lines and not any(" warmup " in ln for ln in lines), "--run-once: no warm-up line", res)
m = re.match(r"\s*\d+\s+(\d+)\s+([\d.]+) MB/sec\s+execute\s+([\d.]+) sec", lines[-1])
check(m is not None, f"progress line parsed ({lines[-1]!r})")
ops, mbps, secs = int(m.group(1)), float(m.group(2)), m.group(3)
check(ops == r["ops"], f"last progress line: ops == the run's ({ops}, {r['ops']})")
check(abs(mbps - r["throughput_mbps"]) <= 0.006,
      f"last progress line: MB/s == final throughput ({mbps}, {r['throughput_mbps']:.3f})")
check(re.fullmatch(r"\d+\.\d\d", secs) is not None and
      abs(float(secs) - r["duration_s"]) <= 0.006,
      f"--interval < 1: fractional seconds, the last at the measured time ({secs})")
# (the last line comes when the clients stop, which may be within 5 ms of the one before
# on a busy machine: then both round to the same hundredth)
secs_all = [float(ln.split("execute")[1].split("sec")[0]) for ln in lines]
check(all(a < b for a, b in zip(secs_all[:-1], secs_all[1:-1])) and
      secs_all[-1] >= secs_all[-2] if len(secs_all) > 1 else True,
      f"--interval < 1: seconds differ from line to line ({secs_all})")
res = run(["-t", "1", "--warmup", "0", "-D", target, "-c", dd, "-p", "count=100", "1"])
check(re.search(r"execute +1 sec", res.out) is not None, "--interval 1: whole seconds", res)
shutil.rmtree(d)
