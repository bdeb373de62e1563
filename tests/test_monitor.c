/* Unit tests of monitor on the live /proc and /dev/kmsg (the only ones it reads): off, it
 * is NULL, or with --log only streams exact interval lines; on, a "sys" per interval in
 * the result and the log, a summary of their sums and means, the vmstat difference, the
 * kernel log and the text; the summary still the entries' sum when memory runs out (or
 * no result); as root, warnings planted in /dev/kmsg, timed rightly. */
#include "loadgen/env/monitor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "skip_part.h"

#include "loadgen/model/clock.h"
#include "loadgen/env/runlog.h"
#include "loadgen/env/sysinfo.h"

#define NS LG_NS_PER_SEC
#define N 3 /* intervals of a full run */

static char dir[] = "/tmp/lg_monitor_XXXXXX"; /* the run directory */
static unsigned allocs, fail_at; /* jansson allocations so far; fail that one (0: none) */
static char log_path[sizeof(dir) + 8], data_path[sizeof(dir) + 8];

/* Interval k's numbers, all different, so a dropped or swapped one shows. */
static struct lg_interval iv_at(size_t k)
{
	return (struct lg_interval){ .t_s = (double)(k + 1), .len_s = 1.0, .ops = 100 * (k + 1),
		.bytes = 4096 * (k + 1) + 512, .bytes_read = 4096 * (k + 1), .bytes_written = 512,
		.mbps = (double)(4096 * (k + 1) + 512) / 1e6, .max_latency_ns = 2500000 * (k + 1) };
}

/* The --log line of interval k of run r, with sys (NULL: null). */
static json_t *iv_line(int r, size_t k, json_t *sys)
{
	struct lg_interval iv = iv_at(k);

	return json_pack("{s:s, s:i, s:f, s:f, s:I, s:I, s:I, s:I, s:f, s:f, s:O?}", "type",
			 "interval", "run", r, "t_s", iv.t_s, "len_s", 1.0, "ops",
			 (json_int_t)iv.ops, "bytes", (json_int_t)iv.bytes, "bytes_read",
			 (json_int_t)iv.bytes_read, "bytes_written", (json_int_t)512, "mbps",
			 iv.mbps, "max_latency_ms", (double)iv.max_latency_ns / 1e6, "sys", sys);
}

static struct lg_monitor *start(bool monitor, struct lg_runlog *log)
{
	struct lg_config cfg = { .monitor = monitor, .runlog = log };
	struct lg_monitor *m = (struct lg_monitor *)dir; /* create must overwrite it */

	assert_int_equal(lg_monitor_create(&cfg, dir, &m), 0);
	return m;
}

/* The measured phase begins at t0; n intervals of one second follow, each after k + 1 MiB
 * written to the rundir and synced: counters move, levels change between samples. */
static void feed(struct lg_monitor *m, uint64_t t0, size_t n)
{
	static char mib[1 << 20];

	lg_monitor_begin(m, t0);
	for (size_t k = 0; k < n; k++) {
		struct lg_interval iv = iv_at(k);
		int fd = open(data_path, O_WRONLY | O_CREAT | O_APPEND, 0600);

		for (size_t i = 0; i <= k; i++)
			assert_int_equal(write(fd, mib, sizeof(mib)), sizeof(mib));
		assert_int_equal(fdatasync(fd), 0);
		close(fd);
		usleep(1000); /* a context switch at least */
		lg_monitor_interval(m, &iv, k, t0 + (k + 1) * NS);
	}
	lg_monitor_end(m);
}

static void *counting_malloc(size_t n)
{
	return ++allocs == fail_at ? NULL : malloc(n);
}

/* From now on jansson's allocation number fail fails (0: none); counted from 0. */
static void fail_alloc(unsigned fail)
{
	allocs = 0;
	fail_at = fail;
	json_set_alloc_funcs(fail ? counting_malloc : malloc, free);
}

/* Monitor m in a phase begun at t0: interval k (0, 1, 2) ends at t0 + k + 1 s; during
 * interval fail's, jansson's allocation number fail_k fails. Returns how many jansson
 * allocations that interval made. */
