/* Statistics for comparing result files: summaries of a sample of per-run values, the
 * Student t distribution, Welch's unequal-variances t-test, an effect size, rank tests
 * that do not assume normality (Mann-Whitney U, Wilcoxon signed rank), the paired t-test,
 * and the power of Welch's test: the smallest change a comparison could have detected.
 *
 * Pure functions on caller-owned arrays; nothing here allocates (the exact rank
 * distributions of the R math library keep a cache of their own). The distributions
 * are R's (r-mathlib), so p-values equal R's t.test and wilcox.test. Domain errors give
 * NaN (for functions returning a value) or -EINVAL (for those returning a status). */
#ifndef LOADGEN_COMPARE_STATS_H
#define LOADGEN_COMPARE_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* A sample of n values, summarised. */
struct lg_stat_summary {
	size_t n;       /* number of values */
	double mean;    /* arithmetic mean */
	double stddev;  /* sample standard deviation (divisor n-1); NaN when n < 2 */
	double min;     /* smallest value */
	double max;     /* largest value */
	double ci95_lo; /* two-sided 95 % confidence interval of the mean, */
	double ci95_hi; /*   mean -/+ t(0.975, n-1) * stddev / sqrt(n); NaN when n < 2 */
};

/* What Welch's test could say about two samples. */
enum lg_welch_kind {
	LG_WELCH_OK,        /* the usual test; t, df and p are meaningful */
	LG_WELCH_SAME_CONST, /* both samples constant and equal: t = 0, p = 1 */
	LG_WELCH_DIFF_CONST, /* both samples constant but different: p = 0, t = +/-inf */
};

/* The outcome of Welch's t-test of a against b. */
struct lg_welch {
	enum lg_welch_kind kind; /* normal or degenerate case */
	double t;                /* (mean_a - mean_b) / sqrt(var_a/n_a + var_b/n_b) */
	double df;               /* Welch-Satterthwaite degrees of freedom */
	double p;                /* two-sided p-value */
};

/* --- Descriptive statistics --- */

/* Mean of x[0..n-1]; NaN when n is 0. */
double lg_stat_mean(const double *x, size_t n);
/* Sample standard deviation (n-1 divisor, two-pass); NaN when n < 2. */
double lg_stat_stddev(const double *x, size_t n);
/* n, mean, stddev, min, max and the 95 % CI of the mean of x[0..n-1].
 * 0, or -EINVAL when n is 0 or a value is not finite. */
int lg_stat_summarize(const double *x, size_t n, struct lg_stat_summary *out);

/* --- Distributions --- */

/* Regularized incomplete beta function I_x(a, b), a > 0, b > 0, 0 <= x <= 1; NaN
 * outside that domain. */
double lg_stat_betainc(double a, double b, double x);
/* P(T <= t) for Student's t with df > 0 degrees of freedom; NaN when df <= 0. */
double lg_stat_t_cdf(double t, double df);
/* Two-sided tail P(|T| >= |t|), computed directly (no 1 - cdf cancellation). */
double lg_stat_t_two_sided(double t, double df);
/* The t with P(T <= t) = p, 0 < p < 1, df > 0; NaN outside that domain. */
double lg_stat_t_quantile(double p, double df);

/* Coefficient of variation, 100 stddev / |mean|, in %; NaN when n < 2 or mean is 0. */
double lg_stat_cv_pct(const struct lg_stat_summary *s);

/* --- Tests --- */

/* Welch's t-test of a[0..na-1] against b[0..nb-1]. 0, or -EINVAL when na or nb is
 * below 2 (no variance, so no test) or a value is not finite. */
int lg_stat_welch(const double *a, size_t na, const double *b, size_t nb,
		  struct lg_welch *out);
/* The same test from two summaries (each with n >= 2). 0 or -EINVAL. */
int lg_stat_welch_summary(const struct lg_stat_summary *a, const struct lg_stat_summary *b,
			  struct lg_welch *out);

/* Hedges' g of b against a: (mean_b - mean_a) / pooled stddev, with the small-sample
 * correction; NaN when either n < 2 or both samples are constant. */
double lg_stat_hedges_g(const struct lg_stat_summary *a, const struct lg_stat_summary *b);

/* The outcome of a rank test. */
struct lg_rank_test {
	double stat; /* Mann-Whitney: U of the first sample (R's W); signed rank: V, the sum
			of the ranks of the positive differences */
	double p;    /* two-sided p-value */
	bool exact;  /* p from the exact distribution (no ties, n < 50), else the normal
			approximation with tie and continuity correction, as R does */
	double min_p; /* smallest two-sided p these sample sizes can give at all (exact
			 case); a test with min_p >= alpha cannot call anything significant */
};

/* Mann-Whitney U (Wilcoxon rank-sum) test of a[0..na-1] against b[0..nb-1], as R's
 * wilcox.test(a, b). 0, or -EINVAL when na or nb is 0 or a value is not finite. */
int lg_stat_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			 struct lg_rank_test *out);
/* Wilcoxon signed-rank test of the differences d[0..n-1] (zeros dropped), as R's
 * wilcox.test(d). 0, or -EINVAL when a value is not finite. With no non-zero difference
 * p is 1. */
int lg_stat_signed_rank(const double *d, size_t n, struct lg_rank_test *out);

