/* loadgen record's use of strace (record_strace.h).
 *
 * strace runs as a child of record, in record's process group, so a Ctrl-C at the
 * terminal reaches strace and the program as well. On SIGINT strace 6.1 detaches from
 * the program rather than ending it, so record is a child subreaper: what strace leaves
 * behind becomes record's child, and after an interrupt record kills every child it
 * finds (lg_rec_kill_orphans). The signal handler only notes the signal (lg_rec_stop);
 * as it may have been sent to record alone, record passes SIGINT on to strace, then
 * SIGKILL if strace has not left after STOP_GRACE_NS. Children are waited for by
 * polling (waitpid WNOHANG every POLL_NS), so a signal cannot slip in between a look at
 * the flag and a blocking wait, and --for's deadline needs no timer.
 *
 * The overhead per traced call is measured with this binary itself (the hidden
 * --calibrate-child mode), untraced and then traced with the options of the recording
 * (the fastest of CALIBRATE_TRIES runs each): the child times its own calls, so
 * strace's start-up is not counted. */
#include "record_strace.h"
#include "loadgen/model/units.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define POLL_NS 10000000ULL        /* 10 ms between looks at a child */
#define STOP_GRACE_NS 5000000000ULL /* after SIGINT, strace's time to leave */
#define NS_PER_SEC 1000000000ULL
#define MAX_ARGS 32                 /* strace's own arguments */
#define CAPTURE_LEN 4096            /* what is kept of a child's output */
#define CALIBRATE_TRIES 2           /* runs of each kind, the fastest counts */

volatile sig_atomic_t lg_rec_stop;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void nap(void)
{
	struct timespec ts = { 0, POLL_NS };

	nanosleep(&ts, NULL);
}

/* name's executable in PATH (name with a '/': itself, relative to dir) into out. */
int lg_rec_which(const char *name, const char *dir, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p;
	struct stat st;

	if (strchr(name, '/')) {
		int n = name[0] == '/' || !dir ? snprintf(out, len, "%s", name)
					       : snprintf(out, len, "%s/%s", dir, name);

		return n > 0 && (size_t)n < len && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		       access(out, X_OK) == 0 ? 0 : -ENOENT;
	}
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; ; p++) {
		const char *end = strchrnul(p, ':');
		int n = end == p ? snprintf(out, len, "./%s", name) /* an empty entry: cwd */
				 : snprintf(out, len, "%.*s/%s", (int)(end - p), p, name);

		if (n > 0 && (size_t)n < len && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0)
			return 0;
		if (!*end)
			return -ENOENT;
		p = end;
	}
}

bool lg_rec_command_found(const char *cmd, const char *dir)
{
	char path[LG_REC_PATH_LEN];

	return lg_rec_which(cmd, dir, path, sizeof(path)) == 0;
}

/* Start argv[0] (a path) with argv in cwd (NULL: record's), its stdout and stderr on
 * out_fd and err_fd (-1: record's). 0 or a negative errno. */
int lg_rec_spawn(char *const *argv, const char *cwd, int out_fd, int err_fd, pid_t *pid)
{
	*pid = fork();
	if (*pid < 0)
		return -errno;
	if (*pid == 0) {
		if ((cwd && chdir(cwd) != 0) || (out_fd >= 0 && dup2(out_fd, 1) < 0) ||
		    (err_fd >= 0 && dup2(err_fd, 2) < 0))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	return 0;
}

/* Wait for pid; at deadline (0: none) or when lg_rec_stop is set, SIGINT it, and SIGKILL
 * STOP_GRACE_NS later. *status: its wait status. *at_deadline: stopped by the deadline.
 * 0, or -EINTR when lg_rec_stop was set. */
static int wait_child(pid_t pid, uint64_t deadline, int *status, bool *at_deadline)
{
	uint64_t sent = 0;
	pid_t r;

	*at_deadline = false;
	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		if (!sent && (lg_rec_stop || (deadline && now_ns() >= deadline))) {
			*at_deadline = !lg_rec_stop;
			kill(pid, SIGINT);
			sent = now_ns();
		} else if (sent && now_ns() - sent > STOP_GRACE_NS) {
			kill(pid, SIGKILL);
			sent = UINT64_MAX / 2; /* once */
		}
		nap();
	}
	if (r < 0)
		*status = 0;
	return lg_rec_stop ? -EINTR : 0;
}

