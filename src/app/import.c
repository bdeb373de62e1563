/* `loadgen import`: load a loadfile as a run would (dbench or YAML, told apart by
 * content), then write the compiled workload as YAML; or convert an strace trace (told
 * apart by content too) of a program that worked in directory -C into a recorded
 * workload (lg_trace_convert). The output is written to a temporary file beside OUT and
 * renamed over it, so OUT is never left half-written. */
#include "loadgen/app/import.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loadgen/model/cli.h"
#include "loadgen/load/loadfile.h"
#include "loadgen/load/trace.h"
#include "loadgen/model/paths.h"
#include "loadgen/load/yaml_write.h"
#include "tmpout.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen import FILE [-o OUT] [-C DIR]\n"
		"Convert a dbench loadfile (such as dbench's client.txt) into a loadgen YAML\n"
		"workload that runs the same ops. A YAML workload is written back compiled:\n"
		"parameters resolved, in a canonical form. An strace trace of a program that\n"
		"worked in DIR becomes a recorded workload: one stream per traced thread, its\n"
		"calls on DIR as steps. Take it with\n"
		"  strace -f -ttt -T -y -qq --seccomp-bpf -o FILE CMD\n\n"
		"  -o, --output OUT   write to OUT (atomically); '-' or none: standard output\n"
		"  -C DIR             the directory the traced program worked in (strace traces)\n"
		"  -h, --help         this help\n");
}

static int bad_usage(const char *msg, const char *arg)
{
	return lg_cli_usage_error("import", "%s%s", msg, arg);
}

/* Write wl, or text (len bytes) when wl is NULL, to out ("-": stdout) through a
 * temporary file and a rename. 0 or a negative errno, with the message printed. */
static int write_out(const char *out, const struct lg_workload *wl, const char *text,
		     size_t len)
{
	bool to_stdout = strcmp(out, "-") == 0;
	char err[512] = "", *tmp = NULL;
	FILE *f = stdout;
	int rc = to_stdout ? 0 : lg_tmpout_open(out, &tmp, &f);

	if (!rc && !wl && fwrite(text, 1, len, f) != len)
		rc = errno ? -errno : -EIO;
	else if (!rc && wl && (rc = lg_yaml_write(f, wl, err, sizeof(err))) == -EIO)
		rc = errno ? -errno : -EIO;
	if (tmp) {
		if (fclose(f) != 0 && !rc)
			rc = -errno;
		if (!rc && rename(tmp, out) != 0)
			rc = -errno;
		if (rc)
			unlink(tmp);
		free(tmp);
	}
	if (rc && err[0]) /* the workload has an op YAML cannot say */
		fprintf(stderr, "loadgen import: %s: %s\n", wl->source, err);
	else if (rc)
		fprintf(stderr, "loadgen import: %s: %s\n", to_stdout ? "standard output" : out,
			strerror(-rc));
	return rc;
}

/* What the conversion of a trace left out or cannot replay, on stderr. */
static void tell(const struct lg_trace_summary *s, const char *dir)
{
	fprintf(stderr, "loadgen import: %llu calls in %llu streams; left out %llu calls on "
		"%llu paths outside %s%s%s%s; %llu file mmaps\n", (unsigned long long)s->calls_kept,
		(unsigned long long)s->streams, (unsigned long long)s->calls_left_out,
		(unsigned long long)s->paths_left_out, dir, s->example_left_out[0] ? " (e.g. " : "",
		s->example_left_out, s->example_left_out[0] ? ")" : "",
		(unsigned long long)s->file_mmaps);
	for (size_t i = 0; i < s->n_not_replayed; i++)
		fprintf(stderr, "loadgen import: not replayed: %s %llu\n", s->not_replayed[i].name,
			(unsigned long long)s->not_replayed[i].count);
}

/* Whether path is an strace trace, from its start (a trace may be larger than any
 * loadfile, so it is not read whole). */
static bool is_trace(const char *path)
{
	static char head[64 << 10];
	struct stat st;
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f && !fstat(fileno(f), &st) && S_ISREG(st.st_mode))
		n = fread(head, 1, sizeof(head), f);
	if (f)
		fclose(f);
	return n && lg_trace_sniff(head, n);
}

