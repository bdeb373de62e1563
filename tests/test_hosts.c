/* Unit tests of the per-host view of a multi-host result: sums per host (merged
 * histograms), the table with its fairness and environment warning, and the JSON keys. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/run/coord.h"
#include "loadgen/output/hosts.h"

/* 2 ranks x 2 clients: rank 0 on host a, rank 1 on host b. Client i did (i+1) * 10
 * writes of 1000 bytes, each taking (i+1) microseconds, its last op ending at i s. */
static void make_run(struct lg_run *run, const char *kernel_b)
{
	struct lg_multi *m = calloc(1, sizeof(*m));

	memset(run, 0, sizeof(*run));
	run->nclients = 4;
	run->ntypes = 1;
	run->duration_s = 2.0;
	run->clients = calloc(4, sizeof(*run->clients));
	assert_non_null(run->clients);
	for (unsigned i = 0; i < 4; i++) {
		struct lg_client_stats *cs;

		assert_int_equal(lg_client_stats_create(i, 1, &cs), 0);
		cs->types[0].count = (i + 1) * 10;
		cs->types[0].bytes_written = (i + 1) * 10 * 1000;
		for (unsigned k = 0; k < (i + 1) * 10; k++)
			lg_histogram_record(&cs->types[0].hist, (i + 1) * 1000);
		cs->done_s = i;
		run->clients[i] = cs;
	}
	assert_int_equal(lg_run_merge(run), 0);
	assert_non_null(m);
	m->nranks = 2;
	m->per_rank = 2;
	m->nhosts = 2;
	m->ranks = calloc(2, sizeof(*m->ranks));
	m->hosts = calloc(2, sizeof(*m->hosts));
	assert_non_null(m->ranks);
	assert_non_null(m->hosts);
	strcpy(m->ranks[0].host, "a");
	strcpy(m->ranks[1].host, "b");
	m->ranks[0].shared = true;
	m->ranks[1].host_index = 1;
	strcpy(m->hosts[0].name, "a");
	strcpy(m->hosts[1].name, "b");
	m->hosts[0].ranks = m->hosts[1].ranks = 1;
	m->hosts[0].shared = true;
	m->hosts[0].env = json_pack("{s:s, s:s}", "kernel", "6.1", "fs_type", "nfs");
	m->hosts[1].env = json_pack("{s:s, s:s}", "kernel", kernel_b, "fs_type", "nfs");
	m->hosts[1].mon = json_pack("{s:{s:f, s:{s:i}}, s:{s:i}}", "sys_summary", "seconds", 2.0,
				    "counters", "psi.io.full_us", 820000, "kernel_messages",
				    "count", 0);
	m->start_skew_ms = 0.25;
	run->multi = m;
}

static void test_sums(void **state)
{
	struct lg_host_sum *s;
	struct lg_run run;

	(void)state;
	make_run(&run, "6.1");
	assert_int_equal(lg_host_sums(&run, &s), 0);
	assert_int_equal(s[0].clients, 2);
	assert_int_equal(s[1].clients, 2);
	assert_int_equal(s[0].ops, 10 + 20);
	assert_int_equal(s[1].ops, 30 + 40);
	assert_int_equal(s[0].bytes, 30000);
	assert_int_equal(s[1].bytes, 70000);
	assert_true(s[1].mbps == 70000 / 2.0 / 1e6);
	assert_true(s[0].ops_s == 15.0);
	/* merged buckets: host b's ops took 3 and 4 us, 30 and 40 of them */
	assert_int_equal(s[1].lat.ops, 70);
	assert_int_equal(s[1].lat.min_ns, 3000);
	assert_int_equal(s[1].lat.max_ns, 4000);
	assert_true(s[1].lat.p99_ns >= 3960);
	assert_true(s[0].first_done_s == 0 && s[0].last_done_s == 1);
	assert_true(s[1].first_done_s == 2 && s[1].last_done_s == 3);
	free(s);
	lg_run_clear(&run);
	/* one host: no per-host view */
	memset(&run, 0, sizeof(run));
	assert_int_equal(lg_host_sums(&run, &s), -ENOENT);
}

static char *report(const struct lg_run *run, bool once)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lg_report_hosts(f, run, once);
	fclose(f);
	return buf;
}

static void test_table(void **state)
{
	struct lg_run run;
	char *out;

	(void)state;
	make_run(&run, "6.1");
	out = report(&run, false);
	assert_non_null(strstr(out, "Hosts: 2  ranks: 2  clients per rank: 2"));
	assert_non_null(strstr(out, " a "));
	assert_non_null(strstr(out, " b "));
	assert_non_null(strstr(out, "shared"));
	assert_non_null(strstr(out, "own"));
	assert_non_null(strstr(out, "Jain's index 0.862")); /* per client: 0.0075, 0.0175 MB/s */
	assert_null(strstr(out, "Warning"));
	assert_null(strstr(out, "first done"));
	free(out);
	lg_run_clear(&run);

	make_run(&run, "6.2");
	out = report(&run, true);
	assert_non_null(strstr(out, "Warning: hosts differ in kernel: a: 6.1; b: 6.2"));
	assert_null(strstr(out, "differ in fs_type"));
	assert_non_null(strstr(out, "first done"));
	free(out);
	lg_run_clear(&run);

	memset(&run, 0, sizeof(run)); /* one host: nothing */
	out = report(&run, false);
	assert_string_equal(out, "");
	free(out);
}

