/* `loadgen compare BASE.json OTHER.json...`: the command line, text and JSON output.
 *
 * Each file is set against the first (the baseline): what differs in the setup comes
 * first, because a difference in throughput means little before one knows what else
 * changed; then throughput with confidence intervals, the p-value and the verdict;
 * then latency per op type. The decisions themselves are made in compare_eval.c. */
#include "loadgen/compare.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/cli.h"

#define EXIT_USAGE 2
#define ERR_MAX 1024 /* one error message: a path and a reason */

enum { OPT_JSON = 256, OPT_MIN_EFFECT, OPT_FAIL_IF_SLOWER };

static const struct option long_options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "min-effect", required_argument, NULL, OPT_MIN_EFFECT },
	{ "fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* What the command line asked for. */
struct cli {
	struct lg_cmp_opts opts; /* alpha and --min-effect */
	bool json;               /* --json: the comparison as JSON on stdout */
	bool fail_if_slower;     /* --fail-if-slower given */
	double slower_pct;       /* its PCT */
	char **paths;            /* the files, baseline first (borrowed from argv) */
	size_t npaths;           /* at least 2 */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen compare [options] BASE.json OTHER.json [MORE.json...]\n"
		"Compare result files (loadgen --json) against the first one, the baseline:\n"
		"differences of setup, throughput as mean +/- 95%% confidence interval over the\n"
		"runs of each file, Welch's t-test p-value and verdict, and latency per op type.\n"
		"A verdict needs at least 2 runs in each file (loadgen --repeat K).\n\n"
		"      --min-effect PCT      call a change faster/slower only when it is at least\n"
		"                            PCT %% (default 0) as well as significant\n"
		"      --fail-if-slower PCT  exit %d when a file is significantly slower than the\n"
		"                            baseline by more than PCT %%\n"
		"      --json                print the comparison as JSON (schema %s)\n"
		"  -h, --help                this help\n\n"
		"Significance level: %g. The verdict is on throughput (MB/s), or on ops/s when\n"
		"throughput is 0 in both files. Exit status: 0 compared, 2 usage error or\n"
		"unreadable file, %d --fail-if-slower tripped.\n",
		LG_COMPARE_EXIT_SLOWER, LG_COMPARE_SCHEMA, LG_COMPARE_ALPHA,
		LG_COMPARE_EXIT_SLOWER);
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

/* Returns -1 to go on, or the exit status (0 after --help). */
static int parse_args(int argc, char **argv, struct cli *c)
{
	int opt;

	*c = (struct cli){ .opts = { .alpha = LG_COMPARE_ALPHA } };
	optind = 0; /* glibc: start afresh, main() may have used getopt already */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
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
		case 'h':
			usage(stdout);
			return 0;
		default:
			return lg_cli_bad_option("compare", long_options, argv, opt);
		}
	}
	if (argc - optind < 2)
		return bad_usage("need a baseline and at least one file to compare with it",
				 NULL);
	c->paths = argv + optind;
	c->npaths = (size_t)(argc - optind);
	return -1;
}

/* --- Text output --- */

static void print_value(const json_t *v)
{
	char *s;

	if (json_is_string(v)) {
		fputs(json_string_value(v), stdout);
	} else if (json_is_integer(v)) {
		printf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
	} else if (json_is_real(v)) {
		printf("%.15g", json_real_value(v));
	} else {
		s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		fputs(s ? s : "?", stdout);
		free(s);
	}
}

static void print_diff(const char *key, const json_t *base, const json_t *other, void *ctx)
{
	(void)ctx;
	printf("    %s: ", key);
	print_value(base);
	fputs(" \u2192 ", stdout);
	print_value(other);
	putchar('\n');
}

/* "12.34 ± 0.56", or "12.34" when there is no interval (one run). */
static void fmt_stat(const struct lg_stat_summary *s, int prec, char *buf, size_t len)
{
	if (s->n < 2)
		snprintf(buf, len, "%.*f", prec, s->mean);
	else
		snprintf(buf, len, "%.*f \u00b1 %.*f", prec, s->mean, prec,
			 (s->ci95_hi - s->ci95_lo) / 2);
}

static void fmt_pct(double pct, char *buf, size_t len)
{
	if (isfinite(pct))
		snprintf(buf, len, "%+.1f %%", pct);
	else
		snprintf(buf, len, "n/a");
}

static void fmt_p(const struct lg_cmp_metric_result *m, char *buf, size_t len)
{
	if (!m->tested)
		snprintf(buf, len, "n/a");
	else if (m->welch.p < 0.0001)
		snprintf(buf, len, "< 0.0001");
	else
		snprintf(buf, len, "%.4f", m->welch.p);
}

