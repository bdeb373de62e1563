"""A recorded program's streams at run time: one thread per stream in each client, in the
client's own directory; 'after' keeps the trace's order between streams (a file one stream
creates is there when another opens it: 50 runs in a row, at 1 to 8 clients, no ENOENT);
--replay-timing original waits the think time and afap does not; the threads of a
client share its files; --processes and --replay-timing without streams are refused."""
from lgtest import check, run, tmpdir, write

# A stream creates then writes 20 files, thinking 300 us before each create; the other
# opens each as soon as it exists. Without its 'after' steps the reader runs ahead of
# the maker's think time and finds nothing (ENOENT).
N = 20
maker = "".join(f"""      - think: 300us
      - create: {{path: "${{client}}/f{i}", as: t1.fd3, flags: [write, exclusive]}}
      - write: {{file: t1.fd3, size: 4096}}
      - close: t1.fd3
""" for i in range(N))
reader = "".join(f"""      - after: {{stream: "1 maker", calls: {3 * i + 2}}}
      - open: {{path: "${{client}}/f{i}", as: t2.fd3, flags: [read]}}
      - read: {{file: t2.fd3, size: 4096}}
      - close: t2.fd3
""" for i in range(N))
ORDER = f"""name: order
recorded:
  command: "hand-written: a maker and a reader"
setup:
  - mkdir: "${{client}}"
streams:
  - name: "1 maker"
    steps:
{maker}  - name: "2 reader"
    steps:
{reader}cleanup:
  - deltree: "${{client}}"
  - rmdir: "${{client}}"
"""

d = tmpdir()
wl = write(f"{d}/order.yaml", ORDER)
errors = 0
for i in range(50):
    clients = 1 + i % 8
    r = run(["-q", "--monitor", "off", "-D", d, "-c", wl, "--replay-timing", "original",
             str(clients)])
    run0 = r.json["runs"][0] if r.json else {}
    ok = (r.rc == 0 and run0.get("status") == "complete" and run0.get("errors") == 0
          and run0["ops_by_type"]["open"]["count"] == N * clients
          and run0["ops_by_type"]["read"]["bytes_read"] == 4096 * N * clients)
    if not ok:
        check(False, f"run {i + 1} of 50 ({clients} clients): every open finds its file", r)
check(True, "50 runs of 1 to 8 clients: the reader never opened a file before its "
      "maker made it (0 errors, every open and byte counted)")

# One client's streams share its files: the writer thread's file is read through the
# same slot by its sibling, which closes it.
SHARED = """name: shared
setup:
  - mkdir: "${client}"
streams:
  - name: "1 main"
    steps:
      - create: {path: "${client}/x", as: t1.fd4, flags: [rdwr]}
      - write: {file: t1.fd4, size: 8192}
  - name: "2 thread"
    steps:
      - after: {stream: "1 main", calls: 2}
      - read: {file: t1.fd4, size: 8192, offset: 0}
      - close: t1.fd4
cleanup:
  - unlink: "${client}/x"
  - rmdir: "${client}"
"""
r = run(["-q", "--monitor", "off", "-D", d, "-c", write(f"{d}/shared.yaml", SHARED), "3"])
run0 = r.json["runs"][0]
check(r.rc == 0 and run0["errors"] == 0 and run0["ops_by_type"]["read"]["bytes_read"] ==
      3 * 8192, "a thread reads and closes the file its sibling opened (3 clients)", r)
check(run0["client_count"] == 3 and len(run0["clients"]) == 3,
      "3 clients of 2 streams are 3 clients in the result, not 6", r)

# Timing: 4 think times of 50 ms, kept with original, halved with scale=0.5, none afap.
THINK = """name: think
setup:
  - mkdir: "${client}"
streams:
  - name: "1 t"
    steps:
""" + "".join("""      - think: 50ms
      - stat: {path: "${client}", expect: any}
""" for _ in range(4)) + """cleanup:
  - rmdir: "${client}"
"""
tw = write(f"{d}/think.yaml", THINK)
dur = {}
for mode in ("afap", "original", "scale=0.5"):
    r = run(["-q", "--monitor", "off", "-D", d, "-c", tw, "--replay-timing", mode, "2"])
    check(r.rc == 0, f"--replay-timing {mode} runs", r)
    dur[mode] = r.json["runs"][0]["duration_s"]
    if mode != "afap":
        check(r.json["config"]["replay_timing"] == mode,
              f"the result says --replay-timing {mode}", r)
check(dur["afap"] < 0.05, f"afap waits no think time ({dur['afap']:.3f} s)")
check(0.2 <= dur["original"] < 0.28, f"original waits 4 x 50 ms ({dur['original']:.3f} s)")
check(0.1 <= dur["scale=0.5"] < 0.16, f"scale=0.5 waits half ({dur['scale=0.5']:.3f} s)")

r = run(["-D", d, "-c", tw, "--processes", "2"], json_out=False)
check(r.rc == 2 and "share their files" in r.err, "--processes with streams: exit 2", r)
r = run(["-D", d, "--replay-timing", "original", "2"], json_out=False)
check(r.rc == 2 and "not a recorded program" in r.err,
      "--replay-timing without streams: exit 2", r)
r = run(["-D", d, "-c", tw, "--replay-timing", "slow", "2"], json_out=False)
check(r.rc == 2 and "invalid --replay-timing 'slow'" in r.err, "a bad mode: exit 2", r)

# The same from a real trace: a shell writes f1..f20, and after each a new process (cat)
# reads it: 21 streams, each cat's open ordered after its file's write by loadgen record.
# Replayed afap (the cats would otherwise all start at once), 50 runs at 1 to 8 clients.
import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402

from lgtest import LOADGEN, skip  # noqa: E402

if not shutil.which("strace"):
    skip("strace is not installed: the recorded half of the ordering test")
else:
    prog = os.path.join(d, "prog")
    os.mkdir(prog)
    rec = os.path.join(d, "cats.yaml")
    p = subprocess.run([LOADGEN, "record", "-o", rec, "-C", prog, "--", "sh", "-c",
                        "for i in $(seq 20); do echo $i > f$i; cat f$i > /dev/null; done"],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and "streams: 21" in p.stderr,
          "a shell and 20 cats recorded as 21 streams", p.stderr)
    for i in range(50):
        clients = 1 + i % 8
        r = run(["-q", "--monitor", "off", "-D", d, "-c", rec, str(clients)])
        run0 = r.json["runs"][0] if r.json else {}
        if not (r.rc == 0 and run0.get("errors") == 0 and
                run0["ops_by_type"]["read"]["bytes_read"] == 51 * clients):
            check(False, f"recorded run {i + 1} of 50 ({clients} clients): every cat "
                  "finds its file, with its bytes", r)
    check(True, "50 replays of the recorded shell and cats at 1 to 8 clients: no ENOENT, "
          "every byte read")
