"""`loadgen import` of an strace trace taken by hand, end to end: a small shell pipeline
traced with the options the README names, converted with -C, replayed by 3 clients with
no unexpected result and the bytes the program wrote to the directory, per client; a
trace without -T refused with the option named; -C missing or not a directory."""
import os
import re
import shutil
import subprocess

from lgtest import LOADGEN, check, run, skip, tmpdir

if not shutil.which("strace"):
    skip("strace is not installed (Debian package strace)")
else:
    d = tmpdir()
    work = os.path.join(d, "work")
    os.mkdir(work)
    with open(os.path.join(work, "in"), "w") as f:
        f.write("x" * 10000)
    script = ("dd if=in of=out bs=4096 2>/dev/null; mkdir sub; "
              "dd if=out of=sub/copy bs=1000 2>/dev/null; ls sub > list; rm out; cat list")

    def trace(opts, out):
        """strace opts of the script in work into out; --seccomp-bpf dropped if refused."""
        cmd = ["strace"] + opts + ["-o", out, "sh", "-c", script]
        p = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
        if p.returncode != 0 and "--seccomp-bpf" in opts:
            return trace([o for o in opts if o != "--seccomp-bpf"], out)
        return p

    # the directory as strace decodes it (no symlinks): -C must be the same
    real = os.path.realpath(work)
    t = os.path.join(d, "app.strace")
    p = trace(["-f", "-ttt", "-T", "-y", "-qq", "--seccomp-bpf"], t)
    check(p.returncode == 0, "strace -f -ttt -T -y -qq traced the script", p)
    # the bytes read and written in files of the directory, from the trace
    moved = {"read": 0, "write": 0}
    with open(t) as f:
        for line in f:
            m = re.search(r" (read|write)\(\d+<" + re.escape(real) + r"/[^>]*>.*= (\d+) <",
                          line)
            if m:
                moved[m.group(1)] += int(m.group(2))
    written, read = moved["write"], moved["read"]
    check(written >= 20000 and read >= 20000,
          f"the script read {read} and wrote {written} bytes in the directory")
    for name in ("in", "sub", "list"):
        path = os.path.join(work, name)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif name != "in":
            os.unlink(path)
    wl = os.path.join(d, "app.yaml")
    r = subprocess.run([LOADGEN, "import", t, "-C", work, "-o", wl], capture_output=True,
                       text=True)
    check(r.returncode == 0 and "calls in" in r.stderr, "import converted the trace", r)
    text = open(wl).read()
    check("streams:" in text and 'name: "' in text and " cat\"" in text,
          "one stream per process, named after its program", text)
    check('- create: {path: "${client}/in", as: setup' in text and "size: 10000" in text,
          "the input file inferred into setup with its size", text)

    clients = 3
    res = run(["-q", "--monitor", "off", "-D", d, "-c", wl, str(clients)])
    run0 = res.json["runs"][0] if res.json else {}
    check(res.rc == 0 and run0.get("status") == "complete" and run0.get("errors") == 0,
          f"{clients} clients replayed it with no unexpected result", res)
    check(run0["ops_by_type"]["write"]["bytes_written"] == written * clients and
          run0["ops_by_type"]["read"]["bytes_read"] == read * clients,
          f"each client read {read} and wrote {written} bytes, as the program", res)

    # a trace without -T, and bad -C
    bad = os.path.join(d, "bad.strace")
    trace(["-f", "-ttt", "-y", "-qq"], bad)
    r = subprocess.run([LOADGEN, "import", bad, "-C", work], capture_output=True, text=True)
    check(r.returncode == 2 and "bad.strace:1:" in r.stderr and "(strace -T)" in r.stderr,
          "a trace without -T is refused, the option named", r)
    r = subprocess.run([LOADGEN, "import", t], capture_output=True, text=True)
    check(r.returncode == 2 and "needs -C DIR" in r.stderr, "a trace needs -C", r)
    r = subprocess.run([LOADGEN, "import", t, "-C", os.path.join(d, "gone")],
                       capture_output=True, text=True)
    check(r.returncode == 2 and "gone: No such file or directory" in r.stderr,
          "-C of a directory that does not exist: exit 2", r)
