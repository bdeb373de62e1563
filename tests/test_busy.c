/* busy.c and busy_text.c on synthetic samples: a process seen from the phase's start
 * counts its difference, one born in the phase counts everything, one older but first
 * seen late counts from then on; a reused pid (another start time) is another process;
 * this process and its descendants (and with ranks, its siblings of its name) are left
 * out; a reaped child's I/O is not counted again in its parent, and the rest of that
 * parent's I/O goes to the child's name; processes are grouped by name (kernel threads
 * up to '/'); the ranking by CPU and by I/O (storage first, then rchar + wchar); the
 * JSON; the report's line and its silence; and one live sample of this machine. */
#include "loadgen/env/busy.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define SELF 500
#define HZ 100
#define START 10000 /* the phase's start tick */
#define S 1000000000ull

static struct lg_busy_proc P(int pid, int ppid, uint64_t start, const char *comm,
			     uint64_t tics, uint64_t wb)
{
	struct lg_busy_proc p = { .pid = pid, .ppid = ppid, .start_tick = start, .io_ok = true,
				  .tics = tics, .write_bytes = wb, .wchar = wb };

	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	return p;
}

static struct lg_busy *tracker(void)
{
	struct lg_busy *b;

	assert_int_equal(lg_busy_create(SELF, HZ, &b), 0);
	lg_busy_begin(b, START);
	return b;
}

static void feed(struct lg_busy *b, struct lg_busy_proc *v, size_t n, uint64_t t)
{
	assert_int_equal(lg_busy_feed(b, v, n, t), 0);
}

/* The group called comm among the top by CPU or I/O, or fail. */
static struct lg_busy_group group(const struct lg_busy *b, bool io, const char *comm)
{
	struct lg_busy_group top[16];
	size_t n = lg_busy_top(b, io, top, 16);

	for (size_t i = 0; i < n; i++)
		if (strcmp(top[i].comm, comm) == 0)
			return top[i];
	fail_msg("no group %s", comm);
	return top[0];
}

static bool has_group(const struct lg_busy *b, const char *comm)
{
	struct lg_busy_group top[16];
	size_t n = lg_busy_top(b, false, top, 16);

	n += lg_busy_top(b, true, top + n, 16 - n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(top[i].comm, comm) == 0)
			return true;
	return false;
}

static void test_difference_and_born(void **state)
{
	struct lg_busy *b = tracker();
	struct lg_busy_proc s0[] = { P(100, 1, 50, "cc1", 1000, 5000) };
	struct lg_busy_proc s1[] = { P(100, 1, 50, "cc1", 1300, 9000),
				     P(200, 1, START + 10, "dd", 40, 300000000) };
	struct lg_busy_proc s2[] = { P(100, 1, 50, "cc1", 1500, 9000),
				     P(300, 1, START - 5, "old", 700, 0) };
	struct lg_busy_proc s3[] = { P(300, 1, START - 5, "old", 750, 0) };
	struct lg_busy_group g;

	(void)state;
	feed(b, s0, 1, 0);
	feed(b, s1, 2, S);
	feed(b, s2, 2, 2 * S); /* dd gone; old first seen, started before the phase */
	feed(b, s3, 1, 3 * S);
	lg_busy_stop(b);
	g = group(b, false, "cc1");
	assert_int_equal(g.tics, 500);       /* 1500 - 1000: seen at the start */
	assert_int_equal(g.write_bytes, 4000);
	assert_int_equal(g.processes, 1);
	g = group(b, true, "dd");
	assert_int_equal(g.tics, 40);        /* born in the phase: all of it */
	assert_int_equal(g.write_bytes, 300000000);
	assert_int_equal(g.pids[0], 200);
	g = group(b, false, "old");
	assert_int_equal(g.tics, 50);        /* older, missed at first: from its first sample */
	lg_busy_destroy(b);
}

static void test_pid_reuse(void **state)
{
	struct lg_busy *b = tracker();
	struct lg_busy_proc s0[] = { P(100, 1, 50, "make", 100, 0) };
	struct lg_busy_proc s1[] = { P(100, 1, 50, "make", 130, 0) };
	/* pid 100 again, started in the phase: another process */
	struct lg_busy_proc s2[] = { P(100, 1, START + 200, "make", 20, 0) };
	struct lg_busy_group g;

	(void)state;
	feed(b, s0, 1, 0);
	feed(b, s1, 1, S);
	feed(b, s2, 1, 2 * S);
	lg_busy_stop(b);
	g = group(b, false, "make");
	assert_int_equal(g.processes, 2);
	assert_int_equal(g.tics, 30 + 20);
	lg_busy_destroy(b);
}

