/* loadgen's command line: parse options, load the workload, run, report. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "loadgen/compare.h"
#include "loadgen/config.h"
#include "loadgen/coord.h"
#include "loadgen/engine.h"
#include "loadgen/hosts.h"
#include "loadgen/import.h"
#include "loadgen/loadfile.h"
#include "loadgen/report.h"
#include "loadgen/result_json.h"
#include "loadgen/sysinfo.h"
#include "loadgen/yaml_load.h"
#include "tag_stderr.h"

#define EXIT_ERRORS 1      /* the run finished but ops failed */
#define EXIT_USAGE 2       /* bad usage or workload, nothing ran */
#define EXIT_CORRUPT 4     /* --verify found data that is not what loadgen wrote */
#define EXIT_INTERRUPT 130 /* stopped by SIGINT/SIGTERM */
#define MAX_CLIENTS 100000
#define LG_DROP_CACHES_PATH "/proc/sys/vm/drop_caches"

enum {
	OPT_WARMUP = 256, OPT_RUN_ONCE, OPT_SEED, OPT_JSON, OPT_KEEP, OPT_ABORT,
	OPT_PROCESSES, OPT_DIRECT, OPT_END_SYNC, OPT_DROP_CACHES, OPT_REPEAT, OPT_INTERVAL,
	OPT_STALL, OPT_VERIFY, OPT_MPI
};

static const struct option long_options[] = {
	{ "loadfile", required_argument, NULL, 'c' },
	{ "directory", required_argument, NULL, 'D' },
	{ "time", required_argument, NULL, 't' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "run-once", no_argument, NULL, OPT_RUN_ONCE },
	{ "param", required_argument, NULL, 'p' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "quiet", no_argument, NULL, 'q' },
	{ "abort-on-error", no_argument, NULL, OPT_ABORT },
	{ "processes", no_argument, NULL, OPT_PROCESSES },
	{ "sync-open", no_argument, NULL, 's' },
	{ "sync-dirs", no_argument, NULL, 'S' },
	{ "fsync-writes", no_argument, NULL, 'F' },
	{ "direct", no_argument, NULL, OPT_DIRECT },
	{ "rate", required_argument, NULL, 'R' },
	{ "end-sync", no_argument, NULL, OPT_END_SYNC },
	{ "drop-caches", no_argument, NULL, OPT_DROP_CACHES },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "stall-threshold", required_argument, NULL, OPT_STALL },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "mpi", no_argument, NULL, OPT_MPI },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen [options] NCLIENTS\n"
		"       loadgen compare BASE.json OTHER.json... (see loadgen compare --help)\n"
		"       loadgen import DBENCH_LOADFILE [-o FILE.yaml]\n"
		"Run NCLIENTS concurrent clients replaying a workload on a directory and report\n"
		"throughput and latency.\n\n"
		"  -c, --loadfile FILE    workload: YAML, or a dbench loadfile (recognised by its\n"
		"                         content); default: the built-in netbench\n"
		"  -D, --directory DIR    where the run directory is created (default .)\n"
		"  -t, --time SECONDS     length of the measured phase (default %g)\n"
		"      --warmup SECONDS   warm-up before measuring, results discarded (default %g)\n"
		"      --run-once         each client runs the run phase once; no warm-up\n"
		"  -p, --param NAME=VALUE set a workload parameter (repeatable)\n"
		"      --seed N           seed of the per-client random streams (default %d)\n"
		"      --json FILE        write the result as JSON to FILE (atomically)\n"
		"      --keep             leave the run directory and its files in place\n"
		"  -q, --quiet            no per-second progress lines\n"
		"      --abort-on-error   stop the run at the first unexpected result\n"
		"      --processes        run each client in its own process (default: threads)\n"
		"  -s, --sync-open        open every file with O_SYNC\n"
		"  -S, --sync-dirs        fsync the parent directory after create, unlink,\n"
		"                         rename, mkdir and rmdir (inside the op's time)\n"
		"  -F, --fsync-writes     fsync after every write (inside the write's time)\n"
		"      --direct           open every file with O_DIRECT (aligned buffers)\n"
		"  -R, --rate MBPS        limit each client to MBPS MB/s (10^6 bytes); latency\n"
		"                         then counts from each op's intended start\n"
		"      --end-sync         a final syncfs is part of the measured time\n"
		"      --drop-caches      sync and drop the page cache before each measured\n"
		"                         phase (root only)\n"
		"      --repeat K         measure K runs, each in a fresh run directory, and\n"
		"                         summarise them (mean, stddev, 95%% CI)\n"
		"      --interval SECONDS progress and timeline interval (default %g)\n"
		"      --stall-threshold SECONDS  ops this slow are reported as stalls (default %g)\n"
		"      --verify           write self-describing blocks and check every read of\n"
		"                         them; a mismatch exits 4\n"
		"      --mpi              one run across MPI ranks even when no launcher is\n"
		"                         detected (mpirun and srun are detected); NCLIENTS\n"
		"                         is per rank (README: Many hosts)\n"
		"  -h, --help             this help\n"
		"  -V, --version          print the version\n\n"
		"Exit status: 0 ok, 1 ops failed, 2 usage or workload error, 4 data corruption\n"
		"found by --verify, 130 interrupted.\n",
		LG_DEFAULT_TIME_S, LG_DEFAULT_WARMUP_S, LG_DEFAULT_SEED, LG_DEFAULT_INTERVAL_S,
		LG_DEFAULT_STALL_S);
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "loadgen: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'loadgen --help'.\n");
	return EXIT_USAGE;
}

