/* `loadgen history check FILE`: a new result against the stable segment of its series,
 * the results since the series' last change point, not against one baseline run.
 *
 * The question is whether the new result belongs to that segment. Its mean is set
 * against the segment's per-result means with a prediction interval: with the
 * segment's n means, mean m and standard deviation s, a new result of the same setup
 * falls within m +/- t(0.975, n-1) s sqrt(1 + 1/n) 95 % of the time (the t-based
 * prediction interval for one new observation of a normal sample). The p-value is the
 * same t's, two-sided. Using the spread between results (not between runs of one
 * result) is what makes this honest on a machine whose results move from night to
 * night: it is the spread the new result is subject to. A result already stored (the
 * same document) is left out of its own segment. */
#include "history_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loadgen/compare/compare_sys.h"
#include "loadgen/inference/inference.h"
#include "loadgen/model/cli.h"

#define EXIT_SLOWER LG_COMPARE_EXIT_SLOWER
#define EXIT_UNDECIDED LG_COMPARE_EXIT_UNDECIDED

/* How one client count of the file compares. */
struct check_one {
	unsigned clients;      /* the client count */
	long long series;      /* its series, 0: none */
	double value;          /* the file's mean there */
	size_t seg_n;          /* results in the stable segment */
	double seg_mean;       /* their mean */
	double seg_sd;         /* their standard deviation */
	char seg_since[128];   /* label (else stored date) of the segment's first result,
				  "" when the segment is empty */
	double change_pct;     /* 100 (value - seg_mean) / seg_mean */
	double lo_pct, hi_pct; /* its 95 % prediction interval */
	double p;              /* two-sided */
	const char *verdict;   /* "slower", "faster", "same", or "cannot tell" */
	bool fails;            /* slower by more than --fail-if-slower */
	char why[1536];        /* why it cannot tell, or "" */
	json_t *busy;          /* neighbours busy on one side only: strings (owned) */
};

/* The id of the stored result holding exactly doc, or 0. */
static long long stored_id(struct hist_db *h, const json_t *doc)
{
	char *s = json_dumps(doc, JSON_COMPACT);
	sqlite3_stmt *st;
	long long id = 0;

	if (s && sqlite3_prepare_v2(h->db, "SELECT id FROM results WHERE sha256 = ?", -1, &st,
				    NULL) == SQLITE_OK) {
		char sha[65];

		hist_sha256_hex(s, sha);
		sqlite3_bind_text(st, 1, sha, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) == SQLITE_ROW)
			id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	free(s);
	return id;
}

static void busy_notes(const struct lg_cmp_busy_note *note, void *ctx)
{
	json_array_append_new(ctx, json_string(note->text));
}