static void print_metrics(const struct lg_cmp_result *r)
{
	char b[64], o[64], chg[32], p[32];

	/* the ± sign is one column but two bytes: pad by hand */
	printf("  %-8s %-22s %-22s %-10s %s\n", "", "baseline", "other", "change", "p-value");
	for (int i = 0; i < LG_CMP_NMETRICS; i++) {
		const struct lg_cmp_metric_result *m = &r->metric[i];

		fmt_stat(&m->base, i == LG_CMP_MBPS ? 2 : 1, b, sizeof(b));
		fmt_stat(&m->other, i == LG_CMP_MBPS ? 2 : 1, o, sizeof(o));
		fmt_pct(m->change_pct, chg, sizeof(chg));
		fmt_p(m, p, sizeof(p));
		printf("  %-8s %-*s %-*s %-10s %s\n", lg_cmp_metric_unit(i),
		       22 + (m->base.n >= 2), b, 22 + (m->other.n >= 2), o, chg, p);
	}
	printf("  runs     %-22zu %zu\n", r->metric[0].base.n, r->metric[0].other.n);
}

static void print_verdict(const struct lg_cmp_result *r, const struct cli *c,
			  const struct lg_cmp_file *base, const struct lg_cmp_file *other)
{
	const struct lg_cmp_metric_result *m = &r->metric[r->decided_by];
	const char *unit = lg_cmp_metric_unit(r->decided_by);
	char chg[32], p[32], small[64] = "";

	if (isnan(m->change_pct)) /* the baseline is 0 */
		snprintf(chg, sizeof(chg), m->other.mean > 0 ? "up from 0" : "0 in both");
	else
		fmt_pct(m->change_pct, chg, sizeof(chg));
	fmt_p(m, p, sizeof(p));
	if (r->verdict == LG_VERDICT_NONE) {
		printf("  Verdict: no verdict possible: %s has %zu run%s and %s %zu; a t-test "
		       "needs at least 2 runs in each file.\n"
		       "  Run loadgen with --repeat 5 (or more) to get one.\n",
		       base->path, base->nruns, base->nruns == 1 ? "" : "s", other->path,
		       other->nruns);
		return;
	}
	if (r->below_min_effect) /* say by how much, beside the verdict itself */
		snprintf(small, sizeof(small), " (%.1f %% < %g %%)", fabs(m->change_pct),
			 c->opts.min_effect_pct);
	printf("  Verdict: %s%s (decided on %s: %s, p %s%s, alpha = %g)\n",
	       lg_cmp_verdict_name(r), small, unit, chg, m->welch.p < 0.0001 ? "" : "= ", p,
	       c->opts.alpha);
	if (r->decided_by == LG_CMP_OPS)
		printf("  Throughput is 0 MB/s in both files (no data moved), so ops/s decided.\n");
	if (m->welch.kind == LG_WELCH_DIFF_CONST)
		printf("  Note: all runs within each file gave the same value (zero variance); "
		       "any difference counts as significant.\n");
}

