/* The history trend page (report_html_trend.c) on hand-made trends (tests/data/trend_*.json,
 * the shape `loadgen history trend` builds): the page holds the trend as its data block,
 * unchanged and with no '<' that could end the block; the title is escaped; an object
 * that is not a trend is refused; a write that fails is an error, not a short page.
 *
 * With LG_TREND_PAGES=DIR set, the pages of the fixtures are written into DIR as
 * trend_NAME.html for the browser test (tests/integration/test_report_trend.py), which
 * checks what the page draws. */
#include "loadgen/compare/report_html.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir_fixture.h"

static const char *const fixtures[] = { "kernels", "one", "empty" };

static json_t *fixture(const char *name)
{
	char path[512];
	json_error_t e;
	json_t *t;

	snprintf(path, sizeof(path), "%s/tests/data/trend_%s.json", LG_SOURCE_DIR, name);
	t = json_load_file(path, 0, &e);
	if (!t)
		fail_msg("%s:%d:%d: %s", path, e.line, e.column, e.text);
	return t;
}

/* The page of trend written through lg_report_html_trend, as a string (caller frees). */
static char *page_of(const json_t *trend, const char *title)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(lg_report_html_trend(f, trend, title), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The text of the data block (a copy, caller frees). */
static char *data_block(const char *page)
{
	const char *open = "<script type=\"application/json\" id=\"lg-data\">";
	const char *a = strstr(page, open), *b;

	assert_non_null(a);
	a += strlen(open);
	b = strstr(a, "</script>");
	assert_non_null(b);
	return strndup(a, (size_t)(b - a));
}

/* The block is the trend itself, loaded back equal; '<' of labels only as \u003c. */
static void test_data_block(void **state)
{
	json_t *trend = fixture("kernels"), *back;
	char *page = page_of(trend, NULL), *block = data_block(page);

	(void)state;
	assert_null(strchr(block, '<'));
	assert_non_null(strstr(block, "6.4\\u003crc2>&co"));
	back = json_loads(block, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(back, trend));
	/* the page has what every page has, and its own script last */
	assert_non_null(strstr(page, "Content-Security-Policy"));
	assert_non_null(strstr(page, "window.lgErrors=[]"));
	assert_non_null(strstr(page, "Chart.js v"));
	assert_non_null(strstr(page, "loadgen history trend: draw the trend"));
	assert_non_null(strstr(page, "<title>loadgen history trend: /var/lib/kci/history.db</title>"));
	json_decref(back);
	free(block);
	free(page);
	json_decref(trend);
}

/* A title with HTML in it is text in <title> and <h1>, never markup. */
static void test_title_escaped(void **state)
{
	json_t *trend = fixture("empty");
	char *page = page_of(trend, "a<b>&\"c\"");

	(void)state;
	assert_non_null(strstr(page, "<h1>loadgen history trend: a&lt;b&gt;&amp;&quot;c&quot;</h1>"));
	assert_null(strstr(page, "a<b>"));
	free(page);
	json_decref(trend);
}

/* Not a trend: another schema, none, or no series list. Nothing is written. */
static void test_not_a_trend(void **state)
{
	const char *bad[] = {
		"{\"schema\": \"loadgen-report/1\", \"series\": []}",
		"{\"series\": []}",
		"{\"schema\": \"loadgen-history-trend/1\", \"series\": {}}",
		"[]",
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *t = json_loads(bad[i], 0, NULL);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(t);
		assert_int_equal(lg_report_html_trend(f, t, "x"), -EINVAL);
		fclose(f);
		assert_int_equal(len, 0);
		free(buf);
		assert_int_equal(lg_report_html_trend_write(t, "x", "/nonexistent/x.html", err,
							    sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "loadgen-history-trend/1"));
		json_decref(t);
	}
}

/* A FILE that cannot take the page (a full device): an error, not 0. */
static void test_failing_file(void **state)
{
	json_t *trend = fixture("kernels");
	FILE *f = fopen("/dev/full", "w");
	char err[256];

	(void)state;
	if (!f)
		skip();
	assert_int_equal(lg_report_html_trend(f, trend, NULL), -ENOSPC);
	fclose(f);
	/* and by path: a directory that is not there, said with the path */
	assert_int_equal(lg_report_html_trend_write(trend, NULL, "/nonexistent/t.html", err,
						    sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/t.html"));
	json_decref(trend);
}

/* Every fixture's page by path (atomically), in $LG_TREND_PAGES when the browser test
 * asks for them, else in this test's own directory. */
static void test_pages_by_path(void **state)
{
	const char *out = getenv("LG_TREND_PAGES");
	char err[256];

	(void)state;
	if (!out || !*out)
		out = dir;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		json_t *trend = fixture(fixtures[i]);
		char path[512];
		FILE *f;
		long size;

		snprintf(path, sizeof(path), "%s/trend_%s.html", out, fixtures[i]);
		if (lg_report_html_trend_write(trend, NULL, path, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		f = fopen(path, "r");
		assert_non_null(f);
		assert_int_equal(fseek(f, 0, SEEK_END), 0);
		size = ftell(f);
		fclose(f);
		assert_true(size > 100000); /* Chart.js is in it */
		json_decref(trend);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_block),
		cmocka_unit_test(test_title_escaped),
		cmocka_unit_test(test_not_a_trend),
		cmocka_unit_test(test_failing_file),
		cmocka_unit_test_setup_teardown(test_pages_by_path, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
