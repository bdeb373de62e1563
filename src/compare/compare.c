/* `loadgen compare BASE.json OTHER.json...`: the command line, and the table of
 * comparisons the outputs print.
 *
 * Each file is set against the first (the baseline), at every client count both have
 * (a sweep has several). A file that cannot be compared at all (another workload, no
 * client count in common, unreadable) is reported and left out; only when nothing is
 * left to compare is that an error. The decisions are made in compare_eval.c, the
 * output in compare_text.c and compare_json.c. */
#include "compare_priv.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/cli.h"

#define EXIT_USAGE 2
#define ERR_MAX 1024 /* one error message: a path and a reason */

enum { OPT_JSON = 256, OPT_MIN_EFFECT, OPT_FAIL_IF_SLOWER, OPT_CALIB, OPT_NO_CALIB };

static const struct option long_options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "min-effect", required_argument, NULL, OPT_MIN_EFFECT },
	{ "fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER },
	{ "calibration", required_argument, NULL, OPT_CALIB },
	{ "no-calibration", no_argument, NULL, OPT_NO_CALIB },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen compare [options] BASE.json OTHER.json [MORE.json...]\n"
		"       loadgen compare [options] BASE1.json BASE2.json... -- OTHER1.json"
		" OTHER2.json... [-- ...]\n"
		"Compare result files (loadgen --json) against the first one, the baseline, at\n"
		"every client count they share: differences of setup, throughput as mean +/- 95%%\n"
		"confidence interval over the runs of each file, Welch's t-test p-value and\n"
		"verdict, a rank test (Mann-Whitney U) as a check, the effect size, the smallest\n"
		"change the runs could detect, and latency per op type. With more than two files\n"
		"or client sweeps, one table per metric with a column per file.\n"
		"A verdict needs at least 2 runs in each file (loadgen --repeat K).\n"
		"A --log file is read too; one cut off mid-run (no result line) as a partial\n"
		"run: throughput from its intervals, no latency percentiles, said as such.\n"
		"With '--', the files between separators are batches of one setup (kernel A\n"
		"booted twice); with 2 or more batches on each side, the verdict is on the\n"
		"batch means, so the spread between batches counts. Options come before the\n"
		"first '--'.\n\n"
		"      --min-effect PCT      call a change faster/slower only when it is at least\n"
		"                            PCT %% (default 0) as well as significant\n"
		"      --fail-if-slower PCT  exit %d when a file is significantly slower than the\n"
		"                            baseline by more than PCT %%; else exit %d when\n"
		"                            a comparison has no verdict (too few runs)\n"
		"      --json                print the comparison as JSON (schema %s)\n"
		"      --calibration FILE    the calibration store (loadgen calibrate) to use for\n"
		"                            one batch against one (default: the user's store,\n"
		"                            $XDG_DATA_HOME/loadgen/calibration.json)\n"
		"      --no-calibration      use none\n"
		"  -h, --help                this help\n\n"
		"Significance level: %g. The verdict is on throughput (MB/s), or on ops/s when\n"
		"throughput is 0 in both files. Exit status: 0 compared, 2 usage error or\n"
		"nothing comparable, %d --fail-if-slower tripped (at any client count), %d\n"
		"--fail-if-slower could not tell (a comparison without a verdict).\n",
		LG_COMPARE_EXIT_SLOWER, LG_COMPARE_EXIT_UNDECIDED, LG_COMPARE_SCHEMA,
		LG_COMPARE_ALPHA, LG_COMPARE_EXIT_SLOWER, LG_COMPARE_EXIT_UNDECIDED);
}

static int bad_usage(const char *what, const char *arg)
{
	if (!arg)
		return lg_cli_usage_error("compare", "%s", what);
	return lg_cli_usage_error("compare", "%s '%s'", what, arg);
}

