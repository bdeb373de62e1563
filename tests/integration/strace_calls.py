"""Filesystem calls in an strace trace, counted per call type, with the bytes read and
written: an independent reading of strace's output (tests/integration/test_replay_fidelity
sets a program's calls against its replay's; loadgen's own converter is not used).

A call counts when it names a path under ROOT, or an fd strace decoded (-y) to a path
under ROOT. Relative paths are taken against the dirfd strace decoded, else against the
process's working directory (ROOT at the start, changed by chdir, inherited by children).
Syscalls are grouped into the call types loadgen replays: pread64 and read are both a
'read' (loadgen reads at the slot's position with pread), openat and creat an 'open'."""
import os
import re

FAMILY = {
    "open": "open", "openat": "open", "openat2": "open", "creat": "open",
    "close": "close",
    "read": "read", "pread64": "read", "readv": "read", "preadv": "read", "preadv2": "read",
    "write": "write", "pwrite64": "write", "writev": "write", "pwritev": "write",
    "pwritev2": "write",
    "lseek": "seek", "fsync": "fsync", "fdatasync": "fdatasync",
    "sync_file_range": "sync_file_range", "fadvise64": "fadvise", "fallocate": "fallocate",
    "ftruncate": "truncate", "truncate": "truncate",
    "stat": "stat", "lstat": "stat", "newfstatat": "stat", "fstat": "fstat", "statx": "statx",
    "access": "access", "faccessat": "access", "faccessat2": "access",
    "mkdir": "mkdir", "mkdirat": "mkdir", "rmdir": "rmdir", "unlink": "unlink",
    "unlinkat": "unlink", "rename": "rename", "renameat": "rename", "renameat2": "rename",
    "link": "link", "linkat": "link", "symlink": "symlink", "symlinkat": "symlink",
    "readlink": "readlink", "readlinkat": "readlink", "getdents64": "getdents",
    "getdents": "getdents", "chmod": "chmod", "fchmod": "chmod", "fchmodat": "chmod",
    "chown": "chown", "fchown": "chown", "lchown": "chown", "fchownat": "chown",
    "utimensat": "utimens", "futimesat": "utimens", "utime": "utimens", "utimes": "utimens",
    "setxattr": "setxattr", "lsetxattr": "setxattr", "fsetxattr": "setxattr",
    "getxattr": "getxattr", "lgetxattr": "getxattr", "fgetxattr": "getxattr",
    "listxattr": "listxattr", "llistxattr": "listxattr", "flistxattr": "listxattr",
    "removexattr": "removexattr", "lremovexattr": "removexattr",
    "fremovexattr": "removexattr",
}
LINE = re.compile(r"^(\d+)\s+(?:[\d.]+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+|\?|0x[0-9a-f]+)")
FD = re.compile(r"(?:^|[ ,(])(\d+|AT_FDCWD)<([^>]*)>")
STR = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _merge(lines):
    """Lines with <unfinished ...> joined to their <... resumed> half, per pid."""
    pending = {}
    for line in lines:
        m = re.match(r"^(\d+)\s+(.*)$", line)
        if not m:
            continue
        pid, rest = m.groups()
        if rest.endswith("<unfinished ...>"):
            pending[pid] = line[: -len("<unfinished ...>")].rstrip()
            continue
        r = re.match(r"^(?:[\d.]+\s+)?<\.\.\. \w+ resumed>(.*)$", rest)
        if r and pid in pending:
            yield pending.pop(pid) + r.group(1)
            continue
        yield line


def count(path, root):
    """{family: calls}, bytes read, bytes written of the calls under root in trace path."""
    root = os.path.realpath(root).rstrip("/")
    cwd, calls, rd, wr = {}, {}, 0, 0

    def inside(p):
        p = os.path.normpath(p)
        return p == root or p.startswith(root + "/")

    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    for line in _merge(lines):
        m = LINE.match(line)
        if not m:
            continue
        pid, name, args, ret = m.groups()
        here = cwd.get(pid, root)
        if name in ("clone", "clone3", "fork", "vfork") and ret.isdigit():
            cwd[ret] = here
        if name == "chdir":
            s = STR.search(args)
            if s and ret == "0":
                cwd[pid] = os.path.join(here, s.group(1))
        if name not in FAMILY:
            continue
        fds = FD.findall(args)
        paths = [s for s in STR.findall(args)]
        hit = any(inside(p) for _, p in fds if p.startswith("/"))
        # a relative path starts at the call's dirfd (the first argument, decoded), or at
        # the working directory; a dirfd that is no path (a pipe) puts it nowhere
        lead = FD.match(args)
        base = (lead.group(2) if lead.group(2).startswith("/") else None) if lead else here
        if name.endswith("at") or name.endswith("at2") or name in ("statx",):
            strs = paths
        else:
            strs = paths[:2] if name in ("rename", "link", "symlink") else paths[:1]
        if name in ("symlink", "symlinkat"):
            strs = strs[1:]  # the target is text, not a path the call touches
        if name in ("read", "pread64", "readv", "preadv", "preadv2", "write", "pwrite64",
                    "writev", "pwritev", "pwritev2", "setxattr", "lsetxattr", "fsetxattr",
                    "getxattr", "lgetxattr", "fgetxattr", "readlink", "readlinkat"):
            strs = [p for p in strs[:1] if name.startswith(("setx", "lsetx", "getx",
                                                            "lgetx", "readlink"))]
        if name.endswith(("at", "at2")) or name == "statx" or strs:
            # a path names what the call touches; its dirfd only where it starts
            hit = any(inside(p) if p.startswith("/") else base is not None and
                      inside(os.path.join(base, p)) for p in strs) if strs else hit
        if not hit:
            continue
        fam = FAMILY[name]
        if fam == "stat" and 'AT_EMPTY_PATH' in args and '""' in args:
            fam = "fstat"
        calls[fam] = calls.get(fam, 0) + 1
        if ret.lstrip("-").isdigit() and int(ret) > 0:
            if fam == "read":
                rd += int(ret)
            elif fam == "write":
                wr += int(ret)
    return calls, rd, wr
