/* What loadgen does with each signal a user (or a terminal, a pipe, a batch system, a
 * resource limit) can plausibly send: one table (signals.c), read by the master of a run,
 * by `loadgen ab`, and by forked client processes. Private to the run layer and above. */
#ifndef LOADGEN_SIGNALS_H
#define LOADGEN_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/* What a signal does. */
enum lg_sig_action {
	LG_SIG_STOP,   /* stop the run like Ctrl-C: results written as "interrupted", cleanup */
	LG_SIG_IGNORE, /* nothing: the run goes on (a write past a limit fails with EFBIG) */
};

/* One row of the table. */
struct lg_sig_rule {
	int sig;                   /* the signal number */
	enum lg_sig_action action; /* what it does to the master (children ignore all) */
	bool again_exits;          /* STOP: a second one while stopping exits at once */
	bool keep_ignored;         /* ignored when loadgen started (nohup): stays ignored */
	const char *why;           /* who sends it and why this action, for the reader */
};

/* The table, and its length into *n. */
const struct lg_sig_rule *lg_signals_table(unsigned *n);
/* The master (a run, or ab): every STOP signal runs handler (without SA_RESTART), every
 * IGNORE signal is ignored (SIGPIPE among them: writes to a closed pipe fail with EPIPE). Not async-signal-safe; call once, before clients start. */
void lg_signals_install(void (*handler)(int));
/* A forked client process: every signal of the table ignored (the master stops it
 * through the shared phase; a write to a broken pipe fails with EPIPE as an op). */
void lg_signals_child(void);
/* The STOP signals into *set (emptied first): blocked in client threads so that they
 * reach the master thread, never interrupt an op. */
void lg_signals_stop_set(sigset_t *set);
/* Whether sig, arriving while already stopping, means "exit at once". Async-signal-safe. */
bool lg_signals_again_exits(int sig);

#endif
