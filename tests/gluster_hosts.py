#!/usr/bin/env python3
"""A GlusterFS volume and K client "hosts" on this machine, for multi-host tests.

  python3 tests/gluster_hosts.py [--hosts K] -- COMMAND [ARG...]

starts a glusterd of its own (its state, volume files and log in a new directory under
/tmp, not in /var/lib/glusterd), a replica-2 volume on two brick directories there, and K
hosts: each a mount and UTS namespace of its own, kept open by bind mounts of their
namespace files, with its own host name (lg-host-1 ... lg-host-K) and its own GlusterFS
FUSE client mounted at the same path, so each host has its own client and caches as
separate machines would. Every connection is to a loopback address (127.0.0.2); glusterd
listens on its default port, 24007 (a glusterd already there: exit 77). COMMAND runs with

  LG_GLUSTER_MOUNT   the volume's mount point (the same path on every host)
  LG_GLUSTER_ON_HOST a wrapper: `$LG_GLUSTER_ON_HOST CMD...` runs CMD on the host of its
                     MPI rank (rank r of n on host r*K/n + 1: consecutive ranks share a
                     host, as a hostfile's slots do), or on host $LG_GLUSTER_HOST if set
  LG_GLUSTER_BRICKS  the two brick directories, ':'-separated (the servers' copies)
  LG_GLUSTER_HOSTS   K

and everything is torn down afterwards, also when COMMAND fails or the harness is
interrupted. Its exit status is COMMAND's; 77 when glusterd, the FUSE client, unshare,
nsenter or root is missing (a test skips); 2 when the volume could not be set up.

As a module: `with GlusterHosts(k) as g:` gives g.mount, g.on_host, g.bricks, g.env()."""
import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ADDR = "127.0.0.2"  # loopback, and not 127.0.0.1: gluster refuses "localhost" bricks


class Missing(Exception):
    """Something this machine lacks: the caller skips."""


class SetupFailed(Exception):
    pass


def missing():
    """What is missing for a volume here, or None."""
    if os.geteuid() != 0:
        return "root (glusterd, FUSE mounts and namespaces)"
    for prog, pkg in (("glusterd", "glusterfs-server"), ("gluster", "glusterfs-server"),
                      ("mount.glusterfs", "glusterfs-client"), ("unshare", "util-linux"),
                      ("nsenter", "util-linux")):
        if not shutil.which(prog) and not os.path.exists("/usr/sbin/" + prog) and \
                not os.path.exists("/sbin/" + prog):
            return f"{prog} (Debian: {pkg})"
    if not os.path.exists("/dev/fuse"):
        return "/dev/fuse"
    return None


