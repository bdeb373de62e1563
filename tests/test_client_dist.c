/* Clients as distributions: adding clients, merging two sets as two ranks would, the
 * fairness they give against the fairness of the same clients as rows. */
#include "loadgen/counters/client_dist.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct lg_client_stats *client(unsigned id, uint64_t bytes)
{
	struct lg_client_stats *cs;

	assert_int_equal(lg_client_stats_create(id, 1, &cs), 0);
	cs->types[0].count = bytes / 1000;
	cs->types[0].bytes_written = bytes;
	for (uint64_t k = 0; k < cs->types[0].count; k++)
		lg_histogram_record(&cs->types[0].hist, 1000 + id * 100);
	lg_client_row_fill(cs);
	return cs;
}

/* Ten clients split 3 + 7 and merged equal the ten added to one distribution; fairness
 * equals lg_run_fairness over the same clients' rows (min, max, Jain exactly; the
 * median is a client's value within the histogram's 0.8 %, the lower middle one for an
 * even count where the rows average the two). */
static void test_merge_and_fairness(void **state)
{
	static const uint64_t mb[10] = { 5, 1, 4, 4, 9, 2, 6, 5, 3, 5 };
	struct lg_client_stats *cs[10];
	struct lg_client_dist *all = malloc(sizeof(*all)), *x = malloc(sizeof(*x)),
			      *y = malloc(sizeof(*y));
	struct lg_run run = { .duration_s = 2, .nclients = 10, .clients = cs, .ntypes = 1 };
	struct lg_fairness rows, dist;

	(void)state;
	assert_non_null(all);
	assert_non_null(x);
	assert_non_null(y);
	lg_client_dist_init(all);
	lg_client_dist_init(x);
	lg_client_dist_init(y);
	for (unsigned i = 0; i < 10; i++) {
		cs[i] = client(i, mb[i] * 1000000);
		lg_client_dist_add(all, cs[i]);
		lg_client_dist_add(i < 3 ? x : y, cs[i]);
		run.bytes_written += mb[i] * 1000000;
	}
	lg_client_dist_merge(y, x); /* order must not matter */
	assert_int_equal(y->clients, 10);
	assert_memory_equal(&y->bytes.hist, &all->bytes.hist, sizeof(all->bytes.hist));
	assert_true(fabs(y->bytes.sumsq - all->bytes.sumsq) < 1e-3);
	assert_int_equal(y->bytes.min_client, 1);
	assert_int_equal(y->bytes.max_client, 4);
	assert_int_equal(y->p99.max_client, 9);   /* slowest latency: client 9 */
	/* ties go to the lower id: clients 0, 7 and 9 all moved 5 MB, 2 and 3 moved 4 */
	assert_int_equal(all->ops.hist.count, 10);
	assert_int_equal(lg_run_fairness(&run, &rows), 0);
	lg_client_dist_fairness(y, run.duration_s, true, &dist);
	assert_string_equal(dist.metric, rows.metric);
	assert_true(fabs(dist.min - rows.min) < 1e-9);
	assert_true(fabs(dist.max - rows.max) < 1e-9);
	assert_true(fabs(dist.jain - rows.jain) < 1e-9);
	/* the histogram's p50 is a client's value, the lower of the two middle ones here
	 * (4 and 5 MB over 2 s), within its 0.8 % */
	assert_true(fabs(dist.median - 2.0) <= 0.008 * 2.0);
	run.dist = y; /* a run that has no rows: its fairness is the distribution's */
	run.clients = NULL;
	assert_int_equal(lg_run_fairness(&run, &rows), 0);
	assert_true(fabs(rows.jain - dist.jain) < 1e-12);
	for (unsigned i = 0; i < 10; i++)
		lg_client_stats_destroy(cs[i]);
	free(all);
	free(x);
	free(y);
}

/* Equal values from two sets: the lower client id is named, whichever set came first. */
static void test_ties(void **state)
{
	struct lg_client_stats *a = client(8, 3000000), *b = client(2, 3000000);
	struct lg_client_dist *x = malloc(sizeof(*x)), *y = malloc(sizeof(*y));

	(void)state;
	assert_non_null(x);
	assert_non_null(y);
	lg_client_dist_init(x);
	lg_client_dist_init(y);
	lg_client_dist_add(x, a);
	lg_client_dist_add(y, b);
	lg_client_dist_merge(x, y);
	assert_int_equal(x->bytes.min_client, 2);
	assert_int_equal(x->bytes.max_client, 2);
	lg_client_dist_init(x);
	lg_client_dist_init(y);
	lg_client_dist_add(x, a);
	lg_client_dist_add(y, b);
	lg_client_dist_merge(y, x);
	assert_int_equal(y->bytes.min_client, 2);
	lg_client_stats_destroy(a);
	lg_client_stats_destroy(b);
	free(x);
	free(y);
}

/* The JSON: per-client MB/s over the measured time, the clients named. */
static void test_json(void **state)
{
	struct lg_client_stats *a = client(0, 2000000), *b = client(1, 6000000);
	struct lg_client_dist *d = malloc(sizeof(*d));
	json_t *j, *t;

	(void)state;
	assert_non_null(d);
	lg_client_dist_init(d);
	lg_client_dist_add(d, a);
	lg_client_dist_add(d, b);
	j = lg_client_dist_json(d, 2.0);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "clients")), 2);
	t = json_object_get(j, "throughput_mbps");
	assert_true(fabs(json_real_value(json_object_get(t, "min")) - 1.0) < 1e-9);
	assert_true(fabs(json_real_value(json_object_get(t, "max")) - 3.0) < 1e-9);
	assert_true(fabs(json_real_value(json_object_get(t, "mean")) - 2.0) < 1e-9);
	assert_int_equal(json_integer_value(json_object_get(t, "max_client")), 1);
	json_decref(j);
	lg_client_stats_destroy(a);
	lg_client_stats_destroy(b);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_and_fairness),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
