"""Real programs to record and replay (tests/integration/test_record.py and the replay
benchmark tests/bench/replay.py): each makes its input in an empty directory, then runs
one command there, from Debian packages: tar, git, sqlite3, make with gcc.

PROGRAMS maps a name to (packages, prepare(dir), argv). prepare is deterministic (a fixed
seed), so every copy of the input is the same and the original program can be timed on
fresh copies as often as needed."""
import os
import random
import shutil
import subprocess


def _tree(d, files, dirs, seed, max_size=8192):
    rnd = random.Random(seed)
    for i in range(files):
        sub = os.path.join(d, f"d{i % dirs:02d}")
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"f{i:04d}.txt"), "wb") as f:
            f.write(rnd.randbytes(rnd.randrange(max_size)))


def tar_prepare(d):
    """A tarball of 2,000 small files in 20 directories (and a symlink), made here."""
    src = os.path.join(d, "src")
    _tree(src, 2000, 20, seed=1)
    os.symlink("d00/f0000.txt", os.path.join(src, "link"))
    subprocess.run(["tar", "cf", "src.tar", "src"], cwd=d, check=True)
    shutil.rmtree(src)


GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}
GIT_SCRIPT = ("git init -q -b main . && git add . && git commit -qm one && "
              "git status --short && git checkout -q -b two && "
              "echo more >> d00/f0000.txt && git commit -qam two && "
              "git checkout -q main && git status --short")


def git_prepare(d):
    """200 files for a repository that the command makes, commits, branches and checks out."""
    _tree(d, 200, 10, seed=2, max_size=4096)


SQL = ("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);\n" +
       "".join("BEGIN;\n" + "".join(f"INSERT INTO t(v) VALUES('row {t}-{i}');\n"
                                    for i in range(50)) + "COMMIT;\n" for t in range(20)))


def sqlite_prepare(d):
    """A script of 20 transactions of 50 inserts each (a journal and fsyncs per commit)."""
    with open(os.path.join(d, "load.sql"), "w") as f:
        f.write(SQL)


def make_prepare(d):
    """A C project of 12 files and a Makefile, built with make -j2."""
    for i in range(12):
        with open(os.path.join(d, f"m{i}.c"), "w") as f:
            f.write(f"int f{i}(int x) {{ return x * {i + 1} + {i}; }}\n")
    with open(os.path.join(d, "main.c"), "w") as f:
        f.write("".join(f"int f{i}(int);\n" for i in range(12)) +
                "int main(void) { int s = 0;" +
                "".join(f" s += f{i}(s);" for i in range(12)) + " return s & 1; }\n")
    objs = " ".join(f"m{i}.o" for i in range(12)) + " main.o"
    with open(os.path.join(d, "Makefile"), "w") as f:
        f.write(f"prog: {objs}\n\tcc -o $@ $^\n%.o: %.c\n\tcc -O0 -c -o $@ $<\n")


PROGRAMS = {
    "tar": (["tar"], tar_prepare, ["tar", "xf", "src.tar"]),
    "git": (["git"], git_prepare, ["sh", "-c", GIT_SCRIPT]),
    "sqlite": (["sqlite3"], sqlite_prepare, ["sqlite3", "db.sqlite", ".read load.sql"]),
    "make": (["make", "cc"], make_prepare, ["make", "-j2", "-s"]),
}


def env():
    """The environment the programs run in (git's identity, no user configuration)."""
    e = dict(os.environ)
    e.update(GIT_ENV)
    return e


def missing(name):
    """The first program of PROGRAMS[name] that is not installed, or None."""
    return next((p for p in PROGRAMS[name][0] if not shutil.which(p)), None)