/* A percentage: a finite number >= 0, optionally followed by '%'. */
static int parse_pct(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end == '%')
		end++;
	if (end == s || *end || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The first "--" of argv after argv[0], or argc. */
static int find_sep(int argc, char **argv, int from)
{
	for (int i = from; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return argc;
}

/* The sides: without "--" each file is one; with it, the files before the first "--"
 * (options taken out) are the baseline's batches, and each "--" starts another side.
 * first..end are the files of the first part, argv[sep] the first "--". */
static int split_sides(struct cli *c, int argc, char **argv, int first, int end, int sep)
{
	size_t cap = (size_t)argc, n = 0;

	c->paths = calloc(cap, sizeof(*c->paths));
	c->side = calloc(cap, sizeof(*c->side));
	c->side_n = calloc(cap, sizeof(*c->side_n));
	if (!c->paths || !c->side || !c->side_n)
		return -ENOMEM;
	c->batches = sep < argc;
	for (int i = first; i < end; i++) {
		if (!c->batches || i == first)
			c->side[n++] = argv + i;
		c->side_n[n - 1]++;
	}
	while (sep < argc) {
		int next = find_sep(argc, argv, sep + 1);

		if (next - sep < 2)
			return -EINVAL;
		c->side[n] = argv + sep + 1;
		c->side_n[n++] = (size_t)(next - sep - 1);
		sep = next;
	}
	for (size_t i = 0; i < n; i++)
		c->paths[i] = c->side[i][0];
	c->npaths = n;
	return 0;
}

static void cli_free(struct cli *c)
{
	free(c->paths);
	free(c->side);
	free(c->side_n);
}

/* Returns -1 to go on, or the exit status (0 after --help). */
static int parse_args(int argc, char **argv, struct cli *c)
{
	int opt, sep = find_sep(argc, argv, 1);

	*c = (struct cli){ .opts = { .alpha = LG_COMPARE_ALPHA } };
	optind = 0; /* glibc: start afresh, main() may have used getopt already */
	opterr = 0;
	/* options before the first "--" only: after it come the other sides' files */
	while ((opt = getopt_long(sep, argv, ":h", long_options, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON:
			c->json = true;
			break;
		case OPT_MIN_EFFECT:
			if (parse_pct(optarg, &c->opts.min_effect_pct))
				return bad_usage("invalid --min-effect (want a percentage >= 0):",
						 optarg);
			break;
		case OPT_FAIL_IF_SLOWER:
			c->fail_if_slower = true;
			if (parse_pct(optarg, &c->slower_pct))
				return bad_usage("invalid --fail-if-slower (want a percentage"
						 " >= 0):", optarg);
			break;
		case OPT_CALIB:
			c->calib_path = optarg;
			break;
		case OPT_NO_CALIB:
			c->no_calib = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return lg_cli_bad_option("compare", long_options, argv, opt);
		}
	}
	if (sep < argc && optind == sep)
		return bad_usage("no baseline files before '--'", NULL);
	opt = split_sides(c, argc, argv, optind, sep, sep);
	if (opt == -ENOMEM) {
		fprintf(stderr, "loadgen compare: %s\n", strerror(ENOMEM));
		return EXIT_USAGE;
	}
	if (opt)
		return bad_usage("an empty side: every '--' must be followed by files", NULL);
	if (c->npaths < 2)
		return bad_usage(c->batches ? "need files on both sides of '--'"
					    : "need a baseline and at least one file to compare"
					      " with it", NULL);
	return -1;
}

/* --- The command --- */

/* Runs cut short (interrupted, partial) still measured a rate, so they count; but the
 * reader should know, since a short run is noisier. Runs that failed in setup were left
 * out when the file was loaded; say so. */
static void warn_incomplete(const struct lg_cmp_file *f)
{
	const json_t *run;
	size_t r;

	/* a cut-off log's runs are all partial, as its note said */
	json_array_foreach(json_object_get(f->doc, "log_cut_off") ? NULL : f->runs, r, run) {
		const char *st = json_string_value(json_object_get(run, "status"));

		if (st && strcmp(st, "complete") != 0)
			fprintf(stderr, "loadgen compare: %s: runs[%zu] is \"%s\"; included\n",
				f->path, r, st);
	}
	if (f->nfailed)
		fprintf(stderr, "loadgen compare: %s: %zu run%s measured nothing (failed in "
			"setup, or interrupted before measuring); left out\n", f->path, f->nfailed,
			f->nfailed == 1 ? "" : "s");
}

/* Load every file; one that cannot be used is reported and marked skipped. Returns
 * the number of files that can be compared with the baseline (0 when the baseline
 * itself is unusable). */
static size_t load_all(struct cmp_table *t)
{
	const struct cli *c = t->cli;
	char err[ERR_MAX];
	size_t usable = 0;

	for (size_t i = 0; i < c->npaths; i++) {
		if (lg_cmp_file_load_batches(c->side[i], c->side_n[i], &t->files[i], err,
					     sizeof(err)) != 0) {
			fprintf(stderr, "loadgen compare: %s\n", err);
			t->skip[i] = "unreadable";
			continue;
		}
		lg_cmp_log_notes(stderr, "loadgen compare", c->paths[i], t->files[i].doc);
		warn_incomplete(&t->files[i]);
		if (i > 0 && !t->skip[0])
			t->skip[i] = lg_cmp_incomparable(&t->files[0], &t->files[i]);
		if (i > 0 && t->skip[i])
			fprintf(stderr, "loadgen compare: %s: not compared with %s: %s\n",
				c->paths[i], c->paths[0], t->skip[i]);
		usable += i > 0 && !t->skip[i];
	}
	return t->skip[0] ? 0 : usable;
}

/* The exit status of two: --fail-if-slower's "slower" outweighs its "cannot tell". */
static int worse(int a, int b)
{
	if (a == LG_COMPARE_EXIT_SLOWER || b == LG_COMPARE_EXIT_SLOWER)
		return LG_COMPARE_EXIT_SLOWER;
	return a ? a : b;
}

/* --fail-if-slower's status for one comparison, said on stderr (so that --json output
 * stays a single document): slower by more than PCT, or no verdict, or 0. */
static int gate(const struct cmp_table *t, const struct lg_cmp_file *other,
		const struct cmp_cell *cell)
{
	const char *base = t->files[0].path;
	char at[32] = "";

	if (t->sweep)
		snprintf(at, sizeof(at), " at %u clients", cell->bg->clients);
	if (cell->slower) {
		fprintf(stderr, "loadgen compare: %s is slower than %s by more than %g %%"
			" (--fail-if-slower)%s\n", other->path, base, t->cli->slower_pct, at);
		return LG_COMPARE_EXIT_SLOWER;
	}
	if (t->cli->fail_if_slower && cell->r.verdict == LG_VERDICT_NONE) {
		fprintf(stderr, "loadgen compare: %s%s: no verdict (a file has fewer than 2 "
			"runs), so --fail-if-slower cannot tell whether it is slower than %s\n",
			other->path, at, base);
		return LG_COMPARE_EXIT_UNDECIDED;
	}
	return 0;
}

/* One batch against one: add this machine's batch spread for the baseline's setup, when
 * a calibration of it is stored. A store that cannot be read is said, once. */
static void calibrate(const struct cmp_table *t, struct cmp_cell *cell)
{
	static bool said;
	const struct cli *c = t->cli;
	char def[1024], err[ERR_MAX];
	const char *path = c->calib_path;
	int rc;

	if (c->no_calib || cell->r.batches[0] > 1 || cell->r.batches[1] > 1)
		return;
	if (!path && lg_calib_default_path(def, sizeof(def)) == 0)
		path = def;
	if (!path)
		return;
	rc = lg_calib_find(path, &t->files[0], cell->bg->clients, &cell->cal, err, sizeof(err));
	if (rc == 0)
		lg_calib_apply(&cell->cal, &c->opts, &cell->r);
	else if (rc == -ENOENT && c->calib_path && !said)
		fprintf(stderr, "loadgen compare: %s: no calibration of %s's setup at %u clients"
			" (loadgen calibrate)\n", path, t->files[0].path, cell->bg->clients);
	else if (rc != -ENOENT && !said)
		fprintf(stderr, "loadgen compare: %s; not used\n", err);
	said = said || rc != 0;
}

/* Decide file i against the baseline at every client count both have. */
static int decide_row(struct cmp_table *t, size_t i)
{
	const struct lg_cmp_file *base = &t->files[0], *other = &t->files[i];
	const struct cli *c = t->cli;
	int status = 0;

	t->cells[i] = calloc(base->ngroups, sizeof(**t->cells));
	if (!t->cells[i])
		return -ENOMEM;
	for (size_t g = 0; g < base->ngroups; g++) {
		struct cmp_cell *cell = &t->cells[i][g];

		cell->bg = &base->groups[g];
		cell->og = lg_cmp_group_of(other, base->ngroups == 1 && other->ngroups == 1
							  ? LG_CMP_ANY_CLIENTS
							  : cell->bg->clients);
		cell->present = cell->og != NULL;
		if (!cell->present)
			continue;
		lg_cmp_decide_group(cell->bg, cell->og, &c->opts, &cell->r);
		calibrate(t, cell);
		cell->slower = c->fail_if_slower &&
			       lg_cmp_slower_than(&cell->r, c->opts.alpha, c->slower_pct);
		status = worse(status, gate(t, other, cell));
	}
	return status;
}

/* Decide every file; a file not compared leaves --fail-if-slower unable to tell. */
static int decide_all(struct cmp_table *t)
{
	int status = 0;

	for (size_t i = 0; i < t->cli->npaths; i++)
		t->sweep |= !t->skip[i] && t->files[i].ngroups > 1;
	for (size_t i = 1; i < t->cli->npaths; i++) {
		int rc = !t->skip[i] ? decide_row(t, i)
			 : t->cli->fail_if_slower ? LG_COMPARE_EXIT_UNDECIDED : 0;

		if (rc < 0)
			return rc;
		status = worse(status, rc);
	}
	return status;
}

static void table_free(struct cmp_table *t)
{
	for (size_t i = 0; t->files && i < t->cli->npaths; i++) {
		lg_cmp_file_release(&t->files[i]);
		free(t->cells ? t->cells[i] : NULL);
	}
	free(t->files);
	free(t->cells);
	free(t->skip);
}

int lg_compare_main(int argc, char **argv)
{
	struct cmp_table t = { 0 };
	struct cli c;
	int status = parse_args(argc, argv, &c);

	if (status >= 0) {
		cli_free(&c);
		return status;
	}
	t.cli = &c;
	t.files = calloc(c.npaths, sizeof(*t.files));
	t.cells = calloc(c.npaths, sizeof(*t.cells));
	t.skip = calloc(c.npaths, sizeof(*t.skip));
	status = EXIT_USAGE;
	if (!t.files || !t.cells || !t.skip) {
		fprintf(stderr, "loadgen compare: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (load_all(&t) == 0) {
		fprintf(stderr, "loadgen compare: nothing to compare\n");
		goto out;
	}
	status = decide_all(&t);
	if (status < 0 ||
	    (c.json ? lg_cmp_print_json(&t, status) : lg_cmp_print_text(&t)) != 0) {
		fprintf(stderr, "loadgen compare: %s\n", strerror(ENOMEM));
		status = EXIT_USAGE;
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "loadgen compare: stdout: %s\n", strerror(errno));
		status = EXIT_USAGE;
	}
out:
	table_free(&t);
	cli_free(&c);
	return status;
}
