/* Client sweeps and repeats chosen by the data.
 *
 * NCLIENTS may name several client counts, run one after another in one invocation:
 * "48", "1,2,4,8", "1..64" (doubling from 1, ending at 64) or "auto" (see
 * lg_sweep_parse). With --repeat auto[:PCT[:MAX]] each count is run until the 95 %
 * confidence interval of its throughput is within PCT % of the mean, or MAX runs. */
#ifndef LOADGEN_SWEEP_H
#define LOADGEN_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#define LG_SWEEP_MAX 64           /* client counts in one sweep */
#define LG_REPEAT_AUTO_PCT 2.0    /* --repeat auto: default CI half-width, % of the mean */
#define LG_REPEAT_AUTO_MAX 20     /* --repeat auto: default most runs per count */
#define LG_REPEAT_AUTO_MIN 3      /* --repeat auto: fewest runs per count */
#define LG_CV_WARN_PCT 3.0        /* a summary with more variation than this warns */

/* How many runs each client count gets. */
struct lg_repeat {
	unsigned max;  /* runs per count: exactly this many, or at most this many when auto */
	bool is_auto;  /* stop early once the interval is narrow enough */
	double pct;    /* auto: the 95 % CI half-width to reach, % of the mean */
};

/* Parse NCLIENTS into counts[0..*n-1] (at most LG_SWEEP_MAX, each 1..max_clients, in
 * the order given, no repeats): a number; a comma-separated list; A..B, doubling from A
 * while below B, then B; or "auto": 1, 2, 4, ... while below 2 x ncpu, plus ncpu and
 * 2 x ncpu, ascending. 0, or -EINVAL with err filled. */
int lg_sweep_parse(const char *arg, unsigned ncpu, unsigned max_clients, unsigned *counts,
		   size_t *n, char *err, size_t errlen);

/* Parse --repeat's value: K (1..10000), "auto", "auto:PCT" or "auto:PCT:MAX"
 * (PCT > 0, MAX 3..10000). 0 or -EINVAL. */
int lg_repeat_parse(const char *arg, struct lg_repeat *out);

/* Whether a count with runs x[0..n-1] of throughput is done: after max runs, or (auto)
 * after at least LG_REPEAT_AUTO_MIN once the CI half-width is within pct % of the mean.
 * *ci_pct gets that half-width in % (NaN below 2 runs). */
bool lg_repeat_done(const struct lg_repeat *r, const double *x, size_t n, double *ci_pct);

#endif
