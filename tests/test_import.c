/* import.c: `loadgen import` -- its options and usage errors (exit 2), a dbench
 * loadfile converted to YAML that loads back to the same ops, input errors with the
 * file's name, and output errors. stderr and stdout are captured through files. */
#include "loadgen/app/import.h"

#include <errno.h>
#include <fcntl.h>
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

#include "loadgen/load/loadfile.h"
#include "loadgen/load/yaml_load.h"

static char out[2][8192]; /* what the last call wrote to stdout, stderr */

static const char *path_of(const char *name)
{
	static char p[2][128];
	static int k;

	k ^= 1;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

/* Run `loadgen import ARGS...` (NULL-terminated), capturing stdout and stderr. */
static int import(const char *first, ...)
{
	char *argv[16] = { "import", (char *)first };
	int argc = 2, saved[2], rc;
	char cap[2][128];
	va_list ap;

	snprintf(cap[0], sizeof(cap[0]), "%s/stdout", dir);
	snprintf(cap[1], sizeof(cap[1]), "%s/stderr", dir);
	va_start(ap, first);
	while (first && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	if (!first)
		argc = 1;
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < 2; i++) {
		int fd = open(cap[i], O_RDWR | O_CREAT | O_TRUNC, 0644);

		saved[i] = dup(1 + i);
		dup2(fd, 1 + i);
		close(fd);
	}
	rc = lg_import_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(cap[i], "r");
		size_t n = fread(out[i], 1, sizeof(out[i]) - 1, f);

		out[i][n] = '\0';
		fclose(f);
		dup2(saved[i], 1 + i);
		close(saved[i]);
	}
	return rc;
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(path_of(name), "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_usage(void **state)
{
	(void)state;
	assert_int_equal(import("--help", NULL), 0);
	assert_non_null(strstr(out[0], "import"));
	assert_int_equal(import(NULL), 2);
	assert_non_null(strstr(out[1], "missing the loadfile to convert"));
	assert_int_equal(import("--bogus", NULL), 2);
	assert_non_null(strstr(out[1], "unknown option '--bogus'"));
	assert_int_equal(import("a", "b", NULL), 2);
	assert_non_null(strstr(out[1], "more than one input file: b"));
	assert_int_equal(import("a", "-o", NULL), 2);
	assert_non_null(strstr(out[1], "option '-o' needs a value"));
	assert_int_equal(import("a", "--output=", NULL), 2);
	assert_non_null(strstr(out[1], "empty output file name"));
}

static const char *const DB =
	"NTCreateX \"\\clients\\client1\\f\" 0x0 0x2 7 NT_STATUS_OK\n"
	"WriteX 7 0 4096 4096 NT_STATUS_OK\n"
	"ReadX 7 0 4096 4096 NT_STATUS_OK\n"
	"Close 7 NT_STATUS_OK\n"
	"Unlink \"\\clients\\client1\\f\" NT_STATUS_OK\n";

/* A dbench file converted: the YAML loads to the same run ops. */
static void test_convert(void **state)
{
	struct lg_workload *a, *b;
	char err[512], *text;
	size_t len;

	(void)state;
	put("c.txt", DB);
	assert_int_equal(import(path_of("c.txt"), "-o", path_of("c.yaml"), NULL), 0);
	assert_string_equal(out[1], "");
	assert_int_equal(lg_loadfile_read(path_of("c.yaml"), &text, &len), 0);
	assert_int_equal(lg_yaml_load("c.yaml", text, len, NULL, 0, 1, &b, err, sizeof(err)), 0);
	free(text);
	assert_int_equal(lg_loadfile_compile("c.txt", DB, strlen(DB), NULL, 0, 1, &a, err,
					     sizeof(err)), 0);
	assert_int_equal(a->nops[LG_PHASE_RUN], b->nops[LG_PHASE_RUN]);
	for (size_t i = 0; i < a->nops[LG_PHASE_RUN]; i++) {
		const struct lg_op *x = &a->ops[LG_PHASE_RUN][i], *y = &b->ops[LG_PHASE_RUN][i];

		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->size, y->size);
		assert_int_equal(x->offset, y->offset);
		assert_int_equal(x->expect, y->expect);
		assert_string_equal(a->types[x->type], b->types[y->type]);
	}
	lg_workload_destroy(a);
	lg_workload_destroy(b);
	/* to stdout without -o */
	assert_int_equal(import(path_of("c.txt"), NULL), 0);
	assert_non_null(strstr(out[0], "ntcreate:"));
}

static void test_errors(void **state)
{
	(void)state;
	assert_int_equal(import(dir, NULL), 2);
	assert_non_null(strstr(out[1], "is a directory"));
	assert_int_equal(import(path_of("missing.txt"), NULL), 2);
	assert_non_null(strstr(out[1], "missing.txt: No such file or directory"));
	put("bad.txt", "NTCreateX \"\\f\" 0x0 0x2 7 NT_STATUS_OK\nReadX 8 0 1 1 NT_STATUS_OK\n");
	assert_int_equal(import(path_of("bad.txt"), NULL), 2);
	assert_non_null(strstr(out[1], "bad.txt:2: handle 8 used before it is opened"));
	put("c.txt", DB);
	assert_int_equal(import(path_of("c.txt"), "-o", "/nonexistent-dir/x.yaml", NULL), 2);
	assert_non_null(strstr(out[1], "/nonexistent-dir/x.yaml"));
}

/* An strace trace: told apart by content, converted with -C (required, must exist). */
static void test_trace(void **state)
{
	char t[1024];

	(void)state;
	snprintf(t, sizeof(t),
		 "7 1700000000.000100 openat(AT_FDCWD<%s>, \"f\", O_WRONLY|O_CREAT, 0644) = 3<%s/f> <0.000010>\n"
		 "7 1700000000.000200 write(3<%s/f>, \"x\", 1) = 1 <0.000010>\n"
		 "7 1700000000.000300 close(3<%s/f>) = 0 <0.000010>\n", dir, dir, dir, dir);
	put("t.strace", t);
	assert_int_equal(import(path_of("t.strace"), NULL), 2);
	assert_non_null(strstr(out[1], "an strace trace needs -C DIR, the directory it was "
				       "recorded in: "));
	assert_int_equal(import(path_of("t.strace"), "-C", path_of("nonexistent"), NULL), 2);
	assert_non_null(strstr(out[1], "nonexistent: No such file or directory (-C: the "
				       "directory the trace was recorded in must exist)"));
	assert_int_equal(import(path_of("t.strace"), "-C", path_of("t.strace"), NULL), 2);
	assert_non_null(strstr(out[1], "t.strace: Not a directory (-C: the directory"));
	assert_int_equal(import(path_of("t.strace"), "-C", NULL), 2);
	assert_non_null(strstr(out[1], "option '-C' needs a value"));
	assert_int_equal(import(path_of("t.strace"), "-C", dir, "-o", path_of("t.yaml"), NULL), 0);
	assert_non_null(strstr(out[1], "3 calls in 1 streams"));
	{
		char *text;
		size_t len;

		assert_int_equal(lg_loadfile_read(path_of("t.yaml"), &text, &len), 0);
		assert_non_null(strstr(text, "streams:\n  - name: \"7 proc\"\n    steps:\n"
					     "      - create: {path: \"${client}/f\", as: t7.fd3, "
					     "flags: [write]}\n"));
		free(text);
	}
	/* -C with a loadfile */
	put("c.txt", DB);
	assert_int_equal(import(path_of("c.txt"), "-C", dir, NULL), 2);
	assert_non_null(strstr(out[1], "-C is for strace traces, and this is a loadfile: "));
	/* a trace without -T */
	put("bad.strace", "7 1700000000.000100 unlink(\"f\") = 0\n");
	assert_int_equal(import(path_of("bad.strace"), "-C", dir, NULL), 2);
	assert_non_null(strstr(out[1], "bad.strace:1:36: not an strace -f -ttt -T -y trace: no "
				       "call duration"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_usage, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_convert, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_errors, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_trace, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