/* Decide one client count; the series s (with doc's own result removed). */
static void decide(struct hist_db *h, struct check_one *c, struct hist_series *s,
		   const struct hist_opts *o, const json_t *doc, const char *path)
{
	struct hist_analysis a;
	double t, half, tq, df;
	const double *x;

	c->verdict = "cannot tell";
	if (hist_analyse(s, &o->cp, &a)) {
		snprintf(c->why, sizeof(c->why), "its series could not be analysed");
		return;
	}
	c->seg_n = a.m - a.stable_from;
	x = a.x + a.stable_from;
	if (c->seg_n) {
		const struct hist_point *first = &s->pts[a.idx[a.stable_from]];

		snprintf(c->seg_since, sizeof(c->seg_since), "%s",
			 first->label ? first->label : first->stored_at);
	}
	if (c->seg_n < HIST_MIN_SEGMENT) {
		snprintf(c->why, sizeof(c->why), "the stable segment of series %lld has %zu "
			 "result%s%s; %d are needed", c->series, c->seg_n, c->seg_n == 1 ? "" : "s",
			 a.ncp ? " since its last change point" : "", HIST_MIN_SEGMENT);
		hist_analysis_free(&a);
		return;
	}
	c->seg_mean = lg_stat_mean(x, c->seg_n);
	c->seg_sd = lg_stat_stddev(x, c->seg_n);
	df = (double)c->seg_n - 1;
	half = c->seg_sd * sqrt(1 + 1 / (double)c->seg_n);
	tq = lg_stat_t_quantile(0.975, df);
	c->change_pct = 100 * (c->value - c->seg_mean) / c->seg_mean;
	c->lo_pct = 100 * (c->value - c->seg_mean - tq * half) / c->seg_mean;
	c->hi_pct = 100 * (c->value - c->seg_mean + tq * half) / c->seg_mean;
	if (half > 0) {
		t = (c->value - c->seg_mean) / half;
		c->p = lg_stat_t_two_sided(t, df);
	} else {
		c->p = c->value == c->seg_mean ? 1 : 0;
	}
	c->verdict = c->p >= o->cp.alpha ? "same" : c->change_pct < 0 ? "slower" : "faster";
	c->fails = strcmp(c->verdict, "slower") == 0 && isfinite(o->slower_pct) &&
		   -c->change_pct > o->slower_pct;
	/* who was busy beside the new result and not beside the segment's latest */
	{
		json_t *last = hist_store_doc(h, s->pts[a.idx[a.m - 1]].result_id);
		char name[64];

		snprintf(name, sizeof(name), "series %lld's latest result", c->series);
		if (last)
			lg_cmp_busy_notes(last, name, doc, path, busy_notes, c->busy);
		json_decref(last);
	}
	hist_analysis_free(&a);
}

static void drop_result(struct hist_series *s, long long result_id)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (s->pts[i].result_id == result_id)
			hist_point_clear(&s->pts[i]);
		else
			s->pts[k++] = s->pts[i];
	}
	s->n = k;
}

static json_t *one_json(const struct check_one *c)
{
	bool known = strcmp(c->verdict, "cannot tell") != 0;

	return json_pack("{s:I, s:o, s:f, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:b, "
			 "s:o}",
			 "clients", (json_int_t)c->clients,
			 "series", c->series ? json_integer(c->series) : json_null(),
			 "value", c->value, "segment_results", (json_int_t)c->seg_n,
			 "segment_since", c->seg_since[0] ? json_string(c->seg_since) : json_null(),
			 "segment_mean", known ? json_real(c->seg_mean) : json_null(),
			 "segment_sd", known ? json_real(c->seg_sd) : json_null(),
			 "change_pct", known ? json_real(c->change_pct) : json_null(),
			 "prediction_pct", known ? json_pack("[f, f]", c->lo_pct, c->hi_pct) :
			 json_null(), "p", known ? json_real(c->p) : json_null(),
			 "why", c->why[0] ? json_string(c->why) : json_null(),
			 "verdict", c->verdict, "fails", c->fails, "busy", c->busy ? json_incref(c->busy) :
			 json_array());
}

static void print_one(const struct check_one *c, const char *path, const char *unit,
		      const struct hist_opts *o)
{
	size_t i;
	json_t *b;

	printf("%s, %u clients: %.1f %s", path, c->clients, c->value, unit);
	if (!c->series) {
		printf(": %s\n", c->why);
		return;
	}
	if (strcmp(c->verdict, "cannot tell") == 0) {
		printf(": cannot tell: %s\n", c->why);
		return;
	}
	printf("; series %lld's stable segment: %zu results since %s, mean %.1f %s "
	       "(sd %.1f %%)\n", c->series, c->seg_n, c->seg_since,
	       c->seg_mean, unit, 100 * c->seg_sd / c->seg_mean);
	printf("  change %+.1f %% (95 %% prediction interval %+.1f to %+.1f %%), p %.3g: %s",
	       c->change_pct, c->lo_pct, c->hi_pct, c->p,
	       strcmp(c->verdict, "same") == 0 ? "within the segment's spread" : c->verdict);
	if (c->fails)
		printf(" by more than %g %% (--fail-if-slower): FAIL", o->slower_pct);
	else if (strcmp(c->verdict, "slower") == 0 && isfinite(o->slower_pct))
		printf(", but by no more than %g %% (--fail-if-slower)", o->slower_pct);
	putchar('\n');
	json_array_foreach(c->busy, i, b)
		printf("  %s\n", json_string_value(b));
}

