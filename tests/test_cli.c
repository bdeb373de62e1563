/* cli.c: usage errors in one form -- "loadgen[ SUB]: what is wrong", then "Try
 * 'loadgen[ SUB] --help' for more information." on stderr, and exit status 2 --
 * with and without a subcommand; after a real getopt_long run: an unknown long option
 * with and without a close match, an ambiguous prefix, a missing value (long, prefix
 * and short), a value given to an option that takes none, an unknown short option; the
 * hand-written parsers' unknown option; always "loadgen", whatever path argv[0] holds.
 * fd 2 is captured in an unlinked file and given back before anything is asserted. */
#include "loadgen/model/cli.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define PROG "/opt/lg/bin/loadgen-dev" /* argv[0]: never printed */

/* Two options share the prefix "dir" and differ in has_arg, so glibc calls it
 * ambiguous. */
static const struct option opts[] = {
	{ "directory", required_argument, NULL, 'D' },
	{ "direct", no_argument, NULL, 1 },
	{ "quiet", no_argument, NULL, 'q' },
	{ "json", required_argument, NULL, 2 },
	{ NULL, 0, NULL, 0 },
};

static int saved_fd = -1; /* the test's own stderr while fd 2 is captured */
static int file_fd = -1;  /* the capture file (unlinked) */
static char out[4096];    /* what reached it, NUL-terminated */

static void capture_start(void)
{
	char path[] = "/tmp/lg_test_cli_XXXXXX";

	fflush(stderr);
	file_fd = mkstemp(path);
	assert_true(file_fd >= 0);
	unlink(path);
	saved_fd = dup(STDERR_FILENO);
	assert_true(saved_fd >= 0);
	assert_int_equal(dup2(file_fd, STDERR_FILENO), STDERR_FILENO);
}

/* Give fd 2 back; what was written goes to out. */
static void capture_end(void)
{
	ssize_t n;

	fflush(stderr);
	n = pread(file_fd, out, sizeof(out) - 1, 0);
	dup2(saved_fd, STDERR_FILENO);
	close(saved_fd);
	close(file_fd);
	assert_true(n >= 0);
	out[n] = '\0';
}

/* getopt_long over argv (NULL-terminated) from the start, as the parsers call it, up to
 * its first complaint: '?' or ':'. */
static int first_bad(char **argv)
{
	int argc = 0, opt;

	while (argv[argc])
		argc++;
	optind = 0; /* glibc: start over, forgetting the last scan */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":D:qc:", opts, NULL)) != -1)
		if (opt == '?' || opt == ':')
			return opt;
	return -1;
}

/* Run getopt_long on argv, then lg_cli_bad_option for sub: want is the first line it
 * must print (the "Try" line is added here), and it must return 2. */
static void check_bad(const char *sub, char **argv, int want_opt, const char *want)
{
	char full[1024];
	int opt = first_bad(argv), rc;

	assert_int_equal(opt, want_opt);
	capture_start();
	rc = lg_cli_bad_option(sub, opts, argv, opt);
	capture_end();
	snprintf(full, sizeof(full), "%s\nTry 'loadgen%s%s --help' for more information.\n",
		 want, sub ? " " : "", sub ? sub : "");
	assert_int_equal(rc, 2);
	assert_string_equal(out, full);
}

static void test_usage_error(void **state)
{
	int rc1, rc2;

	(void)state;
	capture_start();
	rc1 = lg_cli_usage_error(NULL, "missing %s (%d)", "NCLIENTS", 7);
	rc2 = lg_cli_usage_error("compare", "%s", "need two files");
	capture_end();
	assert_int_equal(rc1, LG_EXIT_USAGE);
	assert_int_equal(rc2, 2);
	assert_string_equal(out, "loadgen: missing NCLIENTS (7)\n"
			    "Try 'loadgen --help' for more information.\n"
			    "loadgen compare: need two files\n"
			    "Try 'loadgen compare --help' for more information.\n");
}

static void test_unknown_long(void **state)
{
	char *typo[] = { PROG, "-q", "--directroy", "x", NULL };
	char *typo_value[] = { PROG, "--jsno=out.json", "4", NULL };
	char *far[] = { PROG, "--frobnicate", NULL };

	(void)state;
	check_bad(NULL, typo, '?', "loadgen: unknown option '--directroy'; did you mean "
		  "'--directory'?");
	check_bad("compare", typo_value, '?', "loadgen compare: unknown option "
		  "'--jsno=out.json'; did you mean '--json'?");
	check_bad(NULL, far, '?', "loadgen: unknown option '--frobnicate'");
}

