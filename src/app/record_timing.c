/* loadgen record --timing-runs (record_timing.h): untraced runs of the program on the
 * directory as it was, and the fit of the think times to them.
 *
 * The copy and the restore use cp -a (coreutils): it keeps every kind of entry, times,
 * modes and owners as the program found them, and makes reflinks where the filesystem
 * can, which a walk written here would have to do all over again. Replays are this
 * executable run as `loadgen -c YAML 1`, so the fit measures the engine that will replay
 * the workload, and not a model of it. */
#include "record_timing.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loadgen/model/clock.h"
#include "record_strace.h"

#define STOP_GRACE_NS 5000000000ULL /* after SIGINT, the program's time to leave */
#define POLL_NS 10000000L            /* between looks at a program asked to stop */
#define FIT_TOLERANCE 0.02           /* a replay within 2 % of the target ends the fit */
#define MAX_SCALE 1e4                /* think times are not made longer than this factor */
#define FIT_POINT_S 0.25             /* replaying time per point, at least ... */
#define MAX_POINT_RUNS 15            /* ... in this many replays at most */

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) (n > 0), sorting v in place. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Wait for pid with a blocking waitpid (the end is timed: no polling interval in it);
 * once lg_rec_stop is set, SIGINT it and SIGKILL it STOP_GRACE_NS later. */
static int wait_stoppable(pid_t pid, int *ws)
{
	uint64_t sent = 0;
	pid_t r;

	for (;;) {
		r = waitpid(pid, ws, sent ? WNOHANG : 0);
		if (r == pid)
			return lg_rec_stop ? -EINTR : 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (lg_rec_stop && !sent) {
			kill(pid, SIGINT);
			sent = lg_now_ns();
		} else if (sent && lg_now_ns() - sent > STOP_GRACE_NS) {
			kill(pid, SIGKILL);
			sent = UINT64_MAX / 2; /* once */
		}
		if (sent)
			nanosleep(&(struct timespec){ 0, POLL_NS }, NULL);
	}
}

/* cp -a SRC/. DST/ (DST exists). 0, or a negative errno with err. */
static int copy_content(const char *src, const char *dst, char *err, size_t errlen)
{
	char cp[PATH_MAX], from[PATH_MAX + 2], to[PATH_MAX + 2];
	char *argv[] = { cp, "-a", "--reflink=auto", "--", from, to, NULL };
	int rc, ws;
	pid_t pid;

	if (lg_rec_which("cp", NULL, cp, sizeof(cp))) {
		snprintf(err, errlen, "cp not found (Debian package coreutils)");
		return -ENOENT;
	}
	snprintf(from, sizeof(from), "%s/.", src);
	snprintf(to, sizeof(to), "%s/", dst);
	if ((rc = lg_rec_spawn(argv, NULL, -1, -1, &pid))) {
		snprintf(err, errlen, "cannot start cp: %s", strerror(-rc));
		return rc;
	}
	while ((rc = waitpid(pid, &ws, 0)) < 0 && errno == EINTR)
		; /* a copy is not cut off halfway, even when interrupted */
	if (rc < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
		snprintf(err, errlen, "cp -a %s %s failed (see its message above)", from, to);
		return -EIO;
	}
	return 0;
}

/* A copy of dir's content in a new directory beside it, ".NAME.loadgen-TAG.XXXXXX". */
static int backup_dir(const char *dir, const char *tag, char *backup, char *err,
		      size_t errlen)
{
	const char *slash = strrchr(dir, '/');
	int n, rc;

	if (!slash || !slash[1]) {
		snprintf(err, errlen, "%s: --timing-runs cannot copy the root directory", dir);
		return -EINVAL;
	}
	n = snprintf(backup, PATH_MAX, "%.*s/.%s.loadgen-%s.XXXXXX",
		     (int)(slash - dir), dir, slash + 1, tag);
	if (n < 0 || n >= PATH_MAX || !mkdtemp(backup)) {
		snprintf(err, errlen, "a directory for the copy of %s beside it: %s", dir,
			 strerror(n < 0 || n >= PATH_MAX ? ENAMETOOLONG : errno));
		backup[0] = '\0';
		return -EIO;
	}
	if ((rc = copy_content(dir, backup, err, errlen))) {
		lg_rec_remove_tree(backup);
		backup[0] = '\0';
	}
	return rc;
}

