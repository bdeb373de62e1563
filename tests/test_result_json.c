/* Result JSON: the built document for a hand-made run, the whole document or none when
 * memory runs out, the atomic write and its reload, and the destination checks. */
#include "loadgen/output/result_json.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/counters/ranks.h"

static const char *const names[] = { "ReadX", "WriteX", "Unused" };
static char *argv_[] = { "loadgen", "-t", "2", "--json", "out.json", "2", NULL };
static unsigned allocs, fail_at; /* jansson allocations so far; fail that one (0: none) */

static void *counting_malloc(size_t n)
{
	return ++allocs == fail_at ? NULL : malloc(n);
}

/* A client as the engine lays it out: service-time rows after the type rows if svc. */
static struct lg_client_stats *new_client(unsigned id, bool svc)
{
	void *mem = calloc(1, lg_client_stats_size(3, svc));

	assert_non_null(mem);
	return lg_client_stats_init(mem, id, 3, svc);
}

static void op(struct lg_client_stats *cs, size_t type, uint64_t ns, uint64_t rd, uint64_t wr)
{
	cs->types[type].count++;
	cs->types[type].bytes_read += rd;
	cs->types[type].bytes_written += wr;
	lg_histogram_record(&cs->types[type].hist, ns);
}

/* Two clients, two used types. ReadX: 1 and 3 ms (client 0), 2 ms (client 1); WriteX:
 * 0.5 ms from client 1 that failed with ENOSPC; ReadX once succeeded where ENOENT was
 * expected (client 0, line 7). Client 1 has service-time rows if svc. */
static void fill_run(struct lg_run *run, bool svc)
{
	struct lg_interval iv1 = { .t_s = 1.0, .ops = 3, .bytes = 196608, .bytes_read = 196608,
				   .len_s = 1.0, .mbps = 0.196608, .max_latency_ns = 3000000 };
	struct lg_interval iv2 = { .t_s = 2.0, .ops = 1, .bytes = 1000000,
				   .bytes_written = 1000000, .len_s = 1.0, .mbps = 1.0,
				   .max_latency_ns = 500000 };

	memset(run, 0, sizeof(*run));
	run->duration_s = 2.0;
	run->nclients = 2;
	run->per_client = LG_PER_CLIENT_ALL; /* --per-client all: rows with their histograms */
	run->ntypes = 3;
	run->type_names = names;
	run->clients = calloc(2, sizeof(*run->clients));
	assert_non_null(run->clients);
	run->clients[0] = new_client(0, false);
	run->clients[1] = new_client(1, svc);
	op(run->clients[0], 0, 1000000, 65536, 0);
	op(run->clients[0], 0, 3000000, 65536, 0);
	op(run->clients[1], 0, 2000000, 65536, 0);
	op(run->clients[1], 1, 500000, 0, 1000000);
	run->clients[0]->types[0].errors = 1;
	run->clients[0]->types[0].errnos[0] = 1;
	run->clients[0]->notes[0] = (struct lg_error_note){ 7, 0, 0, ENOENT, LG_NOTE_NO_PATH, 0 };
	run->clients[0]->nnotes = 1;
	run->clients[1]->types[1].errors = 1;
	run->clients[1]->types[1].errnos[ENOSPC] = 1;
	run->clients[1]->notes[0] = (struct lg_error_note){ 42, 1, ENOSPC, 0, LG_NOTE_NO_PATH, 0 };
	run->clients[1]->nnotes = 1;
	assert_int_equal(lg_run_merge(run), 0);
	assert_int_equal(lg_run_add_interval(run, &iv1), 0);
	assert_int_equal(lg_run_add_interval(run, &iv2), 0);
}

static void make_run(struct lg_run *run)
{
	fill_run(run, false);
}

/* make_run's run with every optional part of the document: service times (--rate), a
 * corruption with a non-ASCII path (--verify), notes with a path, a not-open note,
 * a setup note, and a failure. */
