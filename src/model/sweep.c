/* Client sweeps and repeats chosen by the data: parsing, and the stopping rule. */
#include "loadgen/model/sweep.h"
#include "loadgen/model/errf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/inference/inference.h"

/* A decimal count 1..max at *s, advancing *s past it. */
static int count_at(const char **s, unsigned max, unsigned *out)
{
	unsigned long v;
	char *end;

	if (**s < '0' || **s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(*s, &end, 10);
	if (errno || v == 0 || v > max)
		return -EINVAL;
	*s = end;
	*out = (unsigned)v;
	return 0;
}

/* Append c unless present; -E2BIG past LG_SWEEP_MAX. */
static int add(unsigned *counts, size_t *n, unsigned c)
{
	for (size_t i = 0; i < *n; i++)
		if (counts[i] == c)
			return 0;
	if (*n == LG_SWEEP_MAX)
		return -E2BIG;
	counts[(*n)++] = c;
	return 0;
}

static int cmp_unsigned(const void *pa, const void *pb)
{
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;

	return a < b ? -1 : a > b;
}

static int parse_auto(unsigned ncpu, unsigned max, unsigned *counts, size_t *n)
{
	unsigned top = ncpu * 2 < max ? ncpu * 2 : max;

	for (unsigned c = 1; c < top; c *= 2)
		add(counts, n, c);
	add(counts, n, ncpu < top ? ncpu : top);
	add(counts, n, top);
	qsort(counts, *n, sizeof(*counts), cmp_unsigned);
	return 0;
}

/* A..B: A, 2A, 4A, ... while below B, then B. */
static int parse_range(unsigned a, const char *s, unsigned max, unsigned *counts, size_t *n)
{
	unsigned b;

	if (count_at(&s, max, &b) || *s || b < a)
		return -EINVAL;
	for (unsigned long c = a; c < b; c *= 2)
		if (add(counts, n, (unsigned)c))
			return -E2BIG;
	return add(counts, n, b);
}

int lg_sweep_parse(const char *arg, unsigned ncpu, unsigned max_clients, unsigned *counts,
		   size_t *n, char *err, size_t errlen)
{
	const char *s = arg;
	unsigned c;
	int rc;

	*n = 0;
	if (strcmp(arg, "auto") == 0)
		return parse_auto(ncpu ? ncpu : 1, max_clients, counts, n);
	for (;;) {
		if (count_at(&s, max_clients, &c))
			goto bad;
		if (strncmp(s, "..", 2) == 0) {
			rc = parse_range(c, s + 2, max_clients, counts, n);
			if (rc == -E2BIG)
				goto big;
			if (rc || *n == 0)
				goto bad;
			return 0;
		}
		if (add(counts, n, c))
			goto big;
		if (*s == '\0')
			return 0;
		if (*s++ != ',')
			goto bad;
	}
big:
	return lg_errf(err, errlen, -EINVAL, "invalid NCLIENTS '%s': more than %d client counts",
		       arg, LG_SWEEP_MAX);
bad:
	return lg_errf(err, errlen, -EINVAL,
		       "invalid NCLIENTS '%s': expected a count 1 to %u, a list (1,2,4), a range"
		       " (1..64) or auto", arg, max_clients);
}

int lg_repeat_parse(const char *arg, struct lg_repeat *out)
{
	struct lg_repeat r = { .is_auto = true, .pct = LG_REPEAT_AUTO_PCT,
			       .max = LG_REPEAT_AUTO_MAX };
	char *end;
	unsigned long v;

	if (strncmp(arg, "auto", 4) != 0) {
		errno = 0;
		v = arg[0] >= '0' && arg[0] <= '9' ? strtoul(arg, &end, 10) : 0;
		if (errno || v == 0 || v > 10000 || *end)
			return -EINVAL;
		*out = (struct lg_repeat){ .max = (unsigned)v };
		return 0;
	}
	arg += 4;
	if (*arg == ':') {
		r.pct = strtod(arg + 1, &end);
		if (end == arg + 1 || !(r.pct > 0) || !isfinite(r.pct))
			return -EINVAL;
		arg = end;
	}
	if (*arg == ':') {
		errno = 0;
		v = arg[1] >= '0' && arg[1] <= '9' ? strtoul(arg + 1, &end, 10) : 0;
		if (errno || v < LG_REPEAT_AUTO_MIN || v > 10000)
			return -EINVAL;
		r.max = (unsigned)v;
		arg = end;
	}
	if (*arg)
		return -EINVAL;
	*out = r;
	return 0;
}

bool lg_repeat_done(const struct lg_repeat *r, const double *x, size_t n, double *ci_pct)
{
	struct lg_stat_summary s;

	*ci_pct = NAN;
	if (n >= 2 && lg_stat_summarize(x, n, &s) == 0 && s.mean != 0)
		*ci_pct = 100.0 * (s.ci95_hi - s.ci95_lo) / 2.0 / fabs(s.mean);
	if (n >= r->max)
		return true;
	return r->is_auto && n >= LG_REPEAT_AUTO_MIN && *ci_pct <= r->pct;
}
