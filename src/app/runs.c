/* The runs of one loadgen invocation (see runs.h). Design: every rank takes the same
 * steps in the same order (each decision that only rank 0 can make is broadcast), so the
 * collective calls of coord.h line up; only rank 0 prints and writes files. */
#include "runs.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/builtin.h"
#include "loadgen/run/coord.h"
#include "loadgen/load/direct.h"
#include "loadgen/run/engine.h"
#include "loadgen/output/hosts.h"
#include "loadgen/load/loadfile.h"
#include "loadgen/env/monitor.h"
#include "loadgen/model/cli.h"
#include "loadgen/model/paths.h"
#include "loadgen/output/report.h"
#include "loadgen/compare/report_html.h"
#include "loadgen/output/result_json.h"
#include "loadgen/output/run_output.h"
#include "loadgen/run/rundir.h"
#include "loadgen/app/show.h"
#include "loadgen/inference/inference.h"
#include "loadgen/load/yaml_load.h"
#include "counters/result_summary.h"
#include "space.h"
#include "run/ranks/tag_stderr.h"

#define LG_DROP_CACHES_PATH "/proc/sys/vm/drop_caches"

/* Load the workload for NCLIENTS on every rank (${clients} is the total). *hash gets a
 * hash of its text, for the ranks to compare. Errors go to err. */
int lg_runs_load_workload(const struct lg_config *cfg, struct lg_workload **wl,
			  uint64_t *hash, char *err, size_t errlen)
{
	unsigned clients = cfg->clients * lg_coord_size(lg_coord_of(cfg));
	char path[LG_LOADFILE_PATH_MAX], *text = NULL;
	size_t len = 0;
	int rc;

	*hash = LG_HASH_INIT;
	if (!cfg->loadfile) {
		rc = lg_yaml_load("builtin:netbench", lg_builtin_netbench, lg_builtin_netbench_len,
				  cfg->params, cfg->nparams, clients, wl, err, errlen);
	} else if (!(rc = lg_loadfile_load(cfg->loadfile, &text, &len, path, sizeof(path), err,
					   errlen))) {
		rc = lg_loadfile_compile(path, text, len, cfg->params, cfg->nparams, clients, wl,
					 err, errlen);
	}
	if (!rc) { /* O_DIRECT: sizes and offsets the target cannot take, refused now */
		struct lg_direct_align a;

		/* the text's SHA-256, which the loader computed: hashing the text again byte by
		 * byte cost more than all of SHA-256 (40 ms of client.txt's 26 MB) */
		*hash = lg_hash_bytes(*hash, (*wl)->sha256, strlen((*wl)->sha256));

		lg_direct_alignment(cfg->directory, &a);
		(*wl)->direct_align = a.assumed ? 0 : a.bytes;
		rc = cfg->loadfile ? lg_direct_check(*wl, cfg->direct, &a, cfg->loadfile, text,
						     len, err, errlen)
				   : lg_direct_check(*wl, cfg->direct, &a, "builtin:netbench",
						     lg_builtin_netbench, lg_builtin_netbench_len,
						     err, errlen);
		if (rc) {
			lg_workload_destroy(*wl);
			*wl = NULL;
		}
	}
	free(text);
	if (rc && !cfg->loadfile) {
		size_t used = strlen(err);

		snprintf(err + used, errlen - used, " %s", LG_SHOW_BUILTIN_HINT);
	}
	return rc;
}

/* The runs of this invocation as far as they went, for rank 0 to write when a rank is
 * lost in the middle of them (runs_lost). */
static struct {
	const struct lg_config *cfg;     /* NULL: no run began */
	struct lg_workload *const *wls;  /* the workloads of the sweep */
	struct lg_run *runs;             /* the runs */
	size_t *n;                       /* runs ended so far */
	bool in_run;                     /* runs[*n] is under way */
	bool written;                    /* the result files are written */
} cur;

/* A rank was lost (coord.h, lg_coord_on_lost): on rank 0, the run under way becomes
 * partial (its timeline, the totals from it, the lost ranks) and the result files are
 * written with the runs before it, whole, at once: the launcher kills this process
 * about a second after it told it to stop. On every rank the client processes stop. */