static unsigned three_intervals(struct lg_monitor *m, uint64_t t0, size_t fail, unsigned fail_k)
{
	unsigned n = 0;

	lg_monitor_begin(m, t0);
	for (size_t k = 0; k < N; k++) {
		struct lg_interval iv = iv_at(k);

		usleep(1000);
		if (k == fail)
			fail_alloc(fail_k ? fail_k : UINT_MAX);
		lg_monitor_interval(m, &iv, k, t0 + (k + 1) * NS);
		if (k == fail)
			n = allocs;
		fail_alloc(0);
	}
	return n;
}

static json_t *sys_of(json_t *run, size_t k)
{
	return json_object_get(json_array_get(json_object_get(run, "timeline"), k), "sys");
}

static double num(json_t *o, const char *part, const char *key)
{
	return json_number_value(json_object_get(part ? json_object_get(o, part) : o, key));
}

/* What lg_monitor_print writes (until the next call). */
static const char *printed(const struct lg_monitor *m)
{
	static char text[1 << 20];
	FILE *f = fmemopen(text, sizeof(text), "w");

	lg_monitor_print(f, m);
	fclose(f);
	return text;
}

/* The summary is the sum of the first n timeline entries that have a "sys" (docs/results.md): its
 * seconds and counters are their sums, its levels their means, intervals their count. */
static void check_sums(json_t *run, size_t n)
{
	json_t *s = json_object_get(run, "sys_summary"), *v;
	const char *key, *part;
	size_t have = 0;
	double secs = 0;

	for (size_t k = 0; k < n; k++)
		if (sys_of(run, k)) {
			have++;
			secs += num(sys_of(run, k), NULL, "seconds");
		}
	assert_int_equal(json_object_size(s), 4);
	assert_float_equal(num(s, NULL, "seconds"), secs, 1e-9);
	assert_int_equal(num(s, NULL, "intervals"), have);
	for (int g = 0; g < 2; g++)
		json_object_foreach(json_object_get(s, part = g ? "gauges" : "counters"), key, v) {
			const char *end = key + strlen(key);
			double sum = 0;
			size_t in = 0;

			for (size_t k = 0; k < n; k++) {
				json_t *x = json_object_get(json_object_get(sys_of(run, k), part), key);

				in += x != NULL;
				sum += json_number_value(x);
			}
			if (!g)
				assert_int_equal(json_integer_value(v), (json_int_t)sum);
			else if (!strncmp(key, "meminfo.", 8) || !strncmp(key, "vmstat.", 7) ||
				 !strncmp(key, "procs_", 6) ||
				 (end - key > 10 && !strcmp(end - 10, ".in_flight")))
				assert_float_equal(json_number_value(v), sum / (double)in, 1e-6);
		}
}

/* The summary spans the N intervals fed (1 s each), whose numbers are >= 0. */
static void check_summary(json_t *run)
{
	json_t *s = json_object_get(run, "sys_summary"), *v;
	const char *key;

	check_sums(run, N);
	assert_float_equal(num(s, NULL, "seconds"), N, 1e-9);
	assert_int_equal(num(s, NULL, "intervals"), N);
	assert_true(num(s, "counters", "cpu.ctxt") > 0); /* feed() slept */
	for (size_t k = 0; k < N; k++) {
		assert_float_equal(num(sys_of(run, k), NULL, "seconds"), 1.0, 1e-9);
		for (int g = 0; g < 2; g++)
			json_object_foreach(json_object_get(sys_of(run, k), g ? "gauges" : "counters"),
					    key, v)
				assert_true(json_number_value(v) >= 0);
	}
}

/* A warning "DIR what" in the kernel log (facility user): dir tags our messages. */
static void plant(const char *what)
{
	FILE *k = fopen("/dev/kmsg", "w");

	assert_non_null(k);
	fprintf(k, "<4>%s %s\n", dir, what);
	fclose(k);
}

/* a's messages tagged with dir: "before" at t_before s, then "during" at 5 s; in the log
 * (measured: whether the phase had begun) only the second is measured. */
