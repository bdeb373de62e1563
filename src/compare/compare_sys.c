/* `loadgen compare`, below the verdict: the system counters that changed most between two
 * result files, so the first lines say why (like the 0-day robot's "-18.3% vmstat.system.cs").
 *
 * Only the runs of the client count compared count on each side (a sweep's runs at
 * other counts would compare 1 client against 4). Each run's "sys_summary" gives one
 * value per key: counters per second of measured time,
 * gauges as they are. Only runs with measured seconds count, for gauges too, so that every
 * row of a file is made from the same runs. The keys are those of any such run of either
 * file, in the order met, the baseline's first. With >= 2 runs on both sides a key is
 * ranked by its Welch p-value (then by the size of the change); otherwise by the size of
 * the change alone, and the rows say so. Keys equal on both sides are left out; a key on
 * one side only is a row without a change ("-" for the side without it, "n/a" for the
 * change, as compare's tables show what is missing), after those that changed; those
 * past the rows shown are named on one line below them. */
#include "loadgen/compare/compare_sys.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/inference/inference.h"

#define MAX_RUNS 1024 /* runs of one file looked at */
#define MORE_ROWS 256 /* rows looked at past those shown, for keys on one side only */

/* One key's comparison. */
struct row {
	const char *key;    /* "vmstat.pgpgout" (borrowed from the base or other document) */
	bool counter;       /* per second */
	double base, other; /* means over the runs; NaN on a side without the key */
	double change_pct;  /* 100 (other - base) / base; inf when base is 0; NaN one-sided */
	double p;           /* Welch p-value, or NaN without a test */
};

/* The rows being built, and the keys already looked at. */
struct rows {
	const struct lg_cmp_file *base, *other;
	const struct lg_cmp_group *bg, *og; /* the runs of each file looked at; NULL: all */
	double *vb, *vo;  /* room for MAX_RUNS values of each side */
	json_t *seen;     /* the keys of the group looked at (as keys; values unused) */
	struct row *v;    /* the rows kept (owned) */
	size_t n, cap;    /* rows kept, room in v */
};

/* How many runs of f group g holds (every run of f when g is NULL), at most MAX_RUNS. */
static size_t nruns(const struct lg_cmp_file *f, const struct lg_cmp_group *g)
{
	size_t n = g ? g->n : json_array_size(f->runs);

	return n < MAX_RUNS ? n : MAX_RUNS;
}

/* The "sys_summary" of the j-th run of group g of f (g NULL: of f) when it counts: with
 * measured seconds (without them counters cannot be per second, and gauges alone would
 * make the rows of one file come from different runs); else NULL. */
static const json_t *summary_of(const struct lg_cmp_file *f, const struct lg_cmp_group *g,
				size_t j)
{
	const json_t *s = json_object_get(json_array_get(f->runs, g ? g->runs[j] : j),
					  "sys_summary");

	if (!(json_number_value(json_object_get(s, "seconds")) > 0))
		return NULL;
	return s;
}

/* How many runs of group g of f count (summary_of). */
static size_t summaries(const struct lg_cmp_file *f, const struct lg_cmp_group *g)
{
	size_t n = 0;

	for (size_t j = 0; j < nruns(f, g); j++)
		n += summary_of(f, g, j) != NULL;
	return n;
}

/* The values of key in every counted run of group g of f that has it: per second for
 * counters. */
static size_t values(const struct lg_cmp_file *f, const struct lg_cmp_group *g,
		     const char *group, const char *key, double *out)
{
	size_t n = 0;

	for (size_t j = 0; j < nruns(f, g); j++) {
		const json_t *s = summary_of(f, g, j);
		const json_t *v = json_object_get(json_object_get(s, group), key);

		if (!json_is_number(v))
			continue;
		out[n] = json_number_value(v);
		if (strcmp(group, "counters") == 0)
			out[n] /= json_number_value(json_object_get(s, "seconds"));
		n++;
	}
	return n;
}

/* The row of key, or false when it has no numbers or is equal on both sides. */
static bool fill_row(struct rows *rs, const char *group, const char *key, struct row *r)
{
	size_t nb = values(rs->base, rs->bg, group, key, rs->vb);
	size_t no = values(rs->other, rs->og, group, key, rs->vo);
	struct lg_welch w;

	if (!nb && !no)
		return false;
	*r = (struct row){ .key = key, .counter = group[0] == 'c',
			   .base = nb ? lg_stat_mean(rs->vb, nb) : NAN,
			   .other = no ? lg_stat_mean(rs->vo, no) : NAN,
			   .change_pct = NAN, .p = NAN };
	if (!nb || !no) /* on one side only: shown, with nothing to compare */
		return true;
	if (r->base == r->other)
		return false;
	r->change_pct = r->base != 0 ? 100 * (r->other - r->base) / fabs(r->base) : INFINITY;
	if (nb >= 2 && no >= 2 && lg_stat_welch(rs->vb, nb, rs->vo, no, &w) == 0)
		r->p = w.p;
	return true;
}

/* Look at key of group once: a row when it changed or is on one side. 0 or -ENOMEM. */
static int add_key(struct rows *rs, const char *group, const char *key)
{
	if (json_object_get(rs->seen, key))
		return 0;
	if (json_object_set_new(rs->seen, key, json_null()))
		return -ENOMEM;
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 64;
		struct row *p = realloc(rs->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		rs->v = p;
		rs->cap = cap;
	}
	rs->n += fill_row(rs, group, key, &rs->v[rs->n]);
	return 0;
}

/* Every key of group in the counted runs of group g of f, in the order first met. 0 or
 * -ENOMEM. */
