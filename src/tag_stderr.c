/* Tagged stderr for the ranks other than 0: every line they write to stderr (from any
 * file, and from forked clients, which inherit the descriptor) goes through a pipe to
 * a thread that prefixes it with the host and rank, so the user knows where it came
 * from among the lines of many ranks. */
#include "tag_stderr.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int real_fd = -1;    /* the original stderr */
static int pipe_rd = -1;    /* the pipe's read end, drained by the thread */
static pthread_t thread;    /* copies lines from the pipe to real_fd, tagged */
static char tag[160];       /* "loadgen[host HOST rank R]: " */

static void put(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(real_fd, p, n);

		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void *drain(void *arg)
{
	char buf[4096];
	bool at_start = true;
	ssize_t n;

	(void)arg;
	while ((n = read(pipe_rd, buf, sizeof(buf))) > 0) {
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

int lg_stderr_tag(const char *host, unsigned rank)
{
	int fds[2];

	if (real_fd >= 0)
		return 0;
	snprintf(tag, sizeof(tag), "[host %s rank %u] ", host, rank);
	fflush(stderr);
	if (pipe(fds) < 0)
		return -1;
	real_fd = dup(STDERR_FILENO);
	if (real_fd < 0 || dup2(fds[1], STDERR_FILENO) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	pipe_rd = fds[0];
	if (pthread_create(&thread, NULL, drain, NULL)) {
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
