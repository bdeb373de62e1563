"""The floor of a replay: a recorded workload's calls as straight-line C, compiled and run
with nothing around them (no op table, no clock per call, no statistics, no threads), so
`loadgen --replay-timing afap` can be set against the least any replayer could do.

generate(doc) turns one client's workload (its setup and its streams, as loaded by
PyYAML) into a C program; the streams' calls run one after another in an order that
keeps every 'after' (the waits run in the abstract, as loadgen's loader checks them).
The program makes its directory, runs setup untimed, then the calls between two
CLOCK_MONOTONIC reads, and prints {"ops": N, "seconds": S}. It is an independent reading
of the workload format: loadgen's own code is not used, so a call loadgen drops or
doubles shows as a different count of calls here.
"""
import json
import os
import subprocess
import tempfile

OPEN_FLAGS = {"read": "O_RDONLY", "write": "O_WRONLY", "rdwr": "O_RDWR", "create": "O_CREAT",
              "truncate": "O_TRUNC", "exclusive": "O_EXCL", "append": "O_APPEND",
              "sync": "O_SYNC", "dsync": "O_DSYNC", "direct": "O_DIRECT",
              "directory": "O_DIRECTORY", "nofollow": "O_NOFOLLOW", "noatime": "O_NOATIME",
              "path": "O_PATH", "tmpfile": "O_TMPFILE"}
RENAME_FLAGS = {"noreplace": "RENAME_NOREPLACE", "exchange": "RENAME_EXCHANGE",
                "whiteout": "RENAME_WHITEOUT"}
FALLOC = {"keep_size": "FALLOC_FL_KEEP_SIZE", "punch_hole": "FALLOC_FL_PUNCH_HOLE",
          "zero_range": "FALLOC_FL_ZERO_RANGE"}
ACCESS = {"read": "R_OK", "write": "W_OK", "exec": "X_OK"}
UNITS = {"": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "kB": 1000,
         "MB": 10 ** 6, "GB": 10 ** 9}


class Unsupported(Exception):
    """A step the generator has no C for: the floor cannot be measured for it."""


def size(v):
    s = str(v).strip()
    num = s.rstrip("BKiMGkb")
    return int(num) * UNITS[s[len(num):]]


def words(v):
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def cstr(s):
    return json.dumps(s.replace("${client}", "0"))


