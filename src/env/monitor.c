/* The run's monitor (see loadgen/monitor.h): sysmon + kmsg + --log, driven by the engine's
 * master at the start, once per interval, and at the end. Nothing here runs on a client. */
#include "loadgen/env/monitor.h"
#include "loadgen/model/clock.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loadgen/env/busy.h"
#include "loadgen/env/kmsg.h"
#include "loadgen/env/runlog.h"
#include "loadgen/env/sysinfo.h"
#include "loadgen/env/sysmon.h"

#define KMSG_PATH "/dev/kmsg"

struct lg_monitor {
	struct lg_sysmon *sys;         /* the sampler, or NULL (--monitor off) */
	struct lg_kmsg *kmsg;          /* the kernel log, or NULL (--monitor off) */
	struct lg_runlog *log;         /* --log (borrowed from the config), or NULL */
	unsigned run;                  /* this run's index in the log */
	uint64_t t_create;             /* CLOCK_MONOTONIC when monitoring began */
	uint64_t t0_ns;                /* start of the measured phase, 0 before */
	struct lg_sys_sample start;    /* before setup (for vmstat_diff) */
	struct lg_sys_sample first;    /* at the start of the measured phase */
	struct lg_sys_sample prev;     /* at the end of the previous interval */
	bool have_first;               /* first (and prev) were taken */
	json_t *timeline_sys;          /* per timeline entry: its "sys" object or null; the
					  objects cover first to prev without a gap */
	json_t *summary;               /* "sys_summary", after lg_monitor_end */
	json_t *vmdiff;                /* "vmstat_diff", after lg_monitor_end */
	struct lg_busy *busy;          /* the other processes, sampled with sys (NULL when
					  it could not be made: then no "busy") */
	json_t *busy_json;             /* "busy", once the measured phase is over */
	int err;                       /* -ENOMEM when the summary or vmstat_diff could not
					  be built: lg_monitor_json fails then */
};

/* The block devices under dir: the chain the result's env names (dm-0, sda2, sda). */
static size_t target_disks(const char *dir, char names[][LG_BLOCK_NAME_MAX], size_t max)
{
	struct lg_blockdev bd;
	size_t n = 0;

	if (lg_dir_blockdev(dir, &bd))
		return 0;
	for (unsigned i = 0; i < bd.nchain && n < max; i++) {
		bool dup = false;

		for (size_t j = 0; j < n; j++)
			dup = dup || strcmp(names[j], bd.chain[i]) == 0;
		if (!dup)
			memcpy(names[n++], bd.chain[i], LG_BLOCK_NAME_MAX);
	}
	return n;
}

static int start_sysmon(struct lg_monitor *m, const char *rundir)
{
	char names[LG_SYSMON_DISKS][LG_BLOCK_NAME_MAX];
	const char *ptrs[LG_SYSMON_DISKS];
	size_t n = target_disks(rundir, names, LG_SYSMON_DISKS);

	for (size_t i = 0; i < n; i++)
		ptrs[i] = names[i];
	if (lg_sysmon_create("/", ptrs, n, &m->sys) || lg_kmsg_open(KMSG_PATH, &m->kmsg))
		return -ENOMEM;
	/* put the kernel's times on CLOCK_MONOTONIC; not root: they stay as they are */
	(void)lg_kmsg_mark(m->kmsg, "a run begins (measuring the kernel clock's offset)");
	/* without memory for it the run goes on without the busy list */
	if (lg_busy_create((int)getpid(), sysconf(_SC_CLK_TCK), &m->busy))
		m->busy = NULL;
	return lg_sysmon_sample(m->sys, lg_now_ns(), &m->start);
}

int lg_monitor_create(const struct lg_config *cfg, const char *rundir,
		      struct lg_monitor **out)
{
	struct lg_monitor *m;

	*out = NULL;
	if (!cfg->monitor && !cfg->runlog)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->t_create = lg_now_ns();
	m->log = cfg->runlog;
	if (m->log)
		m->run = lg_runlog_next_run(m->log);
	m->timeline_sys = json_array();
	if (!m->timeline_sys || (cfg->monitor && start_sysmon(m, rundir))) {
		lg_monitor_destroy(m);
		return -ENOMEM;
	}
	*out = m;
	return 0;
}

void lg_monitor_ranks_here(struct lg_monitor *m)
{
	if (m && m->busy)
		lg_busy_exclude_siblings(m->busy);
}

void lg_monitor_destroy(struct lg_monitor *m)
{
	if (!m)
		return;
	lg_sysmon_destroy(m->sys);
	lg_kmsg_close(m->kmsg);
	lg_busy_destroy(m->busy);
	json_decref(m->busy_json);
	lg_sys_sample_clear(&m->start);
	lg_sys_sample_clear(&m->first);
	lg_sys_sample_clear(&m->prev);
	json_decref(m->timeline_sys);
	json_decref(m->summary);
	json_decref(m->vmdiff);
	free(m);
}

