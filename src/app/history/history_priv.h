/* loadgen history's internals: the store (history_db.c), what makes results comparable
 * (history_series.c), the series with their change points (history_trend.c), and the
 * command line (history.c). */
#ifndef LOADGEN_HISTORY_PRIV_H
#define LOADGEN_HISTORY_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>
#include <sqlite3.h>

#include "loadgen/app/history.h"
#include "loadgen/compare/compare.h"
#include "loadgen/inference/changepoint.h"

#define HIST_APP_ID 0x4c474879   /* PRAGMA application_id of a loadgen history: "LGHy" */
#define HIST_USER_VERSION 1      /* PRAGMA user_version: the schema below */
#define HIST_BUSY_MS 60000       /* how long a writer waits for another's transaction */
#define HIST_TREND_SCHEMA "loadgen-history-trend/1" /* history trend --json */
#define HIST_CHECK_SCHEMA "loadgen-history-check/1" /* history check --json */
#define HIST_MIN_SEGMENT 3       /* results a stable segment needs before check decides */

/* An open store. */
struct hist_db {
	sqlite3 *db;      /* the connection (owned) */
	const char *path; /* its file, for messages (borrowed) */
};

/* Which metric of a result a series is about. */
enum hist_metric {
	HIST_MBPS, /* throughput_mbps: mean over the result's runs */
	HIST_OPS,  /* ops_per_s */
};

/* How the results of a series are ordered. */
enum hist_order {
	HIST_ORDER_STORED,  /* as they were added */
	HIST_ORDER_VERSION, /* by label (else kernel), kernel versions sorted as versions */
};

/* One stored result at one client count: a point of a series. */
struct hist_point {
	long long point_id;  /* points.id */
	long long result_id; /* results.id */
	char *label;         /* --label, or NULL (owned) */
	char *kernel;        /* env.kernel, or NULL (owned) */
	char *stored_at;     /* when it was added, UTC ISO 8601 (owned) */
	char *started_at;    /* env.start_time, or NULL (owned) */
	char *status;        /* "complete" or "partial" (owned) */
	size_t runs;         /* runs measured */
	double mean;         /* mean of the metric over the runs */
	double ci_lo, ci_hi; /* its 95 % confidence interval; NaN with one run */
	json_t *values;      /* the per-run values, an array (owned) */
};

/* One series with its points in the chosen order. */
struct hist_series {
	long long id;             /* series.id */
	json_t *key;              /* what its results share (owned) */
	struct hist_point *pts;   /* its points (owned) */
	size_t n;                 /* entries of pts */
};

/* Selection of series for trend. */
struct hist_filter {
	const char *workload; /* workload name, or NULL: any */
	long long clients;    /* client count, or 0: any */
	const char *host;     /* hostname, or NULL: any */
	long long series;     /* a series id, or 0: any */
};

/* The options of every history command (history.c parses them; each command takes
 * its own subset). */
struct hist_opts {
	const char *db;          /* --db FILE, or NULL: the default store */
	const char *label;       /* add --label, or NULL */
	const char *workload;    /* trend -c NAME, or NULL: any */
	const char *host;        /* trend --host, or NULL: any */
	const char *html;        /* trend --html FILE, or NULL */
	long long clients;       /* trend --clients, or 0: any */
	long long series;        /* trend --series, or 0: any */
	enum hist_metric metric; /* --metric */
	enum hist_order order;   /* --order */
	struct lg_cp_opts cp;    /* --alpha, --permutations */
	double slower_pct;       /* check --fail-if-slower, or NaN */
	bool json;               /* --json */
};

/* history_db.c */
/* Open the store at path for writing (create: make it when absent) or reading. A file
 * that is not a loadgen history, is cut short or is corrupt is refused and left as it
 * is: -EINVAL with err filled ("PATH: why"); -ENOENT when absent and !create. */
int hist_db_open(const char *path, bool create, struct hist_db *out, char *err, size_t errlen);
void hist_db_close(struct hist_db *h);
/* "PATH: " and SQLite's message for the last failure of h, into err; returns rc. */
int hist_db_err(struct hist_db *h, int rc, char *err, size_t errlen, const char *what);
/* The default store: $XDG_DATA_HOME/loadgen/history.db, else
 * ~/.local/share/loadgen/history.db. 0, -ENOENT (neither set) or -ENAMETOOLONG. */
