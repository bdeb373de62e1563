/* `loadgen ab`: its command line and the run loop.
 *
 * Every measured run is a child loadgen (this same binary) with the run options given to
 * ab, the variant's directory and own options, -q and --json into a temporary file: each
 * run is exactly a normal run (warm-up, --drop-caches, checks), and its result goes into
 * the variant's result file the way --repeat collects runs. Children run in their own
 * process group; a signal to ab is passed on to the running child, whose round is then
 * dropped: the analysis keeps every finished round. The statistics are in ab_stats.c,
 * the outputs in ab_output.c. */
#include "ab_priv.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loadgen/cli.h"
#include "loadgen/result_json.h"

#define EXIT_ERRORS 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPT 130
#define SELF_EXE "/proc/self/exe"

static volatile sig_atomic_t ab_stop;  /* a signal arrived */
static volatile pid_t ab_child;        /* the running child, 0 when none */

/* Run options that take a value (forwarded with it). */
static const char *const value_opts[] = {
	"-c", "--loadfile", "-t", "--time", "--warmup", "-p", "--param", "-R", "--rate",
	"--rate-ops", "--interval", "--stall-threshold", "--resolve", "--monitor", NULL,
};
/* Run options ab cannot forward: it writes the results itself. */
static const char *const refused_opts[] = {
	"--repeat", "--html", "--log", "--keep", NULL,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen ab [run options] (-D DIR -D DIR | --variant NAME=CMD ...)\n"
		"                  [--seed S] [--json FILE] [--out-dir DIR]\n"
		"                  [--fail-if-slower PCT] --rounds N NCLIENTS\n"
		"Compare two variants run interleaved: each round runs both once, a normal\n"
		"measured run each, in an order that balances position (A B, B A, ...; shuffled\n"
		"per round with --seed). The per-round differences are tested pair by pair\n"
		"(paired t-test, Wilcoxon signed rank), so drift of the machine that hits both\n"
		"alike cannot pass for a difference; the drift is reported apart.\n\n"
		"  -D, --directory DIR      a variant's directory (twice: the two variants), or\n"
		"                           with --variant the one directory both use (or one\n"
		"                           each, in the order of --variant)\n"
		"      --variant NAME=CMD   a variant: CMD runs (sh -c) before each of its runs\n"
		"                           and must exit 0; CMD may be empty\n"
		"      --variant-opts NAME=OPTIONS\n"
		"                           extra run options of that variant only (split at\n"
		"                           spaces), e.g. 'B=--rate-ops 190'\n"
		"      --rounds N           rounds to run (2 to %d)\n"
		"      --seed S             shuffle the order of each round from S (also the\n"
		"                           runs' --seed); default: balanced A B, B A, ...\n"
		"      --json FILE          write the paired analysis as JSON to FILE\n"
		"      --out-dir DIR        where the result files ab-0-NAME.json (A) and\n"
		"                           ab-1-NAME.json (B) go (default .)\n"
		"      --fail-if-slower PCT\n"
		"                           exit %d when B is significantly slower than A by\n"
		"                           more than PCT %%\n"
		"  -h, --help               this help\n\n"
		"Run options are those of loadgen (-t, --warmup, -c, -p, -R, --rate-ops,\n"
		"--drop-caches, ...), except --repeat, --html, --log and --keep.\n"
		"A variant command gets LOADGEN_AB_VARIANT (its name), LOADGEN_AB_INDEX (0 for\n"
		"A, 1 for B), LOADGEN_AB_ROUND (1, 2, ...), LOADGEN_AB_POSITION (its place in\n"
		"the round, 1 or 2), LOADGEN_AB_ROUNDS and LOADGEN_AB_DIR (its directory).\n"
		"Significance level %g. Exit status: 0 compared, 1 a run or a variant command\n"
		"failed, 2 usage error, %d --fail-if-slower tripped, 130 interrupted (the\n"
		"finished rounds are analysed).\n",
		LG_AB_MAX_ROUNDS, LG_COMPARE_EXIT_SLOWER, LG_COMPARE_ALPHA,
		LG_COMPARE_EXIT_SLOWER);
}

static bool in_list(const char *const *list, const char *arg)
{
	size_t n = strcspn(arg, "=");

	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == n && !strncmp(list[i], arg, n))
			return true;
	return false;
}

