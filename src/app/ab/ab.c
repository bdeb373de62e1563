/* `loadgen ab`: its command line and the run loop.
 *
 * Every measured run is a child loadgen (this same binary) with the run options given to
 * ab, the variant's directory and own options, -q and --json into a temporary file: each
 * run is exactly a normal run (warm-up, --drop-caches, checks), and its result goes into
 * the variant's result file the way --repeat collects runs. Children run in their own
 * process group; a signal to ab is passed on to the running child, whose round is then
 * dropped: the analysis keeps every finished round. The command line is in ab_cli.c,
 * the order of the rounds in ab_order.c, the statistics in ab_stats.c, the outputs in
 * ab_output.c. */
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

#include "loadgen/model/cli.h"
#include "loadgen/output/result_json.h"
#include "run/signals.h"

#define EXIT_ERRORS 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPT 130
#define SELF_EXE "/proc/self/exe"

static volatile sig_atomic_t ab_stop;  /* a signal arrived */
static volatile pid_t ab_child;        /* the running child, 0 when none */

static void on_signal(int sig)
{
	pid_t p = ab_child;

	ab_stop = 1;
	if (p > 0)
		kill(p, sig);
}

/* Fork and exec argv (or sh -c cmd) in its own process group with the round's
 * environment; wait for it. argv's stdout goes to out_fd (/dev/null when < 0). The wait
 * status, or -errno. */