int hist_db_default_path(char *buf, size_t len);

/* history_series.c */
/* What makes results comparable at clients: a new object, or NULL on -ENOMEM. */
json_t *hist_series_key(const json_t *doc, unsigned clients);
/* Why key does not join the nearest existing series of the store (same host and
 * workload first): "mount options differ from series 3: rw,noatime here, rw,relatime
 * there", or "first result of ..." into buf. */
void hist_series_reason(struct hist_db *h, const json_t *key, char *buf, size_t len);
/* A one-line description of a series key: "fileserver, 48 clients, host vm: ext4 on
 * /dev/vda1 (rw,relatime)". */
void hist_series_title(const json_t *key, char *buf, size_t len);

/* history_store.c */
/* Store the result f (loaded) with label (NULL: none), added from path src: one result
 * row with the whole document, one point per client count, each in the series of its
 * key (made when new). Prints what was stored to out. 0, 1 when already stored (same
 * content: nothing added), or a negative errno with err filled. */
int hist_store_add(struct hist_db *h, const struct lg_cmp_file *f, const char *src,
		   const char *label, FILE *out, char *err, size_t errlen);
/* The series matching flt, each with its points in order of metric m. *out (owned,
 * hist_series_free) and *n. 0 or negative errno with err filled. */
int hist_store_series(struct hist_db *h, const struct hist_filter *flt, enum hist_metric m,
		      enum hist_order order, struct hist_series **out, size_t *n, char *err,
		      size_t errlen);
/* The series whose key equals key, or 0 when none. */
long long hist_store_find_series(struct hist_db *h, const json_t *key);
/* The whole result document of result id (a new reference), or NULL. */
json_t *hist_store_doc(struct hist_db *h, long long result_id);
void hist_series_free(struct hist_series *s, size_t n);
void hist_point_clear(struct hist_point *p);
/* The SHA-256 of s as 64 hex digits and a NUL: how a stored document is known. */
void hist_sha256_hex(const char *s, char out[65]);

/* history.c: open the store named by --db (NULL: the default) for a command, the
 * message said; 0 or the exit status. */
int hist_open_db(const char *given, bool create, struct hist_db *h, char *path, size_t len);

/* The analysis of one series: the points analysed (all runs complete) and the change
 * points among them. */
struct hist_analysis {
	double *x;                 /* the analysed points' means, in order (owned) */
	size_t *idx;               /* for each, its index in the series' points (owned) */
	size_t m;                  /* entries of x and idx */
	struct lg_changepoint *cps; /* change points, index into x (owned) */
	size_t ncp;                /* entries of cps */
	size_t stable_from;        /* first x of the last segment (the stable one) */
};

/* history_trend.c */
/* Whether p counts in the analysis: every run complete, a mean known. */
bool hist_point_analysed(const struct hist_point *p);
/* Find the change points of s; 0 or negative errno. hist_analysis_free after. */
int hist_analyse(const struct hist_series *s, const struct lg_cp_opts *o,
		 struct hist_analysis *out);
void hist_analysis_free(struct hist_analysis *a);
/* The trend of the n series s as JSON (HIST_TREND_SCHEMA), or NULL with err filled. */
json_t *hist_trend_json(struct hist_db *h, const struct hist_series *s, size_t n,
			enum hist_metric m, enum hist_order order, const struct lg_cp_opts *o,
			char *err, size_t errlen);
/* The trend as text. */
void hist_trend_print(FILE *f, const json_t *trend);

/* history_busy.c */
/* The busiest other process during doc's runs, as one line ("dd (9 processes) wrote
 * 2.7 GB"), into buf: true when there was one above the report's floors. */
bool hist_busy_summary(const json_t *doc, char *buf, size_t len);

/* history_check.c */
/* loadgen history check FILE with options o: the exit status (0; with --fail-if-slower
 * LG_COMPARE_EXIT_SLOWER or LG_COMPARE_EXIT_UNDECIDED; 2 for a file or store refused). */
int hist_check(const struct hist_opts *o, const char *file);

#endif
