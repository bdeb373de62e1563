"""The system monitor on a real run: every timeline entry has `sys` with CPU, pressure,
dirty/writeback and reclaim, and (on a block device) the device's utilisation and await;
the per-run summary's counters are the sums of the intervals'; the text report has the
block; --monitor off removes it all. The run is on the disk that holds the source tree
(ext4 here); without a block device under it the device part is skipped with 77."""
import os
import sys

from lgtest import SOURCE, WRITE_WORKLOAD, check, run, tmpdir, write


def block_device(path):
    st = os.stat(path)
    return os.path.exists(f"/sys/dev/block/{os.major(st.st_dev)}:{os.minor(st.st_dev)}")


def main():
    work = tmpdir() if block_device(tmpdir()) else None
    if work is None:
        # tmp may be a tmpfs: use the disk the source tree is on
        work = os.path.join(SOURCE, "build", "monitor-test")
        os.makedirs(work, exist_ok=True)
    has_disk = block_device(work)
    wl = write(os.path.join(work, "w.yaml"), WRITE_WORKLOAD)
    res = run(["-c", wl, "-D", work, "-t", "3", "--warmup", "0.5", "-q", "48"], workdir=work)
    check(res.rc == 0 and res.json, "48-client run on the disk finishes", res)
    r = res.json["runs"][0]
    tl = r["timeline"]
    check(len(tl) >= 3, f"{len(tl)} timeline entries")
    for k, e in enumerate(tl):
        s = e.get("sys")
        check(s is not None, f"timeline[{k}] has sys")
        g, c = s["gauges"], s["counters"]
        for key in ("cpu.user_pct", "cpu.system_pct", "cpu.iowait_pct", "cpu.idle_pct",
                    "procs_running", "meminfo.dirty_kib", "meminfo.writeback_kib",
                    "vmstat.nr_dirty", "vmstat.nr_writeback", "vmstat.nr_dirty_threshold"):
            check(key in g, f"timeline[{k}].sys.gauges has {key}")
        for key in ("cpu.ctxt", "psi.io.some_us", "vmstat.nr_dirtied", "vmstat.nr_written",
                    "vmstat.pgpgout", "vmstat.pgscan_kswapd", "vmstat.pgsteal_direct",
                    "vmstat.pgmajfault"):
            check(key in c, f"timeline[{k}].sys.counters has {key}")
        pct = sum(v for key, v in g.items() if key.startswith("cpu.") and key.endswith("_pct"))
        check(abs(pct - 100) < 0.01, f"timeline[{k}] CPU states add up to 100 % ({pct})")
        check(abs(s["seconds"] - e["len_s"]) < 0.05,
              f"timeline[{k}] sys covers the interval ({s['seconds']} vs {e['len_s']} s)")
    summ = r["sys_summary"]
    check(summ["intervals"] == len(tl), "summary counts every interval")
    check(abs(summ["seconds"] - sum(e["len_s"] for e in tl)) < 0.05,
          "summary covers the measured phase")
    for key, v in summ["counters"].items():
        total = sum(e["sys"]["counters"].get(key, 0) for e in tl)
        if total != v:
            check(False, f"summary {key} = {v} is the sum of the intervals ({total})")
    check(True, f"summary's {len(summ['counters'])} counters are the sums of the intervals")
    check(len(r["vmstat_diff"]) > 0 and r["vmstat_diff"].get("nr_dirtied", 0) > 0,
          "vmstat_diff has the counters that changed")
    check("kernel_messages" in r, "kernel_messages is in the run")
    check("System during the measured phase" in res.out and "Writeback" in res.out,
          "the text report has the system block", res)
    if has_disk:
        chain = res.json["env"].get("block_chain") or []
        disks = sorted({k.split(".")[1] for k in summ["counters"] if k.startswith("disk.")})
        check(disks, f"the target's block devices are followed: {disks} (chain {chain})")
        d = disks[-1]
        for key in ("util_pct", "queue_depth", "write_iops", "write_mbps", "write_await_ms"):
            check(f"disk.{d}.{key}" in summ["gauges"], f"summary has disk.{d}.{key}")
        check(summ["counters"][f"disk.{d}.writes"] > 0, f"{d} wrote during the run")
        check(f"Disk {d}" in res.out, "the text report has the device line", res)
    # --monitor off: nothing of it
    off = run(["-c", wl, "-D", work, "-t", "1", "--warmup", "0", "-q", "--monitor", "off",
               "4"], workdir=work)
    check(off.rc == 0, "--monitor off runs", off)
    r = off.json["runs"][0]
    check("sys_summary" not in r and "kernel_messages" not in r and "vmstat_diff" not in r
          and all("sys" not in e for e in r["timeline"]), "--monitor off records nothing")
    check("System during" not in off.out, "--monitor off prints no system block")
    bad = run(["--monitor", "maybe", "1"], json_out=False)
    check(bad.rc == 2 and "--monitor 'maybe'" in bad.err, "--monitor takes on or off", bad)
    if not has_disk:
        print("SKIP: no block device under", work, "- device utilisation/await not checked")
        sys.exit(77)


main()