static void test_excluded(void **state)
{
	struct lg_busy *b = tracker();
	/* us, our client, its child, a kernel thread, another process whose parent is
	 * unknown, pid 1 */
	struct lg_busy_proc s0[] = {
		P(SELF, 40, 60, "loadgen", 0, 0), P(501, SELF, START + 1, "loadgen", 0, 0),
		P(777, 501, START + 2, "sh", 0, 0), P(40, 1, 20, "bash", 0, 0),
		P(1, 0, 1, "init", 0, 0),
	};
	struct lg_busy_proc s1[] = {
		P(SELF, 40, 60, "loadgen", 900, 1 << 30), P(501, SELF, START + 1, "loadgen", 800, 1 << 30),
		P(777, 501, START + 2, "sh", 5, 1000), P(40, 1, 20, "bash", 3, 0),
		P(1, 0, 1, "init", 2, 0), P(9, 2, START + 3, "kworker/u4:2-flush-253:0", 10, 0),
		P(11, 2, START + 3, "kworker/0:1H-kblockd", 15, 0),
	};

	(void)state;
	s1[5].kernel = s1[6].kernel = true;
	feed(b, s0, 5, 0);
	feed(b, s1, 7, S);
	lg_busy_stop(b);
	assert_false(has_group(b, "loadgen"));
	assert_false(has_group(b, "sh"));     /* a grandchild of ours */
	assert_int_equal(group(b, false, "bash").tics, 3); /* our parent is not ours */
	assert_int_equal(group(b, false, "init").tics, 2);
	assert_int_equal(group(b, false, "kworker").tics, 25);
	assert_int_equal(group(b, false, "kworker").processes, 2);
	assert_true(group(b, false, "kworker").kernel);
	lg_busy_destroy(b);

	/* ranks: our siblings of our name (children of the launcher's daemon, 40 here)
	 * and their children are left out, not those of another name */
	b = tracker();
	lg_busy_exclude_siblings(b);
	struct lg_busy_proc r[] = {
		P(SELF, 40, 60, "loadgen", 900, 0), P(40, 1, 20, "prted", 3, 0),
		P(600, 40, START + 1, "loadgen", 700, 0), P(601, 600, START + 1, "loadgen", 800, 0),
		P(602, 40, START + 1, "other", 9, 0),
	};
	feed(b, r, 5, 0);
	for (size_t i = 0; i < 5; i++)
		r[i].tics += 100;
	feed(b, r, 5, S);
	lg_busy_stop(b);
	assert_false(has_group(b, "loadgen"));
	assert_true(has_group(b, "prted"));
	assert_true(has_group(b, "other"));
	lg_busy_destroy(b);
}

static void test_reaped_child(void **state)
{
	struct lg_busy *b = tracker();
	/* a shell loop running dd: the first dd seen once, then reaped (its bytes now in
	 * the shell's counters, with 50 MB it wrote after its last sample) */
	struct lg_busy_proc s0[] = { P(40, 1, 20, "bash", 10, 1000) };
	struct lg_busy_proc s1[] = { P(40, 1, 20, "bash", 10, 1000),
				     P(41, 40, START + 5, "dd", 30, 200000000) };
	struct lg_busy_proc s2[] = { P(40, 1, 20, "bash", 11, 1000 + 250000000),
				     P(42, 40, START + 90, "dd", 20, 100000000) };
	struct lg_busy_group g;

	(void)state;
	feed(b, s0, 1, 0);
	feed(b, s1, 2, S);
	feed(b, s2, 2, 2 * S);
	lg_busy_stop(b);
	g = group(b, true, "dd");
	assert_int_equal(g.processes, 2);   /* those seen */
	assert_int_equal(g.write_bytes, 350000000); /* with the tail, found in bash's */
	assert_int_equal(g.via_parent, 50000000);
	g = group(b, false, "bash");
	assert_int_equal(g.tics, 1);        /* its own CPU time */
	assert_int_equal(g.write_bytes, 0);
	lg_busy_destroy(b);
}

