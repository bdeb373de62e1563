/* Unit tests of tag_stderr, with fd 2 captured in a file: every line written while
 * tagged (through stdio, write(2), or a forked child) carries "[host H rank R] " once,
 * also a line written in pieces or longer than the thread's buffer; untag copies a
 * pending partial line as it is, without a newline, and gives fd 2 back; tag and untag
 * flush a buffered stderr; tagging twice or untagging when not tagged changes nothing;
 * a signal does not stop the copying; a last line goes out at once, past the pipe.
 * Assertions come after fd 2 is given back, so that cmocka can print. */
#include "run/ranks/tag_stderr.h"

#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#define BUF 4096 /* the thread's read buffer in tag_stderr.c */

static int saved_fd = -1;     /* the test's own stderr while fd 2 is captured */
static int file_fd = -1;      /* the capture file (unlinked) */
static char out[5 * BUF];     /* what reached the capture file, NUL-terminated */
static char want[sizeof(out)]; /* what should have, built by want_line */
static size_t want_len;
static unsigned short_writes; /* by say, while fd 2 is captured */
static bool late;             /* a wait_output timed out: wait no more */

/* From now on fd 2 is an empty temporary file. */
static void capture_start(void)
{
	char path[] = "/tmp/lg_tag_stderr_XXXXXX";

	file_fd = mkstemp(path);
	assert_true(file_fd >= 0);
	unlink(path);
	saved_fd = dup(STDERR_FILENO);
	assert_true(saved_fd >= 0);
	assert_int_equal(dup2(file_fd, STDERR_FILENO), STDERR_FILENO);
	want_len = 0;
	short_writes = 0;
	late = false;
}

/* Give fd 2 back, after checking that it was the capture file again; the file's
 * bytes go to out. Returns their count. */
static size_t capture_end(void)
{
	struct stat now, file;
	bool restored = fstat(STDERR_FILENO, &now) == 0 && fstat(file_fd, &file) == 0 &&
			now.st_dev == file.st_dev && now.st_ino == file.st_ino;
	ssize_t n = pread(file_fd, out, sizeof(out) - 1, 0);

	dup2(saved_fd, STDERR_FILENO);
	close(saved_fd);
	close(file_fd);
	assert_true(restored);
	assert_int_equal(short_writes, 0);
	assert_true(n >= 0);
	out[n] = '\0';
	return (size_t)n;
}

/* Wait until the capture file holds n bytes: the thread has copied everything, and
 * what is written next comes in a read of its own. After 5 s, the test will fail. */
static void wait_output(size_t n)
{
	struct timespec ms = {0, 1000000};
	struct stat st;

	for (int i = 0; i < 5000 && !late; i++) {
		if (fstat(file_fd, &st) == 0 && (size_t)st.st_size >= n)
			return;
		nanosleep(&ms, NULL);
	}
	late = true;
}

/* Write s on fd 2 with write(2), not through stdio; a blocking pipe or a file
 * takes it all at once. */
static void say(const char *s, size_t n)
{
	if (write(STDERR_FILENO, s, n) != (ssize_t)n)
		short_writes++;
}

/* Add to want a line of n times c, tagged. */
static void want_line(const char *tag, char c, size_t n)
{
	memcpy(want + want_len, tag, strlen(tag));
	want_len += strlen(tag);
	memset(want + want_len, c, n);
	want_len += n;
	want[want_len++] = '\n';
}

static void test_lines(void **state)
{
	int rc;

	(void)state;
	capture_start();
	rc = lg_stderr_tag("node7", 3);
	fprintf(stderr, "one %d\n", 1);
	say("two\nthree\n", 10);
	fputs("\n", stderr);
	lg_stderr_untag();
	capture_end();
	assert_int_equal(rc, 0);
	assert_string_equal(out, "[host node7 rank 3] one 1\n"
			    "[host node7 rank 3] two\n"
			    "[host node7 rank 3] three\n"
			    "[host node7 rank 3] \n");
}

/* Each piece is copied before the next is written: one prefix all the same. */
static void test_pieces(void **state)
{
	size_t tag_len = strlen("[host h rank 1] ");

	(void)state;
	capture_start();
	lg_stderr_tag("h", 1);
	fputs("a", stderr);
	wait_output(tag_len + 1);
	say("b", 1);
	wait_output(tag_len + 2);
	fprintf(stderr, "c\n");
	wait_output(tag_len + 4);
	fputs("d", stderr);
	say("e\n", 2);
	lg_stderr_untag();
	capture_end();
	assert_string_equal(out, "[host h rank 1] abc\n[host h rank 1] de\n");
}

/* Untag copies a partial line as it is, without a newline, and gives back the original
 * fd 2, unprefixed; tagging anew takes the new host and rank (the largest, in full). */
static void test_untag(void **state)
{
	int rc;

	(void)state;
	capture_start();
	lg_stderr_tag("a", 1);
	say("x\nno newline", 12);
	lg_stderr_untag();
	fprintf(stderr, " y\n");
	say("w\n", 2);
	rc = lg_stderr_tag("login-01.cluster.example", UINT_MAX);
	say("z\n", 2);
	lg_stderr_untag();
	capture_end();
	assert_int_equal(rc, 0);
	assert_string_equal(out, "[host a rank 1] x\n[host a rank 1] no newline y\nw\n"
			    "[host login-01.cluster.example rank 4294967295] z\n");
}