static void fmt_ms(const struct lg_cmp_latency *l, uint64_t ns, bool known, char *buf,
		   size_t len)
{
	if (!known || (!l->have_pct && !l->max_ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", (double)ns / 1e6);
}

static void print_lat_cell(const struct lg_cmp_latency *b, const struct lg_cmp_latency *o,
			   uint64_t bv, uint64_t ov, bool known)
{
	char sb[32], so[32], chg[32];
	bool both = known && bv > 0;

	fmt_ms(b, bv, known, sb, sizeof(sb));
	fmt_ms(o, ov, known, so, sizeof(so));
	fmt_pct(both ? 100.0 * ((double)ov - (double)bv) / (double)bv : NAN, chg, sizeof(chg));
	printf(" %10s %10s %9s", sb, so, chg);
}

static int print_latency(const struct lg_cmp_file *base, const struct lg_cmp_file *other)
{
	json_t *labels = lg_cmp_op_labels(base, other), *v;
	const char *label;

	if (!labels)
		return -ENOMEM;
	if (json_object_size(labels))
		printf("\n  %-14s %21s %9s %21s %9s %21s %9s\n", "Latency (ms)",
		       "p50: base     other", "change", "p99: base     other", "change",
		       "max: base     other", "change");
	json_object_foreach(labels, label, v) {
		struct lg_cmp_latency b, o;

		if (lg_cmp_latency(base, label, &b) || lg_cmp_latency(other, label, &o)) {
			json_decref(labels);
			return -ENOMEM;
		}
		printf("  %-14s", label);
		print_lat_cell(&b, &o, b.p50_ns, o.p50_ns, b.have_pct && o.have_pct);
		print_lat_cell(&b, &o, b.p99_ns, o.p99_ns, b.have_pct && o.have_pct);
		print_lat_cell(&b, &o, b.max_ns, o.max_ns, b.max_ns && o.max_ns);
		putchar('\n');
	}
	json_decref(labels);
	return 0;
}

static int print_text(const struct cli *c, const struct lg_cmp_file *files,
		      const struct lg_cmp_result *res)
{
	printf("Baseline: %s (%zu run%s)\n", files[0].path, files[0].nruns,
	       files[0].nruns == 1 ? "" : "s");
	for (size_t i = 1; i < c->npaths; i++) {
		printf("\n%s against %s\n  Setup differences:\n", files[i].path, files[0].path);
		if (lg_cmp_setup_diffs(&files[0], &files[i], print_diff, NULL) == 0)
			printf("    no differences\n");
		print_metrics(&res[i]);
		print_verdict(&res[i], c, &files[0], &files[i]);
		if (print_latency(&files[0], &files[i]))
			return -ENOMEM;
	}
	return 0;
}

/* --- JSON output --- */

/* json_real refuses NaN and infinities; they mean "not defined" here. */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *summary_json(const struct lg_stat_summary *s, const double *values)
{
	json_t *vals = json_array();

	for (size_t i = 0; vals && i < s->n; i++) {
		if (json_array_append_new(vals, json_real(values[i]))) {
			json_decref(vals);
			vals = NULL;
		}
	}
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "n", (json_int_t)s->n,
			 "mean", num(s->mean), "stddev", num(s->stddev), "min", num(s->min),
			 "max", num(s->max), "ci95",
			 s->n >= 2 ? json_pack("[o, o]", num(s->ci95_lo), num(s->ci95_hi))
				   : json_null(),
			 "values", vals);
}

static json_t *metric_json(const struct lg_cmp_metric_result *m, const double *bv,
			   const double *ov)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			 "baseline", summary_json(&m->base, bv),
			 "other", summary_json(&m->other, ov),
			 "change_pct", num(m->change_pct),
			 "t", m->tested ? num(m->welch.t) : json_null(),
			 "df", m->tested ? num(m->welch.df) : json_null(),
			 "p_value", m->tested ? num(m->welch.p) : json_null());
}

static void diff_json(const char *key, const json_t *base, const json_t *other, void *ctx)
{
	json_t *a = ctx;

	/* an allocation failure leaves the entry out; the caller checks the count */
	json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "key", key, "baseline",
					   json_deep_copy(base), "other", json_deep_copy(other)));
}

static json_t *lat_side(const struct lg_cmp_latency *l)
{
	return json_pack("{s:I, s:o, s:o, s:I}", "count", (json_int_t)l->count,
			 "p50_ns", l->have_pct ? json_integer((json_int_t)l->p50_ns) : json_null(),
			 "p99_ns", l->have_pct ? json_integer((json_int_t)l->p99_ns) : json_null(),
			 "max_ns", (json_int_t)l->max_ns);
}

static json_t *latency_json(const struct lg_cmp_file *base, const struct lg_cmp_file *other)
{
	json_t *labels = lg_cmp_op_labels(base, other), *out = json_object(), *v;
	const char *label;

	json_object_foreach(labels, label, v) {
		struct lg_cmp_latency b, o;

		if (!out || lg_cmp_latency(base, label, &b) || lg_cmp_latency(other, label, &o) ||
		    json_object_set_new(out, label, json_pack("{s:o, s:o}", "baseline",
							       lat_side(&b), "other",
							       lat_side(&o)))) {
			json_decref(out);
			out = NULL;
			break;
		}
	}
	if (!labels) {
		json_decref(out);
		out = NULL;
	}
	json_decref(labels);
	return out;
}

static json_t *comparison_json(const struct cli *c, const struct lg_cmp_file *base,
			       const struct lg_cmp_file *other, const struct lg_cmp_result *r)
{
	const struct lg_cmp_metric_result *m = &r->metric[r->decided_by];
	json_t *diffs = json_array();
	size_t n = diffs ? lg_cmp_setup_diffs(base, other, diff_json, diffs) : 0;

	if (diffs && json_array_size(diffs) != n) {
		json_decref(diffs);
		diffs = NULL;
	}
	return json_pack("{s:s, s:I, s:o, s:{s:o, s:o}, s:s, s:o, s:o, s:s, s:b, s:b, s:o}",
			 "file", other->path, "runs", (json_int_t)other->nruns,
			 "setup_differences", diffs,
			 "metrics",
			 "throughput_mbps", metric_json(&r->metric[LG_CMP_MBPS], base->mbps,
							other->mbps),
			 "ops_per_s", metric_json(&r->metric[LG_CMP_OPS], base->ops, other->ops),
			 "decided_by", lg_cmp_metric_key(r->decided_by),
			 "change_pct", num(m->change_pct),
			 "p_value", m->tested ? num(m->welch.p) : json_null(),
			 "verdict", lg_cmp_verdict_name(r),
			 "below_min_effect", (int)r->below_min_effect,
			 "slower_than_limit",
			 (int)(c->fail_if_slower && lg_cmp_slower_than(r, c->opts.alpha,
								       c->slower_pct)),
			 "latency", latency_json(base, other));
}

