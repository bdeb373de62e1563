/* client.c: one client's loop over a temporary directory through lg_client_main --
 * byte and op accounting per stats row and in the live counters, repeat/choose/pick/
 * when control flow, expect handling, the stop, abort and deadline checks, warm-up not
 * recorded, and -R: the pacing arithmetic and latency counted from the intended start
 * (a stall shows in the latency of the ops queued behind it, not in their service
 * time); which files stay open for cleanup; the O_DIRECT alignment in an EINVAL's note. */
#include "client_harness.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "loadgen/model/histogram.h"

#define MS 1000000ull

/* Byte and op accounting: per row, and the live counters the monitor reads. */
static void test_accounting(void **state)
{
	struct harness *h = h_new("setup:\n"
		"  - create: {path: f, as: f}\n"
		"  - write: {file: f, size: 1000}\n"   /* setup: not recorded */
		"  - close: f\n"
		"run:\n"
		"  - open: {path: f, as: f}\n"
		"  - write: {file: f, size: 4KiB, count: 3}\n"
		"  - read: {file: f, size: 4KiB, offset: 0, count: 2}\n"
		"  - read: {file: f, size: 4KiB}\n"    /* at 8 KiB: 4 KiB */
		"  - read: {file: f, size: 4KiB}\n"    /* at 12 KiB: 0 (end) */
		"  - close: f\n"
		"cleanup:\n"
		"  - unlink: f\n");
	struct lg_type_stats *w, *r;

	(void)state;
	lg_client_main(&h->c);
	w = h_type(h, "write");
	r = h_type(h, "read");
	assert_int_equal(w->count, 3);
	assert_int_equal(w->bytes_written, 3 * 4096);
	assert_int_equal(w->bytes_read, 0);
	assert_int_equal(r->count, 4);
	assert_int_equal(r->bytes_read, 3 * 4096);
	assert_int_equal(r->bytes_written, 0);
	assert_int_equal(h_type(h, "open")->count, 1);
	assert_int_equal(h_type(h, "close")->count, 1);
	assert_int_equal(h_type(h, "unlink")->count, 0); /* cleanup is not measured */
	assert_int_equal(w->hist.count, 3);
	/* live: every phase (setup 3 ops + 1000 bytes, run 9, cleanup 1) */
	assert_int_equal(h->live.ops, 3 + 9 + 1);
	assert_int_equal(h->live.bytes_written, 1000 + 3 * 4096);
	assert_int_equal(h->live.bytes_read, 3 * 4096);
	assert_int_equal(h->live.done, 1);
	assert_int_equal(h_size(h, "f"), -1);
	h_free(h);
}

/* repeat (nested, zero), when, and the loop counters. */
static void test_repeat_when(void **state)
{
	struct harness *h = h_new("params:\n"
		"  on: false\n"
		"run:\n"
		"  - mkdir: d\n"
		"  - repeat: {count: 3, do: [repeat: {count: 2, do: [stat: d]}]}\n"
		"  - repeat: {count: 0, do: [readdir: d]}\n"
		"  - repeat: {count: 4, do: [readdir: d]}\n"
		"  - {fsync: d, when: \"${on}\"}\n"
		"  - when: true\n"
		"    rmdir: d\n");

	(void)state;
	lg_client_main(&h->c);
	assert_int_equal(h_type(h, "stat")->count, 6);
	assert_int_equal(h_type(h, "readdir")->count, 4);
	assert_int_equal(h_type(h, "rmdir")->count, 1);
	for (size_t i = 0; i < h->wl->ntypes; i++) /* switched off: not even a row */
		assert_string_not_equal(h->wl->types[i], "fsync");
	h_free(h);
}

/* choose: a weight-0 alternative never runs; 3:1 weights give about 3:1. */
static void test_choose(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - mkdir: d\n"
		"  - repeat:\n"
		"      count: 4000\n"
		"      do:\n"
		"        - choose:\n"
		"            - {weight: 3, do: [stat: d]}\n"
		"            - {weight: 1, do: [readdir: d]}\n"
		"            - {weight: 0, do: [rmdir: d]}\n"
		"  - rmdir: d\n");
	uint64_t a, b;

	(void)state;
	lg_client_main(&h->c);
	a = h_type(h, "stat")->count;
	b = h_type(h, "readdir")->count;
	assert_int_equal(a + b, 4000);
	assert_int_equal(h_type(h, "rmdir")->count, 1); /* only the last step */
	assert_int_equal(h_type(h, "rmdir")->errors, 0);
	/* binomial(4000, 0.75): sd 27; 3000 +- 200 is 7 sd */
	assert_in_range(a, 2800, 3200);
	h_free(h);
}

