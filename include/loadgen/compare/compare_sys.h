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

/* A process (by command name) busy beside one file's runs and not the other's. */
struct lg_cmp_busy_note {
	const char *comm;      /* its command name (borrowed from the busy file's doc) */
	bool kernel;           /* kernel threads */
	bool in_base;          /* busy beside the base file's runs (else the other's) */
	bool io;               /* named for its I/O bytes (else its CPU time) */
	double amount;         /* bytes, or CPU-s, over the busy file's runs */
	double elsewhere;      /* the same in the other file (0: not listed there) */
	unsigned processes;    /* its processes over the busy file's runs */
	int first_pid;         /* the first of them */
	char text[384];        /* "dd (9 processes, first pid 4121) wrote 2.7 GB during
				  busy.json's runs, nothing comparable in quiet.json" */
};

/* Call fn for each process busy beside the runs of one file (runs[].busy, by command
 * name, over all its runs) with nothing comparable beside the other's: notable there
 * (loadgen/env/busy.h: lg_busy_notable over the file's busy seconds) and at less than a
 * tenth of that rate per second in the other, where a name missing from a full top list
 * counts as that list's smallest. The base file's names first, each side's largest
 * first, at most 5 per side. Nothing when a file has no "busy" (--monitor off, older
 * results). Returns how many notes (0 also for want of memory). */
size_t lg_cmp_busy_notes(const json_t *base_doc, const char *base_name,
			 const json_t *other_doc, const char *other_name,
			 void (*fn)(const struct lg_cmp_busy_note *note, void *ctx), void *ctx);

#endif
