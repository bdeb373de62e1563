/* Strict parsing of sizes, durations and counts.
 *
 * Each value is "<digits>[blanks]<unit>". The number is parsed by hand instead of with
 * strtoull, which would accept leading blanks, a sign (and negate "-1" into a huge
 * value) and hex prefixes; none of those belong in a workload. */
#include "loadgen/units.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* One accepted unit suffix and what it multiplies by. */
struct unit {
	const char *name;
	uint64_t mult;
};

#define KI 1024ULL
#define KD 1000ULL

static const struct unit size_units[] = {
	{ "", 1 },
	{ "B", 1 },
	{ "K", KI },
	{ "KiB", KI },
	{ "KB", KD },
	{ "kB", KD },
	{ "M", KI * KI },
	{ "MiB", KI * KI },
	{ "MB", KD * KD },
	{ "G", KI * KI * KI },
	{ "GiB", KI * KI * KI },
	{ "GB", KD * KD * KD },
	{ "T", KI * KI * KI * KI },
	{ "TiB", KI * KI * KI * KI },
	{ "TB", KD * KD * KD * KD },
};

static const struct unit time_units[] = {
	{ "", 1000000000ULL }, /* a bare number is seconds, like sleep(1) */
	{ "ns", 1 },
	{ "us", 1000ULL },
	{ "ms", 1000000ULL },
	{ "s", 1000000000ULL },
	{ "m", 60ULL * 1000000000ULL },
	{ "h", 3600ULL * 1000000000ULL },
};

/* Parse the leading decimal digits of s into *out; *end gets the first other char. */
static int parse_digits(const char *s, uint64_t *out, const char **end, const char **why)
{
	uint64_t v = 0;

	if (*s == '\0') {
		*why = "empty value";
		return -EINVAL;
	}
	if (*s == '-') {
		*why = "negative values are not allowed";
		return -EINVAL;
	}
	if (*s < '0' || *s > '9') {
		*why = "expected a decimal number";
		return -EINVAL;
	}
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10) {
			*why = "value too large";
			return -ERANGE;
		}
		v = v * 10 + d;
	}
	if (*s == '.' || *s == ',') {
		*why = "fractions are not allowed";
		return -EINVAL;
	}
	*out = v;
	*end = s;
	return 0;
}

/* Parse number and unit from table; unit_msg is the error for an unknown suffix. */
static int parse_with_units(const char *s, const struct unit *units, size_t nunits,
			    const char *unit_msg, uint64_t *out, const char **why)
{
	const char *u;
	uint64_t v;
	int rc = parse_digits(s, &v, &u, why);

	if (rc)
		return rc;
	/* "4 KiB" reads naturally; a blank with nothing after it is still garbage. */
	if (*u == ' ' || *u == '\t') {
		u += strspn(u, " \t");
		if (*u == '\0') {
			*why = "trailing blanks";
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < nunits; i++) {
		if (strcmp(u, units[i].name) != 0)
			continue;
		if (v > UINT64_MAX / units[i].mult) {
			*why = "value too large";
			return -ERANGE;
		}
		*out = v * units[i].mult;
		return 0;
	}
	*why = unit_msg;
	return -EINVAL;
}

int lg_parse_size(const char *s, uint64_t *out, const char **why)
{
	return parse_with_units(s, size_units, sizeof(size_units) / sizeof(size_units[0]),
				"unknown size unit (use B, K/KiB, M/MiB, G/GiB, T/TiB, "
				"or KB, MB, GB, TB for powers of 1000)",
				out, why);
}

int lg_parse_duration(const char *s, uint64_t *out_ns, const char **why)
{
	return parse_with_units(s, time_units, sizeof(time_units) / sizeof(time_units[0]),
				"unknown time unit (use ns, us, ms, s, m or h)", out_ns, why);
}

int lg_parse_count(const char *s, uint64_t *out, const char **why)
{
	const char *end;
	uint64_t v;
	int rc = parse_digits(s, &v, &end, why);

	if (rc)
		return rc;
	if (*end != '\0') {
		*why = "expected a whole number without unit";
		return -EINVAL;
	}
	*out = v;
	return 0;
}