static struct ab_variant *find_variant(struct ab_ctx *c, const char *name, size_t len)
{
	for (size_t i = 0; i < c->nvar; i++)
		if (strlen(c->v[i].name) == len && !strncmp(c->v[i].name, name, len))
			return &c->v[i];
	return NULL;
}

static int add_variant(struct ab_ctx *c, char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return lg_cli_usage_error("ab", "invalid --variant '%s': expected NAME=CMD", arg);
	if (find_variant(c, arg, (size_t)(eq - arg)))
		return lg_cli_usage_error("ab", "--variant '%.*s' given twice", (int)(eq - arg),
					  arg);
	if (c->nvar == LG_AB_MAX_VARIANTS)
		return lg_cli_usage_error("ab", "too many variants at '%s': ab compares two",
					  arg);
	*eq = '\0';
	c->v[c->nvar++] = (struct ab_variant){ .name = arg, .cmd = eq[1] ? eq + 1 : NULL };
	return 0;
}

/* --variant-opts NAME=OPTIONS, kept for after all variants are known. */
static int add_variant_opts(struct ab_ctx *c, char *arg)
{
	char *eq = strchr(arg, '='), *tok, *save = NULL;
	struct ab_variant *v = eq ? find_variant(c, arg, (size_t)(eq - arg)) : NULL;

	if (!eq || eq == arg)
		return lg_cli_usage_error("ab", "invalid --variant-opts '%s': expected "
					  "NAME=OPTIONS", arg);
	if (!v)
		return lg_cli_usage_error("ab", "--variant-opts '%s': no variant '%.*s' "
					  "given before it", arg, (int)(eq - arg), arg);
	free(v->optbuf);
	if (!(v->optbuf = strdup(eq + 1)))
		return EXIT_USAGE;
	v->nopts = 0;
	for (tok = strtok_r(v->optbuf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (v->nopts == AB_MAX_OPTS)
			return lg_cli_usage_error("ab", "--variant-opts '%s': too many options", arg);
		if (in_list(refused_opts, tok) || in_list((const char *const[]){ "-D",
				"--directory", "--json", "-q", NULL }, tok))
			return lg_cli_usage_error("ab", "--variant-opts '%s': %s cannot be set per "
						  "variant", arg, tok);
		v->opts[v->nopts++] = tok;
	}
	return 0;
}

static int parse_number(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !(*out >= lo && *out <= hi))
		return lg_cli_usage_error("ab", "invalid %s '%s': expected a number from %g to %g",
					  opt, arg, lo, hi);
	return 0;
}

/* One ab option at argv[*i] (its value may be the next argument); 0, -1 when it is no
 * ab option, or an exit status. */
static int ab_option(struct ab_ctx *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	size_t n = strcspn(a, "=");
	char *val = a[n] == '=' ? argv[*i] + n + 1 : NULL;
	double x;

#define IS(s) (strlen(s) == n && !strncmp(a, s, n))
	if (IS("-h") || IS("--help")) {
		usage(stdout);
		exit(0);
	}
	if (!(IS("-D") || IS("--directory") || IS("--variant") || IS("--variant-opts") ||
	      IS("--rounds") || IS("--seed") || IS("--json") || IS("--out-dir") ||
	      IS("--fail-if-slower")))
		return -1;
	if (!val && (*i + 1 >= argc))
		return lg_cli_usage_error("ab", "option '%s' needs a value", a);
	if (!val)
		val = argv[++*i];
	if (IS("-D") || IS("--directory")) {
		if (c->ndirs == LG_AB_MAX_VARIANTS)
			return lg_cli_usage_error("ab", "too many -D at '%s': ab compares two", val);
		c->dirs[c->ndirs++] = val;
	} else if (IS("--variant")) {
		return add_variant(c, val);
	} else if (IS("--variant-opts")) {
		return add_variant_opts(c, val);
	} else if (IS("--rounds")) {
		if (parse_number("--rounds", val, 2, LG_AB_MAX_ROUNDS, &x) || x != (size_t)x)
			return x != (size_t)x ? lg_cli_usage_error("ab", "invalid --rounds '%s': "
						"expected a whole number", val) : EXIT_USAGE;
		c->rounds = (size_t)x;
	} else if (IS("--seed")) {
		if (parse_number("--seed", val, 0, 9007199254740992.0, &x))
			return EXIT_USAGE;
		c->seed = (uint64_t)x;
		c->fwd[c->nfwd++] = "--seed";
		c->fwd[c->nfwd++] = val;
	} else if (IS("--json")) {
		c->json_path = val;
	} else if (IS("--out-dir")) {
		c->out_dir = val;
	} else {
		if (parse_number("--fail-if-slower", val, 0, 100, &c->slower_pct))
			return EXIT_USAGE;
		c->fail_if_slower = true;
	}
#undef IS
	return 0;
}