static void check_planted(json_t *a, double t_before, bool measured)
{
	size_t i, n = 0;
	json_t *e;

	json_array_foreach(a, i, e) {
		const char *text = json_string_value(json_object_get(e, "text"));

		if (!text || strncmp(text, dir, strlen(dir)))
			continue;
		assert_string_equal(text + strlen(dir), n ? " during" : " before");
		assert_true(fabs(num(e, NULL, "t_s") - (n ? 5 : t_before)) < 1);
		n++;
		assert_int_equal(json_is_true(json_object_get(e, "measured")), n == 2 && measured);
	}
	assert_int_equal(n, 2);
}

/* The text: the summary's block (levels as means), the kernel box when it kept any. */
static void check_text(const struct lg_monitor *m, json_t *run, bool root)
{
	const char *text = printed(m), *line = strstr(text, " during\n");
	char want[64];

	snprintf(want, sizeof(want), " cached %.0f MiB",
		 num(json_object_get(run, "sys_summary"), "gauges", "meminfo.cached_kib") / 1024);
	assert_non_null(strstr(text,
			       "\nSystem during the measured phase (3.0 s; levels are means):\n"));
	assert_non_null(strstr(text, want));
	assert_int_equal(!!strstr(text, "!! KERNEL: "), num(run, "kernel_messages", "count") +
			 num(run, "kernel_messages", "lost") > 0);
	assert_int_equal(line != NULL, root);
	while (line && line[-1] != '\n')
		line--; /* the planted warning's line, 5 s into the phase: "!! %+10.3fs %-7s %s" */
	assert_true(!line || fabs(strtod(line + 2, NULL) - 5) < 1);
	assert_true(!line || !strncmp(line + 15, "warning ", 8));
}

/* Close and parse the log: its interval lines are nrun runs of n as fed, with run's "sys". */
static json_t *check_log(struct lg_runlog *log, size_t nrun, size_t n, json_t *run)
{
	json_t *lines = json_array();
	char *text = NULL;
	size_t k = 0;

	assert_int_equal(lg_runlog_close(log), 0);
	assert_int_equal(lg_sysinfo_slurp(log_path, &text), 0);
	for (char *p = text; *p; p = strchr(p, '\n') + 1) {
		json_t *l = json_loads(p, JSON_DISABLE_EOF_CHECK, NULL);
		json_t *want = iv_line((int)(k / n), k % n, sys_of(run, k % n));

		if (!strcmp(json_string_value(json_object_get(l, "type")), "interval")) {
			assert_true(json_equal(l, want));
			k++;
		}
		json_array_append_new(lines, l);
		json_decref(want);
	}
	assert_int_equal(k, nrun * n);
	free(text);
	return lines;
}

/* Off: NULL and harmless. With --log only: runs 0 and 1 streamed, nothing else. */
static void off(void **state)
{
	json_t *run = json_pack("{s:[{}, {}]}", "timeline"), *copy = json_deep_copy(run), *lines;
	struct lg_runlog *log;
	char err[256];

	(void)state;
	assert_null(start(false, NULL));
	lg_monitor_poll(NULL);
	feed(NULL, lg_now_ns(), 2);
	assert_int_equal(lg_monitor_json(NULL, run), 0);
	assert_string_equal(printed(NULL), "");
	lg_monitor_destroy(NULL);
	assert_int_equal(lg_runlog_open(log_path, &log, err, sizeof(err)), 0);
	for (int r = 0; r < 2; r++) {
		struct lg_monitor *m = start(false, log);

		feed(m, lg_now_ns(), 2);
		assert_int_equal(lg_monitor_json(m, run), 0);
		assert_string_equal(printed(m), "");
		lg_monitor_destroy(m);
	}
	assert_true(json_equal(run, copy)); /* nothing added to the result */
	lines = check_log(log, 2, 2, NULL);
	assert_int_equal(json_array_size(lines), 4); /* no kernel messages */
	json_decref(lines);
	json_decref(run);
	json_decref(copy);
}