/* pick: seq visits 0, 1, 2, 0...; shuffle gives each value once per round. */
static void test_pick(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - repeat:\n"
		"      count: 3\n"
		"      do:\n"
		"        - pick: {var: i, count: 3, order: seq}\n"
		"        - mkdir: \"s${i}\"\n"
		"  - repeat:\n"
		"      count: 5\n"
		"      do:\n"
		"        - pick: {var: j, count: 5, order: shuffle}\n"
		"        - mkdir: \"u${j}\"\n");

	(void)state;
	lg_client_main(&h->c);
	assert_int_equal(h_type(h, "mkdir")->count, 8);
	assert_int_equal(h_type(h, "mkdir")->errors, 0); /* no value twice: no EEXIST */
	for (int i = 0; i < 3; i++) {
		char p[8];

		snprintf(p, sizeof(p), "s%d", i);
		assert_int_not_equal(h_size(h, p), -1);
	}
	for (int i = 0; i < 5; i++) {
		char p[8];

		snprintf(p, sizeof(p), "u%d", i);
		assert_int_not_equal(h_size(h, p), -1);
	}
	h_free(h);
}

/* expect: the expected errno is no error, another result is, counted per errno with
 * the line of the op; any accepts everything. */
static void test_expect(void **state)
{
	struct harness *h = h_new("run:\n"
		"  - stat: {path: none, expect: ENOENT}\n"
		"  - stat: none\n"
		"  - mkdir: {path: d, expect: EEXIST}\n"
		"  - rmdir: {path: none, expect: any}\n"
		"  - rmdir: d\n");
	struct lg_type_stats *st, *mk;

	(void)state;
	lg_client_main(&h->c);
	st = h_type(h, "stat");
	mk = h_type(h, "mkdir");
	assert_int_equal(st->count, 2);
	assert_int_equal(st->errors, 1);
	assert_int_equal(st->errnos[ENOENT], 1);
	assert_int_equal(mk->errors, 1);          /* it succeeded: not what was expected */
	assert_int_equal(h_type(h, "rmdir")->errors, 0);
	assert_int_equal(h->st->nnotes, 2);
	assert_int_equal(h->st->notes[0].line, 3); /* "stat: none" */
	assert_int_equal(h->st->notes[0].got, ENOENT);
	assert_int_equal(h->st->notes[1].got, 0);
	assert_int_equal(h->st->notes[1].expect, EEXIST);
	h_free(h);
}

/* Stop: a client told to stop runs no measured op; abort likewise. Warm-up runs ops
 * (live counters) but records none. */
static void test_stop_abort_warmup(void **state)
{
	const char *yaml = "run:\n  - mkdir: d\n  - rmdir: d\n";
	struct harness *h = h_new(yaml);

	(void)state;
	h->sh.phase = LG_CLOCK_STOP;
	lg_client_main(&h->c);
	assert_int_equal(h_type(h, "mkdir")->count, 0);
	assert_int_equal(h->live.ops, 0);
	h_free(h);

	h = h_new(yaml);
	h->sh.abort = 1;
	lg_client_main(&h->c);
	assert_int_equal(h->live.ops, 0);
	h_free(h);

	h = h_new(yaml);
	h->sh.phase = LG_CLOCK_WARMUP;
	lg_client_main(&h->c);
	assert_int_equal(h->live.ops, 2);
	assert_int_equal(h_type(h, "mkdir")->count, 0);
	assert_false(h->c.recording);
	h_free(h);
}

/* Deadline: a looping client stops by itself once an op ends past the deadline, even
 * though the master never says stop. */
static void test_deadline(void **state)
{
	struct harness *h = h_new("run:\n  - sleep: 5ms\n");
	uint64_t t0 = lg_now_ns(), t1;

	(void)state;
	h->sh.run_once = false;
	h->sh.deadline = t0 + 100 * MS;
	lg_client_main(&h->c);
	t1 = lg_now_ns();
	assert_true(t1 >= t0 + 100 * MS);
	assert_true(t1 < t0 + 2000 * MS); /* one op past it, with room for a loaded host */
	assert_true(h->live.last_end_ns >= t0 + 100 * MS);
	assert_in_range(h_type(h, "sleep")->count, 2, 21);
	h_free(h);
}

