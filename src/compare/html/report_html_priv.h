/* Internals of the HTML pages: the page writer shared by every page
 * (report_html_page.c), and the data object of `loadgen report`, shared by
 * report_html_data.c (the files' parts), report_html_cmp.c (the comparisons with the
 * baseline) and report_html_failed.c (the runs that measured nothing). */
#ifndef LOADGEN_REPORT_HTML_PRIV_H
#define LOADGEN_REPORT_HTML_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "loadgen/compare/compare.h"

/* --- The page (report_html_page.c) --- */

/* An embedded script (cmake/embed.cmake): its text and length. */
struct lg_html_asset {
	const char *text; /* the script, without <script> tags */
	size_t len;       /* its length in bytes */
};

/* What one page holds besides what every page has (style sheet, CSP, error catcher,
 * Chart.js). */
struct lg_html_page {
	const char *heading; /* what kind of page ("loadgen report"), before the title */
	const char *title;   /* what it is of (a file name); escaped when written */
	const json_t *data;  /* the data object, the #lg-data block */
	const struct lg_html_asset *scripts; /* drawing scripts, after Chart.js, in order */
	size_t nscripts;
};

/* Write the whole page to f. 0, or -EINVAL (a script holds "</script") or -ENOMEM;
 * write errors are left in f's error flag for the caller (who flushes). */
int lg_html_page_put(FILE *f, const struct lg_html_page *page);
/* Write the page to out_path atomically (a temporary file in the same directory,
 * fsync, rename), or to stdout when out_path is NULL or "-". 0, or a negative errno
 * with err filled ("PATH: why"). */
int lg_html_page_save(const struct lg_html_page *page, const char *out_path, char *err,
		      size_t errlen);

/* --- The data object of `loadgen report` --- */

/* json_real refuses NaN and infinities; they mean "not known" in the page. */
static inline json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* Append v (a new reference, may be NULL) to a; false when either failed. */
static inline bool push(json_t *a, json_t *v)
{
	return v && json_array_append_new(a, v) == 0;
}

/* Append to cmps the comparisons of other against base, as loadgen compare makes them:
 * two files of one client count each are compared whatever their counts; otherwise once
 * per client count of the baseline that other has too (runs of other counts are never
 * mixed in); a file compare leaves out is one entry with "skipped" (why). 0 or
 * -ENOMEM. */
int lg_report_add_comparisons(json_t *cmps, const struct lg_cmp_file *base,
			      const struct lg_cmp_file *other);

/* The runs of doc that measured nothing (lg_cmp_run_measured_nothing), each {index (in
 * doc's runs), status, failure, phases, notes (the first 20, with <key>_total), kernel
 * messages, system counters, ...} as the result holds them; [] when there is none,
 * NULL on -ENOMEM. */
json_t *lg_report_unmeasured(const json_t *doc);

#endif