static int add_keys(struct rows *rs, const struct lg_cmp_file *f, const struct lg_cmp_group *g,
		    const char *group)
{
	int rc = 0;

	for (size_t j = 0; !rc && j < nruns(f, g); j++) {
		const char *key;
		json_t *v;

		json_object_foreach(json_object_get(summary_of(f, g, j), group), key, v) {
			if ((rc = add_key(rs, group, key)))
				break;
		}
	}
	return rc;
}

/* Most significant first; without p-values, largest change first; one-sided keys last. */
static int by_significance(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	bool ta = !isnan(a->p), tb = !isnan(b->p);
	bool ca = !isnan(a->change_pct), cb = !isnan(b->change_pct);
	int c;

	if (ta && tb && a->p != b->p)
		return a->p < b->p ? -1 : 1;
	if (ta != tb)
		return ta ? -1 : 1;
	if (ca != cb)
		return ca ? -1 : 1;
	if (ca && fabs(a->change_pct) != fabs(b->change_pct))
		return fabs(a->change_pct) > fabs(b->change_pct) ? -1 : 1;
	c = strcmp(a->key, b->key);
	return c ? c : (int)b->counter - (int)a->counter;
}

int lg_cmp_sys_rows(const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
		    const struct lg_cmp_file *other, const struct lg_cmp_group *og,
		    struct lg_cmp_sys_row *out, size_t max, size_t *n)
{
	static const char *const groups[] = { "counters", "gauges" };
	struct rows rs = { .base = base, .other = other, .bg = bg, .og = og,
			   .vb = malloc(MAX_RUNS * sizeof(double)),
			   .vo = malloc(MAX_RUNS * sizeof(double)) };
	int rc = rs.vb && rs.vo ? 0 : -ENOMEM;
	/* a file without summaries (--monitor off) has nothing to set against the other's */
	bool both = summaries(base, bg) && summaries(other, og);

	*n = 0;
	for (int g = 0; !rc && both && g < 2; g++) {
		rs.seen = json_object();
		rc = rs.seen ? add_keys(&rs, base, bg, groups[g]) : -ENOMEM;
		if (!rc)
			rc = add_keys(&rs, other, og, groups[g]);
		json_decref(rs.seen);
	}
	if (!rc && rs.n)
		qsort(rs.v, rs.n, sizeof(*rs.v), by_significance);
	for (size_t i = 0; !rc && i < rs.n && *n < max; i++)
		out[(*n)++] = (struct lg_cmp_sys_row){ rs.v[i].key, rs.v[i].counter, rs.v[i].base,
						       rs.v[i].other, rs.v[i].change_pct,
						       rs.v[i].p };
	free(rs.v);
	free(rs.vb);
	free(rs.vo);
	return rc;
}

/* A mean as printed: "-" on the side without the key; from 100000 on as a whole number
 * (a gauge of 1361030 kB, never "1.36103e+06": %.6g turns to an exponent at 1e6, and
 * "%.0f" has at least its 6 digits there), below that 6 significant digits (0.15,
 * 1234.57). Beyond 1e15 (no counter gets there) the exponent is shorter. */
static void fmt_mean(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e5 && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6g", v);
}

/* How the rows are ranked, for the heading: by p-value when one has one (rows with one
 * come first), else why none has. */
static const char *ranking(const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
			   const struct lg_cmp_file *other, const struct lg_cmp_group *og,
			   const struct lg_cmp_sys_row *rows)
{
	if (!isnan(rows[0].p))
		return "p-value, then size of change";
	if (summaries(base, bg) < 2 || summaries(other, og) < 2)
		return "size of change, no p-value with < 2 runs";
	return "size of change, no p-value: no key in 2 runs on each side";
}

/* The keys on one side only that the rows above had no room for (they rank last): named
 * on one line, since a counter only one kernel has is news however many others changed;
 * --json has their values. */
static void print_one_sided(FILE *out, const struct lg_cmp_sys_row *rows, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isnan(rows[i].change_pct))
			fprintf(out, "%s%s%s", k++ ? ", " : "    also on one side only: ",
				rows[i].key, rows[i].counter ? "/s" : "");
	if (k)
		fputc('\n', out);
}

void lg_cmp_sys_print(FILE *out, const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
		      const struct lg_cmp_file *other, const struct lg_cmp_group *og)
{
	struct lg_cmp_sys_row rows[LG_CMP_SYS_ROWS + MORE_ROWS];
	size_t n;

	if (lg_cmp_sys_rows(base, bg, other, og, rows, LG_CMP_SYS_ROWS + MORE_ROWS, &n) || n == 0)
		return;
	fprintf(out, "  System counters that changed most (per second of measured time; "
		"ranked by %s):\n", ranking(base, bg, other, og, rows));
	for (size_t i = 0; i < n && i < LG_CMP_SYS_ROWS; i++) {
		const struct lg_cmp_sys_row *r = &rows[i];
		char chg[32], p[32], name[160], b[32], o[32];

		if (isnan(r->change_pct))
			snprintf(chg, sizeof(chg), "n/a");
		else if (isinf(r->change_pct))
			snprintf(chg, sizeof(chg), "new");
		else
			snprintf(chg, sizeof(chg), "%+.1f%%", r->change_pct);
		if (isnan(r->p))
			p[0] = '\0';
		else
			snprintf(p, sizeof(p), "p=%.2g", r->p);
		snprintf(name, sizeof(name), "%s%s", r->key, r->counter ? "/s" : "");
		fmt_mean(r->base, b, sizeof(b));
		fmt_mean(r->other, o, sizeof(o));
		fprintf(out, "    %9s  %-40s %14s -> %-14s %s\n", chg, name, b, o, p);
	}
	if (n > LG_CMP_SYS_ROWS)
		print_one_sided(out, rows + LG_CMP_SYS_ROWS, n - LG_CMP_SYS_ROWS);
}
