/* Adding results to the store and reading series back.
 *
 * A result file becomes one row of results (label, environment, the whole document, so
 * nothing needs the JSON files later) and one point per client count, each in its
 * series with its figures, per-run values, per-op latency and system counters. One add
 * is one IMMEDIATE transaction: concurrent writers queue (busy timeout) instead of
 * failing, and a reader never sees half a result. */
#include "history_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nettle/sha2.h>

#include "loadgen/inference/inference.h"
#include "loadgen/model/errf.h"
#include "loadgen/model/version.h"

void hist_sha256_hex(const char *s, char out[65])
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_init(&ctx);
	sha256_update(&ctx, strlen(s), (const uint8_t *)s);
	sha256_digest(&ctx, sizeof(d), d);
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void now_utc(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const char *env_str(const json_t *doc, const char *k)
{
	return json_string_value(json_object_get(json_object_get(doc, "env"), k));
}

/* Bind text or NULL. */
static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Run a statement to completion; SQLITE_DONE -> 0. */
static int step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -EIO;
}

long long hist_store_find_series(struct hist_db *h, const json_t *key)
{
	char *k = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
	sqlite3_stmt *st;
	long long id = 0;

	if (!k)
		return 0;
	if (sqlite3_prepare_v2(h->db, "SELECT id FROM series WHERE key = ?", -1, &st, NULL) ==
	    SQLITE_OK) {
		sqlite3_bind_text(st, 1, k, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) == SQLITE_ROW)
			id = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	free(k);
	return id;
}

/* The series of key, made when new (why: into reason, else ""). */
static long long series_of(struct hist_db *h, const json_t *key, char *reason, size_t len)
{
	const json_t *env = json_object_get(key, "env");
	char *k, now[32];
	sqlite3_stmt *st;
	long long id = hist_store_find_series(h, key);

	*reason = '\0';
	if (id)
		return id;
	hist_series_reason(h, key, reason, len);
	k = json_dumps(key, JSON_COMPACT | JSON_SORT_KEYS);
	if (!k || sqlite3_prepare_v2(h->db, "INSERT INTO series (key, hostname, workload, "
				     "clients, fs_type, device, mount_options, created_at) VALUES "
				     "(?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK) {
		free(k);
		return -1;
	}
	now_utc(now, sizeof(now));
	sqlite3_bind_text(st, 1, k, -1, SQLITE_TRANSIENT);
	bind_text(st, 2, json_string_value(json_object_get(env, "hostname")));
	bind_text(st, 3, json_string_value(json_object_get(json_object_get(key, "workload"),
							   "name")));
	sqlite3_bind_int64(st, 4, json_integer_value(json_object_get(key, "clients")));
	bind_text(st, 5, json_string_value(json_object_get(env, "fs_type")));
	bind_text(st, 6, json_string_value(json_object_get(env, "device")));
	bind_text(st, 7, json_string_value(json_object_get(env, "mount_options")));
	bind_text(st, 8, now);
	free(k);
	if (step_done(st))
		return -1;
	return sqlite3_last_insert_rowid(h->db);
}

/* "complete", or the first other status among the group's runs. */
static const char *group_status(const struct lg_cmp_file *f, const struct lg_cmp_group *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const char *s = json_string_value(json_object_get(json_array_get(f->runs, g->runs[i]),
								  "status"));

		if (s && strcmp(s, "complete") != 0)
			return s;
	}
	return "complete";
}

static char *values_json(const double *v, size_t n)
{
	json_t *a = json_array();
	char *s;

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	s = a ? json_dumps(a, JSON_COMPACT) : NULL;
	json_decref(a);
	return s;
}