static int remove_rc;

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((type == FTW_DP ? rmdir(path) : unlink(path)) != 0 && errno != ENOENT && !remove_rc)
		remove_rc = -errno;
	return 0;
}

int lg_rec_remove_tree(const char *path)
{
	remove_rc = 0;
	if (nftw(path, remove_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) != 0 && errno != ENOENT &&
	    !remove_rc)
		remove_rc = -errno;
	return remove_rc;
}

static int restore_dir(const char *dir, const char *backup, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dd = opendir(dir);
	int rc = dd ? 0 : -errno;

	while (dd && (d = readdir(dd)) != NULL) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (!rc)
			rc = lg_rec_remove_tree(path);
	}
	if (dd)
		closedir(dd);
	if (rc) {
		snprintf(err, errlen, "emptying %s to put it back as it was: %s (a copy is in "
			 "%s)", dir, strerror(-rc), backup);
		return rc;
	}
	return copy_content(backup, dir, err, errlen);
}

static int run_plain(const char *dir, char *const *cmd, uint64_t *elapsed_ns, int *status,
		     char *err, size_t errlen)
{
	char path[PATH_MAX], *argv0 = cmd[0];
	uint64_t t0;
	pid_t pid;
	int rc, ws = 0;

	if (lg_rec_which(cmd[0], dir, path, sizeof(path))) {
		snprintf(err, errlen, "%s: command not found", cmd[0]);
		return -ENOENT;
	}
	t0 = lg_now_ns();
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot start %s: %s", argv0, strerror(errno));
		return -EAGAIN;
	}
	if (pid == 0) {
		if (chdir(dir) != 0)
			_exit(127);
		execv(path, cmd);
		_exit(127);
	}
	rc = wait_stoppable(pid, &ws);
	*elapsed_ns = lg_now_ns() - t0;
	*status = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
	if (rc && rc != -EINTR)
		snprintf(err, errlen, "waiting for %s: %s", argv0, strerror(-rc));
	return rc;
}

/* One run on DIR as it was (u->backup), then DIR put back so; said on stderr as run k of
 * n (n 0: one beside the fit), kept in u. */
static int one_run(struct lg_rec_untraced *u, unsigned n, char *err, size_t errlen)
{
	int rc, rrc, status;
	uint64_t ns;

	if (u->n >= sizeof(u->s) / sizeof(u->s[0]))
		return 0; /* enough */
	rc = run_plain(u->dir, u->cmd, &ns, &status, err, errlen);
	if (!rc || rc == -EINTR) { /* the program ran: DIR back as it was, always */
		rrc = restore_dir(u->dir, u->backup, err, errlen);
		rc = rrc ? rrc : rc;
	}
	if (rc)
		return rc;
	u->s[u->n++] = (double)ns / 1e9;
	if (n)
		fprintf(stderr, "loadgen record: untraced run %u of %u: %.6f s, exit status %d\n",
			u->n, n, u->s[u->n - 1], status);
	else
		fprintf(stderr, "loadgen record: untraced run %u, beside the fit: %.6f s, exit "
			"status %d\n", u->n, u->s[u->n - 1], status);
	return 0;
}

int lg_rec_untraced_runs(struct lg_rec_untraced *u, unsigned n, char *err, size_t errlen)
{
	int rc = backup_dir(u->dir, "orig", u->backup, err, errlen);

	if (n > LG_REC_MAX_TIMING_RUNS)
		n = LG_REC_MAX_TIMING_RUNS;
	for (unsigned i = 0; !rc && i < n; i++)
		rc = one_run(u, n, err, errlen);
	return rc;
}

int lg_rec_untraced_more(struct lg_rec_untraced *u, char *err, size_t errlen)
{
	int rc;

	if (!u->backup[0])
		return 0;
	if (!u->post[0] && ((rc = backup_dir(u->dir, "traced", u->post, err, errlen)) ||
			    (rc = restore_dir(u->dir, u->backup, err, errlen))))
		return rc;
	return one_run(u, 0, err, errlen);
}

