/* ops.c: each op kind through lg_op_exec on one client over a temporary directory --
 * what it does to the files, the bytes it reports, and where each offset mode puts a
 * read or write (fixed, seq, append, last, prev, random), including `prev` before the
 * first block and sequential offsets after a short read; seek, fallocate, getdents,
 * vector reads and writes, truncate by path, rename's flags, stat's follow and the open
 * flags of recorded programs. */
#include "client_harness.h"

#include <errno.h>
#include <sys/file.h>

#define RUN LG_PHASE_RUN

/* Slot of file name "f" in h's workload. */
static uint32_t slot_f(struct harness *h)
{
	for (size_t i = 0; i < h->wl->nslots; i++)
		if (!strcmp(h->wl->slots[i], "f"))
			return (uint32_t)i;
	fail_msg("no slot f");
	return 0;
}

/* Every offset mode of write, op by op: where it went (last/pos) and the file size. */
static void test_write_offsets(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"                           /* 0 */
		"  - write: {file: f, size: 100, offset: prev}\n"          /* 1 */
		"  - write: {file: f, size: 100, offset: 1000}\n"          /* 2 */
		"  - write: {file: f, size: 100}\n"                        /* 3 seq */
		"  - write: {file: f, size: 100, offset: last}\n"          /* 4 */
		"  - write: {file: f, size: 100, offset: prev}\n"          /* 5 */
		"  - write: {file: f, size: 50, offset: append}\n"         /* 6 */
		"  - write: {file: f, size: 100, offset: 4000, count: 3}\n" /* 7 */
		"  - close: f\n");
	uint32_t s = slot_f(h);
	uint64_t b;

	(void)state;
	assert_int_equal(h_exec(h, RUN, 0, 0, NULL), 0);
	/* prev with no previous block: skipped, nothing written anywhere (not at 0) */
	assert_int_equal(h_exec(h, RUN, 1, 0, &b), LG_EXEC_SKIPPED(LG_SKIP_PREV));
	assert_int_equal(b, 0);
	assert_int_equal(h_size(h, "f"), 0);
	assert_int_equal(h->c.slots[s].pos, 0);
	assert_int_equal(h_exec(h, RUN, 2, 0, &b), 0);
	assert_int_equal(b, 100);
	assert_int_equal(h->c.slots[s].last, 1000);
	assert_int_equal(h->c.slots[s].pos, 1100);
	assert_int_equal(h_size(h, "f"), 1100);
	assert_int_equal(h_exec(h, RUN, 3, 0, &b), 0); /* seq: where the last one ended */
	assert_int_equal(h->c.slots[s].last, 1100);
	assert_int_equal(h_size(h, "f"), 1200);
	assert_int_equal(h_exec(h, RUN, 4, 0, &b), 0); /* last: where it started */
	assert_int_equal(h->c.slots[s].last, 1100);
	assert_int_equal(h_size(h, "f"), 1200);
	assert_int_equal(h_exec(h, RUN, 5, 0, &b), 0); /* prev: one size before last */
	assert_int_equal(h->c.slots[s].last, 1000);
	assert_int_equal(h_exec(h, RUN, 6, 0, &b), 0); /* append: at the end */
	assert_int_equal(b, 50);
	assert_int_equal(h->c.slots[s].last, 1200);
	assert_int_equal(h_size(h, "f"), 1250);
	assert_int_equal(h_exec(h, RUN, 7, 2, &b), 0); /* fixed, third call: next blocks */
	assert_int_equal(h->c.slots[s].last, 4200);
	assert_int_equal(h_size(h, "f"), 4300);
	assert_int_equal(h_exec(h, RUN, 8, 0, NULL), 0);
	h_free(h);
}

