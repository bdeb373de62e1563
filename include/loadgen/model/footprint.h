/* How much room a workload's files take: a lower bound, from the compiled ops, so that
 * a run that cannot fit is refused before it fills the filesystem (runs.c). */
#ifndef LOADGEN_FOOTPRINT_H
#define LOADGEN_FOOTPRINT_H

#include <stdint.h>

#include "loadgen/model/workload.h"

/* The largest file one client surely writes, and what sizes it. */
struct lg_footprint {
	uint64_t bytes;      /* bytes that file holds at its largest; 0: no bound found */
	enum lg_phase phase; /* phase writing it */
	uint32_t line;       /* line of the write step that sizes it (the largest one) */
	uint64_t size;       /* that step's bytes per call */
	uint64_t count;      /* its calls per execution */
	uint64_t loops;      /* its executions per file: the repeats around it since the
				file was opened (1 when none) */
};

/* A lower bound of the bytes the largest file private to one client (its path holds
 * ${client}) holds: per open file, the bytes written sequentially or appended, repeats
 * counted, when every read and write of it is sequential; otherwise its largest single
 * write step. Steps inside a choose of several alternatives, random and in-place
 * writes, and files shared by clients do not count, so the bound never exceeds what a
 * pass writes. Never fails. */
void lg_footprint(const struct lg_workload *wl, struct lg_footprint *out);

#endif
