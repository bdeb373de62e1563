/* Stats: client create/reset/sum, run merge, timeline, fairness, clear. */
#include "loadgen/counters/counters.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Record one op as a client would. */
static void op(struct lg_client_stats *cs, size_t type, uint64_t ns, uint64_t rd,
	       uint64_t wr, int err)
{
	struct lg_type_stats *t = &cs->types[type];

	t->count++;
	t->bytes_read += rd;
	t->bytes_written += wr;
	lg_histogram_record(&t->hist, ns);
	if (err >= 0) {
		t->errors++;
		t->errnos[err]++;
	}
}

static void test_create_reset_destroy(void **state)
{
	struct lg_client_stats *cs = NULL;

	(void)state;
	assert_int_equal(lg_client_stats_create(3, 2, &cs), 0);
	assert_non_null(cs);
	assert_int_equal(cs->id, 3);
	assert_int_equal(cs->ntypes, 2);
	assert_int_equal(cs->nnotes, 0);
	assert_int_equal(cs->types[1].hist.min_ns, UINT64_MAX); /* initialised, not zero */
	op(cs, 0, 1000, 10, 0, -1);
	op(cs, 1, 2000, 0, 20, ENOENT);
	cs->notes[0] = (struct lg_error_note){ .line = 7, .type = 1, .got = ENOENT };
	cs->nnotes = 1;
	lg_client_stats_reset(cs);
	assert_int_equal(cs->id, 3);
	assert_int_equal(cs->ntypes, 2);
	assert_int_equal(cs->nnotes, 0);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(cs->types[i].count, 0);
		assert_int_equal(cs->types[i].errors, 0);
		assert_int_equal(cs->types[i].bytes_read + cs->types[i].bytes_written, 0);
		assert_int_equal(cs->types[i].errnos[ENOENT], 0);
		assert_int_equal(cs->types[i].hist.count, 0);
		assert_int_equal(cs->types[i].hist.min_ns, UINT64_MAX);
	}
	lg_client_stats_destroy(cs);
	lg_client_stats_destroy(NULL);
}

static void test_zero_types(void **state)
{
	struct lg_client_stats *cs = NULL;
	struct lg_histogram h;
	uint64_t ops = 9, bytes = 9;

	(void)state;
	assert_int_equal(lg_client_stats_create(0, 0, &cs), 0);
	lg_client_stats_sum(cs, &h, &ops, &bytes);
	assert_int_equal(ops, 0);
	assert_int_equal(bytes, 0);
	assert_int_equal(h.count, 0);
	lg_client_stats_destroy(cs);
	assert_int_equal(lg_client_stats_create(0, SIZE_MAX / 2, &cs), -ENOMEM);
}

static void test_client_sum(void **state)
{
	struct lg_client_stats *cs = NULL;
	struct lg_histogram h;
	uint64_t ops, bytes;

	(void)state;
	assert_int_equal(lg_client_stats_create(0, 3, &cs), 0);
	op(cs, 0, 100, 4096, 0, -1);
	op(cs, 0, 300, 4096, 0, -1);
	op(cs, 2, 5000000, 0, 1000, -1);
	memset(&h, 0xff, sizeof(h)); /* sum must initialise it */
	lg_client_stats_sum(cs, &h, &ops, &bytes);
	assert_int_equal(ops, 3);
	assert_int_equal(bytes, 4096 * 2 + 1000);
	assert_int_equal(h.count, 3);
	assert_int_equal(h.min_ns, 100);
	assert_int_equal(h.max_ns, 5000000);
	assert_int_equal(h.sum_ns, 5000400);
	lg_client_stats_sum(cs, &h, NULL, NULL); /* outs are optional */
	lg_client_stats_destroy(cs);
}

static const char *const names[] = { "read", "write" };

static void make_run(struct lg_run *run)
{
	memset(run, 0, sizeof(*run));
	run->nclients = 2;
	run->ntypes = 2;
	run->type_names = names;
	run->duration_s = 2.0;
	run->clients = calloc(2, sizeof(*run->clients));
	assert_non_null(run->clients);
	assert_int_equal(lg_client_stats_create(0, 2, &run->clients[0]), 0);
	assert_int_equal(lg_client_stats_create(1, 2, &run->clients[1]), 0);
	op(run->clients[0], 0, 1000, 100, 0, -1);
	op(run->clients[0], 0, 3000, 100, 0, ENOENT);
	op(run->clients[0], 1, 7000, 0, 50, -1);
	op(run->clients[1], 0, 2000, 100, 0, ENOENT);
	op(run->clients[1], 1, 9000, 0, 50, 0);
	op(run->clients[1], 1, 500, 0, 50, EIO);
}

