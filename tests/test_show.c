/* show.c, `loadgen show [WORKLOAD]`: --help and usage errors (exit 2, the two-line form
 * of cli.h), the built-in workload and a file printed as they are with their parameters
 * as YAML comments (widths, types, first uses, none), a dbench loadfile summarised, and
 * files that cannot be read or compiled (exit 2, the error on stderr, nothing on stdout).
 * stdout and stderr are captured in unlinked files and given back before asserting. */
#include "loadgen/app/show.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir_fixture.h"

#include "load/builtin.h"

static char path[2][128], out[2][16384]; /* the last call's stdout and stderr */

/* The path of name in the test's directory, for the next two calls. */
static const char *at(const char *name)
{
	static int k;

	k ^= 1;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	return path[k];
}

static const char *put(const char *name, const char *text)
{
	const char *p = at(name);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

/* `loadgen show ARGS...` (NULL-terminated), with stdout and stderr in out[0], out[1]. */
static int show(const char *first, ...)
{
	char *argv[8] = { "show" };
	int argc = 1, saved[2], fd[2], rc;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && argc < 7; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < 2; i++) {
		char tmp[] = "/tmp/lg-show-out.XXXXXX";

		fd[i] = mkstemp(tmp);
		unlink(tmp);
		saved[i] = dup(1 + i);
		dup2(fd[i], 1 + i);
	}
	rc = lg_show_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < 2; i++) {
		ssize_t n = pread(fd[i], out[i], sizeof(out[i]) - 1, 0);

		out[i][n > 0 ? n : 0] = '\0';
		dup2(saved[i], 1 + i);
		close(saved[i]);
		close(fd[i]);
	}
	return rc;
}

#define USAGE								\
	"Usage: loadgen show [WORKLOAD]\n"				\
	"Print a workload and its parameters (name, default, type, first use). WORKLOAD\n" \
	"is found as -c finds it: a file, or a shipped loadfile by name (fileserver).\n" \
	"Without WORKLOAD: the built-in netbench that runs when -c is not given; save it\n" \
	"with 'loadgen show > netbench.yaml' to edit it, run it with -c netbench.yaml.\n" \
	"The workload is compiled as a run would: errors exit 2.\n\n"	\
	"  -h, --help   this help\n"
#define TRY "Try 'loadgen show --help' for more information.\n"
#define SIZE "size (B, KiB, MiB, GiB, TiB; kB, MB, GB, TB)"
#define PARAMS "\n# Parameters (set with -p NAME=VALUE; ${clients} and ${client} are built in):\n"

static void test_usage(void **state)
{
	(void)state;
	assert_int_equal(show("--help", NULL), 0);
	assert_string_equal(out[0], USAGE);
	assert_string_equal(out[1], "");
	assert_int_equal(show("a.yaml", "-h", NULL), 0); /* wherever it is */
	assert_string_equal(out[0], USAGE);
	assert_int_equal(show("--bogus", "--help", NULL), 2); /* the first wrong word wins */
	assert_string_equal(out[0], "");
	assert_string_equal(out[1], "loadgen show: unknown option '--bogus'\n" TRY);
	assert_int_equal(show("--hlep", NULL), 2);
	assert_string_equal(out[1], "loadgen show: unknown option '--hlep'; did you mean "
			    "'--help'?\n" TRY);
	assert_int_equal(show("-x", NULL), 2);
	assert_string_equal(out[1], "loadgen show: unknown option '-x'\n" TRY);
	assert_int_equal(show("a.yaml", "b.yaml", NULL), 2);
	assert_string_equal(out[0], "");
	assert_string_equal(out[1], "loadgen show: unexpected argument 'b.yaml' (one workload "
			    "at a time)\n" TRY);
}

/* Without an argument: the built-in text, exactly, and its five size parameters. */
static void test_builtin(void **state)
{
	static const char params[] = PARAMS
		"#   NAME    DEFAULT  TYPE\n"
		"#   small   4KiB     " SIZE ", first used as 'size'\n"
		"#   medium  64KiB    " SIZE ", first used as 'size'\n"
		"#   large   1MiB     " SIZE ", first used as 'size'\n"
		"#   bs      4KiB     " SIZE ", first used as 'size'\n"
		"#   save    32KiB    " SIZE ", first used as 'size'\n";
	static const char head[] = "# builtin:netbench: the workload loadgen runs when -c is "
				   "not given.\n";
	size_t hl = strlen(head), tl = lg_builtin_netbench_len;

	(void)state;
	assert_int_equal(show(NULL), 0);
	assert_string_equal(out[1], "");
	assert_int_equal(strlen(out[0]), hl + tl + strlen(params));
	assert_memory_equal(out[0], head, hl);
	assert_memory_equal(out[0] + hl, lg_builtin_netbench, tl);
	assert_string_equal(out[0] + hl + tl, params);
	/* the copy shows the same, without the first line */
	assert_int_equal(show(put("copy.yaml", out[0] + hl), NULL), 0);
	assert_string_equal(out[1], "");
	assert_int_equal(strlen(out[0]), tl + 2 * strlen(params));
	assert_string_equal(out[0] + tl + strlen(params), params);
}

/* A file of one's own: every type, columns as wide as the longest, a final newline
 * added; a parameter that is only part of a value ("${n}ms") is text, whatever the value
 * becomes, until a use of it as a whole; one without parameters. */
