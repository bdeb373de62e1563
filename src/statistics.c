/* Statistics for comparing result files.
 *
 * The Student t distribution is reduced to the regularized incomplete beta function:
 * for T with df degrees of freedom, P(|T| >= t) = I_x(df/2, 1/2) with x = df/(df+t^2).
 * I_x(a, b) is evaluated with its continued fraction, which converges fast for
 * x < (a+1)/(a+b+2); above that point the symmetry I_x(a,b) = 1 - I_(1-x)(b,a) moves
 * the evaluation back into that region. Both x and 1-x are passed down, each computed
 * from t directly, so small tail probabilities keep their relative precision instead of
 * vanishing in a 1 - (1 - p) cancellation. The quantile is found by bisection on the
 * tail, which is monotone in t: slower than Newton's method, but it cannot diverge, and
 * it is only ever called a handful of times per comparison. */
#include "loadgen/statistics.h"

#include <errno.h>
#include <float.h>
#include <math.h>

#define CF_EPS 1e-15       /* relative change at which the continued fraction stops */
#define CF_TINY 1e-300     /* stands in for 0 in Lentz's method, avoiding 0/0 */
#define CF_MAX_ITER 100000 /* ~sqrt(max(a,b)) are needed: a few thousand at most */
/* Above this many degrees of freedom t is taken as normal: the difference in the cdf
 * is below 2e-8 there, while lgamma(a+b) - lgamma(a) starts losing digits to
 * cancellation for larger a. */
#define NORMAL_DF 1e7
#define QUANTILE_ITER 300  /* bisection steps: enough to close any double interval */

double lg_stat_mean(const double *x, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double lg_stat_stddev(const double *x, size_t n)
{
	double mean, ss = 0;

	if (n < 2)
		return NAN;
	/* Two passes: summing squares of deviations from the mean, rather than
	 * sum(x^2) - n*mean^2, which cancels badly for values such as 1000.1, 1000.2. */
	mean = lg_stat_mean(x, n);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

int lg_stat_summarize(const double *x, size_t n, struct lg_stat_summary *out)
{
	struct lg_stat_summary s = { .n = n, .stddev = NAN, .ci95_lo = NAN, .ci95_hi = NAN };

	if (n == 0 || !x)
		return -EINVAL;
	s.min = s.max = x[0];
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -EINVAL;
		s.min = x[i] < s.min ? x[i] : s.min;
		s.max = x[i] > s.max ? x[i] : s.max;
	}
	/* A constant sample gets exactly its value and exactly zero spread, rather than
	 * rounding noise that would make identical runs look (very slightly) different. */
	s.mean = s.min == s.max ? s.min : lg_stat_mean(x, n);
	if (n >= 2) {
		double half;

		s.stddev = s.min == s.max ? 0.0 : lg_stat_stddev(x, n);
		half = lg_stat_t_quantile(0.975, (double)(n - 1)) * s.stddev / sqrt((double)n);
		s.ci95_lo = s.mean - half;
		s.ci95_hi = s.mean + half;
	}
	*out = s;
	return 0;
}

/* Lentz's step: keeps the running numerator/denominator ratios away from zero. */
static double nonzero(double v)
{
	return fabs(v) < CF_TINY ? CF_TINY : v;
}

/* The continued fraction of I_x(a, b) / (x^a (1-x)^b / (a B(a,b))):
 *   1 / (1 + d1 / (1 + d2 / (1 + ...)))
 * with d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)) and
 *      d(2m)   =  m (b-m) x / ((a+2m-1)(a+2m)),
 * evaluated forwards with the modified Lentz method. */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 / nonzero(1.0 - (a + b) * x / (a + 1.0)), f = d;

	for (int m = 1; m <= CF_MAX_ITER; m++) {
		double m2 = 2.0 * m, coef, delta;

		coef = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)); /* even term */
		d = 1.0 / nonzero(1.0 + coef * d);
		c = nonzero(1.0 + coef / c);
		f *= d * c;
		coef = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)); /* odd term */
		d = 1.0 / nonzero(1.0 + coef * d);
		c = nonzero(1.0 + coef / c);
		delta = d * c;
		f *= delta;
		if (fabs(delta - 1.0) < CF_EPS)
			break;
	}
	return f;
}