class Gen:
    def __init__(self):
        self.slots = {}
        self.lines = []

    def slot(self, name):
        return self.slots.setdefault(str(name), len(self.slots))

    def fd(self, args):
        return f"fd[{self.slot(args['file'])}]"

    def emit(self, code):
        self.lines.append(code)

    def step(self, op, a):
        """C for one step; returns how many calls it makes (ops)."""
        if not isinstance(a, dict):
            key = {"close": "file", "fsync": "file", "fdatasync": "file", "fstat": "file",
                   "readlink": "path"}.get(op, "path")
            a = {key: a}
        p = cstr(a["path"]) if "path" in a else None
        fd = self.fd(a) if "file" in a else None
        e = self.emit
        if op in ("open", "create"):
            fl = [OPEN_FLAGS[w] for w in words(a.get("flags"))]
            if op == "create":
                fl.append("O_CREAT")
            if not any(f in fl for f in ("O_RDONLY", "O_WRONLY", "O_RDWR")):
                fl.append("O_RDWR")
            e(f"fd[{self.slot(a['as'])}] = openat(D, {p}, {'|'.join(fl)}|O_CLOEXEC, 0644);")
        elif op == "close":
            e(f"close({fd});")
        elif op in ("read", "write"):
            n, count = size(a["size"]), int(a.get("count", 1))
            call = "read" if op == "read" else "write"
            buf = "buf" if op == "read" else "(const void *)buf"
            for k in range(count):
                off = a.get("offset")
                if off is None or off == "seq":
                    if a.get("vector"):
                        e(f"{{ struct iovec v = {{ buf, {n} }}; {call}v({fd}, &v, 1); }}")
                    else:
                        e(f"{call}({fd}, {buf}, {n});")
                else:
                    o = size(off) + k * n
                    if a.get("vector"):
                        e(f"{{ struct iovec v = {{ buf, {n} }}; p{call}v({fd}, &v, 1, {o}); }}")
                    else:
                        e(f"p{call}({fd}, {buf}, {n}, {o});")
            return count
        elif op == "fsync":
            e(f"fsync({fd});")
        elif op == "fdatasync":
            e(f"fdatasync({fd});")
        elif op == "stat":
            flag = "0" if a.get("follow") else "AT_SYMLINK_NOFOLLOW"
            e(f"fstatat(D, {p}, &st, {flag});")
        elif op == "fstat":
            e(f"fstat({fd}, &st);")
        elif op == "statx":
            flag = "AT_SYMLINK_NOFOLLOW" if a.get("nofollow") else "0"
            if p:
                e(f"statx(D, {p}, {flag}, STATX_BASIC_STATS, &sx);")
            else:
                e(f'statx({fd}, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx);')
        elif op == "access":
            m = "|".join(ACCESS[w] for w in words(a.get("mode"))) or "F_OK"
            e(f"faccessat(D, {p}, {m}, 0);")
        elif op == "mkdir":
            e(f"mkdirat(D, {p}, 0755);")
        elif op == "rmdir":
            e(f"unlinkat(D, {p}, AT_REMOVEDIR);")
        elif op == "unlink":
            e(f"unlinkat(D, {p}, 0);")
        elif op == "rename":
            fl = "|".join(RENAME_FLAGS[w] for w in words(a.get("flags"))) or "0"
            e(f"renameat2(D, {cstr(a['from'])}, D, {cstr(a['to'])}, {fl});")
        elif op == "link":
            e(f"linkat(D, {cstr(a['from'])}, D, {cstr(a['to'])}, 0);")
        elif op == "symlink":
            e(f"symlinkat({cstr(a['target'])}, D, {p});")
        elif op == "readlink":
            e(f"readlinkat(D, {p}, (char *)buf, 4096);")
        elif op == "chmod":
            mode = int(str(a["mode"]), 8) if isinstance(a["mode"], str) else a["mode"]
            e(f"fchmodat(D, {p}, {mode}, 0);" if p else f"fchmod({fd}, {mode});")
        elif op == "chown":
            flag = "AT_SYMLINK_NOFOLLOW" if a.get("nofollow") else "0"
            e(f"fchownat(D, {p}, geteuid(), getegid(), {flag});" if p
              else f"fchown({fd}, geteuid(), getegid());")
        elif op == "utimens":
            flag = "AT_SYMLINK_NOFOLLOW" if a.get("nofollow") else "0"
            e(f"utimensat(D, {p}, NULL, {flag});" if p else f"futimens({fd}, NULL);")
        elif op == "seek":
            wh = {"set": "SEEK_SET", "cur": "SEEK_CUR", "end": "SEEK_END"}[a.get("whence", "set")]
            e(f"lseek({fd}, {size(a.get('offset', 0))}, {wh});")
        elif op == "getdents":
            e(f"syscall(SYS_getdents64, {fd}, buf, {size(a.get('size', 32768))});")
        elif op == "truncate":
            if p:
                e(f"{{ char q[4096]; snprintf(q, sizeof(q), \"%s/%s\", DIR, {p}); "
                  f"truncate(q, {size(a['size'])}); }}")
            else:
                e(f"ftruncate({fd}, {size(a['size'])});")
        elif op == "fallocate":
            m = "|".join(FALLOC[w] for w in words(a.get("mode"))) or "0"
            e(f"fallocate({fd}, {m}, {size(a.get('offset', 0))}, {size(a['size'])});")
        elif op in ("setxattr", "getxattr", "listxattr", "removexattr"):
            self.xattr(op, a, p, fd)
        elif op == "fadvise":
            e(f"posix_fadvise({fd}, {size(a.get('offset', 0))}, {size(a.get('size', 0))}, 0);")
        else:
            raise Unsupported(op)
        return 1

    def xattr(self, op, a, p, fd):
        q = f"({{ snprintf(q, sizeof(q), \"%s/%s\", DIR, {p}); q; }})" if p else None
        name = cstr(a.get("name", ""))
        n = size(a.get("size", 0))
        if op == "setxattr":
            self.emit(f"lsetxattr({q}, {name}, buf, {n}, 0);" if p
                      else f"fsetxattr({fd}, {name}, buf, {n}, 0);")
        elif op == "getxattr":
            self.emit(f"lgetxattr({q}, {name}, buf, {n});" if p
                      else f"fgetxattr({fd}, {name}, buf, {n});")
        elif op == "listxattr":
            self.emit(f"llistxattr({q}, (char *)buf, {n});" if p
                      else f"flistxattr({fd}, (char *)buf, {n});")
        else:
            self.emit(f"lremovexattr({q}, {name});" if p else f"fremovexattr({fd}, {name});")