static void test_run_merge(void **state)
{
	struct lg_run run;

	(void)state;
	make_run(&run);
	for (int pass = 0; pass < 2; pass++) { /* merging twice gives the same result */
		assert_int_equal(lg_run_merge(&run), 0);
		assert_non_null(run.totals);
		assert_int_equal(run.totals[0].count, 3);
		assert_int_equal(run.totals[0].errors, 2);
		assert_int_equal(run.totals[0].errnos[ENOENT], 2);
		assert_int_equal(run.totals[0].bytes_read, 300);
		assert_int_equal(run.totals[0].hist.count, 3);
		assert_int_equal(run.totals[0].hist.min_ns, 1000);
		assert_int_equal(run.totals[0].hist.max_ns, 3000);
		assert_int_equal(run.totals[1].count, 3);
		assert_int_equal(run.totals[1].errors, 2);
		assert_int_equal(run.totals[1].errnos[0], 1);
		assert_int_equal(run.totals[1].errnos[EIO], 1);
		assert_int_equal(run.totals[1].bytes_written, 150);
		assert_int_equal(run.ops, 6);
		assert_int_equal(run.errors, 4);
		assert_int_equal(run.bytes_read, 300);
		assert_int_equal(run.bytes_written, 150);
		assert_int_equal(run.all.count, 6);
		assert_int_equal(run.all.min_ns, 500);
		assert_int_equal(run.all.max_ns, 9000);
		assert_int_equal(run.all.sum_ns, 22500);
	}
	lg_run_clear(&run);
	assert_null(run.clients);
	assert_null(run.totals);
	lg_run_clear(&run); /* twice is fine */
	lg_run_clear(NULL);
}

/* Skipped steps and failures outside the measured phase: merged apart from ops; reset
 * (warm-up's end) clears the measured skips but never the untimed failures. */
static void test_skips_and_untimed(void **state)
{
	struct lg_run run;

	(void)state;
	make_run(&run);
	run.clients[0]->types[0].skipped[LG_SKIP_PREV] = 2;
	run.clients[1]->types[1].skipped[LG_SKIP_NOT_OPEN] = 5;
	run.clients[1]->untimed[LG_UNTIMED_CLEANUP].errors = 3;
	run.clients[0]->untimed[LG_UNTIMED_SETUP].skipped[LG_SKIP_NOT_OPEN] = 1;
	assert_int_equal(lg_run_merge(&run), 0);
	assert_int_equal(run.ops, 6); /* skips are not ops */
	assert_int_equal(run.skipped[LG_SKIP_PREV], 2);
	assert_int_equal(run.skipped[LG_SKIP_NOT_OPEN], 5);
	assert_int_equal(run.totals[1].skipped[LG_SKIP_NOT_OPEN], 5);
	assert_int_equal(run.untimed_errors[LG_UNTIMED_CLEANUP], 3);
	assert_int_equal(run.untimed_skipped[LG_UNTIMED_SETUP][LG_SKIP_NOT_OPEN], 1);
	assert_true(lg_run_has_failures(&run));
	lg_client_stats_reset(run.clients[1]);
	assert_int_equal(run.clients[1]->types[1].skipped[LG_SKIP_NOT_OPEN], 0);
	assert_int_equal(run.clients[1]->untimed[LG_UNTIMED_CLEANUP].errors, 3);
	run.clients[1]->untimed[LG_UNTIMED_CLEANUP].errors = 0;
	run.clients[0]->untimed[LG_UNTIMED_SETUP].skipped[LG_SKIP_NOT_OPEN] = 0;
	assert_int_equal(lg_run_merge(&run), 0);
	assert_false(lg_run_has_failures(&run)); /* prev skips are not failures */
	run.status = LG_RUN_FAILED;
	assert_true(lg_run_has_failures(&run));
	assert_string_equal(lg_skip_reason_name(LG_SKIP_NOT_OPEN), "not_open");
	assert_string_equal(lg_untimed_name(LG_UNTIMED_WARMUP), "warmup");
	assert_string_equal(lg_slot_event_name(LG_SLOT_OPEN_FAILED), "open failed");
	assert_string_equal(lg_errno_name(LG_ERR_SLOT_OPEN), "ESLOTOPEN");
	lg_run_clear(&run);
}

static void test_run_merge_empty(void **state)
{
	struct lg_run run;

	(void)state;
	memset(&run, 0, sizeof(run));
	assert_int_equal(lg_run_merge(&run), 0);
	assert_int_equal(run.ops, 0);
	assert_int_equal(run.all.count, 0);
	assert_int_equal(run.all.min_ns, UINT64_MAX);
	lg_run_clear(&run);
}

