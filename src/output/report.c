/* Human-readable output, shaped like dbench's so existing eyes and scripts feel at home:
 * the per-second progress line, and a final table in milliseconds followed by the
 * "Throughput ... MB/sec" line that dbench users grep for. */
#include "loadgen/output/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "counters/result_summary.h"
#include "loadgen/counters/ranks.h"

#define LABEL_MIN 20 /* width of the Operation column; wider labels widen it */
#define COL 10       /* width of each numeric column */
#define MAX_NOTES LG_FIRST_ERRORS /* unexpected results quoted, over all clients */

void lg_report_progress(FILE *out, unsigned clients, uint64_t ops, double mbps,
			const char *phase, double secs, int decimals, double max_latency_ms)
{
	/* dbench's "%4d %8d ..." with the types we hold: same text for every value an int
	 * could show, and no wrap past 2^31 ops. */
	fprintf(out, "%4u %8" PRIu64 " %7.2f MB/sec  %s %*.*f sec  latency %.3f ms\n", clients,
		ops, mbps, phase, decimals ? 4 + decimals : 3, decimals, secs, max_latency_ms);
}

static const char *type_label(const struct lg_run *run, size_t i)
{
	return run->type_names && run->type_names[i] ? run->type_names[i] : "?";
}

static const char *expect_name(int32_t expect)
{
	return expect == LG_EXPECT_ANY ? "any" : lg_errno_name(expect);
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static int label_width(const struct lg_run *run)
{
	size_t w = LABEL_MIN;

	for (size_t i = 0; i < run->ntypes; i++) {
		size_t n = strlen(type_label(run, i)) + 1;

		if (n > w)
			w = n;
	}
	return (int)w;
}

static void print_rule(FILE *out, int w)
{
	fputc(' ', out);
	for (int i = 0; i < w + 6 * COL; i++)
		fputc('-', out);
	fputc('\n', out);
}

static void print_table(FILE *out, const struct lg_run *run, int w)
{
	/* every latency column says its unit: the table alone must be readable */
	fprintf(out, "\n %-*s%*s%*s%*s%*s%*s%*s\n", w, "Operation", COL, "Count", COL,
		"AvgLat ms", COL, "p50 ms", COL, "p99 ms", COL, "p99.9 ms", COL, "MaxLat ms");
	print_rule(out, w);
	for (size_t i = 0; i < run->ntypes; i++) {
		const struct lg_type_stats *t = &run->totals[i];

		if (t->count == 0)
			continue;
		fprintf(out, " %-*s%*" PRIu64 "%*.3f%*.3f%*.3f%*.3f%*.3f\n", w, type_label(run, i),
			COL, t->count, COL, lg_histogram_mean(&t->hist) / 1e6, COL,
			ms(lg_histogram_percentile(&t->hist, 50)), COL,
			ms(lg_histogram_percentile(&t->hist, 99)), COL,
			ms(lg_histogram_percentile(&t->hist, 99.9)), COL, ms(t->hist.max_ns));
	}
}

/* Per type: how many results were unexpected, and which errno each gave ("OK" for a
 * success where a failure was expected). */
static void print_errors(FILE *out, const struct lg_run *run, int w)
{
	fprintf(out, "\n %-*s%*s  %s\n", w, "Unexpected results", COL, "Count", "By result");
	for (size_t i = 0; i < run->ntypes; i++) {
		const struct lg_type_stats *t = &run->totals[i];

		if (t->errors == 0)
			continue;
		fprintf(out, " %-*s%*" PRIu64 " ", w, type_label(run, i), COL, t->errors);
		for (int e = 0; e < LG_ERRNO_MAX; e++)
			if (t->errnos[e])
				fprintf(out, " %s=%" PRIu64, lg_errno_name(e), t->errnos[e]);
		fputc('\n', out);
	}
}

/* Note lines, with a run of identical ones (a failing op repeated) said once with its
 * count: " client 0: line 30: write got ENOSPC, expected OK (×8)". */
struct note_lines {
	FILE *out;
	char prev[4608]; /* the line held back, without its newline */
	unsigned n;      /* how many times in a row it came */
};

static void notes_flush(struct note_lines *d)
{
	if (d->n > 1)
		fprintf(d->out, "%s (×%u)\n", d->prev, d->n);
	else if (d->n)
		fprintf(d->out, "%s\n", d->prev);
	d->n = 0;
}

static void notes_add(struct note_lines *d, const char *line)
{
	if (d->n && strcmp(line, d->prev) == 0) {
		d->n++;
		return;
	}
	notes_flush(d);
	snprintf(d->prev, sizeof(d->prev), "%s", line);
	d->n = 1;
}

/* One note: " client C: line L: TYPE[ PATH] got X, expected Y[ (hint)]". */
static void note_line(struct note_lines *d, const struct lg_run *run, unsigned client,
		      const struct lg_error_note *n, const char *path)
{
	char line[4608], hint[128];

	if (path && !*path) /* the note names no file */
		path = NULL;
	lg_error_note_hint(n, hint, sizeof(hint));
	snprintf(line, sizeof(line), " client %u: line %" PRIu32 ": %s%s%s got %s, expected %s%s%s%s",
		 client, n->line, n->type < run->ntypes ? type_label(run, n->type) : "?",
		 path ? " " : "", path ? path : "", lg_errno_name(n->got),
		 expect_name(n->expect), *hint ? " (" : "", hint, *hint ? ")" : "");
	notes_add(d, line);
}

/* Where the first unexpected results happened, so the user can find the op. */
static void print_notes(FILE *out, const struct lg_run *run)
{
	struct note_lines d = { .out = out };
	uint64_t shown = 0;

	for (unsigned c = 0; c < run->nclients && shown < MAX_NOTES; c++) {
		const struct lg_client_stats *cs = run->clients ? run->clients[c] : NULL;

		for (size_t k = 0; cs && k < cs->nnotes && shown < MAX_NOTES; k++, shown++)
			note_line(&d, run, cs->id, &cs->notes[k], NULL);
	}
	notes_flush(&d);
	if (run->errors > shown && shown > 0)
		fprintf(out, " ... and %" PRIu64 " more\n", run->errors - shown);
}

static void print_fairness(FILE *out, const struct lg_run *run)
{
	struct lg_fairness f;
	bool mb;

	if (run->nclients < 2 || lg_run_fairness(run, &f))
		return;
	mb = strcmp(f.metric, "throughput_mbps") == 0;
	fprintf(out, "Fairness: per-client %s min %.2f  median %.2f  max %.2f  Jain's index %.3f\n",
		mb ? "MB/sec" : "ops/sec", f.min, f.median, f.max, f.jain);
}

/* Printed only when there was a stall. */
static void print_stalls(FILE *out, const struct lg_run *run)
{
	struct lg_stalls st;

	lg_run_stalls(run, &st);
	if (st.idle_intervals)
		fprintf(out, "Stalls: %" PRIu64 " intervals with no op completed, %.1f s in all; "
			     "longest %.1f s from %.1f s\n", st.idle_intervals, st.idle_s,
			st.longest_idle_s, st.longest_idle_at_s);
	if (st.slow_ops)
		fprintf(out, "Stalls: %" PRIu64 " ops slower than %.0f ms, %.3f s in all; longest "
			     "%.3f ms (%s, client %u, line %u) ending at %.1f s\n", st.slow_ops,
			ms(run->stall_ns), st.slow_total_s, ms(st.slowest_ns),
			type_label(run, st.slowest_type), st.slowest_client, st.slowest_line,
			st.slowest_at_s);
}

/* "client 3 (rank 1, host h2)": who wrote or read a corrupt file (no host on one). */
static void place(char *buf, size_t len, const struct lg_run *run, unsigned id)
{
	unsigned rank;
	const char *host;

	lg_run_client_place(run, id, &rank, &host);
	if (host)
		snprintf(buf, len, "client %u (rank %u, host %s)", id, rank, host);
	else
		snprintf(buf, len, "client %u (rank %u)", id, rank);
}

/* One corruption note of client `reader`: what, where, who wrote and read it. */
static void print_note(FILE *out, const struct lg_run *run, unsigned reader,
		       const struct lg_corruption_note *n)
{
	char exp[96], found[96], wrote[LG_HOST_MAX + 48], read[LG_HOST_MAX + 48];
	const char *type = n->type < run->ntypes ? type_label(run, n->type) : "?";

	lg_corruption_describe(n, exp, sizeof(exp), found, sizeof(found));
	place(wrote, sizeof(wrote), run, n->writer);
	place(read, sizeof(read), run, reader);
	if (n->reason == LG_CORRUPT_STALE) {
		fprintf(out, " client %u: line %" PRIu32 ": %s %s: stale metadata: %s\n"
			     "   written by %s, read by %s\n", reader, n->line, type, n->path,
			found, wrote, read);
		return;
	}
	fprintf(out, " client %u: line %" PRIu32 ": %s %s at offset %" PRIu64
		     ": %s; first wrong byte at %" PRIu64 ": 0x%02x, written 0x%02x\n"
		     "   written by %s, read by %s\n"
		     "   expected %s\n   found    %s\n",
		reader, n->line, type, n->path, n->offset, lg_corruption_reason_name(n->reason),
		n->bad_offset, n->found_byte, n->expected_byte, wrote, read, exp, found);
}

/* --verify: the count of corrupt blocks (and stale metadata), and where the first ones
 * are. */
static void print_verify(FILE *out, const struct lg_run *run)
{
	uint64_t shown = 0;

	if (!run->corruptions) {
		fprintf(out, "Data verification: no corruption in %" PRIu64 " bytes checked",
			run->verified_bytes);
		if (run->peer_verified_bytes)
			fprintf(out, " (%" PRIu64 " of them written by another client)",
				run->peer_verified_bytes);
		fputc('\n', out);
		return;
	}
	fprintf(out, "Data verification: %" PRIu64 " corrupt block%s in %" PRIu64
		     " bytes checked\n", run->corruptions, run->corruptions == 1 ? "" : "s",
		run->verified_bytes);
	for (unsigned c = 0; c < run->nclients && run->clients; c++) {
		const struct lg_client_stats *cs = run->clients[c];

		for (size_t k = 0; cs && k < cs->ncorrupt && k < LG_CORRUPT_NOTES; k++) {
			print_note(out, run, cs->id, &cs->corrupt[k]);
			shown++;
		}
	}
	if (run->corruptions > shown && shown > 0)
		fprintf(out, " ... and %" PRIu64 " more\n", run->corruptions - shown);
}

/* Per label: steps not executed, by reason. Never in the table's counts. */
static void print_skipped(FILE *out, const struct lg_run *run, int w)
{
	fprintf(out, "\n %-*s%*s  %s\n", w, "Skipped (not executed)", COL, "Count", "By reason");
	for (size_t i = 0; i < run->ntypes; i++) {
		const struct lg_type_stats *t = &run->totals[i];
		uint64_t n = 0;

		for (unsigned r = 0; r < LG_SKIP_REASONS; r++)
			n += t->skipped[r];
		if (n == 0)
			continue;
		fprintf(out, " %-*s%*" PRIu64 " ", w, type_label(run, i), COL, n);
		for (unsigned r = 0; r < LG_SKIP_REASONS; r++)
			if (t->skipped[r])
				fprintf(out, " %s=%" PRIu64, lg_skip_reason_name(r), t->skipped[r]);
		fputc('\n', out);
	}
}

/* Writes that wrote fewer bytes than asked (no error): per label in the measured phase,
 * then per untimed phase with its first one. */
static void print_short(FILE *out, const struct lg_run *run, int w)
{
	char path[4096];

	if (run->short_writes && run->totals) {
		fprintf(out, "\n %-*s%*s\n", w, "Short writes", COL, "Count");
		for (size_t i = 0; i < run->ntypes; i++)
			if (run->totals[i].short_writes)
				fprintf(out, " %-*s%*" PRIu64 "\n", w, type_label(run, i), COL,
					run->totals[i].short_writes);
	}
	for (unsigned p = 0; p < LG_UNTIMED_COUNT; p++) {
		if (!run->untimed_short[p])
			continue;
		fprintf(out, "\nShort writes in %s: %" PRIu64 " (fewer bytes written than asked, "
			     "no error)\n", lg_untimed_name(p), run->untimed_short[p]);
		for (unsigned c = 0; c < run->nclients && run->clients; c++) {
			const struct lg_short_note *n =
				run->clients[c] ? &run->clients[c]->untimed[p].first_short : NULL;

			if (!n || !n->set)
				continue;
			fprintf(out, " client %u: line %" PRIu32 ": %s %s wrote %" PRIu64 " of %"
				     PRIu64 " bytes\n", c, n->line,
				n->type < run->ntypes ? type_label(run, n->type) : "?",
				lg_run_note_path(run, c, n->path, path, sizeof(path)), n->wrote,
				n->asked);
		}
	}
}

/* One op skipped because its slot was not open, and what left the slot closed. */
static void print_not_open(FILE *out, const struct lg_run *run, unsigned client,
			   const struct lg_skip_note *n)
{
	const char *type = n->type < run->ntypes ? type_label(run, n->type) : "?";

	if (n->event == LG_SLOT_NEVER)
		fprintf(out, " client %u: line %" PRIu32 ": %s skipped: its slot was never "
			     "opened\n", client, n->line, type);
	else
		fprintf(out, " client %u: line %" PRIu32 ": %s skipped: its slot is not open "
			     "(%s at line %" PRIu32 ")\n", client, n->line, type,
			lg_slot_event_name(n->event), n->slot_line);
}

/* Ops of the measured phase skipped because their slot was not open: loud, since the
 * load ran was not the load described. */
static void print_not_open_run(FILE *out, const struct lg_run *run)
{
	if (!run->skipped[LG_SKIP_NOT_OPEN])
		return;
	fprintf(out, "\nFAILURE: %" PRIu64 " ops were not executed because their file slot "
		     "was not open:\n", run->skipped[LG_SKIP_NOT_OPEN]);
	for (unsigned c = 0; c < run->nclients && run->clients; c++)
		if (run->clients[c] && run->clients[c]->not_open.set)
			print_not_open(out, run, run->clients[c]->id, &run->clients[c]->not_open);
}

/* One untimed phase's failures over all clients: count, errnos, first notes. No zero
 * counts: only what happened is said. */
static void print_untimed_phase(FILE *out, const struct lg_run *run, unsigned p)
{
	uint64_t errnos[LG_ERRNO_MAX] = { 0 }, shown = 0;
	uint64_t skipped = run->untimed_skipped[p][LG_SKIP_NOT_OPEN];
	struct note_lines d = { .out = out };
	char path[4096];

	for (unsigned c = 0; c < run->nclients && run->clients; c++)
		for (int e = 0; run->clients[c] && e < LG_ERRNO_MAX; e++)
			errnos[e] += run->clients[c]->untimed[p].errnos[e];
	fprintf(out, "\nFAILURE:");
	if (run->untimed_errors[p]) {
		fprintf(out, " %" PRIu64 " unexpected results in %s", run->untimed_errors[p],
			lg_untimed_name(p));
		for (int e = 0; e < LG_ERRNO_MAX; e++)
			if (errnos[e])
				fprintf(out, " %s=%" PRIu64, lg_errno_name(e), errnos[e]);
	}
	if (skipped)
		fprintf(out, "%s %" PRIu64 " ops not executed (slot not open) in %s",
			run->untimed_errors[p] ? "," : "", skipped, lg_untimed_name(p));
	fputc('\n', out);
	for (unsigned c = 0; c < run->nclients && run->clients; c++) {
		const struct lg_untimed_stats *u = run->clients[c] ? &run->clients[c]->untimed[p]
								  : NULL;

		for (size_t k = 0; u && k < u->nnotes && shown < MAX_NOTES; k++, shown++)
			note_line(&d, run, c, &u->notes[k],
				  lg_run_note_path(run, c, u->notes[k].path, path, sizeof(path)));
		notes_flush(&d);
		if (u && u->not_open.set)
			print_not_open(out, run, c, &u->not_open);
	}
}

/* Failures outside the measured ops: setup, warm-up, cleanup. */
static void print_untimed(FILE *out, const struct lg_run *run)
{
	for (unsigned p = 0; p < LG_UNTIMED_COUNT; p++)
		if (run->untimed_errors[p] || run->untimed_skipped[p][LG_SKIP_NOT_OPEN])
			print_untimed_phase(out, run, p);
}

void lg_report_summary(FILE *out, const struct lg_run *runs, size_t n)
{
	struct lg_run *sel = calloc(n ? n : 1, sizeof(*sel));
	struct lg_stat_summary m, o;
	const char *warn;
	double cv;
	size_t k = sel && n ? lg_runs_with_clients(runs, n, runs[0].nclients, sel) : 0;

	if (k < 2 || lg_runs_summarize(sel, k, &m, &o)) {
		free(sel);
		return;
	}
	free(sel);
	fprintf(out, "\nSummary of %zu runs       mean    stddev       min       max  95%% CI of the"
		" mean      CV\n", k);
	fprintf(out, " MB/sec       %12.3f %9.3f %9.3f %9.3f  [%.3f, %.3f]  %5.2f %%\n", m.mean,
		m.stddev, m.min, m.max, m.ci95_lo, m.ci95_hi, lg_stat_cv_pct(&m));
	fprintf(out, " ops/sec      %12.1f %9.1f %9.1f %9.1f  [%.1f, %.1f]  %5.2f %%\n", o.mean,
		o.stddev, o.min, o.max, o.ci95_lo, o.ci95_hi, lg_stat_cv_pct(&o));
	if (k < n) /* interrupted in setup or warm-up: a 0 there would be no measurement */
		fprintf(out, "(left out: %zu run%s that measured nothing)\n", n - k,
			n - k == 1 ? "" : "s");
	cv = lg_stat_cv_pct(m.mean > 0 ? &m : &o);
	warn = lg_cv_warning(cv);
	if (warn)
		fprintf(out, "Warning: CV %.1f %%: %s.\n", cv, warn);
}

void lg_report_scaling(FILE *out, const struct lg_run *runs, size_t n)
{
	struct lg_run *sel = calloc(n ? n : 1, sizeof(*sel));
	struct lg_count_summary *cs = malloc(sizeof(*cs));
	unsigned done[LG_SWEEP_MAX];
	size_t ndone = 0;
	bool marked = false; /* a row has the ! mark: its legend is printed */

	if (!sel || !cs)
		goto out;
	fprintf(out, "\nScaling (mean \u00b1 95%% CI of the runs at each client count)\n");
	fprintf(out, "%8s %5s %22s %12s %12s %12s %7s\n", "clients", "runs", "MB/sec",
		"ops/sec", "p99 ms", "max ms", "CV %");
	for (size_t i = 0; i < n && ndone < LG_SWEEP_MAX; i++) {
		size_t j, k;
		char mb[48];

		for (j = 0; j < ndone && done[j] != runs[i].nclients; j++)
			;
		if (j < ndone)
			continue;
		done[ndone++] = runs[i].nclients;
		k = lg_runs_with_clients(runs, n, runs[i].nclients, sel);
		if (lg_count_summary(sel, k, cs))
			break;
		if (k > 1)
			snprintf(mb, sizeof(mb), "%.3f \u00b1 %.3f", cs->mbps.mean,
				 (cs->mbps.ci95_hi - cs->mbps.ci95_lo) / 2);
		else
			snprintf(mb, sizeof(mb), "%.3f", cs->mbps.mean);
		fprintf(out, "%8u %5zu %*s %12.1f %12.3f %12.3f %7.2f%s\n", cs->clients, k,
			22 + (k > 1), mb, cs->ops.mean,
			(double)lg_histogram_percentile(&cs->all, 99.0) / 1e6,
			(double)cs->all.max_ns / 1e6, cs->cv_pct,
			lg_cv_warning(cs->cv_pct) ? " !" : "");
		marked = marked || lg_cv_warning(cs->cv_pct);
	}
	if (marked)
		fprintf(out, "(! CV above %g %%: %s)\n", LG_CV_WARN_PCT, lg_cv_warning(100));
out:
	free(sel);
	free(cs);
}

void lg_report_issues(FILE *out, const struct lg_run *run)
{
	static const char *const stopped[] = {
		[LG_RUN_INTERRUPTED] = "interrupted", [LG_RUN_ABORTED] = "aborted",
		[LG_RUN_FAILED] = "failed: nothing measured",
	};
	struct lg_run_failures f;

	lg_run_failures(run, &f);
	if (f.count)
		fprintf(out, "  FAILURE: %s", f.text);
	if (run->status < sizeof(stopped) / sizeof(*stopped) && stopped[run->status])
		fprintf(out, "  (%s)", stopped[run->status]);
}

/* dbench's "Ops ... ops/sec" line. Ops whose result was unexpected (a write that got
 * ENOSPC) are not the work the workload describes: ops/sec counts the others, and the
 * failed ones stand beside it. */
static void print_ops_line(FILE *out, const struct lg_run *run, double secs)
{
	uint64_t ok = run->ops - (run->errors < run->ops ? run->errors : run->ops);

	fprintf(out, "Ops %.1f ops/sec", secs ? (double)ok / secs : 0);
	if (run->errors)
		fprintf(out, "  failed %" PRIu64 " ops (%.1f/sec)", run->errors,
			secs ? (double)run->errors / secs : 0);
	fprintf(out, "  read %" PRIu64 " bytes  written %" PRIu64 " bytes  %.3f s\n",
		run->bytes_read, run->bytes_written, secs);
}

/* The figures of a run that measured something: throughput, ops, fairness, stalls,
 * --verify, --end-sync, and how an early stop limits them. */
static void print_figures(FILE *out, const struct lg_config *cfg, const struct lg_run *run)
{
	double secs = run->duration_s > 0 ? run->duration_s : 0;
	double mbps = secs ? (double)(run->bytes_read + run->bytes_written) / secs / 1e6 : 0;

	/* dbench's "N clients  N procs", its fields in place, saying what runs each client */
	unsigned nt = run->nthreads ? run->nthreads : run->nclients;

	fprintf(out, "\nThroughput %g MB/sec  %u %s  %u %s  max_latency=%.3f ms\n", mbps,
		run->nclients, run->nclients == 1 ? "client" : "clients", nt,
		cfg && cfg->processes ? (nt == 1 ? "process" : "processes")
				      : (nt == 1 ? "thread" : "threads"), ms(run->all.max_ns));
	print_ops_line(out, run, secs);
	print_fairness(out, run);
	lg_report_bphases(out, run);
	print_stalls(out, run);
	if ((cfg && cfg->verify) || run->corruptions)
		print_verify(out, run);
	if (run->end_sync_s > 0 && secs > run->end_sync_s)
		fprintf(out, "Buffered %g MB/sec before the final syncfs, which took %.3f s "
			     "(the Throughput line includes it)\n",
			(double)(run->bytes_read + run->bytes_written) / (secs - run->end_sync_s) / 1e6,
			run->end_sync_s);
	if (run->status == LG_RUN_INTERRUPTED)
		fprintf(out, "Interrupted: the run stopped early; figures cover the %.3f s "
			     "measured before the stop\n", secs);
	if (run->status == LG_RUN_ABORTED)
		fprintf(out, "Aborted: --abort-on-error stopped the run at the first unexpected "
			     "result; figures cover the %.3f s measured before the stop\n", secs);
}

/* A run that measured nothing (its setup failed, or it stopped in setup or warm-up):
 * why, instead of a table of zeros. */
static void print_nothing(FILE *out, const struct lg_run *run)
{
	if (run->status == LG_RUN_INTERRUPTED)
		fprintf(out, "\nInterrupted before the measured phase began: nothing was "
			     "measured\n");
	else if (run->status == LG_RUN_ABORTED)
		fprintf(out, "\nAborted by --abort-on-error before the measured phase began: "
			     "nothing was measured\n");
	else if (run->status != LG_RUN_FAILED)
		fprintf(out, "\nNothing was measured: the measured phase did not begin\n");
	else
		fputc('\n', out);
}

void lg_report_print(FILE *out, const struct lg_config *cfg, const struct lg_run *run)
{
	int w = label_width(run);
	bool measured = lg_run_measured(run);
	struct lg_run_failures f;
	uint64_t skipped = 0;

	for (unsigned r = 0; r < LG_SKIP_REASONS; r++)
		skipped += run->skipped[r];
	if (run->totals && measured)
		print_table(out, run, w);
	if (run->errors && run->totals)
		print_errors(out, run, w);
	if (run->errors)
		print_notes(out, run);
	if (skipped && run->totals)
		print_skipped(out, run, w);
	print_short(out, run, w);
	print_not_open_run(out, run);
	print_untimed(out, run);
	if (measured)
		print_figures(out, cfg, run);
	else
		print_nothing(out, run);
	if (run->cleanup_left > 0)
		fprintf(out, "Cleanup left %" PRId64 " entr%s in the run directory (removed "
			     "after it)\n", run->cleanup_left, run->cleanup_left == 1 ? "y" : "ies");
	lg_run_failures(run, &f);
	if (run->status == LG_RUN_FAILED)
		fprintf(out, "Failed: %s\n", run->failure ? run->failure : "the run failed");
	else if (run->status == LG_RUN_COMPLETE && f.count) /* the result file's verdict */
		fprintf(out, "Failed: %s\n", f.text);
	if (run->status == LG_RUN_PARTIAL)
		fprintf(out, "Partial: some clients were lost; figures cover what the clients "
			     "measured until then\n");
}