/* Stream a kernel message to --log as it is read. */
static void log_kmsg(const struct lg_kmsg_entry *e, void *ctx)
{
	struct lg_monitor *m = ctx;
	json_t *o;

	if (!m->log)
		return;
	o = lg_kmsg_entry_json(e, m->t0_ns ? m->t0_ns : m->t_create);
	if (o) {
		/* by the kernel's time of the message, not when it was read: what setup
		 * logged is first read as the phase begins */
		bool measured = m->t0_ns && e->t_ns >= m->t0_ns;

		json_object_set_new(o, "run", json_integer(m->run));
		json_object_set_new(o, "measured", json_boolean(measured));
	}
	lg_runlog_put(m->log, "kmsg", o);
}

void lg_monitor_poll(struct lg_monitor *m)
{
	if (m && m->kmsg)
		lg_kmsg_poll(m->kmsg, log_kmsg, m);
}

/* A deep copy of a sample (its vmstat list is its own). 0 or -ENOMEM. */
static int copy_sample(struct lg_sys_sample *dst, const struct lg_sys_sample *src)
{
	*dst = *src;
	dst->vm.c = malloc((src->vm.n ? src->vm.n : 1) * sizeof(*src->vm.c));
	if (!dst->vm.c) {
		dst->vm.n = 0;
		return -ENOMEM;
	}
	if (src->vm.n)
		memcpy(dst->vm.c, src->vm.c, src->vm.n * sizeof(*src->vm.c));
	return 0;
}

void lg_monitor_begin(struct lg_monitor *m, uint64_t t_ns)
{
	if (!m)
		return;
	m->t0_ns = t_ns;
	lg_monitor_poll(m);
	/* one sample, two copies: the summary must start exactly where the intervals do */
	if (m->sys && lg_sysmon_sample(m->sys, t_ns, &m->first) == 0 &&
	    copy_sample(&m->prev, &m->first) == 0)
		m->have_first = true;
	lg_busy_sample(m->busy, true);
}

void lg_monitor_stop(struct lg_monitor *m)
{
	if (!m || !m->busy || m->busy_json || !lg_busy_samples(m->busy))
		return; /* no phase began: nothing to say */
	lg_busy_sample(m->busy, true);
	lg_busy_stop(m->busy);
	m->busy_json = lg_busy_json(m->busy); /* none for want of memory: the run goes on */
	lg_busy_live_close(m->busy);
}

/* Gauges that are levels (not rates over the interval): their summary is their mean. */
static bool is_level(const char *key)
{
	size_t len = strlen(key);

	return strncmp(key, "meminfo.", 8) == 0 || strncmp(key, "vmstat.", 7) == 0 ||
	       strncmp(key, "procs_", 6) == 0 || (len > 10 && strcmp(key + len - 10, ".in_flight") == 0);
}

static json_t *interval_line(const struct lg_monitor *m, const struct lg_interval *iv,
			     json_t *sys)
{
	return json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:I, s:f, s:f, s:O?}",
			 "run", (json_int_t)m->run, "t_s", iv->t_s, "len_s", iv->len_s,
			 "ops", (json_int_t)iv->ops, "bytes", (json_int_t)iv->bytes,
			 "bytes_read", (json_int_t)iv->bytes_read,
			 "bytes_written", (json_int_t)iv->bytes_written, "mbps", iv->mbps,
			 "max_latency_ms", (double)iv->max_latency_ns / 1e6, "sys", sys);
}

/* sys as timeline entry k's (placeholders before it). 0 or -ENOMEM (then no entry k). */
static int store_sys(json_t *tl, size_t k, json_t *sys)
{
	while (json_array_size(tl) < k)
		if (json_array_append_new(tl, json_null()))
			return -ENOMEM;
	return json_array_append(tl, sys) ? -ENOMEM : 0;
}

void lg_monitor_interval(struct lg_monitor *m, const struct lg_interval *iv, size_t k,
			 uint64_t t_ns)
{
	struct lg_sys_sample cur;
	json_t *sys = NULL;

	if (!m)
		return;
	if (m->have_first && lg_sysmon_sample(m->sys, t_ns, &cur) == 0) {
		sys = lg_sys_interval_json(m->sys, &m->prev, &cur);
		if (sys && store_sys(m->timeline_sys, k, sys)) {
			json_decref(sys);
			sys = NULL;
		}
		/* prev moves on only with an entry that shows the interval; else the next entry
		 * spans it too (its seconds say so), as after a failed sample, and the summary
		 * stays the sum of the entries */
		if (sys) {
			lg_sys_sample_clear(&m->prev);
			m->prev = cur;
		} else {
			lg_sys_sample_clear(&cur);
		}
	}
	lg_busy_sample(m->busy, false); /* nothing once the phase is over */
	lg_monitor_poll(m);
	if (m->log) {
		lg_runlog_put(m->log, "interval", interval_line(m, iv, sys));
		lg_runlog_sync(m->log);
	}
	json_decref(sys);
}

