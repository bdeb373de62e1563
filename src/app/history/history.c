/* `loadgen history`: results kept in an SQLite store, grouped into series of
 * comparable results, with the change points of each series (kernel CI).
 *
 *   loadgen history add FILE... [--label L]     store results
 *   loadgen history list                        the series
 *   loadgen history trend [selection]           a series, its change points marked
 *   loadgen history check FILE                  a new result against its series
 *   loadgen history export ID                   a stored result file, as it was
 *
 * Each subcommand owns its options; --db chooses the store everywhere. */
#include "history_priv.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/compare/report_html.h"
#include "loadgen/model/cli.h"
#include "loadgen/model/suggest.h"

#define EXIT_FAIL 1 /* the store could not be read or written */

enum {
	OPT_LABEL = 256, OPT_CLIENTS, OPT_HOST, OPT_SERIES, OPT_METRIC, OPT_ORDER, OPT_ALPHA,
	OPT_PERMUTATIONS, OPT_JSON, OPT_HTML, OPT_FAIL_IF_SLOWER, OPT_DB,
};

static const struct option opts[] = {
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "workload", required_argument, NULL, 'c' },
	{ "clients", required_argument, NULL, OPT_CLIENTS },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "series", required_argument, NULL, OPT_SERIES },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "permutations", required_argument, NULL, OPT_PERMUTATIONS },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER },
	{ "db", required_argument, NULL, OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* The commands, and the options each takes (by their value in opts). */
static const struct {
	const char *name;
	const int takes[12];
} commands[] = {
	{ "add", { OPT_LABEL, OPT_DB } },
	{ "list", { OPT_DB } },
	{ "trend", { 'c', OPT_CLIENTS, OPT_HOST, OPT_SERIES, OPT_METRIC, OPT_ORDER, OPT_ALPHA,
		     OPT_PERMUTATIONS, OPT_JSON, OPT_HTML, OPT_DB } },
	{ "check", { OPT_METRIC, OPT_ORDER, OPT_ALPHA, OPT_PERMUTATIONS, OPT_JSON,
		     OPT_FAIL_IF_SLOWER, OPT_DB } },
	{ "export", { OPT_DB } },
};

static void usage(FILE *f, const struct lg_cp_opts *cp)
{
	fprintf(f,
		"Usage: loadgen history add FILE... [--label L] [--db FILE]\n"
		"       loadgen history list [--db FILE]\n"
		"       loadgen history trend [-c WORKLOAD] [--clients N] [--host H] [--series ID]\n"
		"         [--metric mbps|ops] [--order stored|version] [--json] [--html FILE]\n"
		"       loadgen history check FILE [--fail-if-slower PCT] [--json]\n"
		"       loadgen history export ID\n"
		"Keep results (loadgen --json) in one SQLite store, in series of comparable\n"
		"results, and find where each series changed: the history of a setup across\n"
		"kernels, night after night.\n\n"
		"A series is the results of one host, file system, device and mount options,\n"
		"I/O scheduler, workload (its content and parameters), client count and load\n"
		"options (-t, --warmup, rates, sync and direct flags, --verify). The kernel is not\n"
		"part of it: it is what a series follows. add says which series a result joined,\n"
		"and why a result started a new one (\"other mount options than series 3: ...\").\n\n"
		"Commands:\n"
		"  add       store result files: the whole file, its figures at each client count,\n"
		"            per-op latency, system counters, environment and --label; a file\n"
		"            already stored (the same content) is not stored twice\n"
		"  list      the series, with the number of results of each\n"
		"  trend     each matching series in order, with its change points: E-divisive\n"
		"            means on the per-result means, each tested with a permutation test,\n"
		"            the %%-change between the segments with its 95 %% confidence\n"
		"            interval, each segment's trend (Mann-Kendall; a slow drift is DRIFT),\n"
		"            and who else was busy beside a result. Results whose runs did not\n"
		"            all complete are shown but not analysed\n"
		"  check     FILE against the stable segment of its series (the results since its\n"
		"            last change point) at each client count: a 95 %% prediction interval\n"
		"            from the segment's per-result means (3 or more); FILE is left out of\n"
		"            its own segment when it is stored already\n"
		"  export    print stored result ID as a result file\n\n"
		"Options:\n"
		"      --db FILE             the store (default $XDG_DATA_HOME/loadgen/history.db,\n"
		"                            else ~/.local/share/loadgen/history.db); a file that\n"
		"                            is not a loadgen history or is cut short is refused\n"
		"                            and left as it is\n"
		"      --label L             add: name the results (kernel version, commit)\n"
		"  -c, --workload NAME       trend: only series of this workload (its name)\n"
		"      --clients N           trend: only series of N clients\n"
		"      --host H              trend: only series of host H\n"
		"      --series ID           trend: only series ID (as list shows)\n"
		"      --metric mbps|ops     trend, check: throughput (default) or ops/s\n"
		"      --order stored|version  trend, check: results as stored (default), or by\n"
		"                            label, else kernel, as versions: 6.9 < 6.10 <\n"
		"                            6.10.1, 6.10-rc1 < 6.10\n"
		"      --alpha A             trend, check: significance level (default %g)\n"
		"      --permutations N      trend, check: permutations per test (default %u)\n"
		"      --json                trend, check: print JSON (schemas %s, %s)\n"
		"      --html FILE           trend: write the trend as one HTML page of charts\n"
		"                            (- for stdout)\n"
		"      --fail-if-slower PCT  check: exit %d when FILE is significantly slower than\n"
		"                            the segment by more than PCT %%, %d when it cannot\n"
		"                            tell (no series, or a segment too short)\n"
		"  -h, --help                this help\n\n"
		"Exit status: 0 done; 1 the store could not be read or written; 2 usage error,\n"
		"or a file or store refused; check --fail-if-slower: %d slower, %d cannot tell.\n",
		cp->alpha, cp->permutations, HIST_TREND_SCHEMA, HIST_CHECK_SCHEMA,
		LG_COMPARE_EXIT_SLOWER, LG_COMPARE_EXIT_UNDECIDED, LG_COMPARE_EXIT_SLOWER,
		LG_COMPARE_EXIT_UNDECIDED);
}

int hist_open_db(const char *given, bool create, struct hist_db *h, char *path, size_t len)
{
	char err[1024];
	int rc;

	if (given) {
		snprintf(path, len, "%s", given);
	} else if (hist_db_default_path(path, len)) {
		return lg_cli_usage_error("history", "no store: set XDG_DATA_HOME or HOME, or "
					  "give --db FILE");
	}
	rc = hist_db_open(path, create, h, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "loadgen history: %s\n", err);
		return rc == -EIO ? EXIT_FAIL : LG_EXIT_USAGE;
	}
	return 0;
}