static int spawn_wait(const struct ab_ctx *c, size_t vi, size_t round, size_t pos,
		      const char *cmd, char **argv, int out_fd)
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
		} else { /* ab prints one line per run, and the report when it failed */
			int fd = out_fd >= 0 ? out_fd : open("/dev/null", O_WRONLY);

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

/* The failed run of variant v in round: said with the child's own failure lines (from
 * its report in out). The exit status to stop with. */
static int run_failed(const struct ab_variant *v, size_t round, int st, const char *out)
{
	char why[96], head[256];

	snprintf(head, sizeof(head), "loadgen ab: the run of variant '%s' in round %zu failed"
		 " (%s)", v->name, round + 1, st < 0 ? strerror(-st)
						      : failure(st, why, sizeof(why)));
	lg_ab_child_say(stderr, head, out);
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == EXIT_USAGE ? EXIT_USAGE
									  : EXIT_ERRORS;
}

/* The result of the run that just ended into v->pending: a run that exited 0, or one
 * whose measured phase succeeded and only its cleanup failed (exit 1; said, kept in
 * v->cleanup). 0, or the exit status to stop with (said). */
static int take_result(struct ab_variant *v, size_t round, int st, const char *tmp,
		       const char *out)
{
	json_error_t jerr;
	bool ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;

	v->cleanup[0] = '\0';
	json_decref(v->pending); /* only this run's own result may count */
	v->pending = NULL;
	jerr.line = jerr.column = 0;
	snprintf(jerr.text, sizeof(jerr.text), "no result");
	if (st >= 0 && (ok || (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_ERRORS)))
		v->pending = json_load_file(tmp, 0, &jerr);
	if (!ok && !(v->pending && lg_ab_cleanup_only(v->pending, v->cleanup,
						      sizeof(v->cleanup)))) {
		json_decref(v->pending);
		v->pending = NULL;
		return run_failed(v, round, st, out);
	}
	if (!ok) {
		char head[384];

		snprintf(head, sizeof(head), "loadgen ab: the cleanup of variant '%s' in round %zu"
			 " failed (%s); the measured phase succeeded, so the run counts", v->name,
			 round + 1, v->cleanup);
		lg_ab_child_say(stderr, head, out);
	}
	if (!json_is_array(json_object_get(v->pending, "runs"))) {
		fprintf(stderr, "loadgen ab: %s:%d:%d: %s\n", tmp, jerr.line, jerr.column,
			v->pending ? "no runs in the result" : jerr.text);
		return EXIT_ERRORS;
	}
	return 0;
}

/* The run of variant vi at position pos of round: its command, then the measured run;
 * its document goes to v->pending. 0, or an exit status to stop with. */
static int run_variant(struct ab_ctx *c, size_t vi, size_t round, size_t pos)
{
	struct ab_variant *v = &c->v[vi];
	char *argv[AB_MAX_FWD + AB_MAX_OPTS + 8], tmp[AB_PATH_MAX], out[AB_PATH_MAX + 8];
	char why[96];
	size_t k = 0;
	int st, out_fd;

	if (v->cmd) {
		st = spawn_wait(c, vi, round, pos, v->cmd, NULL, -1);
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
	snprintf(out, sizeof(out), "%s.txt", tmp);
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
	out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	st = spawn_wait(c, vi, round, pos, NULL, argv, out_fd);
	if (out_fd >= 0)
		close(out_fd);
	st = ab_stop ? EXIT_INTERRUPT : take_result(v, round, st, tmp, out);
	unlink(tmp);
	unlink(out);
	return st;
}

static double run_value(const json_t *doc, const char *key)
{
	return json_number_value(json_object_get(json_array_get(json_object_get(doc, "runs"),
								 0), key));
}

/* The run of variant vi in round counts although its cleanup failed: kept for --json
 * (its own result file has its phases). 0 or -ENOMEM. */
static int note_cleanup(struct ab_ctx *c, size_t vi, size_t round)
{
	const json_t *run = json_array_get(json_object_get(c->v[vi].pending, "runs"), 0);
	const json_t *cl = json_object_get(json_object_get(run, "phases"), "cleanup");

	if (!c->cleanup_errors && !(c->cleanup_errors = json_array()))
		return -ENOMEM;
	return json_array_append_new(c->cleanup_errors,
		json_pack("{s:I, s:s, s:O?, s:O?, s:O?}", "round", (json_int_t)round + 1,
			  "variant", c->v[vi].name, "errors", json_object_get(cl, "errors"),
			  "errors_by_errno", json_object_get(cl, "errors_by_errno"),
			  "not_executed", json_object_get(json_object_get(cl, "skipped"),
							  "not_open"))) ? -ENOMEM : 0;
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
		printf("round %zu/%zu  %-12s %10.3f MB/s %12.1f ops/s%s%s%s\n", round + 1,
		       c->rounds, c->v[vi].name, run_value(c->v[vi].pending, "throughput_mbps"),
		       run_value(c->v[vi].pending, "ops_per_s"),
		       c->v[vi].cleanup[0] ? "  (cleanup failed: " : "", c->v[vi].cleanup,
		       c->v[vi].cleanup[0] ? ")" : "");
		fflush(stdout);
	}
	for (size_t i = 0; i < c->nvar; i++) {
		struct ab_variant *v = &c->v[i];

		if (v->cleanup[0] && note_cleanup(c, i, round))
			return EXIT_ERRORS;
		v->mbps[round] = run_value(v->pending, "throughput_mbps");
		v->opsps[round] = run_value(v->pending, "ops_per_s");
		if (lg_ab_variant_add(v, v->pending))
			return EXIT_ERRORS;
		v->pending = NULL;
	}
	c->done = round + 1;
	return 0;
}

/* The metric of the finished rounds (MB/s, or ops/s when no data moved) into each
 * variant's vals, and the drift of their per-round mean. */
static void pick_metric(struct ab_ctx *c)
{
	double mb = 0, y[LG_AB_MAX_ROUNDS] = { 0 };

	for (size_t i = 0; i < c->nvar; i++)
		for (size_t r = 0; r < c->done; r++)
			mb += c->v[i].mbps[r];
	c->use_ops = !(mb > 0);
	for (size_t i = 0; i < c->nvar; i++) {
		memcpy(c->v[i].vals, c->use_ops ? c->v[i].opsps : c->v[i].mbps,
		       c->done * sizeof(double));
		for (size_t r = 0; r < c->done; r++)
			y[r] += c->v[i].vals[r];
	}
	for (size_t r = 0; r < c->done; r++)
		y[r] /= (double)c->nvar;
	lg_ab_drift_fit(y, c->done, &c->drift);
}

/* Each variant against A, the verdicts on the Holm-adjusted p. 0 or -EINVAL (said). */
static int analyze_all(struct ab_ctx *c)
{
	pick_metric(c);
	for (size_t i = 1; i < c->nvar; i++)
		if (lg_ab_analyze(c->v[0].vals, c->v[i].vals, c->done, LG_COMPARE_ALPHA,
				  LG_AB_PLAN_PCT, &c->an[i])) {
			fprintf(stderr, "loadgen ab: a run measured no finite rate\n");
			return -EINVAL;
		}
	lg_ab_adjust(&c->an[1], c->nvar - 1, LG_COMPARE_ALPHA);
	return 0;
}

/* --fail-if-slower: true when a variant is slower than A by more than PCT (each said). */
static bool any_slower(const struct ab_ctx *c)
{
	bool any = false;

	for (size_t i = 1; i < c->nvar; i++) {
		const struct lg_ab_analysis *an = &c->an[i];

		if (!lg_ab_slower_than(an, LG_COMPARE_ALPHA, c->slower_pct))
			continue;
		fprintf(stderr, "loadgen ab: --fail-if-slower %g: '%s' is %.2f %% slower than "
			"'%s' (%sp %.3g)\n", c->slower_pct, c->v[i].name, -an->change_pct,
			c->v[0].name, c->nvar > 2 ? "Holm-adjusted " : "", an->p_adjusted);
		any = true;
	}
	return any;
}

/* The analysis of the finished rounds: files, text, JSON. The exit status. */
static int conclude(struct ab_ctx *c, int status)
{
	char err[1024];
	json_t *doc;

	for (size_t i = 0; i < c->nvar; i++)
		if (lg_ab_variant_write(c, &c->v[i], c->done))
			status = status ? status : EXIT_ERRORS;
	if (analyze_all(c))
		return status ? status : EXIT_ERRORS;
	lg_ab_print(c);
	if (c->json_path) {
		doc = lg_ab_json(c);
		if (!doc || lg_result_json_write(c->json_path, doc, err, sizeof(err))) {
			fprintf(stderr, "loadgen ab: --json %s\n", doc ? err : "out of memory");
			status = status ? status : EXIT_ERRORS;
		}
		json_decref(doc);
	}
	if (!status && c->fail_if_slower && any_slower(c))
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
	lg_signals_install(on_signal);
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
	status = lg_ab_parse(c, argc, argv);
	if (!status)
		status = ab_run(c);
	for (size_t i = 0; i < LG_AB_MAX_VARIANTS; i++) {
		free(c->v[i].optbuf);
		json_decref(c->v[i].doc);
		json_decref(c->v[i].pending);
	}
	json_decref(c->cleanup_errors);
	free(c);
	return status;
}
