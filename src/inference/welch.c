/* compare's statistics: summaries of per-run values, the t distribution and Welch's test.
 *
 * The distributions come from R's standalone math library (Debian r-mathlib, Rmath.h):
 * its pt/qt/pbeta are the ones R's t.test uses, so loadgen's p-values and confidence
 * intervals are R's, and nothing numerical is hand-written here. Small tail
 * probabilities are asked for directly (pt of -|t|), never as 1 - cdf. */
#include "loadgen/inference/inference.h"

#include <errno.h>
#include <math.h>

#include "rmath.h"

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

double lg_stat_cv_pct(const struct lg_stat_summary *s)
{
	if (!s || s->n < 2 || !(s->mean != 0) || !isfinite(s->stddev))
		return NAN;
	return 100.0 * s->stddev / fabs(s->mean);
}

double lg_stat_betainc(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1) || isinf(a) || isinf(b))
		return NAN;
	return pbeta(x, a, b, 1, 0);
}

double lg_stat_t_two_sided(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	return 2.0 * pt(-fabs(t), df, 1, 0);
}

double lg_stat_t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	return pt(t, df, 1, 0);
}

double lg_stat_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	return qt(p, df, 1, 0);
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

double lg_stat_hedges_g(const struct lg_stat_summary *a, const struct lg_stat_summary *b)
{
	double df, pooled, j;

	if (!a || !b || a->n < 2 || b->n < 2)
		return NAN;
	df = (double)(a->n + b->n - 2);
	pooled = sqrt(((double)(a->n - 1) * a->stddev * a->stddev +
		       (double)(b->n - 1) * b->stddev * b->stddev) / df);
	if (!(pooled > 0))
		return NAN;
	/* Hedges' small-sample correction of Cohen's d: J = 1 - 3 / (4 df - 1). */
	j = 1.0 - 3.0 / (4.0 * df - 1.0);
	return j * (b->mean - a->mean) / pooled;
}