/* --monitor and --log, the phase "begun" 5 s ago; as root, warnings before and after it. */
static void full_run(void **state)
{
	bool root = geteuid() == 0 && access("/dev/kmsg", W_OK) == 0;
	json_t *run = json_pack("{s:[{}, {}, {}]}", "timeline"), *lines;
	uint64_t t0 = lg_now_ns() - 5 * NS;
	struct lg_runlog *log;
	struct lg_monitor *m;
	char err[256];

	(void)state;
	if (!root)
		LG_SKIP_PART("not root: no kernel messages planted");
	assert_int_equal(lg_runlog_open(log_path, &log, err, sizeof(err)), 0);
	m = start(true, log);
	if (root)
		plant("before");
	lg_monitor_poll(m);
	if (root)
		plant("during"); /* after t0, read at begin */
	feed(m, t0, N);
	assert_int_equal(lg_monitor_json(m, NULL), 0);
	assert_int_equal(lg_monitor_json(m, run), 0);
	assert_int_equal(json_object_size(run), 5); /* timeline and the 4 keys added */
	check_summary(run);
	/* the other processes, sampled at the begin, each interval and the end (or an
	 * interval skipped: these come faster than 2% of a CPU allows) */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(run, "busy"),
							    "samples")) +
			 json_integer_value(json_object_get(json_object_get(run, "busy"),
							    "samples_skipped")), N + 2);
	assert_true(json_object_size(json_object_get(run, "vmstat_diff")) > 0);
	assert_int_equal(json_object_size(json_object_get(run, "kernel_messages")), 7);
	if (root) { /* the kernel clock's offset, measured by a marker line */
		json_t *off = json_object_get(json_object_get(run, "kernel_messages"),
					      "clock_offset");

		assert_true(json_is_object(off));
		assert_true(num(off, NULL, "uncertainty_ms") >= 0 &&
			    num(off, NULL, "uncertainty_ms") < 50);
	}
	check_text(m, run, root);
	lines = check_log(log, 1, N, run);
	if (root) {
		check_planted(json_object_get(json_object_get(run, "kernel_messages"), "messages"),
			      5, false);
		check_planted(lines, 0, true);
	}
	lg_monitor_destroy(m);
	json_decref(lines);
	json_decref(run);
}

/* Entry 1 got no sample (never given to the monitor, as when the timeline could not
 * grow): it stays a placeholder, entry 2 spans both intervals (its seconds say so, its
 * rates are per second of them), and the summary is the sum of entries 0 and 2. */
static void placeholder(void **state)
{
	json_t *run = json_pack("{s:[{}, {}, {}]}", "timeline"), *s;
	uint64_t t0 = lg_now_ns() - 5 * NS;
	struct lg_interval iv = iv_at(0);
	struct lg_monitor *m;

	(void)state;
	m = start(true, NULL);
	lg_monitor_begin(m, t0);
	lg_monitor_interval(m, &iv, 0, t0 + NS);
	usleep(1000);
	iv = iv_at(2);
	lg_monitor_interval(m, &iv, 2, t0 + 3 * NS);
	lg_monitor_end(m);
	assert_int_equal(lg_monitor_json(m, run), 0);
	assert_non_null(sys_of(run, 0));
	assert_null(sys_of(run, 1));
	assert_non_null(sys_of(run, 2));
	assert_float_equal(num(sys_of(run, 2), NULL, "seconds"), 2, 1e-9);
	s = json_object_get(run, "sys_summary");
	assert_int_equal(num(s, NULL, "intervals"), 2);
	assert_float_equal(num(s, NULL, "seconds"), 3, 1e-9);
	check_sums(run, 3);
	lg_monitor_destroy(m);
	json_decref(run);
}

/* Out of memory while interval 1's "sys" is built: entry 1 has none and entry 2 spans
 * both intervals, or entry 1 has it; either way the summary is still the sum of the
 * entries, never counting time that no entry shows. */