static void test_timeline(void **state)
{
	struct lg_run run;

	(void)state;
	memset(&run, 0, sizeof(run));
	for (int i = 0; i < 1000; i++) {
		struct lg_interval iv = { .t_s = i + 1, .ops = (uint64_t)i, .bytes = 10,
					  .mbps = 1e-5, .max_latency_ns = 5 };

		assert_int_equal(lg_run_add_interval(&run, &iv), 0);
	}
	assert_int_equal(run.ntimeline, 1000);
	assert_true(run.cap_timeline >= 1000);
	assert_int_equal(run.timeline[999].ops, 999);
	assert_true(run.timeline[0].t_s == 1.0);
	lg_run_clear(&run);
	assert_int_equal(run.ntimeline, 0);
	assert_null(run.timeline);
}

/* Fairness over clients that differ, with an even count: the median is the mean of the two
 * middle values, not the upper one (identical clients hide that). */
static void test_fairness_unequal(void **state)
{
	static const uint64_t mb[4] = { 10, 1, 3, 2 }; /* MB each client wrote, not sorted */
	static const uint64_t nops[3] = { 4, 1, 7 };   /* ops of three clients, no bytes */
	struct lg_fairness f;
	struct lg_run run;

	(void)state;
	memset(&run, 0, sizeof(run));
	run.nclients = 4;
	run.ntypes = 1;
	run.type_names = names;
	run.duration_s = 2.0;
	run.clients = calloc(4, sizeof(*run.clients));
	assert_non_null(run.clients);
	for (unsigned c = 0; c < 4; c++) {
		assert_int_equal(lg_client_stats_create(c, 1, &run.clients[c]), 0);
		op(run.clients[c], 0, 1000, 0, mb[c] * 2000000, -1); /* mb[c] MB/s over 2 s */
	}
	assert_int_equal(lg_run_merge(&run), 0);
	assert_int_equal(lg_run_fairness(&run, &f), 0);
	assert_string_equal(f.metric, "throughput_mbps");
	assert_float_equal(f.min, 1.0, 1e-9);
	assert_float_equal(f.max, 10.0, 1e-9);
	assert_float_equal(f.median, 2.5, 1e-9); /* (2 + 3) / 2, not 3 */
	assert_float_equal(f.jain, 16.0 * 16.0 / (4 * 114.0), 1e-9);

	run.nclients = 2; /* the two middle ones of two: 10 and 1 MB/s */
	assert_int_equal(lg_run_fairness(&run, &f), 0);
	assert_float_equal(f.median, 5.5, 1e-9);
	run.nclients = 4;
	lg_run_clear(&run);

	memset(&run, 0, sizeof(run)); /* odd count, ops only: the middle value */
	run.nclients = 3;
	run.ntypes = 1;
	run.type_names = names;
	run.duration_s = 1.0;
	run.clients = calloc(3, sizeof(*run.clients));
	assert_non_null(run.clients);
	for (unsigned c = 0; c < 3; c++) {
		assert_int_equal(lg_client_stats_create(c, 1, &run.clients[c]), 0);
		for (uint64_t i = 0; i < nops[c]; i++)
			op(run.clients[c], 0, 1000, 0, 0, -1);
	}
	assert_int_equal(lg_run_merge(&run), 0);
	assert_int_equal(lg_run_fairness(&run, &f), 0);
	assert_string_equal(f.metric, "ops_per_s");
	assert_float_equal(f.median, 4.0, 1e-9);
	assert_float_equal(f.min, 1.0, 1e-9);
	assert_float_equal(f.max, 7.0, 1e-9);
	lg_run_clear(&run);
}

/* The reduction's merge: twelve clients added into one block, in two halves as two
 * ranks would and then the halves into one, give lg_run_merge's totals bucket for
 * bucket, and a run whose totals come from that block (run->agg) equals the run merged
 * from its clients. Phase rows: first start, last end, sums, clients counted. */