static int insert_point(struct hist_db *h, long long result_id, long long series_id,
			const struct lg_cmp_file *f, const struct lg_cmp_group *g,
			long long *point_id)
{
	struct lg_stat_summary m, o;
	char *mv = values_json(g->mbps, g->n), *ov = values_json(g->ops, g->n);
	sqlite3_stmt *st;
	int rc = -EIO;

	lg_stat_summarize(g->mbps, g->n, &m);
	lg_stat_summarize(g->ops, g->n, &o);
	if (!mv || !ov || sqlite3_prepare_v2(h->db, "INSERT INTO points (result_id, series_id, "
		"clients, runs, status, mbps_mean, mbps_sd, mbps_ci_lo, mbps_ci_hi, mbps_runs, "
		"ops_mean, ops_sd, ops_ci_lo, ops_ci_hi, ops_runs) VALUES "
		"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(st, 1, result_id);
	sqlite3_bind_int64(st, 2, series_id);
	sqlite3_bind_int64(st, 3, g->clients);
	sqlite3_bind_int64(st, 4, (long long)g->n);
	bind_text(st, 5, group_status(f, g));
	bind_real(st, 6, m.mean);
	bind_real(st, 7, m.stddev);
	bind_real(st, 8, m.ci95_lo);
	bind_real(st, 9, m.ci95_hi);
	bind_text(st, 10, mv);
	bind_real(st, 11, o.mean);
	bind_real(st, 12, o.stddev);
	bind_real(st, 13, o.ci95_lo);
	bind_real(st, 14, o.ci95_hi);
	bind_text(st, 15, ov);
	rc = step_done(st);
	*point_id = sqlite3_last_insert_rowid(h->db);
out:
	free(mv);
	free(ov);
	return rc;
}

/* p50/p99/max of every op type over the group's runs. */
static int insert_latency(struct hist_db *h, long long point_id, const struct lg_cmp_file *f,
			  const struct lg_cmp_group *g)
{
	json_t *labels = lg_cmp_op_labels(f, f), *v;
	const char *op;
	int rc = labels ? 0 : -ENOMEM;

	json_object_foreach(labels, op, v) {
		struct lg_cmp_latency l;
		sqlite3_stmt *st;

		if (lg_cmp_latency_group(f, g, op, &l) || !l.count)
			continue;
		if (sqlite3_prepare_v2(h->db, "INSERT INTO op_latency VALUES (?, ?, ?, ?, ?, ?)", -1,
				       &st, NULL) != SQLITE_OK) {
			rc = -EIO;
			break;
		}
		sqlite3_bind_int64(st, 1, point_id);
		sqlite3_bind_text(st, 2, op, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 3, (long long)l.count);
		if (l.have_pct) {
			sqlite3_bind_int64(st, 4, (long long)l.p50_ns);
			sqlite3_bind_int64(st, 5, (long long)l.p99_ns);
		}
		sqlite3_bind_int64(st, 6, (long long)l.max_ns);
		rc = step_done(st);
		if (rc)
			break;
	}
	json_decref(labels);
	return rc;
}

/* The system monitor over the group's runs: counters per second of the runs' summed
 * seconds, gauges as the mean of the runs' means. */
static int insert_sys(struct hist_db *h, long long point_id, const struct lg_cmp_file *f,
		      const struct lg_cmp_group *g)
{
	json_t *sums = json_object(), *v;
	const char *name;
	double seconds = 0;
	size_t ngauge = 0;
	int rc = sums ? 0 : -ENOMEM;

	for (size_t i = 0; rc == 0 && i < g->n; i++) {
		const json_t *s = json_object_get(json_array_get(f->runs, g->runs[i]), "sys_summary");
		static const char *const kinds[] = { "counters", "gauges" };

		if (!json_is_object(s))
			continue;
		seconds += json_number_value(json_object_get(s, "seconds"));
		ngauge++;
		for (size_t k = 0; k < 2; k++) {
			json_object_foreach(json_object_get(s, kinds[k]), name, v) {
				char full[160];
				json_t *sum;

				snprintf(full, sizeof(full), "%s.%s", kinds[k], name);
				sum = json_object_get(sums, full);
				json_object_set_new(sums, full, json_real(json_number_value(v) +
						   (sum ? json_real_value(sum) : 0)));
			}
		}
	}
	json_object_foreach(sums, name, v) {
		double div = strncmp(name, "counters.", 9) == 0 ? seconds : (double)ngauge;
		sqlite3_stmt *st;

		if (div <= 0)
			continue;
		if (sqlite3_prepare_v2(h->db, "INSERT INTO sys_counters VALUES (?, ?, ?)", -1, &st,
				       NULL) != SQLITE_OK) {
			rc = -EIO;
			break;
		}
		sqlite3_bind_int64(st, 1, point_id);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 3, json_real_value(v) / div);
		rc = step_done(st);
		if (rc)
			break;
	}
	json_decref(sums);
	return rc;
}

/* The result row; its id into *id, or 0 with *dup the existing one's when the same
 * document is stored already. */
static int insert_result(struct hist_db *h, const struct lg_cmp_file *f, const char *src,
			 const char *label, const char *doc, long long *id, long long *dup)
{
	char sha[65], now[32], *env = json_dumps(json_object_get(f->doc, "env"), JSON_COMPACT);
	sqlite3_stmt *st;
	int rc = -EIO;

	*id = *dup = 0;
	hist_sha256_hex(doc, sha);
	if (!env || sqlite3_prepare_v2(h->db, "SELECT id FROM results WHERE sha256 = ?", -1, &st,
				       NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, sha, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		*dup = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (*dup) {
		rc = 0;
		goto out;
	}
	if (sqlite3_prepare_v2(h->db, "INSERT INTO results (stored_at, started_at, label, kernel,"
			       " hostname, source, sha256, env, doc) VALUES "
			       "(?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	now_utc(now, sizeof(now));
	sqlite3_bind_text(st, 1, now, -1, SQLITE_TRANSIENT);
	bind_text(st, 2, env_str(f->doc, "start_time"));
	bind_text(st, 3, label);
	bind_text(st, 4, env_str(f->doc, "kernel"));
	bind_text(st, 5, env_str(f->doc, "hostname"));
	bind_text(st, 6, src);
	bind_text(st, 7, sha);
	bind_text(st, 8, env);
	sqlite3_bind_text(st, 9, doc, -1, SQLITE_STATIC);
	rc = step_done(st);
	*id = sqlite3_last_insert_rowid(h->db);
out:
	free(env);
	return rc;
}

int hist_store_add(struct hist_db *h, const struct lg_cmp_file *f, const char *src,
		   const char *label, FILE *out, char *err, size_t errlen)
{
	char *doc = json_dumps(f->doc, JSON_COMPACT);
	char reason[1024] = "", title[512];
	long long id, dup, *series = calloc(f->ngroups, sizeof(*series));
	char (*reasons)[1024] = calloc(f->ngroups, sizeof(*reasons)); /* why each is new */
	size_t ng = f->ngroups;
	int rc;

	if (!doc || !reasons || !series) {
		free(doc);
		free(reasons);
		free(series);
		return lg_errf(err, errlen, -ENOMEM, "%s: out of memory", src);
	}
	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		free(reasons);
		free(series);
		free(doc);
		return hist_db_err(h, -EIO, err, errlen, "cannot lock it to add a result");
	}
	rc = insert_result(h, f, src, label, doc, &id, &dup);
	free(doc);
	if (rc || dup)
		goto end;
	for (size_t i = 0; i < ng; i++) {
		const struct lg_cmp_group *g = &f->groups[i];
		json_t *key = hist_series_key(f->doc, g->clients);
		long long point;

		series[i] = key ? series_of(h, key, reason, sizeof(reason)) : -1;
		json_decref(key);
		snprintf(reasons[i], sizeof(reasons[i]), "%s", reason);
		if (series[i] < 0 || insert_point(h, id, series[i], f, g, &point) ||
		    insert_latency(h, point, f, g) || insert_sys(h, point, f, g)) {
			rc = -EIO;
			goto end;
		}
	}
end:
	if (rc || dup) {
		if (rc)
			hist_db_err(h, rc, err, errlen, "cannot add the result");
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		if (dup)
			fprintf(out, "%s: already stored as result %lld (the same document); not "
				"added again\n", src, dup);
		free(reasons);
		free(series);
		return rc ? rc : 1;
	}
	if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		rc = hist_db_err(h, -EIO, err, errlen, "cannot commit the result");
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		free(reasons);
		free(series);
		return rc;
	}
	for (size_t i = 0; i < ng; i++) {
		json_t *key = hist_series_key(f->doc, f->groups[i].clients);

		title[0] = '\0';
		if (key)
			hist_series_title(key, title, sizeof(title));
		json_decref(key);
		fprintf(out, "%s: stored as result %lld%s%s, series %lld (%s)%s%s\n", src, id,
			label ? " labelled " : "", label ? label : "", series[i], title,
			reasons[i][0] ? ": a new series, " : "", reasons[i]);
	}
	free(reasons);
	free(series);
	return 0;
}

void hist_point_clear(struct hist_point *p)
{
	free(p->label);
	free(p->kernel);
	free(p->stored_at);
	free(p->started_at);
	free(p->status);
	json_decref(p->values);
	memset(p, 0, sizeof(*p));
}

void hist_series_free(struct hist_series *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++) {
		for (size_t j = 0; j < s[i].n; j++)
			hist_point_clear(&s[i].pts[j]);
		free(s[i].pts);
		json_decref(s[i].key);
	}
	free(s);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? strdup((const char *)t) : NULL;
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* Label order: the label, else the kernel; as versions, ties in the order stored. */
static int by_version(const void *a, const void *b)
{
	const struct hist_point *pa = a, *pb = b;
	const char *la = pa->label ? pa->label : pa->kernel ? pa->kernel : "";
	const char *lb = pb->label ? pb->label : pb->kernel ? pb->kernel : "";
	int c = lg_version_cmp(la, lb);

	if (c)
		return c;
	return pa->point_id < pb->point_id ? -1 : pa->point_id > pb->point_id;
}

static int load_points(struct hist_db *h, struct hist_series *s, enum hist_metric m,
		       enum hist_order order)
{
	static const char *const sql[] = {
		[HIST_MBPS] = "SELECT p.id, r.id, r.label, r.kernel, r.stored_at, r.started_at, "
			"p.status, p.runs, p.mbps_mean, p.mbps_ci_lo, p.mbps_ci_hi, p.mbps_runs "
			"FROM points p JOIN results r ON r.id = p.result_id WHERE p.series_id = ? "
			"ORDER BY p.id",
		[HIST_OPS] = "SELECT p.id, r.id, r.label, r.kernel, r.stored_at, r.started_at, "
			"p.status, p.runs, p.ops_mean, p.ops_ci_lo, p.ops_ci_hi, p.ops_runs "
			"FROM points p JOIN results r ON r.id = p.result_id WHERE p.series_id = ? "
			"ORDER BY p.id",
	};
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (sqlite3_prepare_v2(h->db, sql[m], -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, s->id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct hist_point *p;
		const unsigned char *v;

		if (s->n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			void *np = realloc(s->pts, ncap * sizeof(*s->pts));

			if (!np) {
				sqlite3_finalize(st);
				return -ENOMEM;
			}
			s->pts = np;
			cap = ncap;
		}
		p = &s->pts[s->n++];
		memset(p, 0, sizeof(*p));
		p->point_id = sqlite3_column_int64(st, 0);
		p->result_id = sqlite3_column_int64(st, 1);
		p->label = col_dup(st, 2);
		p->kernel = col_dup(st, 3);
		p->stored_at = col_dup(st, 4);
		p->started_at = col_dup(st, 5);
		p->status = col_dup(st, 6);
		p->runs = (size_t)sqlite3_column_int64(st, 7);
		p->mean = col_real(st, 8);
		p->ci_lo = col_real(st, 9);
		p->ci_hi = col_real(st, 10);
		v = sqlite3_column_text(st, 11);
		p->values = v ? json_loads((const char *)v, 0, NULL) : NULL;
		if (!p->values)
			p->values = json_array();
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -EIO;
	if (order == HIST_ORDER_VERSION && s->n > 1)
		qsort(s->pts, s->n, sizeof(*s->pts), by_version);
	return 0;
}

int hist_store_series(struct hist_db *h, const struct hist_filter *flt, enum hist_metric m,
		      enum hist_order order, struct hist_series **out, size_t *n, char *err,
		      size_t errlen)
{
	sqlite3_stmt *st;
	struct hist_series *s = NULL;
	size_t cnt = 0, cap = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(h->db, "SELECT id, key FROM series WHERE (?1 IS NULL OR workload "
			       "= ?1) AND (?2 = 0 OR clients = ?2) AND (?3 IS NULL OR hostname = "
			       "?3) AND (?4 = 0 OR id = ?4) ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return hist_db_err(h, -EIO, err, errlen, "cannot read the series");
	bind_text(st, 1, flt->workload);
	sqlite3_bind_int64(st, 2, flt->clients);
	bind_text(st, 3, flt->host);
	sqlite3_bind_int64(st, 4, flt->series);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *k = sqlite3_column_text(st, 1);

		if (cnt == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			void *np = realloc(s, ncap * sizeof(*s));

			if (!np) {
				rc = -ENOMEM;
				break;
			}
			s = np;
			cap = ncap;
		}
		memset(&s[cnt], 0, sizeof(s[cnt]));
		s[cnt].id = sqlite3_column_int64(st, 0);
		s[cnt].key = k ? json_loads((const char *)k, 0, NULL) : NULL;
		cnt++;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; rc == 0 && i < cnt; i++)
		rc = load_points(h, &s[i], m, order);
	if (rc) {
		hist_series_free(s, cnt);
		return hist_db_err(h, rc, err, errlen, "cannot read the series");
	}
	*out = s;
	*n = cnt;
	return 0;
}

json_t *hist_store_doc(struct hist_db *h, long long result_id)
{
	sqlite3_stmt *st;
	json_t *doc = NULL;

	if (sqlite3_prepare_v2(h->db, "SELECT doc FROM results WHERE id = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, result_id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		doc = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
	sqlite3_finalize(st);
	return doc;
}