/* Parse a non-negative number of seconds (fractions allowed). */
static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > 1e7)
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

/* One option; returns 0, or an exit status to leave with. */
static int parse_option(struct lg_config *cfg, int opt, char *arg)
{
	unsigned long long v;

	switch (opt) {
	case 'c': cfg->loadfile = arg; break;
	case 'D': cfg->directory = arg; break;
	case 't':
		if (parse_seconds(arg, &cfg->time_s) || cfg->time_s <= 0)
			return bad_usage("invalid --time '%s': expected seconds > 0", arg);
		break;
	case OPT_WARMUP:
		if (parse_seconds(arg, &cfg->warmup_s))
			return bad_usage("invalid --warmup '%s': expected seconds >= 0", arg);
		break;
	case OPT_RUN_ONCE: cfg->run_once = true; break;
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
			return bad_usage("invalid --rate '%s': expected MB/s > 0", arg);
		break;
	case OPT_END_SYNC: cfg->end_sync = true; break;
	case OPT_DROP_CACHES: cfg->drop_caches = true; break;
	case OPT_VERIFY: cfg->verify = true; break;
	case OPT_MPI: cfg->mpi = true; break;
	case OPT_REPEAT:
		if (parse_u64(arg, 10000, &v) || v == 0)
			return bad_usage("invalid --repeat '%s': expected 1 to 10000", arg);
		cfg->repeat = (unsigned)v;
		break;
	case OPT_INTERVAL:
		if (parse_seconds(arg, &cfg->interval_s) || cfg->interval_s < 0.01)
			return bad_usage("invalid --interval '%s': expected seconds >= 0.01", arg);
		break;
	case OPT_STALL:
		if (parse_seconds(arg, &cfg->stall_threshold_s) || cfg->stall_threshold_s <= 0)
			return bad_usage("invalid --stall-threshold '%s': expected seconds > 0", arg);
		break;
	case 'h': usage(stdout); exit(0);
	case 'V':
		printf("loadgen %s%s\n", LOADGEN_VERSION, lg_coord_built() ? " (MPI)" : "");
		exit(0);
	default: usage(stderr); return EXIT_USAGE;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct lg_config *cfg)
{
	unsigned long long n;
	int opt, rc;

	*cfg = (struct lg_config){ .mode = "threads", .directory = ".",
				   .time_s = LG_DEFAULT_TIME_S, .warmup_s = LG_DEFAULT_WARMUP_S,
				   .seed = LG_DEFAULT_SEED, .repeat = 1,
				   .interval_s = LG_DEFAULT_INTERVAL_S,
				   .stall_threshold_s = LG_DEFAULT_STALL_S, .argc = argc, .argv = argv };
	while ((opt = getopt_long(argc, argv, "c:D:t:p:qhVsSFR:", long_options, NULL)) != -1)
		if ((rc = parse_option(cfg, opt, optarg)))
			return rc;
	if (optind != argc - 1)
		return bad_usage("%s", optind >= argc ? "missing NCLIENTS" : "too many arguments");
	if (parse_u64(argv[optind], MAX_CLIENTS, &n) || n == 0)
		return bad_usage("invalid NCLIENTS '%s': expected 1 to 100000", argv[optind]);
	cfg->clients = (unsigned)n;
	return 0;
}

/* Load the workload for NCLIENTS on every rank (${clients} is the total). *hash gets a
 * hash of its text, for the ranks to compare. Errors go to err. */
static int load_workload(const struct lg_config *cfg, struct lg_workload **wl, uint64_t *hash,
			 char *err, size_t errlen)
{
	unsigned clients = cfg->clients * lg_coord_size(cfg->coord);
	char *text = NULL;
	size_t len = 0;
	int rc;

	*hash = LG_HASH_INIT;
	if (!cfg->loadfile) {
		*hash = lg_hash_bytes(*hash, lg_builtin_netbench, lg_builtin_netbench_len);
		rc = lg_yaml_load("builtin:netbench", lg_builtin_netbench, lg_builtin_netbench_len,
				  cfg->params, cfg->nparams, clients, wl, err, errlen);
	} else if ((rc = lg_loadfile_read(cfg->loadfile, &text, &len))) {
		snprintf(err, errlen, "%s: %s", cfg->loadfile, strerror(-rc));
	} else {
		*hash = lg_hash_bytes(*hash, text, len);
		rc = lg_loadfile_compile(cfg->loadfile, text, len, cfg->params, cfg->nparams,
					 clients, wl, err, errlen);
	}
	free(text);
	return rc;
}

/* Print an error once: on one host, or from rank 0 of several. */
static void say(const struct lg_config *cfg, const char *err)
{
	if (lg_coord_rank(cfg->coord) == 0)
		fprintf(stderr, "loadgen: %s\n", err);
}

/* First signal: ask the engine to stop. Second: leave at once, saying what is left. */
static void on_signal(int sig)
{
	static const char msg[] = "loadgen: interrupted again, exiting now; leaving ";
	const char *dir = lg_engine_rundir();

	(void)sig;
	if (!lg_engine_interrupted()) {
		lg_engine_interrupt();
		return;
	}
	lg_engine_abandon();
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0 || !dir)
		_exit(EXIT_INTERRUPT);
	if (write(STDERR_FILENO, dir, strlen(dir)) >= 0)
		(void)!write(STDERR_FILENO, "\n", 1);
	_exit(EXIT_INTERRUPT);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int write_json(const struct lg_config *cfg, const struct lg_workload *wl,
		      const struct lg_run *runs, size_t n)
{
	char err[1024];
	json_t *doc = lg_result_json_build(cfg, wl, runs, n);
	int rc = doc ? lg_result_json_hosts(doc, runs, n) : -ENOMEM;

	if (!rc)
		rc = lg_result_json_write(cfg->json_path, doc, err, sizeof(err));

	if (rc)
		fprintf(stderr, "loadgen: %s\n", doc && rc != -ENOMEM ? err :
			"out of memory building the JSON");
	json_decref(doc);
	return rc;
}

/* Run the measured phase cfg->repeat times (stopping early on a signal), reporting each
 * run. *n gets the runs that produced results. Returns 0, or a negative errno when a run
 * could not start (the runs before it are kept). */
static int run_all(const struct lg_config *cfg, const struct lg_workload *wl,
		   struct lg_run *runs, size_t *n)
{
	char err[1024];

	for (*n = 0; *n < cfg->repeat && !lg_engine_interrupted(); (*n)++) {
		int rc;

		if (cfg->repeat > 1)
			printf("%sRun %zu of %u\n", *n ? "\n" : "", *n + 1, cfg->repeat);
		rc = lg_engine_run(cfg, wl, &runs[*n], err, sizeof(err));
		if (rc) {
			say(cfg, err);
			return rc;
		}
		lg_report_print(stdout, cfg, &runs[*n]);
		lg_report_hosts(stdout, &runs[*n], cfg->run_once);
		fflush(stdout);
	}
	lg_report_summary(stdout, runs, *n);
	return 0;
}

/* Exit status for what the runs found. */
static int run_status(const struct lg_run *runs, size_t n)
{
	int status = 0;

	for (size_t i = 0; i < n; i++)
		if (runs[i].errors || runs[i].status == LG_RUN_PARTIAL)
			status = EXIT_ERRORS;
	for (size_t i = 0; i < n; i++)
		if (runs[i].corruptions)
			status = EXIT_CORRUPT;
	return lg_engine_interrupted() ? EXIT_INTERRUPT : status;
}

/* Checks that need the workload and may refuse the run before any load starts. */
static int preflight(struct lg_config *cfg, struct lg_workload *wl, char *msg, size_t len)
{
	char err[1024];

	if (cfg->json_path && lg_result_json_check(cfg->json_path, err, sizeof(err))) {
		snprintf(msg, len, "--json %s", err);
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
static int join_ranks(struct lg_config *cfg)
{
	char err[1024];
	int rc = lg_coord_open(cfg->mpi, &cfg->coord, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "loadgen: %s\n", err);
		return EXIT_USAGE;
	}
	if (lg_coord_rank(cfg->coord) > 0) {
		int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (fd >= 0 && dup2(fd, STDOUT_FILENO) >= 0)
			close(fd);
		cfg->json_path = NULL;
		lg_stderr_tag(cfg->coord->host, cfg->coord->rank);
	}
	lg_coord_warn_binding(cfg->coord, cfg->clients);
	return 0;
}

/* Load the workload on every rank and check that all ranks would run the same load.
 * Returns 0 or an exit status (the same on every rank). */
static int load_and_agree(struct lg_config *cfg, struct lg_workload **wl)
{
	char err[2048] = "";
	uint64_t hash = 0;
	int rc = load_workload(cfg, wl, &hash, err, sizeof(err));

	rc = lg_coord_status(cfg->coord, rc, err, sizeof(err));
	if (!rc)
		rc = lg_coord_agree_config(cfg->coord, cfg, hash, err, sizeof(err));
	if (!rc)
		rc = lg_coord_status(cfg->coord, preflight(cfg, *wl, err, sizeof(err)), err,
				     sizeof(err));
	if (rc)
		say(cfg, err);
	return rc ? EXIT_USAGE : 0;
}

int main(int argc, char **argv)
{
	struct lg_workload *wl = NULL;
	struct lg_run *runs = NULL;
	struct lg_config cfg;
	struct timespec start;
	size_t n = 0;
	int status, rc;

	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return lg_compare_main(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "import") == 0)
		return lg_import_main(argc - 1, argv + 1);
	status = parse_args(argc, argv, &cfg);
	if (!status)
		status = join_ranks(&cfg);
	if (!status)
		status = load_and_agree(&cfg, &wl);
	if (status)
		goto out;
	status = EXIT_USAGE;
	runs = calloc(cfg.repeat, sizeof(*runs));
	if (!runs)
		goto out;
	install_signals();
	clock_gettime(CLOCK_REALTIME, &start);
	if (lg_sysinfo_json(cfg.directory, argc, argv, &start, &cfg.env) == 0 && !cfg.quiet)
		lg_sysinfo_print(stdout, cfg.env);
	if (cfg.coord)
		cfg.coord->env = cfg.env;
	rc = run_all(&cfg, wl, runs, &n);
	if (rc && n == 0) { /* nothing was measured: the run could not start */
		if (rc == -ENOSPC || rc == -EDQUOT) /* a fault of the target, not of usage */
			status = EXIT_ERRORS;
		goto out;
	}
	status = rc ? EXIT_ERRORS : run_status(runs, n);
	if (cfg.json_path && write_json(&cfg, wl, runs, n) && status == 0)
		status = EXIT_ERRORS;
out:
	if (cfg.coord) { /* every rank leaves with rank 0's status */
		lg_coord_bcast(cfg.coord, &status, sizeof(status));
		lg_coord_close(cfg.coord);
		lg_stderr_untag();
	}
	for (size_t i = 0; i < n; i++)
		lg_run_clear(&runs[i]);
	free(runs);
	lg_workload_destroy(wl);
	json_decref(cfg.env);
	free(cfg.params);
	return status;
}