static int check_file(struct hist_db *h, const char *path, const struct hist_opts *o)
{
	struct check_one *c = NULL;
	struct lg_cmp_file f;
	char err[1024];
	json_t *groups = NULL;
	long long self;
	bool undecided = false, fails = false;
	int rc;

	rc = lg_cmp_file_load(path, &f, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "loadgen history: %s\n", err);
		return LG_EXIT_USAGE;
	}
	self = stored_id(h, f.doc);
	c = calloc(f.ngroups, sizeof(*c));
	groups = json_array();
	if (!c || !groups) {
		rc = 1;
		goto out;
	}
	for (size_t i = 0; i < f.ngroups; i++) {
		const struct lg_cmp_group *g = &f.groups[i];
		json_t *key = hist_series_key(f.doc, g->clients);
		struct hist_filter flt = { 0 };
		struct hist_series *s = NULL;
		size_t n = 0;

		c[i].clients = g->clients;
		c[i].verdict = "cannot tell";
		c[i].busy = json_array();
		c[i].value = lg_stat_mean(o->metric == HIST_OPS ? g->ops : g->mbps, g->n);
		c[i].series = key ? hist_store_find_series(h, key) : 0;
		if (!c[i].series) {
			char reason[1024] = "";

			if (key)
				hist_series_reason(h, key, reason, sizeof(reason));
			snprintf(c[i].why, sizeof(c[i].why), "no comparable results stored (%s)",
				 reason);
		}
		json_decref(key);
		if (c[i].series) {
			flt.series = c[i].series;
			if (hist_store_series(h, &flt, o->metric, o->order, &s, &n, err,
					      sizeof(err)) == 0 && n == 1) {
				if (self)
					drop_result(&s[0], self);
				decide(h, &c[i], &s[0], o, f.doc, path);
			}
			hist_series_free(s, n);
		}
		undecided |= strcmp(c[i].verdict, "cannot tell") == 0;
		fails |= c[i].fails;
		json_array_append_new(groups, one_json(&c[i]));
	}
	if (o->json) {
		json_t *doc = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:O}", "schema",
					HIST_CHECK_SCHEMA, "file", path, "db", h->path,
					"metric", o->metric == HIST_OPS ? "ops_per_s" :
					"throughput_mbps", "fail_if_slower_pct",
					isfinite(o->slower_pct) ? json_real(o->slower_pct) : json_null(),
					"self_result_id", self ? json_integer(self) : json_null(),
					"results", groups);

		json_dumpf(doc, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(doc);
	} else {
		for (size_t i = 0; i < f.ngroups; i++)
			print_one(&c[i], path, o->metric == HIST_OPS ? "ops/s" : "MB/s", o);
	}
	rc = 0;
	if (isfinite(o->slower_pct))
		rc = fails ? EXIT_SLOWER : undecided ? EXIT_UNDECIDED : 0;
out:
	for (size_t i = 0; c && i < f.ngroups; i++)
		json_decref(c[i].busy);
	free(c);
	json_decref(groups);
	lg_cmp_file_release(&f);
	return rc;
}

int hist_check(const struct hist_opts *o, const char *file)
{
	char path[4096];
	struct hist_db h;
	int rc;

	rc = hist_open_db(o->db, false, &h, path, sizeof(path));
	if (rc)
		return rc == LG_EXIT_USAGE && isfinite(o->slower_pct) && access(path, F_OK) != 0 ?
			EXIT_UNDECIDED : rc;
	rc = check_file(&h, file, o);
	hist_db_close(&h);
	return rc;
}
