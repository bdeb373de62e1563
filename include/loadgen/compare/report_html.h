/* `loadgen report`: result files in, one self-contained HTML page with charts out.
 *
 * The page is built from the result JSON alone. The C side reads and checks the files
 * (with compare_eval.c's loader), reduces them to what the charts need (merged latency
 * histograms, per-interval series, per-client rates, the verdicts of `loadgen compare`)
 * and writes one HTML file: the charting library (Chart.js from Debian's
 * libjs-chart.js, embedded into the binary at build time), our own small drawing
 * script and style sheet, and the data as a JSON <script> block. Nothing is fetched
 * when the page opens.
 *
 * Three parts: report_html_data.c builds the data object (report_html_cmp.c its
 * comparisons with the baseline); report_html_page.c writes a page (shared with the
 * history trend page, report_html_trend.c); report_html.c holds the command line. */
#ifndef LOADGEN_REPORT_HTML_H
#define LOADGEN_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "loadgen/compare/compare.h"

#define LG_REPORT_SCHEMA "loadgen-report/1" /* the schema of the embedded data object */
#define LG_TREND_SCHEMA "loadgen-history-trend/1" /* a history trend (loadgen history) */

/* --- The data object --- */

/* Build the page's data object from checked files, files[0] the baseline when n > 1.
 * Returns a new reference, or NULL with err filled ("PATH: why", e.g. a histogram
 * bucket that is not of loadgen's layout, or out of memory). */
json_t *lg_report_data(const struct lg_cmp_file *files, size_t n, char *err, size_t errlen);

/* --- The page --- */

/* Write the report of files[0..n-1] to out_path (atomically: a temporary file in the
 * same directory, then rename). 0, or a negative errno with err filled. */
int lg_report_html_write(const struct lg_cmp_file *files, size_t n, const char *out_path,
			 char *err, size_t errlen);
/* Write the report of one result document (just built by a run, not yet on disk;
 * name is what the page calls it). Takes no reference to doc. 0 or a negative errno
 * with err filled. */
int lg_report_html_doc(json_t *doc, const char *name, const char *out_path, char *err,
		       size_t errlen);

/* --- The history trend page --- */

/* Write the page of one history trend to f: per series a chart of the metric's mean
 * with its 95 % interval over the stored results, the segments' means, the change
 * points, runs during which something else was busy, and tables of the change points
 * and each segment's drift. trend is the object of schema LG_TREND_SCHEMA
 * (docs/history-html.md) and is embedded as the page's data; title says what the page
 * is of (NULL: the trend's "db"). f is flushed, not closed. 0, -EINVAL (not a trend:
 * another schema or no "series" array), -ENOMEM, or the negative errno of a write
 * that failed. */
int lg_report_html_trend(FILE *f, const json_t *trend, const char *title);
/* The same page to out_path atomically (a temporary file beside it, then rename), or
 * to stdout when out_path is NULL or "-". 0, or a negative errno with err filled. */
int lg_report_html_trend_write(const json_t *trend, const char *title, const char *out_path,
			       char *err, size_t errlen);

/* --- The command --- */

/* `loadgen report [options] RESULT.json... -o FILE.html`, argv[0] = "report".
 * Returns the exit status: 0, or 2 (usage, unreadable or foreign file, unwritable
 * output). */
int lg_report_html_main(int argc, char **argv);

#endif
