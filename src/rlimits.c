/* Resource limits checked before a run (see rlimits.h). */
#include "rlimits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* Open files the run needs in the process that needs the most. */
static unsigned long long files_needed(const struct lg_config *cfg,
				       const struct lg_workload *wl)
{
	unsigned long long per = wl->nslots + LG_FDS_PER_CLIENT_EXTRA;

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
	snprintf(err, errlen, "%u clients with %zu open files each need about %llu file "
		 "descriptors, but the open-file limit is %llu (hard limit %llu); raise it "
		 "(ulimit -n) or run fewer clients%s", cfg->clients, wl->nslots, need,
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
