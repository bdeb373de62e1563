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

#include <stddef.h>
#include <stdint.h>

#define LG_REC_MAX_TIMING_RUNS 15 /* --timing-runs N: 1 to this */

/* Copy dir's content (cp -a) into a new directory beside it, ".NAME.loadgen-orig.XXXXXX"
 * (its path into backup, PATH_MAX; "" when none was made), then run cmd (NULL-terminated)
 * n times in dir without a tracer, with record's standard input, output and error,
 * putting dir back as the copy holds it after each run (also one stopped by
 * lg_rec_stop). Each run's elapsed time (CLOCK_MONOTONIC, from before its start to its
 * end) and exit status are said on stderr; their median into *median_s. The copy is
 * kept: the caller removes it (lg_rec_remove_tree). 0, a negative errno with err, or
 * -EINTR when lg_rec_stop stopped a run. */
int lg_rec_untraced_runs(const char *dir, char *const *cmd, unsigned n, char *backup,
			 double *median_s, char *err, size_t errlen);

/* Remove path and everything under it (symlinks not followed, other filesystems not
 * entered). 0, or the first negative errno (the rest is still removed). */
int lg_rec_remove_tree(const char *path);

/* The fit of the think-time scale (lg_rec_fit_scale). */
struct lg_rec_fit {
	double target_s;  /* the untraced runs' median elapsed time */
	double afap_s;    /* a replay without think time */
	double scale;     /* the think times' factor found (0 when even afap is too slow) */
	double replay_s;  /* a replay at that scale */
	int replays;      /* replays made */
};

/* Fit the scale of yaml's think times (a workload converted with scale 1) so that a
 * replay by one client in a temporary directory under dir, with --replay-timing
 * scale=X, takes target_s; each point is the median of runs replays. self: this
 * executable. 0, or a negative errno with err (a replay that failed), or -EINTR. */
int lg_rec_fit_scale(const char *self, const char *yaml, const char *dir, unsigned runs,
		     double target_s, struct lg_rec_fit *fit, char *err, size_t errlen);

#endif