/* prev on a read and on sync_file_range/fadvise before the first block: skipped. */
static void test_prev_skips_every_kind(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"
		"  - truncate: {file: f, size: 1000}\n"
		"  - read: {file: f, size: 100, offset: prev}\n"
		"  - sync_file_range: {file: f, size: 100, offset: prev}\n"
		"  - fadvise: {file: f, size: 100, offset: prev, advice: dontneed}\n"
		"  - read: {file: f, size: 100, offset: 300}\n"
		"  - read: {file: f, size: 100, offset: prev}\n"
		"  - close: f\n");
	uint32_t s = slot_f(h);
	uint64_t b = 99;

	(void)state;
	assert_int_equal(h_exec(h, RUN, 0, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 1, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 2, 0, &b), LG_EXEC_SKIPPED(LG_SKIP_PREV));
	assert_int_equal(b, 0); /* a read at 0 would have returned 100 bytes */
	assert_int_equal(h->c.slots[s].pos, 0);
	assert_int_equal(h_exec(h, RUN, 3, 0, NULL), LG_EXEC_SKIPPED(LG_SKIP_PREV));
	assert_int_equal(h_exec(h, RUN, 4, 0, NULL), LG_EXEC_SKIPPED(LG_SKIP_PREV));
	assert_int_equal(h_exec(h, RUN, 5, 0, &b), 0);
	assert_int_equal(h->c.slots[s].last, 300);
	assert_int_equal(h_exec(h, RUN, 6, 0, &b), 0);
	assert_int_equal(b, 100);
	assert_int_equal(h->c.slots[s].last, 200);
	assert_int_equal(h->c.slots[s].pos, 300);
	h_free(h);
}

/* Sequential offsets advance by what a call returned: a short read at the end of a
 * 150-byte file, then a sequential write, leaves no hole. */
static void test_short_read_then_seq_write(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"
		"  - write: {file: f, size: 150}\n"
		"  - read: {file: f, size: 100, offset: 0}\n"
		"  - read: {file: f, size: 100}\n"
		"  - write: {file: f, size: 100}\n"
		"  - read: {file: f, size: 100}\n"
		"  - close: f\n");
	uint32_t s = slot_f(h);
	uint64_t b;

	(void)state;
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(h_exec(h, RUN, i, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 3, 0, &b), 0);
	assert_int_equal(b, 50);               /* short */
	assert_int_equal(h->c.slots[s].pos, 150);    /* not 200 */
	assert_int_equal(h_exec(h, RUN, 4, 0, &b), 0);
	assert_int_equal(h->c.slots[s].last, 150);
	assert_int_equal(h_size(h, "f"), 250); /* a hole would make it 300 */
	assert_int_equal(h_exec(h, RUN, 5, 0, &b), 0);
	assert_int_equal(b, 0);                /* at the end */
	assert_int_equal(h->c.slots[s].pos, 250);
	h_free(h);
}

/* random: aligned from base, the block inside [base, base + range), and every slot
 * reached. */
static void test_random_offsets(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"
		"  - write: {file: f, size: 100, offset: random, range: 1000, align: 100,"
		" base: 5000}\n"
		"  - close: f\n");
	uint32_t s = slot_f(h);
	bool seen[10] = { false };

	(void)state;
	assert_int_equal(h_exec(h, RUN, 0, 0, NULL), 0);
	for (int i = 0; i < 400; i++) {
		uint64_t off;

		assert_int_equal(h_exec(h, RUN, 1, (uint64_t)i, NULL), 0);
		off = h->c.slots[s].last;
		assert_true(off >= 5000 && off + 100 <= 6000);
		assert_int_equal((off - 5000) % 100, 0);
		seen[(off - 5000) / 100] = true;
	}
	for (int i = 0; i < 10; i++)
		assert_true(seen[i]);
	h_free(h);
}