/* Sort the arguments: ab's own, the run options to forward, NCLIENTS. */
static int parse_args(struct ab_ctx *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int rc = ab_option(c, argc, argv, &i);

		if (rc >= 0) {
			if (rc)
				return rc;
			continue;
		}
		if (c->nfwd + 3 > AB_MAX_FWD)
			return lg_cli_usage_error("ab", "too many options at '%s'", argv[i]);
		if (argv[i][0] != '-' || !argv[i][1]) {
			if (c->nclients)
				return lg_cli_usage_error("ab", "unexpected argument '%s' (only "
							  "NCLIENTS follows the options)", argv[i]);
			c->nclients = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
			continue; /* the runs are quiet anyway: ab prints one line each */
		if (in_list(refused_opts, argv[i]))
			return lg_cli_usage_error("ab", "%s cannot be used with ab (it runs each "
						  "run once and writes the results itself)", argv[i]);
		c->fwd[c->nfwd++] = argv[i];
		if (in_list(value_opts, argv[i]) && !strchr(argv[i], '=') &&
		    !(argv[i][1] != '-' && argv[i][2]) && i + 1 < argc)
			c->fwd[c->nfwd++] = argv[++i];
	}
	return 0;
}

/* Who the variants are, once every option is read. */
static int check_args(struct ab_ctx *c)
{
	if (!c->nclients)
		return lg_cli_usage_error("ab", "%s", "missing NCLIENTS (the number of clients)");
	if (!c->rounds)
		return lg_cli_usage_error("ab", "%s", "missing --rounds N");
	if (c->nvar == 0) {
		if (c->ndirs != 2)
			return lg_cli_usage_error("ab", "%s", "two variants are needed: -D DIR -D "
						  "DIR, or --variant NAME=CMD twice");
		for (size_t i = 0; i < 2; i++)
			c->v[i] = (struct ab_variant){ .name = c->dirs[i], .dir = c->dirs[i] };
		c->nvar = 2;
	} else if (c->nvar != 2) {
		return lg_cli_usage_error("ab", "%s", "two variants are needed: --variant "
					  "NAME=CMD twice");
	} else {
		for (size_t i = 0; i < 2; i++)
			c->v[i].dir = c->ndirs == 2 ? c->dirs[i] : c->ndirs ? c->dirs[0] : ".";
	}
	if (!strcmp(c->v[0].name, c->v[1].name))
		return lg_cli_usage_error("ab", "both variants are named '%s'", c->v[0].name);
	return 0;
}

static void on_signal(int sig)
{
	pid_t p = ab_child;

	ab_stop = 1;
	if (p > 0)
		kill(p, sig);
}

/* Fork and exec argv (or sh -c cmd) in its own process group with the round's
 * environment; wait for it. The wait status, or -errno. */
static int spawn_wait(const struct ab_ctx *c, size_t vi, size_t round, size_t pos,
		      const char *cmd, char **argv)
{
	char buf[32];
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		setpgid(0, 0);
		setenv("LOADGEN_AB_VARIANT", c->v[vi].name, 1);
		snprintf(buf, sizeof(buf), "%zu", vi);
		setenv("LOADGEN_AB_INDEX", buf, 1);
		snprintf(buf, sizeof(buf), "%zu", round + 1);
		setenv("LOADGEN_AB_ROUND", buf, 1);
		snprintf(buf, sizeof(buf), "%zu", pos + 1);
		setenv("LOADGEN_AB_POSITION", buf, 1);
		snprintf(buf, sizeof(buf), "%zu", c->rounds);
		setenv("LOADGEN_AB_ROUNDS", buf, 1);
		setenv("LOADGEN_AB_DIR", c->v[vi].dir, 1);
		if (cmd) {
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		} else { /* ab prints one line per run; the run's errors still show */
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0)
				dup2(fd, STDOUT_FILENO);
			execv(SELF_EXE, argv);
		}
		_exit(127);
	}
	ab_child = pid;
	if (ab_stop)
		kill(pid, SIGINT);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			ab_child = 0;
			return -errno;
		}
	ab_child = 0;
	return st;
}