static void test_json(void **state)
{
	json_t *doc = json_pack("{s:{s:i}, s:[{s:[{s:i}, {s:i}, {s:i}, {s:i}]}]}", "config",
				"clients", 2, "runs", "clients", "id", 0, "id", 1, "id", 2,
				"id", 3);
	json_t *r, *h;
	struct lg_run run;

	(void)state;
	make_run(&run, "6.1");
	assert_int_equal(lg_result_json_hosts(doc, &run, 1), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "config"),
							    "ranks")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "config"),
							    "clients_total")), 4);
	r = json_array_get(json_object_get(doc, "runs"), 0);
	assert_true(json_real_value(json_object_get(r, "start_skew_ms")) == 0.25);
	h = json_object_get(r, "hosts");
	assert_int_equal(json_array_size(h), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(h, 1), "host")), "b");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(h, 1), "ops")), 70);
	assert_true(json_is_false(json_object_get(json_array_get(h, 1), "shared_directory")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_array_get(
				    h, 0), "env"), "kernel")), "6.1");
	/* b's own monitor: its sys_summary and kernel_messages; a has none */
	assert_null(json_object_get(json_array_get(h, 0), "sys_summary"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
				 json_array_get(h, 1), "sys_summary"), "counters"), "psi.io.full_us")),
			 820000);
	assert_non_null(json_object_get(json_array_get(h, 1), "kernel_messages"));
	r = json_array_get(json_object_get(r, "clients"), 3);
	assert_string_equal(json_string_value(json_object_get(r, "host")), "b");
	assert_int_equal(json_integer_value(json_object_get(r, "rank")), 1);
	json_decref(doc);
	lg_run_clear(&run);
}

/* A summary of secs seconds: PSI io full io_ms ms/s, CPU idle idle %, disk sda util. */
static json_t *summary(double io_ms, double idle, double util)
{
	return json_pack("{s:f, s:{s:f}, s:{s:f, s:f, s:f}}", "seconds", 2.0, "counters",
			 "psi.io.full_us", io_ms * 2000, "gauges", "cpu.idle_pct", idle,
			 "disk.sda.util_pct", util, "disk.sda2.util_pct", util / 2);
}

/* The hosts' text for n summaries named h0, h1, ... */
static char *standout(json_t **sums, size_t n)
{
	const char *names[] = { "h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lg_hosts_standout(f, names, (const json_t *const *)sums, n);
	fclose(f);
	for (size_t i = 0; i < n; i++)
		json_decref(sums[i]);
	return buf;
}

/* A host stands out in a figure at its floor and above 3x the others' median. */
static void test_standout(void **state)
{
	json_t *s[8];
	char *out;

	(void)state;
	/* h7's PSI io full far above the others': only that line */
	for (int i = 0; i < 7; i++)
		s[i] = summary(i == 3 ? 12 : 4, 90, 5);
	s[7] = summary(410, 90, 5);
	out = standout(s, 8);
	assert_string_equal(out, "host h7: PSI io full 410 ms/s, others \u2264 12\n");
	free(out);

	/* alike: nothing; below the floor (30 ms/s against 1): nothing */
	for (int i = 0; i < 3; i++)
		s[i] = summary(i ? 100 : 80, 50, 40);
	out = standout(s, 3);
	assert_string_equal(out, "");
	free(out);
	s[0] = summary(30, 90, 5);
	s[1] = summary(1, 90, 5);
	s[2] = summary(1, 90, 5);
	out = standout(s, 3);
	assert_string_equal(out, "");
	free(out);

	/* two hosts of five stand out (the median of the others is low), CPU busy and the
	 * host's busiest disk named; a host without a summary is no figure */
	s[0] = summary(1, 95, 2);
	s[1] = summary(1, 10, 90); /* 90% busy */
	s[2] = summary(1, 95, 2);
	s[3] = summary(1, 20, 2);  /* 80% busy */
	s[4] = NULL;
	out = standout(s, 5);
	assert_string_equal(out, "host h1: CPU busy 90.0%, others \u2264 80.0\n"
				 "host h3: CPU busy 80.0%, others \u2264 90.0\n"
				 "host h1: disk sda util 90%, others \u2264 2\n");
	free(out);

	/* one host: no one to set it against */
	s[0] = summary(410, 10, 90);
	out = standout(s, 1);
	assert_string_equal(out, "");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_standout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