/* The paired t-test of the differences d[0..n-1] against 0. */
struct lg_paired_t {
	struct lg_stat_summary diff; /* mean, stddev and 95 % CI of the differences */
	double t;                    /* mean / (stddev / sqrt(n)) */
	double df;                   /* n - 1 */
	double p;                    /* two-sided p-value; 1 when all differences are 0 */
};
/* 0, or -EINVAL when n < 2 or a value is not finite. */
int lg_stat_paired_t(const double *d, size_t n, struct lg_paired_t *out);

/* --- Power --- */

/* The power of a two-sided Welch test at level alpha to detect a difference of means
 * delta between samples of sizes na, nb with standard deviations sa, sb: P(|T'| > t_crit)
 * for the noncentral t T' with ncp = delta / se. NaN for n < 2. */
double lg_stat_welch_power(double delta, double sa, size_t na, double sb, size_t nb,
			   double alpha);
/* The minimum detectable effect: the smallest |difference of means| that Welch's test at
 * alpha detects with probability power, for these sizes and standard deviations. 0 when
 * both are constant; NaN for n < 2. */
double lg_stat_mde(double sa, size_t na, double sb, size_t nb, double alpha, double power);
/* Runs per side (the same n on both) needed to detect delta with the given power, for
 * standard deviations sa and sb; 2 at least; 0 when more than max would be needed. */
size_t lg_stat_runs_needed(double delta, double sa, double sb, double alpha, double power,
			   size_t max);

/* The power of the two-sided paired (one-sample) t-test at level alpha to detect a mean
 * difference delta from n pairs whose differences have standard deviation sd: noncentral
 * t with df = n - 1 and ncp = delta / (sd / sqrt(n)), as R's power.t.test(type = "paired",
 * strict = TRUE). NaN for n < 2. */
double lg_stat_paired_power(double delta, double sd, size_t n, double alpha);
/* The smallest |mean difference| the paired t-test detects with probability power at
 * alpha from n pairs with differences of standard deviation sd. 0 when sd is 0; NaN for
 * n < 2. */
double lg_stat_paired_mde(double sd, size_t n, double alpha, double power);
/* Pairs needed to detect delta with the given power; 2 at least; 0 over max. */
size_t lg_stat_pairs_needed(double delta, double sd, double alpha, double power, size_t max);

/* --- Batches: drift inside one file, runs nested in batches --- */

/* A straight-line trend of values over their order (run 1, 2, ...): least squares. */
struct lg_stat_trend {
	size_t n;         /* values */
	double slope;     /* change per step, in the values' unit */
	double slope_pct; /* 100 slope / mean: % of the mean per step */
	double t;         /* slope / its standard error */
	double df;        /* n - 2 */
	double p;         /* two-sided p of "no trend" (R's summary(lm(y ~ seq_along(y)))) */
};
/* The trend of y[0..n-1] over its order. 0, or -EINVAL when n < 3 or a value is not
 * finite. A perfect line gives p 0 (or 1 when flat). */
int lg_stat_trend(const double *y, size_t n, struct lg_stat_trend *out);

/* The first value against the rest: is it exchangeable with them? */
struct lg_stat_first {
	double diff;     /* y[0] - mean(y[1..n-1]) */
	double diff_pct; /* 100 diff / mean(y[1..n-1]) */
	double t;        /* diff / (s_rest sqrt(1 + 1/(n-1))): a prediction-interval test */
	double df;       /* n - 2 */
	double p;        /* two-sided p */
};
/* 0, or -EINVAL when n < 3 or a value is not finite. Constant rest: p 0 when y[0]
 * differs, 1 when it does not. */
int lg_stat_first_apart(const double *y, size_t n, struct lg_stat_first *out);

/* One-way random-effects analysis of runs nested in batches (method of moments, which
 * is REML for a balanced design): the spread of batch means beyond what the spread of
 * runs inside a batch explains. */
struct lg_stat_nested {
	size_t k;           /* batches */
	size_t n;           /* runs in all */
	double n0;          /* the effective runs per batch: (n - sum n_i^2 / n) / (k - 1) */
	double grand_mean;  /* mean of all runs */
	double ms_within;   /* pooled variance of runs inside their batch, df n - k */
	double ms_between;  /* n0-weighted variance of batch means, df k - 1 */
	double var_within;  /* = ms_within: the run-to-run variance component */
	double var_between; /* max(0, (ms_between - ms_within) / n0): the batch-to-batch
			       variance component */
	double f;           /* ms_between / ms_within */
	double p;           /* P(F(k-1, n-k) >= f): do batches differ at all */
};
/* The batches are y[off[i] .. off[i+1]-1] for i < k (off has k + 1 entries, off[0] = 0,
 * off[k] = n). 0, or -EINVAL when k < 2, a batch is empty, n - k < 1 or a value is not
 * finite. */
int lg_stat_nested(const double *y, const size_t *off, size_t k, struct lg_stat_nested *out);

/* The two-sided p of a difference of means delta with standard error se and df degrees
 * of freedom (a t test whose variance comes from elsewhere, e.g. a calibration). */
double lg_stat_t_test_p(double delta, double se, double df);
/* The smallest |difference| a two-sided t test with standard error se and df degrees of
 * freedom detects with probability power at alpha. NaN for df <= 0 or se < 0. */
double lg_stat_se_mde(double se, double df, double alpha, double power);

#endif
