/* loadgen record --timing-runs: the program's elapsed time without the tracer, and the
 * think-time scale that makes a replay take as long.
 *
 * Under strace every traced call stops the program twice; on the machines measured
 * (docs/recording.md) that costs 70 to 230 us per call, 6 to 50 times the program's own
 * time, and what is left once an estimate of that cost is taken off each gap is mostly
 * the estimate's error. The only measure of the program's own time is the program run
 * without the tracer. So record can run it that way first, on the directory as it was
 * (a copy is taken before and put back after each run), and then fit the recorded think
 * times to it: replays of the recorded workload by one client, at think-time scales
 * found on a least-squares line through the replays so far, until a replay with --replay-timing original takes the
 * untraced runs' median (within FIT_TOLERANCE). (Fitting the fastest run to the fastest
 * replays was tried: the replays came out 17 to 30 % shorter than the program's median,
 * whose runs vary more than the replays do.) */
#ifndef LOADGEN_RECORD_TIMING_H
#define LOADGEN_RECORD_TIMING_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define LG_REC_MAX_TIMING_RUNS 15 /* --timing-runs N: 1 to this */
#define LG_REC_FIT_POINTS 7       /* points of the fit at most (record_timing.c) */

/* The program's untraced runs: N before the trace, one more beside each point of the fit,
 * so that the target spans the fit's replays (a program's time here moves between spells
 * of seconds; N runs in a row all fall in one). */
struct lg_rec_untraced {
	const char *dir;                /* DIR, absolute */
	char *const *cmd;               /* the program, NULL-terminated */
	char backup[PATH_MAX];          /* DIR before any run, beside it, or "" */
	char post[PATH_MAX];            /* DIR as the traced run left it, beside it, while
					   the fit runs the program on DIR as it was; or "" */
	double s[LG_REC_MAX_TIMING_RUNS + LG_REC_FIT_POINTS]; /* elapsed seconds, each run */
	unsigned n;                     /* runs made */
};

/* Copy dir's content (cp -a) into a new directory beside it, ".NAME.loadgen-orig.XXXXXX"
 * (u->backup), then run u->cmd n times in u->dir without a tracer, with record's standard
 * input, output and error, putting dir back as the copy holds it after each run (also one
 * stopped by lg_rec_stop). Each run's elapsed time (CLOCK_MONOTONIC, from before its start
 * to its end) and exit status are said on stderr and kept in u. 0, a negative errno with
 * err, or -EINTR when lg_rec_stop stopped a run. lg_rec_untraced_end undoes it all. */
int lg_rec_untraced_runs(struct lg_rec_untraced *u, unsigned n, char *err, size_t errlen);

/* One more run, on DIR as it was, after the trace: the first one keeps DIR as the traced
 * run left it in a second copy beside it (u->post). 0, a negative errno with err, -EINTR. */
int lg_rec_untraced_more(struct lg_rec_untraced *u, char *err, size_t errlen);

/* The median of u's runs (0 when none). */
double lg_rec_untraced_median(const struct lg_rec_untraced *u);

/* DIR back as the traced run left it (when a run after it changed it), the copies
 * removed; what could not be done is said on stderr. 0 or the first negative errno. */
int lg_rec_untraced_end(struct lg_rec_untraced *u);

/* Remove path and everything under it (symlinks not followed, other filesystems not
 * entered). 0, or the first negative errno (the rest is still removed). */
int lg_rec_remove_tree(const char *path);

/* The fit of the think-time scale (lg_rec_fit_scale). */
struct lg_rec_fit {
	double target_s;  /* the untraced runs' median elapsed time, at the end */
	double afap_s;    /* a replay without think time */
	double scale;     /* the think times' factor found (0 when even afap is too slow) */
	double replay_s;  /* a replay at that scale */
	int replays;      /* replays made */
};

/* Fit the scale of yaml's think times (a workload converted with scale 1) so that a
 * replay by one client in a temporary directory under u->dir, with --replay-timing
 * scale=X, takes the median of u's runs, one more run of the program made before each
 * point (lg_rec_untraced_more); each point is the median of runs replays. self: this
 * executable. 0, or a negative errno with err (a replay or a run that failed), or
 * -EINTR. */
int lg_rec_fit_scale(const char *self, const char *yaml, struct lg_rec_untraced *u,
		     unsigned runs, struct lg_rec_fit *fit, char *err, size_t errlen);

#endif
