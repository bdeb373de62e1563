/* Strict parsing of sizes, durations and counts.
 *
 * Each value is "<digits>[blanks]<unit>". The number is parsed by hand instead of with
 * strtoull, which would accept leading blanks, a sign (and negate "-1" into a huge
 * value) and hex prefixes; none of those belong in a workload. */
#include "loadgen/model/units.h"
#include "loadgen/model/clock.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "loadgen/model/suggest.h"

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
	{ "", LG_NS_PER_SEC }, /* a bare number is seconds, like sleep(1) */
	{ "ns", 1 },
	{ "us", 1000ULL },
	{ "ms", 1000000ULL },
	{ "s", LG_NS_PER_SEC },
	{ "m", 60 * LG_NS_PER_SEC },
	{ "h", 3600 * LG_NS_PER_SEC },
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

/* --- hints for values that did not parse --- */

/* Other spellings of time units, mapped to ours. */
static const struct {
	const char *word; /* as users write it, compared ignoring case */
	const char *unit; /* the unit of time_units it means */
} time_words[] = {
	{ "sec", "s" },   { "secs", "s" },      { "second", "s" },  { "seconds", "s" },
	{ "msec", "ms" }, { "msecs", "ms" },    { "usec", "us" },   { "usecs", "us" },
	{ "nsec", "ns" }, { "nsecs", "ns" },    { "min", "m" },     { "mins", "m" },
	{ "minute", "m" }, { "minutes", "m" },  { "hour", "h" },    { "hours", "h" },
	{ "hr", "h" },    { "µs", "us" },
};

/* Units a corrected value is written in, largest first. */
static const char *const time_show[] = { "h", "m", "s", "ms", "us", "ns", NULL };
static const char *const size_show_bin[] = { "TiB", "GiB", "MiB", "KiB", "B", NULL };
static const char *const size_show_dec[] = { "TB", "GB", "MB", "kB", "B", NULL };

static const struct unit *find_unit(const struct unit *tab, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tab[i].name, name))
			return &tab[i];
	return NULL;
}

static bool same_fold(const char *a, const char *b)
{
	return strlen(a) == strlen(b) && lg_edit_distance(a, b, 0) == 0;
}

/* v base units written in the largest unit of show that divides it exactly. */
static void show_value(const struct unit *tab, size_t n, const char *const *show,
		       uint64_t v, char *buf, size_t len)
{
	for (size_t i = 0; show[i]; i++) {
		const struct unit *u = find_unit(tab, n, show[i]);

		if (u && (v % u->mult == 0 || !show[i + 1])) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(v / u->mult), show[i]);
			return;
		}
	}
}

/* "1.5s": the same quantity as a whole number of a smaller unit, when there is one. */
static int hint_fraction(const char *s, const struct unit *tab, size_t n, bool duration,
			 char *buf, size_t len)
{
	uint64_t ip = 0, fp = 0, scale = 1;
	const struct unit *u;
	const char *p = s;

	for (; *p >= '0' && *p <= '9' && ip < 100000000000ULL; p++)
		ip = ip * 10 + (uint64_t)(*p - '0');
	if (p == s || (*p != '.' && *p != ','))
		return -ENOENT;
	for (p++; *p >= '0' && *p <= '9' && scale < 1000000; p++) {
		fp = fp * 10 + (uint64_t)(*p - '0');
		scale *= 10;
	}
	p += strspn(p, " \t");
	u = find_unit(tab, n, p);
	if (!u || (*p >= '0' && *p <= '9') || u->mult > UINT64_MAX / 1000000 ||
	    ip > UINT64_MAX / 2 / u->mult || (fp * u->mult) % scale)
		return -ENOENT;
	show_value(tab, n, duration ? time_show : strchr(u->name, 'i') || strlen(u->name) < 2
				? size_show_bin : size_show_dec,
		   ip * u->mult + fp * u->mult / scale, buf, len);
	return 0;
}

/* "64kb": the number with units spelt like the unknown one. */
static int hint_unit(const char *s, const struct unit *tab, size_t n, bool duration,
		     char *buf, size_t len)
{
	const char *u = s + strspn(s, "0123456789"), *alt = NULL;
	int num = (int)(u - s);
	char bin[8], dec[8];
	struct lg_suggest sg;

	u += strspn(u, " \t");
	if (num == 0 || !*u)
		return -ENOENT;
	/* kb, Mb, gib...: the binary unit, and the decimal one unless "i" said binary */
	if (!duration && strlen(u) <= 3 && strchr("kKmMgGtT", u[0]) &&
	    (u[strlen(u) - 1] == 'b' || u[strlen(u) - 1] == 'B')) {
		char up = (char)(u[0] & ~0x20);

		snprintf(bin, sizeof(bin), "%ciB", up);
		snprintf(dec, sizeof(dec), "%cB", up == 'K' ? 'k' : up);
		if (strlen(u) == 3)
			snprintf(buf, len, "'%.*s%s'", num, s, bin);
		else
			snprintf(buf, len, "'%.*s%s' (powers of 1024) or '%.*s%s' (powers of "
				 "1000)", num, s, bin, num, s, dec);
		return 0;
	}
	for (size_t i = 0; duration && i < sizeof(time_words) / sizeof(time_words[0]); i++)
		if (same_fold(time_words[i].word, u))
			alt = time_words[i].unit;
	if (duration && find_unit(size_units, sizeof(size_units) / sizeof(size_units[0]), u))
		return -ENOENT; /* a size where a time belongs: no spelling is near */
	lg_suggest_init(&sg, u);
	for (size_t i = 0; !alt && i < n; i++)
		lg_suggest_add(&sg, tab[i].name);
	if (!alt)
		alt = lg_suggest_best(&sg);
	if (!alt || !*alt)
		return -ENOENT;
	snprintf(buf, len, "'%.*s%s'", num, s, alt);
	return 0;
}

int lg_units_hint(const char *s, bool duration, char *buf, size_t len)
{
	const struct unit *tab = duration ? time_units : size_units;
	size_t n = duration ? sizeof(time_units) / sizeof(time_units[0])
			    : sizeof(size_units) / sizeof(size_units[0]);
	char v[96];

	if (len)
		buf[0] = '\0';
	if (hint_fraction(s, tab, n, duration, v, sizeof(v)) == 0) {
		snprintf(buf, len, "did you mean '%s'?", v);
		return 0;
	}
	if (hint_unit(s, tab, n, duration, v, sizeof(v)) == 0) {
		snprintf(buf, len, "did you mean %s?", v);
		return 0;
	}
	return -ENOENT;
}