/* --- add --- */

static int cmd_add(const struct hist_opts *o, int argc, char **argv)
{
	char path[4096], err[1024];
	struct hist_db h;
	int status = 0, rc;

	if (argc == 0)
		return lg_cli_usage_error("history", "add: no result file given");
	if (o->label && !*o->label)
		return lg_cli_usage_error("history", "add: --label is empty");
	rc = hist_open_db(o->db, true, &h, path, sizeof(path));
	if (rc)
		return rc;
	for (int i = 0; i < argc; i++) {
		struct lg_cmp_file f;

		rc = lg_cmp_file_load(argv[i], &f, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "loadgen history: %s\n", err);
			status = LG_EXIT_USAGE;
			continue;
		}
		rc = hist_store_add(&h, &f, argv[i], o->label, stdout, err, sizeof(err));
		lg_cmp_file_release(&f);
		if (rc < 0) {
			fprintf(stderr, "loadgen history: %s\n", err);
			status = EXIT_FAIL;
			break;
		}
	}
	hist_db_close(&h);
	return status;
}

/* --- list --- */

static int cmd_list(const struct hist_opts *o, int argc, char **argv)
{
	char path[4096];
	struct hist_db h;
	sqlite3_stmt *st;
	int rc, rows = 0;

	if (argc > 0)
		return lg_cli_usage_error("history", "list: unexpected argument '%s'", argv[0]);
	rc = hist_open_db(o->db, false, &h, path, sizeof(path));
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(h.db, "SELECT s.id, s.workload, s.clients, s.hostname, s.fs_type,"
			       " s.device, s.mount_options, count(p.id), min(r.stored_at), "
			       "max(r.stored_at) FROM series s LEFT JOIN points p ON p.series_id = "
			       "s.id LEFT JOIN results r ON r.id = p.result_id GROUP BY s.id "
			       "ORDER BY s.id", -1, &st, NULL) != SQLITE_OK) {
		char err[1024];

		hist_db_err(&h, -EIO, err, sizeof(err), "cannot list the series");
		fprintf(stderr, "loadgen history: %s\n", err);
		hist_db_close(&h);
		return EXIT_FAIL;
	}
	printf("%6s  %-16s %7s  %-12s %-24s %7s  %s\n", "series", "workload", "clients", "host",
	       "file system", "results", "stored");
	while (sqlite3_step(st) == SQLITE_ROW) {
		char fs[128];

		snprintf(fs, sizeof(fs), "%s %s", sqlite3_column_text(st, 4) ?
			 (const char *)sqlite3_column_text(st, 4) : "?", sqlite3_column_text(st, 5) ?
			 (const char *)sqlite3_column_text(st, 5) : "?");
		printf("%6lld  %-16.16s %7lld  %-12.12s %-24.24s %7lld  %s .. %s\n",
		       (long long)sqlite3_column_int64(st, 0),
		       sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "?",
		       (long long)sqlite3_column_int64(st, 2),
		       sqlite3_column_text(st, 3) ? (const char *)sqlite3_column_text(st, 3) : "?",
		       fs, (long long)sqlite3_column_int64(st, 7),
		       sqlite3_column_text(st, 8) ? (const char *)sqlite3_column_text(st, 8) : "-",
		       sqlite3_column_text(st, 9) ? (const char *)sqlite3_column_text(st, 9) : "-");
		rows++;
	}
	sqlite3_finalize(st);
	if (!rows)
		printf("(no series yet: loadgen history add stores results)\n");
	hist_db_close(&h);
	return 0;
}

