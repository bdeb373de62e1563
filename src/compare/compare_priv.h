/* Shared by the parts of `loadgen compare`: the command line, and the table of results
 * that the text (compare_text.c) and JSON (compare_json.c) outputs print. */
#ifndef LOADGEN_COMPARE_PRIV_H
#define LOADGEN_COMPARE_PRIV_H

#include "loadgen/compare/calibration.h"
#include "loadgen/compare/compare.h"

/* What the command line asked for. */
struct cli {
	struct lg_cmp_opts opts; /* alpha and --min-effect */
	bool json;               /* --json: the comparison as JSON on stdout */
	bool fail_if_slower;     /* --fail-if-slower given */
	double slower_pct;       /* its PCT */
	char **paths;            /* per side, its (first) file, baseline first (owned array
				    of strings borrowed from argv) */
	char ***side;            /* per side, its files: batches of one setup (owned array
				    of pointers into argv) */
	size_t *side_n;          /* per side, the number of its files, >= 1 (owned) */
	size_t npaths;           /* sides, at least 2 */
	bool batches;            /* sides were separated by --: each may hold batches */
	const char *calib_path;  /* --calibration FILE; NULL: the default store */
	bool no_calib;           /* --no-calibration */
};

/* One client count of one file against the baseline. */
struct cmp_cell {
	bool present;                /* both files have runs with this count */
	bool slower;                 /* --fail-if-slower tripped here */
	const struct lg_cmp_group *bg; /* the baseline's runs (borrowed) */
	const struct lg_cmp_group *og; /* the other file's runs (borrowed) */
	struct lg_cmp_result r;      /* the comparison */
	struct lg_calib cal;         /* the calibration applied to r (r.calibrated) */
};

/* Everything compared: files[0] is the baseline; cells[i][g] is file i against the
 * baseline's group g (row 0 unused). */
struct cmp_table {
	const struct cli *cli;       /* the options (borrowed) */
	struct lg_cmp_file *files;   /* npaths entries (owned) */
	const char **skip;           /* per file: why it is not compared, or NULL (static) */
	struct cmp_cell **cells;     /* per file, per baseline group (owned) */
	bool sweep;                  /* more than one client count: print tables */
};

/* The text report on stdout. 0 or -ENOMEM. */
int lg_cmp_print_text(const struct cmp_table *t);
/* The JSON document on stdout (schema LG_COMPARE_SCHEMA). 0 or -ENOMEM. */
int lg_cmp_print_json(const struct cmp_table *t, int status);

/* The tables of several files or client counts, and a verdict line per cell (in
 * compare_table.c). 0 or -ENOMEM. */
int lg_cmp_print_tables(const struct cmp_table *t);

/* "12.34 ± 0.56", or "12.34" when there is no interval (one run). */
void lg_cmp_fmt_stat(const struct lg_stat_summary *s, int prec, char *buf, size_t len);
/* The drift findings of r, one line each, indented by indent: "base.json drifts -1.9 %
 * per run (p 0.010)". Nothing when neither side drifts. */
void lg_cmp_print_drift(const struct lg_cmp_result *r, const char *base, const char *other,
			const char *indent);
/* What the batches of r's sides say: the unit decided on, and per side with several
 * batches the spread between and within them; indented by indent. */
void lg_cmp_print_batches(const struct lg_cmp_result *r, const char *base, const char *other,
			  const char *indent);
/* What calibration r used. */
void lg_cmp_print_calibration(const struct lg_cmp_result *r, const char *indent);
/* The note for one batch per side: their spread is unknown. */
void lg_cmp_print_batch_note(const char *indent);
/* "+1.2 %", or "n/a". */
void lg_cmp_fmt_pct(double pct, char *buf, size_t len);

#endif
