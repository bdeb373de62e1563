"""Helpers for integration tests: run the real loadgen binary in a temporary directory.

Each test file is a script: `python3 test_x.py LOADGEN_BINARY SOURCE_DIR`; it exits non-zero
on the first failed assertion (plain asserts with messages) and prints what it checked.
A part that cannot run here (no root, no strace, no dbench's client.txt, ...) calls
skip(why); the script then ends with exit status 77 after its other checks passed,
which CTest reports as skipped (SKIP_RETURN_CODE 77), never as a silent pass."""
import atexit
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

LOADGEN = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "loadgen"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."


class Result:
    def __init__(self, proc, json_doc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr
        self.json = json_doc

    def __repr__(self):
        return f"rc={self.rc}\nstdout:\n{self.out}\nstderr:\n{self.err}"


# A write-heavy workload (each client writes and fsyncs 1 MiB a pass), so the device and
# writeback have something to show (test_monitor.py, test_monitor_fs.py).
WRITE_WORKLOAD = """\
name: monitor-test
run:
  - create: {path: "f${client}", as: out, flags: [write, truncate]}
  - write: {file: out, size: 64KiB, count: 16}
  - fsync: out
  - close: out
cleanup:
  - unlink: {path: "f${client}", expect: any}
"""


def tmpdir():
    return tempfile.mkdtemp(prefix="lgtest.")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def run(args, workdir=None, json_out=True, timeout=120, **kw):
    """Run loadgen with args; with json_out, add --json and load the result."""
    workdir = workdir or tmpdir()
    jpath = os.path.join(workdir, "result.json")
    cmd = [LOADGEN] + list(args)
    if json_out:
        cmd[1:1] = ["--json", jpath]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    doc = None
    if json_out and os.path.exists(jpath):
        with open(jpath) as f:
            doc = json.load(f)
    return Result(proc, doc)


def check(cond, what, res=None):
    if not cond:
        _failed.append(what)
        print("FAIL:", what)
        if res is not None:
            print(res)
        sys.exit(1)
    print("ok:", what)


_skipped = []
_failed = []  # a failure (or an uncaught exception) keeps its own exit status


def _excepthook(kind, value, tb, _previous=sys.excepthook):
    _failed.append(repr(value))
    _previous(kind, value, tb)


sys.excepthook = _excepthook


def skip(why):
    """Record that a part of this test could not run here, and say why. At exit the
    script's status becomes 77 (skipped) unless a check failed."""
    print("SKIP:", why)
    _skipped.append(why)


@atexit.register
def _exit_skipped():
    if _skipped and not _failed:
        print(f"skipped {len(_skipped)} part(s): " + "; ".join(_skipped))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(77)


def listdir(path):
    return sorted(os.listdir(path))


def _mpi_launcher():
    """The launcher of the MPI the binary links and that MPI ('openmpi', 'mpich' or
    'other'), as the build found them (cmake/mpi_launcher.cmake; ctest passes them in
    LOADGEN_MPIEXEC and LOADGEN_MPI_FLAVOUR); run by hand without them, mpirun on PATH
    as Open MPI (Debian's default). (None, None) when there is none."""
    path = os.environ.get("LOADGEN_MPIEXEC", "")
    flavour = os.environ.get("LOADGEN_MPI_FLAVOUR", "")
    if path.endswith("-NOTFOUND"):
        return None, flavour or None
    if not path:
        return shutil.which("mpirun"), flavour or "openmpi"
    return path, flavour or "other"


MPIEXEC, MPI_FLAVOUR = _mpi_launcher()
# The variable that holds a rank's number in its environment: Open MPI's, or the PMI
# one of MPICH's hydra (and of other PMI launchers).
MPI_RANK_VARS = ("OMPI_COMM_WORLD_RANK", "PMI_RANK")
# The same in sh, for a script a launcher runs as each rank
MPI_RANK_SH = "${OMPI_COMM_WORLD_RANK:-$PMI_RANK}"


def mpi_cmd(np, argv, *more, bind_none=False):
    """The command that starts np ranks of argv (a list) with MPIEXEC, then for each
    further (np, argv) pair in more, as many ranks of that (MPMD, ':'). Open MPI's
    mpirun is told to oversubscribe (more ranks than cores here); hydra does by default.
    bind_none: ranks not bound to cores (Open MPI binds them by default, hydra not)."""
    if MPI_FLAVOUR == "openmpi":
        head, flag = [MPIEXEC, "--oversubscribe"], "-np"
        if bind_none:
            head += ["--bind-to", "none"]
    else:  # MPICH's hydra and the MPI standard's mpiexec: -n
        head, flag = [MPIEXEC], "-n"
    cmd = head + [flag, str(np)] + list(argv)
    for n, a in more:
        cmd += [":", flag, str(n)] + list(a)
    return cmd


def mpi_rank_of(environ):
    """A rank's number from its environment (bytes keys, as /proc/PID/environ gives
    them), or None."""
    for var in MPI_RANK_VARS:
        if var.encode() in environ:
            return int(environ[var.encode()])
    return None


def mpi_env(base=None):
    """The environment for mpirun here: as root, oversubscribed; Open MPI keeps memory
    to the end (and unloads the modules that allocated it), which LeakSanitizer reports
    as leaks of unknown modules, so under ASan leak checks are off in the ranks (every
    other check stays on); under TSan, reports from inside Open MPI are suppressed
    (tsan-openmpi.supp)."""
    env = dict(os.environ if base is None else base, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tsan-openmpi.supp")
    env["TSAN_OPTIONS"] = " ".join(x for x in [env.get("TSAN_OPTIONS", ""),
                                               "suppressions=" + supp] if x)
    env["ASAN_OPTIONS"] = ":".join(x for x in [env.get("ASAN_OPTIONS", ""),
                                               "detect_leaks=0"] if x)
    return env


def doc_pages():
    """The documentation's Markdown pages, in reading order: README.md, every page of
    docs/ (so a new page is included), loadfiles/README.md."""
    pages = [os.path.join(SOURCE, "README.md")]
    pages += sorted(glob.glob(os.path.join(SOURCE, "docs", "*.md")))
    pages.append(os.path.join(SOURCE, "loadfiles", "README.md"))
    return pages


def doc_block(name):
    """(page, text) of the ```text block between <!-- NAME:begin --> and <!-- NAME:end -->,
    in whichever page of doc_pages() holds it; exactly one page must."""
    found = []
    for page in doc_pages():
        text = open(page, encoding="utf-8").read()
        found += [(page, m.group(1)) for m in re.finditer(
            r"<!-- %s:begin -->\s*```text\n(.*?)```\s*<!-- %s:end -->" % (name, name),
            text, re.S)]
    assert len(found) == 1, "%d blocks %s in %s" % (
        len(found), name, [os.path.relpath(p, SOURCE) for p in doc_pages()])
    return found[0]
