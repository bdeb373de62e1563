/* loadgen history's store and series (src/app/history): a file that is not a loadgen
 * history (text, an SQLite database of something else, a history of a newer schema, a
 * database cut short) is refused with a message that says so and left byte for byte as
 * it was; an empty file and a missing one become a history; what makes results
 * comparable (the key of a series: mount options, client count, --verify in; the
 * kernel and start time out); why a result starts a new series, naming the nearest
 * series and the values on both sides; which points a trend analyses. */
#include "app/history/history_priv.h"

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
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir_fixture.h"

static char path[256];

static const char *at(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* The whole file at p (malloc'd, *len bytes). */
static char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Open p, expect a refusal whose message holds want, and the file unchanged. */
static void refused(const char *p, const char *want)
{
	struct hist_db h;
	char err[1024] = "";
	size_t n0, n1;
	char *before = slurp(p, &n0), *after;

	assert_int_equal(hist_db_open(p, true, &h, err, sizeof(err)), -EINVAL);
	assert_null(h.db);
	if (!strstr(err, want))
		fail_msg("message \"%s\" lacks \"%s\"", err, want);
	after = slurp(p, &n1);
	assert_int_equal(n0, n1);
	assert_memory_equal(before, after, n0);
	free(before);
	free(after);
}

static void sql(const char *p, const char *stmts)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, stmts, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void test_refuses_foreign_files(void **state)
{
	FILE *f;

	(void)state;
	f = fopen(at("text.db"), "w");
	for (int i = 0; i < 50; i++)
		fputs("not a database at all\n", f);
	fclose(f);
	refused(at("text.db"), "not an SQLite database");

	f = fopen(at("short.db"), "w");
	fputs("SQLite format 3", f);
	fclose(f);
	refused(at("short.db"), "shorter than a header");

	sql(at("other.db"), "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
	refused(at("other.db"), "an SQLite database of something else");

	sql(at("appid.db"), "PRAGMA application_id = 42;");
	refused(at("appid.db"), "something else");

	sql(at("newer.db"), "PRAGMA application_id = 1279740025; PRAGMA user_version = 99;"
	    "CREATE TABLE series (id);");
	refused(at("newer.db"), "newer loadgen");
}

static void test_refuses_truncated(void **state)
{
	struct hist_db h;
	char err[1024];
	size_t n;
	char *whole;
	FILE *f;

	(void)state;
	assert_int_equal(hist_db_open(at("full.db"), true, &h, err, sizeof(err)), 0);
	for (int i = 0; i < 400; i++) {
		char q[256];

		snprintf(q, sizeof(q), "INSERT INTO results (stored_at, sha256, env, doc) VALUES "
			 "('t', 'sha%d', '{}', printf('%%.*c', 2000, 'x'))", i);
		assert_int_equal(sqlite3_exec(h.db, q, NULL, NULL, NULL), SQLITE_OK);
	}
	hist_db_close(&h);
	whole = slurp(at("full.db"), &n);
	assert_true(n > 100000);
	/* cut at a page boundary (the header then says more pages than there are) and
	 * mid-page */
	f = fopen(at("cut.db"), "wb");
	fwrite(whole, 1, n / 2 - (n / 2) % 4096, f);
	fclose(f);
	refused(at("cut.db"), "truncated");
	f = fopen(at("cut2.db"), "wb");
	fwrite(whole, 1, n / 3 + 17, f);
	fclose(f);
	refused(at("cut2.db"), "truncated");
	free(whole);
	/* the whole file still opens */
	assert_int_equal(hist_db_open(at("full.db"), false, &h, err, sizeof(err)), 0);
	hist_db_close(&h);
}

static void test_empty_and_missing(void **state)
{
	struct hist_db h;
	char err[1024];
	FILE *f;

	(void)state;
	/* missing, reading: no history; writing: made (with its directory) */
	assert_int_equal(hist_db_open(at("none.db"), false, &h, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no history there yet"));
	assert_int_equal(access(at("none.db"), F_OK), -1);
	assert_int_equal(hist_db_open(at("sub/dir/new.db"), true, &h, err, sizeof(err)), 0);
	hist_db_close(&h);
	assert_int_equal(hist_db_open(at("sub/dir/new.db"), false, &h, err, sizeof(err)), 0);
	hist_db_close(&h);
	/* an empty file holds nothing to lose: it becomes a history */
	f = fopen(at("empty.db"), "w");
	fclose(f);
	assert_int_equal(hist_db_open(at("empty.db"), true, &h, err, sizeof(err)), 0);
	hist_db_close(&h);
	assert_int_equal(hist_db_open(at("empty.db"), true, &h, err, sizeof(err)), 0);
	hist_db_close(&h);
}

static json_t *result_doc(const char *kernel, const char *mount, bool verify)
{
	return json_pack("{s:{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:s}, "
			 "s:{s:s, s:s, s:{}}, s:{s:s, s:f, s:f, s:b, s:b}}",
			 "env", "hostname", "vm", "kernel", kernel, "start_time", kernel,
			 "fs_type", "ext4", "mount_options", mount, "device", "/dev/vda1",
			 "cpus", 2, "cpu_model", "AMD", "scheduler", "none",
			 "workload", "name", "fileserver", "sha256", "abc", "params",
			 "config", "mode", "threads", "time_s", 60.0, "warmup_s", 2.0,
			 "verify", verify, "direct", false);
}

static void test_series_key(void **state)
{
	json_t *a = result_doc("6.1", "rw,relatime", false);
	json_t *b = result_doc("6.10", "rw,relatime", false);
	json_t *c = result_doc("6.1", "rw,noatime", false);
	json_t *d = result_doc("6.1", "rw,relatime", true);
	json_t *ka = hist_series_key(a, 48), *kb = hist_series_key(b, 48);
	json_t *kc = hist_series_key(c, 48), *kd = hist_series_key(d, 48);
	json_t *k24 = hist_series_key(a, 24);
	char title[256];

	(void)state;
	assert_true(json_equal(ka, kb)); /* another kernel, another start: one series */
	assert_false(json_equal(ka, kc));
	assert_false(json_equal(ka, kd));
	assert_false(json_equal(ka, k24));
	assert_null(json_object_get(json_object_get(ka, "env"), "kernel"));
	hist_series_title(ka, title, sizeof(title));
	assert_string_equal(title, "fileserver, 48 clients, host vm: ext4 on /dev/vda1 "
			    "(rw,relatime)");
	json_decref(a), json_decref(b), json_decref(c), json_decref(d);
	json_decref(ka), json_decref(kb), json_decref(kc), json_decref(kd), json_decref(k24);
}

static void add_series(struct hist_db *h, const json_t *key)
{
	char *k = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
	char q[4096];

	snprintf(q, sizeof(q), "INSERT INTO series (key, hostname, workload, clients, "
		 "created_at) VALUES ('%s', 'vm', 'fileserver', 48, 't')", k);
	assert_int_equal(sqlite3_exec(h->db, q, NULL, NULL, NULL), SQLITE_OK);
	free(k);
}

static void test_series_reason(void **state)
{
	json_t *a = result_doc("6.1", "rw,relatime", false);
	json_t *c = result_doc("6.1", "rw,noatime", false);
	json_t *d = result_doc("6.1", "rw,noatime", true);
	json_t *ka = hist_series_key(a, 48), *kc = hist_series_key(c, 48);
	json_t *kd = hist_series_key(d, 24);
	struct hist_db h;
	char err[1024], why[1024];

	(void)state;
	assert_int_equal(hist_db_open(at("r.db"), true, &h, err, sizeof(err)), 0);
	hist_series_reason(&h, ka, why, sizeof(why));
	assert_string_equal(why, "the first result of fileserver on host vm (the history was "
			    "empty)");
	add_series(&h, ka);
	assert_int_equal(hist_store_find_series(&h, ka), 1);
	assert_int_equal(hist_store_find_series(&h, kc), 0);
	hist_series_reason(&h, kc, why, sizeof(why));
	assert_string_equal(why, "other mount options than series 1: rw,noatime here, "
			    "rw,relatime there");
	hist_series_reason(&h, kd, why, sizeof(why));
	assert_string_equal(why, "3 differences from series 1: client count 24 here, 48 there; "
			    "mount options rw,noatime here, rw,relatime there; config.verify "
			    "true here, false there");
	/* the nearest series is named: with c's series stored, d differs from it less */
	add_series(&h, kc);
	hist_series_reason(&h, kd, why, sizeof(why));
	assert_non_null(strstr(why, "from series 2"));
	hist_db_close(&h);
	json_decref(a), json_decref(c), json_decref(d);
	json_decref(ka), json_decref(kc), json_decref(kd);
}

static void test_point_analysed(void **state)
{
	struct hist_point p = { .status = "complete", .mean = 10 };

	(void)state;
	assert_true(hist_point_analysed(&p));
	p.status = "partial";
	assert_false(hist_point_analysed(&p));
	p.status = "complete";
	p.mean = NAN;
	assert_false(hist_point_analysed(&p));
	p.status = NULL;
	p.mean = 1;
	assert_false(hist_point_analysed(&p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_refuses_foreign_files, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_refuses_truncated, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_empty_and_missing, make_dir, remove_dir),
		cmocka_unit_test(test_series_key),
		cmocka_unit_test_setup_teardown(test_series_reason, make_dir, remove_dir),
		cmocka_unit_test(test_point_analysed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
