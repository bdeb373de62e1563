/* Tagged stderr for the ranks other than 0: every line they write to stderr (from any
 * file, and from forked clients, which inherit the descriptor) goes through a pipe to
 * a thread that prefixes it with the host and rank, so the user knows where it came
 * from among the lines of many ranks. */
#include "tag_stderr.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int real_fd = -1;    /* the original stderr */
static int pipe_rd = -1;    /* the pipe's read end, drained by the thread */
static pthread_t thread;    /* copies lines from the pipe to real_fd, tagged */
static char tag[160];       /* "[host HOST rank R] " */

static void put(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(real_fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* The next bytes from the pipe: a signal does not end the copying (the thread blocks
 * signals, but a handler installed without SA_RESTART could still interrupt it). */
static ssize_t next(char *buf, size_t len)
{
	ssize_t n;

	while ((n = read(pipe_rd, buf, len)) < 0 && errno == EINTR)
		;
	return n;
}

static void *drain(void *arg)
{
	char buf[4096];
	bool at_start = true;
	ssize_t n;

	(void)arg;
	while ((n = next(buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n;) {
			char *nl = memchr(buf + i, '\n', (size_t)(n - i));
			size_t len = nl ? (size_t)(nl - (buf + i)) + 1 : (size_t)(n - i);

			if (at_start)
				put(tag, strlen(tag));
			put(buf + i, len);
			at_start = nl != NULL;
			i += (ssize_t)len;
		}
	}
	return NULL;
}

/* The copying thread, with every signal blocked: signals go to the threads that act
 * on them, never to the one that must not stop. 0 or an errno. */
static int start_drain(void)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&thread, NULL, drain, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int lg_stderr_tag(const char *host, unsigned rank)
{
	int fds[2], fd;

	if (real_fd >= 0)
		return 0;
	snprintf(tag, sizeof(tag), "[host %s rank %u] ", host, rank);
	fflush(stderr);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
	if (fd < 0 || dup2(fds[1], STDERR_FILENO) < 0) { /* dup2 leaves no O_CLOEXEC */
		if (fd >= 0)
			close(fd);
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	real_fd = fd;
	close(fds[1]);
	pipe_rd = fds[0];
	if (start_drain()) {
		dup2(real_fd, STDERR_FILENO);
		close(real_fd);
		close(pipe_rd);
		real_fd = pipe_rd = -1;
		return -1;
	}
	return 0;
}

void lg_stderr_untag(void)
{
	if (real_fd < 0)
		return;
	fflush(stderr);
	dup2(real_fd, STDERR_FILENO); /* the pipe's last write end closes: the thread ends */
	pthread_join(thread, NULL);
	close(pipe_rd);
	close(real_fd);
	real_fd = pipe_rd = -1;
}

void lg_stderr_write_now(const char *s, size_t n)
{
	if (real_fd >= 0 && write(real_fd, tag, strlen(tag)) < 0)
		return;
	(void)!write(real_fd >= 0 ? real_fd : STDERR_FILENO, s, n);
}