/* Why a child's wait status st is a failure, into buf; NULL when it exited 0. */
static const char *failure(int st, char *buf, size_t len)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return NULL;
	if (WIFEXITED(st))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, len, "wait status %d", st);
	return buf;
}

/* The run of variant vi at position pos of round: its command, then the measured run;
 * its document goes to v->pending. 0, or an exit status to stop with. */
static int run_variant(struct ab_ctx *c, size_t vi, size_t round, size_t pos)
{
	struct ab_variant *v = &c->v[vi];
	char *argv[AB_MAX_FWD + AB_MAX_OPTS + 8], tmp[AB_PATH_MAX], why[96];
	size_t k = 0;
	json_error_t jerr;
	int st;

	if (v->cmd) {
		st = spawn_wait(c, vi, round, pos, v->cmd, NULL);
		if (ab_stop)
			return EXIT_INTERRUPT;
		if (st < 0 || failure(st, why, sizeof(why))) {
			fprintf(stderr, "loadgen ab: the command of variant '%s' failed in round "
				"%zu (%s): %s\n", v->name, round + 1, st < 0 ? strerror(-st) : why,
				v->cmd);
			return EXIT_ERRORS;
		}
	}
	snprintf(tmp, sizeof(tmp), "%s/.loadgen-ab-%ld-%zu.json", c->out_dir, (long)getpid(),
		 vi);
	argv[k++] = "loadgen";
	for (size_t i = 0; i < c->nfwd; i++)
		argv[k++] = c->fwd[i];
	for (size_t i = 0; i < v->nopts; i++)
		argv[k++] = v->opts[i];
	argv[k++] = "-D";
	argv[k++] = (char *)v->dir;
	argv[k++] = "--json";
	argv[k++] = tmp;
	argv[k++] = "-q";
	argv[k++] = (char *)c->nclients;
	argv[k] = NULL;
	fflush(NULL);
	st = spawn_wait(c, vi, round, pos, NULL, argv);
	if (ab_stop) {
		unlink(tmp);
		return EXIT_INTERRUPT;
	}
	if (st < 0 || failure(st, why, sizeof(why))) {
		unlink(tmp);
		fprintf(stderr, "loadgen ab: the run of variant '%s' in round %zu failed (%s)\n",
			v->name, round + 1, st < 0 ? strerror(-st) : why);
		return WIFEXITED(st) && WEXITSTATUS(st) == EXIT_USAGE ? EXIT_USAGE : EXIT_ERRORS;
	}
	json_decref(v->pending);
	v->pending = json_load_file(tmp, 0, &jerr);
	unlink(tmp);
	if (!json_is_array(json_object_get(v->pending, "runs"))) {
		fprintf(stderr, "loadgen ab: %s:%d:%d: %s\n", tmp, jerr.line, jerr.column,
			v->pending ? "no runs in the result" : jerr.text);
		return EXIT_ERRORS;
	}
	return 0;
}

static double run_value(const json_t *doc, const char *key)
{
	return json_number_value(json_object_get(json_array_get(json_object_get(doc, "runs"),
								 0), key));
}