/* --- export --- */

static int cmd_export(const struct hist_opts *o, int argc, char **argv)
{
	char path[4096], *end;
	struct hist_db h;
	long long id;
	json_t *doc;
	int rc;

	if (argc != 1)
		return lg_cli_usage_error("history", "export: want one result ID");
	errno = 0;
	id = strtoll(argv[0], &end, 10);
	if (errno || *end || end == argv[0] || id <= 0)
		return lg_cli_usage_error("history", "export: invalid result ID '%s'", argv[0]);
	rc = hist_open_db(o->db, false, &h, path, sizeof(path));
	if (rc)
		return rc;
	doc = hist_store_doc(&h, id);
	hist_db_close(&h);
	if (!doc) {
		fprintf(stderr, "loadgen history: %s: no result %lld\n", path, id);
		return LG_EXIT_USAGE;
	}
	rc = json_dumpf(doc, stdout, JSON_INDENT(2)) ? EXIT_FAIL : 0;
	putchar('\n');
	json_decref(doc);
	return rc;
}

/* --- trend --- */

static int hist_parse_metric(const char *cmd, const char *s, enum hist_metric *m)
{
	if (strcmp(s, "mbps") == 0 || strcmp(s, "throughput") == 0)
		*m = HIST_MBPS;
	else if (strcmp(s, "ops") == 0)
		*m = HIST_OPS;
	else
		return lg_cli_usage_error(cmd, "invalid --metric '%s' (want mbps or ops)", s);
	return 0;
}

static int hist_parse_order(const char *cmd, const char *s, enum hist_order *o)
{
	if (strcmp(s, "stored") == 0)
		*o = HIST_ORDER_STORED;
	else if (strcmp(s, "version") == 0)
		*o = HIST_ORDER_VERSION;
	else
		return lg_cli_usage_error(cmd, "invalid --order '%s' (want stored or version)", s);
	return 0;
}

static int hist_parse_alpha(const char *cmd, const char *s, double *alpha)
{
	char *end;

	errno = 0;
	*alpha = strtod(s, &end);
	if (errno || *end || end == s || !(*alpha > 0 && *alpha < 0.5))
		return lg_cli_usage_error(cmd, "invalid --alpha '%s' (want 0 < alpha < 0.5)", s);
	return 0;
}


static int write_html(const char *file, const json_t *trend)
{
	char err[1024];

	if (lg_report_html_trend_write(trend, NULL, file, err, sizeof(err))) {
		fprintf(stderr, "loadgen history: %s\n", err);
		return EXIT_FAIL;
	}
	return 0;
}

static int cmd_trend(const struct hist_opts *o, int argc, char **argv)
{
	struct hist_filter flt = { .workload = o->workload, .clients = o->clients,
				   .host = o->host, .series = o->series };
	char path[4096], err[1024];
	struct hist_series *s = NULL;
	struct hist_db h;
	json_t *trend;
	size_t n = 0;
	int rc;

	if (argc > 0)
		return lg_cli_usage_error("history", "trend: unexpected argument '%s'", argv[0]);
	if (o->json && o->html && strcmp(o->html, "-") == 0)
		return lg_cli_usage_error("history", "trend: --json and --html - both write to "
					  "stdout");
	rc = hist_open_db(o->db, false, &h, path, sizeof(path));
	if (rc)
		return rc;
	rc = hist_store_series(&h, &flt, o->metric, o->order, &s, &n, err, sizeof(err));
	trend = rc ? NULL : hist_trend_json(&h, s, n, o->metric, o->order, &o->cp, err,
					    sizeof(err));
	hist_series_free(s, n);
	hist_db_close(&h);
	if (!trend) {
		fprintf(stderr, "loadgen history: %s\n", err);
		return EXIT_FAIL;
	}
	rc = 0;
	if (o->html)
		rc = write_html(o->html, trend);
	if (o->json) {
		json_dumpf(trend, stdout, JSON_INDENT(2));
		putchar('\n');
	} else if (!o->html) {
		hist_trend_print(stdout, trend);
	}
	json_decref(trend);
	return rc;
}

