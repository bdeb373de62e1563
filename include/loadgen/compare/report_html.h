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
 * comparisons with the baseline); report_html.c assembles the page and holds the
 * command line. */
#ifndef LOADGEN_REPORT_HTML_H
#define LOADGEN_REPORT_HTML_H

#include <stddef.h>

#include <jansson.h>

#include "loadgen/compare/compare.h"

#define LG_REPORT_SCHEMA "loadgen-report/1" /* the schema of the embedded data object */

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

/* --- The command --- */

/* `loadgen report [options] RESULT.json... -o FILE.html`, argv[0] = "report".
 * Returns the exit status: 0, or 2 (usage, unreadable or foreign file, unwritable
 * output). */
int lg_report_html_main(int argc, char **argv);

#endif