static void test_ranking_and_json(void **state)
{
	struct lg_busy *b = tracker();
	struct lg_busy_proc s0[8];
	struct lg_busy_group top[LG_BUSY_TOP];
	json_t *j;
	size_t n = 0;

	(void)state;
	/* six groups, by CPU: a > b > ... ; by I/O: storage first, then tmpfs-only */
	s0[n++] = P(10, 1, START + 1, "a", 600, 0);
	s0[n++] = P(11, 1, START + 1, "b", 500, 10);
	s0[n++] = P(12, 1, START + 1, "c", 400, 0);
	s0[n++] = P(13, 1, START + 1, "d", 300, 0);
	s0[n++] = P(14, 1, START + 1, "e", 200, 0);
	s0[n++] = P(15, 1, START + 1, "f", 100, 5);
	s0[n] = P(16, 1, START + 1, "tmpfs", 0, 0);
	s0[n++].wchar = 1000000000; /* written to tmpfs: no storage bytes */
	s0[n] = P(17, 1, START + 1, "idle", 0, 0);
	s0[n++].io_ok = false;
	feed(b, s0, n, 0);
	feed(b, s0, n, 2 * S);
	lg_busy_stop(b);
	assert_int_equal(lg_busy_top(b, false, top, LG_BUSY_TOP), 5);
	assert_string_equal(top[0].comm, "a");
	assert_string_equal(top[4].comm, "e");
	assert_int_equal(lg_busy_top(b, true, top, LG_BUSY_TOP), 3);
	assert_string_equal(top[0].comm, "b");
	assert_string_equal(top[1].comm, "f");
	assert_string_equal(top[2].comm, "tmpfs");
	{
		char what[128];

		lg_busy_describe(&top[2], HZ, 2, true, what, sizeof(what));
		assert_string_equal(what, "tmpfs (pid 16) wrote 1.0 GB (no storage I/O)");
	}
	j = lg_busy_json(b);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "samples")), 2);
	assert_true(json_number_value(json_object_get(j, "seconds")) == 2.0);
	assert_int_equal(json_array_size(json_object_get(j, "by_cpu")), 5);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(j, "by_io"), 0), "comm")), "b");
	assert_true(json_number_value(json_object_get(
		json_array_get(json_object_get(j, "by_cpu"), 0), "cpu_s")) == 6.0);
	/* "idle" did nothing: not counted, so its unreadable io does not matter */
	assert_string_equal(json_string_value(json_object_get(j, "io_readable")), "all");
	json_decref(j);
	lg_busy_destroy(b);
}

/* What lg_busy_print writes for the busy object j. */
static char *printed(const json_t *j)
{
	static char buf[1024];
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	lg_busy_print(f, j);
	fclose(f);
	return buf;
}

static void test_print(void **state)
{
	struct lg_busy *b = tracker();
	struct lg_busy_proc s0[] = { P(40, 1, 20, "cron", 0, 0) };
	struct lg_busy_proc s1[] = { P(40, 1, 20, "cron", 3, 4096),
				     P(41, 1, START + 5, "dd", 10, 1200000000),
				     P(42, 1, START + 6, "dd", 20, 1500000000),
				     P(43, 1, START + 7, "cc1", 3400, 0) };
	json_t *j;

	(void)state;
	s1[3].io_ok = false;
	feed(b, s0, 1, 0);
	feed(b, s1, 4, 10 * S);
	lg_busy_stop(b);
	j = lg_busy_json(b);
	assert_string_equal(json_string_value(json_object_get(j, "io_readable")), "partial");
	{
		char line[256];

		assert_int_equal(lg_busy_summary(j, line, sizeof(line)), 2);
		assert_string_equal(line, "dd (2 processes) wrote 2.7 GB; cc1 (pid 43) used 34 CPU-s");
	}
	assert_string_equal(printed(j), "  Busy beside the run: dd (2 processes) wrote 2.7 GB; "
			    "cc1 (pid 43) used 34 CPU-s (the I/O of other users' processes could "
			    "not be read)\n");
	json_decref(j);
	lg_busy_destroy(b);

	/* quiet: cron's 30 ms and 4 kB are below the floors */
	b = tracker();
	feed(b, s0, 1, 0);
	feed(b, s1, 1, 10 * S);
	lg_busy_stop(b);
	j = lg_busy_json(b);
	assert_string_equal(printed(j), "");
	{
		char line[8] = "x";

		assert_int_equal(lg_busy_summary(j, line, sizeof(line)), 0);
		assert_string_equal(line, "");
	}
	json_decref(j);
	lg_busy_destroy(b);
}

/* One live sample of this machine: it finds processes, and never this one. */
static void test_live(void **state)
{
	struct lg_busy *b;
	json_t *j;

	(void)state;
	assert_int_equal(lg_busy_create((int)getpid(), sysconf(_SC_CLK_TCK), &b), 0);
	lg_busy_sample(b, true);
	for (volatile unsigned long i = 0; i < 50000000ul; i++)
		;
	lg_busy_sample(b, true);
	lg_busy_stop(b);
	j = lg_busy_json(b);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "samples")), 2);
	assert_null(json_object_get(j, "note"));
	for (size_t i = 0; i < json_array_size(json_object_get(j, "by_cpu")); i++) {
		json_t *g = json_array_get(json_object_get(j, "by_cpu"), i);

		assert_string_not_equal(json_string_value(json_object_get(g, "comm")), "test_busy");
	}
	json_decref(j);
	lg_busy_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_difference_and_born),
		cmocka_unit_test(test_pid_reuse),
		cmocka_unit_test(test_excluded),
		cmocka_unit_test(test_reaped_child),
		cmocka_unit_test(test_ranking_and_json),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