/* -R arithmetic: each op's intended start is the previous one's plus its bytes / rate,
 * exactly, so N ops of B bytes end the schedule N * B / rate after the first start and
 * take at least (N - 1) * B / rate. */
static void test_rate_schedule(void **state)
{
	/* 4096 bytes per 2 ms */
	struct harness *h = h_new_rate("setup:\n  - create: {path: f, as: f}\n"
				       "run:\n  - write: {file: f, size: 4KiB, offset: 0, count: 20}\n",
				       4096.0 / (2.0 * MS));
	uint64_t t0 = lg_now_ns(), t1, first;

	(void)state;
	lg_client_main(&h->c);
	t1 = lg_now_ns();
	first = h->c.next_ns - 20 * 2 * MS;
	assert_true(first >= t0 && first <= t1);
	assert_true(t1 - first >= 19 * 2 * MS);
	assert_int_equal(h_type(h, "write")->count, 20);
	h_free(h);
}

/* -R with a stall: a 300 ms sleep, then 10 writes scheduled 10 ms apart. The writes are
 * late by 300, 290, ... 210 ms behind their intended starts, so their latency median is
 * near 250 ms, while each write itself (service time) is quick. */
static void test_rate_stall_latency(void **state)
{
	struct harness *h = h_new_rate("setup:\n  - create: {path: f, as: f}\n"
				       "run:\n  - sleep: 300ms\n"
				       "  - write: {file: f, size: 4KiB, offset: 0, count: 10}\n",
				       4096.0 / (10.0 * MS));
	struct lg_type_stats *w;
	size_t row;
	uint64_t lat50, svc50;

	(void)state;
	lg_client_main(&h->c);
	w = h_type(h, "write");
	row = (size_t)(w - h->st->types);
	assert_int_equal(w->count, 10);
	assert_non_null(h->st->svc);
	lat50 = lg_histogram_percentile(&w->hist, 50);
	svc50 = lg_histogram_percentile(&h->st->svc[row], 50);
	assert_in_range(lat50, 200 * MS, 400 * MS);
	assert_true(svc50 < 100 * MS);
	h_free(h);
}

static void *client_thread(void *arg)
{
	return lg_client_main(arg);
}

/* Wait, as the master does, until the client arrived at the end of gate stage `stage`,
 * then look at its slot `slot`: the descriptor it holds there. */
static int fd_at_gate(struct harness *h, int stage, size_t slot)
{
	struct timespec ms = { 0, 1000000 };

	while (atomic_load_explicit(&h->live.passed, memory_order_acquire) < stage + 1)
		nanosleep(&ms, NULL);
	return h->c.slots[slot].fd;
}

/* Let the client past gate stage `stage`. */
static void open_gate(struct harness *h, int stage)
{
	atomic_store_explicit(&h->sh.gate.stage, stage + 1, memory_order_release);
	lg_futex_wake_all(&h->sh.gate.stage);
}

/* Setup opens a into slot f; the run closes f and opens b into it, which gets the same
 * descriptor number. The run's file is not setup's: it is closed before cleanup, so
 * cleanup's write to f finds the slot closed (skipped, noted with the slot closed at
 * the end of the run) and writes neither to b nor to a. */
static void test_cleanup_setup_slot_reused_fd(void **state)
{
	struct harness *h = h_new("setup:\n"
		"  - create: {path: a, as: f}\n"
		"  - write: {file: f, size: 10, offset: 0}\n"
		"run:\n"
		"  - close: f\n"
		"  - create: {path: b, as: f}\n"
		"cleanup:\n"
		"  - write: {file: f, size: 100, offset: 0}\n");
	struct lg_untimed_stats *u = &h->st->untimed[LG_UNTIMED_CLEANUP];
	int setup_fd, run_fd;
	pthread_t t;

	(void)state;
	assert_int_equal(h->wl->nslots, 1);
	pthread_mutex_init(&h->sh.gate.lock, NULL);
	pthread_cond_init(&h->sh.gate.cond, NULL);
	h->sh.gate.stage = 0;
	assert_int_equal(pthread_create(&t, NULL, client_thread, &h->c), 0);
	setup_fd = fd_at_gate(h, 0, 0);
	assert_true(setup_fd >= 0);
	open_gate(h, 0);
	run_fd = fd_at_gate(h, 1, 0);
	assert_int_equal(run_fd, setup_fd); /* the case at stake: the number was reused */
	open_gate(h, 1);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(u->errors, 0);
	assert_int_equal(u->skipped[LG_SKIP_NOT_OPEN], 1);
	assert_int_equal(u->not_open.line, 8);      /* cleanup's write */
	assert_int_equal(u->not_open.slot_line, 0); /* closed at the end of the run */
	assert_int_equal(u->not_open.event, LG_SLOT_CLOSED);
	assert_int_equal(h_size(h, "a"), 10);
	assert_int_equal(h_size(h, "b"), 0);
	pthread_mutex_destroy(&h->sh.gate.lock);
	pthread_cond_destroy(&h->sh.gate.cond);
	h_free(h);
}