static void test_file(void **state)
{
	static const char wl[] =
		"params:\n  bs: 4KiB\n  nap: 10ms\n  n: 3\n  location: data/sub\n  spare: x\n"
		"run:\n  - create: {path: \"${location}/f\", as: f}\n"
		"  - write: {file: f, size: \"${bs}\", count: \"${n}\"}\n"
		"  - sleep: \"${nap}\"\n  - close: f"; /* no newline at the end */

	(void)state;
	assert_int_equal(show(put("w.yaml", wl), NULL), 0);
	assert_string_equal(out[1], "");
	assert_string_equal(out[0], "params:\n  bs: 4KiB\n  nap: 10ms\n  n: 3\n"
		"  location: data/sub\n  spare: x\n"
		"run:\n  - create: {path: \"${location}/f\", as: f}\n"
		"  - write: {file: f, size: \"${bs}\", count: \"${n}\"}\n"
		"  - sleep: \"${nap}\"\n  - close: f\n" PARAMS
		"#   NAME      DEFAULT   TYPE\n"
		"#   bs        4KiB      " SIZE ", first used as 'size'\n"
		"#   nap       10ms      duration (ns, us, ms, s, m, h), first used as 'duration'\n"
		"#   n         3         whole number, first used as 'count'\n"
		"#   location  data/sub  path (relative to the run directory), first used as "
		"'path'\n"
		"#   spare     x         unused\n");
	/* short names and values: the columns as wide as their titles */
	assert_int_equal(show(put("n.yaml", "params: {n: 3}\nrun:\n  - sleep: \"${n}ms\"\n"),
			      NULL), 0);
	assert_string_equal(out[0], "params: {n: 3}\nrun:\n  - sleep: \"${n}ms\"\n" PARAMS
			    "#   NAME  DEFAULT  TYPE\n"
			    "#   n     3        text, first used as 'duration'\n");
	/* d is a duration once it is a whole value; n, part of values only, stays text */
	assert_int_equal(show(put("d.yaml", "params: {n: 3, d: 1ms}\nrun:\n"
				  "  - sleep: \"${n}${d}\"\n  - sleep: \"${d}\"\n"
				  "  - mkdir: \"d${n}\"\n  - rmdir: \"d${n}\"\n"), NULL), 0);
	assert_string_equal(out[1], "");
	assert_string_equal(out[0], "params: {n: 3, d: 1ms}\nrun:\n"
			    "  - sleep: \"${n}${d}\"\n  - sleep: \"${d}\"\n"
			    "  - mkdir: \"d${n}\"\n  - rmdir: \"d${n}\"\n" PARAMS
			    "#   NAME  DEFAULT  TYPE\n"
			    "#   n     3        text, first used as 'duration'\n"
			    "#   d     1ms      duration (ns, us, ms, s, m, h), first used as "
			    "'duration'\n");
	assert_int_equal(show(put("p.yaml", "run:\n  - mkdir: d\n  - rmdir: d\n"), NULL), 0);
	assert_string_equal(out[0], "run:\n  - mkdir: d\n  - rmdir: d\n\n"
			    "# Parameters: none (this workload takes no -p).\n");
}

/* A dbench loadfile is compiled and summarised, never printed. */
static void test_dbench(void **state)
{
	const char *p = put("client.txt", "NTCreateX \"\\clients\\client1\\f\" 0x0 0x2 7 "
			    "NT_STATUS_OK\nReadX 7 0 4096 4096 NT_STATUS_OK\n"
			    "Close 7 NT_STATUS_OK\n");
	char want[512];

	(void)state;
	assert_int_equal(show(p, NULL), 0);
	assert_string_equal(out[1], "");
	snprintf(want, sizeof(want), "# %s: a dbench loadfile; it takes no parameters.\n"
		 "# 'loadgen import %s' writes it as a YAML workload.\n", p, p);
	assert_string_equal(out[0], want);
	p = put("bad.txt", "NTCreateX \"\\f\" 0x0 0x2 7 NT_STATUS_OK\n"
		"ReadX 8 0 1 1 NT_STATUS_OK\n");
	assert_int_equal(show(p, NULL), 2);
	assert_string_equal(out[0], "");
	snprintf(want, sizeof(want), "loadgen show: %s:2: handle 8 used before it is opened\n",
		 p);
	assert_string_equal(out[1], want);
}

/* What cannot be shown: exit 2, one line on stderr naming the file, nothing on stdout. */
static void test_errors(void **state)
{
	const char *p = put("bad.yaml", "run:\n  - wirte: {file: f, size: 1}\n");
	char want[512], cwd[4096];

	(void)state;
	assert_int_equal(show(p, NULL), 2);
	assert_string_equal(out[0], "");
	snprintf(want, sizeof(want), "loadgen show: %s:2:5: unknown op 'wirte'; did you mean "
		 "'write'?\n", p);
	assert_string_equal(out[1], want);
	p = at("missing.yaml");
	assert_int_equal(show(p, NULL), 2);
	assert_string_equal(out[0], "");
	snprintf(want, sizeof(want), "loadgen show: %s: No such file or directory\n", p);
	assert_string_equal(out[1], want);
	assert_int_equal(show(dir, NULL), 2);
	snprintf(want, sizeof(want), "loadgen show: %s: is a directory, not a loadfile\n", dir);
	assert_string_equal(out[1], want);
	/* "-" alone is a file name, not an option */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(show("-", NULL), 2);
	assert_int_equal(chdir(cwd), 0);
	/* not here: looked up as -c would, among the installed loadfiles */
	assert_non_null(strstr(out[1], "loadgen show: -: No such file or directory; no "
				       "installed loadfile of that name"));
	/* after "--", a name that starts with '-' is a file name too */
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(show("--", "-h", NULL), 2);
	assert_int_equal(chdir(cwd), 0);
	assert_non_null(strstr(out[1], "loadgen show: -h: No such file or directory; no "
				       "installed loadfile of that name"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage),
		cmocka_unit_test_setup_teardown(test_builtin, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_file, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_dbench, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_errors, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
