/* The text report's table of the phases between barriers: each phase's items over its
 * span across every client of every rank, as mdtest prints its phase rates. */
#include "loadgen/output/report.h"

#include <inttypes.h>

#include "counters/bphases.h"

void lg_report_bphases(FILE *out, const struct lg_run *run)
{
	struct lg_bphase_sum s[LG_BARRIER_PHASES_MAX];
	size_t n = lg_run_bphases(run, s);

	if (!n)
		return;
	fprintf(out, "\nPhases between barriers (rate: items over the span from the first "
		     "client's start to the last one's end):\n");
	fprintf(out, " %-16s %12s %12s %10s %14s %14s %10s\n", "Phase", "Items", "Ops",
		"Span s", "Items/sec", "Ops/sec", "MB/sec");
	for (size_t i = 0; i < n; i++)
		fprintf(out, " %-16s %12" PRIu64 " %12" PRIu64 " %10.3f %14.1f %14.1f %10.2f\n",
			s[i].name, s[i].items, s[i].ops, s[i].span_s,
			lg_bphase_rate(&s[i], s[i].items), lg_bphase_rate(&s[i], s[i].ops),
			lg_bphase_rate(&s[i], s[i].bytes) / 1e6);
}