static void test_ambiguous(void **state)
{
	char *plain[] = { PROG, "--dir", "x", NULL };
	char *valued[] = { PROG, "--dir=x", NULL };

	(void)state;
	check_bad(NULL, plain, '?', "loadgen: option '--dir' is ambiguous; it could be "
		  "--directory, --direct");
	check_bad("ab", valued, '?', "loadgen ab: option '--dir' is ambiguous; it could be "
		  "--directory, --direct");
}

/* A missing value: named in full even when typed as a unique prefix. */
static void test_missing_value(void **state)
{
	char *exact[] = { PROG, "-q", "--json", NULL };
	char *prefix[] = { PROG, "--js", NULL };
	char *shortopt[] = { PROG, "-q", "-c", NULL };
	char *bundled[] = { PROG, "-qc", NULL };

	(void)state;
	check_bad(NULL, exact, ':', "loadgen: option '--json' needs a value");
	check_bad("report", prefix, ':', "loadgen report: option '--json' needs a value");
	check_bad(NULL, shortopt, ':', "loadgen: option '-c' needs a value");
	check_bad(NULL, bundled, ':', "loadgen: option '-c' needs a value");
}

static void test_value_not_wanted(void **state)
{
	char *exact[] = { PROG, "--quiet=yes", NULL };
	char *prefix[] = { PROG, "--qu=1", NULL };
	char *prefixed_by_other[] = { PROG, "--direct=1", NULL }; /* also starts --directory */

	(void)state;
	check_bad(NULL, exact, '?', "loadgen: option '--quiet' takes no value (in "
		  "'--quiet=yes')");
	check_bad(NULL, prefix, '?', "loadgen: option '--quiet' takes no value (in '--qu=1')");
	check_bad(NULL, prefixed_by_other, '?', "loadgen: option '--direct' takes no value "
		  "(in '--direct=1')");
}

static void test_unknown_short(void **state)
{
	char *alone[] = { PROG, "-x", NULL };
	char *bundled[] = { PROG, "-qx", "4", NULL };
	char *first_of_two[] = { PROG, "-xq", NULL }; /* getopt stays on this word */
	char *after_long[] = { PROG, "--quiet", "-xq", "4", NULL }; /* ...after a long one */
	char *after_value[] = { PROG, "--json=out.json", "-Xq", "4", NULL };

	(void)state;
	check_bad(NULL, alone, '?', "loadgen: unknown option '-x'");
	check_bad("show", bundled, '?', "loadgen show: unknown option '-x'");
	check_bad(NULL, first_of_two, '?', "loadgen: unknown option '-x'");
	check_bad(NULL, after_long, '?', "loadgen: unknown option '-x'");
	check_bad(NULL, after_value, '?', "loadgen: unknown option '-X'");
}

/* The hand-written parsers (import, show): the word before '=' is compared, with or
 * without its dashes; a suggestion is always a long option. */
static void test_unknown_option(void **state)
{
	static const char *const names[] = { "since", "until", "output", NULL };
	int rc[5];

	(void)state;
	capture_start();
	rc[0] = lg_cli_unknown_option("import", names, "--sinse=3");
	rc[1] = lg_cli_unknown_option(NULL, names, "-outpt");
	rc[2] = lg_cli_unknown_option("show", names, "--zzzzzzzz");
	rc[3] = lg_cli_unknown_option("show", names, "-x");
	rc[4] = lg_cli_unknown_option("import", names, "-output"); /* one dash short */
	capture_end();
	for (int i = 0; i < 5; i++)
		assert_int_equal(rc[i], 2);
	assert_string_equal(out,
			    "loadgen import: unknown option '--sinse=3'; did you mean '--since'?\n"
			    "Try 'loadgen import --help' for more information.\n"
			    "loadgen: unknown option '-outpt'; did you mean '--output'?\n"
			    "Try 'loadgen --help' for more information.\n"
			    "loadgen show: unknown option '--zzzzzzzz'\n"
			    "Try 'loadgen show --help' for more information.\n"
			    "loadgen show: unknown option '-x'\n"
			    "Try 'loadgen show --help' for more information.\n"
			    "loadgen import: unknown option '-output'; did you mean '--output'?\n"
			    "Try 'loadgen import --help' for more information.\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage_error),
		cmocka_unit_test(test_unknown_long),
		cmocka_unit_test(test_ambiguous),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_value_not_wanted),
		cmocka_unit_test(test_unknown_short),
		cmocka_unit_test(test_unknown_option),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