/* Everything fd holds, up to len - 1 bytes, as a string. */
static void slurp(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < len && ((r = read(fd, buf + n, len - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
		if (r > 0)
			n += (size_t)r;
	buf[n] = '\0';
}

/* Run argv to its end with its stdout in out and its stderr in errout (each
 * CAPTURE_LEN). *status: its wait status. 0, a negative errno, or -EINTR. */
static int capture(char *const *argv, char *out, char *errout, int *status)
{
	int po[2], pe[2], rc;
	bool late;
	pid_t pid;

	if (pipe2(po, O_CLOEXEC) != 0)
		return -errno;
	if (pipe2(pe, O_CLOEXEC) != 0) {
		rc = -errno;
		goto out_po;
	}
	rc = lg_rec_spawn(argv, NULL, po[1], pe[1], &pid);
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	if (!rc)
		rc = wait_child(pid, 0, status, &late);
	slurp(po[0], out, CAPTURE_LEN); /* both are small: the pipes held them */
	slurp(pe[0], errout, CAPTURE_LEN);
	close(pe[0]);
out_po:
	close(po[0]);
	if (po[1] >= 0)
		close(po[1]);
	return rc;
}

void lg_rec_subreaper(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1); /* best effort: without it, SIGINT only */
}

int lg_rec_strace_find(struct lg_rec_strace *s)
{
	char out[CAPTURE_LEN], errout[CAPTURE_LEN], *v;
	int status;

	*s = (struct lg_rec_strace){ .seccomp = true };
	if (lg_rec_which("strace", NULL, s->path, sizeof(s->path)))
		return -ENOENT;
	if (capture((char *[]){ s->path, "-V", NULL }, out, errout, &status) == 0 &&
	    (v = strstr(out, "version ")) != NULL)
		snprintf(s->version, sizeof(s->version), "%.*s", (int)strcspn(v + 8, " \n"), v + 8);
	return 0;
}

const char *lg_rec_strace_opts(const struct lg_rec_strace *s)
{
	return s->seccomp ? "-f -ttt -T -y -qq --seccomp-bpf -e trace=" LG_REC_TRACE_SET
			  : "-f -ttt -T -y -qq -e trace=" LG_REC_TRACE_SET;
}

/* strace's arguments up to and including "-o trace" into argv; returns the count. */
static int strace_args(const struct lg_rec_strace *s, const char *trace, char **argv)
{
	int n = 0;

	argv[n++] = (char *)s->path;
	argv[n++] = "-f";
	argv[n++] = "-ttt";
	argv[n++] = "-T";
	argv[n++] = "-y";
	argv[n++] = "-qq";
	if (s->seccomp)
		argv[n++] = "--seccomp-bpf";
	argv[n++] = "-e";
	argv[n++] = "trace=" LG_REC_TRACE_SET;
	argv[n++] = "-o";
	argv[n++] = (char *)trace;
	return n;
}

/* One run of the calibrate child making n calls on dir, traced by s (NULL: untraced) into
 * trace. *ns: the time it measured. errout: strace's messages. 0, -EIO when it did not
 * say its time, or -EINTR. */
static int calibrate_once(const struct lg_rec_strace *s, const char *dir, const char *trace,
			  uint64_t n, uint64_t *ns, char *errout)
{
	char self[LG_REC_PATH_LEN], count[24], out[CAPTURE_LEN], *argv[MAX_ARGS], *end;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int argc = s ? strace_args(s, trace, argv) : 0, status, rc;

	if (len < 0)
		return -errno;
	self[len] = '\0';
	snprintf(count, sizeof(count), "%" PRIu64, n);
	if (s)
		argv[argc++] = "--";
	argv[argc++] = self;
	argv[argc++] = "record";
	argv[argc++] = "--calibrate-child";
	argv[argc++] = count;
	argv[argc++] = (char *)dir;
	argv[argc] = NULL;
	errout[0] = '\0';
	if ((rc = capture(argv, out, errout, &status)))
		return rc;
	errno = 0;
	*ns = strtoull(out, &end, 10);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || errno || end == out || *end != '\n')
		return -EIO;
	return 0;
}

/* The fastest of tries runs of calibrate_once: the least disturbed by the machine's
 * other work (the runs are short, and another process's burst only adds time). */
static int calibrate_best(const struct lg_rec_strace *s, const char *dir, const char *trace,
			  uint64_t n, int tries, uint64_t *ns, char *errout)
{
	uint64_t t;
	int rc = 0;

	*ns = UINT64_MAX;
	for (int i = 0; i < tries && !rc; i++)
		if (!(rc = calibrate_once(s, dir, trace, n, &t, errout)) && t < *ns)
			*ns = t;
	return rc;
}

int lg_rec_calibrate(struct lg_rec_strace *s, const char *dir, const char *trace_path,
		     uint64_t n, uint64_t *overhead_ns, char *err, size_t errlen)
{
	char errout[CAPTURE_LEN];
	uint64_t plain, traced;
	int rc = calibrate_best(NULL, dir, trace_path, n, CALIBRATE_TRIES, &plain, errout);

	if (!rc) {
		rc = calibrate_best(s, dir, trace_path, n, CALIBRATE_TRIES, &traced, errout);
		/* strace 6.1 goes on without --seccomp-bpf, saying why: say it too */
		if (rc != -EINTR && s->seccomp && (rc || strstr(errout, "seccomp"))) {
			s->seccomp = false;
			snprintf(s->note, sizeof(s->note), "%.*s", (int)strcspn(errout, "\n"),
				 errout[0] ? errout : "strace refused --seccomp-bpf");
			rc = calibrate_best(s, dir, trace_path, n, CALIBRATE_TRIES, &traced,
					    errout);
		}
	}
	if (rc && rc != -EINTR)
		snprintf(err, errlen, "measuring strace's overhead failed%s%.*s",
			 errout[0] ? ": " : "", (int)strcspn(errout, "\n"), errout);
	if (!rc)
		*overhead_ns = traced > plain ? (traced - plain) / n : 0;
	return rc;
}

int lg_rec_calibrate_child(int argc, char **argv)
{
	uint64_t n, t0;
	const char *why;
	struct stat st;

	if (argc != 4 || lg_parse_count(argv[2], &n, &why) || n == 0)
		return 2;
	for (int i = 0; i < 16; i++) /* warm: the first calls fault pages in */
		fstatat(AT_FDCWD, argv[3], &st, 0);
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		fstatat(AT_FDCWD, argv[3], &st, 0);
	printf("%" PRIu64 "\n", now_ns() - t0);
	/* _exit: no atexit handlers, among them LeakSanitizer's (an ASan build), which
	 * refuses to run under ptrace and would fail the traced run */
	_exit(fflush(stdout) == 0 ? 0 : 1);
}

/* The pids of record's children, from /proc (the program and its processes once strace
 * has left them to record, the subreaper): killed, then reaped. Returns how many. */
static int kill_children(void)
{
	char path[300], buf[512], *p;
	struct dirent *d;
	int n = 0, ppid;
	DIR *proc = opendir("/proc");
	FILE *f;

	while (proc && (d = readdir(proc)) != NULL) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (p && sscanf(p, ") %*c %d", &ppid) == 1 && ppid == (int)getpid()) {
			kill((pid_t)atoi(d->d_name), SIGKILL);
			n++;
		}
	}
	if (proc)
		closedir(proc);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return n;
}