static void test_twice(void **state)
{
	int rc1, rc2;

	(void)state;
	capture_start();
	lg_stderr_untag(); /* not tagging: nothing changes */
	say("plain\n", 6);
	rc1 = lg_stderr_tag("first", 1);
	rc2 = lg_stderr_tag("second", 2); /* already tagging: kept as it is */
	say("x\n", 2);
	lg_stderr_untag();
	lg_stderr_untag();
	say("y\n", 2);
	capture_end();
	assert_int_equal(rc1, 0);
	assert_int_equal(rc2, 0);
	assert_string_equal(out, "plain\n[host first rank 1] x\ny\n");
}

/* With stderr buffered, tag sends what was pending untagged, untag sends it tagged. */
static void test_stdio_buffer(void **state)
{
	static char buf[BUFSIZ];

	(void)state;
	capture_start();
	setvbuf(stderr, buf, _IOFBF, sizeof(buf));
	fputs("before\n", stderr);
	lg_stderr_tag("h", 4);
	fputs("inside\n", stderr);
	lg_stderr_untag();
	fputs("after\n", stderr);
	fflush(stderr);
	setvbuf(stderr, NULL, _IONBF, 0);
	capture_end();
	assert_string_equal(out, "before\n[host h rank 4] inside\nafter\n");
}

/* Lines longer than the buffer, and lines whose end falls on a read's edge. */
static void test_long_lines(void **state)
{
	static char big[2 * BUF + 101];
	const char *tag = "[host h rank 9] ";
	size_t n;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\n';
	capture_start();
	lg_stderr_tag("h", 9);
	say(big, sizeof(big)); /* one write, several reads */
	want_line(tag, 'x', sizeof(big) - 1);
	wait_output(want_len);
	memset(big, 'y', BUF);
	say(big, BUF); /* a full buffer without the newline */
	wait_output(want_len + strlen(tag) + BUF);
	say("\nz\n", 3); /* the newline starts a read */
	want_line(tag, 'y', BUF);
	want_line(tag, 'z', 1);
	wait_output(want_len);
	memset(big, 'v', BUF - 1);
	big[BUF - 1] = '\n';
	say(big, BUF); /* a full buffer ending with the newline */
	want_line(tag, 'v', BUF - 1);
	wait_output(want_len);
	say("w\n", 2);
	want_line(tag, 'w', 1);
	lg_stderr_untag();
	n = capture_end();
	assert_int_equal(n, want_len);
	assert_memory_equal(out, want, want_len);
}

/* A forked child inherits the tagged fd 2. */
static void test_fork(void **state)
{
	int status = -1;
	pid_t pid;

	(void)state;
	capture_start();
	lg_stderr_tag("h", 5);
	pid = fork();
	if (pid == 0) {
		fprintf(stderr, "child\n");
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	say("parent\n", 7);
	lg_stderr_untag();
	capture_end();
	assert_true(pid > 0);
	assert_int_equal(status, 0);
	assert_string_equal(out, "[host h rank 5] child\n[host h rank 5] parent\n");
}

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

/* A signal with a handler that does not restart calls (as main.c's) never stops the
 * copying: sent while only the copying thread could take it, it waits for the thread
 * that unblocks it, and the line after it is still tagged. */
static void test_signal(void **state)
{
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	sigset_t usr1, prev;

	(void)state;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigaction(SIGUSR1, &sa, &old); /* no SA_RESTART */
	caught = 0;
	capture_start();
	lg_stderr_tag("n", 1);
	say("before\n", 7);
	wait_output(strlen("[host n rank 1] before\n"));
	nanosleep(&(struct timespec){ 0, 100000000 }, NULL); /* the thread waits in read */
	pthread_sigmask(SIG_BLOCK, &usr1, &prev);
	kill(getpid(), SIGUSR1);
	/* a thread that takes it runs the handler at once; wait for that, or 100 ms */
	for (int i = 0; i < 100 && !caught; i++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	say("after\n", 6);
	wait_output(2 * strlen("[host n rank 1] ") + 13);
	lg_stderr_untag();
	capture_end();
	pthread_sigmask(SIG_SETMASK, &prev, NULL); /* the handler runs here */
	sigaction(SIGUSR1, &old, NULL);
	assert_int_equal(caught, 1);
	assert_string_equal(out, "[host n rank 1] before\n[host n rank 1] after\n");
}

/* write_now reaches the real stderr before it returns, tagged when tagging: what a
 * signal handler says just before _exit is not left in the pipe. */
static void test_write_now(void **state)
{
	struct stat st;
	off_t at_once;

	(void)state;
	capture_start();
	lg_stderr_write_now("plain\n", 6);
	lg_stderr_tag("n", 2);
	lg_stderr_write_now("last words\n", 11);
	at_once = fstat(file_fd, &st) == 0 ? st.st_size : -1;
	lg_stderr_untag();
	capture_end();
	assert_string_equal(out, "plain\n[host n rank 2] last words\n");
	assert_int_equal(at_once, (off_t)strlen(out));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_untag),
		cmocka_unit_test(test_twice),
		cmocka_unit_test(test_stdio_buffer),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_signal),
		cmocka_unit_test(test_write_now),
	};

	alarm(60); /* a thread that never ends fails the test rather than hanging it */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
