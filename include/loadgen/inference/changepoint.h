/* Change points and drift in a series of results (one value per run, in the order the
 * runs were made, e.g. one per kernel version).
 *
 * Change points: E-divisive means (Matteson & James 2014, "A nonparametric approach
 * for multiple change point analysis of multivariate data", JASA 109(505)) with the
 * energy distance at alpha = 1 on univariate values, applied hierarchically as Hunter
 * and Apache Otava do (Fleming et al., ICPE 2023): find the split of a segment that
 * maximises the divergence statistic Q, test it by permuting the segment, and when it
 * is significant split there and look into both halves; stop when no segment's best
 * split is. The first part of a split starts at the segment's start; the second part
 * runs to the segment's end or, as Matteson & James allow (they search every end), is a
 * window of min_size 2^j results (2^(j+1) min_size < the segment's length), so that a
 * short excursion (a regression fixed a few results later) is not diluted by the
 * results after it. Once every split is made, a change point that its two adjacent
 * segments no longer support (permutation p of Q at its place > alpha) is dropped, the
 * least supported first: binary segmentation sometimes places a split a few results
 * off a step and then cuts the sliver off, two change points for one step.
 * Permutations are seeded, so the same series and options give the same answer.
 *
 * Drift: the Mann-Kendall test with Sen's slope (lg_cp_trend), rank-based, so one
 * outlying run moves it little (least squares, lg_stat_trend, would move a lot). A drift is usually also split
 * by E-divisive, into steps; the trend test is what says "slow slide".
 *
 * Cost: one scan of a segment of m values is O(m log m) per window width (distances to
 * earlier values, or to a window's values, come from a Fenwick tree over ranks, not
 * from the m^2 pairs), so a test costs about permutations * m log^2 m; a test that
 * cannot reach alpha stops as soon as that is certain. Measured on the development
 * machine (2 shared cores, default -O2 build), n = 2,000 Gaussian values (3 % noise),
 * defaults: no step 0.003 s, 4 steps 0.42-0.48 s, 10 steps 0.9-1.1 s, 30 steps
 * 1.6-2.1 s (the machine's other load varies); lg_cp_trend at n = 2,000 (2 million
 * pairwise slopes, 16 MB) 0.04 s (tests/test_changepoint.c, test_timing, prints them).
 *
 * Pure functions on caller-owned arrays; scratch memory is allocated and freed inside.
 * Errors: -EINVAL for bad arguments or a value that is not finite, -ENOMEM. */
#ifndef LOADGEN_CHANGEPOINT_H
#define LOADGEN_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

/* How change points are searched for and tested. */
struct lg_cp_opts {
	double alpha;          /* a split is kept when its permutation p <= alpha; default
				  0.01: with one series per benchmark and kernel, 5 % would
				  flag one quiet series in twenty */
	unsigned permutations; /* permutations per test; default 499, so the smallest p is
				  0.002 and a p near 0.01 is known to about +/-0.0045 */
	size_t min_size;       /* fewest results in a segment, >= 2; default 5: a change
				  is reported once 5 results after it confirm it */
	uint64_t seed;         /* seed of the permutations (any value; same seed, same
				  answer) */
};

/* One change point, between two adjacent segments of the final segmentation. */
struct lg_changepoint {
	size_t index;       /* first value of the new segment (x[index] is "after") */
	double p;           /* permutation p of the split when it was found (exact; the
			       smallest possible is 1 / (permutations + 1)) */
	double stat;        /* its divergence Q (values' unit: a sum of distances scaled by
			       a k / (a + k)), inside the segment where it was found */
	double before_mean; /* mean of the segment before (previous change point or 0 up to
			       index - 1), values' unit */
	double after_mean;  /* mean of the segment from index to the next change point */
	size_t before_n;    /* values in the segment before */
	size_t after_n;     /* values in the segment after */
	double change_pct;  /* 100 (after_mean / before_mean - 1), in % */
	double ci_lo_pct;   /* 95 % confidence interval of change_pct: Fieller's interval */
	double ci_hi_pct;   /*   for a ratio of independent means, t quantile with Welch-
			       Satterthwaite df at the estimate (Tamhane & Logan 2004);
			       -inf/+inf when before_mean is not clearly apart from 0 */
};

/* A monotonic trend of a series over its order. */
struct lg_cp_trend {
	size_t n;         /* values */
	double slope_pct; /* Sen's slope (median of pairwise slopes) per result, in % of
			     the series' mean */
	double ci_lo_pct; /* 95 % confidence interval of slope_pct from the order */
	double ci_hi_pct; /*   statistics of the pairwise slopes (Sen 1968, Gilbert 1987) */
	double s;         /* Mann-Kendall S: concordant minus discordant pairs */
	double p;         /* two-sided p of "no trend": S over its tie-corrected standard
			     deviation with continuity correction, normal approximation
			     (coarse below about 10 values) */
};

/* alpha 0.01, 499 permutations, min_size 5, a fixed seed. */
void lg_cp_opts_default(struct lg_cp_opts *o);

/* The change points of x[0..n-1], sorted by index, into out[0..max-1]; *nout is how many
 * were found. A series of fewer than 2 min_size values, or a constant one, has none.
 * There are never more than n / min_size - 1. 0; -EINVAL when x or a value is not
 * finite, alpha >= 1, alpha < 1 / (permutations + 1) (no p could reach it), or
 * min_size < 2; -ENOSPC when more than max were found (*nout says how many, out holds
 * the first max); -ENOMEM. */
int lg_cp_find(const double *x, size_t n, const struct lg_cp_opts *o,
	       struct lg_changepoint *out, size_t max, size_t *nout);

/* Series longer than this are refused by lg_cp_trend: Sen's slope keeps all n (n - 1) / 2
 * pairwise slopes, 100 MB at this length. */
#define LG_CP_TREND_MAX 5000

/* Mann-Kendall test and Sen's slope of x[0..n-1] over its order. 0; -EINVAL when n < 3 or
 * a value is not finite; -E2BIG when n > LG_CP_TREND_MAX (test the last part); -ENOMEM.
 * A constant series has slope 0 and p 1; a series with mean 0 has NaN percentages. */
int lg_cp_trend(const double *x, size_t n, struct lg_cp_trend *out);

#endif
