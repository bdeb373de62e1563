"""`cmake --install` into a temporary prefix gives a loadgen that works from anywhere:
the binary, the loadfiles under share/loadgen/loadfiles, the man pages (when built) and the
bash completion where bash-completion looks; `-c NAME` and `-c NAME.yaml` find an
installed loadfile from a directory without loadfiles, also after the tree is moved; a
file of that name in the current directory wins; a miss says where it looked. The build
tree's binary finds the source's loadfiles/. Exit 77 when cmake is not available."""
import os
import shutil
import subprocess
import sys

from lgtest import LOADGEN, SOURCE, check, run, tmpdir, write

BUILD = os.path.dirname(LOADGEN)
cmake = shutil.which("cmake")
if not cmake or not os.path.exists(os.path.join(BUILD, "cmake_install.cmake")):
    print("SKIP: no cmake, or %s is not a CMake build directory" % BUILD)
    sys.exit(77)

top = tmpdir()
prefix = os.path.join(top, "prefix")
p = subprocess.run([cmake, "--install", BUILD, "--prefix", prefix], capture_output=True,
                   text=True)
check(p.returncode == 0, "cmake --install --prefix %s" % prefix, p)
files = sorted(os.path.relpath(os.path.join(d, f), prefix)
               for d, _, fs in os.walk(prefix) for f in fs)
print("installed:", " ".join(files))
expect = ["bin/loadgen", "share/loadgen/loadfiles/fileserver.yaml",
          "share/loadgen/loadfiles/netbench.yaml",
          "share/bash-completion/completions/loadgen"]
if os.path.isdir(os.path.join(BUILD, "man")):
    expect += ["share/man/man1/%s.1.gz" % n for n in
               ("loadgen", "loadgen-compare", "loadgen-import", "loadgen-report")]
    expect += ["share/man/man5/loadgen-workload.5.gz"]
else:
    print("note: the build has no man pages (LOADGEN_MAN off), not checked")
for f in expect:
    check(f in files, "installed " + f)
outside = [l for l in p.stdout.splitlines()
           if l.startswith(("-- Installing: ", "-- Up-to-date: "))
           and not l.split(": ", 1)[1].startswith(prefix + "/")]
check(not outside, "nothing installed outside the prefix" + "".join("\n  " + l for l in outside))

ARGS = ["--run-once", "-q", "-p", "nfiles=2"]


def runs_fileserver(binary, name, workdir, source):
    """Run `binary -c name` in workdir; check it ran the loadfile at source."""
    import lgtest
    saved, lgtest.LOADGEN = lgtest.LOADGEN, binary
    try:
        r = run(ARGS + ["-c", name, "2"], workdir=workdir, cwd=workdir)
    finally:
        lgtest.LOADGEN = saved
    check(r.rc == 0 and r.json and r.json["workload"]["name"] == "fileserver",
          "%s -c %s from %s: exit 0, workload fileserver" % (os.path.basename(binary), name,
                                                           workdir), r)
    got = os.path.join(workdir, r.json["workload"]["source"])  # relative: to workdir
    check(os.path.realpath(got) == os.path.realpath(source),
          "  ... read from %s" % source, r)
    return r


empty = tmpdir()  # no loadfiles here
installed = os.path.join(prefix, "share/loadgen/loadfiles/fileserver.yaml")
installed_bin = os.path.join(prefix, "bin/loadgen")
runs_fileserver(installed_bin, "fileserver", empty, installed)
runs_fileserver(installed_bin, "fileserver.yaml", empty, installed)

# The installed tree moved elsewhere (a tarball unpacked in /opt): still found.
moved = os.path.join(top, "moved")
os.rename(prefix, moved)
runs_fileserver(os.path.join(moved, "bin/loadgen"), "fileserver", empty,
                os.path.join(moved, "share/loadgen/loadfiles/fileserver.yaml"))

# A file of that name here wins over the installed one.
here = tmpdir()
local = write(os.path.join(here, "fileserver"),
              open(os.path.join(SOURCE, "loadfiles/fileserver.yaml")).read())
runs_fileserver(os.path.join(moved, "bin/loadgen"), "fileserver", here, local)

# A miss: exit 2, and the message names the directories looked in.
p = subprocess.run([os.path.join(moved, "bin/loadgen"), "-c", "nosuch", "2"], cwd=empty,
                   capture_output=True, text=True)
check(p.returncode == 2 and "nosuch: No such file or directory" in p.stderr and
      os.path.join(moved, "bin/../share/loadgen/loadfiles") in p.stderr,
      "-c nosuch: exit 2, says where it looked", p)
p = subprocess.run([os.path.join(moved, "bin/loadgen"), "-c", "./fileserver", "2"],
                   cwd=empty, capture_output=True, text=True)
check(p.returncode == 2 and "./fileserver: No such file or directory" in p.stderr,
      "-c ./fileserver (a path) is not looked up", p)

# The build tree's binary uses the source's loadfiles/.
runs_fileserver(LOADGEN, "fileserver", empty, os.path.join(SOURCE, "loadfiles/fileserver.yaml"))
for d in (top, empty, here):
    shutil.rmtree(d)