static void make_rich_run(struct lg_run *run)
{
	static const char *const paths[] = { "d\xc3\xa9j\xc3\xa0/f" LG_CLIENT_PLACEHOLDER };
	struct lg_client_stats *c0, *c1;

	fill_run(run, true);
	c0 = run->clients[0];
	c1 = run->clients[1];
	lg_histogram_record(&c1->svc[0], 1500000);
	lg_histogram_record(&c1->svc[1], 400000);
	c0->types[0].corruptions = 1;
	c0->corrupt[0] = (struct lg_corruption_note){ .offset = 4096, .line = 7, .type = 0,
		.reason = LG_CORRUPT_PAYLOAD, .found_magic = 1, .path = "d\xc3\xa9j\xc3\xa0/f0" };
	c0->ncorrupt = 1;
	run->path_names = paths;
	run->npaths = 1;
	c1->notes[0].path = 0;
	c1->not_open = (struct lg_skip_note){ .line = 9, .slot_line = 3, .type = 1,
					      .event = LG_SLOT_CLOSED, .set = 1 };
	c0->untimed[LG_UNTIMED_SETUP].errors = 1;
	c0->untimed[LG_UNTIMED_SETUP].errnos[EEXIST] = 1;
	c0->untimed[LG_UNTIMED_SETUP].notes[0] =
		(struct lg_error_note){ 3, 1, EEXIST, 0, LG_NOTE_NO_PATH, 0 };
	c0->untimed[LG_UNTIMED_SETUP].nnotes = 1;
	run->status = LG_RUN_FAILED;
	run->failure = "setup failed in d\xc3\xa9j\xc3\xa0";
	run->failure_errno = EEXIST;
	assert_int_equal(lg_run_merge(run), 0);
}

static void make_workload(struct lg_workload **wl)
{
	static const char text[] = "name: smoke\n";

	assert_int_equal(lg_workload_create(wl), 0);
	assert_int_equal(lg_workload_set_source(*wl, "smoke", "tests/smoke.yaml", text,
						sizeof(text) - 1), 0);
	assert_int_equal(lg_workload_set_param(*wl, "size", "4k"), 0);
	assert_int_equal(lg_workload_set_param(*wl, "files", "10"), 0);
}

static struct lg_config make_config(void)
{
	return (struct lg_config){ .clients = 2, .mode = "threads", .directory = "/tmp",
				   .time_s = 2, .warmup_s = 0.5, .seed = 99,
				   .argc = 6, .argv = argv_ };
}

static json_int_t geti(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v))
		fail_msg("%s is not an integer", key);
	return json_integer_value(v);
}

static double getr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_real(v))
		fail_msg("%s is not a real", key);
	return json_real_value(v);
}

static const char *gets(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		fail_msg("%s is not a string", key);
	return json_string_value(v);
}

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fabs(want) + 1e-12)
		fail_msg("got %.17g want %.17g", got, want);
}