def order(streams):
    """The streams' steps in one sequence that keeps every 'after'."""
    names = [s["name"] for s in streams]
    pc, done, seq = [0] * len(streams), [0] * len(streams), []
    moved = True
    while moved:
        moved = False
        for i, s in enumerate(streams):
            steps = s["steps"]
            while pc[i] < len(steps):
                (op, a), = steps[pc[i]].items()
                if op == "after":
                    j = names.index(a["stream"])
                    if (pc[j] < len(streams[j]["steps"]) if a["calls"] == "end"
                            else done[j] < int(a["calls"])):
                        break
                if op not in ("after", "think"):
                    seq.append((op, a))
                    done[i] += 1
                moved = True
                pc[i] += 1
    return seq


def generate(doc):
    """C source of the floor of workload doc (a dict); (source, calls it makes)."""
    g = Gen()
    for st in doc.get("setup") or []:
        (op, a), = st.items()
        g.step(op, a)
    setup = g.lines
    g.lines = []
    calls = sum(g.step(op, a) for op, a in order(doc["streams"]))
    body = "\n\t".join(g.lines)
    return f"""#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fs.h>

static char q[4096];
static const char *DIR;

int main(int argc, char **argv)
{{
	static unsigned char buf[1 << 20] __attribute__((aligned(4096)));
	static int fd[{max(len(g.slots), 1)}];
	struct stat st;
	struct statx sx;
	struct timespec t0, t1;
	int D;

	(void)st; (void)sx; (void)q; (void)argc;
	DIR = argv[1];
	mkdir(DIR, 0755);
	D = open(DIR, O_RDONLY | O_DIRECTORY);
	memset(buf, 0x5a, sizeof(buf)); /* its pages mapped before the clock, as loadgen's */
	{chr(10).join(chr(9) + l for l in setup).lstrip()}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	{body}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("{{\\"ops\\": {calls}, \\"seconds\\": %.9f}}\\n",
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}}
""", calls


