/* `loadgen compare`'s text report.
 *
 * Two files at one client count: a block per file, setup differences first (a change
 * in throughput means little before one knows what else changed), then throughput with
 * confidence intervals, the verdict with what backs it (rank test, effect size, the
 * smallest change the runs could detect), then latency per op type. More files or
 * client sweeps: the setup differences, then one table per metric with a row per client
 * count and a column per file, as mmtests' compare-kernels lays them out, then one
 * verdict line per file and client count. */
#include "compare_priv.h"
#include "loadgen/compare/compare_sys.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void lg_cmp_fmt_stat(const struct lg_stat_summary *s, int prec, char *buf, size_t len)
{
	if (s->n < 2)
		snprintf(buf, len, "%.*f", prec, s->mean);
	else
		snprintf(buf, len, "%.*f \u00b1 %.*f", prec, s->mean, prec,
			 (s->ci95_hi - s->ci95_lo) / 2);
}

void lg_cmp_fmt_pct(double pct, char *buf, size_t len)
{
	if (isfinite(pct))
		snprintf(buf, len, "%+.1f %%", pct);
	else
		snprintf(buf, len, "n/a");
}

void lg_cmp_print_drift(const struct lg_cmp_result *r, const char *base, const char *other,
			const char *indent)
{
	bool any = false;

	for (int side = 0; side < 2; side++) {
		const struct lg_cmp_drift *d = &r->drift[side];
		const char *path = side ? other : base;

		if (d->drifts)
			printf("%sDrift: %s drifts %+.1f %% per run (p %s%.3f)\n", indent, path,
			       d->trend.slope_pct, d->trend.p < 0.001 ? "< " : "",
			       d->trend.p < 0.001 ? 0.001 : d->trend.p);
		if (d->first_apart)
			printf("%sDrift: the first run of %s is %+.1f %% off its other runs "
			       "(p %s%.3f)\n", indent, path, d->first.diff_pct,
			       d->first.p < 0.001 ? "< " : "", d->first.p < 0.001 ? 0.001 : d->first.p);
		any = any || d->drifts || d->first_apart;
	}
	if (any)
		printf("%s  Runs of one batch are not independent samples of its setup, so the "
		       "verdict\n%s  may be the batches' rather than the setups': give several "
		       "files per side\n%s  (compare A1 A2 -- B1 B2), or interleave with "
		       "loadgen ab.\n", indent, indent, indent);
}

void lg_cmp_print_batch_note(const char *indent)
{
	printf("%sOne batch per side: how much batches of one setup differ (a reboot, another"
	       " hour)\n%sis unknown, so this verdict is about these two batches. To compare "
	       "kernels, give\n%seach side several batches: compare A1 A2 A3 -- B1 B2 B3.\n",
	       indent, indent, indent);
}

void lg_cmp_print_calibration(const struct lg_cmp_result *r, const char *indent)
{
	printf("%sCalibrated: batches of this setup differ by %.2f %% (sd) on this machine\n"
	       "%s  (%zu A/A batches in %s);\n%s  counted as noise, so p, the smallest "
	       "detectable change and the batches needed\n%s  include it.\n", indent,
	       r->calib_sd_pct, indent, r->calib_batches, r->calib_path, indent, indent);
}

void lg_cmp_print_batches(const struct lg_cmp_result *r, const char *base, const char *other,
			  const char *indent)
{
	const char *unit = lg_cmp_metric_unit(r->decided_by);

	if (r->batches[0] < 2 && r->batches[1] < 2)
		return;
	if (r->batches[0] < 2 || r->batches[1] < 2)
		printf("%s%s is one batch: set against the spread of the other side's %zu batch"
		       " means\n%s  (a prediction interval), so the noise between batches "
		       "counts.\n", indent, r->batches[0] < 2 ? base : other,
		       r->batches[0] < 2 ? r->batches[1] : r->batches[0], indent);
	else
		printf("%sDecided on batch means: %zu batches against %zu (each batch one value;"
		       " the\n%s  spread between batches is the noise a difference must beat).\n",
		       indent, r->batches[0], r->batches[1], indent);
	for (int s = 0; s < 2; s++) {
		const struct lg_stat_nested *n = &r->nested[s];

		if (!r->nested_ok[s])
			continue;
		printf("%sBatches of %s: sd between batches %.3g %s, sd of runs within a batch"
		       " %.3g %s\n%s  (batches differ: F = %.2f, p %s%.3f)\n", indent,
		       s ? other : base, sqrt(n->var_between), unit, sqrt(n->var_within), unit,
		       indent, n->f, n->p < 0.001 ? "< " : "", n->p < 0.001 ? 0.001 : n->p);
	}
}