/* I_x(a, b), given both x and y = 1 - x (each computed precisely by the caller). */
static double betainc_xy(double a, double b, double x, double y)
{
	double lfront;

	if (x <= 0)
		return 0.0;
	if (y <= 0)
		return 1.0;
	/* log of x^a y^b / B(a, b); lgamma keeps it finite for huge a and b */
	lfront = a * log(x) + b * log(y) + lgamma(a + b) - lgamma(a) - lgamma(b);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * beta_cf(a, b, x) / a;
	return 1.0 - exp(lfront) * beta_cf(b, a, y) / b;
}

double lg_stat_betainc(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1) || isinf(a) || isinf(b))
		return NAN;
	return betainc_xy(a, b, x, 1.0 - x);
}

double lg_stat_t_two_sided(double t, double df)
{
	double t2 = t * t;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (df > NORMAL_DF)
		return erfc(fabs(t) / sqrt(2.0));
	if (isinf(t2))
		return 0.0;
	/* x = df/(df+t^2) and 1-x = t^2/(df+t^2), both without subtraction */
	return betainc_xy(df / 2.0, 0.5, df / (df + t2), t2 / (df + t2));
}

double lg_stat_t_cdf(double t, double df)
{
	double tail = 0.5 * lg_stat_t_two_sided(t, df);

	return t < 0 ? tail : 1.0 - tail;
}

double lg_stat_t_quantile(double p, double df)
{
	double q, lo = 0.0, hi = 1.0;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0.0;
	q = p < 0.5 ? p : 1.0 - p; /* the one-sided tail to match, 0 < q < 0.5 */
	/* Bracket: the tail at hi must be at or below q. For df = 1 and tiny q the
	 * quantile is ~1/(pi q), so doubling may run up to the largest double. */
	while (0.5 * lg_stat_t_two_sided(hi, df) > q) {
		lo = hi;
		hi *= 2.0;
		if (isinf(hi))
			return p < 0.5 ? -INFINITY : INFINITY;
	}
	for (int i = 0; i < QUANTILE_ITER && hi - lo > 4 * DBL_EPSILON * hi; i++) {
		double mid = lo + (hi - lo) / 2.0;

		if (0.5 * lg_stat_t_two_sided(mid, df) > q)
			lo = mid;
		else
			hi = mid;
	}
	return p < 0.5 ? -(lo + hi) / 2.0 : (lo + hi) / 2.0;
}

int lg_stat_welch_summary(const struct lg_stat_summary *a, const struct lg_stat_summary *b,
			  struct lg_welch *out)
{
	double va, vb, se2, diff, ua, ub;
	struct lg_welch w = { .kind = LG_WELCH_OK };

	if (!a || !b || a->n < 2 || b->n < 2 || !isfinite(a->stddev) || !isfinite(b->stddev))
		return -EINVAL;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	se2 = va + vb;
	diff = a->mean - b->mean;
	if (!(se2 > 0)) {
		/* No spread at all: the test statistic is 0/0 or x/0. Identical constant
		 * samples are not different; different constants differ for certain. */
		w.df = (double)(a->n + b->n - 2);
		w.kind = diff == 0 ? LG_WELCH_SAME_CONST : LG_WELCH_DIFF_CONST;
		w.t = diff == 0 ? 0.0 : copysign(INFINITY, diff);
		w.p = diff == 0 ? 1.0 : 0.0;
		*out = w;
		return 0;
	}
	w.t = diff / sqrt(se2);
	/* Welch-Satterthwaite, written with the shares ua + ub = 1 of the variance of the
	 * difference, so tiny variances do not underflow when squared. */
	ua = va / se2;
	ub = vb / se2;
	w.df = 1.0 / (ua * ua / (double)(a->n - 1) + ub * ub / (double)(b->n - 1));
	w.p = lg_stat_t_two_sided(w.t, w.df);
	*out = w;
	return 0;
}

int lg_stat_welch(const double *a, size_t na, const double *b, size_t nb,
		  struct lg_welch *out)
{
	struct lg_stat_summary sa, sb;

	if (na < 2 || nb < 2)
		return -EINVAL;
	if (lg_stat_summarize(a, na, &sa) != 0 || lg_stat_summarize(b, nb, &sb) != 0)
		return -EINVAL;
	return lg_stat_welch_summary(&sa, &sb, out);
}
