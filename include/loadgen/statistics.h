/* Statistics for comparing result files: summaries of a sample of per-run values, the
 * Student t distribution, and Welch's unequal-variances t-test.
 *
 * Pure functions on caller-owned arrays; nothing allocates. The t distribution is
 * computed through the regularized incomplete beta function (a continued fraction), so
 * p-values and confidence intervals are exact to ~1e-10 for any real degrees of freedom,
 * which Welch's test needs (its df is rarely an integer). Domain errors give NaN (for
 * functions returning a value) or -EINVAL (for those returning a status). */
#ifndef LOADGEN_STATISTICS_H
#define LOADGEN_STATISTICS_H

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

/* --- Tests --- */

/* Welch's t-test of a[0..na-1] against b[0..nb-1]. 0, or -EINVAL when na or nb is
 * below 2 (no variance, so no test) or a value is not finite. */
int lg_stat_welch(const double *a, size_t na, const double *b, size_t nb,
		  struct lg_welch *out);
/* The same test from two summaries (each with n >= 2). 0 or -EINVAL. */
int lg_stat_welch_summary(const struct lg_stat_summary *a, const struct lg_stat_summary *b,
			  struct lg_welch *out);

#endif
