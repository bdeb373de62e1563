/* `loadgen compare`: the system counters that changed most between two result files
 * (compare_sys.c). */
#ifndef LOADGEN_COMPARE_SYS_H
#define LOADGEN_COMPARE_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "loadgen/compare/compare.h"

#define LG_CMP_SYS_ROWS 12 /* rows shown below a verdict */

/* One counter or gauge of "sys_summary", compared. */
struct lg_cmp_sys_row {
	const char *key;    /* "vmstat.pgpgout", "disk.vda.util_pct" (borrowed from base or
			       other) */
	bool counter;       /* a counter: values are per second of measured time */
	double base, other; /* means over each file's runs; NaN on a side without the key */
	double change_pct;  /* 100 (other - base) / |base|; +inf when base is 0; NaN when
			       the key is on one side only */
	double p;           /* Welch p-value across runs, NaN with < 2 runs on a side */
};

/* The at most max rows that changed most, most significant first, into out[0..*n), over
 * the runs of group bg of base and og of other (the same client count; NULL: every run
 * of that file). The keys are those of every such run with measured seconds (runs
 * without them count for nothing); keys equal on both sides are left out, keys on one
 * side only come after those that changed. No rows when a side has no such run. 0 or
 * -ENOMEM. */
int lg_cmp_sys_rows(const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
		    const struct lg_cmp_file *other, const struct lg_cmp_group *og,
		    struct lg_cmp_sys_row *out, size_t max, size_t *n);
/* Print those rows (nothing when a side has no sys_summary), then, when both files hold
 * several hosts' own summaries (hosts[].sys_summary), the largest per-host changes, each
 * naming its host (host matched by name; changes alike on every host left out). */
void lg_cmp_sys_print(FILE *out, const struct lg_cmp_file *base, const struct lg_cmp_group *bg,
		      const struct lg_cmp_file *other, const struct lg_cmp_group *og);

#endif