/* The namespace ops and the ones on an open file, and the bytes each reports. */
static void test_kinds(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - mkdir: d\n"                                   /* 0 */
		"  - create: {path: d/f, as: f}\n"                 /* 1 */
		"  - write: {file: f, size: 4KiB}\n"               /* 2 */
		"  - fsync: f\n"                                   /* 3 */
		"  - fdatasync: f\n"                               /* 4 */
		"  - fstat: f\n"                                   /* 5 */
		"  - truncate: {file: f, size: 1000}\n"            /* 6 */
		"  - sync_file_range: {file: f, size: 4KiB}\n"     /* 7 */
		"  - syncfs: f\n"                                  /* 8 */
		"  - close: f\n"                                   /* 9 */
		"  - stat: d/f\n"                                  /* 10 */
		"  - readdir: d\n"                                 /* 11 */
		"  - rename: {from: d/f, to: d/g}\n"               /* 12 */
		"  - stat: {path: d/f, expect: ENOENT}\n"          /* 13 */
		"  - unlink: d/g\n"                                /* 14 */
		"  - rmdir: d\n"                                   /* 15 */
		"  - sleep: 20ms\n");                              /* 16 */
	uint64_t b, t0;

	(void)state;
	assert_int_equal(h_exec(h, RUN, 0, 0, &b), 0);
	assert_int_equal(h_exec(h, RUN, 1, 0, &b), 0);
	assert_int_equal(h_exec(h, RUN, 2, 0, &b), 0);
	assert_int_equal(b, 4096);
	for (size_t i = 3; i <= 5; i++) {
		assert_int_equal(h_exec(h, RUN, i, 0, &b), 0);
		assert_int_equal(b, 0);
	}
	assert_int_equal(h_exec(h, RUN, 6, 0, &b), 0);
	assert_int_equal(b, 0); /* truncate moves no bytes */
	assert_int_equal(h_size(h, "d/f"), 1000);
	assert_int_equal(h_exec(h, RUN, 7, 0, &b), 0);
	assert_int_equal(h_exec(h, RUN, 8, 0, &b), 0);
	assert_int_equal(h_exec(h, RUN, 9, 0, &b), 0);
	assert_int_equal(h->c.slots[0].fd, -1);
	assert_int_equal(h_exec(h, RUN, 10, 0, &b), 0);
	assert_int_equal(h_exec(h, RUN, 11, 0, &b), 0);
	assert_int_equal(h_exec(h, RUN, 12, 0, &b), 0);
	assert_int_equal(h_size(h, "d/g"), 1000);
	assert_int_equal(h_exec(h, RUN, 13, 0, &b), ENOENT); /* the errno, not a boolean */
	assert_int_equal(h_exec(h, RUN, 14, 0, &b), 0);
	assert_int_equal(h_size(h, "d/g"), -1);
	assert_int_equal(h_exec(h, RUN, 15, 0, &b), 0);
	assert_int_equal(h_size(h, "d"), -1);
	assert_int_equal(h_exec(h, RUN, 11, 0, &b), ENOENT); /* readdir of what is gone */
	t0 = lg_now_ns();
	assert_int_equal(h_exec(h, RUN, 16, 0, &b), 0);
	assert_true(lg_now_ns() - t0 >= 20000000);
	h_free(h);
}

/* lock/unlock: OFD locks of two opens of one file conflict, at once (EAGAIN). */
static void test_lock_unlock(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: a}\n"
		"  - open: {path: f, as: b}\n"
		"  - lock: {file: a, offset: 0, size: 10}\n"
		"  - lock: {file: b, offset: 5, size: 10}\n"
		"  - lock: {file: b, offset: 10, size: 10}\n"
		"  - unlock: {file: a, offset: 0, size: 10}\n"
		"  - close: a\n"
		"  - close: b\n");

	(void)state;
	assert_int_equal(h_exec(h, RUN, 0, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 1, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 2, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 3, 0, NULL), EAGAIN); /* overlaps a's lock */
	assert_int_equal(h_exec(h, RUN, 4, 0, NULL), 0);      /* beside it */
	assert_int_equal(h_exec(h, RUN, 5, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 3, 0, NULL), 0);      /* free after the unlock */
	h_free(h);
}

/* A write goes through the shared pattern buffer, a read into the client's own. */
static void test_write_content(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"
		"  - write: {file: f, size: 64}\n"
		"  - read: {file: f, size: 64, offset: 0}\n"
		"  - close: f\n");
	char buf[64], want[64];

	(void)state;
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(h_exec(h, RUN, i, 0, NULL), 0);
	memset(want, 'w', sizeof(want));
	assert_int_equal(h_read(h, "f", buf, sizeof(buf), 0), 64);
	assert_memory_equal(buf, want, 64);
	assert_memory_equal(h->c.buf, want, 64);
	h_free(h);
}

/* seek: the slot's position follows (set, cur from the slot's position, end), a
 * sequential read then starts there; a seek before 0 fails as lseek does. */
