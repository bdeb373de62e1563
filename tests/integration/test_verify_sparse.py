"""--verify accounting over a sparse file: verified_bytes counts exactly the 512-byte
blocks that hold written data, never the holes a read passes over. The file is made
1 MiB long by a truncate (all hole), three ranges are written -- 4 KiB at 16 KiB (8
blocks), 1 KiB at 40 KiB (2 blocks), 100 bytes at 60,000 (inside one block: written in
part, so checked) -- and the whole file is read back once, in 64 KiB reads. Checked:
8 + 2 + 1 = 11 blocks, 5,632 bytes; bytes read 1 MiB."""
import os

from lgtest import check, run, tmpdir, write

d = tmpdir()
target = os.path.join(d, "t")
os.mkdir(target)
W = write(os.path.join(d, "sparse.yaml"), """
run:
  - create: {path: "c${client}", as: f, flags: [truncate]}
  - truncate: {file: f, size: 1MiB}
  - write: {file: f, size: 4KiB, offset: 16KiB}
  - write: {file: f, size: 1KiB, offset: 40KiB}
  - write: {file: f, size: 100, offset: 60000}
  - read: {file: f, size: 64KiB, offset: 0, count: 16}
  - close: f
cleanup:
  - unlink: "c${client}"
""")
for clients in (1, 3):
    res = run(["-q", "--verify", "--run-once", "-D", target, "-c", W, str(clients)],
              workdir=d)
    check(res.rc == 0, f"{clients} clients: sparse verify run exits 0", res)
    r = res.json["runs"][0]
    check(r["corruptions"] == 0, f"{clients} clients: no corruption in a sparse file", res)
    check(r["bytes_read"] == clients * 1024 * 1024, f"{clients} clients: 1 MiB read each")
    check(r["verified_bytes"] == clients * 11 * 512,
          f"{clients} clients: verified_bytes {r['verified_bytes']} == "
          f"{clients * 11 * 512} (written blocks only, holes not counted)", res)
