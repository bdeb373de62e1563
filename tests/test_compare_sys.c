/* compare_sys.c on hand-built result documents: which "sys_summary" keys become rows
 * (those of any run of either file; counters per second of each run's measured time,
 * gauges as they are, both only from runs with seconds; equal or not numbers left out,
 * one side only kept without a change), their means and changes (a zero baseline is
 * "new", a negative one divides by its size), the ranking (by Welch p-value with >= 2
 * runs on both sides, else by size of change, then by name; one-sided keys last), the
 * cap on rows and on runs, and the exact text lg_cmp_sys_print writes, or its silence. */
#include "loadgen/compare/compare_sys.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* A checked file with one run per entry of sums, a JSON array of "sys_summary" objects
 * (null: a run without one). Takes over sums. */
static void load_json(struct lg_cmp_file *f, json_t *sums)
{
	json_t *runs = json_array(), *s;
	char err[256];
	size_t i;

	assert_non_null(sums);
	json_array_foreach(sums, i, s) {
		json_t *run = json_pack("{s:f, s:f}", "throughput_mbps", 100.0, "ops_per_s", 10.0);

		if (!json_is_null(s))
			json_object_set(run, "sys_summary", s);
		json_array_append_new(runs, run);
	}
	json_decref(sums);
	if (lg_cmp_file_init("mem.json", json_pack("{s:s, s:o}", "schema", LG_RESULT_SCHEMA,
						   "runs", runs), f, err, sizeof(err)))
		fail_msg("init: %s", err);
}

static void load(struct lg_cmp_file *f, const char *sums)
{
	load_json(f, json_loads(sums, 0, NULL));
}

/* What lg_cmp_sys_print writes for base and other (static buffer). */
static const char *printed(const struct lg_cmp_file *base, const struct lg_cmp_file *other)
{
	static char text[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lg_cmp_sys_print(f, base, NULL, other, NULL);
	fclose(f);
	assert_true(len < sizeof(text));
	memcpy(text, buf, len + 1);
	free(buf);
	return text;
}

static void near(double got, double want)
{
	if (!(fabs(got - want) <= 1e-6 * fmax(1, fabs(want))))
		fail_msg("%.9g, expected %.9g", got, want);
}

/* Row r is key (a counter or not) from base to other, changed by pct; p NaN when p < 0.
 * A NaN base, other or pct: that must be NaN too (a key on one side only). */
static void row_is(const struct lg_cmp_sys_row *r, const char *key, bool counter,
		   double base, double other, double pct, double p)
{
	assert_string_equal(r->key, key);
	assert_int_equal(r->counter, counter);
	if (isnan(base))
		assert_true(isnan(r->base));
	else
		near(r->base, base);
	if (isnan(other))
		assert_true(isnan(r->other));
	else
		near(r->other, other);
	if (isnan(pct))
		assert_true(isnan(r->change_pct));
	else if (isinf(pct))
		assert_true(isinf(r->change_pct) && r->change_pct > 0);
	else
		near(r->change_pct, pct);
	if (p < 0)
		assert_true(isnan(r->p));
	else
		near(r->p, p);
}

#define HEADER "  System counters that changed most (per second of measured time; ranked by "

/* One run a side: no p-values, ranked by size of change, ties by name; a key of one
 * file only after those, "-" on the side without it. */
static void test_one_run(void **state)
{
	struct lg_cmp_file b, o;
	struct lg_cmp_sys_row rows[8];
	size_t n = 99;

	(void)state;
	load(&b, "[{\"seconds\": 10, \"counters\": {\"cs\": 1000, \"pgin\": 200, \"same\": 50,"
	     " \"gone\": 7}, \"gauges\": {\"mem\": 100, \"zero\": 0, \"neg\": -10}}]");
	load(&o, "[{\"seconds\": 20, \"counters\": {\"cs\": 1000, \"pgin\": 800, \"same\": 100,"
	     " \"new\": 3}, \"gauges\": {\"mem\": 150, \"zero\": 4, \"neg\": -5}}]");
	assert_int_equal(lg_cmp_sys_rows(&b, NULL, &o, NULL, rows, 8, &n), 0);
	assert_int_equal(n, 7);
	row_is(&rows[0], "zero", false, 0, 4, INFINITY, -1);
	row_is(&rows[1], "pgin", true, 20, 40, 100, -1);
	row_is(&rows[2], "cs", true, 100, 50, -50, -1);
	row_is(&rows[3], "mem", false, 100, 150, 50, -1);
	row_is(&rows[4], "neg", false, -10, -5, 50, -1);
	row_is(&rows[5], "gone", true, 0.7, NAN, NAN, -1);
	row_is(&rows[6], "new", true, NAN, 0.15, NAN, -1);
	assert_int_equal(lg_cmp_sys_rows(&b, NULL, &o, NULL, rows, 2, &n), 0); /* the first max only */
	assert_int_equal(n, 2);
	row_is(&rows[1], "pgin", true, 20, 40, 100, -1);
	assert_string_equal(printed(&b, &o), HEADER "size of change, no p-value with < 2 runs):\n"
		"          new  zero                                    "
		"              0 -> 4              \n"
		"      +100.0%  pgin/s                                  "
		"             20 -> 40             \n"
		"       -50.0%  cs/s                                    "
		"            100 -> 50             \n"
		"       +50.0%  mem                                     "
		"            100 -> 150            \n"
		"       +50.0%  neg                                     "
		"            -10 -> -5             \n"
		"          n/a  gone/s                                  "
		"            0.7 -> -              \n"
		"          n/a  new/s                                   "
		"              - -> 0.15           \n");
	/* the other way round: ties of |change| by name, what was new is gone */
	assert_int_equal(lg_cmp_sys_rows(&o, NULL, &b, NULL, rows, 8, &n), 0);
	assert_int_equal(n, 7);
	row_is(&rows[0], "cs", true, 50, 100, 100, -1);
	row_is(&rows[1], "neg", false, -5, -10, -100, -1);
	row_is(&rows[2], "zero", false, 4, 0, -100, -1);
	row_is(&rows[5], "gone", true, NAN, 0.7, NAN, -1);
	row_is(&rows[6], "new", true, 0.15, NAN, NAN, -1);
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);
}

