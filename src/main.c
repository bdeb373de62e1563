/* loadgen's command line: parse the options and dispatch; the runs are in runs.c. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loadgen/model/clock.h"
#include "loadgen/app/ab.h"
#include "loadgen/model/cli.h"
#include "loadgen/app/calibrate.h"
#include "loadgen/app/history.h"
#include "loadgen/compare/compare.h"
#include "loadgen/model/config.h"
#include "loadgen/run/coord.h"
#include "loadgen/run/engine.h"
#include "loadgen/app/import.h"
#include "loadgen/app/record.h"
#include "loadgen/output/report.h"
#include "loadgen/env/monitor.h"
#include "loadgen/compare/report_html.h"
#include "loadgen/output/run_output.h"
#include "loadgen/app/show.h"
#include "loadgen/model/suggest.h"
#include "loadgen/env/sysinfo.h"
#include "loadgen/model/units.h"
#include "app/runs.h"
#include "run/signals.h"
#include "run/ranks/tag_stderr.h"

#define MAX_CLIENTS 100000

enum {
	OPT_WARMUP = 256, OPT_RUN_ONCE, OPT_SEED, OPT_JSON, OPT_KEEP, OPT_ABORT,
	OPT_PROCESSES, OPT_DIRECT, OPT_END_SYNC, OPT_DROP_CACHES, OPT_REPEAT, OPT_INTERVAL,
	OPT_STALL, OPT_VERIFY, OPT_RATE_OPS, OPT_HTML, OPT_RESOLVE, OPT_MONITOR, OPT_LOG, OPT_MPI,
	OPT_NO_SPACE_CHECK, OPT_REPLAY_TIMING, OPT_PER_CLIENT
};

static const struct option long_options[] = {
	{ "loadfile", required_argument, NULL, 'c' },
	{ "directory", required_argument, NULL, 'D' },
	{ "time", required_argument, NULL, 't' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "run-once", no_argument, NULL, OPT_RUN_ONCE },
	{ "replay-timing", required_argument, NULL, OPT_REPLAY_TIMING },
	{ "per-client", required_argument, NULL, OPT_PER_CLIENT },
	{ "param", required_argument, NULL, 'p' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "quiet", no_argument, NULL, 'q' },
	{ "abort-on-error", no_argument, NULL, OPT_ABORT },
	{ "processes", no_argument, NULL, OPT_PROCESSES },
	{ "sync-open", no_argument, NULL, 's' },
	{ "sync-dirs", no_argument, NULL, 'S' },
	{ "fsync-writes", no_argument, NULL, 'F' },
	{ "direct", no_argument, NULL, OPT_DIRECT },
	{ "rate", required_argument, NULL, 'R' },
	{ "rate-ops", required_argument, NULL, OPT_RATE_OPS },
	{ "end-sync", no_argument, NULL, OPT_END_SYNC },
	{ "drop-caches", no_argument, NULL, OPT_DROP_CACHES },
	{ "no-space-check", no_argument, NULL, OPT_NO_SPACE_CHECK },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "stall-threshold", required_argument, NULL, OPT_STALL },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "resolve", required_argument, NULL, OPT_RESOLVE },
	{ "monitor", required_argument, NULL, OPT_MONITOR },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "mpi", no_argument, NULL, OPT_MPI },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

/* --version: the release, the commit it was built from when known, and "(MPI)" when it
 * can run on several hosts: "loadgen 0.1.0 (git 2f63326) (MPI)". */