static int runs_lost(void *arg, struct lg_lost_rank *lost, unsigned nlost)
{
	const struct lg_config *cfg = cur.cfg;
	const char *dir = lg_engine_rundir();
	size_t n = cur.n ? *cur.n : 0;

	(void)arg;
	lg_engine_abandon();
	if (!nlost)
		return LG_EXIT_ERRORS;
	for (unsigned i = 0; i < nlost; i++)
		fprintf(stderr, "loadgen: rank %u (host %s) was lost; rank 0 writes what it has "
			"(status partial)\n", lost[i].rank, lost[i].host);
	if (dir)
		fprintf(stderr, "loadgen: leaving %s (no time to remove it)\n", dir);
	if (cfg && !cur.written && cur.in_run) {
		lg_run_lose_ranks(&cur.runs[n], cfg->clients * lg_coord_size(lg_coord_of(cfg)),
				  lost, nlost);
		lg_report_lost_ranks(stdout, &cur.runs[n++]);
		fflush(stdout);
	} else {
		free(lost); /* lost between runs: those before it are whole */
	}
	if (cfg && !cur.written && n && (cfg->json_path || cfg->html_path || cfg->runlog))
		lg_runs_write_result(cfg, cur.wls[0], cur.runs, n);
	return LG_EXIT_ERRORS;
}

/* Print an error once: on one host, or from rank 0 of several. */
void lg_runs_say(const struct lg_config *cfg, const char *err)
{
	if (lg_coord_rank(lg_coord_of(cfg)) == 0)
		fprintf(stderr, "loadgen: %s\n", err);
}

/* One result file written (rc 0) or said on stderr; returns rc. */
static int written(int rc, const char *err)
{
	if (rc)
		fprintf(stderr, "loadgen: %s\n", err);
	return rc;
}

/* The result files of the runs: --json, --html, and the last line of --log. Each is
 * written even when another could not be (a full filesystem under --json need not cost
 * the report on another one), and each failure is said. */
int lg_runs_write_result(const struct lg_config *cfg, const struct lg_workload *wl,
			 const struct lg_run *runs, size_t n)
{
	char err[1024];
	json_t *doc = lg_run_output_result(cfg, wl, runs, n);
	int built = doc ? lg_result_json_hosts(doc, runs, n) : -ENOMEM, rc = built, w;

	if (built)
		fprintf(stderr, "loadgen: out of memory building the JSON\n");
	if (!built && cfg->json_path)
		rc = written(lg_result_json_write(cfg->json_path, doc, err, sizeof(err)), err);
	if (!built && cfg->html_path) {
		w = written(lg_report_html_doc(doc, cfg->json_path ? cfg->json_path : "this run",
					       cfg->html_path, err, sizeof(err)), err);
		rc = rc ? rc : w;
	}
	/* --log: the result is its last line */
	if (lg_run_output_log_close((struct lg_config *)cfg, doc, err, sizeof(err))) {
		fprintf(stderr, "loadgen: --log %s\n", err);
		rc = rc ? rc : -EIO;
	}
	json_decref(doc);
	cur.written = true;
	return rc;
}

/* The rate --repeat auto watches: MB/s, or ops/s for workloads that move no data. */
static double run_rate(const struct lg_run *first, const struct lg_run *r)
{
	return lg_run_mbps(first) > 0 ? lg_run_mbps(r) : lg_run_ops_per_s(r);
}

/* One line per run, for -q in a sweep or a repeat, with what went wrong in it. */
static void print_run_line(const struct lg_run *r, size_t k)
{
	if (!lg_run_measured(r)) /* its reason follows, not a row of zeros */
		printf("clients %u run %zu: nothing measured", r->nclients, k + 1);
	else
		printf("clients %u run %zu: %.3f MB/s  %.1f ops/s  p99 %.3f ms  max %.3f ms",
		       r->nclients, k + 1, lg_run_mbps(r), lg_run_ops_per_s(r),
		       (double)lg_histogram_percentile(&r->all, 99.0) / 1e6,
		       (double)r->all.max_ns / 1e6);
	lg_report_issues(stdout, r); /* every failure is said, also in one line */
	putchar('\n');
}