double lg_rec_untraced_median(const struct lg_rec_untraced *u)
{
	double v[sizeof(u->s) / sizeof(u->s[0])];

	memcpy(v, u->s, u->n * sizeof(v[0]));
	return u->n ? median(v, u->n) : 0;
}

int lg_rec_untraced_end(struct lg_rec_untraced *u)
{
	char err[1024];
	int rc = 0;

	if (u->post[0]) {
		if ((rc = restore_dir(u->dir, u->post, err, sizeof(err))))
			fprintf(stderr, "loadgen record: %s\n", err); /* the copy is kept */
		else if (lg_rec_remove_tree(u->post))
			fprintf(stderr, "loadgen record: could not remove %s (a copy of %s made "
				"for --timing-runs)\n", u->post, u->dir);
		u->post[0] = '\0';
	}
	if (u->backup[0] && lg_rec_remove_tree(u->backup))
		fprintf(stderr, "loadgen record: could not remove %s (the copy of %s made for "
			"--timing-runs)\n", u->backup, u->dir);
	u->backup[0] = '\0';
	return rc;
}

/* One replay of yaml by one client under caldir with --replay-timing spec: its measured
 * duration into *s. */
static int replay_once(const char *self, const char *yaml, const char *caldir,
		       const char *spec, double *s, char *err, size_t errlen)
{
	char run[PATH_MAX + 16], json[PATH_MAX + 16], log[PATH_MAX + 16];
	char *argv[] = { (char *)self, "-q", "--monitor", "off", "-D", run, "-c", (char *)yaml,
			 "--replay-timing", (char *)spec, "--json", json, "1", NULL };
	json_t *root = NULL, *d;
	int fd, rc, ws = 0;
	pid_t pid;

	snprintf(run, sizeof(run), "%s/run", caldir);
	snprintf(json, sizeof(json), "%s/replay.json", caldir);
	snprintf(log, sizeof(log), "%s/replay.log", caldir);
	if (mkdir(run, 0700) != 0 || (fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) {
		snprintf(err, errlen, "a directory for the replays in %s: %s", caldir,
			 strerror(errno));
		return -EIO;
	}
	rc = lg_rec_spawn(argv, NULL, fd, fd, &pid);
	close(fd);
	if (!rc)
		rc = wait_stoppable(pid, &ws);
	if (!rc && (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)) {
		FILE *f = fopen(log, "r");
		char line[512] = "";

		if (f) {
			if (!fgets(line, sizeof(line), f))
				line[0] = '\0';
			fclose(f);
		}
		line[strcspn(line, "\n")] = '\0';
		snprintf(err, errlen, "the replay that fits the think times failed (%s): %s",
			 spec, line[0] ? line : "no message");
		rc = -EIO;
	}
	if (!rc) {
		root = json_load_file(json, 0, NULL);
		d = json_object_get(json_array_get(json_object_get(root, "runs"), 0),
				    "duration_s");
		if (!json_is_number(d)) {
			snprintf(err, errlen, "the replay wrote no duration in %s", json);
			rc = -EIO;
		} else {
			*s = json_number_value(d);
		}
		json_decref(root);
	}
	lg_rec_remove_tree(run);
	unlink(json);
	unlink(log);
	return rc == -EINTR || lg_rec_stop ? -EINTR : rc;
}

/* The median of runs replays at think-time scale k (0: afap), as for the untraced runs:
 * the program's typical time, not its luckiest. */
static int replay_point(const char *self, const char *yaml, const char *caldir,
			unsigned runs, double k, double *s, char *err, size_t errlen)
{
	double v[MAX_POINT_RUNS];
	char spec[64];
	int rc = 0;

	if (runs > MAX_POINT_RUNS)
		runs = MAX_POINT_RUNS;
	if (k > 0)
		snprintf(spec, sizeof(spec), "scale=%.6g", k);
	else
		snprintf(spec, sizeof(spec), "afap");
	for (unsigned i = 0; !rc && i < runs; i++)
		rc = replay_once(self, yaml, caldir, spec, &v[i], err, errlen);
	if (!rc)
		*s = median(v, runs);
	return rc;
}

/* The scale where the least-squares line through the points (k[i], r[i]) reaches target;
 * -1 when the line does not rise (the think times make no measurable difference). */
static double line_at(const double *k, const double *r, int n, double target)
{
	double mk = 0, mr = 0, skk = 0, skr = 0, slope;

	for (int i = 0; i < n; i++) {
		mk += k[i] / n;
		mr += r[i] / n;
	}
	for (int i = 0; i < n; i++) {
		skk += (k[i] - mk) * (k[i] - mk);
		skr += (k[i] - mk) * (r[i] - mr);
	}
	if (skk <= 0 || (slope = skr / skk) <= 0)
		return -1;
	return mk + (target - mr) / slope;
}

/* The replay's duration is close to a line in the scale (each stream's path is its think
 * times and its calls, joined by waits), measured with noise: each next scale is where
 * the least-squares line through every point so far meets the target (the secant of the
 * two latest points would follow the noise of both), until a point is within
 * FIT_TOLERANCE. Before each point the program runs once more, and the target is the
 * median of all its runs so far; the point nearest the last target is the fit. The
 * replays' directory is made in DIR for each point and removed after it, so the program
 * never finds it there. */
static int fit(const char *self, const char *yaml, struct lg_rec_untraced *u, unsigned runs,
	       struct lg_rec_fit *f, char *err, size_t errlen)
{
	double k[LG_REC_FIT_POINTS] = { 0, 1 }, r[LG_REC_FIT_POINTS], next;
	char caldir[PATH_MAX];
	int n = 0, rc = 0, best = 0;

	f->replays = 0;
	for (; n < LG_REC_FIT_POINTS; n++) {
		if ((rc = lg_rec_untraced_more(u, err, errlen)))
			return rc;
		f->target_s = lg_rec_untraced_median(u);
		if (n >= 2) {
			next = line_at(k, r, n, f->target_s);
			if (next < 0) /* flat: no think time to scale */
				break;
			k[n] = next > MAX_SCALE ? MAX_SCALE : next;
		}
		snprintf(caldir, sizeof(caldir), "%s/.loadgen-fit.XXXXXX", u->dir);
		if (!mkdtemp(caldir)) {
			snprintf(err, errlen, "a directory for the replays in %s: %s", u->dir,
				 strerror(errno));
			return -EIO;
		}
		rc = replay_point(self, yaml, caldir, runs, k[n], &r[n], err, errlen);
		lg_rec_remove_tree(caldir);
		if (rc)
			return rc;
		f->replays++;
		if (n == 0)
			f->afap_s = r[0];
		if (n == 0 && f->target_s <= r[0]) { /* the calls alone take as long */
			n++;
			break;
		}
		if (fabs(r[n] - f->target_s) <= FIT_TOLERANCE * f->target_s) {
			n++;
			break;
		}
	}
	for (int i = 1; i < n; i++) /* nearest the target as it ended */
		if (fabs(r[i] - f->target_s) < fabs(r[best] - f->target_s))
			best = i;
	f->scale = k[best];
	f->replay_s = r[best];
	return 0;
}

int lg_rec_fit_scale(const char *self, const char *yaml, struct lg_rec_untraced *u,
		     unsigned runs, struct lg_rec_fit *f, char *err, size_t errlen)
{
	double target = lg_rec_untraced_median(u);

	*f = (struct lg_rec_fit){ .target_s = target, .scale = 1 };
	/* a short program's replays vary by more than the tolerance: as many per point as
	 * make FIT_POINT_S of replaying, up to MAX_POINT_RUNS */
	if (target > 0 && (double)runs * target < FIT_POINT_S)
		runs = (unsigned)fmin(MAX_POINT_RUNS, ceil(FIT_POINT_S / target));
	return fit(self, yaml, u, runs ? runs : 1, f, err, errlen);
}