static void nomem_interval(void **state)
{
	uint64_t t0 = lg_now_ns() - 5 * NS;
	struct lg_monitor *m = start(true, NULL);
	unsigned total = three_intervals(m, t0, 1, 0), spans = 0;

	(void)state;
	lg_monitor_destroy(m);
	assert_true(total > 0);
	for (unsigned k = 1; k <= total; k++) {
		json_t *run = json_pack("{s:[{}, {}, {}]}", "timeline");

		m = start(true, NULL);
		three_intervals(m, t0, 1, k);
		lg_monitor_end(m);
		assert_int_equal(lg_monitor_json(m, run), 0);
		check_sums(run, N);
		assert_float_equal(num(json_object_get(run, "sys_summary"), NULL, "seconds"), 3,
				   1e-9);
		if (!sys_of(run, 1)) {
			assert_float_equal(num(sys_of(run, 2), NULL, "seconds"), 2, 1e-9);
			spans++;
		}
		lg_monitor_destroy(m);
		json_decref(run);
	}
	assert_true(spans > 0);
}

/* Out of memory while the summary or vmstat_diff is built: lg_monitor_json fails
 * (-ENOMEM) rather than give a run without them or with a level not averaged. */
static void nomem_end(void **state)
{
	uint64_t t0 = lg_now_ns() - 5 * NS;
	struct lg_monitor *m = start(true, NULL);
	unsigned total, failed = 0;

	(void)state;
	three_intervals(m, t0, N, 0);
	fail_alloc(UINT_MAX);
	lg_monitor_end(m);
	total = allocs;
	fail_alloc(0);
	lg_monitor_destroy(m);
	for (unsigned k = 1; k <= total; k++) {
		json_t *run = json_pack("{s:[{}, {}, {}]}", "timeline");
		int rc;

		m = start(true, NULL);
		three_intervals(m, t0, N, 0);
		fail_alloc(k);
		lg_monitor_end(m);
		fail_alloc(0);
		rc = lg_monitor_json(m, run);
		if (rc) {
			assert_int_equal(rc, -ENOMEM);
			failed++;
		} else {
			check_summary(run);
			assert_true(json_is_object(json_object_get(run, "vmstat_diff")));
		}
		lg_monitor_destroy(m);
		json_decref(run);
	}
	assert_true(failed > 0);
}

/* What setup logged is first read as the phase begins (the engine polls no earlier):
 * in the log it is not "measured", by the kernel's time of it. As root only. */
static void setup_message(void **state)
{
	json_t *run = json_pack("{s:[{}]}", "timeline"), *lines, *e;
	struct lg_runlog *log;
	struct lg_monitor *m;
	char err[256];
	size_t i, n = 0;

	(void)state;
	if (geteuid() != 0 || access("/dev/kmsg", W_OK) != 0) {
		LG_SKIP_PART("not root: no kernel message planted");
		json_decref(run);
		return;
	}
	assert_int_equal(lg_runlog_open(log_path, &log, err, sizeof(err)), 0);
	m = start(true, log);
	plant("setup");
	usleep(2000);
	feed(m, lg_now_ns(), 1);
	assert_int_equal(lg_monitor_json(m, run), 0);
	lines = check_log(log, 1, 1, run);
	json_array_foreach(lines, i, e) {
		const char *text = json_string_value(json_object_get(e, "text"));

		if (!text || strncmp(text, dir, strlen(dir)))
			continue;
		assert_string_equal(text + strlen(dir), " setup");
		assert_true(json_is_false(json_object_get(e, "measured")));
		assert_true(num(e, NULL, "t_s") < 0); /* before the phase began */
		n++;
	}
	assert_int_equal(n, 1);
	lg_monitor_destroy(m);
	json_decref(lines);
	json_decref(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(off),
		cmocka_unit_test(full_run),
		cmocka_unit_test(placeholder),
		cmocka_unit_test(nomem_interval),
		cmocka_unit_test(nomem_end),
		cmocka_unit_test(setup_message),
	};
	int rc;

	if (!mkdtemp(dir))
		return 1;
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	snprintf(data_path, sizeof(data_path), "%s/data", dir);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(log_path);
	unlink(data_path);
	rmdir(dir);
	return lg_test_exit(rc);
}