/* Large gauges and counters are printed as whole numbers, as the other columns are,
 * never as "1.36103e+06"; below 100000 six significant digits stay. */
static void test_large_values(void **state)
{
	struct lg_cmp_file b, o;

	(void)state;
	load(&b, "[{\"seconds\": 10, \"counters\": {\"pgfault\": 30000000, \"cs\": 999994},"
	     " \"gauges\": {\"memfree\": 1361030.4, \"dirty\": 2500000000}}]");
	load(&o, "[{\"seconds\": 10, \"counters\": {\"pgfault\": 15000000, \"cs\": 1000006},"
	     " \"gauges\": {\"memfree\": 2722060.8, \"dirty\": 3000000000}}]");
	assert_string_equal(printed(&b, &o), HEADER "size of change, no p-value with < 2 runs):\n"
		"      +100.0%  memfree                                 "
		"        1361030 -> 2722061        \n"
		"       -50.0%  pgfault/s                               "
		"        3000000 -> 1500000        \n"
		"       +20.0%  dirty                                   "
		"     2500000000 -> 3000000000     \n"
		"        +0.0%  cs/s                                    "
		"        99999.4 -> 100001         \n");
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);
}

/* Three runs against two (and two that give nothing, not even their gauges): ranked by
 * p-value, then change. */
