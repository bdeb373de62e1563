/* Batches in `loadgen compare`: whether a file's runs drift over their order.
 *
 * A result file is one batch: its runs ran one after the other on one boot, one state
 * of the machine. Welch's test treats them as independent samples of the setup; when
 * they trend, or the first stands apart (a warm-up the --warmup did not absorb), they
 * are not, and a verdict between two such files says as much about the batches as about
 * the setups. compare says so beside the verdict rather than silently. */
#include "loadgen/compare.h"

#include <string.h>

void lg_cmp_drift_of(const double *v, size_t n, double alpha, struct lg_cmp_drift *out)
{
	memset(out, 0, sizeof(*out));
	if (lg_stat_trend(v, n, &out->trend) || lg_stat_first_apart(v, n, &out->first))
		return;
	out->tested = true;
	out->drifts = out->trend.p < alpha;
	out->first_apart = out->first.p < alpha;
}
