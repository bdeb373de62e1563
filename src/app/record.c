/* `loadgen record`: a program's filesystem calls in a directory, as a workload.
 *
 * The flow: check the command line, that strace is there and the directory exists;
 * snapshot the directory's tree (record_tree.c: the workload's setup); measure strace's
 * overhead per traced call here (record_strace.c: subtracted from the think times); run
 * the program under strace in the directory, or attach to a process for a while; convert
 * the trace (load/trace.c: lg_trace_convert) into the workload, written to a temporary
 * file beside OUT and renamed over it, as import does; then say what was kept and what
 * was left out. The raw trace lives in a temporary file (beside --keep-trace's FILE,
 * which it becomes, else in $TMPDIR) that no exit path leaves behind. */
#include "loadgen/app/record.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "loadgen/load/trace.h"
#include "loadgen/model/cli.h"
#include "loadgen/model/paths.h"
#include "loadgen/model/units.h"
#include "record_strace.h"
#include "record_timing.h"
#include "record_tree.h"
#include "tmpout.h"

#define EXIT_USAGE 2
#define EXIT_INTERRUPT 130
#define CALIBRATE_CALLS 5000 /* newfstatat calls timed with and without strace */
#define FIT_WARN 0.10        /* a fitted replay further off than this is said */

/* What the command line asked for. */
struct rec_cli {
	const char *out;        /* -o OUT.yaml */
	const char *dir;        /* -C DIR; NULL: the current one (the process's, --attach) */
	const char *name;       /* --name N; NULL: the program's name */
	const char *keep_trace; /* --keep-trace FILE; NULL: the trace is removed */
	pid_t attach;           /* --attach PID; 0: run the command */
	uint64_t for_ns;        /* --for DURATION (with --attach) */
	unsigned timing_runs;   /* --timing-runs N; 0: think times from the trace alone */
	char **cmd;             /* the command and its arguments (NULL-terminated), or NULL */
};

/* One recording. */
struct rec {
	struct rec_cli c;             /* the command line */
	char dir[PATH_MAX];           /* the recorded directory, absolute */
	char out_abs[PATH_MAX];       /* OUT, absolute (not an entry of the tree) */
	char keep_abs[PATH_MAX];      /* --keep-trace's FILE, absolute, or "" */
	char trace[PATH_MAX];         /* the temporary trace file, or "" */
	char *command;                /* the command as one line (owned) */
	char name[256];               /* the workload's name */
	struct lg_rec_strace st;      /* strace */
	struct lg_rec_tree tree;      /* the directory before the program ran */
	uint64_t overhead_ns;         /* strace's overhead per traced call */
	int exit_status;              /* the program's; -1 attached (it goes on) */
	struct lg_rec_untraced u;     /* --timing-runs: the program's untraced runs */
	double untraced_median;       /* --timing-runs: their median elapsed seconds */
	struct lg_rec_fit fit;        /* the think times' fit to it */
	char kernel[65], date[32];    /* provenance: uname -r, the start in UTC */
};

enum { OPT_NAME = 256, OPT_KEEP_TRACE, OPT_ATTACH, OPT_FOR, OPT_TIMING_RUNS };

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "directory", required_argument, NULL, 'C' },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "keep-trace", required_argument, NULL, OPT_KEEP_TRACE },
	{ "attach", required_argument, NULL, OPT_ATTACH },
	{ "for", required_argument, NULL, OPT_FOR },
	{ "timing-runs", required_argument, NULL, OPT_TIMING_RUNS },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen record -o OUT.yaml [-C DIR] [--name N] [--keep-trace FILE]\n"
		"                      [--timing-runs N]\n"
		"                      -- COMMAND [ARGS...]\n"
		"       loadgen record -o OUT.yaml [-C DIR] [--name N] [--keep-trace FILE]\n"
		"                      --attach PID --for DURATION\n"
		"Run COMMAND in DIR under strace (or attach to process PID for DURATION) and\n"
		"write its filesystem calls in DIR as a loadgen workload: its setup recreates\n"
		"what DIR held before (directories, file sizes, symlinks), and each traced\n"
		"thread or process becomes a stream of calls with its think times, for\n"
		"'loadgen -c OUT.yaml NCLIENTS' to replay in each client's own copy. Calls\n"
		"outside DIR are left out and counted; data written is not kept (only sizes).\n"
		"The program's input, output and exit status are its own; the summary goes to\n"
		"standard error. Needs strace (Debian package strace).\n\n"
		"  -o, --output OUT       the workload to write (atomically)\n"
		"  -C, --directory DIR    the directory the program works in, where it runs\n"
		"                         (default: the current one; with --attach, the\n"
		"                         process's current directory)\n"
		"      --name N           the workload's name (default: the program's)\n"
		"      --keep-trace FILE  keep strace's raw trace in FILE\n"
		"      --attach PID       trace the running process PID and its threads\n"
		"                         (and what it starts) instead of a command\n"
		"      --for DURATION     with --attach: how long to trace (30s, 2m; a bare\n"
		"                         number is seconds); the process goes on afterwards\n"
		"      --timing-runs N    first run COMMAND N times without strace, each on DIR\n"
		"                         as it was (copied beside DIR and put back after each\n"
		"                         run), and fit the think times to their median, one\n"
		"                         more run beside each step of the fit: the command\n"
		"                         runs N + 1 times and up to 7 more, with its side\n"
		"                         effects outside DIR. Without it the think times are\n"
		"                         estimated from the trace, where strace's own cost is\n"
		"                         most of each gap (see loadgen-record(1))\n"
		"  -h, --help             this help\n"
		"Exit status: 0 recorded (whatever the program's own exit status), 2 usage, no\n"
		"strace, no DIR or a trace that does not convert, 130 interrupted.\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
	return lg_cli_usage_error("record", fmt, arg);
}