static void print_version(void)
{
	const char *commit = lg_sysinfo_git_describe();

	printf("loadgen %s", LOADGEN_VERSION);
	if (commit)
		printf(" (git %s)", commit);
	printf("%s\n", lg_coord_built() ? " (MPI)" : "");
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen [options] NCLIENTS|LIST|A..B|auto\n"
		"       loadgen compare BASE.json OTHER.json... (see loadgen compare --help)\n"
		"       loadgen calibrate [run options] NCLIENTS  the machine's spread between\n"
		"                                batches, for compare (see calibrate --help)\n"
		"       loadgen import DBENCH_LOADFILE|STRACE_TRACE [-o FILE.yaml] [-C DIR]\n"
		"       loadgen record -o FILE.yaml [-C DIR] -- COMMAND [ARGS...]\n"
		"           (see loadgen record --help)\n"
		"       loadgen report RESULT.json... [-o FILE.html] (see loadgen report --help)\n"
		"       loadgen ab (-D DIR -D DIR ... | --variant NAME=CMD ...) --rounds N NCLIENTS\n"
		"           (see loadgen ab --help)\n"
		"       loadgen show [WORKLOAD] (print a workload and its parameters)\n"
		"Run NCLIENTS concurrent clients replaying a workload on a directory and report\n"
		"throughput and latency. Several counts make a sweep, run in order: 1,2,4,8;\n"
		"1..64 (doubling from 1, ending at 64); auto (1, 2, 4, ... below twice the CPUs,\n"
		"plus the CPU count and twice it).\n\n"
		"  -c, --loadfile FILE    workload: YAML, or a dbench loadfile (recognised by its\n"
		"                         content); default: the built-in netbench\n"
		"  -D, --directory DIR    where the run directory is created (default .)\n"
		"  -t, --time SECONDS     length of the measured phase (default %g)\n"
		"      --warmup SECONDS   warm-up before measuring, results discarded (default %g)\n"
		"      --run-once         each client runs the run phase once; no warm-up\n"
		"      --replay-timing T  a recorded program's think time: afap (none, the\n"
		"                         default), original, or scale=X (X times the original)\n"
		"  -p, --param NAME=VALUE\n"
		"                         set a workload parameter (repeatable)\n"
		"      --seed N           seed of the per-client random streams (default %d)\n"
		"      --json FILE        write the result as JSON to FILE (atomically)\n"
		"      --html FILE        write an HTML report with charts to FILE (atomically)\n"
		"      --keep             leave the run directory and its files in place\n"
		"  -q, --quiet            no per-second progress lines; the environment header\n"
		"                         in one line\n"
		"      --abort-on-error   stop the run at the first unexpected result\n"
		"      --processes        run each client in its own process (default: threads)\n"
		"  -s, --sync-open        open every file with O_SYNC\n"
		"  -S, --sync-dirs        fsync the parent directory after create, unlink,\n"
		"                         rename, mkdir and rmdir (inside the op's time)\n"
		"  -F, --fsync-writes     fsync after every write (inside the write's time)\n"
		"      --direct           open every file with O_DIRECT (aligned buffers)\n"
		"  -R, --rate MBPS        limit each client to MBPS MB/s (10^6 bytes); latency\n"
		"                         then counts from each op's intended start\n"
		"      --rate-ops N       limit each client to N ops/s (for metadata workloads);\n"
		"                         latency counts from each op's intended start\n"
		"      --end-sync         a final syncfs is part of the measured time\n"
		"      --drop-caches      sync and drop the page cache before each measured\n"
		"                         phase (root only)\n"
		"      --no-space-check   run even when the workload's files cannot fit in the\n"
		"                         free space of DIR (refused by default)\n"
		"      --repeat K         measure K runs, each in a fresh run directory, and\n"
		"                         summarise them (mean, stddev, 95%% CI, CV)\n"
		"      --repeat auto[:PCT[:MAX]]\n"
		"                         run until the 95%% CI of throughput is within PCT %%\n"
		"                         of the mean (default %g) or MAX runs (default %d), at\n"
		"                         least %d\n"
		"      --interval SECONDS\n"
		"                         progress and timeline interval (default %g)\n"
		"      --stall-threshold SECONDS  ops this slow are reported as stalls (default %g)\n"
		"      --verify           write self-describing blocks and check every read of\n"
		"                         them; a mismatch exits 4\n"
		"      --resolve MODE     dbench ops' name lookups: dbench (default, as dbench\n"
		"                         4.0), samba (Find does not look up its wildcard\n"
		"                         pattern as a name) or stat (dbench --no-resolve)\n"
		"      --monitor on|off   record system counters (/proc) per interval and kernel\n"
		"                         messages during the run (default on)\n"
		"      --log FILE         stream the run to FILE as JSON lines, synced every\n"
		"                         interval (survives a crash)\n"
		"      --mpi              one run across MPI ranks even when no launcher is\n"
		"                         detected (mpirun and srun are detected); NCLIENTS\n"
		"                         is per rank (docs/many-hosts.md)\n"
		"      --per-client WHICH which clients a run on several hosts lists: auto\n"
		"                         (each without histograms up to 4096 clients, else\n"
		"                         per-host rows and distributions), all (each with its\n"
		"                         histograms), rows, summary\n"
		"  -h, --help             this help\n"
		"  -V, --version          print the version\n\n"
		"Exit status: 0 ok, 1 ops failed, 2 usage or workload error, 4 data corruption\n"
		"found by --verify, 130 interrupted.\n",
		LG_DEFAULT_TIME_S, LG_DEFAULT_WARMUP_S, LG_DEFAULT_SEED, LG_REPEAT_AUTO_PCT,
		LG_REPEAT_AUTO_MAX, LG_REPEAT_AUTO_MIN, LG_DEFAULT_INTERVAL_S, LG_DEFAULT_STALL_S);
}

