"""A step cut off by the end of the measured phase is no op (issue 25, item 2): a sleep
the -t deadline (or a stop) ends early, or a paced op whose turn comes after it, is not
counted in ops, ops/s, latency or bytes; it is counted apart under skipped, reason
cut_off, for whatever step type it was. The time it held the client still belongs to
the measured phase (duration_s runs to the deadline)."""
import os

from lgtest import check, run, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)

sleepy = write(os.path.join(d, "sleepy.yaml"), """name: sleepy
run:
  - sleep: 2s
""")


def sleep_row(res):
    return res.json["runs"][0]["ops_by_type"]["sleep"]


# -t 3.5: one sleep of 2 s completes, the second is cut off at 3.5 s (1.5 s in; the
# margins are wide, so a late wake-up on a busy machine changes nothing).
res = run(["-q", "-t", "3.5", "--warmup", "0", "-D", target, "-c", sleepy, "1"])
r = res.json["runs"][0]
s = sleep_row(res)
check(res.rc == 0, "a cut-off step is no failure: exit 0", res)
check(s["count"] == 1 and r["ops"] == 1,
      f"-t 3.5: one sleep completed, the cut-off one is no op ({s['count']}, {r['ops']})")
check(s["latency_ns"]["min"] >= 2e9,
      f"-t 3.5: every sleep counted took its 2 s (min {s['latency_ns']['min']} ns)")
check(sum(h[2] for h in s["histogram"]) == 1, "-t 3.5: the cut-off sleep is not in the histogram")
check(s["skipped"] == 1 and s["skipped_by_reason"]["cut_off"] == 1,
      f"-t 3.5: the cut-off sleep counted under skipped, cut_off ({s['skipped_by_reason']})")
check(r["skipped_by_reason"]["cut_off"] == 1 and r["skipped"] == 1,
      f"-t 3.5: run's skipped_by_reason ({r['skipped_by_reason']})")
check(r["clients"][0]["skipped"] == 1, "-t 3.5: skipped per client")
check(r["duration_s"] >= 3.49,
      f"-t 3.5: the measured phase lasts to the deadline, the cut-off sleep's time in it "
      f"({r['duration_s']})")
check(abs(r["ops_per_s"] - 1 / r["duration_s"]) < 1e-6,
      f"-t 3.5: ops/s counts the completed sleep only ({r['ops_per_s']})")
check(sum(iv["ops"] for iv in r["timeline"]) == 1, "-t 3.5: the timeline holds no cut-off step")
check("cut_off=1" in res.out, "-t 3.5: the text report names the cut-off step", res)

# -t 1: the only sleep is cut off: no op at all, none in the latency table.
res = run(["-q", "-t", "1", "--warmup", "0", "-D", target, "-c", sleepy, "1"])
r = res.json["runs"][0]
s = sleep_row(res)
check(s["count"] == 0 and r["ops"] == 0 and r["ops_per_s"] == 0,
      f"-t 1: no sleep completed, none counted ({s['count']}, {r['ops']}, {r['ops_per_s']})")
check(s["skipped_by_reason"]["cut_off"] == 1, f"-t 1: one cut off ({s['skipped_by_reason']})")

# Whatever the step type: a paced stat whose turn (at 3 s) comes after the deadline
# (2.8 s) is cut off, not run late and counted.
stat = write(os.path.join(d, "stat.yaml"), """name: paced
setup:
  - create: {path: "f${client}", as: f, flags: [write]}
  - close: f
run:
  - stat: "f${client}"
cleanup:
  - unlink: "f${client}"
""")
res = run(["-q", "-t", "2.8", "--warmup", "0", "--rate-ops", "1", "-D", target, "-c", stat,
           "1"])
r = res.json["runs"][0]
st = r["ops_by_type"]["stat"]
check(res.rc == 0, "paced: exit 0", res)
check(st["count"] == 3 and st["skipped_by_reason"]["cut_off"] == 1,
      f"paced: stats at 0, 1 and 2 s done, the one due at 3 s cut off ({st['count']}, "
      f"{st['skipped_by_reason']})")
check(r["duration_s"] >= 2.79, f"paced: measured to the deadline ({r['duration_s']})")
