/* The signals loadgen decides on, in one table.
 *
 * A run is worth keeping: whatever stops it early (Ctrl-C, kill, a closed terminal, a
 * reader of the output that left, a batch system's time limit, a CPU limit) stops it the
 * way Ctrl-C does, so the results are printed and written with status "interrupted" and
 * the run directory is cleaned up. A closed output pipe (`loadgen ... | head`) stops it
 * the same way, through EPIPE on the next progress line rather than through SIGPIPE,
 * which would also arrive for output written after the run had ended well. Signals that ask for nothing a run could give are
 * ignored rather than allowed to kill it. Every other default-fatal signal keeps its
 * default on purpose: SIGQUIT (Ctrl-\ asks for a core dump), SIGKILL and SIGSTOP (cannot
 * be caught), faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP), and
 * signals nobody sends to a load generator by hand (SIGVTALRM and SIGPROF belong to
 * profilers, SIGIO, SIGPWR, SIGSTKFLT, the real-time signals). */
#include "signals.h"

#include <string.h>

static const struct lg_sig_rule rules[] = {
	{ SIGINT, LG_SIG_STOP, .again_exits = true, .why = "Ctrl-C; a second one exits at once" },
	{ SIGTERM, LG_SIG_STOP, .again_exits = true,
	  .why = "kill, a batch system's time limit (Slurm), mpirun passing on a stop" },
	{ SIGHUP, LG_SIG_STOP, .again_exits = true, .keep_ignored = true,
	  .why = "the terminal or the ssh session closed; under nohup it stays ignored" },
	{ SIGPIPE, LG_SIG_IGNORE,
	  .why = "a write to a pipe whose reader left (| head) fails with EPIPE instead; a "
		 "progress line meeting a closed stdout stops the run like SIGINT "
		 "(lg_engine_flush_stdout), results printed after the run are lost quietly "
		 "and the run keeps its status" },
	{ SIGALRM, LG_SIG_STOP, .again_exits = true, .why = "timeout -s ALRM, an alarm" },
	{ SIGXCPU, LG_SIG_STOP,
	  .why = "the soft CPU time limit (ulimit -t) was reached; the kernel repeats it every "
		 "second up to the hard limit, so it never counts as the second signal" },
	{ SIGXFSZ, LG_SIG_IGNORE,
	  .why = "a write past the file size limit (ulimit -f) fails with EFBIG instead, "
		 "counted as an unexpected result like ENOSPC" },
	{ SIGUSR1, LG_SIG_IGNORE,
	  .why = "asks for nothing loadgen does (dd prints its progress; loadgen prints it "
		 "every second already); mpirun passes it on to the ranks" },
	{ SIGUSR2, LG_SIG_IGNORE, .why = "as SIGUSR1" },
};

const struct lg_sig_rule *lg_signals_table(unsigned *n)
{
	*n = sizeof(rules) / sizeof(rules[0]);
	return rules;
}

/* Whether sig is ignored now (inherited from the parent: nohup, trap '' HUP). */
static bool ignored_now(int sig)
{
	struct sigaction old;

	return sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN;
}

void lg_signals_install(void (*handler)(int))
{
	struct sigaction sa;

	for (unsigned i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct lg_sig_rule *r = &rules[i];

		if (r->keep_ignored && ignored_now(r->sig))
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = r->action == LG_SIG_STOP ? handler : SIG_IGN;
		sigemptyset(&sa.sa_mask);
		sigaction(r->sig, &sa, NULL);
	}
}

void lg_signals_child(void)
{
	for (unsigned i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		signal(rules[i].sig, SIG_IGN);
}

void lg_signals_stop_set(sigset_t *set)
{
	sigemptyset(set);
	for (unsigned i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].action == LG_SIG_STOP)
			sigaddset(set, rules[i].sig);
}

bool lg_signals_again_exits(int sig)
{
	for (unsigned i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].sig == sig)
			return rules[i].again_exits;
	return true;
}
