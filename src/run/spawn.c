/* Client execution backends: threads and forked processes. */
#include "spawn.h"
#include "signals.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define CLIENT_STACK (256 * 1024) /* clients keep their buffers on the heap */

static int start_thread(struct lg_spawn *s, struct lg_client *c)
{
	pthread_attr_t attr;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, CLIENT_STACK);
	rc = pthread_create(&s->threads[s->started], &attr, lg_client_main, c);
	pthread_attr_destroy(&attr);
	return rc;
}

/* The child: dies with the master, leaves Ctrl-C and the other stop signals (sent to the
 * whole process group) to the master, which stops the clients through the shared phase
 * instead; ignores the rest of the table (signals.c). */
static void child_main(struct lg_client *c)
{
	lg_signals_child();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	lg_client_main(c);
	_exit(0);
}

static int start_process(struct lg_spawn *s, struct lg_client *c)
{
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0)
		child_main(c);
	s->pids[s->started] = pid;
	s->exit_status[s->started] = -1;
	return 0;
}

int lg_spawn_start(struct lg_spawn *s, bool processes, unsigned n, struct lg_client *clients,
		   char *err, size_t errlen)
{
	sigset_t block, old;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->processes = processes;
	if (processes) {
		s->pids = calloc(n, sizeof(*s->pids));
		s->lost_signal = calloc(n, sizeof(*s->lost_signal));
		s->exit_status = calloc(n, sizeof(*s->exit_status));
	} else {
		s->threads = calloc(n, sizeof(*s->threads));
	}
	if (processes ? !s->pids || !s->lost_signal || !s->exit_status : !s->threads) {
		snprintf(err, errlen, "out of memory for %u clients", n);
		return -ENOMEM;
	}
	/* stdio buffers must not be flushed twice by forked children */
	fflush(NULL);
	lg_signals_stop_set(&block); /* client threads inherit the mask: they stay blocked */
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (unsigned i = 0; i < n && !rc; i++) {
		rc = processes ? start_process(s, &clients[i]) : start_thread(s, &clients[i]);
		if (rc)
			snprintf(err, errlen, "cannot start client %u of %u: %s", i + 1, n,
				 strerror(rc));
		else
			s->started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -rc;
}

/* Record how process i ended. */
static void note_end(struct lg_spawn *s, unsigned i, int status)
{
	s->pids[i] = 0;
	if (WIFSIGNALED(status)) {
		s->lost_signal[i] = WTERMSIG(status);
		s->lost++;
	} else {
		s->exit_status[i] = WEXITSTATUS(status);
		if (WEXITSTATUS(status) != 0)
			s->lost++;
	}
}

unsigned lg_spawn_reap(struct lg_spawn *s)
{
	for (unsigned i = 0; s->processes && i < s->started; i++) {
		int status;

		if (s->pids[i] > 0 && waitpid(s->pids[i], &status, WNOHANG) == s->pids[i])
			note_end(s, i, status);
	}
	return s->lost;
}

bool lg_spawn_lost(const struct lg_spawn *s, unsigned i)
{
	return s->processes && (s->lost_signal[i] || s->exit_status[i] > 0);
}

void lg_spawn_join(struct lg_spawn *s)
{
	for (unsigned i = 0; i < s->started; i++) {
		int status;

		if (!s->processes)
			pthread_join(s->threads[i], NULL);
		else if (s->pids[i] > 0 && waitpid(s->pids[i], &status, 0) == s->pids[i])
			note_end(s, i, status);
	}
}

void lg_spawn_join_while(struct lg_spawn *s, void (*tick)(void *), void *arg)
{
	if (!tick) {
		lg_spawn_join(s);
		return;
	}
	for (unsigned i = 0; i < s->started; i++) {
		for (;;) {
			struct timespec ts = { 0, 20000000 }; /* 20 ms */
			int status;

			if (!s->processes && pthread_tryjoin_np(s->threads[i], NULL) != EBUSY)
				break;
			if (s->processes) {
				pid_t w = s->pids[i] > 0 ? waitpid(s->pids[i], &status, WNOHANG)
							 : -1;

				if (w == s->pids[i] && w > 0)
					note_end(s, i, status);
				if (w != 0) /* ended, reaped before, or not ours: as join */
					break;
			}
			tick(arg);
			nanosleep(&ts, NULL);
		}
	}
}

void lg_spawn_kill(const struct lg_spawn *s)
{
	for (unsigned i = 0; s->processes && i < s->started; i++)
		if (s->pids[i] > 0)
			kill(s->pids[i], SIGKILL);
}

void lg_spawn_free(struct lg_spawn *s)
{
	free(s->threads);
	free(s->pids);
	free(s->lost_signal);
	free(s->exit_status);
	memset(s, 0, sizeof(*s));
}

/* Say which client processes were lost, and how. */
void lg_spawn_warn_lost(const struct lg_spawn *s)
{
	for (unsigned i = 0; s->processes && i < s->started; i++) {
		if (s->lost_signal[i])
			fprintf(stderr, "loadgen: client %u was lost: killed by signal %d (%s)\n",
				i, s->lost_signal[i], strsignal(s->lost_signal[i]));
		else if (s->exit_status[i] > 0)
			fprintf(stderr, "loadgen: client %u was lost: exited with status %d\n", i,
				s->exit_status[i]);
	}
}
