/* `loadgen compare` with several files or client sweeps: one table per metric, a row per
 * client count of the baseline and a column per file, like mmtests' compare-kernels;
 * each change is marked when it is significant, then one verdict line per cell says
 * what backs it or how small a change the runs could have seen. */
#include "compare_priv.h"
#include "loadgen/compare/compare_sys.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define COL 26 /* width of a table column, in visible characters */

/* The column heading of file i: its kernel when the files' kernels differ (the usual
 * question), else its path. */
static const char *heading(const struct cmp_table *t, size_t i)
{
	const char *k0 = NULL;
	bool differ = false;

	for (size_t j = 0; j < t->cli->npaths; j++) {
		const char *k = json_string_value(
			json_object_get(json_object_get(t->files[j].doc, "env"), "kernel"));

		if (t->skip[j] && j > 0)
			continue;
		if (!k)
			return t->files[i].path;
		differ |= k0 && strcmp(k0, k) != 0;
		k0 = k0 ? k0 : k;
	}
	if (!differ)
		return t->files[i].path;
	return json_string_value(json_object_get(json_object_get(t->files[i].doc, "env"),
						 "kernel"));
}

/* Print s in a column of COL visible characters ("±" takes two bytes, one column). */
static void cell_out(const char *s)
{
	printf(" %-*s", COL + (strstr(s, "\u00b1") ? 1 : 0), s);
}

static void print_header(const struct cmp_table *t)
{
	printf("  %7s", "clients");
	for (size_t i = 0; i < t->cli->npaths; i++)
		if (!t->skip[i])
			cell_out(heading(t, i));
	putchar('\n');
}

/* The mark of a changed cell, on its own metric whether or not that metric decided the
 * verdict: * significant (and at least --min-effect), ? the rank test disagrees with
 * Welch's. */
static const char *mark(const struct lg_cmp_metric_result *m, const struct lg_cmp_opts *o)
{
	bool sig = lg_cmp_metric_significant(m, o);

	if (lg_cmp_metric_rank_disagrees(m, o->alpha))
		return sig ? "*?" : "?";
	return sig ? "*" : "";
}

static void metric_table(const struct cmp_table *t, enum lg_cmp_metric m)
{
	const struct lg_cmp_file *base = &t->files[0];
	char buf[112], v[64], chg[32];

	printf("\n%s: mean \u00b1 95 %% CI of the runs; (change against the baseline,"
	       " %s is better)\n", lg_cmp_metric_unit(m), "+");
	print_header(t);
	for (size_t g = 0; g < base->ngroups; g++) {
		struct lg_stat_summary s;

		(void)lg_stat_summarize(m == LG_CMP_OPS ? base->groups[g].ops
							: base->groups[g].mbps,
					base->groups[g].n, &s);
		printf("  %7u", base->groups[g].clients);
		lg_cmp_fmt_stat(&s, m == LG_CMP_MBPS ? 2 : 1, v, sizeof(v));
		cell_out(v);
		for (size_t i = 1; i < t->cli->npaths; i++) {
			const struct cmp_cell *c = t->skip[i] ? NULL : &t->cells[i][g];

			if (t->skip[i])
				continue;
			if (!c->present) {
				cell_out("-");
				continue;
			}
			lg_cmp_fmt_stat(&c->r.metric[m].other, m == LG_CMP_MBPS ? 2 : 1, v,
					sizeof(v));
			lg_cmp_fmt_pct(c->r.metric[m].change_pct, chg, sizeof(chg));
			snprintf(buf, sizeof(buf), "%s (%s)%s", v, chg,
				 mark(&c->r.metric[m], &t->cli->opts));
			cell_out(buf);
		}
		putchar('\n');
	}
}

/* p99 of label in group g of file i, as text; "-" when unknown. */
static int p99_text(const struct lg_cmp_file *f, const struct lg_cmp_group *g,
		    const char *label, uint64_t *ns, char *buf, size_t len)
{
	struct lg_cmp_latency l;

	if (lg_cmp_latency_group(f, g, label, &l))
		return -ENOMEM;
	*ns = l.have_pct ? l.p99_ns : 0;
	if (l.have_pct)
		snprintf(buf, len, "%.3f", (double)l.p99_ns / 1e6);
	else
		snprintf(buf, len, "-");
	return 0;
}

static int latency_row(const struct cmp_table *t, const char *label, size_t g)
{
	const struct lg_cmp_file *base = &t->files[0];
	char v[48], buf[96], chg[32];
	uint64_t b, o;

	printf("  %7u", base->groups[g].clients);
	if (p99_text(base, &base->groups[g], label, &b, v, sizeof(v)))
		return -ENOMEM;
	cell_out(v);
	for (size_t i = 1; i < t->cli->npaths; i++) {
		const struct cmp_cell *c = t->skip[i] ? NULL : &t->cells[i][g];

		if (!c)
			continue;
		if (!c->present) {
			cell_out("-");
			continue;
		}
		if (p99_text(&t->files[i], c->og, label, &o, v, sizeof(v)))
			return -ENOMEM;
		lg_cmp_fmt_pct(b && o ? 100.0 * ((double)o - (double)b) / (double)b : NAN, chg,
			       sizeof(chg));
		snprintf(buf, sizeof(buf), "%s (%s)", v, chg);
		cell_out(buf);
	}
	putchar('\n');
	return 0;
}

