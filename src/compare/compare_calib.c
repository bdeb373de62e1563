/* The calibration store: a machine's batch-to-batch spread per workload and setup
 * (calibration.h), and how compare adds it to a comparison of one batch against one.
 *
 * Why a variance component and not a fudge factor: two batches of one setup differ by
 * their runs' noise (s^2/n each) plus twice the between-batch variance sigma_b^2, which
 * a single batch per side cannot estimate. An A/A calibration estimates sigma_b^2 (runs
 * nested in batches, batch_variance.c); it is stored relative to the mean (the
 * kernels compared may differ in speed) and joins the standard error with
 * Welch-Satterthwaite degrees of freedom, its own being batches - 1. */
#include "loadgen/compare/calibration.h"
#include "loadgen/model/errf.h"
#include "loadgen/model/paths.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_BATCHES_PLANNED 1000 /* most batches per side suggested */

int lg_calib_default_path(char *buf, size_t len)
{
	return lg_path_user_data("calibration.json", buf, len);
}

/* Copy key k of object from (when there) into object to. */
static int copy_keys(json_t *to, const json_t *from, const char *const *keys)
{
	for (size_t i = 0; keys[i]; i++) {
		json_t *v = json_object_get(from, keys[i]);

		if (v && json_object_set_new(to, keys[i], json_deep_copy(v)))
			return -ENOMEM;
	}
	return 0;
}

json_t *lg_calib_key(const json_t *doc, unsigned clients)
{
	/* what makes batches comparable; the kernel is left out on purpose, and so is the
	 * memory size (each kernel reserves a little more or less of it) */
	static const char *const env[] = { "hostname", "arch", "cpu_model", "cpus",
					   "cpus_allowed", "fs_type",
					   "mount_options", "device", "model", "scheduler", NULL };
	static const char *const wl[] = { "name", "sha256", "params", NULL };
	static const char *const cfg[] = { "mode", "time_s", "warmup_s", "rate_mbps",
					   "rate_ops", "sync_open", "sync_dirs", "fsync_writes",
					   "direct", "end_sync", "drop_caches", "resolve", NULL };
	json_t *key = json_pack("{s:{}, s:{}, s:{}, s:I}", "env", "workload", "config",
				"clients", (json_int_t)clients);

	if (!key || copy_keys(json_object_get(key, "env"), json_object_get(doc, "env"), env) ||
	    copy_keys(json_object_get(key, "workload"), json_object_get(doc, "workload"), wl) ||
	    copy_keys(json_object_get(key, "config"), json_object_get(doc, "config"), cfg)) {
		json_decref(key);
		return NULL;
	}
	return key;
}

/* The store at path: its entries array (a new reference; empty when there is no
 * file). */
static int read_store(const char *path, json_t **entries, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc, *e;

	*entries = NULL;
	if (access(path, F_OK) != 0) {
		*entries = json_array();
		return *entries ? 0 : -ENOMEM;
	}
	doc = json_load_file(path, 0, &je);
	if (!doc)
		return lg_errf(err, errlen, -EINVAL, "%s:%d:%d: %s", path, je.line > 0 ? je.line : 1,
			    je.column > 0 ? je.column : 1, je.text);
	e = json_object_get(doc, "entries");
	if (!json_is_string(json_object_get(doc, "schema")) ||
	    strcmp(json_string_value(json_object_get(doc, "schema")), LG_CALIB_SCHEMA) != 0 ||
	    !json_is_array(e)) {
		json_decref(doc);
		return lg_errf(err, errlen, -EINVAL, "%s: not a loadgen calibration store (schema"
			    " %s with entries)", path, LG_CALIB_SCHEMA);
	}
	*entries = json_incref(e);
	json_decref(doc);
	return 0;
}

/* Write entries to path atomically (a temporary file renamed over it). */
static int write_store(const char *path, json_t *entries, char *err, size_t errlen)
{
	char tmp[1100];
	json_t *doc = json_pack("{s:s, s:O}", "schema", LG_CALIB_SCHEMA, "entries", entries);
	int rc = lg_path_make_parents(path);

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	if (!doc)
		rc = -ENOMEM;
	else if (rc == 0 && json_dump_file(doc, tmp, JSON_INDENT(2)) != 0)
		rc = -EIO;
	else if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	json_decref(doc);
	if (rc) {
		unlink(tmp);
		return lg_errf(err, errlen, rc, "%s: cannot write: %s", path, strerror(-rc));
	}
	return 0;
}

