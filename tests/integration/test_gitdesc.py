"""The commit a result names is the commit the binary was built from: cmake/gitdesc.cmake
writes it at every build (not only when CMake configures), rewrites its header only when
it changed, says "-dirty" for uncommitted changes and nothing outside a git checkout; the
binary's --version and the result's env.git_describe carry it."""
import os
import re
import shutil
import subprocess

from lgtest import LOADGEN, SOURCE, check, run, skip, tmpdir

SCRIPT = os.path.join(SOURCE, "cmake", "gitdesc.cmake")
BUILD = os.path.dirname(LOADGEN)
DEFINE = re.compile(r'#define LOADGEN_GIT_DESCRIBE "([^"]+)"')


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True, text=True,
                          check=True, env=env).stdout.strip()


def generate(source, out):
    """Run the script as the build does; the describe it wrote, or None."""
    subprocess.run(["cmake", f"-DSOURCE={source}", f"-DOUTPUT={out}",
                    f"-DGIT={shutil.which('git')}", "-P", SCRIPT], check=True)
    with open(out) as f:
        m = DEFINE.search(f.read())
    return m.group(1) if m else None


def script_in_a_new_repo():
    repo = tmpdir()
    out = os.path.join(repo, "gen", "describe.h")
    check(generate(repo, out) is None, "outside a git checkout: no commit defined")
    git(repo, "init", "-q")
    with open(os.path.join(repo, "a"), "w") as f:
        f.write("1\n")
    git(repo, "add", "a")
    git(repo, "commit", "-qm", "one")
    first = git(repo, "rev-parse", "--short", "HEAD")
    check(generate(repo, out) == first, f"first commit: {first}")
    before = os.stat(out).st_mtime_ns
    os.utime(out, ns=(before - 10**9, before - 10**9))
    generate(repo, out)
    check(os.stat(out).st_mtime_ns == before - 10**9,
          "unchanged commit: header not rewritten (nothing rebuilds)")
    with open(os.path.join(repo, "a"), "w") as f:
        f.write("2\n")
    check(generate(repo, out) == first + "-dirty", "uncommitted change: -dirty")
    git(repo, "commit", "-qam", "two")
    second = git(repo, "rev-parse", "--short", "HEAD")
    check(second != first and generate(repo, out) == second,
          f"a later commit replaces the earlier one ({first} -> {second})")


def this_build():
    version = subprocess.run([LOADGEN, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"\(git ([^)]+)\)", version)
    check(m is not None, f"--version names the commit: {version.strip()!r}")
    built = m.group(1)
    commit = built[:-len("-dirty")] if built.endswith("-dirty") else built
    check(subprocess.run(["git", "-C", SOURCE, "cat-file", "-e", commit + "^{commit}"],
                         capture_output=True).returncode == 0,
          f"{commit} is a commit of {SOURCE}")
    res = run(["-q", "-t", "0.2", "--warmup", "0", "-D", tmpdir(), "1"])
    check(res.rc == 0 and res.json["env"]["git_describe"] == built,
          f"env.git_describe = --version's ({built})", res)
    # the build's own step: rerun it and the header follows the tree as it is now
    subprocess.run(["cmake", "--build", BUILD, "--target", "lg_git_describe"],
                   capture_output=True, check=True)
    with open(os.path.join(BUILD, "generated", "lg_git_describe.h")) as f:
        m = DEFINE.search(f.read())
    now = git(SOURCE, "describe", "--always", "--dirty")
    check(m is not None and m.group(1) == now,
          f"the build's lg_git_describe step writes git describe now ({now})")


if not shutil.which("git") or not shutil.which("cmake"):
    skip("needs git and cmake")
else:
    script_in_a_new_repo()
    if os.path.exists(os.path.join(SOURCE, ".git")):
        this_build()
    else:
        skip(f"{SOURCE} is not a git checkout: the built binary's commit is not checked")
