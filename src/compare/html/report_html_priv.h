/* Internals of the data object of `loadgen report`, shared by report_html_data.c (the
 * files' parts), report_html_cmp.c (the comparisons with the baseline) and
 * report_html_failed.c (the runs that measured nothing). */
#ifndef LOADGEN_REPORT_HTML_PRIV_H
#define LOADGEN_REPORT_HTML_PRIV_H

#include <math.h>
#include <stdbool.h>

#include <jansson.h>

#include "loadgen/compare/compare.h"

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
