/* loadgen ab: interleaved comparisons of 2 to 8 variants with paired tests.
 *
 * Each round runs every variant once, in an order that balances position (A B, then
 * B A, ...; a Latin square for more; or shuffled per round from --seed). Pairing the
 * runs of one round cancels what the machine does slowly (other tenants, caches,
 * thermal state), which two separate batches compared with `loadgen compare` cannot:
 * each variant's per-round differences from A, the first, are tested (paired t and
 * Wilcoxon signed rank; with several comparisons the p of the t-tests Holm-adjusted)
 * and the drift all variants share (the slope of the per-round mean) is reported apart
 * from them. */
#ifndef LOADGEN_AB_H
#define LOADGEN_AB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadgen/compare/compare.h"
#include "loadgen/inference/inference.h"

#define LG_AB_MAX_VARIANTS 8  /* A, the baseline, and up to 7 compared with it */
#define LG_AB_MAX_ROUNDS 1000 /* most rounds of one comparison */
#define LG_AB_MAX_PLAN 10000 /* largest pair count suggested */
#define LG_AB_PLAN_PCT 2.0    /* the change (%) pairs_needed is planned for */

/* The drift across rounds: least-squares line through the per-round means of the
 * variants, y_r = a + slope * r (r = 0, 1, ...). */
struct lg_ab_drift {
	double slope;     /* metric units per round; NaN with fewer than 3 rounds */
	double slope_pct; /* the slope in % of the grand mean, per round */
	double ci95_lo;   /* 95 % confidence interval of the slope (t, n - 2 df), */
	double ci95_hi;   /*   in metric units per round */
	double p;         /* two-sided p of slope = 0 */
	double total_pct; /* the fitted change from the first round to the last, % of mean */
};

/* The paired analysis of one variant (B) against A over n rounds. */
struct lg_ab_analysis {
	size_t n;                    /* pairs (finished rounds) */
	double mean_a;               /* mean of A's values */
	double mean_b;               /* mean of B's values */
	bool tested;                 /* n >= 2: the tests below are set */
	struct lg_paired_t t;        /* paired t-test of d = b - a (diff: their summary) */
	struct lg_rank_test rank;    /* Wilcoxon signed-rank test of d */
	double p_adjusted;           /* t.p adjusted for all comparisons (lg_ab_adjust;
					t.p alone); NaN when not tested */
	double change_pct;           /* 100 mean(d) / mean_a */
	double ci95_lo_pct;          /* the 95 % CI of mean(d), in % of mean_a */
	double ci95_hi_pct;
	double mde_pct;              /* smallest |change| (% of mean_a) the paired t-test
					detects with LG_COMPARE_POWER at alpha; NaN n < 2 */
	size_t pairs_needed;         /* pairs to detect target_pct; 0 over the maximum */
	double target_pct;           /* the change pairs_needed is planned for */
	bool rank_disagrees;         /* the signed-rank test says otherwise (and could
					reach alpha) */
	struct lg_ab_drift drift;    /* the trend A and B share (ab itself reports the
					drift of the mean of all its variants) */
	enum lg_verdict verdict;     /* from p_adjusted at alpha */
};

/* The order of round (0-based) for nvar variants into order[0..nvar-1]: balanced
 * (seed 0: a Williams design, so over nvar rounds each variant takes each position once;
 * for two, A B, B A, A B, ...) or, with a non-zero seed, a shuffle drawn from the seed
 * and the round. */
void lg_ab_order(size_t nvar, size_t round, uint64_t seed, size_t *order);

/* Analyse b[i] against a[i], i < n, at alpha, planning pairs_needed for target_pct.
 * 0, or -EINVAL when n is 0 or a value is not finite. */
int lg_ab_analyze(const double *a, const double *b, size_t n, double alpha,
		  double target_pct, struct lg_ab_analysis *out);

/* Holm's step-down adjustment of the m p-values p into adj (R's p.adjust(p, "holm")):
 * the i-th smallest times m - i + 1, never below the one before it, at most 1. A p that
 * is NaN stays NaN in adj and does not count in m. */
void lg_ab_holm(const double *p, size_t m, double *adj);

/* Adjust the paired t-tests of the m analyses an[0..m-1] for each other (Holm) into their
 * p_adjusted, and decide their verdicts on it at alpha. m is at most LG_AB_MAX_VARIANTS
 * (the rest are left as they are). */
void lg_ab_adjust(struct lg_ab_analysis *an, size_t m, double alpha);

/* The drift of the per-round values y[0..n-1] (the mean of the variants per round).
 * Always fills out; NaN fields for n < 3. */
void lg_ab_drift_fit(const double *y, size_t n, struct lg_ab_drift *out);

/* True when the analysis calls B significantly slower than A (p_adjusted) by more than
 * pct %. */
bool lg_ab_slower_than(const struct lg_ab_analysis *an, double alpha, double pct);

/* loadgen ab: argv[0] is "ab". Returns the exit status. */
int lg_ab_main(int argc, char **argv);

#endif
