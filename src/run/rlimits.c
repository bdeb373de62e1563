/* Resource limits checked before a run (see rlimits.h). */
#include "rlimits.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* Most files one client holds open at once: the ops walked in order, phase after
 * phase, counting opens and closes of slots. Loops repeat the same ops and a choice's
 * alternatives each close what they open in the workloads this sees, so the walk in
 * array order bounds what a client holds far better than the number of slots does. */
static size_t max_open(const struct lg_workload *wl)
{
	unsigned char *open = calloc(wl->nslots ? wl->nslots : 1, 1);
	size_t now = 0, max = 0;

	if (!open)
		return wl->nslots;
	for (int p = 0; p < LG_PHASE_COUNT; p++) {
		for (size_t i = 0; i < wl->nops[p]; i++) {
			const struct lg_op *op = &wl->ops[p][i];
			bool opens = op->kind == LG_OP_OPEN || op->kind == LG_OP_NTCREATE;

			if (op->slot == LG_NO_SLOT || op->slot >= wl->nslots)
				continue;
			if (opens && !open[op->slot]) {
				open[op->slot] = 1;
				now++;
			} else if (op->kind == LG_OP_CLOSE && open[op->slot]) {
				open[op->slot] = 0;
				now--;
			}
			if (now > max)
				max = now;
		}
	}
	free(open);
	return max;
}

/* Open files the run needs in the process that needs the most. */
static unsigned long long files_needed(const struct lg_config *cfg,
				       const struct lg_workload *wl)
{
	unsigned long long per = max_open(wl) + LG_FDS_PER_CLIENT_EXTRA;

	/* forked clients each have their own table; threads share the master's */
	return LG_FDS_MASTER + (cfg->processes ? per : per * cfg->clients);
}

static int check_files(const struct lg_config *cfg, const struct lg_workload *wl, char *err,
		       size_t errlen)
{
	unsigned long long need = files_needed(cfg, wl);
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
		rl.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
			return 0;
	}
	snprintf(err, errlen, "%u clients with up to %zu open files each need about %llu file "
		 "descriptors, but the open-file limit is %llu (hard limit %llu); raise it "
		 "(ulimit -n) or run fewer clients%s", cfg->clients, max_open(wl), need,
		 (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max,
		 cfg->processes ? "" : " (or use --processes)");
	return -EMFILE;
}

/* Threads and processes both count against RLIMIT_NPROC (for users without
 * CAP_SYS_RESOURCE) and against the system-wide threads-max. */
static int check_tasks(const struct lg_config *cfg, char *err, size_t errlen)
{
	unsigned long long max = 0;
	struct rlimit rl;
	FILE *f;

	if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && cfg->clients >= rl.rlim_cur) {
		snprintf(err, errlen, "%u clients need %u %s, but the process limit is %llu; "
			 "raise it (ulimit -u) or run fewer clients", cfg->clients, cfg->clients,
			 cfg->processes ? "processes" : "threads", (unsigned long long)rl.rlim_cur);
		return -EAGAIN;
	}
	f = fopen("/proc/sys/kernel/threads-max", "r");
	if (f && fscanf(f, "%llu", &max) == 1 && max && cfg->clients >= max) {
		snprintf(err, errlen, "%u clients exceed the system's threads-max of %llu",
			 cfg->clients, max);
		fclose(f);
		return -EAGAIN;
	}
	if (f)
		fclose(f);
	return 0;
}

int lg_limits_check(const struct lg_config *cfg, const struct lg_workload *wl, char *err,
		    size_t errlen)
{
	int rc = check_files(cfg, wl, err, errlen);

	return rc ? rc : check_tasks(cfg, err, errlen);
}
