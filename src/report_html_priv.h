/* Internals of the data object of `loadgen report`, shared by report_html_data.c (the
 * files' parts) and report_html_cmp.c (the comparisons with the baseline). */
#ifndef LOADGEN_REPORT_HTML_PRIV_H
#define LOADGEN_REPORT_HTML_PRIV_H

#include <math.h>
#include <stdbool.h>

#include <jansson.h>

#include "loadgen/compare.h"

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

#endif
