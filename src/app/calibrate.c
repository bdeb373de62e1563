/* `loadgen calibrate`: measure this machine's batch-to-batch spread for a workload.
 *
 * K batches of the same run (each a child loadgen, this binary, with the run options
 * given and --repeat, writing its own result file) are taken one after the other, with
 * an optional pause between them so they sample different states of the machine; or
 * existing result files are taken as the batches (--from). The spread between their
 * means beyond their runs' own (batch_variance.c) is stored under the setup's key
 * (calibration.h) for `loadgen compare` to count as noise when one batch is compared
 * with one. */
#include "loadgen/app/calibrate.h"
#include "loadgen/compare/calibration.h"
#include "loadgen/model/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_ERRORS 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPT 130
#define SELF_EXE "/proc/self/exe"
#define MAX_BATCHES 100
#define MAX_FWD 256
#define DEFAULT_BATCHES 5
#define DEFAULT_REPEAT "5"
#define PATH_LEN 4096

static volatile sig_atomic_t cal_stop; /* a signal arrived */

static void on_signal(int sig)
{
	(void)sig;
	cal_stop = 1;
}

/* What the command line asked for. */
struct cal_cli {
	size_t batches;        /* --batches K */
	double gap_s;          /* --gap SECONDS between batches */
	const char *out_dir;   /* --out-dir DIR: the batches' result files */
	const char *store;     /* --store FILE; NULL: the default store */
	bool from;             /* --from: the arguments are result files */
	char *fwd[MAX_FWD];    /* run options and NCLIENTS for every batch, as given */
	size_t nfwd;           /* entries of fwd */
	bool has_repeat;       /* fwd sets --repeat */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen calibrate [--batches K] [--gap SECONDS] [--out-dir DIR]\n"
		"                         [--store FILE] [run options] NCLIENTS\n"
		"       loadgen calibrate [--store FILE] --from A1.json A2.json A3.json...\n"
		"Measure how much batches of one setup differ on this machine: K batches (default\n"
		"%d) of the same run, each a loadgen run with --repeat %s unless the run options\n"
		"set --repeat, one after the other with a pause of --gap seconds (default 0)\n"
		"between them; or existing result files of one setup (--from), at least %d.\n"
		"The spread between batch means beyond their runs' own is stored with the\n"
		"setup (host, CPU, filesystem, device, mount options, workload, clients, load\n"
		"settings; not the kernel) in the store (default\n"
		"$XDG_DATA_HOME/loadgen/calibration.json), and loadgen compare counts it as\n"
		"noise when it compares one batch with one of that setup.\n\n"
		"      --batches K     batches to take (%d..%d)\n"
		"      --gap SECONDS   pause between batches\n"
		"      --out-dir DIR   where the batches' result files go (default .):\n"
		"                      calibrate-1.json ... (never overwritten)\n"
		"      --store FILE    the calibration store to update\n"
		"      --from          the arguments are result files, one batch each\n"
		"  -h, --help          this help\n"
		"Exit status: 0 stored, 1 a batch failed, 2 usage, 130 interrupted.\n",
		DEFAULT_BATCHES, DEFAULT_REPEAT, LG_CALIB_MIN_BATCHES, LG_CALIB_MIN_BATCHES,
		MAX_BATCHES);
}

/* A number from argument s into *out within [lo, hi]. */
static int parse_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !(v >= lo && v <= hi))
		return -EINVAL;
	*out = v;
	return 0;
}

/* calibrate's own option at argv[*i] (with its value), or 0 when it is not one;
 * -1 after --help; a usage error's status. */
