/* Client execution backends: threads, or forked processes. The engine uses this one
 * small API for both; everything the master must see lives in memory shared by both
 * (see engine.c), so the backends differ only in how clients start, die and end. */
#ifndef LOADGEN_SPAWN_H
#define LOADGEN_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <pthread.h>

#include "client.h"

/* A set of running clients. */
struct lg_spawn {
	bool processes;       /* forked processes rather than threads */
	unsigned started;     /* clients started */
	unsigned lost;        /* processes that died before finishing (crash, kill) */
	pthread_t *threads;   /* threads mode: started entries */
	pid_t *pids;          /* processes mode: started entries, 0 once reaped */
	int *lost_signal;     /* processes mode: signal that killed client i, or 0 */
	int *exit_status;     /* processes mode: exit status of client i, or -1 */
};

/* Start n clients running lg_client_main, with the stop signals (signals.h) left to
 * the master.
 * On failure s->started says how many run; returns a negative errno with err filled. */
int lg_spawn_start(struct lg_spawn *s, bool processes, unsigned n, struct lg_client *clients,
		   char *err, size_t errlen);
/* Processes: notice clients that died, without waiting. Returns s->lost. */
unsigned lg_spawn_reap(struct lg_spawn *s);
/* Processes: whether client i was lost (as lg_spawn_reap last saw): it will never
 * arrive anywhere again. Threads are never lost. */
bool lg_spawn_lost(const struct lg_spawn *s, unsigned i);
/* Processes: say on stderr which clients were lost, and how. */
void lg_spawn_warn_lost(const struct lg_spawn *s);
/* Wait for every client to end. */
void lg_spawn_join(struct lg_spawn *s);
/* The same, calling tick(arg) every few ms meanwhile (tick NULL: lg_spawn_join). */
void lg_spawn_join_while(struct lg_spawn *s, void (*tick)(void *), void *arg);
/* Processes: SIGKILL every client still running (async-signal-safe). */
void lg_spawn_kill(const struct lg_spawn *s);
/* Free what lg_spawn_start allocated. */
void lg_spawn_free(struct lg_spawn *s);

#endif