static void test_seek(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"                       /* 0 */
		"  - truncate: {file: f, size: 1000}\n"                /* 1 */
		"  - seek: {file: f, offset: 300}\n"                   /* 2 */
		"  - read: {file: f, size: 100}\n"                     /* 3 */
		"  - seek: {file: f, offset: -50, whence: cur}\n"      /* 4 */
		"  - seek: {file: f, offset: -10, whence: end}\n"      /* 5 */
		"  - seek: {file: f, offset: -2000, whence: cur, expect: EINVAL}\n" /* 6 */
		"  - seek: {file: f, offset: 5000, whence: data, expect: ENXIO}\n"  /* 7 */
		"  - close: f\n");
	uint32_t s = slot_f(h);
	uint64_t b;

	(void)state;
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(h_exec(h, RUN, i, 0, NULL), 0);
	assert_int_equal(h->c.slots[s].pos, 300);
	assert_int_equal(h_exec(h, RUN, 3, 0, &b), 0);
	assert_int_equal(b, 100);
	assert_int_equal(h->c.slots[s].last, 300); /* the read started where the seek went */
	assert_int_equal(h_exec(h, RUN, 4, 0, &b), 0);
	assert_int_equal(b, 0);
	assert_int_equal(h->c.slots[s].pos, 350);  /* 400 - 50: the slot's, not the fd's 300 */
	assert_int_equal(lseek(h->c.slots[s].fd, 0, SEEK_CUR), 350);
	assert_int_equal(h_exec(h, RUN, 5, 0, NULL), 0);
	assert_int_equal(h->c.slots[s].pos, 990);
	assert_int_equal(h_exec(h, RUN, 6, 0, NULL), EINVAL);
	assert_int_equal(h->c.slots[s].pos, 990);  /* a failed seek moves nothing */
	assert_int_equal(h_exec(h, RUN, 7, 0, NULL), ENXIO);
	h_free(h);
}

/* fallocate: allocate (the size grows), keep_size (it does not), punch_hole; getdents:
 * one call, which moves the directory's position (the second finds the end: 0). */
static void test_fallocate_getdents(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"                                         /* 0 */
		"  - fallocate: {file: f, size: 8192}\n"                                 /* 1 */
		"  - fallocate: {file: f, offset: 8192, size: 8192, mode: [keep_size]}\n" /* 2 */
		"  - fallocate: {file: f, size: 4096, mode: [punch_hole, keep_size]}\n"  /* 3 */
		"  - close: f\n"                                                         /* 4 */
		"  - mkdir: d\n"                                                         /* 5 */
		"  - open: {path: d, as: d, flags: [read, directory]}\n"                 /* 6 */
		"  - getdents: {file: d, size: 32KiB}\n"                                 /* 7 */
		"  - close: d\n");
	struct stat st;
	int rc;

	(void)state;
	assert_int_equal(h_exec(h, RUN, 0, 0, NULL), 0);
	rc = h_exec(h, RUN, 1, 0, NULL);
	if (rc == EOPNOTSUPP) {
		print_message("SKIP: no fallocate on the temporary directory's filesystem\n");
	} else {
		assert_int_equal(rc, 0);
		assert_int_equal(h_size(h, "f"), 8192);
		assert_int_equal(h_exec(h, RUN, 2, 0, NULL), 0);
		assert_int_equal(h_size(h, "f"), 8192);
		assert_int_equal(fstatat(h->sh.dirfd, "f", &st, 0), 0);
		assert_true(st.st_blocks * 512 >= 16384);
		assert_int_equal(h_exec(h, RUN, 3, 0, NULL), 0);
		assert_int_equal(h_size(h, "f"), 8192);
	}
	assert_int_equal(h_exec(h, RUN, 4, 0, NULL), 0);
	assert_int_equal(h->wl->max_io, 32768); /* the client's buffer holds a getdents */
	assert_int_equal(h_exec(h, RUN, 5, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 6, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 7, 0, NULL), 0);
	assert_true(lseek(h->c.slots[1].fd, 0, SEEK_CUR) > 0); /* read on */
	h_free(h);
}