static json_t *entry_json(const struct lg_calib *c, json_t *key)
{
	json_t *m = json_object();

	for (int i = 0; m && i < LG_CMP_NMETRICS; i++)
		if (json_object_set_new(m, lg_cmp_metric_key(i),
					json_pack("{s:f, s:f, s:f}", "mean", c->mean[i],
						  "var_between", c->var_between[i], "var_within",
						  c->var_within[i]))) {
			json_decref(m);
			m = NULL;
		}
	return json_pack("{s:o, s:I, s:I, s:s, s:o}", "key", key, "batches",
			 (json_int_t)c->batches, "runs", (json_int_t)c->runs, "created",
			 c->created, "metrics", m);
}

/* Measure group g of f into c. 0, or -EINVAL when it has too few batches. */
static int measure(const struct lg_cmp_group *g, struct lg_calib *c)
{
	const double *v[LG_CMP_NMETRICS] = { g->mbps, g->ops };
	struct lg_stat_nested n;
	time_t now = time(NULL);

	memset(c, 0, sizeof(*c));
	if (g->nbatches < LG_CALIB_MIN_BATCHES)
		return -EINVAL;
	for (int i = 0; i < LG_CMP_NMETRICS; i++) {
		if (lg_stat_nested(v[i], g->boff, g->nbatches, &n))
			return -EINVAL;
		c->mean[i] = n.grand_mean;
		c->var_between[i] = n.var_between;
		c->var_within[i] = n.var_within;
	}
	c->clients = g->clients;
	c->batches = g->nbatches;
	c->runs = g->n;
	strftime(c->created, sizeof(c->created), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	return 0;
}

/* Replace the entry of key in entries (or append) with c. */
static int put_entry(json_t *entries, const struct lg_calib *c, json_t *key)
{
	json_t *e;
	size_t i;

	json_array_foreach(entries, i, e) {
		if (json_equal(json_object_get(e, "key"), key))
			return json_array_set_new(entries, i, entry_json(c, key)) ? -ENOMEM : 0;
	}
	return json_array_append_new(entries, entry_json(c, key)) ? -ENOMEM : 0;
}

int lg_calib_store(const char *path, const struct lg_cmp_file *f, struct lg_calib *out,
		   size_t max, size_t *nout, char *err, size_t errlen)
{
	json_t *entries;
	int rc = read_store(path, &entries, err, errlen);

	*nout = 0;
	if (rc)
		return rc;
	for (size_t g = 0; rc == 0 && g < f->ngroups && *nout < max; g++) {
		struct lg_calib *c = &out[*nout];
		json_t *key;

		if (measure(&f->groups[g], c)) {
			rc = lg_errf(err, errlen, -EINVAL, "%s: %zu batch%s with runs at %u "
				     "clients: a calibration needs at least %d", f->path,
				     f->groups[g].nbatches, f->groups[g].nbatches == 1 ? "" : "es",
				     f->groups[g].clients, LG_CALIB_MIN_BATCHES);
			break;
		}
		snprintf(c->path, sizeof(c->path), "%s", path);
		key = lg_calib_key(f->doc, c->clients);
		rc = key ? put_entry(entries, c, key) : -ENOMEM;
		if (rc)
			lg_errf(err, errlen, rc, "%s", strerror(-rc));
		(*nout)++;
	}
	if (rc == 0)
		rc = write_store(path, entries, err, errlen);
	json_decref(entries);
	return rc;
}

/* Read entry e into c. */
static int entry_read(const json_t *e, struct lg_calib *c)
{
	const json_t *m = json_object_get(e, "metrics");
	json_int_t b = json_integer_value(json_object_get(e, "batches"));
	const char *created = json_string_value(json_object_get(e, "created"));

	memset(c, 0, sizeof(*c));
	if (b < LG_CALIB_MIN_BATCHES || !json_is_object(m))
		return -EINVAL;
	c->batches = (size_t)b;
	c->runs = (size_t)json_integer_value(json_object_get(e, "runs"));
	c->clients = (unsigned)json_integer_value(json_object_get(json_object_get(e, "key"),
								  "clients"));
	snprintf(c->created, sizeof(c->created), "%s", created ? created : "");
	for (int i = 0; i < LG_CMP_NMETRICS; i++) {
		const json_t *x = json_object_get(m, lg_cmp_metric_key(i));

		c->mean[i] = json_number_value(json_object_get(x, "mean"));
		c->var_between[i] = json_number_value(json_object_get(x, "var_between"));
		c->var_within[i] = json_number_value(json_object_get(x, "var_within"));
		if (!json_is_number(json_object_get(x, "var_between")) || !(c->var_between[i] >= 0))
			return -EINVAL;
	}
	return 0;
}

int lg_calib_find(const char *path, const struct lg_cmp_file *f, unsigned clients,
		  struct lg_calib *out, char *err, size_t errlen)
{
	json_t *entries, *key, *e;
	size_t i;
	int rc;

	if (access(path, F_OK) != 0)
		return -ENOENT;
	rc = read_store(path, &entries, err, errlen);
	if (rc)
		return rc;
	key = lg_calib_key(f->doc, clients);
	rc = key ? -ENOENT : -ENOMEM;
	json_array_foreach(entries, i, e) {
		if (!key || !json_equal(json_object_get(e, "key"), key))
			continue;
		rc = entry_read(e, out);
		if (rc)
			lg_errf(err, errlen, rc, "%s: entries[%zu]: not a calibration entry", path, i);
		snprintf(out->path, sizeof(out->path), "%s", path);
		break;
	}
	json_decref(key);
	json_decref(entries);
	return rc;
}

/* Batches per side at which the calibrated comparison detects delta with LG_COMPARE_POWER:
 * each batch mean varies by vb + vr (between-batch plus its runs' share); Welch on k
 * batch means per side has df 2k - 2. 0 over MAX_BATCHES_PLANNED. */
static size_t batches_needed(double delta, double vb, double vr, double alpha)
{
	for (size_t k = 2; k <= MAX_BATCHES_PLANNED; k++) {
		double se = sqrt(2.0 * (vb + vr) / (double)k);

		if (lg_stat_se_mde(se, 2.0 * (double)k - 2.0, alpha, LG_COMPARE_POWER) <= delta)
			return k;
	}
	return 0;
}

size_t lg_calib_batches_needed(const struct lg_calib *c, enum lg_cmp_metric m, double pct,
				double alpha)
{
	double mean = c->mean[m], runs = (double)c->runs / (double)c->batches;

	if (!(mean > 0) || !(runs > 0))
		return 0;
	return batches_needed(pct / 100.0 * mean, c->var_between[m], c->var_within[m] / runs,
			      alpha);
}

void lg_calib_apply(const struct lg_calib *c, const struct lg_cmp_opts *opts,
		    struct lg_cmp_result *r)
{
	struct lg_cmp_metric_result *m = &r->metric[r->decided_by];
	double cv2, vb, va, vo, se2, df, delta;

	if (m->base.n < 2 || m->other.n < 2 || !(c->mean[r->decided_by] > 0) ||
	    !(m->base.mean > 0))
		return;
	cv2 = c->var_between[r->decided_by] / (c->mean[r->decided_by] * c->mean[r->decided_by]);
	vb = cv2 * m->base.mean * m->base.mean;
	va = m->base.stddev * m->base.stddev / (double)m->base.n;
	vo = m->other.stddev * m->other.stddev / (double)m->other.n;
	se2 = 2.0 * vb + va + vo;
	/* Welch-Satterthwaite over the three components */
	df = se2 * se2 / (4.0 * vb * vb / (double)(c->batches - 1) +
			  va * va / (double)(m->base.n - 1) + vo * vo / (double)(m->other.n - 1));
	if (!(se2 > 0) || !isfinite(df))
		return;
	delta = m->other.mean - m->base.mean;
	m->welch.kind = LG_WELCH_OK;
	m->welch.t = delta / sqrt(se2);
	m->welch.df = df;
	m->welch.p = lg_stat_t_test_p(delta, sqrt(se2), df);
	m->mde_pct = 100.0 * lg_stat_se_mde(sqrt(se2), df, opts->alpha, LG_COMPARE_POWER) /
		     m->base.mean;
	m->runs_needed = batches_needed(m->target_pct / 100.0 * m->base.mean, vb, (va + vo) / 2.0,
					opts->alpha);
	r->calibrated = true;
	r->calib_sd_pct = 100.0 * sqrt(cv2);
	r->calib_batches = c->batches;
	r->calib_path = c->path;
	r->rank_disagrees = false; /* the rank test sees runs only, not batches */
	lg_cmp_settle(r, opts);
}