/* A file setup left open and the run did not touch stays open for cleanup. */
static void test_cleanup_keeps_setup_file(void **state)
{
	struct harness *h = h_new("setup:\n"
		"  - create: {path: a, as: f}\n"
		"run:\n"
		"  - stat: a\n"
		"cleanup:\n"
		"  - write: {file: f, size: 100, offset: 0}\n");
	struct lg_untimed_stats *u = &h->st->untimed[LG_UNTIMED_CLEANUP];

	(void)state;
	lg_client_main(&h->c);
	assert_int_equal(u->errors, 0);
	assert_int_equal(u->skipped[LG_SKIP_NOT_OPEN], 0);
	assert_int_equal(h_size(h, "a"), 100);
	assert_int_equal(h->c.slots[0].fd, -1); /* closed after cleanup */
	h_free(h);
}

/* Whether the harness's directory takes O_DIRECT (tmpfs before Linux 6.6 does not). */
static bool takes_direct(struct harness *h)
{
	int fd = openat(h->sh.dirfd, "probe", O_CREAT | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);

	if (fd < 0)
		return false;
	close(fd);
	unlinkat(h->sh.dirfd, "probe", 0);
	return true;
}

/* EINVAL from a write on an O_DIRECT file (an append at the unaligned end a buffered
 * setup write left, which no check before the run can see) is noted with the alignment
 * the run learnt (the workload's direct_align), or as not known. Another failure on the
 * same file (EBADF: a read of a write-only file), and EINVAL from an op other than a
 * read or write on an O_DIRECT file (ftruncate of a read-only one), are noted without
 * it. */
static void test_direct_einval_note(void **state)
{
	static const char *const yaml = "setup:\n"
		"  - create: {path: a, as: f}\n"
		"  - write: {file: f, size: 100, offset: 0}\n"
		"  - close: f\n"
		"run:\n"
		"  - open: {path: a, as: f, flags: [write, direct]}\n"
		"  - write: {file: f, size: 4KiB, offset: append}\n"
		"  - read: {file: f, size: 4KiB, offset: 0}\n"
		"  - close: f\n"
		"  - open: {path: a, as: g, flags: [read, direct]}\n"
		"  - truncate: {file: g, size: 0}\n"
		"  - close: g\n";
	const uint32_t learnt[] = { 4096, 0 }, want[] = { 4096, LG_NOTE_ALIGN_UNKNOWN };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct harness *h = h_new(yaml);
		const struct lg_error_note *n = h->st->notes;
		bool einval = takes_direct(h);

		h->wl->direct_align = learnt[i];
		if (einval) {
			lg_client_main(&h->c);
			/* btrfs does unaligned O_DIRECT writes buffered */
			einval = h_type(h, "write")->errors > 0;
		}
		if (!einval) {
			h_free(h);
			skip();
			return;
		}
		assert_int_equal(h->st->nnotes, 3);
		assert_int_equal(n[0].line, 7);
		assert_int_equal(n[0].got, EINVAL);
		assert_int_equal(n[0].direct_align, want[i]);
		assert_int_equal(n[1].line, 8);
		assert_int_equal(n[1].got, EBADF);
		assert_int_equal(n[1].direct_align, 0);
		assert_int_equal(n[2].line, 11);
		assert_int_equal(n[2].got, EINVAL);
		assert_int_equal(n[2].direct_align, 0);
		assert_int_equal(h_size(h, "a"), 100); /* the append wrote nothing */
		h_free(h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_repeat_when),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_expect),
		cmocka_unit_test(test_stop_abort_warmup),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_rate_schedule),
		cmocka_unit_test(test_rate_stall_latency),
		cmocka_unit_test(test_cleanup_setup_slot_reused_fd),
		cmocka_unit_test(test_cleanup_keeps_setup_file),
		cmocka_unit_test(test_direct_einval_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