static void check_header(json_t *doc)
{
	static const char *const order[] = { "schema", "loadgen", "command", "env",
					     "workload", "config", "runs", "summary" };
	struct utsname u;
	json_t *env = json_object_get(doc, "env"), *wl = json_object_get(doc, "workload");
	json_t *cfg = json_object_get(doc, "config"), *cmd = json_object_get(doc, "command");
	void *it = json_object_iter(doc);

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++, it = json_object_iter_next(doc, it))
		assert_string_equal(json_object_iter_key(it), order[i]); /* insertion order */
	assert_null(it);
	assert_string_equal(gets(doc, "schema"), "loadgen-result/1");
	assert_string_equal(gets(json_object_get(doc, "loadgen"), "version"), LOADGEN_VERSION);
	assert_int_equal(json_array_size(cmd), 6);
	assert_string_equal(json_string_value(json_array_get(cmd, 3)), "--json");
	assert_int_equal(uname(&u), 0);
	assert_string_equal(gets(env, "kernel"), u.release);
	assert_string_equal(gets(env, "kernel_version"), u.version);
	assert_string_equal(gets(env, "hostname"), u.nodename);
	assert_string_equal(gets(env, "arch"), u.machine);
	assert_string_equal(gets(wl, "name"), "smoke");
	assert_string_equal(gets(wl, "source"), "tests/smoke.yaml");
	assert_int_equal(strlen(gets(wl, "sha256")), 64);
	assert_string_equal(gets(json_object_get(wl, "params"), "size"), "4k");
	assert_string_equal(gets(json_object_get(wl, "params"), "files"), "10");
	assert_int_equal(geti(cfg, "clients"), 2);
	assert_string_equal(gets(cfg, "mode"), "threads");
	assert_near(getr(cfg, "time_s"), 2);
	assert_near(getr(cfg, "warmup_s"), 0.5);
	assert_true(json_is_false(json_object_get(cfg, "run_once")));
	assert_string_equal(gets(cfg, "directory"), "/tmp");
	assert_int_equal(geti(cfg, "seed"), 99);
}

/* Latencies follow the histogram; hand-worked for ReadX {1, 2, 3} ms: p50 is the
 * midpoint of 2 ms's bucket [1998848, 2015231]; p90 and up, 3 ms's bucket midpoint
 * 2998271 (under the max, so not clamped). */
static void check_readx(json_t *t)
{
	json_t *lat = json_object_get(t, "latency_ns"), *h = json_object_get(t, "histogram");
	json_int_t total = 0;

	assert_int_equal(geti(t, "count"), 3);
	assert_int_equal(geti(t, "errors"), 1);
	assert_int_equal(geti(t, "bytes"), 196608);
	assert_int_equal(geti(t, "bytes_read"), 196608);
	assert_int_equal(geti(t, "bytes_written"), 0);
	assert_int_equal(json_object_size(json_object_get(t, "errors_by_errno")), 1);
	assert_int_equal(geti(json_object_get(t, "errors_by_errno"), "OK"), 1);
	assert_int_equal(geti(lat, "min"), 1000000);
	assert_near(getr(lat, "mean"), 2000000);
	assert_int_equal(geti(lat, "p50"), 2007039);
	assert_int_equal(geti(lat, "p90"), 2998271);
	assert_int_equal(geti(lat, "p99"), 2998271);
	assert_int_equal(geti(lat, "p999"), 2998271);
	assert_int_equal(geti(lat, "p9999"), 2998271);
	assert_int_equal(geti(lat, "max"), 3000000);
	assert_int_equal(json_array_size(h), 3);
	for (size_t i = 0; i < json_array_size(h); i++) {
		json_t *b = json_array_get(h, i);
		json_int_t low = json_integer_value(json_array_get(b, 0));
		json_int_t high = json_integer_value(json_array_get(b, 1));

		assert_int_equal(json_array_size(b), 3);
		assert_true(low <= high);
		total += json_integer_value(json_array_get(b, 2));
	}
	assert_int_equal(json_integer_value(json_array_get(json_array_get(h, 1), 0)), 1998848);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(h, 1), 1)), 2015231);
	assert_int_equal(total, 3);
}

