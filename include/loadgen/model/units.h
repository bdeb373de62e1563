/* Parsing sizes ("4KiB"), durations ("10ms") and counts, strictly.
 *
 * All three take a whole string: a decimal integer, optionally followed (after optional
 * blanks) by a unit. Signs, fractions, hex, empty strings and trailing garbage are
 * rejected rather than guessed at, because a typo in a workload should stop the run. */
#ifndef LOADGEN_UNITS_H
#define LOADGEN_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Size in bytes. Units:
 *   (none), B                      bytes
 *   K, KiB   M, MiB   G, GiB   T, TiB   powers of 1024
 *   KB, kB   MB       GB       TB       powers of 1000
 * Returns 0; -EINVAL with *why (a static message) on a malformed value; -ERANGE with
 * *why when the value does not fit in 64 bits. */
int lg_parse_size(const char *s, uint64_t *out, const char **why);
/* Duration into nanoseconds. Units: ns, us, ms, s, m (minutes), h; a bare number is
 * seconds. Returns 0, -EINVAL or -ERANGE with *why, as lg_parse_size. */
int lg_parse_duration(const char *s, uint64_t *out_ns, const char **why);
/* Non-negative decimal integer, no unit. Returns 0, -EINVAL or -ERANGE with *why. */
int lg_parse_count(const char *s, uint64_t *out, const char **why);

/* For a size (duration false) or duration s that did not parse, a correction into buf:
 * "did you mean '1500ms'?" for a fraction that is a whole number of a smaller unit
 * ("1.5s"), "did you mean '64KiB' (powers of 1024) or '64kB' (powers of 1000)?" for a
 * misspelt unit ("64kb"). Returns 0, or -ENOENT (buf "") when there is none. */
int lg_units_hint(const char *s, bool duration, char *buf, size_t len);

#endif