/* The mean of the level gauge key over the timeline entries that have it. */
static double level_mean(const json_t *tl, const char *key)
{
	const json_t *sys, *v;
	double sum = 0;
	size_t i, n = 0;

	json_array_foreach(tl, i, sys) {
		v = json_object_get(json_object_get(sys, "gauges"), key);
		if (v) {
			sum += json_number_value(v);
			n++;
		}
	}
	return n ? sum / (double)n : 0;
}

/* The measured phase as one interval (first to prev: what the entries with a "sys"
 * cover), with the level gauges replaced by their means over those entries, and how many
 * they are. NULL on -ENOMEM. */
static json_t *summary_json(const struct lg_monitor *m)
{
	json_t *s = lg_sys_interval_json(m->sys, &m->first, &m->prev);
	json_t *means = json_object(), *sys, *v;
	const char *key;
	size_t i, n = 0;
	int rc = s && means ? 0 : -1;

	json_array_foreach(rc ? NULL : m->timeline_sys, i, sys) {
		n += json_is_object(sys);
		json_object_foreach(json_object_get(sys, "gauges"), key, v)
			if (!rc && is_level(key) && !json_object_get(means, key))
				rc = json_object_set_new(means, key,
							 json_real(level_mean(m->timeline_sys, key)));
	}
	/* not the timeline's length: its placeholders (no sample) are in no sum or mean */
	if (!rc)
		rc = json_object_update(json_object_get(s, "gauges"), means) ||
		     json_object_set_new(s, "intervals", json_integer((json_int_t)n));
	if (!rc && lg_sysmon_cgroup(m->sys)) /* whose cgroup.psi.* these are */
		rc = json_object_set_new(s, "cgroup", json_string(lg_sysmon_cgroup(m->sys)));
	json_decref(means);
	if (rc) {
		json_decref(s);
		return NULL;
	}
	return s;
}

void lg_monitor_end(struct lg_monitor *m)
{
	struct lg_sys_sample last;

	if (!m)
		return;
	lg_monitor_stop(m); /* when not called: a failed run */
	lg_monitor_poll(m);
	if (m->sys) {
		if (lg_sysmon_sample(m->sys, lg_now_ns(), &last) == 0)
			m->vmdiff = lg_vmstat_diff_json(&m->start.vm, &last.vm);
		if (!m->vmdiff)
			m->err = -ENOMEM; /* a sample fails only for want of memory */
		lg_sys_sample_clear(&last);
	}
	if (m->have_first && !(m->summary = summary_json(m)))
		m->err = -ENOMEM;
	if (m->log)
		lg_runlog_sync(m->log);
}

int lg_monitor_json(const struct lg_monitor *m, json_t *run_obj)
{
	json_t *tl = json_object_get(run_obj, "timeline"), *entry;
	size_t i;
	int rc = 0;

	if (!m || !run_obj)
		return 0;
	if (m->err)
		return m->err; /* a result without its summary would look complete */
	json_array_foreach(tl, i, entry) {
		json_t *sys = json_array_get(m->timeline_sys, i);

		if (sys && json_is_object(sys))
			rc |= json_object_set(entry, "sys", sys);
	}
	if (m->summary)
		rc |= json_object_set(run_obj, "sys_summary", m->summary);
	if (m->vmdiff)
		rc |= json_object_set(run_obj, "vmstat_diff", m->vmdiff);
	if (m->busy_json)
		rc |= json_object_set(run_obj, "busy", m->busy_json);
	if (m->kmsg)
		rc |= json_object_set_new(run_obj, "kernel_messages",
					  lg_kmsg_json(m->kmsg, m->t0_ns ? m->t0_ns : m->t_create));
	return rc ? -ENOMEM : 0;
}

json_t *lg_monitor_host_json(const struct lg_monitor *m)
{
	json_t *o = json_object();
	int rc = o ? 0 : -1;

	if (!rc && m && m->summary)
		rc = json_object_set(o, "sys_summary", m->summary);
	if (!rc && m && m->busy_json)
		rc = json_object_set(o, "busy", m->busy_json);
	if (!rc && m && m->kmsg)
		rc = json_object_set_new(o, "kernel_messages",
					 lg_kmsg_json(m->kmsg, m->t0_ns ? m->t0_ns : m->t_create));
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

void lg_monitor_print(FILE *out, const struct lg_monitor *m)
{
	if (!m)
		return;
	if (m->summary)
		lg_sys_summary_print(out, m->summary);
	if (m->summary && m->busy_json) /* a line of the system block, when someone was busy */
		lg_busy_print(out, m->busy_json);
	if (m->kmsg)
		lg_kmsg_print(out, m->kmsg, m->t0_ns ? m->t0_ns : m->t_create);
}