static void check_run(json_t *r)
{
	json_t *types = json_object_get(r, "ops_by_type"), *w, *cl, *tl, *notes, *n;

	/* 2 unexpected results: failed, as the exit status and the text say */
	assert_string_equal(gets(r, "status"), "failed");
	assert_string_equal(gets(json_object_get(r, "failure"), "phase"), "run");
	/* OK=1 and ENOSPC=1: the first of the most frequent */
	assert_string_equal(gets(json_object_get(r, "failure"), "errno"), "OK");
	assert_int_equal(geti(json_object_get(r, "failure"), "count"), 2);
	assert_string_equal(gets(json_object_get(r, "failure"), "message"),
			    "2 unexpected results");
	assert_near(getr(r, "duration_s"), 2.0);
	assert_int_equal(geti(r, "bytes_read"), 196608);
	assert_int_equal(geti(r, "bytes_written"), 1000000);
	assert_int_equal(geti(r, "ops"), 4);
	assert_int_equal(geti(r, "errors"), 2);
	assert_near(getr(r, "throughput_mbps"), 0.598304);
	assert_near(getr(r, "ops_per_s"), 2.0);
	assert_near(getr(r, "max_latency_ms"), 3.0);
	assert_int_equal(geti(json_object_get(r, "latency_ns"), "min"), 500000);
	assert_int_equal(geti(json_object_get(r, "latency_ns"), "max"), 3000000);
	assert_int_equal(json_object_size(types), 2); /* "Unused" had no ops */
	check_readx(json_object_get(types, "ReadX"));
	w = json_object_get(types, "WriteX");
	assert_int_equal(geti(w, "bytes"), 1000000);
	assert_int_equal(geti(json_object_get(w, "errors_by_errno"), "ENOSPC"), 1);
	assert_int_equal(geti(json_object_get(w, "latency_ns"), "p50"), 500000);
	cl = json_object_get(r, "clients");
	assert_int_equal(json_array_size(cl), 2);
	assert_int_equal(geti(json_array_get(cl, 1), "id"), 1);
	assert_int_equal(geti(json_array_get(cl, 1), "ops"), 2);
	assert_int_equal(geti(json_array_get(cl, 1), "bytes"), 65536 + 1000000);
	assert_near(getr(json_array_get(cl, 1), "throughput_mbps"), 1065536 / 2.0 / 1e6);
	assert_int_equal(geti(json_object_get(json_array_get(cl, 1), "latency_ns"), "min"),
			 500000);
	assert_int_equal(json_array_size(json_object_get(json_array_get(cl, 0), "histogram")), 2);
	assert_int_equal(geti(json_object_get(json_object_get(json_array_get(cl, 1), "types"),
					      "WriteX"), "bytes_written"), 1000000);
	tl = json_object_get(r, "timeline");
	assert_int_equal(json_array_size(tl), 2);
	assert_near(getr(json_array_get(tl, 1), "t_s"), 2.0);
	assert_int_equal(geti(json_array_get(tl, 0), "ops"), 3);
	assert_int_equal(geti(json_array_get(tl, 1), "bytes"), 1000000);
	assert_near(getr(json_array_get(tl, 1), "mbps"), 1.0);
	assert_near(getr(json_array_get(tl, 0), "max_latency_ms"), 3.0);
	notes = json_object_get(r, "error_notes");
	assert_int_equal(json_array_size(notes), 2);
	n = json_array_get(notes, 1);
	assert_int_equal(geti(n, "client"), 1);
	assert_int_equal(geti(n, "line"), 42);
	assert_string_equal(gets(n, "type"), "WriteX");
	assert_string_equal(gets(n, "got"), "ENOSPC");
	assert_string_equal(gets(n, "expected"), "OK");
	assert_string_equal(gets(json_array_get(notes, 0), "got"), "OK");
	assert_string_equal(gets(json_array_get(notes, 0), "expected"), "ENOENT");
	assert_true(json_is_null(json_object_get(n, "hint")));
}

static void test_build(void **state)
{
	struct lg_run runs[2];
	struct lg_workload *wl;
	struct lg_config cfg = make_config();
	json_t *doc;

	(void)state;
	make_run(&runs[0]);
	make_run(&runs[1]);
	runs[1].status = LG_RUN_INTERRUPTED;
	make_workload(&wl);
	doc = lg_result_json_build(&cfg, wl, runs, 2);
	assert_non_null(doc);
	check_header(doc);
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 2);
	check_run(json_array_get(json_object_get(doc, "runs"), 0));
	assert_string_equal(gets(json_array_get(json_object_get(doc, "runs"), 1), "status"),
			    "interrupted");
	json_decref(doc);
	lg_workload_destroy(wl);
	lg_run_clear(&runs[0]);
	lg_run_clear(&runs[1]);
}