/* Convert the strace trace path, recorded in dir (-C), into YAML text *yaml. */
static int convert(const char *path, const char *dir, char **yaml, size_t *ylen)
{
	struct lg_trace_opts o = { .tracer = "strace (imported)" };
	struct lg_trace_summary sum;
	char err[1024] = "", *real = realpath(dir, NULL);
	struct stat st;
	FILE *in = NULL, *out = NULL;
	int rc = 0;

	if (!real || stat(real, &st) || !S_ISDIR(st.st_mode)) {
		rc = real && !S_ISDIR(st.st_mode) ? -ENOTDIR : -errno;
		snprintf(err, sizeof(err), "%s: %s (-C: the directory the trace was recorded in "
			 "must exist)", dir, strerror(-rc));
	} else if (!(in = fopen(path, "r")) || !(out = open_memstream(yaml, ylen))) {
		rc = -errno;
		snprintf(err, sizeof(err), "%s: %s", path, strerror(-rc));
	} else {
		o.dir = real;
		rc = lg_trace_convert(in, path, &o, out, &sum, err, sizeof(err));
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	if (rc)
		fprintf(stderr, "loadgen import: %s\n", err);
	else
		tell(&sum, real);
	free(real);
	return rc;
}

/* Load path as a run would: dbench by content, else YAML with its defaults; or an
 * strace trace (by content) converted with dir (-C). *yaml: the converted text. 0, a
 * negative errno (the message printed), or one of these usage errors: */
enum { TRACE_WITHOUT_C = 1, C_WITHOUT_TRACE = 2 };
static int load(const char *path, const char *dir, struct lg_workload **wl, char **yaml,
		size_t *ylen)
{
	char err[1024], *text = NULL;
	size_t len = 0;
	int rc;

	if (is_trace(path))
		return dir ? convert(path, dir, yaml, ylen) : TRACE_WITHOUT_C;
	if ((rc = lg_loadfile_read(path, &text, &len)))
		snprintf(err, sizeof(err), "%s: %s", path, lg_loadfile_strerror(rc));
	else if (dir)
		rc = C_WITHOUT_TRACE;
	else
		rc = lg_loadfile_compile(path, text, len, NULL, 0, 1, wl, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "loadgen import: %s\n", err);
	free(text);
	return rc;
}

int lg_import_main(int argc, char **argv)
{
	static const char *const options[] = { "output", "help", NULL };
	const char *in = NULL, *out = "-", *dir = NULL;
	struct lg_workload *wl = NULL;
	char err[1024], *yaml = NULL;
	size_t ylen = 0;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (++i == argc)
				return lg_cli_usage_error("import", "option '%s' needs a value", a);
			out = argv[i];
		} else if (!strncmp(a, "--output=", 9)) {
			out = a + 9;
		} else if (!strcmp(a, "-C")) {
			if (++i == argc)
				return lg_cli_usage_error("import", "option '%s' needs a value", a);
			dir = argv[i];
		} else if (a[0] == '-' && a[1]) {
			return lg_cli_unknown_option("import", options, a);
		} else if (in) {
			return bad_usage("more than one input file: ", a);
		} else {
			in = a;
		}
	}
	if (!in)
		return bad_usage("missing the loadfile to convert", "");
	if (!*out)
		return bad_usage("empty output file name", "");
	if (lg_paths_distinct((struct lg_named_path[]){ { .what = "the input", .path = in },
			{ .what = "-o", .path = out, .output = true } }, 2, err, sizeof(err)) ||
	    (strcmp(out, "-") != 0 && lg_path_check_output(out, err, sizeof(err)))) {
		fprintf(stderr, "loadgen import: %s\n", err);
		return EXIT_USAGE;
	}
	rc = load(in, dir, &wl, &yaml, &ylen);
	if (rc == TRACE_WITHOUT_C)
		return bad_usage("an strace trace needs -C DIR, the directory it was recorded in: ",
				 in);
	if (rc == C_WITHOUT_TRACE)
		return bad_usage("-C is for strace traces, and this is a loadfile: ", in);
	if (!rc)
		rc = write_out(out, wl, yaml, ylen);
	lg_workload_destroy(wl);
	free(yaml);
	return rc ? EXIT_USAGE : 0;
}