static void test_reduce_equals_merge(void **state)
{
	struct lg_client_stats *cs[12], *half[2], *agg;
	struct lg_run a = { 0 }, b = { 0 };
	const char *labels[] = { "read", "write", "stat" };

	(void)state;
	for (unsigned i = 0; i < 12; i++) {
		assert_int_equal(lg_client_stats_create(i, 3, &cs[i]), 0);
		for (unsigned k = 0; k < 50 + i * 7; k++)
			op(cs[i], k % 3, 1000 + (uint64_t)k * 977 * (i + 1), k % 3 == 0 ? 4096 : 0,
			   k % 3 == 1 ? 8192 : 0, k % 17 == 0 ? ENOENT : -1);
		cs[i]->nbphases = 2;
		cs[i]->bphase[1] = (struct lg_bphase_stats){ .start_ns = 1000 + i,
			.end_ns = 5000 - i * 3, .ops = i, .items = 2 * i, .bytes = 10 };
		cs[i]->slowest = (struct lg_slow_op){ .lat_ns = 100 + (i == 7 ? 900 : i) };
		cs[i]->slow_count = 1;
		lg_client_stats_finish(cs[i]);
	}
	for (unsigned h = 0; h < 2; h++) {
		assert_int_equal(lg_client_stats_create(h * 6, 3, &half[h]), 0);
		for (unsigned i = h * 6; i < h * 6 + 6; i++)
			lg_client_stats_add(half[h], cs[i]);
	}
	assert_int_equal(lg_client_stats_create(0, 3, &agg), 0);
	lg_client_stats_add(agg, half[0]);
	lg_client_stats_add(agg, half[1]);
	a = (struct lg_run){ .nclients = 12, .clients = cs, .ntypes = 3, .type_names = labels,
			     .duration_s = 1 };
	assert_int_equal(lg_run_merge(&a), 0);
	for (size_t t = 0; t < 3; t++) {
		assert_memory_equal(agg->types[t].hist.buckets, a.totals[t].hist.buckets,
				    sizeof(a.totals[t].hist.buckets));
		assert_int_equal(agg->types[t].count, a.totals[t].count);
		assert_int_equal(agg->types[t].errnos[ENOENT], a.totals[t].errnos[ENOENT]);
		assert_int_equal(agg->types[t].bytes_read + agg->types[t].bytes_written,
				 a.totals[t].bytes_read + a.totals[t].bytes_written);
	}
	assert_int_equal(agg->bphase[1].start_ns, 1000);
	assert_int_equal(agg->bphase[1].end_ns, 5000);
	assert_int_equal(agg->bphase[1].items, 132);
	assert_int_equal(agg->bphase[1].clients, 12);
	assert_int_equal(agg->slowest.client, 7);
	/* a run with rows only (ntypes 0) and the block: the same figures */
	b = (struct lg_run){ .nclients = 12, .clients = calloc(12, sizeof(*b.clients)),
			     .ntypes = 3, .type_names = labels, .duration_s = 1, .agg = agg };
	assert_non_null(b.clients);
	assert_int_equal(lg_run_merge(&b), 0);
	assert_int_equal(b.ops, a.ops);
	assert_int_equal(b.errors, a.errors);
	assert_int_equal(b.bytes_read, a.bytes_read);
	assert_memory_equal(b.all.buckets, a.all.buckets, sizeof(a.all.buckets));
	{
		struct lg_stalls sa, sb;

		lg_run_stalls(&a, &sa);
		lg_run_stalls(&b, &sb);
		assert_int_equal(sb.slow_ops, 12);
		assert_int_equal(sb.slowest_client, 7);
		assert_int_equal(sa.slowest_client, 7);
	}
	for (unsigned i = 0; i < 12; i++)
		lg_client_stats_destroy(cs[i]);
	lg_client_stats_destroy(half[0]);
	lg_client_stats_destroy(half[1]);
	free(a.totals);
	free(a.svc_totals);
	b.clients = (free(b.clients), NULL);
	b.nclients = 0;
	lg_run_clear(&b); /* frees agg */
}

/* A client's row: its figures over every op type, from its own buckets. */
static void test_client_row(void **state)
{
	struct lg_client_stats *cs;

	(void)state;
	assert_int_equal(lg_client_stats_create(5, 2, &cs), 0);
	for (unsigned k = 1; k <= 100; k++)
		op(cs, k % 2, k * 1000, 10, 0, k == 50 ? EIO : -1);
	cs->types[1].skipped[LG_SKIP_NOT_OPEN] = 3;
	lg_client_row_fill(cs);
	assert_int_equal(cs->row.set, 1);
	assert_int_equal(cs->row.ops, 100);
	assert_int_equal(cs->row.bytes, 1000);
	assert_int_equal(cs->row.errors, 1);
	assert_int_equal(cs->row.skipped, 3);
	assert_int_equal(cs->row.min_ns, 1000);
	assert_int_equal(cs->row.max_ns, 100000);
	assert_true(cs->row.p50_ns >= 49000 && cs->row.p50_ns <= 51000);
	lg_client_stats_destroy(cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_reset_destroy),
		cmocka_unit_test(test_zero_types),
		cmocka_unit_test(test_client_sum),
		cmocka_unit_test(test_run_merge),
		cmocka_unit_test(test_reduce_equals_merge),
		cmocka_unit_test(test_client_row),
		cmocka_unit_test(test_skips_and_untimed),
		cmocka_unit_test(test_run_merge_empty),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_fairness_unequal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
