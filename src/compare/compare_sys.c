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
 * past the rows shown are named on one line below them.
 *
 * A multi-host result also has each host's own summary (hosts[].sys_summary): below the
 * run's rows, each host's summary is compared with the same host's (matched by name) in
 * the same way, and the largest changes of all hosts are listed with the host's name. A
 * key that changed alike on every host (same direction, within a factor of 2) is the
 * run's change, not a host's, and is left out there. */
#include "loadgen/compare/compare_sys.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/inference/inference.h"

#define MAX_RUNS 1024 /* runs of one file looked at */
#define MORE_ROWS 256 /* rows looked at past those shown, for keys on one side only */

/* The rows being built, and the keys already looked at. */
struct rows {
	const struct lg_cmp_file *base, *other;
	const char *host;   /* a host's own summaries (hosts[].sys_summary), or NULL: the
			       run's sys_summary */
	const struct lg_cmp_group *bg, *og; /* the runs of each file looked at; NULL: all */
	double *vb, *vo;  /* room for MAX_RUNS values of each side */
	json_t *seen;     /* the keys of the group looked at (as keys; values unused) */
	struct lg_cmp_sys_row *v; /* the rows kept (owned) */
	size_t n, cap;    /* rows kept, room in v */
};

/* How many runs of f group g holds (every run of f when g is NULL), at most MAX_RUNS. */
static size_t nruns(const struct lg_cmp_file *f, const struct lg_cmp_group *g)
{
	size_t n = g ? g->n : json_array_size(f->runs);

	return n < MAX_RUNS ? n : MAX_RUNS;
}

/* The hosts[] entry of run named host, or NULL. */
static const json_t *host_of(const json_t *run, const char *host)
{
	const json_t *h;
	size_t i;

	json_array_foreach(json_object_get(run, "hosts"), i, h)
		if (json_is_string(json_object_get(h, "host")) &&
		    strcmp(json_string_value(json_object_get(h, "host")), host) == 0)
			return h;
	return NULL;
}

/* The "sys_summary" of the j-th run of group g of f (g NULL: of f; host non-NULL: that
 * host's own, in hosts[]) when it counts: with measured seconds (without them counters
 * cannot be per second, and gauges alone would make the rows of one file come from
 * different runs); else NULL. */
static const json_t *summary_of(const struct lg_cmp_file *f, const struct lg_cmp_group *g,
				size_t j, const char *host)
{
	const json_t *run = json_array_get(f->runs, g ? g->runs[j] : j);
	const json_t *s = json_object_get(host ? host_of(run, host) : run, "sys_summary");

	if (!(json_number_value(json_object_get(s, "seconds")) > 0))
		return NULL;
	return s;
}

/* How many runs of group g of f count (summary_of). */
static size_t summaries(const struct lg_cmp_file *f, const struct lg_cmp_group *g,
			const char *host)
{
	size_t n = 0;

	for (size_t j = 0; j < nruns(f, g); j++)
		n += summary_of(f, g, j, host) != NULL;
	return n;
}

/* The values of key in every counted run of group g of f that has it: per second for
 * counters. */