/* Say why --repeat auto stopped. */
static void print_repeat_stop(const struct lg_config *cfg, size_t n, double ci_pct)
{
	if (!cfg->repeat_rule.is_auto)
		return;
	if (ci_pct <= cfg->repeat_rule.pct && n >= LG_REPEAT_AUTO_MIN)
		printf("Stopped after %zu runs: the 95%% CI of throughput is \u00b1%.2f %% of the"
		       " mean (target %g %%)\n", n, ci_pct, cfg->repeat_rule.pct);
	else
		printf("Stopped at the most runs, %zu: the 95%% CI of throughput is still"
		       " \u00b1%.2f %% of the mean (target %g %%)\n", n, ci_pct,
		       cfg->repeat_rule.pct);
}

/* Whether any rank was interrupted, the same answer on every rank (a reduction): a
 * signal that reaches one rank after a run's last interval exchange (in cleanup, say)
 * is seen by no other, and a rank that left the loops of runs alone would leave the
 * others waiting for it in the next run. The others then count as interrupted too. */
static bool runs_interrupted(const struct lg_config *cfg)
{
	uint64_t any = lg_engine_interrupted() ? 1 : 0;

	if (lg_coord_sum(lg_coord_of(cfg), &any, 1) == 0 && any)
		lg_engine_interrupt();
	return any != 0;
}

/* Run one client count until its --repeat rule is met (stopping early on a signal),
 * reporting each run into runs[*n...]. Returns 0; 1 when a run failed (no use going on);
 * or a negative errno when a run could not start (the runs before it are kept). */
int lg_runs_count(const struct lg_config *cfg, const struct lg_workload *wl,
		  struct lg_run *runs, size_t *n)
{
	double rates[10000], ci_pct = NAN;
	size_t first = *n, k = 0;
	bool done;
	char err[1024];

	while (!runs_interrupted(cfg)) {
		int rc;

		if (cfg->repeat > 1 || cfg->nsweep > 1)
			printf("%s%s %u clients: run %zu%s%u\n", *n ? "\n" : "",
			       cfg->nsweep > 1 ? "Sweep:" : "Run",
			       cfg->clients * lg_coord_size(lg_coord_of(cfg)), k + 1,
			       cfg->repeat_rule.is_auto ? " of at most " : " of ", cfg->repeat);
		cur.in_run = true;
		rc = lg_engine_run(cfg, wl, &runs[*n], err, sizeof(err));
		cur.in_run = false;
		if (rc) {
			lg_runs_say(cfg, err);
			return rc;
		}
		if (runs[*n].status == LG_RUN_FAILED) {
			char why[1024];

			snprintf(why, sizeof(why), "%s",
				 runs[*n].failure ? runs[*n].failure : "the run failed");
			lg_runs_say(cfg, why);
		}
		if (cfg->quiet && (cfg->repeat > 1 || cfg->nsweep > 1)) {
			print_run_line(&runs[*n], k);
		} else {
			lg_report_print(stdout, cfg, &runs[*n]);
			lg_report_hosts(stdout, &runs[*n], cfg->run_once);
			lg_monitor_print(stdout, runs[*n].mon);
		}
		fflush(stdout);
		if (runs[*n].status == LG_RUN_FAILED) { /* the next runs would fail the same way */
			(*n)++;
			return 1;
		}
		rates[k] = run_rate(&runs[first], &runs[*n]);
		(*n)++;
		done = lg_repeat_done(&cfg->repeat_rule, rates, ++k, &ci_pct);
		/* rank 0 alone has the job's rates: its decision is every rank's */
		lg_coord_bcast(lg_coord_of(cfg), &done, sizeof(done));
		if (done)
			break;
	}
	print_repeat_stop(cfg, k, ci_pct);
	lg_report_summary(stdout, runs + first, k);
	return 0;
}