/* After an interrupt: stop what strace left running, until no child is left (a dying
 * process's children become record's in turn), for STOP_GRACE_NS at most. */
void lg_rec_kill_orphans(void)
{
	uint64_t t0 = now_ns();

	while (kill_children() > 0 && now_ns() - t0 < STOP_GRACE_NS)
		nap();
}

int lg_rec_strace_run(const struct lg_rec_strace *s, const char *dir, char *const *cmd,
		      const char *trace_path, int *status, char *err, size_t errlen)
{
	char *argv[MAX_ARGS + 1024];
	int argc = strace_args(s, trace_path, argv), rc, ws;
	bool late;
	pid_t pid;

	argv[argc++] = "--";
	for (size_t i = 0; cmd[i]; i++) {
		if (argc + 1 >= (int)(sizeof(argv) / sizeof(*argv))) {
			snprintf(err, errlen, "the command has more than %zu arguments", i);
			return -E2BIG;
		}
		argv[argc++] = cmd[i];
	}
	argv[argc] = NULL;
	if ((rc = lg_rec_spawn(argv, dir, -1, -1, &pid))) {
		snprintf(err, errlen, "cannot start strace: %s", strerror(-rc));
		return rc;
	}
	rc = wait_child(pid, 0, &ws, &late);
	*status = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
	return rc;
}

int lg_rec_strace_attach(const struct lg_rec_strace *s, pid_t pid, uint64_t for_ns,
			 const char *trace_path, char *err, size_t errlen)
{
	char *argv[MAX_ARGS], pidstr[24];
	int argc = strace_args(s, trace_path, argv), rc, ws;
	bool late;
	pid_t tracer;

	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	argv[argc++] = "-p";
	argv[argc++] = pidstr;
	argv[argc] = NULL;
	if ((rc = lg_rec_spawn(argv, NULL, -1, -1, &tracer))) {
		snprintf(err, errlen, "cannot start strace: %s", strerror(-rc));
		return rc;
	}
	rc = wait_child(tracer, now_ns() + for_ns, &ws, &late);
	if (!rc && !late && (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)) {
		snprintf(err, errlen, "strace could not attach to process %d (see its message "
			 "above)", (int)pid);
		return -EPERM;
	}
	return rc;
}