static size_t values(const struct lg_cmp_file *f, const struct lg_cmp_group *g,
		     const char *host, const char *group, const char *key, double *out)
{
	size_t n = 0;

	for (size_t j = 0; j < nruns(f, g); j++) {
		const json_t *s = summary_of(f, g, j, host);
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
static bool fill_row(struct rows *rs, const char *group, const char *key,
		     struct lg_cmp_sys_row *r)
{
	size_t nb = values(rs->base, rs->bg, rs->host, group, key, rs->vb);
	size_t no = values(rs->other, rs->og, rs->host, group, key, rs->vo);
	struct lg_welch w;

	if (!nb && !no)
		return false;
	*r = (struct lg_cmp_sys_row){ .key = key, .counter = group[0] == 'c',
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
		struct lg_cmp_sys_row *p = realloc(rs->v, cap * sizeof(*p));

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

		json_object_foreach(json_object_get(summary_of(f, g, j, rs->host), group), key, v) {
			if ((rc = add_key(rs, group, key)))
				break;
		}
	}
	return rc;
}

/* Most significant first; without p-values, largest change first; one-sided keys last. */
static int by_significance(const void *pa, const void *pb)
{
	const struct lg_cmp_sys_row *a = pa, *b = pb;
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

/* The rows of the summaries of host (NULL: the runs'), most significant first. */
static int host_rows(const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
		     const struct lg_cmp_file *other, const struct lg_cmp_group *og,
		     const char *host, struct lg_cmp_sys_row *out, size_t max, size_t *n)
{
	static const char *const groups[] = { "counters", "gauges" };
	struct rows rs = { .base = base, .other = other, .bg = bg, .og = og, .host = host,
			   .vb = malloc(MAX_RUNS * sizeof(double)),
			   .vo = malloc(MAX_RUNS * sizeof(double)) };
	int rc = rs.vb && rs.vo ? 0 : -ENOMEM;
	/* a file without summaries (--monitor off) has nothing to set against the other's */
	bool both = summaries(base, bg, host) && summaries(other, og, host);

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
		out[(*n)++] = rs.v[i];
	free(rs.v);
	free(rs.vb);
	free(rs.vo);
	return rc;
}

int lg_cmp_sys_rows(const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
		    const struct lg_cmp_file *other, const struct lg_cmp_group *og,
		    struct lg_cmp_sys_row *out, size_t max, size_t *n)
{
	return host_rows(base, bg, other, og, NULL, out, max, n);
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
	if (summaries(base, bg, NULL) < 2 || summaries(other, og, NULL) < 2)
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

/* One row: change, (host,) key, the two means, the p-value. */
static void print_row(FILE *out, const struct lg_cmp_sys_row *r, const char *host)
{
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
	if (host)
		fprintf(out, "    %9s  %-12s %-32s %14s -> %-14s %s\n", chg, host, name, b, o, p);
	else
		fprintf(out, "    %9s  %-40s %14s -> %-14s %s\n", chg, name, b, o, p);
}

/* --- Per host: each host's own summary (hosts[].sys_summary) against its own --- */

/* A row of one host. */
struct host_row {
	const char *host;         /* its name (borrowed from base) */
	struct lg_cmp_sys_row r;  /* its key's comparison on that host */
};

/* How a key changed across the hosts: alike on every host (the run's change, which the
 * block above shows), or not (some host's own). */
struct key_spread {
	size_t hosts;   /* hosts with a change of the key */
	double lo, hi;  /* smallest and largest change_pct among them */
};

/* The hosts[] of the first run of group g of f with two hosts or more, or NULL. */
static const json_t *hosts_of(const struct lg_cmp_file *f, const struct lg_cmp_group *g)
{
	for (size_t j = 0; j < nruns(f, g); j++) {
		const json_t *h = json_object_get(json_array_get(f->runs, g ? g->runs[j] : j),
						  "hosts");

		if (json_array_size(h) > 1)
			return h;
	}
	return NULL;
}

/* Whether the change of r's key was alike on all nhosts hosts: on each, in the same
 * direction and within a factor of 2 (or new on each). */
static bool alike(const struct key_spread *k, size_t nhosts)
{
	if (k->hosts < nhosts || k->lo * k->hi <= 0)
		return false;
	if (isinf(k->lo) || isinf(k->hi))
		return isinf(k->lo) && isinf(k->hi);
	return fabs(k->hi) <= 2 * fabs(k->lo) && fabs(k->lo) <= 2 * fabs(k->hi);
}

static int by_host_significance(const void *pa, const void *pb)
{
	const struct host_row *a = pa, *b = pb;
	int c = by_significance(&a->r, &b->r);

	return c ? c : strcmp(a->host, b->host);
}

/* Every host's changed keys (on both sides) into v (*n rows, realloc'd), and the spread
 * of each key across hosts in spread (key -> index into *ks). 0 or -ENOMEM. */
static int collect_hosts(const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
			 const struct lg_cmp_file *other, const struct lg_cmp_group *og,
			 const json_t *hosts, struct host_row **v, size_t *n, json_t *spread,
			 struct key_spread **ks)
{
	struct lg_cmp_sys_row *rows = malloc(MORE_ROWS * 4 * sizeof(*rows));
	size_t i, m, nk = 0;
	const json_t *h;
	int rc = rows ? 0 : -ENOMEM;

	json_array_foreach(rc ? NULL : hosts, i, h) {
		const char *name = json_string_value(json_object_get(h, "host"));
		struct host_row *p;

		if (!name)
			continue;
		if ((rc = host_rows(base, bg, other, og, name, rows, MORE_ROWS * 4, &m)))
			break;
		p = realloc(*v, (*n + m + 1) * sizeof(**v));
		*ks = p ? realloc(*ks, (nk + m + 1) * sizeof(**ks)) : *ks;
		if (!p || !*ks) {
			*v = p ? p : *v;
			rc = -ENOMEM;
			break;
		}
		*v = p;
		for (size_t k = 0; k < m; k++) {
			const json_t *at = json_object_get(spread, rows[k].key);
			size_t x = at ? (size_t)json_integer_value(at) : nk;
			double c = rows[k].change_pct;

			if (isnan(c)) /* on one side only: nothing to rank */
				continue;
			if (!at && json_object_set_new(spread, rows[k].key, json_integer((json_int_t)nk++)))
				rc = -ENOMEM;
			if (!at)
				(*ks)[x] = (struct key_spread){ 0, c, c };
			(*ks)[x].hosts++;
			(*ks)[x].lo = c < (*ks)[x].lo ? c : (*ks)[x].lo;
			(*ks)[x].hi = c > (*ks)[x].hi ? c : (*ks)[x].hi;
			(*v)[(*n)++] = (struct host_row){ name, rows[k] };
		}
	}
	free(rows);
	return rc;
}

/* The per-host block: each host's own counters that changed most, the changes alike on
 * every host left out (they are the run's, shown above). */
static void print_hosts(FILE *out, const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
			const struct lg_cmp_file *other, const struct lg_cmp_group *og)
{
	const json_t *hosts = hosts_of(base, bg);
	json_t *spread = hosts && hosts_of(other, og) ? json_object() : NULL;
	struct key_spread *ks = NULL;
	struct host_row *v = NULL;
	size_t n = 0, kept = 0;

	if (spread && collect_hosts(base, bg, other, og, hosts, &v, &n, spread, &ks) == 0) {
		for (size_t i = 0; i < n; i++) {
			const json_t *at = json_object_get(spread, v[i].r.key);

			if (!alike(&ks[json_integer_value(at)], json_array_size(hosts)))
				v[kept++] = v[i];
		}
		if (kept)
			qsort(v, kept, sizeof(*v), by_host_significance);
		if (kept)
			fprintf(out, "  Per-host system counters that changed most (each host's own "
				"summary; changes alike on every host left out; ranked by %s):\n",
				isnan(v[0].r.p) ? "size of change" : "p-value, then size of change");
		for (size_t i = 0; i < kept && i < LG_CMP_SYS_ROWS; i++)
			print_row(out, &v[i].r, v[i].host);
	}
	json_decref(spread);
	free(ks);
	free(v);
}

void lg_cmp_sys_print(FILE *out, const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
		      const struct lg_cmp_file *other, const struct lg_cmp_group *og)
{
	struct lg_cmp_sys_row rows[LG_CMP_SYS_ROWS + MORE_ROWS];
	size_t n;

	if (lg_cmp_sys_rows(base, bg, other, og, rows, LG_CMP_SYS_ROWS + MORE_ROWS, &n) == 0 &&
	    n > 0) {
		fprintf(out, "  System counters that changed most (per second of measured time; "
			"ranked by %s):\n", ranking(base, bg, other, og, rows));
		for (size_t i = 0; i < n && i < LG_CMP_SYS_ROWS; i++)
			print_row(out, &rows[i], NULL);
		if (n > LG_CMP_SYS_ROWS)
			print_one_sided(out, rows + LG_CMP_SYS_ROWS, n - LG_CMP_SYS_ROWS);
	}
	print_hosts(out, base, bg, other, og);
}