static int print_json(const struct cli *c, const struct lg_cmp_file *files,
		      const struct lg_cmp_result *res, int status)
{
	json_t *cmps = json_array(), *doc;
	int rc = 0;

	for (size_t i = 1; cmps && i < c->npaths; i++) {
		if (json_array_append_new(cmps, comparison_json(c, &files[0], &files[i],
								&res[i]))) {
			json_decref(cmps);
			cmps = NULL;
		}
	}
	doc = json_pack("{s:s, s:f, s:f, s:o, s:{s:s, s:I}, s:o, s:i}",
			"schema", LG_COMPARE_SCHEMA, "alpha", c->opts.alpha,
			"min_effect_pct", c->opts.min_effect_pct,
			"fail_if_slower_pct", c->fail_if_slower ? json_real(c->slower_pct)
								: json_null(),
			"baseline", "file", files[0].path, "runs", (json_int_t)files[0].nruns,
			"comparisons", cmps, "exit_status", status);
	if (!doc || json_dumpf(doc, stdout, JSON_INDENT(2)) != 0 || putchar('\n') == EOF)
		rc = -ENOMEM;
	json_decref(doc);
	return rc;
}

/* --- The command --- */

/* Runs cut short (interrupted, partial) still measured a rate, so they count; but the
 * reader should know, since a short run is noisier. */
static void warn_incomplete(const struct lg_cmp_file *f)
{
	const json_t *run;
	size_t r;

	json_array_foreach(f->runs, r, run) {
		const char *st = json_string_value(json_object_get(run, "status"));

		if (st && strcmp(st, "complete") != 0)
			fprintf(stderr, "loadgen compare: %s: runs[%zu] is \"%s\"; included\n",
				f->path, r, st);
	}
}

/* Load every file, reporting each one that cannot be used. 0 or -EINVAL. */
static int load_all(const struct cli *c, struct lg_cmp_file *files)
{
	char err[ERR_MAX];
	int rc = 0;

	for (size_t i = 0; i < c->npaths; i++) {
		if (lg_cmp_file_load(c->paths[i], &files[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "loadgen compare: %s\n", err);
			rc = -EINVAL;
		} else {
			warn_incomplete(&files[i]);
		}
	}
	return rc;
}

int lg_compare_main(int argc, char **argv)
{
	struct lg_cmp_file *files = NULL;
	struct lg_cmp_result *res = NULL;
	struct cli c;
	int status = parse_args(argc, argv, &c);

	if (status >= 0)
		return status;
	files = calloc(c.npaths, sizeof(*files));
	res = calloc(c.npaths, sizeof(*res));
	status = EXIT_USAGE;
	if (!files || !res) {
		fprintf(stderr, "loadgen compare: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (load_all(&c, files) != 0)
		goto out;
	status = 0;
	for (size_t i = 1; i < c.npaths; i++) {
		lg_cmp_decide(&files[0], &files[i], &c.opts, &res[i]);
		if (c.fail_if_slower && lg_cmp_slower_than(&res[i], c.opts.alpha, c.slower_pct)) {
			/* on stderr, so that --json output stays a single document */
			fprintf(stderr, "loadgen compare: %s is slower than %s by more than "
				"%g %% (--fail-if-slower)\n", files[i].path, files[0].path,
				c.slower_pct);
			status = LG_COMPARE_EXIT_SLOWER;
		}
	}
	if ((c.json ? print_json(&c, files, res, status) : print_text(&c, files, res)) != 0) {
		fprintf(stderr, "loadgen compare: %s\n", strerror(ENOMEM));
		status = EXIT_USAGE;
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "loadgen compare: stdout: %s\n", strerror(errno));
		status = EXIT_USAGE;
	}
out:
	for (size_t i = 0; files && i < c.npaths; i++)
		lg_cmp_file_release(&files[i]);
	free(files);
	free(res);
	return status;
}
