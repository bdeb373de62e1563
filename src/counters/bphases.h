/* Phases between barriers over a whole run (mdtest's phase rates): each phase's items,
 * ops and bytes added over every client, and its span from the first client's start to
 * the last client's end. The rate is items over that span, as mdtest reports a phase. */
#ifndef LOADGEN_BPHASES_H
#define LOADGEN_BPHASES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "loadgen/counters/counters.h"

/* One phase between barriers, over every client. */
struct lg_bphase_sum {
	const char *name;  /* the phase's name (borrowed from the run) */
	uint64_t items;    /* its items: the ops its 'items' label counts, or every op */
	uint64_t ops;      /* every op of it */
	uint64_t bytes;    /* bytes read and written by them */
	unsigned clients;  /* clients that began it */
	double start_s;    /* the first client's start, s after the measured phase began */
	double end_s;      /* the last client's end, s */
	double span_s;     /* end_s - start_s */
};

/* Fill out (room for LG_BARRIER_PHASES_MAX) with run's phases between barriers. A first
 * phase in which no client did anything (the run phase opens with a barrier) is left
 * out. Returns how many were filled: 0 when the workload has no barrier. */
size_t lg_run_bphases(const struct lg_run *run, struct lg_bphase_sum *out);
/* The rate of a phase's items, per second; 0 for a span of 0. */
double lg_bphase_rate(const struct lg_bphase_sum *s, uint64_t n);
/* runs[].barrier_phases: the phases of lg_run_bphases with their rates; an empty array
 * without barriers. A new reference, NULL on -ENOMEM. */
json_t *lg_bphases_json(const struct lg_run *run);
/* clients[].barrier_phases of client cs: per phase it began, its start, end, ops, items
 * and bytes. A new reference, NULL on -ENOMEM. */
json_t *lg_client_bphases_json(const struct lg_run *run, const struct lg_client_stats *cs);

#endif