static int own_option(int argc, char **argv, int *i, struct cal_cli *c)
{
	const char *a = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
	double v;

	if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
		usage(stdout);
		return -1;
	}
	if (strcmp(a, "--from") == 0) {
		c->from = true;
		return 1;
	}
	if (strcmp(a, "--batches") && strcmp(a, "--gap") && strcmp(a, "--out-dir") &&
	    strcmp(a, "--store"))
		return 0;
	if (!val)
		return lg_cli_usage_error("calibrate", "%s needs a value", a);
	(*i)++;
	if (strcmp(a, "--out-dir") == 0) {
		c->out_dir = val;
	} else if (strcmp(a, "--store") == 0) {
		c->store = val;
	} else if (strcmp(a, "--batches") == 0) {
		if (parse_num(val, LG_CALIB_MIN_BATCHES, MAX_BATCHES, &v) || v != (size_t)v)
			return lg_cli_usage_error("calibrate", "invalid --batches '%s' (want a"
						  " whole number from %d to %d)", val,
						  LG_CALIB_MIN_BATCHES, MAX_BATCHES);
		c->batches = (size_t)v;
	} else if (parse_num(val, 0, 86400, &c->gap_s)) {
		return lg_cli_usage_error("calibrate", "invalid --gap '%s' (want seconds from 0"
					  " to 86400)", val);
	}
	return 1;
}

/* Returns -1 to go on, else an exit status. */
static int parse(int argc, char **argv, struct cal_cli *c)
{
	*c = (struct cal_cli){ .batches = DEFAULT_BATCHES, .out_dir = "." };
	for (int i = 1; i < argc; i++) {
		int rc = own_option(argc, argv, &i, c);

		if (rc < 0)
			return 0;
		if (rc > 1)
			return rc;
		if (rc == 1)
			continue;
		if (c->nfwd == MAX_FWD)
			return lg_cli_usage_error("calibrate", "too many arguments");
		c->has_repeat |= strcmp(argv[i], "--repeat") == 0 ||
				 strncmp(argv[i], "--repeat=", 9) == 0;
		/* the batches' results are calibrate's to write */
		if (strcmp(argv[i], "--json") == 0 || strncmp(argv[i], "--json=", 7) == 0 ||
		    strcmp(argv[i], "--log") == 0 || strncmp(argv[i], "--log=", 6) == 0 ||
		    strcmp(argv[i], "--html") == 0 || strncmp(argv[i], "--html=", 7) == 0)
			return lg_cli_usage_error("calibrate", "%s: calibrate writes each batch's "
						  "result itself (--out-dir)", argv[i]);
		c->fwd[c->nfwd++] = argv[i];
	}
	if (c->from && c->nfwd < LG_CALIB_MIN_BATCHES)
		return lg_cli_usage_error("calibrate", "--from needs at least %d result files, "
					  "one per batch", LG_CALIB_MIN_BATCHES);
	if (!c->from && c->nfwd == 0)
		return lg_cli_usage_error("calibrate", "need NCLIENTS (and the run options of the"
					  " setup to calibrate)");
	return -1;
}