static void fmt_p(double p, bool tested, char *buf, size_t len)
{
	if (!tested)
		snprintf(buf, len, "n/a");
	else if (p < 0.0001)
		snprintf(buf, len, "< 0.0001");
	else
		snprintf(buf, len, "= %.4f", p);
}

/* Columns holding "±" are one byte wider than they look. */
static int pad(const char *s, int width)
{
	return width + (strstr(s, "\u00b1") ? 1 : 0);
}

static void print_metrics(const struct lg_cmp_result *r)
{
	char b[64], o[64], chg[32], p[32];

	printf("  %-8s %-22s %-22s %-10s %s\n", "", "baseline", "other", "change", "p-value");
	for (int i = 0; i < LG_CMP_NMETRICS; i++) {
		const struct lg_cmp_metric_result *m = &r->metric[i];

		lg_cmp_fmt_stat(&m->base, i == LG_CMP_MBPS ? 2 : 1, b, sizeof(b));
		lg_cmp_fmt_stat(&m->other, i == LG_CMP_MBPS ? 2 : 1, o, sizeof(o));
		lg_cmp_fmt_pct(m->change_pct, chg, sizeof(chg));
		fmt_p(m->welch.p, m->tested, p, sizeof(p));
		printf("  %-8s %-*s %-*s %-10s %s\n", lg_cmp_metric_unit(i), pad(b, 22), b,
		       pad(o, 22), o, chg, m->tested ? p + (p[0] == '=' ? 2 : 0) : p);
	}
	if (r->by_batch)
		printf("  batches  %-22zu %zu\n", r->batches[0], r->batches[1]);
	else
		printf("  runs     %-22zu %zu\n", r->metric[0].base.n, r->metric[0].other.n);
}

/* What backs a verdict, or what the data could not see: one or two lines. */
static void print_support(const struct lg_cmp_result *r, const struct cli *c)
{
	const struct lg_cmp_metric_result *m = &r->metric[r->decided_by];
	const char *u = r->by_batch || r->calibrated ? "batches" : "runs"; /* the sample unit */
	char p[32];

	fmt_p(m->mwu.p, true, p, sizeof(p));
	if (r->rank_too_few)
		printf("  Rank test (Mann-Whitney U): cannot reach p < %g with %zu and %zu %s"
		       " (its smallest p is %.3f); it needs more %s to check this.\n",
		       c->opts.alpha, m->base.n, m->other.n, r->by_batch ? u : "runs",
		       m->mwu.min_p, r->by_batch ? u : "runs");
	else
		printf("  Rank test (Mann-Whitney U): U = %g, p %s%s\n", m->mwu.stat, p,
		       r->rank_disagrees ? ": it DISAGREES with Welch's test, so the runs do not"
					   " settle it (look for outliers or run more)" : "");
	if (isfinite(m->effect_g))
		printf("  Effect size (Hedges' g): %+.2f\n", m->effect_g);
	if (r->verdict != LG_VERDICT_SAME)
		return;
	if (isfinite(m->mde_pct))
		printf("  These %s could only detect a change of %.1f %% or more (80 %% power,"
		       " alpha = %g); ", u, m->mde_pct, c->opts.alpha);
	else
		printf("  ");
	if (m->runs_needed)
		printf("%zu %s per side would detect %g %%.\n", m->runs_needed, u,
		       m->target_pct);
	else
		printf("detecting %g %% would need over %d %s per side.\n", m->target_pct,
		       LG_COMPARE_MAX_RUNS, u);
}