/* Nothing measured, no workload, odd bytes in argv, an infinite rate, a value past
 * the histogram's range: the document is still built. */
static void test_build_edge_cases(void **state)
{
	char bad[] = { 'x', (char)0xff, 'y', (char)0xc3, '\0' };
	char *argv[] = { "loadgen", bad, NULL };
	struct lg_config cfg = make_config();
	struct lg_interval iv = { .t_s = 1.0, .mbps = INFINITY };
	struct lg_run run;
	json_t *doc, *r, *h, *last;

	(void)state;
	cfg.argc = 2;
	cfg.argv = argv;
	cfg.directory = NULL;
	memset(&run, 0, sizeof(run));
	assert_int_equal(lg_run_merge(&run), 0);
	assert_int_equal(lg_run_add_interval(&run, &iv), 0);
	doc = lg_result_json_build(&cfg, NULL, &run, 1);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_array_get(json_object_get(doc, "command"), 1)),
			    "x\xEF\xBF\xBDy\xEF\xBF\xBD");
	assert_true(json_is_null(json_object_get(doc, "workload")));
	assert_true(json_is_null(json_object_get(json_object_get(doc, "config"), "directory")));
	r = json_array_get(json_object_get(doc, "runs"), 0);
	assert_int_equal(json_object_size(json_object_get(r, "ops_by_type")), 0);
	assert_int_equal(geti(json_object_get(r, "latency_ns"), "min"), 0);
	assert_near(getr(r, "throughput_mbps"), 0);
	assert_near(getr(json_array_get(json_object_get(r, "timeline"), 0), "mbps"), 0);
	json_decref(doc);
	lg_run_clear(&run);

	make_run(&run);
	lg_histogram_record(&run.clients[0]->types[0].hist, LG_HIST_MAX_NS + 1000);
	run.clients[0]->types[0].count++;
	assert_int_equal(lg_run_merge(&run), 0);
	doc = lg_result_json_build(&cfg, NULL, &run, 1);
	assert_non_null(doc);
	r = json_array_get(json_object_get(doc, "runs"), 0);
	h = json_object_get(json_object_get(json_object_get(r, "ops_by_type"), "ReadX"),
			    "histogram");
	last = json_array_get(h, json_array_size(h) - 1);
	assert_int_equal(json_integer_value(json_array_get(last, 1)), LG_HIST_MAX_NS + 1000);
	json_decref(doc);
	lg_run_clear(&run);
}

/* The rich run's optional parts are in the document, built with their values. */
static void check_rich(json_t *doc)
{
	json_t *r = json_array_get(json_object_get(doc, "runs"), 0);
	json_t *types = json_object_get(r, "ops_by_type"), *n;

	assert_int_equal(geti(json_object_get(types, "ReadX"), "corruptions"), 1);
	assert_int_equal(geti(json_object_get(json_object_get(types, "WriteX"), "service_ns"),
			      "max"), 400000);
	assert_null(json_object_get(json_object_get(types, "WriteX"), "corruptions"));
	assert_int_equal(geti(json_object_get(json_object_get(types, "ReadX"), "service_ns"),
			      "max"), 1500000);
	n = json_array_get(json_object_get(r, "corruption_notes"), 0);
	assert_string_equal(gets(n, "path"), "d\xc3\xa9j\xc3\xa0/f0");
	assert_string_equal(gets(n, "type"), "ReadX");
	n = json_array_get(json_object_get(r, "error_notes"), 1);
	assert_string_equal(gets(n, "type"), "WriteX");
	assert_string_equal(gets(n, "path"), "d\xc3\xa9j\xc3\xa0/f1");
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(r, "error_notes"),
								 0), "path")));
	n = json_array_get(json_object_get(r, "not_open_notes"), 0);
	assert_string_equal(gets(n, "type"), "WriteX");
	n = json_object_get(json_object_get(r, "phases"), "setup");
	assert_string_equal(gets(json_array_get(json_object_get(n, "error_notes"), 0), "type"),
			    "WriteX");
	assert_string_equal(gets(json_object_get(r, "failure"), "message"),
			    "setup failed in d\xc3\xa9j\xc3\xa0");
}