/* Pause s seconds, or less when a signal arrives. */
static void pause_for(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (!cal_stop && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Run batch b into path: a child loadgen with the run options. The wait status, or
 * -errno. */
static int run_batch(const struct cal_cli *c, const char *path)
{
	char *argv[MAX_FWD + 8];
	size_t k = 0;
	int st;
	pid_t pid;

	/* calibrate's own first: the run's parser takes options and NCLIENTS in any order */
	argv[k++] = "loadgen";
	if (!c->has_repeat) {
		argv[k++] = "--repeat";
		argv[k++] = DEFAULT_REPEAT;
	}
	argv[k++] = "-q";
	argv[k++] = "--json";
	argv[k++] = (char *)path;
	for (size_t i = 0; i < c->nfwd; i++)
		argv[k++] = c->fwd[i];
	argv[k] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execv(SELF_EXE, argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return st;
}

/* Take the batches; paths[] gets their files. 0, or an exit status. */
static int take_batches(const struct cal_cli *c, char (*paths)[PATH_LEN])
{
	struct stat st;

	for (size_t b = 0; b < c->batches; b++) {
		snprintf(paths[b], PATH_LEN, "%s/calibrate-%zu.json", c->out_dir, b + 1);
		if (stat(paths[b], &st) == 0) {
			fprintf(stderr, "loadgen calibrate: %s exists; not overwritten (choose "
				"another --out-dir)\n", paths[b]);
			return EXIT_USAGE;
		}
	}
	for (size_t b = 0; b < c->batches; b++) {
		int rc;

		if (b > 0 && c->gap_s > 0)
			pause_for(c->gap_s);
		if (cal_stop)
			return EXIT_INTERRUPT;
		printf("batch %zu of %zu ...\n", b + 1, c->batches);
		fflush(stdout);
		rc = run_batch(c, paths[b]);
		if (cal_stop)
			return EXIT_INTERRUPT;
		if (rc < 0 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
			fprintf(stderr, "loadgen calibrate: batch %zu failed (%s %d); nothing "
				"stored\n", b + 1, rc < 0 ? "error" : "status",
				rc < 0 ? -rc : WIFEXITED(rc) ? WEXITSTATUS(rc) : rc);
			return EXIT_ERRORS;
		}
	}
	return 0;
}

/* What was stored, and what it means for comparisons. */
static void report(const struct lg_cmp_file *f, const struct lg_calib *cal, size_t n,
		   const char *store)
{
	for (size_t i = 0; i < n; i++) {
		const struct lg_calib *c = &cal[i];
		enum lg_cmp_metric m = c->mean[LG_CMP_MBPS] > 0 ? LG_CMP_MBPS : LG_CMP_OPS;
		double sdb = 100.0 * sqrt(c->var_between[m]) / c->mean[m];
		double sdw = 100.0 * sqrt(c->var_within[m]) / c->mean[m];

		printf("%u clients: %zu batches, %zu runs, mean %.2f %s\n"
		       "  sd between batches %.2f %% of the mean, of runs within a batch %.2f %%\n"
		       "  batches per side that detect a change (80 %% power, alpha %g):",
		       c->clients, c->batches, c->runs, c->mean[m], lg_cmp_metric_unit(m), sdb,
		       sdw, LG_COMPARE_ALPHA);
		for (int p = 0; p < 3; p++) {
			static const double pct[] = { 2, 5, 10 };
			size_t k = lg_calib_batches_needed(c, m, pct[p], LG_COMPARE_ALPHA);

			if (k)
				printf(" %g %%: %zu;", pct[p], k);
			else
				printf(" %g %%: over 1000;", pct[p]);
		}
		putchar('\n');
	}
	printf("Stored in %s for %s's setup.\n", store, f->path);
}

int lg_calibrate_main(int argc, char **argv)
{
	static char paths[MAX_BATCHES][PATH_LEN];
	char *files[MAX_BATCHES > MAX_FWD ? MAX_BATCHES : MAX_FWD];
	struct lg_calib cal[64];
	struct lg_cmp_file f;
	struct cal_cli c;
	char def[1024], err[2048];
	size_t n = 0, nfiles;
	int rc = parse(argc, argv, &c);

	if (rc >= 0)
		return rc;
	if (!c.store && lg_calib_default_path(def, sizeof(def)) != 0)
		return lg_cli_usage_error("calibrate", "no store: set XDG_DATA_HOME or HOME, or "
					  "give --store FILE");
	if (!c.store)
		c.store = def;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (c.from) {
		nfiles = c.nfwd;
		memcpy(files, c.fwd, nfiles * sizeof(*files));
	} else {
		rc = take_batches(&c, paths);
		if (rc)
			return rc;
		nfiles = c.batches;
		for (size_t i = 0; i < nfiles; i++)
			files[i] = paths[i];
	}
	rc = lg_cmp_file_load_batches(files, nfiles, &f, err, sizeof(err));
	if (rc == 0)
		rc = lg_calib_store(c.store, &f, cal, sizeof(cal) / sizeof(cal[0]), &n, err,
				    sizeof(err));
	if (rc) {
		fprintf(stderr, "loadgen calibrate: %s\n", err);
		lg_cmp_file_release(&f);
		return c.from ? EXIT_USAGE : EXIT_ERRORS;
	}
	report(&f, cal, n, c.store);
	lg_cmp_file_release(&f);
	return 0;
}
