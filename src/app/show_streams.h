/* `loadgen show` of a recorded program (show_streams.c). Private to src/app. */
#ifndef LOADGEN_SHOW_STREAMS_H
#define LOADGEN_SHOW_STREAMS_H

#include <stdio.h>

#include "loadgen/model/workload.h"

/* Print to f what wl (a workload with streams) captured: its provenance, its input tree,
 * and per stream its calls by op, bytes, think time and waits. */
void lg_show_streams(FILE *f, const struct lg_workload *wl);

#endif