/* With each of jansson's allocations failing in turn, the build gives NULL (-ENOMEM) or
 * the whole document, equal to the one built without failures: never one with a key
 * dropped or a value turned into null. Without runs there is no summary. */
static void test_build_nomem(void **state)
{
	struct lg_run runs[2];
	struct lg_workload *wl;
	struct lg_config cfg = make_config();
	json_t *full, *doc;
	unsigned total, nulls = 0, short_docs = 0;

	(void)state;
	make_rich_run(&runs[0]);
	make_run(&runs[1]);
	make_workload(&wl);
	cfg.env = json_pack("{s:s}", "kernel", "6.1"); /* not probed: the same allocations */
	json_set_alloc_funcs(counting_malloc, free);
	allocs = fail_at = 0;
	full = lg_result_json_build(&cfg, wl, runs, 2);
	total = allocs;
	for (fail_at = 1; fail_at <= total; fail_at++) {
		allocs = 0;
		doc = lg_result_json_build(&cfg, wl, runs, 2);
		nulls += doc == NULL;
		if (doc && !json_equal(doc, full)) {
			print_message("allocation %u failed: the document differs\n", fail_at);
			short_docs++;
		}
		json_decref(doc);
	}
	json_set_alloc_funcs(malloc, free);
	assert_non_null(full);
	check_rich(full);
	assert_non_null(json_object_get(full, "summary"));
	assert_true(nulls > 0);
	assert_int_equal(short_docs, 0);
	json_decref(full);
	doc = lg_result_json_build(&cfg, wl, NULL, 0);
	assert_non_null(doc);
	assert_null(json_object_get(doc, "summary"));
	json_decref(doc);
	json_decref(cfg.env);
	lg_workload_destroy(wl);
	lg_run_clear(&runs[0]);
	lg_run_clear(&runs[1]);
}

/* A note of EINVAL on an O_DIRECT file has a hint naming the alignment the run learnt,
 * or the device's logical block size; in the measured phase's notes and a phase's. */