static int parse_option(struct rec_cli *c, int opt, char *arg, char **argv)
{
	const char *why;
	uint64_t v;

	switch (opt) {
	case 'o': c->out = arg; break;
	case 'C': c->dir = arg; break;
	case OPT_NAME: c->name = arg; break;
	case OPT_KEEP_TRACE: c->keep_trace = arg; break;
	case OPT_ATTACH:
		if (lg_parse_count(arg, &v, &why) || v == 0 || v > INT_MAX)
			return bad_usage("invalid --attach '%s': expected a process id", arg);
		c->attach = (pid_t)v;
		break;
	case OPT_FOR:
		if (lg_parse_duration(arg, &c->for_ns, &why) || c->for_ns == 0)
			return bad_usage("invalid --for '%s': expected a duration > 0 (30s, 2m)",
					 arg);
		break;
	case OPT_TIMING_RUNS:
		if (lg_parse_count(arg, &v, &why) || v == 0 || v > LG_REC_MAX_TIMING_RUNS)
			return bad_usage("invalid --timing-runs '%s': expected a count of 1 to "
					 "15", arg);
		c->timing_runs = (unsigned)v;
		break;
	case 'h': usage(stdout); return -1;
	default: return lg_cli_bad_option("record", long_options, argv, opt);
	}
	return 0;
}

/* The command line into c. 0, -1 after --help, or a usage error's exit status. */
static int parse_cli(int argc, char **argv, struct rec_cli *c)
{
	int opt, rc;

	*c = (struct rec_cli){ 0 };
	optind = 1;
	opterr = 0; /* our own messages: lg_cli_bad_option */
	/* '+': the options end at the command, whose own options are its own */
	while ((opt = getopt_long(argc, argv, "+:o:C:h", long_options, NULL)) != -1)
		if ((rc = parse_option(c, opt, optarg, argv)))
			return rc;
	if (optind < argc)
		c->cmd = argv + optind;
	if (!c->out || !*c->out)
		return bad_usage("%s", "missing -o OUT.yaml (the workload to write)");
	if (c->attach && c->cmd)
		return bad_usage("--attach traces a running process: no command (got '%s')",
				 c->cmd[0]);
	if (!c->attach && !c->cmd)
		return bad_usage("%s", "missing the command to record (after --), or --attach PID");
	if (c->attach && !c->for_ns)
		return bad_usage("%s", "--attach needs --for DURATION (how long to trace)");
	if (!c->attach && c->for_ns)
		return bad_usage("%s", "--for goes with --attach PID");
	if (c->attach && c->timing_runs)
		return bad_usage("%s", "--timing-runs runs the command: it cannot go with --attach");
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	lg_rec_stop = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* path made absolute through its directory's real path (the file itself need not exist)
 * into out (PATH_MAX). 0 or a negative errno. */
static int abs_path(const char *path, char *out)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int n;

	if (!slash)
		n = snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		n = snprintf(dir, sizeof(dir), "/");
	else
		n = snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (n < 0 || (size_t)n >= sizeof(dir) || !realpath(dir, real))
		return -ENOENT;
	n = snprintf(out, PATH_MAX, "%s/%s", strcmp(real, "/") ? real : "",
		     slash ? slash + 1 : path);
	return n > 0 && n < PATH_MAX ? 0 : -ENAMETOOLONG;
}