/* One line saying what is wrong with arg (fmt has one %s), then the --help hint. */
static int bad_usage(const char *fmt, const char *arg)
{
	return lg_cli_usage_error(NULL, fmt, arg);
}

/* A seconds option whose value is not a plain number: "--time 1m" is told to write 60. */
static int bad_seconds(const char *opt, const char *arg, const char *want)
{
	char unit[16], *end;
	const char *why;
	double v = strtod(arg, &end);
	uint64_t ns;

	/* the number (fractions allowed here) times one of its unit */
	snprintf(unit, sizeof(unit), "1%s", end);
	if (end != arg && v >= 0 && *end && lg_parse_duration(unit, &ns, &why) == 0)
		return lg_cli_usage_error(NULL, "invalid %s '%s': expected %s, a plain number; "
					  "did you mean '%s %g'?", opt, arg, want, opt,
					  v * (double)ns / LG_NS_PER_SEC);
	return lg_cli_usage_error(NULL, "invalid %s '%s': expected %s", opt, arg, want);
}

/* The largest value of a seconds or rate option (115 days; 10 TB/s), as the messages
 * that refuse a larger one say. */
#define MAX_VALUE 1e7
#define UPTO " (at most 10000000)"

/* Parse a non-negative number of seconds (fractions allowed), at most MAX_VALUE. */
static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > MAX_VALUE)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_u64(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int add_param(struct lg_config *cfg, char *arg)
{
	char *eq = strchr(arg, '=');
	struct lg_param *p;

	if (!eq || eq == arg)
		return -EINVAL;
	p = realloc(cfg->params, (cfg->nparams + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	cfg->params = p;
	*eq = '\0';
	p[cfg->nparams++] = (struct lg_param){ arg, eq + 1 };
	return 0;
}

/* --replay-timing: afap (0), original (1) or scale=X (X > 0). 0 or -EINVAL. */
static int parse_replay_timing(const char *arg, double *scale)
{
	if (!strcmp(arg, "afap"))
		*scale = 0;
	else if (!strcmp(arg, "original"))
		*scale = 1;
	else if (strncmp(arg, "scale=", 6) || parse_seconds(arg + 6, scale) || *scale <= 0)
		return -EINVAL;
	return 0;
}

/* One option; returns 0, or an exit status to leave with. */
static int parse_option(struct lg_config *cfg, int opt, char *arg)
{
	unsigned long long v;

	switch (opt) {
	case 'c': cfg->loadfile = arg; break;
	case 'D': cfg->directory = arg; break;
	case 't':
		if (parse_seconds(arg, &cfg->time_s) || cfg->time_s <= 0)
			return bad_seconds("--time", arg, "seconds > 0" UPTO);
		break;
	case OPT_WARMUP:
		if (parse_seconds(arg, &cfg->warmup_s))
			return bad_seconds("--warmup", arg, "seconds >= 0" UPTO);
		break;
	case OPT_RUN_ONCE: cfg->run_once = true; break;
	case OPT_PER_CLIENT: {
		static const char *const names[] = { [LG_PER_CLIENT_AUTO] = "auto",
			[LG_PER_CLIENT_ALL] = "all", [LG_PER_CLIENT_ROWS] = "rows",
			[LG_PER_CLIENT_SUMMARY] = "summary" };
		size_t k = 0;

		while (k < sizeof(names) / sizeof(*names) && strcmp(arg, names[k]))
			k++;
		if (k == sizeof(names) / sizeof(*names))
			return bad_usage("invalid --per-client '%s': expected auto, all, rows or "
					 "summary", arg);
		cfg->per_client = (enum lg_per_client)k;
		break;
	}
	case OPT_REPLAY_TIMING:
		if (parse_replay_timing(arg, &cfg->think_scale))
			return bad_usage("invalid --replay-timing '%s': expected afap, original "
					 "or scale=X with X > 0" UPTO, arg);
		cfg->replay_timing = arg;
		break;
	case 'p':
		if (add_param(cfg, arg))
			return bad_usage("invalid --param '%s': expected NAME=VALUE", arg);
		break;
	case OPT_SEED:
		if (parse_u64(arg, UINT64_MAX, &v))
			return bad_usage("invalid --seed '%s': expected a non-negative integer", arg);
		cfg->seed = v;
		break;
	case OPT_JSON: cfg->json_path = arg; break;
	case OPT_HTML: cfg->html_path = arg; break;
	case OPT_KEEP: cfg->keep = true; break;
	case 'q': cfg->quiet = true; break;
	case OPT_ABORT: cfg->abort_on_error = true; break;
	case OPT_PROCESSES: cfg->processes = true; cfg->mode = "processes"; break;
	case 's': cfg->sync_open = true; break;
	case 'S': cfg->sync_dirs = true; break;
	case 'F': cfg->fsync_writes = true; break;
	case OPT_DIRECT: cfg->direct = true; break;
	case 'R':
		if (parse_seconds(arg, &cfg->rate_mbps) || cfg->rate_mbps <= 0)
			return bad_usage("invalid --rate '%s': expected MB/s > 0" UPTO, arg);
		break;
	case OPT_END_SYNC: cfg->end_sync = true; break;
	case OPT_DROP_CACHES: cfg->drop_caches = true; break;
	case OPT_NO_SPACE_CHECK: cfg->no_space_check = true; break;
	case OPT_VERIFY: cfg->verify = true; break;
	case OPT_RESOLVE:
		cfg->resolve = -1;
		for (int m = 0; m < (int)(sizeof(lg_resolve_names) / sizeof(*lg_resolve_names)); m++)
			if (!strcmp(arg, lg_resolve_names[m]))
				cfg->resolve = m;
		if (cfg->resolve < 0)
			return bad_usage("invalid --resolve '%s': expected dbench, samba or stat",
					 arg);
		break;
	case OPT_MONITOR:
		if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0)
			return bad_usage("invalid --monitor '%s': expected on or off", arg);
		cfg->monitor = strcmp(arg, "on") == 0;
		break;
	case OPT_LOG: cfg->log_path = arg; break;
	case OPT_MPI: cfg->mpi = true; break;
	case OPT_REPEAT:
		if (lg_repeat_parse(arg, &cfg->repeat_rule))
			return bad_usage("invalid --repeat '%s': expected 1 to 10000, or"
					 " auto[:PCT[:MAX]] with PCT > 0 and MAX 3 to 10000", arg);
		cfg->repeat = cfg->repeat_rule.max;
		break;
	case OPT_RATE_OPS:
		if (parse_seconds(arg, &cfg->rate_ops) || cfg->rate_ops <= 0)
			return bad_usage("invalid --rate-ops '%s': expected ops/s > 0" UPTO, arg);
		break;
	case OPT_INTERVAL:
		if (parse_seconds(arg, &cfg->interval_s) || cfg->interval_s < 0.01)
			return bad_seconds("--interval", arg, "seconds >= 0.01" UPTO);
		break;
	case OPT_STALL:
		/* below 1 us it is no stall, and below 1 ns it would round to 0: every op */
		if (parse_seconds(arg, &cfg->stall_threshold_s) || cfg->stall_threshold_s < 1e-6)
			return bad_seconds("--stall-threshold", arg, "seconds >= 0.000001" UPTO);
		break;
	case 'h': usage(stdout); exit(0);
	case 'V':
		print_version();
		exit(0);
	default: return lg_cli_bad_option(NULL, long_options, cfg->argv, opt);
	}
	return 0;
}

/* NCLIENTS that is no client count (why says so): maybe a misspelt subcommand. */
static int bad_nclients(const char *arg, const char *why)
{
	static const char *const subs[] = { "ab", "calibrate", "compare", "history", "import",
					    "record", "report", "show", NULL };
	struct lg_suggest s;

	lg_suggest_init(&s, arg);
	lg_suggest_add_all(&s, subs);
	if (lg_suggest_best(&s))
		return lg_cli_usage_error(NULL, "%s; did you mean 'loadgen %s'?", why,
					  lg_suggest_best(&s));
	return lg_cli_usage_error(NULL, "%s", why);
}

static int parse_args(int argc, char **argv, struct lg_config *cfg)
{
	char err[256];
	long ncpu;
	int opt, rc;

	*cfg = (struct lg_config){ .mode = "threads", .directory = ".",
				   .time_s = LG_DEFAULT_TIME_S, .warmup_s = LG_DEFAULT_WARMUP_S,
				   .seed = LG_DEFAULT_SEED, .repeat = 1, .repeat_rule = { .max = 1 },
				   .interval_s = LG_DEFAULT_INTERVAL_S,
				   .stall_threshold_s = LG_DEFAULT_STALL_S, .monitor = true, .progress = lg_report_progress,
				   .argc = argc, .argv = argv };
	opterr = 0; /* our own messages: lg_cli_bad_option */
	while ((opt = getopt_long(argc, argv, ":c:D:t:p:qhVsSFR:", long_options, NULL)) != -1)
		if ((rc = parse_option(cfg, opt, optarg)))
			return rc;
	if (optind >= argc)
		return bad_usage("%s", "missing NCLIENTS (the number of clients)");
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (lg_sweep_parse(argv[optind], ncpu > 0 ? (unsigned)ncpu : 1, MAX_CLIENTS, cfg->sweep,
			   &cfg->nsweep, err, sizeof(err)))
		return bad_nclients(argv[optind], err);
	if (optind != argc - 1)
		return bad_usage("unexpected argument '%s' (only NCLIENTS, the number of "
				 "clients, follows the options)", argv[optind + 1]);
	if (cfg->rate_ops > 0 && cfg->rate_mbps > 0)
		return bad_usage("%s", "--rate and --rate-ops cannot be combined");
	cfg->clients = cfg->sweep[0];
	return 0;
}


/* A stop signal (signals.c): the first asks the engine to stop; a second leaves at once,
 * saying what is left, unless it is one that repeats by itself (SIGPIPE at every write
 * to a closed pipe, SIGXCPU every second past the CPU limit). */
static void on_signal(int sig)
{
	static const char msg[] = "loadgen: interrupted again, exiting now";
	static const char leaving[] = "; leaving ";
	const char *dir = lg_engine_rundir();
	char line[sizeof(msg) + sizeof(leaving) + 4096];
	size_t n = sizeof(msg) - 1, d = dir ? strnlen(dir, 4096) : 0;

	if (!lg_engine_interrupted()) {
		lg_engine_interrupt();
		return;
	}
	if (!lg_signals_again_exits(sig))
		return;
	lg_engine_abandon();
	memcpy(line, msg, n);
	if (d) {
		memcpy(line + n, leaving, sizeof(leaving) - 1);
		n += sizeof(leaving) - 1;
		memcpy(line + n, dir, d);
		n += d;
	}
	line[n++] = '\n';
	lg_stderr_write_now(line, n); /* a tagged rank's copying thread would not see it */
	_exit(LG_EXIT_INTERRUPT);
}


int main(int argc, char **argv)
{
	struct lg_workload *wls[LG_SWEEP_MAX] = { 0 };
	struct lg_run *runs = NULL;
	struct lg_config cfg;
	char err[1024];
	struct timespec start;
	size_t n = 0;
	int status, rc;

	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return lg_compare_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "ab") == 0)
		return lg_ab_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "calibrate") == 0)
		return lg_calibrate_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return lg_report_html_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "import") == 0)
		return lg_import_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "show") == 0)
		return lg_show_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "record") == 0)
		return lg_record_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "history") == 0)
		return lg_history_main(argc - 1, argv + 1);
	status = parse_args(argc, argv, &cfg);
	if (!status)
		status = lg_runs_join_ranks(&cfg);
	if (!status)
		status = lg_runs_load_all(&cfg, wls);
	if (status)
		goto out;
	status = LG_EXIT_USAGE;
	runs = calloc(cfg.repeat * cfg.nsweep, sizeof(*runs));
	if (!runs)
		goto out;
	lg_signals_install(on_signal);
	clock_gettime(CLOCK_REALTIME, &start);
	if (lg_sysinfo_json(cfg.directory, argc, argv, &start, &cfg.env) == 0)
		(cfg.quiet ? lg_sysinfo_print_short : lg_sysinfo_print)(stdout, cfg.env);
	lg_coord_of(&cfg)->env = cfg.env;
	if (lg_run_output_log_open(&cfg, wls[0], err, sizeof(err))) {
		fprintf(stderr, "loadgen: --log %s\n", err);
		goto out;
	}
	rc = lg_runs_sweep(&cfg, wls, runs, &n);
	if (rc && n == 0) { /* nothing was measured: the run could not start */
		if (rc == -ENOSPC || rc == -EDQUOT) /* a fault of the target, not of usage */
			status = LG_EXIT_ERRORS;
		goto out;
	}
	status = rc ? LG_EXIT_ERRORS : lg_runs_status(runs, n);
	if ((cfg.json_path || cfg.html_path || cfg.runlog) &&
	    lg_runs_write_result(&cfg, wls[0], runs, n) && status == 0)
		status = LG_EXIT_ERRORS;
out:
	lg_run_output_log_close(&cfg, NULL, err, sizeof(err)); /* when not closed above */
	/* every rank leaves with rank 0's status (on one host: nothing to wait for) */
	lg_coord_bcast(lg_coord_of(&cfg), &status, sizeof(status));
	lg_coord_close(lg_coord_of(&cfg));
	lg_stderr_untag();
	for (size_t i = 0; i < n; i++) {
		lg_monitor_destroy(runs[i].mon);
		lg_run_clear(&runs[i]);
	}
	free(runs);
	for (size_t i = 0; i < LG_SWEEP_MAX; i++)
		lg_workload_destroy(wls[i]);
	json_decref(cfg.env);
	free(cfg.params);
	return status;
}