static int cmd_check(const struct hist_opts *o, int argc, char **argv)
{
	if (argc != 1)
		return lg_cli_usage_error("history", argc ? "check: one result file at a time" :
					  "check: no result file given");
	return hist_check(o, argv[0]);
}

/* The option's long name, for "--label is not an option of trend". */
static const char *opt_name(int val)
{
	for (size_t i = 0; opts[i].name; i++)
		if (opts[i].val == val)
			return opts[i].name;
	return "?";
}

static int parse_value(int opt, const char *arg, struct hist_opts *o)
{
	char *end;
	long long v;

	switch (opt) {
	case OPT_LABEL: o->label = arg; return 0;
	case 'c': o->workload = arg; return 0;
	case OPT_HOST: o->host = arg; return 0;
	case OPT_HTML: o->html = arg; return 0;
	case OPT_DB: o->db = arg; return 0;
	case OPT_JSON: o->json = true; return 0;
	case OPT_METRIC: return hist_parse_metric("history", arg, &o->metric);
	case OPT_ORDER: return hist_parse_order("history", arg, &o->order);
	case OPT_ALPHA: return hist_parse_alpha("history", arg, &o->cp.alpha);
	case OPT_FAIL_IF_SLOWER:
		errno = 0;
		o->slower_pct = strtod(arg, &end);
		if (errno || *end || end == arg || !(o->slower_pct >= 0 && o->slower_pct < 100))
			return lg_cli_usage_error("history", "invalid --fail-if-slower '%s' (want a "
						  "percentage, 0 to 100)", arg);
		return 0;
	default: /* the counts */
		errno = 0;
		v = strtoll(arg, &end, 10);
		if (errno || *end || end == arg || v <= 0 ||
		    (opt == OPT_PERMUTATIONS && (v < 19 || v > 100000)))
			return lg_cli_usage_error("history", "invalid --%s '%s' (want %s)",
						  opt_name(opt), arg, opt == OPT_PERMUTATIONS ?
						  "19 to 100000" : "a positive number");
		if (opt == OPT_CLIENTS)
			o->clients = v;
		else if (opt == OPT_SERIES)
			o->series = v;
		else
			o->cp.permutations = (unsigned)v;
		return 0;
	}
}

int lg_history_main(int argc, char **argv)
{
	static const char *const names[] = { "add", "list", "trend", "check", "export", NULL };
	static int (*const fns[])(const struct hist_opts *, int, char **) = {
		cmd_add, cmd_list, cmd_trend, cmd_check, cmd_export,
	};
	struct hist_opts o = { .slower_pct = NAN };
	struct lg_suggest sg;
	size_t cmd;
	int opt, rc;

	lg_cp_opts_default(&o.cp);
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage(stdout, &o.cp);
		return 0;
	}
	if (argc < 2)
		return lg_cli_usage_error("history", "no command (add, list, trend, check, export)");
	for (cmd = 0; names[cmd]; cmd++)
		if (strcmp(argv[1], names[cmd]) == 0)
			break;
	if (!names[cmd]) {
		lg_suggest_init(&sg, argv[1]);
		lg_suggest_add_all(&sg, names);
		if (lg_suggest_best(&sg))
			return lg_cli_usage_error("history", "unknown command '%s'; did you mean "
						  "'%s'?", argv[1], lg_suggest_best(&sg));
		return lg_cli_usage_error("history", "unknown command '%s' (want add, list, "
					  "trend, check or export)", argv[1]);
	}
	argc--;
	argv++;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":c:h", opts, NULL)) != -1) {
		bool takes = false;

		if (opt == 'h') {
			usage(stdout, &o.cp);
			return 0;
		}
		if (opt == '?' || opt == ':')
			return lg_cli_bad_option("history", opts, argv, opt);
		for (size_t i = 0; i < 12 && commands[cmd].takes[i]; i++)
			takes |= commands[cmd].takes[i] == opt;
		if (!takes)
			return lg_cli_usage_error("history", "%s: --%s is not an option of %s",
						  names[cmd], opt_name(opt), names[cmd]);
		rc = parse_value(opt, optarg, &o);
		if (rc)
			return rc;
	}
	return fns[cmd](&o, argc - optind, argv + optind);
}
