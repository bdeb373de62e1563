/* rlimits.c: open files a run needs (the most a client holds at once, walked through
 * the ops, times the clients for threads, once for processes), the soft limit raised
 * toward the hard one when that is enough, a clear refusal when it is not, and the
 * threads-max check. Each case runs in a child process, whose limits it may lower. */
#include "run/rlimits.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"

/* Three files open at once at most (a, b, c), though there are four slots. */
static const char *const WL = "run:\n"
	"  - create: {path: a, as: a}\n  - create: {path: b, as: b}\n"
	"  - create: {path: c, as: c}\n  - close: a\n  - close: b\n  - close: c\n"
	"  - create: {path: d, as: d}\n  - close: d\n";

static struct lg_workload *load(void)
{
	struct lg_workload *wl;
	char err[256];

	assert_int_equal(lg_yaml_load("t.yaml", WL, strlen(WL), NULL, 0, 1, &wl, err,
				      sizeof(err)), 0);
	assert_int_equal(wl->nslots, 4);
	return wl;
}

/* In a child with RLIMIT_NOFILE soft/hard: lg_limits_check for clients; the child's
 * exit status: 0 accepted, 1 refused with EMFILE and the message, 2 anything else.
 * *soft_after gets the soft limit the check left (through a pipe). */
static int check_in_child(rlim_t soft, rlim_t hard, unsigned clients, bool processes,
			  const char *want_msg, rlim_t *soft_after)
{
	int fds[2], status;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { soft, hard };
		struct lg_config cfg = { .clients = clients, .processes = processes };
		struct lg_workload *wl = load();
		char err[512] = "";
		unsigned long long after;
		int rc;

		if (setrlimit(RLIMIT_NOFILE, &rl))
			_exit(3);
		rc = lg_limits_check(&cfg, wl, err, sizeof(err));
		getrlimit(RLIMIT_NOFILE, &rl);
		after = rl.rlim_cur;
		if (write(fds[1], &after, sizeof(after)) != sizeof(after))
			_exit(4);
		if (rc == 0)
			_exit(0);
		_exit(rc == -EMFILE && want_msg && strstr(err, want_msg) ? 1 : 2);
	}
	close(fds[1]);
	if (soft_after) {
		unsigned long long after = 0;

		assert_int_equal(read(fds[0], &after, sizeof(after)), sizeof(after));
		*soft_after = after;
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* 10 thread clients: 32 + 10 * (3 + 2) = 82 descriptors. */
static void test_files(void **state)
{
	rlim_t after = 0;

	(void)state;
	assert_int_equal(check_in_child(200, 200, 10, false, NULL, &after), 0);
	assert_int_equal(after, 200);                      /* enough: left alone */
	assert_int_equal(check_in_child(50, 200, 10, false, NULL, &after), 0);
	assert_int_equal(after, 82);                       /* raised to what is needed */
	assert_int_equal(check_in_child(50, 81, 10, false,
					 "10 clients with up to 3 open files each need about 82 "
					 "file descriptors, but the open-file limit is 50 (hard "
					 "limit 81)", &after), 1);
	/* processes: each has its own table, 32 + 5 */
	assert_int_equal(check_in_child(40, 40, 10, true, NULL, &after), 0);
	assert_int_equal(check_in_child(36, 36, 10, true, "need about 37", &after), 1);
}

static void test_threads_max(void **state)
{
	struct lg_config cfg = { .clients = 1 };
	struct lg_workload *wl = load();
	unsigned long long max = 0;
	char err[256] = "";
	FILE *f = fopen("/proc/sys/kernel/threads-max", "r");

	(void)state;
	assert_int_equal(lg_limits_check(&cfg, wl, err, sizeof(err)), 0);
	if (f && fscanf(f, "%llu", &max) == 1 && max < UINT32_MAX) {
		cfg.clients = (unsigned)max;
		cfg.processes = true; /* so the open-file check passes */
		assert_int_equal(lg_limits_check(&cfg, wl, err, sizeof(err)), -EAGAIN);
		/* a user without root may meet RLIMIT_NPROC first */
		assert_true(strstr(err, "threads-max") || strstr(err, "process limit"));
	}
	if (f)
		fclose(f);
	lg_workload_destroy(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_threads_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