def _run(cmd, what, timeout=60, check=True, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if check and p.returncode != 0:
        raise SetupFailed(f"{what}: {' '.join(cmd)}: exit {p.returncode}: "
                          f"{(p.stderr or p.stdout).strip()}")
    return p


def _port_free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
            return True
        except OSError:
            return False


# glusterd's own configuration: its state and socket in the harness's directory. It and the
# bricks listen on the default ports on every address (bound to one address, the bricks
# could no longer reach glusterd for their ports); every connection made is to ADDR.
GLUSTERD_VOL = """volume management
    type mgmt/glusterd
    option working-directory {state}
    option glusterd-sockfile {sock}
    option transport-type socket
    option transport.socket.read-fail-log off
    option ping-timeout 0
    option event-threads 1
end-volume
"""
PORT = 24007


class GlusterHosts:
    def __init__(self, hosts=2, volume=None):
        self.k = hosts
        self.volume = volume or f"lg{os.getpid()}"
        self.dir = None
        self.glusterd = None
        self.hosts_up = 0
        self.volume_made = False

    # --- paths ---------------------------------------------------------------------
    def _p(self, *parts):
        return os.path.join(self.dir, *parts)

    @property
    def mount(self):
        return self._p("shared")

    @property
    def bricks(self):
        return [self._p("brick1"), self._p("brick2")]

    @property
    def on_host(self):
        return self._p("on-host")

    def env(self, base=None):
        e = dict(base if base is not None else os.environ)
        e.update(LG_GLUSTER_MOUNT=self.mount, LG_GLUSTER_ON_HOST=self.on_host,
                 LG_GLUSTER_BRICKS=":".join(self.bricks), LG_GLUSTER_HOSTS=str(self.k))
        return e

    def gluster(self, *args, check=True, timeout=120):
        return _run(["gluster", "--mode=script", f"--glusterd-sock={self._p('glusterd.socket')}",
                     *args],
                    "gluster", timeout=timeout, check=check)

    def nsenter(self, host):
        """The command prefix that runs on host (1..K)."""
        return ["nsenter", f"--mount={self._p('ns', f'mnt-{host}')}",
                f"--uts={self._p('ns', f'uts-{host}')}", "--"]

    # --- up --------------------------------------------------------------------------
    def __enter__(self):
        why = missing()
        if why:
            raise Missing(why)
        self.dir = tempfile.mkdtemp(prefix="lg-gluster.")
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _start(self):
        for d in ("state", "ns", "shared", "brick1", "brick2", "run"):
            os.mkdir(self._p(d))
        if not _port_free(PORT):
            raise Missing(f"a free port {PORT} (another glusterd runs here)")
        with open(self._p("glusterd.vol"), "w") as f:
            f.write(GLUSTERD_VOL.format(state=self._p("state"), sock=self._p("glusterd.socket")))
        # glusterd daemonizes; -N keeps it in the foreground, our child to stop
        self.glusterd = subprocess.Popen(
            ["glusterd", "-N", "-f", self._p("glusterd.vol"), "-p", self._p("glusterd.pid"),
             "-l", self._p("glusterd.log"), "--log-level=WARNING"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            p = self.gluster("volume", "list", check=False, timeout=30)
            if p.returncode == 0:
                break
            if self.glusterd.poll() is not None or time.monotonic() > deadline:
                raise SetupFailed(f"glusterd did not start (see {self._p('glusterd.log')}): "
                                  f"{p.stderr.strip()}")
            time.sleep(0.2)
        bricks = [f"{ADDR}:{b}" for b in self.bricks]
        self.gluster("volume", "create", self.volume, "replica", "2", *bricks, "force")
        self.volume_made = True
        self.gluster("volume", "start", self.volume)
        # namespace files need a private mount of their own directory to be bound to
        _run(["mount", "--bind", self._p("ns"), self._p("ns")], "the namespaces' directory")
        _run(["mount", "--make-private", self._p("ns")], "the namespaces' directory")
        for h in range(1, self.k + 1):
            for kind in ("mnt", "uts"):
                open(self._p("ns", f"{kind}-{h}"), "w").close()
            _run(["unshare", f"--mount={self._p('ns', f'mnt-{h}')}",
                  f"--uts={self._p('ns', f'uts-{h}')}", "--propagation", "private",
                  "sh", "-c", 'hostname "$1" && mount -t glusterfs -o '
                  '"log-file=$3,log-level=WARNING" "$2" "$4"', "sh", f"lg-host-{h}",
                  f"{ADDR}:/{self.volume}", self._p("run", f"client-{h}.log"), self.mount],
                 f"host {h}", timeout=120)
            self.hosts_up = h
        with open(self.on_host, "w") as f:
            f.write(f"""#!/bin/sh
# Run "$@" on the GlusterFS host of this MPI rank (tests/gluster_hosts.py).
k={self.k}
if [ -n "$LG_GLUSTER_HOST" ]; then h=$LG_GLUSTER_HOST
else h=$(( ${{OMPI_COMM_WORLD_RANK:-${{PMI_RANK:-0}}}} * k /
           ${{OMPI_COMM_WORLD_SIZE:-${{PMI_SIZE:-1}}}} + 1 ))
fi
# --wd: entering a mount namespace would start the command in / (a relative path to the
# program, or the program's relative arguments, would then miss)
exec nsenter --mount={self._p('ns')}/mnt-$h --uts={self._p('ns')}/uts-$h --wd="$PWD" -- "$@"
""")
        os.chmod(self.on_host, 0o755)

    # --- down ------------------------------------------------------------------------
    def close(self):
        """Everything started, stopped; everything made, removed. Never raises."""
        if not self.dir:
            return
        for h in range(1, self.hosts_up + 1):
            _run(self.nsenter(h) + ["umount", "-l", self.mount], "umount", check=False)
        if os.path.ismount(self._p("ns")) or self.hosts_up:
            for h in range(1, self.k + 1):
                for kind in ("mnt", "uts"):
                    _run(["umount", self._p("ns", f"{kind}-{h}")], "umount", check=False)
            _run(["umount", self._p("ns")], "umount", check=False)
        if self.volume_made and self.glusterd and self.glusterd.poll() is None:
            self.gluster("volume", "stop", self.volume, "force", check=False)
            self.gluster("volume", "delete", self.volume, check=False)
        # whatever still runs of ours: glusterd, brick and self-heal daemons, clients (all
        # name a file of this directory on their command line)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            pids = self._ours()
            if self.glusterd and self.glusterd.poll() is None:
                pids.add(self.glusterd.pid)
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + 5
            while self._ours() and time.monotonic() < deadline:
                time.sleep(0.1)
        if self.glusterd:
            try:
                self.glusterd.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None

    def _ours(self):
        pids = set()
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmd = f.read()
            except OSError:
                continue
            if int(pid) != os.getpid() and self.dir.encode() in cmd and \
                    b"gluster" in cmd:
                pids.add(int(pid))
        return pids

    def volume_pids(self):
        """Processes of this volume: its bricks, its clients (one per host), glusterd."""
        return self._ours()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hosts", type=int, default=2)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd or a.hosts < 1:
        ap.error("usage: gluster_hosts.py [--hosts K] -- COMMAND [ARG...]")
    stop = []

    def interrupted(sig, frame):
        stop.append(sig)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    try:
        with GlusterHosts(a.hosts) as g:
            print(f"gluster_hosts: volume {g.volume} on {ADDR}, {a.hosts} hosts, mounted at "
                  f"{g.mount}", file=sys.stderr)
            return subprocess.run(cmd, env=g.env()).returncode
    except Missing as e:
        print(f"gluster_hosts: SKIP: {e} is missing", file=sys.stderr)
        return 77
    except SetupFailed as e:
        print(f"gluster_hosts: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