/* Every client count of the sweep in order, each with its own workload (a workload may
 * depend on ${clients}). *n gets the runs that produced results. cfg->clients is the first
 * count again afterwards: the result's config.clients (docs/results.md: "the first count of a
 * sweep"). */
int lg_runs_sweep(struct lg_config *cfg, struct lg_workload **wls, struct lg_run *runs,
		  size_t *n)
{
	int rc = 0;

	*n = 0;
	cur.cfg = cfg;
	cur.wls = wls;
	cur.runs = runs;
	cur.n = n;
	for (size_t i = 0; i < cfg->nsweep && !runs_interrupted(cfg); i++) {
		cfg->clients = cfg->sweep[i];
		rc = lg_runs_count(cfg, wls[i], runs, n);
		if (rc != 0)
			break;
	}
	cfg->clients = cfg->sweep[0];
	if (rc < 0)
		return rc;
	if (cfg->nsweep > 1)
		lg_report_scaling(stdout, runs, *n);
	return 0;
}

/* Exit status for what the runs found. */
int lg_runs_status(const struct lg_run *runs, size_t n)
{
	int status = 0;

	for (size_t i = 0; i < n; i++)
		if (runs[i].errors || runs[i].status == LG_RUN_PARTIAL ||
		    lg_run_has_failures(&runs[i]))
			status = LG_EXIT_ERRORS;
	for (size_t i = 0; i < n; i++)
		if (runs[i].corruptions)
			status = LG_EXIT_CORRUPT;
	return lg_engine_interrupted() ? LG_EXIT_INTERRUPT : status;
}

/* The outputs neither replace each other nor the workload's file (wl may be NULL: the
 * outputs alone). 0 or -EINVAL (msg). */
static int outputs_distinct(const struct lg_config *cfg, const struct lg_workload *wl,
			    char *msg, size_t len)
{
	const struct lg_named_path files[] = {
		{ .what = "the loadfile", .output = false,
		  .path = wl && wl->source && strncmp(wl->source, "builtin:", 8) ? wl->source
								       : NULL },
		{ .what = "--json", .path = cfg->json_path, .output = true },
		{ .what = "--html", .path = cfg->html_path, .output = true },
		{ .what = "--log", .path = cfg->log_path, .output = true },
	};

	return lg_paths_distinct(files, sizeof(files) / sizeof(*files), msg, len);
}

/* '-' as --json, --html or --log: a file of that name is surely not what was meant, and
 * standard output carries the text report. 0 or -EINVAL (msg). */