static void print_verdict(const struct lg_cmp_result *r, const struct cli *c,
			  const struct lg_cmp_file *base, const struct lg_cmp_file *other)
{
	const struct lg_cmp_metric_result *m = &r->metric[r->decided_by];
	char chg[32], p[32], small[64] = "";

	if (isnan(m->change_pct)) /* the baseline is 0 */
		snprintf(chg, sizeof(chg), m->other.mean > 0 ? "up from 0" : "0 in both");
	else
		lg_cmp_fmt_pct(m->change_pct, chg, sizeof(chg));
	fmt_p(m->welch.p, m->tested, p, sizeof(p));
	if (r->verdict == LG_VERDICT_NONE) {
		printf("  Verdict: no verdict possible: %s has %zu run%s and %s %zu; a t-test "
		       "needs at least 2 runs in each file.\n"
		       "  Run loadgen with --repeat 5 (or more) to get one.\n",
		       base->path, m->base.n, m->base.n == 1 ? "" : "s", other->path,
		       m->other.n);
		return;
	}
	if (r->below_min_effect) /* say by how much, beside the verdict itself */
		snprintf(small, sizeof(small), " (%.1f %% < %g %%)", fabs(m->change_pct),
			 c->opts.min_effect_pct);
	printf("  Verdict: %s%s (decided on %s: %s, p %s, alpha = %g)\n", lg_cmp_verdict_name(r),
	       small, lg_cmp_metric_unit(r->decided_by), chg, p, c->opts.alpha);
	if (r->decided_by == LG_CMP_OPS)
		printf("  Throughput is 0 MB/s in both files (no data moved), so ops/s decided.\n");
	if (m->welch.kind == LG_WELCH_DIFF_CONST)
		printf("  Note: all runs within each file gave the same value (zero variance); "
		       "any difference counts as significant.\n");
	print_support(r, c);
	lg_cmp_print_drift(r, base->path, other->path, "  ");
	if (r->calibrated)
		lg_cmp_print_calibration(r, "  ");
	else if (r->batches[0] < 2 && r->batches[1] < 2)
		lg_cmp_print_batch_note("  ");
	else
		lg_cmp_print_batches(r, base->path, other->path, "  ");
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
	lg_cmp_fmt_pct(both ? 100.0 * ((double)ov - (double)bv) / (double)bv : NAN, chg,
		       sizeof(chg));
	printf(" %10s %10s %9s", sb, so, chg);
}

static int print_latency(const struct cmp_table *t, size_t i, const struct cmp_cell *cell)
{
	const struct lg_cmp_file *base = &t->files[0], *other = &t->files[i];
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

		if (lg_cmp_latency_group(base, cell->bg, label, &b) ||
		    lg_cmp_latency_group(other, cell->og, label, &o)) {
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

static void print_setup(const struct cmp_table *t, size_t i)
{
	printf("\n%s against %s\n  Setup differences:\n", t->files[i].path, t->files[0].path);
	if (lg_cmp_setup_diffs(&t->files[0], &t->files[i], print_diff, NULL) == 0)
		printf("    no differences\n");
}

/* A line of who was busy beside one file's runs only, under its heading. */
static void print_busy(const struct lg_cmp_busy_note *note, void *ctx)
{
	size_t *n = ctx;

	if (!(*n)++)
		printf("  Busy beside one file's runs only (other processes of the host):\n");
	printf("    %s\n", note->text);
}

/* Two files, one client count: the detailed block per file. */
static int print_pairs(const struct cmp_table *t)
{
	size_t nbusy;

	for (size_t i = 1; i < t->cli->npaths; i++) {
		const struct cmp_cell *cell = t->cells[i] ? &t->cells[i][0] : NULL;

		if (t->skip[i] || !cell || !cell->present)
			continue;
		print_setup(t, i);
		print_metrics(&cell->r);
		print_verdict(&cell->r, t->cli, &t->files[0], &t->files[i]);
		lg_cmp_sys_print(stdout, &t->files[0], cell->bg, &t->files[i], cell->og);
		nbusy = 0;
		lg_cmp_busy_notes(t->files[0].doc, t->files[0].path, t->files[i].doc,
				  t->files[i].path, print_busy, &nbusy);
		if (print_latency(t, i, cell))
			return -ENOMEM;
	}
	return 0;
}

/* Files that are partial (a log cut off mid-run, runs that lost clients or ranks): what
 * they lack, before any figure of theirs is read as whole. */
static void print_partial(const struct cmp_table *t)
{
	char note[LG_CMP_NOTE_MAX];

	for (size_t i = 0; i < t->cli->npaths; i++)
		if (!t->skip[i] && lg_cmp_partial_note(t->files[i].doc, note, sizeof(note)))
			printf("Partial: %s: %s\n", t->files[i].path, note);
}

int lg_cmp_print_text(const struct cmp_table *t)
{
	printf("Baseline: %s (", t->files[0].path);
	if (t->files[0].nbatches > 1)
		printf("%zu batches, ", t->files[0].nbatches);
	printf("%zu run%s)\n", t->files[0].nruns, t->files[0].nruns == 1 ? "" : "s");
	print_partial(t);
	if (!t->sweep && t->cli->npaths == 2)
		return print_pairs(t);
	for (size_t i = 1; i < t->cli->npaths; i++)
		if (!t->skip[i])
			print_setup(t, i);
	return lg_cmp_print_tables(t);
}