/* The recorded directory: -C, the attached process's cwd, or ours; it must exist. */
static int resolve_dir(struct rec *r)
{
	char proc[64], cwd[PATH_MAX];
	const char *dir = r->c.dir ? r->c.dir : ".";
	struct stat st;
	ssize_t n;

	if (!r->c.dir && r->c.attach) {
		snprintf(proc, sizeof(proc), "/proc/%d/cwd", (int)r->c.attach);
		if ((n = readlink(proc, cwd, sizeof(cwd) - 1)) < 0) {
			fprintf(stderr, "loadgen record: the current directory of process %d: %s "
				"(give it with -C DIR)\n", (int)r->c.attach, strerror(errno));
			return EXIT_USAGE;
		}
		cwd[n] = '\0';
		dir = cwd;
	}
	if (!realpath(dir, r->dir) || stat(r->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "loadgen record: directory %s: %s\n", dir,
			errno ? strerror(errno) : "not a directory");
		return EXIT_USAGE;
	}
	return 0;
}

/* argv as one shell-like line: words with blanks or quotes in single quotes. */
static char *join_command(char *const *argv)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; argv[i]; i++)
		len += 4 * strlen(argv[i]) + 3;
	if (!(s = p = malloc(len)))
		return NULL;
	for (size_t i = 0; argv[i]; i++) {
		bool quote = !*argv[i] || strpbrk(argv[i], " \t\n'\"\\$`*?;&|<>()") != NULL;

		if (i)
			*p++ = ' ';
		if (quote)
			*p++ = '\'';
		for (const char *a = argv[i]; *a; a++) {
			if (*a == '\'' && quote) {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else {
				*p++ = *a;
			}
		}
		if (quote)
			*p++ = '\'';
	}
	*p = '\0';
	return s;
}