static void test_direct_hint(void **state)
{
	struct lg_config cfg = make_config();
	struct lg_untimed_stats *u;
	struct lg_run run;
	json_t *doc, *r, *n;

	(void)state;
	make_run(&run);
	run.clients[1]->notes[0].got = EINVAL;
	run.clients[1]->notes[0].direct_align = 4096;
	u = &run.clients[0]->untimed[LG_UNTIMED_CLEANUP];
	u->errors = 1;
	u->errnos[EINVAL] = 1;
	u->notes[u->nnotes++] = (struct lg_error_note){ 9, 0, EINVAL, 0, LG_NOTE_NO_PATH,
							LG_NOTE_ALIGN_UNKNOWN };
	assert_int_equal(lg_run_merge(&run), 0);
	doc = lg_result_json_build(&cfg, NULL, &run, 1);
	assert_non_null(doc);
	r = json_array_get(json_object_get(doc, "runs"), 0);
	n = json_array_get(json_object_get(r, "error_notes"), 1);
	assert_string_equal(gets(n, "got"), "EINVAL");
	assert_string_equal(gets(n, "hint"),
			    "O_DIRECT: the offset and size must be multiples of 4096 bytes");
	n = json_array_get(json_object_get(r, "error_notes"), 0);
	assert_true(json_is_null(json_object_get(n, "hint")));
	n = json_array_get(json_object_get(json_object_get(json_object_get(r, "phases"),
							   "cleanup"), "error_notes"), 0);
	assert_int_equal(geti(n, "line"), 9);
	assert_string_equal(gets(n, "hint"), "O_DIRECT: the offset and size must be multiples "
			    "of the device's logical block size");
	json_decref(doc);
	lg_run_clear(&run);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_write_reload(void **state)
{
	char dir[] = "/tmp/lg_result_json.XXXXXX", path[128], err[256] = "";
	struct lg_run run;
	struct lg_workload *wl;
	struct lg_config cfg = make_config();
	struct stat st;
	json_error_t jerr;
	json_t *doc, *back;
	mode_t mask = umask(022);

	(void)state;
	umask(mask);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/result.json", dir);
	make_run(&run);
	make_workload(&wl);
	doc = lg_result_json_build(&cfg, wl, &run, 1);
	assert_non_null(doc);
	assert_int_equal(lg_result_json_check(path, err, sizeof(err)), 0);
	assert_int_equal(lg_result_json_write(path, doc, err, sizeof(err)), 0);
	assert_int_equal(lg_result_json_check(path, err, sizeof(err)), 0); /* may overwrite */
	assert_int_equal(lg_result_json_write(path, doc, err, sizeof(err)), 0);
	assert_int_equal(count_entries(dir), 1); /* no temporary left behind */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
	back = json_load_file(path, 0, &jerr);
	if (!back)
		fail_msg("%s:%d: %s", path, jerr.line, jerr.text);
	assert_true(json_equal(doc, back));
	check_run(json_array_get(json_object_get(back, "runs"), 0));
	json_decref(back);

	/* A destination in a missing directory: error with the path, nothing created. */
	snprintf(path, sizeof(path), "%s/missing/result.json", dir);
	assert_int_equal(lg_result_json_write(path, doc, err, sizeof(err)), -ENOENT);
	assert_int_equal(strncmp(err, path, strlen(path)), 0);
	assert_non_null(strstr(err, ": No such file or directory"));
	/* Renaming onto a directory fails; the temporary is removed. */
	snprintf(path, sizeof(path), "%s/adir", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_true(lg_result_json_write(path, doc, err, sizeof(err)) < 0);
	assert_int_equal(strncmp(err, path, strlen(path)), 0);
	assert_int_equal(count_entries(dir), 2);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/result.json", dir);
	unlink(path);
	rmdir(dir);
	json_decref(doc);
	lg_workload_destroy(wl);
	lg_run_clear(&run);
}

/* A directory the user may not write in: EACCES, the message starting with the path.
 * Root may write anywhere, so as root the check runs in a child that became nobody
 * (the directory given to nobody first, so that only its mode says no). */
static void check_unwritable(const char *dir)
{
	char path[600], err[700];
	pid_t pid;
	int status, rc;

	snprintf(path, sizeof(path), "%s/r.json", dir);
	assert_int_equal(chmod(dir, 0500), 0);
	if (geteuid() == 0)
		assert_int_equal(chown(dir, 65534, 65534), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(3);
		rc = lg_result_json_check(path, err, sizeof(err));
		_exit(rc == -EACCES && strncmp(err, path, strlen(path)) == 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(chmod(dir, 0700), 0);
}

static void test_check(void **state)
{
	char dir[] = "/tmp/lg_result_json.XXXXXX", path[128], want[256], err[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/nodir/r.json", dir);
	assert_int_equal(lg_result_json_check(path, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: directory %s/nodir: No such file or directory", path,
		 dir);
	assert_string_equal(err, want);

	assert_int_equal(lg_result_json_check(dir, err, sizeof(err)), -EISDIR);
	snprintf(want, sizeof(want), "%s: is a directory", dir);
	assert_string_equal(err, want);

	snprintf(path, sizeof(path), "%s/file", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(lg_result_json_check(path, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/file/r.json", dir);
	assert_int_equal(lg_result_json_check(path, err, sizeof(err)), -ENOTDIR);
	snprintf(want, sizeof(want), "%s: %s/file is not a directory", path, dir);
	assert_string_equal(err, want);

	assert_int_equal(lg_result_json_check("/dev/null", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "/dev/null: not a regular file");
	assert_int_equal(lg_result_json_check("", err, sizeof(err)), -EINVAL);
	assert_int_equal(lg_result_json_check("relative-name.json", NULL, 0), 0);

	check_unwritable(dir);
	snprintf(path, sizeof(path), "%s/file", dir);
	unlink(path);
	rmdir(dir);
}

/* A run that lost a rank (lg_run_lose_ranks): status partial, totals and time from the
 * timeline, the rank named with its host and the end of the last interval, no
 * percentile, no rows, and the missing figures named; a whole run has neither. */
static void test_lost_ranks(void **state)
{
	struct lg_config cfg = make_config();
	struct lg_lost_rank *lost = calloc(1, sizeof(*lost));
	struct lg_client_stats **rows;
	struct lg_run run;
	json_t *doc, *r, *l, *missing;
	bool has_lat = false, has_clients = false;

	(void)state;
	assert_non_null(lost);
	make_run(&run);
	doc = lg_result_json_build(&cfg, NULL, &run, 1);
	r = json_array_get(json_object_get(doc, "runs"), 0);
	assert_int_equal(json_array_size(json_object_get(r, "lost_ranks")), 0);
	assert_int_equal(json_array_size(json_object_get(r, "missing")), 0);
	json_decref(doc);

	rows = run.clients; /* lose_ranks drops them: freed below */
	lost->rank = 2;
	strcpy(lost->host, "h2");
	run.timeline[1].ops = 5; /* so that the timeline's sum differs from the rows' */
	lg_run_lose_ranks(&run, 8, lost, 1);
	doc = lg_result_json_build(&cfg, NULL, &run, 1);
	r = json_array_get(json_object_get(doc, "runs"), 0);
	assert_string_equal(json_string_value(json_object_get(r, "status")), "partial");
	assert_int_equal(geti(r, "ops"), 8); /* the timeline's, not the rows' 4 */
	assert_int_equal(geti(r, "bytes_read"), 196608);
	assert_int_equal(geti(r, "bytes_written"), 1000000);
	assert_near(getr(r, "duration_s"), 2.0);
	assert_near(getr(r, "max_latency_ms"), 3.0);
	assert_int_equal(geti(r, "client_count"), 8);
	assert_true(json_is_null(json_object_get(r, "latency_ns")));
	assert_true(json_is_null(json_object_get(r, "errors")));
	assert_int_equal(json_array_size(json_object_get(r, "clients")), 0);
	assert_int_equal(json_object_size(json_object_get(r, "ops_by_type")), 0);
	l = json_array_get(json_object_get(r, "lost_ranks"), 0);
	assert_int_equal(geti(l, "rank"), 2);
	assert_string_equal(json_string_value(json_object_get(l, "host")), "h2");
	assert_near(getr(l, "time_s"), 2.0);
	missing = json_object_get(r, "missing");
	for (size_t i = 0; i < json_array_size(missing); i++) {
		const char *k = json_string_value(json_array_get(missing, i));

		has_lat = has_lat || !strcmp(k, "latency_ns");
		has_clients = has_clients || !strcmp(k, "clients");
	}
	assert_true(has_lat && has_clients);
	/* no histogram in any run: no p99 in the summary either */
	assert_true(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(
		json_object_get(doc, "summary"), "by_clients"), 0), "latency_ns"), "p99")));
	json_decref(doc);
	run.clients = rows;
	run.nclients = 2;
	lg_run_clear(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_build_edge_cases),
		cmocka_unit_test(test_lost_ranks),
		cmocka_unit_test(test_build_nomem),
		cmocka_unit_test(test_direct_hint),
		cmocka_unit_test(test_write_reload),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