static void test_welch(void **state)
{
	struct lg_cmp_file b, o;
	struct lg_cmp_sys_row rows[8];
	size_t n;

	(void)state;
	load(&b, "[{\"seconds\": 1, \"counters\": {\"steady\": 100, \"drop\": 50, \"noisy\": 100,"
	     " \"once\": 10}, \"gauges\": {\"load\": 1}},"
	     " {\"seconds\": 1, \"counters\": {\"steady\": 100, \"drop\": 50, \"noisy\": 300,"
	     " \"once\": 20}, \"gauges\": {\"load\": 2}},"
	     " {\"seconds\": 1, \"counters\": {\"steady\": 100, \"drop\": 50, \"noisy\": 200,"
	     " \"once\": 30}, \"gauges\": {\"load\": 3}}]");
	/* a run without a summary; one of 0 s whose counters cannot be per second */
	load(&o, "[{\"seconds\": 2, \"counters\": {\"steady\": 220, \"drop\": 60, \"noisy\": 2000,"
	     " \"once\": 200}, \"gauges\": {\"load\": 2.5}}, null,"
	     " {\"seconds\": 2, \"counters\": {\"steady\": 220, \"drop\": 60, \"noisy\": 1000},"
	     " \"gauges\": {\"load\": 3.5}},"
	     " {\"seconds\": 0, \"counters\": {\"steady\": 1e9, \"once\": 1e9},"
	     " \"gauges\": {\"load\": 100}}]");
	assert_int_equal(lg_cmp_sys_rows(&b, NULL, &o, NULL, rows, 8, &n), 0);
	assert_int_equal(n, 5);
	/* both sides constant but different: p = 0, then the larger change first */
	row_is(&rows[0], "drop", true, 50, 30, -40, 0);
	row_is(&rows[1], "steady", true, 100, 110, 10, 0);
	/* Welch's test of {100, 300, 200} against {1000, 500}; of {1, 2, 3} against
	 * {2.5, 3.5} (the 0 s run's gauge does not count, as its counters cannot) */
	row_is(&rows[2], "noisy", true, 200, 750, 275, 0.258214);
	row_is(&rows[3], "load", false, 2, 3, 50, 0.285023);
	/* one run on the other side: no test, after those with one, whatever its change */
	row_is(&rows[4], "once", true, 20, 100, 400, -1);
	assert_string_equal(printed(&b, &o), HEADER "p-value, then size of change):\n"
		"       -40.0%  drop/s                                  "
		"             50 -> 30             p=0\n"
		"       +10.0%  steady/s                                "
		"            100 -> 110            p=0\n"
		"      +275.0%  noisy/s                                 "
		"            200 -> 750            p=0.26\n"
		"       +50.0%  load                                    "
		"              2 -> 3              p=0.29\n"
		"      +400.0%  once/s                                  "
		"             20 -> 100            \n");
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);
}

/* Rows from the keys of every run of both files: one only in a later run of the
 * baseline, ones only in the other file. Runs without seconds count for nothing (their
 * gauges neither), values that are not numbers are skipped, and a file without a run
 * that counts gives no rows. */