def generate_threads(doc):
    """C source of the threaded floor of doc: one thread per stream, as loadgen runs them,
    each stream's calls straight-line, its 'after' steps the least a replayer must do to
    keep them: a count of calls done per stream, polled a little (yielding the CPU now and
    then), then slept on with a futex, woken only once the count reaches the least count
    a sleeper needs (loadgen's protocol, src/run/streams.c). 'end' is the
    count INT_MAX, set when a stream returns. Threads start together at one flag, between
    the two clock reads; the clock stops when the last one is joined. (source, calls)"""
    g = Gen()
    for st in doc.get("setup") or []:
        (op, a), = st.items()
        g.step(op, a)
    setup = g.lines
    streams = doc["streams"]
    names = [st["name"] for st in streams]
    funcs, calls = [], 0
    for i, st in enumerate(streams):
        g.lines = []
        for step in st["steps"]:
            (op, a), = step.items()
            if op == "think":
                continue
            if op == "after":
                k = "INT_MAX" if a["calls"] == "end" else int(a["calls"])
                g.emit(f"waitfor({names.index(a['stream'])}, {k});")
                continue
            calls += g.step(op, a)
            g.emit(f"called({i});")  # per step, as the 'after' counts go
        body = "\n\t".join(g.lines)
        funcs.append(f"static void *stream{i}(void *arg)\n{{\n\t(void)arg;\n\tstart_wait();"
                     f"\n\t{body}\n\tpublish({i}, INT_MAX);\n\treturn NULL;\n}}\n")
    n = len(streams)
    return f"""#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <linux/falloc.h>
#include <linux/fs.h>

static char q[4096];
static const char *DIR;
static int D;
static unsigned char buf[1 << 20] __attribute__((aligned(4096)));
static int fd[{max(len(g.slots), 1)}];
static _Thread_local struct stat st;
static _Thread_local struct statx sx;
static struct {{ _Atomic int done, need; char pad[56]; }} live[{n}];
static _Atomic int go;
static _Thread_local int mine;

static void publish(int s, int v)
{{
	int need;

	atomic_store(&live[s].done, v);
	need = atomic_load(&live[s].need);
	if (need != 0 && v >= need && atomic_exchange(&live[s].need, 0) != 0)
		syscall(SYS_futex, &live[s].done, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}}

static void called(int s)
{{
	publish(s, ++mine);
}}

static void waitfor(int s, int k)
{{
	/* a sleep is cut at 10 ms, as loadgen's (which checks then whether to stop) */
	struct timespec slice = {{ 0, 10000000 }};
	int got, cur;

	for (unsigned i = 0; (got = atomic_load(&live[s].done)) < k; i++) {{
		if (i < 256) {{
			if (!(i & 15))
				sched_yield();
			continue;
		}}
		cur = atomic_load(&live[s].need);
		while ((cur == 0 || k < cur) &&
		       !atomic_compare_exchange_weak(&live[s].need, &cur, k))
			;
		if (atomic_load(&live[s].done) == got)
			syscall(SYS_futex, &live[s].done, FUTEX_WAIT_PRIVATE, got, &slice, NULL, 0);
	}}
}}

static void start_wait(void)
{{
	/* the thread's own pages (its stat buffers, its stack) mapped before the clock */
	volatile char stack[16384];

	memset((void *)stack, 0, sizeof(stack));
	memset(&st, 0, sizeof(st));
	memset(&sx, 0, sizeof(sx));
	while (!atomic_load(&go))
		syscall(SYS_futex, &go, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}}

{chr(10).join(funcs)}
static void *(*const fn[])(void *) = {{ {", ".join(f"stream{i}" for i in range(n))} }};

int main(int argc, char **argv)
{{
	pthread_t t[{n}];
	struct timespec t0, t1;

	(void)q; (void)argc;
	DIR = argv[1];
	mkdir(DIR, 0755);
	D = open(DIR, O_RDONLY | O_DIRECTORY);
	memset(buf, 0x5a, sizeof(buf)); /* its pages mapped before the clock, as loadgen's */
	{chr(10).join(chr(9) + l for l in setup).lstrip()}
	for (int i = 0; i < {n}; i++)
		pthread_create(&t[i], NULL, fn[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	atomic_store(&go, 1);
	syscall(SYS_futex, &go, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	for (int i = 0; i < {n}; i++)
		pthread_join(t[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("{{\\"ops\\": {calls}, \\"seconds\\": %.9f}}\\n",
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return 0;
}}
""", calls


def build(doc, workdir, threads=False):
    """Compile the floor of doc in workdir (threads: the threaded floor); the executable's
    path and its call count."""
    src, calls = generate_threads(doc) if threads else generate(doc)
    c = os.path.join(workdir, "bare-threads.c" if threads else "bare.c")
    exe = c[:-2]
    with open(c, "w") as f:
        f.write(src)
    subprocess.run(["cc", "-O0", "-w", "-pthread", "-o", exe, c], check=True)
    return exe, calls


def run(exe, parent):
    """One run of the floor in a new directory under parent: {"ops", "seconds"}."""
    d = tempfile.mkdtemp(prefix="bare.", dir=parent)
    try:
        out = subprocess.run([exe, os.path.join(d, "r")], capture_output=True, text=True,
                             check=True, timeout=600).stdout
        return json.loads(out)
    finally:
        subprocess.run(["rm", "-rf", d], check=False)