/* Round round: every variant in its order; kept only when all finished. */
static int run_round(struct ab_ctx *c, size_t round)
{
	lg_ab_order(c->nvar, round, c->seed, c->order[round]);
	for (size_t pos = 0; pos < c->nvar; pos++) {
		size_t vi = c->order[round][pos];
		int rc = run_variant(c, vi, round, pos);

		if (rc)
			return rc;
		printf("round %zu/%zu  %-12s %10.3f MB/s %12.1f ops/s\n", round + 1, c->rounds,
		       c->v[vi].name, run_value(c->v[vi].pending, "throughput_mbps"),
		       run_value(c->v[vi].pending, "ops_per_s"));
		fflush(stdout);
	}
	for (size_t i = 0; i < c->nvar; i++) {
		struct ab_variant *v = &c->v[i];

		v->mbps[round] = run_value(v->pending, "throughput_mbps");
		v->opsps[round] = run_value(v->pending, "ops_per_s");
		if (lg_ab_variant_add(v, v->pending))
			return EXIT_ERRORS;
		v->pending = NULL;
	}
	c->done = round + 1;
	return 0;
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

/* The analysis of the finished rounds: files, text, JSON. The exit status. */
static int conclude(struct ab_ctx *c, int status)
{
	struct lg_ab_analysis an;
	char err[1024];
	double mb = 0;
	json_t *doc;

	for (size_t i = 0; i < c->nvar; i++)
		if (lg_ab_variant_write(c, &c->v[i], c->done))
			status = status ? status : EXIT_ERRORS;
	for (size_t r = 0; r < c->done; r++)
		mb += c->v[0].mbps[r] + c->v[1].mbps[r];
	c->use_ops = !(mb > 0);
	for (size_t i = 0; i < c->nvar; i++)
		memcpy(c->v[i].vals, c->use_ops ? c->v[i].opsps : c->v[i].mbps,
		       c->done * sizeof(double));
	if (lg_ab_analyze(c->v[0].vals, c->v[1].vals, c->done, LG_COMPARE_ALPHA,
			  LG_AB_PLAN_PCT, &an)) {
		fprintf(stderr, "loadgen ab: a run measured no finite rate\n");
		return status ? status : EXIT_ERRORS;
	}
	lg_ab_print(c, &an);
	if (c->json_path) {
		doc = lg_ab_json(c, &an);
		if (!doc || lg_result_json_write(c->json_path, doc, err, sizeof(err))) {
			fprintf(stderr, "loadgen ab: --json %s\n", doc ? err : "out of memory");
			status = status ? status : EXIT_ERRORS;
		}
		json_decref(doc);
	}
	if (!status && c->fail_if_slower && lg_ab_slower_than(&an, LG_COMPARE_ALPHA,
							      c->slower_pct))
		status = LG_COMPARE_EXIT_SLOWER;
	return status;
}

/* True (said) when dir, the value of opt, is no directory. */
static bool bad_dir(const char *opt, const char *dir)
{
	struct stat sb;
	int e = stat(dir, &sb) ? errno : S_ISDIR(sb.st_mode) ? 0 : ENOTDIR;

	if (e)
		fprintf(stderr, "loadgen ab: %s %s: %s\n", opt, dir, strerror(e));
	return e != 0;
}

static int ab_run(struct ab_ctx *c)
{
	char err[1024];
	int status = 0;

	if (bad_dir("--out-dir", c->out_dir))
		return EXIT_USAGE;
	for (size_t i = 0; i < c->nvar; i++) /* before any variant's first run */
		if (bad_dir("-D", c->v[i].dir))
			return EXIT_USAGE;
	if (c->json_path && lg_result_json_check(c->json_path, err, sizeof(err))) {
		fprintf(stderr, "loadgen ab: --json %s\n", err);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < c->nvar; i++) {
		char name[128];
		size_t k = 0;

		/* a file name from the variant's name (a directory has slashes) */
		for (const char *p = c->v[i].name; *p && k < sizeof(name) - 1; p++)
			name[k++] = (isalnum((unsigned char)*p) || strchr("._-", *p)) ? *p : '_';
		name[k] = '\0';
		if (snprintf(c->v[i].path, sizeof(c->v[i].path), "%s/ab-%zu-%s.json",
			     c->out_dir, i, name) >= (int)sizeof(c->v[i].path))
			return lg_cli_usage_error("ab", "%s", "--out-dir path too long");
	}
	install_signals();
	for (size_t r = 0; r < c->rounds && !status && !ab_stop; r++)
		status = run_round(c, r);
	if (ab_stop)
		status = EXIT_INTERRUPT;
	c->interrupted = status == EXIT_INTERRUPT;
	if (status == EXIT_INTERRUPT)
		fprintf(stderr, "loadgen ab: interrupted; the verdict rests on the %zu finished "
			"round%s (%zu pair%s)\n", c->done, c->done == 1 ? "" : "s", c->done,
			c->done == 1 ? "" : "s");
	if (c->done == 0) {
		if (status != EXIT_USAGE)
			fprintf(stderr, "loadgen ab: no round finished: nothing to compare\n");
		return status ? status : EXIT_ERRORS;
	}
	return conclude(c, status);
}

int lg_ab_main(int argc, char **argv)
{
	struct ab_ctx *c = calloc(1, sizeof(*c));
	int status;

	if (!c)
		return EXIT_ERRORS;
	c->out_dir = ".";
	status = parse_args(c, argc, argv);
	if (!status)
		status = check_args(c);
	if (!status) {
		status = ab_run(c);
	}
	for (size_t i = 0; i < LG_AB_MAX_VARIANTS; i++) {
		free(c->v[i].optbuf);
		json_decref(c->v[i].doc);
		json_decref(c->v[i].pending);
	}
	free(c);
	return status;
}