static void test_missing(void **state)
{
	struct lg_cmp_file b, o, none, nosecs;
	struct lg_cmp_sys_row rows[8];
	size_t n;

	(void)state;
	load(&b, "[null, {\"seconds\": 2, \"counters\": {\"a\": 20, \"b\": 8, \"c\": 4},"
	     " \"gauges\": {\"g\": \"high\", \"h\": 1}},"
	     " {\"counters\": {\"a\": 999}, \"gauges\": {\"g\": 7}},"
	     " {\"seconds\": 1, \"counters\": {\"a\": 10, \"b\": \"x\", \"d\": 5}}]");
	load(&o, "[{\"seconds\": 1, \"gauges\": {\"g\": 14, \"h\": 1}, \"counters\": {\"b\": 8}},"
	     " {\"seconds\": 1, \"counters\": {\"a\": 5, \"c\": 3}, \"gauges\": {\"late\": 2}}]");
	load(&none, "[null]");
	load(&nosecs, "[{\"counters\": {\"a\": 1}, \"gauges\": {\"g\": 7}}]");
	assert_int_equal(lg_cmp_sys_rows(&b, NULL, &o, NULL, rows, 8, &n), 0);
	/* a: {10, 10} -> {5} (not 999 / 0 s); b: {4} -> {8}; c: {2} -> {3}; h equal; d only
	 * in a later run of the baseline; g only in the other (the baseline's 7 is from a
	 * run without seconds); late only in the other's second run */
	assert_int_equal(n, 6);
	row_is(&rows[0], "b", true, 4, 8, 100, -1);
	row_is(&rows[1], "a", true, 10, 5, -50, -1);
	row_is(&rows[2], "c", true, 2, 3, 50, -1);
	row_is(&rows[3], "d", true, 5, NAN, NAN, -1);
	row_is(&rows[4], "g", false, NAN, 14, NAN, -1);
	row_is(&rows[5], "late", false, NAN, 2, NAN, -1);
	/* two runs that count on each side, but no key in both runs of both */
	assert_string_equal(printed(&b, &o), HEADER "size of change, no p-value: no key in 2 "
		"runs on each side):\n"
		"      +100.0%  b/s                                     "
		"              4 -> 8              \n"
		"       -50.0%  a/s                                     "
		"             10 -> 5              \n"
		"       +50.0%  c/s                                     "
		"              2 -> 3              \n"
		"          n/a  d/s                                     "
		"              5 -> -              \n"
		"          n/a  g                                       "
		"              - -> 14             \n"
		"          n/a  late                                    "
		"              - -> 2              \n");
	n = 99;
	assert_int_equal(lg_cmp_sys_rows(&none, NULL, &o, NULL, rows, 8, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(lg_cmp_sys_rows(&b, NULL, &none, NULL, rows, 8, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(lg_cmp_sys_rows(&nosecs, NULL, &o, NULL, rows, 8, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(lg_cmp_sys_rows(&o, NULL, &nosecs, NULL, rows, 8, &n), 0);
	assert_int_equal(n, 0);
	assert_string_equal(printed(&none, &o), "");
	assert_string_equal(printed(&b, &none), "");
	assert_string_equal(printed(&none, &none), "");
	assert_string_equal(printed(&o, &nosecs), "");
	assert_string_equal(printed(&o, &o), ""); /* summaries, but nothing changed */
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);
	lg_cmp_file_release(&none);
	lg_cmp_file_release(&nosecs);
}

/* More changed keys than rows shown: the keys on one side only, which rank last, are
 * still named, on a line of their own. */
static void test_one_sided_past_rows(void **state)
{
	struct lg_cmp_file b, o;
	char base[2048], other[2048];
	size_t lb, lo;
	const char *text, *line;

	(void)state;
	lb = (size_t)snprintf(base, sizeof(base), "[{\"seconds\": 1, \"counters\": {");
	lo = (size_t)snprintf(other, sizeof(other), "[{\"seconds\": 1, \"counters\": {");
	for (int k = 0; k < LG_CMP_SYS_ROWS + 2; k++) {
		lb += (size_t)snprintf(base + lb, sizeof(base) - lb, "\"k%02d\": 10, ", k);
		lo += (size_t)snprintf(other + lo, sizeof(other) - lo, "\"k%02d\": %d, ", k,
				       20 + k);
	}
	snprintf(base + lb, sizeof(base) - lb, "\"gone\": 3}, \"gauges\": {\"old\": 1}}]");
	snprintf(other + lo, sizeof(other) - lo, "\"new\": 4}}]");
	load(&b, base);
	load(&o, other);
	text = printed(&b, &o);
	/* the heading, the rows shown, then the one-sided keys by name */
	line = strstr(text, "    also on one side only: ");
	assert_non_null(line);
	assert_string_equal(line, "    also on one side only: gone/s, new/s, old\n");
	assert_null(strstr(text, "n/a")); /* no room for them among the rows */
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);
	/* with room for them, they are rows, and there is no such line */
	load(&b, "[{\"seconds\": 1, \"counters\": {\"a\": 1, \"gone\": 2}}]");
	load(&o, "[{\"seconds\": 1, \"counters\": {\"a\": 2}}]");
	text = printed(&b, &o);
	assert_non_null(strstr(text, "n/a  gone/s"));
	assert_null(strstr(text, "one side only"));
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);
}

/* Only the first 1024 runs of a file are looked at, for their values and their keys. */
static void test_many_runs(void **state)
{
	struct lg_cmp_file b, o;
	struct lg_cmp_sys_row rows[2];
	json_t *sums = json_array();
	size_t n;

	(void)state;
	for (int i = 0; i < 1024; i++)
		json_array_append_new(sums, json_pack("{s:i, s:{s:i}}", "seconds", 1, "gauges",
						      "g", 1));
	json_array_append_new(sums, json_pack("{s:i, s:{s:i, s:i}}", "seconds", 1, "gauges",
					      "g", 1000000, "late", 5));
	load_json(&b, sums);
	load(&o, "[{\"seconds\": 1, \"gauges\": {\"g\": 2}}]");
	assert_int_equal(lg_cmp_sys_rows(&b, NULL, &o, NULL, rows, 2, &n), 0);
	assert_int_equal(n, 1);
	row_is(&rows[0], "g", false, 1, 2, 100, -1);
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);
}

/* A file of one run holding the hosts of hosts_json (a JSON array of hosts[] entries). */
static void load_hosts(struct lg_cmp_file *f, const char *hosts_json)
{
	json_t *run = json_pack("{s:f, s:f, s:o}", "throughput_mbps", 100.0, "ops_per_s", 10.0,
				"hosts", json_loads(hosts_json, 0, NULL));
	char err[256];

	if (lg_cmp_file_init("mem.json", json_pack("{s:s, s:[o]}", "schema", LG_RESULT_SCHEMA,
						   "runs", run), f, err, sizeof(err)))
		fail_msg("init: %s", err);
}

/* Each host's own summary against the same host's, matched by name; a change alike on
 * every host (pgpgout doubled everywhere) is the run's, left out of the per-host rows. */
static void test_per_host(void **state)
{
	struct lg_cmp_file b, o;
	const char *t, *rows;

	(void)state;
	load_hosts(&b, "[{\"host\": \"a\", \"sys_summary\": {\"seconds\": 1, \"counters\": "
		       "{\"psi.io.full_us\": 1000, \"vmstat.pgpgout\": 100}}},"
		       " {\"host\": \"b\", \"sys_summary\": {\"seconds\": 1, \"counters\": "
		       "{\"psi.io.full_us\": 1000, \"vmstat.pgpgout\": 100}}},"
		       " {\"host\": \"c\", \"sys_summary\": {\"seconds\": 1, \"counters\": "
		       "{\"psi.io.full_us\": 1000, \"vmstat.pgpgout\": 100}}}]");
	load_hosts(&o, "[{\"host\": \"c\", \"sys_summary\": {\"seconds\": 2, \"counters\": "
		       "{\"psi.io.full_us\": 4000, \"vmstat.pgpgout\": 400}}},"
		       " {\"host\": \"a\", \"sys_summary\": {\"seconds\": 1, \"counters\": "
		       "{\"psi.io.full_us\": 1000, \"vmstat.pgpgout\": 200}}},"
		       " {\"host\": \"b\", \"sys_summary\": {\"seconds\": 1, \"counters\": "
		       "{\"psi.io.full_us\": 50000, \"vmstat.pgpgout\": 210}}}]");
	t = printed(&b, &o);
	rows = strstr(t, "Per-host system counters that changed most");
	assert_non_null(rows);
	assert_null(strstr(t, "  System counters that changed most")); /* runs have none */
	/* b's +4900% first, then c's +100% (per second: 2000/s against 1000/s); a's
	 * psi.io is unchanged; pgpgout changed alike on every host */
	assert_non_null(strstr(rows, "+4900.0%  b            psi.io.full_us/s"));
	assert_non_null(strstr(rows, "+100.0%  c            psi.io.full_us/s"));
	assert_true(strstr(rows, "  b  ") < strstr(rows, "  c  "));
	assert_null(strstr(rows, "  a  "));
	assert_null(strstr(rows, "pgpgout"));
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);

	/* one host on a side: nothing per host */
	load_hosts(&b, "[{\"host\": \"a\", \"sys_summary\": {\"seconds\": 1, \"counters\": "
		       "{\"psi.io.full_us\": 1000}}}]");
	load_hosts(&o, "[{\"host\": \"a\", \"sys_summary\": {\"seconds\": 1, \"counters\": "
		       "{\"psi.io.full_us\": 9000}}}]");
	assert_string_equal(printed(&b, &o), "");
	lg_cmp_file_release(&b);
	lg_cmp_file_release(&o);
}

/* --- Who was busy beside one file's runs only (compare_busy.c) --- */

/* A result document whose runs have the busy objects of busy_json (a JSON array). */
static json_t *busy_doc(const char *busy_json)
{
	json_t *runs = json_array(), *all = json_loads(busy_json, 0, NULL), *b;
	size_t i;

	assert_non_null(all);
	json_array_foreach(all, i, b)
		json_array_append_new(runs, json_pack("{s:O}", "busy", b));
	json_decref(all);
	return json_pack("{s:o}", "runs", runs);
}

struct notes {
	char text[8][400];
	bool in_base[8];
	size_t n;
};

static void take_note(const struct lg_cmp_busy_note *note, void *ctx)
{
	struct notes *ns = ctx;

	assert_true(ns->n < 8);
	snprintf(ns->text[ns->n], sizeof(ns->text[0]), "%s", note->text);
	ns->in_base[ns->n++] = note->in_base;
}

#define QUIET "{\"seconds\": 10, \"by_cpu\": [], \"by_io\": [{\"comm\": \"cron\", " \
	"\"processes\": 1, \"pids\": [12], \"cpu_s\": 0.01, \"write_bytes\": 4096}]}"
#define BUSY "{\"seconds\": 10, \"by_io\": [{\"comm\": \"dd\", \"processes\": 9, " \
	"\"pids\": [4121, 4130], \"cpu_s\": 0.3, \"write_bytes\": 2700000000, " \
	"\"read_bytes\": 4096}], \"by_cpu\": [{\"comm\": \"cc1\", \"processes\": 1, " \
	"\"pids\": [77], \"cpu_s\": 34}, {\"comm\": \"dd\", \"processes\": 9, " \
	"\"pids\": [4121, 4130], \"cpu_s\": 0.3, \"write_bytes\": 2700000000, " \
	"\"read_bytes\": 4096}]}"

static size_t busy_notes(const char *base, const char *other, struct notes *ns)
{
	json_t *b = busy_doc(base), *o = busy_doc(other);
	size_t n;

	memset(ns, 0, sizeof(*ns));
	n = lg_cmp_busy_notes(b, "quiet.json", o, "busy.json", take_note, ns);
	assert_int_equal(n, ns->n);
	json_decref(b);
	json_decref(o);
	return n;
}

static void test_busy_notes(void **state)
{
	struct notes ns;

	(void)state;
	/* dd and cc1 beside the other file's runs only: I/O first */
	assert_int_equal(busy_notes("[" QUIET "]", "[" BUSY "]", &ns), 2);
	assert_string_equal(ns.text[0], "dd (9 processes, first pid 4121) wrote 2.7 GB during "
			    "busy.json's runs, nothing comparable in quiet.json");
	assert_string_equal(ns.text[1], "cc1 (pid 77) used 34 CPU-s during busy.json's runs, "
			    "nothing comparable in quiet.json");
	assert_false(ns.in_base[0]);
	/* the other way round: named as the baseline's */
	assert_int_equal(busy_notes("[" BUSY "]", "[" QUIET "]", &ns), 2);
	assert_true(ns.in_base[0]);
	assert_string_equal(ns.text[0], "dd (9 processes, first pid 4121) wrote 2.7 GB during "
			    "quiet.json's runs, nothing comparable in busy.json");
	/* busy on both sides: nothing; per second, over two quiet runs of 10 s */
	assert_int_equal(busy_notes("[" BUSY "]", "[" BUSY "]", &ns), 0);
	assert_int_equal(busy_notes("[" QUIET ", " QUIET "]", "[" BUSY ", " BUSY "]", &ns), 2);
	/* a tenth of the rate (2 700 004 096 B / 10 s) is comparable, a little less is not */
	assert_int_equal(busy_notes("[{\"seconds\": 20, \"by_io\": [{\"comm\": \"dd\", "
				    "\"processes\": 1, \"pids\": [5], \"cpu_s\": 0, "
				    "\"write_bytes\": 540008192}]}]", "[" BUSY "]", &ns), 1);
	assert_string_equal(ns.text[0], "cc1 (pid 77) used 34 CPU-s during busy.json's runs, "
			    "nothing comparable in quiet.json");
	assert_int_equal(busy_notes("[{\"seconds\": 20, \"by_io\": [{\"comm\": \"dd\", "
				    "\"processes\": 1, \"pids\": [5], \"cpu_s\": 0, "
				    "\"write_bytes\": 530000000}]}]", "[" BUSY "]", &ns), 2);
	/* a full list of the quiet side could hide dd just below its 300 MB entries */
	assert_int_equal(busy_notes("[{\"seconds\": 10, \"by_cpu\": [], \"by_io\": ["
		"{\"comm\": \"a\", \"cpu_s\": 0, \"write_bytes\": 300000000},"
		"{\"comm\": \"b\", \"cpu_s\": 0, \"write_bytes\": 300000000},"
		"{\"comm\": \"c\", \"cpu_s\": 0, \"write_bytes\": 300000000},"
		"{\"comm\": \"d\", \"cpu_s\": 0, \"write_bytes\": 300000000},"
		"{\"comm\": \"e\", \"cpu_s\": 0, \"write_bytes\": 300000000}]}]",
		"[" BUSY "]", &ns), 1 + 5); /* cc1, and a-e beside the quiet runs only */
	assert_string_equal(ns.text[5], "cc1 (pid 77) used 34 CPU-s during busy.json's runs, "
			    "nothing comparable in quiet.json");
	/* a side without "busy" (--monitor off): nothing to compare */
	assert_int_equal(busy_notes("[]", "[" BUSY "]", &ns), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_run),
		cmocka_unit_test(test_large_values),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_one_sided_past_rows),
		cmocka_unit_test(test_per_host),
		cmocka_unit_test(test_many_runs),
		cmocka_unit_test(test_busy_notes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
