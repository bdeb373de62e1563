/* Statistics of batches: does a file's sequence of runs drift, and how much do batches
 * of runs of one setup differ beyond their runs' own spread.
 *
 * Runs of one batch (one result file, one boot of a kernel) share its state: whatever
 * else ran on the machine, its caches, its neighbours. So they are not independent
 * samples of the setup, and a comparison of two batches mistakes that shared state for
 * a difference between setups. Three tools, each the textbook one:
 * - a least-squares trend over run order (the slope's t test, as R's lm);
 * - the first run against the rest (a prediction-interval t test: the classic warm-up
 *   effect, which a trend test sees poorly);
 * - the one-way random-effects ANOVA of runs nested in batches (method of moments):
 *   the variance between batches beyond what the variance inside them explains.
 * Distributions from R's math library (rmath.h), as in welch.c. */
#include "loadgen/inference/inference.h"

#include <errno.h>
#include <math.h>

#include "rmath.h"

static bool all_finite(const double *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(y[i]))
			return false;
	return true;
}

/* Two-sided p of t with df degrees of freedom, with the degenerate cases of a zero
 * standard error: num / 0 is certain when num is not 0, nothing when it is. */
static double p_of(double num, double se, double df, double *t)
{
	if (!(se > 0)) {
		*t = num == 0 ? 0.0 : copysign(INFINITY, num);
		return num == 0 ? 1.0 : 0.0;
	}
	*t = num / se;
	return 2.0 * pt(-fabs(*t), df, 1, 0);
}

int lg_stat_trend(const double *y, size_t n, struct lg_stat_trend *out)
{
	double xm = (double)(n - 1) / 2.0, ym, sxx = 0, sxy = 0, sse = 0, a;

	if (!y || !out || n < 3 || !all_finite(y, n))
		return -EINVAL;
	ym = lg_stat_mean(y, n);
	for (size_t i = 0; i < n; i++) {
		sxx += ((double)i - xm) * ((double)i - xm);
		sxy += ((double)i - xm) * (y[i] - ym);
	}
	out->n = n;
	out->slope = sxy / sxx;
	a = ym - out->slope * xm;
	for (size_t i = 0; i < n; i++) {
		double r = y[i] - (a + out->slope * (double)i);

		sse += r * r;
	}
	out->df = (double)(n - 2);
	out->slope_pct = ym != 0 ? 100.0 * out->slope / ym : NAN;
	/* residuals below rounding of the values are a perfect line */
	if (sse <= 1e-24 * (ym * ym + 1) * (double)n)
		sse = 0;
	out->p = p_of(out->slope, sqrt(sse / out->df / sxx), out->df, &out->t);
	return 0;
}

int lg_stat_first_apart(const double *y, size_t n, struct lg_stat_first *out)
{
	double m, s;

	if (!y || !out || n < 3 || !all_finite(y, n))
		return -EINVAL;
	m = lg_stat_mean(y + 1, n - 1);
	s = lg_stat_stddev(y + 1, n - 1);
	out->diff = y[0] - m;
	out->diff_pct = m != 0 ? 100.0 * out->diff / m : NAN;
	out->df = (double)(n - 2);
	out->p = p_of(out->diff, s * sqrt(1.0 + 1.0 / (double)(n - 1)), out->df, &out->t);
	return 0;
}

int lg_stat_nested(const double *y, const size_t *off, size_t k, struct lg_stat_nested *out)
{
	double ssw = 0, ssb = 0, sumsq = 0;
	size_t n;

	if (!y || !off || !out || k < 2 || off[0] != 0)
		return -EINVAL;
	n = off[k];
	if (n <= k || !all_finite(y, n))
		return -EINVAL;
	out->k = k;
	out->n = n;
	out->grand_mean = lg_stat_mean(y, n);
	for (size_t i = 0; i < k; i++) {
		size_t ni = off[i + 1] - off[i];
		double mi;

		if (off[i + 1] <= off[i])
			return -EINVAL;
		mi = lg_stat_mean(y + off[i], ni);
		for (size_t j = off[i]; j < off[i + 1]; j++)
			ssw += (y[j] - mi) * (y[j] - mi);
		ssb += (double)ni * (mi - out->grand_mean) * (mi - out->grand_mean);
		sumsq += (double)ni * (double)ni;
	}
	out->n0 = ((double)n - sumsq / (double)n) / (double)(k - 1);
	out->ms_within = ssw / (double)(n - k);
	out->ms_between = ssb / (double)(k - 1);
	out->var_within = out->ms_within;
	out->var_between = out->ms_between > out->ms_within
				   ? (out->ms_between - out->ms_within) / out->n0
				   : 0.0;
	if (out->ms_within > 0) {
		out->f = out->ms_between / out->ms_within;
		out->p = pf(out->f, (double)(k - 1), (double)(n - k), 0, 0);
	} else {
		out->f = out->ms_between > 0 ? INFINITY : 0.0;
		out->p = out->ms_between > 0 ? 0.0 : 1.0;
	}
	return 0;
}

double lg_stat_t_test_p(double delta, double se, double df)
{
	double t;

	if (!(df > 0) || !(se >= 0) || !isfinite(delta))
		return NAN;
	return p_of(delta, se, df, &t);
}