/* A file of /proc/PID read into buf (NULs made spaces, the last newline dropped). */
static int read_proc(pid_t pid, const char *what, char *buf, size_t len)
{
	char path[64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	if (!(f = fopen(path, "r")))
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	return 0;
}

/* The command, the workload's name and the provenance's kernel and date. */
static int describe(struct rec *r)
{
	char line[4096];
	struct utsname u;
	time_t now = time(NULL);
	const char *base;

	if (r->c.attach) {
		if (read_proc(r->c.attach, "cmdline", line, sizeof(line)) ||
		    read_proc(r->c.attach, "comm", r->name, sizeof(r->name))) {
			fprintf(stderr, "loadgen record: --attach %d: no such process\n",
				(int)r->c.attach);
			return EXIT_USAGE;
		}
		r->command = strdup(line);
	} else {
		r->command = join_command(r->c.cmd);
		base = strrchr(r->c.cmd[0], '/');
		snprintf(r->name, sizeof(r->name), "%s", base ? base + 1 : r->c.cmd[0]);
	}
	if (r->c.name)
		snprintf(r->name, sizeof(r->name), "%s", r->c.name);
	snprintf(r->kernel, sizeof(r->kernel), "%s", uname(&u) == 0 ? u.release : "unknown");
	strftime(r->date, sizeof(r->date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	return r->command ? 0 : EXIT_USAGE;
}

/* The outputs: not the same file, writable by a rename; their absolute names. */
static int check_outputs(struct rec *r)
{
	char err[1024];
	const struct rec_cli *c = &r->c;

	if (lg_paths_distinct((struct lg_named_path[]){
			{ .what = "-o", .path = c->out, .output = true },
			{ .what = "--keep-trace", .path = c->keep_trace, .output = true } },
			2, err, sizeof(err)) ||
	    lg_path_check_output(c->out, err, sizeof(err)) ||
	    (c->keep_trace && lg_path_check_output(c->keep_trace, err, sizeof(err)))) {
		fprintf(stderr, "loadgen record: %s\n", err);
		return EXIT_USAGE;
	}
	if (abs_path(c->out, r->out_abs) ||
	    (c->keep_trace && abs_path(c->keep_trace, r->keep_abs))) {
		fprintf(stderr, "loadgen record: %s: cannot resolve its directory\n",
			c->keep_trace ? c->keep_trace : c->out);
		return EXIT_USAGE;
	}
	/* the runs beside the fit put DIR back as it was: the trace, being written beside
	 * FILE until the end, would go with it */
	if (c->timing_runs && r->keep_abs[0] && !strncmp(r->keep_abs, r->dir, strlen(r->dir)) &&
	    r->keep_abs[strlen(r->dir)] == '/') {
		fprintf(stderr, "loadgen record: --keep-trace %s is inside %s: with --timing-runs "
			"the program's runs put %s back as it was; keep the trace elsewhere\n",
			c->keep_trace, r->dir, r->dir);
		return EXIT_USAGE;
	}
	return 0;
}

/* What must hold before anything runs; 0 or the exit status. */
static int preflight(struct rec *r)
{
	int rc;

	if (lg_rec_strace_find(&r->st)) {
		fprintf(stderr, "loadgen record: strace not found: install Debian package "
			"strace\n");
		return EXIT_USAGE;
	}
	if ((rc = resolve_dir(r)) || (rc = check_outputs(r)) || (rc = describe(r)))
		return rc;
	if (r->c.cmd && !lg_rec_command_found(r->c.cmd[0], r->dir)) {
		fprintf(stderr, "loadgen record: %s: command not found\n", r->c.cmd[0]);
		return EXIT_USAGE;
	}
	if (r->c.attach) {
		r->st.seccomp = false;
		snprintf(r->st.note, sizeof(r->st.note),
			 "strace does not use --seccomp-bpf on a process it attaches to");
	}
	return 0;
}

/* A temporary file for the trace: beside --keep-trace's FILE (renamed to it at the
 * end), else in $TMPDIR. 0 or the exit status. */
static int make_trace_tmp(struct rec *r)
{
	const char *tmpdir = getenv("TMPDIR");
	int n, fd;

	if (r->keep_abs[0])
		n = snprintf(r->trace, sizeof(r->trace), "%s.XXXXXX", r->keep_abs);
	else
		n = snprintf(r->trace, sizeof(r->trace), "%s/loadgen-record.XXXXXX",
			     tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (n < 0 || (size_t)n >= sizeof(r->trace) || (fd = mkstemp(r->trace)) < 0) {
		fprintf(stderr, "loadgen record: a temporary file for the trace (%s): %s\n",
			r->trace, strerror(n < 0 || (size_t)n >= sizeof(r->trace) ?
						   ENAMETOOLONG : errno));
		r->trace[0] = '\0';
		return EXIT_USAGE;
	}
	close(fd);
	return 0;
}

/* --timing-runs: the program run N times without the tracer on DIR as it was
 * (record_timing.c). 0 or the exit status; the copy is removed by lg_record_main. */
static int untraced_runs(struct rec *r)
{
	char err[1024] = "";
	int rc;

	r->u.dir = r->dir;
	r->u.cmd = r->c.cmd;
	rc = lg_rec_untraced_runs(&r->u, r->c.timing_runs, err, sizeof(err));
	r->untraced_median = lg_rec_untraced_median(&r->u);

	if (rc == -EINTR || lg_rec_stop)
		return EXIT_INTERRUPT;
	if (rc)
		fprintf(stderr, "loadgen record: %s\n", err);
	return rc ? EXIT_USAGE : 0;
}

/* Snapshot the tree, measure strace's overhead, then trace the program. 0 or the exit
 * status (EXIT_INTERRUPT when stopped). */
static int trace(struct rec *r)
{
	const char *skip[] = { r->out_abs, r->keep_abs };
	char err[1024] = "";
	int rc;

	if (lg_rec_tree_snapshot(r->dir, skip, r->keep_abs[0] ? 2 : 1, &r->tree, err,
				 sizeof(err))) {
		fprintf(stderr, "loadgen record: the tree of %s: %s\n", r->dir, err);
		return EXIT_USAGE;
	}
	if (r->c.timing_runs && (rc = untraced_runs(r)))
		return rc;
	if (lg_rec_stop || (rc = make_trace_tmp(r)))
		return lg_rec_stop ? EXIT_INTERRUPT : rc;
	rc = lg_rec_calibrate(&r->st, r->dir, r->trace, CALIBRATE_CALLS, &r->overhead_ns, err,
			      sizeof(err));
	if (!rc && r->st.note[0])
		fprintf(stderr, "loadgen record: without --seccomp-bpf (the traced program runs "
			"slower): %s\n", r->st.note);
	if (!rc && r->c.attach) {
		rc = lg_rec_strace_attach(&r->st, r->c.attach, r->c.for_ns, r->trace, err,
					  sizeof(err));
		r->exit_status = -1;
	} else if (!rc) {
		rc = lg_rec_strace_run(&r->st, r->dir, r->c.cmd, r->trace, &r->exit_status, err,
				       sizeof(err));
	}
	if (rc == -EINTR || lg_rec_stop)
		return EXIT_INTERRUPT;
	if (rc)
		fprintf(stderr, "loadgen record: %s\n", err);
	return rc ? EXIT_USAGE : 0;
}

/* The trace into the workload, written to a temporary file beside OUT (*tmp, owned),
 * with the think times fitted when r->fit says so. 0 or a negative errno with err. */
static int convert_to_tmp(struct rec *r, bool fitted, const char *base,
			  struct lg_trace_summary *sum, char **tmp, char *err, size_t errlen)
{
	static const struct lg_tree_entry empty; /* an empty tree, not "infer it" */
	char tracer[512];
	const char *in_name = r->c.keep_trace ? r->c.keep_trace : "strace's trace";
	FILE *in = fopen(r->trace, "r"), *out = NULL;
	int rc = in ? lg_tmpout_open(base, tmp, &out) : -errno;
	struct lg_trace_opts o = {
		.dir = r->dir, .overhead_ns = r->overhead_ns,
		.tree = r->tree.n ? r->tree.e : &empty, .ntree = r->tree.n,
		.name = r->name, .command = r->command, .kernel = r->kernel, .date = r->date,
		.tracer = tracer, .exit_status = r->exit_status,
		.untraced_runs = r->c.timing_runs ? r->u.n : 0, .untraced_s = r->untraced_median,
		.think_scale = fitted ? r->fit.scale : 1, .fit_replay_s = r->fit.replay_s,
	};

	if (!in)
		snprintf(err, errlen, "%.900s: %s", r->trace, strerror(errno));
	snprintf(tracer, sizeof(tracer), "strace %s %s", r->st.version, lg_rec_strace_opts(&r->st));
	*sum = (struct lg_trace_summary){ 0 };
	if (!rc && (rc = lg_trace_convert(in, in_name, &o, out, sum, err, errlen)) == 0 &&
	    lg_rec_stop)
		rc = -EINTR;
	if (out && fclose(out) != 0 && !rc)
		rc = -errno;
	if (in)
		fclose(in);
	if (rc && *tmp) {
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return rc;
}

/* The trace into the workload, written to OUT through a temporary file and a rename.
 * 0 or the exit status, with the message printed. */
static int convert(struct rec *r, struct lg_trace_summary *sum)
{
	char err[1024] = "", *tmp = NULL, *fitted = NULL, fit_base[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	int rc;

	/* the workload the fit replays goes to $TMPDIR: beside OUT it could be in DIR, which
	 * the program's runs beside the fit put back as it was */
	snprintf(fit_base, sizeof(fit_base), "%s/loadgen-record-fit.yaml",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	rc = convert_to_tmp(r, false, r->c.timing_runs ? fit_base : r->c.out, sum, &tmp, err,
			    sizeof(err));
	if (!rc && r->c.timing_runs) { /* the think times' scale, found by replaying tmp */
		fprintf(stderr, "loadgen record: fitting the think times to the untraced runs' "
			"median, %.6f s so far, the program run once more beside each point "
			"(replays by one client in %s)\n", r->untraced_median, r->dir);
		rc = lg_rec_fit_scale("/proc/self/exe", tmp, &r->u, r->c.timing_runs, &r->fit,
				      err, sizeof(err));
		r->untraced_median = r->fit.target_s;
		/* DIR as the traced run left it (said when it cannot be: the copy is kept) */
		if (lg_rec_untraced_end(&r->u) && !rc) {
			rc = -EIO;
			snprintf(err, sizeof(err), "%.900s is not as the traced run left it",
				 r->dir);
		}
	}
	if (!rc && r->c.timing_runs &&
	    !(rc = convert_to_tmp(r, true, r->c.out, sum, &fitted, err, sizeof(err)))) {
		unlink(tmp);
		free(tmp);
		tmp = fitted;
	}
	if (!rc && lg_rec_stop)
		rc = -EINTR;
	if (tmp && !rc && rename(tmp, r->c.out) != 0) {
		rc = -errno;
		snprintf(err, sizeof(err), "%.900s: %s", r->c.out, strerror(errno));
	}
	if (tmp && rc)
		unlink(tmp);
	free(tmp);
	if (rc == -EINTR)
		return EXIT_INTERRUPT;
	if (rc)
		fprintf(stderr, "loadgen record: %s\n", err[0] ? err : strerror(-rc));
	return rc ? EXIT_USAGE : 0;
}

/* What was recorded, kept and left out, on stderr. */
static void summary(const struct rec *r, const struct lg_trace_summary *s)
{
	FILE *f = stderr;

	if (r->c.attach)
		fprintf(f, "loadgen record: traced process %d (%s) for %.3g s in %s\n",
			(int)r->c.attach, r->command, (double)r->c.for_ns / 1e9, r->dir);
	else
		fprintf(f, "loadgen record: recorded %s in %s: exit status %d\n", r->command,
			r->dir, r->exit_status);
	fprintf(f, "  streams: %" PRIu64 ", calls kept: %" PRIu64 "\n", s->streams,
		s->calls_kept);
	fprintf(f, "  left out %" PRIu64 " calls on %" PRIu64 " paths outside %s", s->calls_left_out,
		s->paths_left_out, r->dir);
	fprintf(f, s->example_left_out[0] ? " (e.g. %.256s)\n" : "%s\n", s->example_left_out);
	fprintf(f, "  file mmaps: %" PRIu64 "%s\n", s->file_mmaps,
		s->file_mmaps ? " (their reads and writes are invisible to strace)" : "");
	fprintf(f, "  not replayed:");
	for (size_t i = 0; i < s->n_not_replayed && i < 32; i++)
		fprintf(f, "%s %.32s %" PRIu64, i ? "," : "", s->not_replayed[i].name,
			s->not_replayed[i].count);
	fprintf(f, "%s\n", s->n_not_replayed ? "" : " none");
	fprintf(f, "  strace overhead: %.1f us per traced call (subtracted from think times)\n",
		(double)r->overhead_ns / 1e3);
	if (r->c.timing_runs)
		fprintf(f, "  think times: x %.4g, fitted in %d replays: a replay with "
			"--replay-timing original took %.6f s, the untraced runs' median %.6f s "
			"(%+.1f %%)\n", r->fit.scale, r->fit.replays, r->fit.replay_s,
			r->untraced_median,
			100 * (r->fit.replay_s - r->untraced_median) / r->untraced_median);
	else
		fprintf(f, "  think times: estimated under strace (--timing-runs N measures "
			"them)\n");
	if (r->c.timing_runs && fabs(r->fit.replay_s - r->untraced_median) >
	    FIT_WARN * r->untraced_median)
		fprintf(f, "loadgen record: warning: no think-time scale brings a replay within "
			"%.0f %% of the untraced runs' median (%s)\n", 100 * FIT_WARN,
			r->fit.replay_s > r->untraced_median ? "its calls alone take longer here"
			: "the trace holds too little think time to scale");
	fprintf(f, "  setup: %zu entries of %s before the run\n", r->tree.n, r->dir);
	fprintf(f, "loadgen record: wrote %s\n", r->c.out);
}

/* Remove the trace, or make it --keep-trace's FILE (also when the conversion failed:
 * it is what a bug report needs). */
static void finish_trace(struct rec *r, int status)
{
	if (!r->trace[0])
		return;
	if (r->keep_abs[0] && status != EXIT_INTERRUPT && rename(r->trace, r->keep_abs) == 0)
		return;
	unlink(r->trace);
}

int lg_record_main(int argc, char **argv)
{
	struct lg_trace_summary sum;
	struct rec r = { 0 };
	int status;

	if (argc > 1 && strcmp(argv[1], "--calibrate-child") == 0)
		return lg_rec_calibrate_child(argc, argv);
	status = parse_cli(argc, argv, &r.c);
	if (status)
		return status < 0 ? 0 : status;
	install_signals();
	lg_rec_subreaper();
	if (!(status = preflight(&r)) && !(status = trace(&r)) &&
	    !(status = convert(&r, &sum)))
		summary(&r, &sum);
	finish_trace(&r, status);
	if (status == EXIT_INTERRUPT) {
		lg_rec_kill_orphans();
		fprintf(stderr, "loadgen record: interrupted: nothing written\n");
	}
	lg_rec_untraced_end(&r.u); /* DIR as the traced run left it, the copies removed */
	lg_rec_tree_clear(&r.tree);
	free(r.command);
	return status;
}