/* vector: the same bytes through preadv/pwritev, at the same offsets. */
static void test_vector(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: f, as: f}\n"
		"  - write: {file: f, size: 64, vector: true}\n"
		"  - write: {file: f, size: 64, offset: 1000, vector: true}\n"
		"  - read: {file: f, size: 64, offset: 0, vector: true}\n"
		"  - read: {file: f, size: 64, vector: true}\n"
		"  - close: f\n");
	uint32_t s = slot_f(h);
	char buf[64], want[64];
	uint64_t b;

	(void)state;
	memset(want, 'w', sizeof(want));
	assert_true(h->wl->ops[RUN][1].flags & LG_OP_VECTOR);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(h_exec(h, RUN, i, 0, NULL), 0);
	assert_int_equal(h_size(h, "f"), 1064);
	assert_int_equal(h_read(h, "f", buf, sizeof(buf), 1000), 64);
	assert_memory_equal(buf, want, 64);
	assert_int_equal(h_exec(h, RUN, 3, 0, &b), 0);
	assert_int_equal(b, 64);
	assert_memory_equal(h->c.buf, want, 64);
	assert_int_equal(h_exec(h, RUN, 4, 0, &b), 0); /* sequential: after the last read */
	assert_int_equal(h->c.slots[s].last, 64);
	assert_int_equal(b, 64);
	h_free(h);
}

/* truncate by path; rename's flags (renameat2); stat with follow; the new open flags. */
static void test_path_forms(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - create: {path: a, as: f}\n"                                  /* 0 */
		"  - close: f\n"                                                  /* 1 */
		"  - truncate: {path: a, size: 1234}\n"                           /* 2 */
		"  - create: {path: b, as: f}\n"                                  /* 3 */
		"  - close: f\n"                                                  /* 4 */
		"  - rename: {from: a, to: b, flags: [noreplace], expect: EEXIST}\n" /* 5 */
		"  - rename: {from: a, to: b, flags: [exchange]}\n"               /* 6 */
		"  - symlink: {target: a, path: l}\n"                             /* 7 */
		"  - stat: {path: l, follow: true}\n"                             /* 8 */
		"  - unlink: a\n"                                                 /* 9 */
		"  - stat: {path: l, follow: true, expect: ENOENT}\n"             /* 10 */
		"  - stat: l\n"                                                   /* 11 */
		"  - open: {path: l, as: f, flags: [nofollow], expect: ELOOP}\n"  /* 12 */
		"  - open: {path: l, as: f, flags: [path, nofollow]}\n"           /* 13 */
		"  - close: f\n"                                                  /* 14 */
		"  - open: {path: b, as: f, flags: [directory], expect: ENOTDIR}\n" /* 15 */
		"  - open: {path: d, as: f, flags: [tmpfile, write]}\n"         /* 16 */
		"  - write: {file: f, size: 10}\n"                                /* 17 */
		"  - close: f\n"                                                  /* 18 */
		"  - truncate: {path: nope, size: 1, expect: ENOENT}\n"          /* 19 */
		"  - mkdir: d\n");                                               /* 20 */

	(void)state;
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(h_exec(h, RUN, i, 0, NULL), 0);
	assert_int_equal(h_size(h, "a"), 1234);
	assert_int_equal(h_exec(h, RUN, 3, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 4, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 5, 0, NULL), EEXIST);
	assert_int_equal(h_exec(h, RUN, 6, 0, NULL), 0);
	assert_int_equal(h_size(h, "a"), 0); /* exchanged */
	assert_int_equal(h_size(h, "b"), 1234);
	for (size_t i = 7; i <= 9; i++)
		assert_int_equal(h_exec(h, RUN, i, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 10, 0, NULL), ENOENT); /* dangling, followed */
	assert_int_equal(h_exec(h, RUN, 11, 0, NULL), 0);      /* the link itself */
	assert_int_equal(h_exec(h, RUN, 12, 0, NULL), ELOOP);
	assert_int_equal(h_exec(h, RUN, 13, 0, NULL), 0);      /* O_PATH opens the link */
	assert_int_equal(h_exec(h, RUN, 14, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 15, 0, NULL), ENOTDIR);
	assert_int_equal(h_exec(h, RUN, 20, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 16, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 17, 0, NULL), 0);      /* a file with no name */
	assert_int_equal(h_exec(h, RUN, 18, 0, NULL), 0);
	assert_int_equal(h_exec(h, RUN, 19, 0, NULL), ENOENT);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_offsets),
		cmocka_unit_test(test_prev_skips_every_kind),
		cmocka_unit_test(test_short_read_then_seq_write),
		cmocka_unit_test(test_random_offsets),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_lock_unlock),
		cmocka_unit_test(test_write_content),
		cmocka_unit_test(test_seek),
		cmocka_unit_test(test_fallocate_getdents),
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_path_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
