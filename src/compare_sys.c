/* `loadgen compare`, below the verdict: the system counters that changed most between two
 * result files, so the first lines say why (like the 0-day robot's "-18.3% vmstat.system.cs").
 *
 * Each run's "sys_summary" gives one value per key: counters per second of measured time,
 * gauges as they are. With >= 2 runs on both sides a key is ranked by its Welch p-value
 * (then by the size of the change); otherwise by the size of the change alone, and the rows
 * say so. Keys present on one side only, or equal on both, are left out. */
#include "loadgen/compare_sys.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/compare_stats.h"

#define MAX_RUNS 1024 /* runs of one file looked at */

/* One key's comparison. */
struct row {
	const char *key;    /* "vmstat.pgpgout" (borrowed from the baseline document) */
	bool counter;       /* per second */
	double base, other; /* means over the runs */
	double change_pct;  /* 100 (other - base) / base; inf when base is 0 */
	double p;           /* Welch p-value, or NaN without a test */
};

/* The values of key in every run of f that has it: per second for counters. */
static size_t values(const struct lg_cmp_file *f, const char *group, const char *key,
		     double *out)
{
	size_t n = 0, i;
	const json_t *run;

	json_array_foreach(f->runs, i, run) {
		const json_t *s = json_object_get(run, "sys_summary");
		double secs = json_number_value(json_object_get(s, "seconds"));
		const json_t *v = json_object_get(json_object_get(s, group), key);

		if (!json_is_number(v) || n == MAX_RUNS)
			continue;
		if (strcmp(group, "counters") == 0) {
			if (!(secs > 0))
				continue;
			out[n++] = json_number_value(v) / secs;
		} else {
			out[n++] = json_number_value(v);
		}
	}
	return n;
}

static bool fill_row(const struct lg_cmp_file *b, const struct lg_cmp_file *o, const char *group,
		     const char *key, double *vb, double *vo, struct row *r)
{
	size_t nb = values(b, group, key, vb), no = values(o, group, key, vo);
	struct lg_welch w;

	if (!nb || !no)
		return false;
	*r = (struct row){ .key = key, .counter = group[0] == 'c',
			   .base = lg_stat_mean(vb, nb), .other = lg_stat_mean(vo, no), .p = NAN };
	if (r->base == r->other)
		return false;
	r->change_pct = r->base != 0 ? 100 * (r->other - r->base) / fabs(r->base) : INFINITY;
	if (nb >= 2 && no >= 2 && lg_stat_welch(vb, nb, vo, no, &w) == 0)
		r->p = w.p;
	return true;
}

/* Most significant first; without p-values, largest change first. */
static int by_significance(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	bool ta = !isnan(a->p), tb = !isnan(b->p);

	if (ta && tb && a->p != b->p)
		return a->p < b->p ? -1 : 1;
	if (ta != tb)
		return ta ? -1 : 1;
	if (fabs(a->change_pct) != fabs(b->change_pct))
		return fabs(a->change_pct) > fabs(b->change_pct) ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* Every key of the baseline's first run that has a sys_summary. */
static const json_t *first_summary(const struct lg_cmp_file *f)
{
	size_t i;
	const json_t *run;

	json_array_foreach(f->runs, i, run)
		if (json_is_object(json_object_get(run, "sys_summary")))
			return json_object_get(run, "sys_summary");
	return NULL;
}

int lg_cmp_sys_rows(const struct lg_cmp_file *base, const struct lg_cmp_file *other,
		    struct lg_cmp_sys_row *out, size_t max, size_t *n)
{
	static const char *const groups[] = { "counters", "gauges" };
	const json_t *s = first_summary(base);
	size_t cap = 0, nrows = 0;
	struct row *rows = NULL;
	double *vb = malloc(MAX_RUNS * sizeof(double)), *vo = malloc(MAX_RUNS * sizeof(double));
	int rc = vb && vo ? 0 : -ENOMEM;

	*n = 0;
	for (int g = 0; !rc && s && g < 2; g++) {
		const char *key;
		json_t *v;

		json_object_foreach(json_object_get(s, groups[g]), key, v) {
			if (nrows == cap) {
				struct row *p = realloc(rows, (cap = cap ? 2 * cap : 64) * sizeof(*p));

				if (!p) {
					rc = -ENOMEM;
					break;
				}
				rows = p;
			}
			nrows += fill_row(base, other, groups[g], key, vb, vo, &rows[nrows]);
		}
	}
	if (!rc && nrows)
		qsort(rows, nrows, sizeof(*rows), by_significance);
	for (size_t i = 0; !rc && i < nrows && *n < max; i++)
		out[(*n)++] = (struct lg_cmp_sys_row){ rows[i].key, rows[i].counter, rows[i].base,
						       rows[i].other, rows[i].change_pct, rows[i].p };
	free(rows);
	free(vb);
	free(vo);
	return rc;
}

void lg_cmp_sys_print(FILE *out, const struct lg_cmp_file *base, const struct lg_cmp_file *other)
{
	struct lg_cmp_sys_row rows[LG_CMP_SYS_ROWS];
	size_t n;

	if (!first_summary(base) || !first_summary(other))
		return;
	if (lg_cmp_sys_rows(base, other, rows, LG_CMP_SYS_ROWS, &n) || n == 0)
		return;
	fprintf(out, "  System counters that changed most (per second of measured time; "
		"ranked by %s):\n", isnan(rows[0].p) ? "size of change, no p-value with < 2 runs" :
		"p-value, then size of change");
	for (size_t i = 0; i < n; i++) {
		const struct lg_cmp_sys_row *r = &rows[i];
		char chg[32], p[32], name[160];

		if (isinf(r->change_pct))
			snprintf(chg, sizeof(chg), "new");
		else
			snprintf(chg, sizeof(chg), "%+.1f%%", r->change_pct);
		if (isnan(r->p))
			p[0] = '\0';
		else
			snprintf(p, sizeof(p), "p=%.2g", r->p);
		snprintf(name, sizeof(name), "%s%s", r->key, r->counter ? "/s" : "");
		fprintf(out, "    %9s  %-40s %14.6g -> %-14.6g %s\n", chg, name, r->base, r->other, p);
	}
}