static int outputs_not_stdout(const struct lg_config *cfg, char *msg, size_t len)
{
	const char *what[] = { "--json", "--html", "--log" };
	const char *path[] = { cfg->json_path, cfg->html_path, cfg->log_path };

	for (size_t i = 0; i < sizeof(what) / sizeof(*what); i++) {
		if (path[i] && strcmp(path[i], "-") == 0) {
			snprintf(msg, len, "%s -: standard output carries the text report; "
				 "give %s a file name", what[i], what[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Checks that need the workload and may refuse the run before any load starts. */
int lg_runs_preflight(struct lg_config *cfg, struct lg_workload *wl, char *msg, size_t len)
{
	char err[1024];

	if (lg_rundir_check(cfg->directory, err, sizeof(err))) {
		snprintf(msg, len, "-D %s", err);
		return -ENOTDIR;
	}
	if (outputs_not_stdout(cfg, msg, len) || outputs_distinct(cfg, wl, msg, len))
		return -EINVAL;
	if (!cfg->no_space_check && lg_space_check(cfg, wl, msg, len))
		return -ENOSPC;
	if (cfg->json_path && lg_result_json_check(cfg->json_path, err, sizeof(err))) {
		snprintf(msg, len, "--json %s", err);
		return -EINVAL;
	}
	if (cfg->html_path && lg_result_json_check(cfg->html_path, err, sizeof(err))) {
		snprintf(msg, len, "--html %s", err);
		return -EINVAL;
	}
	if (cfg->drop_caches && access(LG_DROP_CACHES_PATH, W_OK) != 0) {
		snprintf(msg, len, "--drop-caches needs root: %s: %s", LG_DROP_CACHES_PATH,
			 strerror(errno));
		return -EPERM;
	}
	lg_workload_add_open_flags(wl, (cfg->sync_open ? O_SYNC : 0) | (cfg->direct ? O_DIRECT : 0));
	return 0;
}

/* Join the other ranks when an MPI launcher started us (or --mpi): only rank 0 prints
 * and writes the result. Returns 0 or an exit status. */
int lg_runs_join_ranks(struct lg_config *cfg)
{
	char err[1024];
	int rc = lg_coord_open(cfg->mpi, &cfg->coord, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "loadgen: %s\n", err);
		return LG_EXIT_USAGE;
	}
	if (lg_coord_rank(lg_coord_of(cfg)) > 0) {
		int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (fd >= 0 && dup2(fd, STDOUT_FILENO) >= 0)
			close(fd);
		cfg->json_path = NULL; /* rank 0 writes the result files and the log */
		cfg->html_path = NULL;
		cfg->log_path = NULL;
		lg_stderr_tag(cfg->coord->host, cfg->coord->rank); /* open made it */
	}
	if (lg_coord_size(lg_coord_of(cfg)) > 1) /* a rank may be lost */
		lg_coord_on_lost(cfg->coord, lg_engine_interrupted, runs_lost, NULL);
	lg_coord_warn_binding(lg_coord_of(cfg), cfg->clients);
	return 0;
}

/* Load the workload on every rank and check that all ranks would run the same load.
 * Returns 0 or an exit status (the same on every rank). */
static int load_and_agree(struct lg_config *cfg, struct lg_workload **wl)
{
	struct lg_coord *co = lg_coord_of(cfg);
	char err[2048] = "";
	uint64_t hash = 0;
	int rc = lg_runs_load_workload(cfg, wl, &hash, err, sizeof(err));

	rc = lg_coord_status(co, rc, err, sizeof(err));
	if (!rc)
		rc = lg_coord_agree_config(co, cfg, hash, err, sizeof(err));
	if (!rc)
		rc = lg_coord_status(co, lg_runs_preflight(cfg, *wl, err, sizeof(err)), err,
				     sizeof(err));
	if (rc)
		lg_runs_say(cfg, err);
	return rc ? LG_EXIT_USAGE : 0;
}

/* Load and check the workload once per client count of the sweep, on every rank (each
 * rank runs the same counts in the same order). Returns 0 or an exit status (said). */
/* What a recorded program's streams change: each client runs the program once (with
 * threads: its streams share its files); --replay-timing needs streams. 0 or the exit
 * status of a usage error. */
static int streams_options(struct lg_config *cfg, const struct lg_workload *wl)
{
	if (!wl->nstreams) {
		if (cfg->replay_timing)
			return lg_cli_usage_error(NULL, "--replay-timing %s: %s is not a recorded "
						  "program (it has no 'streams'); the option "
						  "applies to workloads of loadgen record",
						  cfg->replay_timing, wl->source);
		return 0;
	}
	if (cfg->processes)
		return lg_cli_usage_error(NULL, "--processes: %s is a recorded program whose %zu "
					  "streams share their files as its threads did; its "
					  "clients run as threads", wl->source, wl->nstreams);
	if (cfg->clients > UINT_MAX / 2 / wl->nstreams)
		return lg_cli_usage_error(NULL, "%u clients of %zu streams each: too many "
					  "threads", cfg->clients, wl->nstreams);
	cfg->streams = true;
	cfg->run_once = true; /* the program runs once; a second pass would find its
				 output there already */
	return 0;
}

int lg_runs_load_all(struct lg_config *cfg, struct lg_workload **wls)
{
	for (size_t i = 0; i < cfg->nsweep; i++) {
		int rc;

		cfg->clients = cfg->sweep[i];
		if ((rc = load_and_agree(cfg, &wls[i])) || (rc = streams_options(cfg, wls[i])))
			return rc;
		if (wls[i]->nbphases) /* phases between barriers: each client runs the run
					 phase once, as mdtest's tasks run theirs */
			cfg->run_once = true;
	}
	cfg->clients = cfg->sweep[0];
	return 0;
}