static int latency_tables(const struct cmp_table *t)
{
	json_t *labels = json_object(), *v;
	const char *label;
	int rc = 0;

	/* the labels of the baseline and every file compared */
	for (size_t i = 1; labels && i < t->cli->npaths; i++) {
		json_t *l = t->skip[i] ? NULL : lg_cmp_op_labels(&t->files[0], &t->files[i]);

		if (l && json_object_update(labels, l))
			rc = -ENOMEM;
		json_decref(l);
	}
	if (!labels)
		return -ENOMEM;
	json_object_foreach(labels, label, v) {
		printf("\np99 latency of %s (ms); (change against the baseline, - is better)\n",
		       label);
		print_header(t);
		for (size_t g = 0; rc == 0 && g < t->files[0].ngroups; g++)
			rc = latency_row(t, label, g);
	}
	json_decref(labels);
	return rc;
}

static void verdict_line(const struct cmp_table *t, size_t i, const struct cmp_cell *c)
{
	const struct lg_cmp_metric_result *m = &c->r.metric[c->r.decided_by];
	char chg[32];

	printf("  %s at %u clients: %s", t->files[i].path, c->bg->clients,
	       lg_cmp_verdict_name(&c->r));
	if (c->r.verdict == LG_VERDICT_NONE) {
		printf(" (a t-test needs at least 2 runs on each side)\n");
		return;
	}
	lg_cmp_fmt_pct(m->change_pct, chg, sizeof(chg));
	printf(" (%s %s, p %s%.4f", chg, lg_cmp_metric_unit(c->r.decided_by),
	       m->welch.p < 0.0001 ? "< " : "= ", m->welch.p < 0.0001 ? 0.0001 : m->welch.p);
	if (c->r.rank_too_few)
		printf("; rank test needs more runs");
	else
		printf("; rank test p = %.4f%s", m->mwu.p,
		       c->r.rank_disagrees ? ", DISAGREES" : "");
	if (isfinite(m->effect_g))
		printf("; g = %+.2f", m->effect_g);
	printf(")");
	if (c->r.below_min_effect)
		printf(" (%.1f %% < %g %%)", fabs(m->change_pct), t->cli->opts.min_effect_pct);
	if (c->r.verdict == LG_VERDICT_SAME && isfinite(m->mde_pct))
		printf("%s could detect %.1f %% or more; %s%zu %s per side for %g %%",
		       c->r.below_min_effect ? ";" : ":", m->mde_pct, m->runs_needed ? "" : "over ",
		       m->runs_needed ? m->runs_needed : (size_t)LG_COMPARE_MAX_RUNS,
		       c->r.by_batch || c->r.calibrated ? "batches" : "runs", m->target_pct);
	putchar('\n');
	lg_cmp_print_drift(&c->r, t->files[0].path, t->files[i].path, "    ");
	lg_cmp_print_batches(&c->r, t->files[0].path, t->files[i].path, "    ");
	if (c->r.calibrated)
		lg_cmp_print_calibration(&c->r, "    ");
}

/* Whether some cell compares one batch against one batch. */
static bool any_single(const struct cmp_table *t)
{
	for (size_t i = 1; i < t->cli->npaths; i++)
		for (size_t g = 0; !t->skip[i] && g < t->files[0].ngroups; g++)
			if (t->cells[i][g].present && t->cells[i][g].r.batches[0] < 2 &&
			    t->cells[i][g].r.batches[1] < 2 && !t->cells[i][g].r.calibrated &&
			    t->cells[i][g].r.verdict != LG_VERDICT_NONE)
				return true;
	return false;
}

/* The system counters that changed most between the runs of one cell, where the files
 * have them: only the runs at that client count on either side. */
static void sys_block(const struct cmp_table *t, size_t i, const struct cmp_cell *c)
{
	struct lg_cmp_sys_row row;
	size_t n = 0;

	if (lg_cmp_sys_rows(&t->files[0], c->bg, &t->files[i], c->og, &row, 1, &n) || !n)
		return;
	printf("\n%s against %s", t->files[i].path, t->files[0].path);
	if (t->sweep)
		printf(" at %u clients", c->bg->clients);
	printf(":\n");
	lg_cmp_sys_print(stdout, &t->files[0], c->bg, &t->files[i], c->og);
}

/* A line of who was busy beside one file's runs only, under the pair's heading. */
struct busy_ctx {
	const struct cmp_table *t;
	size_t i, n; /* the file against the baseline, lines so far */
};

static void busy_line(const struct lg_cmp_busy_note *note, void *ctx)
{
	struct busy_ctx *c = ctx;

	if (!c->n++)
		printf("\n%s against %s: busy beside one file's runs only (other processes):\n",
		       c->t->files[c->i].path, c->t->files[0].path);
	printf("    %s\n", note->text);
}

int lg_cmp_print_tables(const struct cmp_table *t)
{
	metric_table(t, LG_CMP_MBPS);
	metric_table(t, LG_CMP_OPS);
	if (latency_tables(t))
		return -ENOMEM;
	printf("\n* significant (Welch's t-test, alpha = %g, at least --min-effect %g %%);"
	       " ? the rank test disagrees.\nVerdicts:\n", t->cli->opts.alpha,
	       t->cli->opts.min_effect_pct);
	for (size_t i = 1; i < t->cli->npaths; i++)
		for (size_t g = 0; !t->skip[i] && g < t->files[0].ngroups; g++)
			if (t->cells[i][g].present)
				verdict_line(t, i, &t->cells[i][g]);
	if (any_single(t))
		lg_cmp_print_batch_note("  ");
	for (size_t i = 1; i < t->cli->npaths; i++)
		for (size_t g = 0; !t->skip[i] && g < t->files[0].ngroups; g++)
			if (t->cells[i][g].present)
				sys_block(t, i, &t->cells[i][g]);
	for (size_t i = 1; i < t->cli->npaths; i++) { /* the whole files: not per client count */
		struct busy_ctx c = { t, i, 0 };

		if (!t->skip[i])
			lg_cmp_busy_notes(t->files[0].doc, t->files[0].path, t->files[i].doc,
					  t->files[i].path, busy_line, &c);
	}
	return 0;
}
