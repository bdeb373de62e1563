/* Tests of file sets: what a pick step compiles to, how a path with a variable expands
 * into consecutive paths, the limits, and every load error with its line and column. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"

#ifndef LG_SOURCE_DIR
#define LG_SOURCE_DIR "."
#endif

static char err[512];

static int load_ov(const char *text, const struct lg_param *ov, size_t nov,
		   struct lg_workload **wl)
{
	return lg_yaml_load("t.yaml", text, strlen(text), ov, nov, 4, wl, err, sizeof(err));
}

static struct lg_workload *load_ok(const char *text, const struct lg_param *ov, size_t nov)
{
	struct lg_workload *wl = NULL;

	if (load_ov(text, ov, nov, &wl) != 0)
		fail_msg("load failed: %s", err);
	return wl;
}

static const char sets_yaml[] =
	"params:\n"
	"  n: 5\n"
	"setup:\n"
	"  - repeat:\n"
	"      count: \"${n}\"\n"
	"      do:\n"
	"        - pick: {var: k, count: \"${n}\", order: seq}\n"
	"        - create: {path: \"d${client}/f${k}\", as: f}\n"
	"        - close: f\n"
	"run:\n"
	"  - pick: {var: k, count: \"${n}\"}\n"
	"  - open: {path: \"d${client}/f${k}\", as: f, flags: [read]}\n"
	"  - close: f\n"
	"  - pick: {var: j, count: 3, order: random}\n"
	"  - rename: {from: \"d${client}/f${k}\", to: \"t/${j}/x${j}\"}\n"
	"  - stat: \"d${client}/f1\"\n"
	"  - unlink: \"c/${k}\"\n";

/* A pick is a control op with its variable, count and order; the paths that use a
 * variable point at the first of count consecutive expanded paths. */
static void test_pick_compiles(void **state)
{
	struct lg_workload *wl = load_ok(sets_yaml, NULL, 0);
	const struct lg_op *su = wl->ops[LG_PHASE_SETUP], *op = wl->ops[LG_PHASE_RUN];
	char want[64];

	(void)state;
	/* variables: the reserved entry 0, k, j */
	assert_int_equal(wl->nvars, 3);
	assert_string_equal(wl->vars[1].name, "k");
	assert_int_equal(wl->vars[1].count, 5);
	assert_string_equal(wl->vars[2].name, "j");
	assert_int_equal(wl->vars[2].count, 3);
	assert_string_equal(lg_op_kind_name(LG_OP_PICK), "pick");
	/* setup: LOOP PICK create close NEXT */
	assert_int_equal(su[1].kind, LG_OP_PICK);
	assert_int_equal(su[1].var, 1);
	assert_int_equal(su[1].count, 5);
	assert_int_equal(su[1].flags, LG_PICK_SEQ);
	assert_int_equal(su[1].line, 7);
	assert_int_equal(su[2].var, 1);
	for (unsigned v = 0; v < 5; v++) {
		snprintf(want, sizeof(want), "d${client}/f%u", v);
		assert_string_equal(wl->paths[su[2].path + v], want);
	}
	/* run: PICK open close PICK rename stat unlink; the same template is one set */
	assert_int_equal(op[0].kind, LG_OP_PICK);
	assert_int_equal(op[0].flags, LG_PICK_RANDOM);
	assert_int_equal(op[1].path, su[2].path);
	assert_int_equal(op[1].var, 1);
	assert_int_equal(op[3].kind, LG_OP_PICK);
	assert_int_equal(op[3].var, 2);
	assert_int_equal(op[3].flags, LG_PICK_RANDOM);
	assert_int_equal(op[4].path, su[2].path);
	assert_int_equal(op[4].var, 1);
	assert_int_equal(op[4].var2, 2);
	/* a variable used twice in one path: every occurrence is replaced */
	assert_string_equal(wl->paths[op[4].path2], "t/0/x0");
	assert_string_equal(wl->paths[op[4].path2 + 2], "t/2/x2");
	/* a literal path equal to an entry of a set is an ordinary path (it may share the
	 * set's entry: the strings are the same) */
	assert_int_equal(op[5].var, 0);
	assert_string_equal(wl->paths[op[5].path], "d${client}/f1");
	assert_string_equal(wl->paths[op[6].path + 4], "c/4");
	/* 5 + 3 + 5 expanded paths */
	assert_int_equal(wl->nsets, 3);
	assert_int_equal(wl->set_paths, 13);
	assert_true(wl->npaths == 13 || wl->npaths == 14);
	assert_string_equal(lg_workload_set_template(wl, op[4].path2, 2), "t/${j}/x${j}");
	assert_null(lg_workload_set_template(wl, op[4].path2, 1));
	lg_workload_destroy(wl);
}

/* count comes from a parameter: -p changes how many paths a set has. */
static void test_expansion_count(void **state)
{
	const struct lg_param n7[] = { { "n", "7" } };
	struct lg_workload *wl = load_ok(sets_yaml, n7, 1);

	(void)state;
	assert_int_equal(wl->vars[1].count, 7);
	assert_int_equal(wl->set_paths, 7 + 3 + 7);
	assert_string_equal(wl->paths[wl->ops[LG_PHASE_RUN][1].path + 6], "d${client}/f6");
	lg_workload_destroy(wl);
}

/* A pick in the setup phase serves the run phase; 'when' switches a pick like any step. */
static void test_phases_and_when(void **state)
{
	struct lg_workload *wl = load_ok("setup:\n  - pick: {var: k, count: 2}\n"
					 "run:\n  - {pick: {var: j, count: 9}, when: 0}\n"
					 "  - stat: \"a${k}\"\n", NULL, 0);

	(void)state;
	assert_int_equal(wl->nvars, 2);
	assert_int_equal(wl->nops[LG_PHASE_RUN], 1);
	assert_int_equal(wl->ops[LG_PHASE_RUN][0].var, 1);
	lg_workload_destroy(wl);
}

/* One set of 1,000,000 paths is fine; anything beyond the limits is a load error. */
static void test_limits(void **state)
{
	struct lg_workload *wl = load_ok("run:\n  - pick: {var: k, count: 1000000}\n"
					 "  - stat: \"a${k}\"\n", NULL, 0);

	(void)state;
	assert_int_equal(wl->npaths, 1000000);
	assert_string_equal(wl->paths[999999], "a999999");
	lg_workload_destroy(wl);
	wl = NULL;
	assert_int_equal(load_ov("run:\n  - pick: {var: k, count: 600000}\n  - stat: \"a${k}\"\n"
				 "  - stat: \"b${k}\"\n", NULL, 0, &wl), -EINVAL);
	assert_string_equal(err, "t.yaml:4:11: path 'b${k}' makes 600000 paths; with the "
			    "600000 of earlier file sets that is more than 1000000");
	assert_null(wl);
}

/* An input and the start of the message it must be rejected with. */
static const char *const bad[][2] = {
	{ "run:\n  - stat: \"f${k}\"\n  - pick: {var: k, count: 2}\n",
	  "t.yaml:2:11: undefined parameter '${k}' (nor a variable set by an earlier 'pick')" },
	{ "run:\n  - pick: {var: k, count: 3}\n  - stat: \"f${k}\"\n"
	  "  - pick: {var: k, count: 4}\n",
	  "t.yaml:4:27: variable 'k' was picked with count 3 before; every pick of a variable "
	  "must have the same count (here 4)" },
	{ "run:\n  - pick: {var: k, count: 0}\n  - stat: a\n",
	  "t.yaml:2:27: 'count' of 'pick' must be 1 to 1000000" },
	{ "run:\n  - pick: {var: k, count: 1000001}\n  - stat: a\n",
	  "t.yaml:2:27: 'count' of 'pick' must be 1 to 1000000" },
	{ "run:\n  - pick: {var: k, count: many}\n  - stat: a\n",
	  "t.yaml:2:27: bad number 'many' for 'count'" },
	{ "run:\n  - pick: {var: 1k, count: 2}\n  - stat: a\n",
	  "t.yaml:2:17: bad variable name '1k' (1 to 64 letters, digits and '_', not starting "
	  "with a digit)" },
	{ "run:\n  - pick: {var: \"a-b\", count: 2}\n  - stat: a\n",
	  "t.yaml:2:17: bad variable name 'a-b'" },
	{ "params: {k: 1}\nrun:\n  - pick: {var: k, count: 2}\n  - stat: a\n",
	  "t.yaml:3:17: variable 'k' has the name of a parameter" },
	{ "run:\n  - pick: {var: client, count: 2}\n  - stat: a\n",
	  "t.yaml:2:17: 'client' is built in and cannot be a variable" },
	{ "run:\n  - pick: {var: k, count: 2, order: up}\n  - stat: a\n",
	  "t.yaml:2:37: unknown order 'up' (expected random, seq or shuffle)" },
	{ "run:\n  - pick: {count: 2}\n  - stat: a\n", "t.yaml:2:5: 'pick' needs 'var'" },
	{ "run:\n  - pick: {var: k}\n  - stat: a\n", "t.yaml:2:5: 'pick' needs 'count'" },
	{ "run:\n  - pick: k\n  - stat: a\n",
	  "t.yaml:2:11: 'pick' takes a mapping {var: NAME, count: N, order: "
	  "random|seq|shuffle}, not a scalar" },
	{ "run:\n  - pick: {var: k, count: 2, label: x}\n",
	  "t.yaml:2:30: unknown key 'label' in pick (expected var, count, order)" },
	{ "run:\n  - pick: {var: k, count: 2}\n",
	  "t.yaml:2:3: 'run' must contain at least one op to measure" },
	{ "run:\n  - pick: {var: k, count: 2}\n  - pick: {var: j, count: 2}\n"
	  "  - stat: \"a${k}/${j}\"\n",
	  "t.yaml:4:11: path 'a${k}/${j}' uses two variables, '${k}' and '${j}'; a path may "
	  "use only one (it may repeat it)" },
	{ "run:\n  - pick: {var: k, count: 2}\n  - sleep: \"${k}\"\n",
	  "t.yaml:3:12: variable '${k}' can only be used in paths (in 'duration': '${k}')" },
	{ "run:\n  - pick: {var: k, count: 2}\n  - create: {path: a, as: \"f${k}\"}\n",
	  "t.yaml:3:27: variable '${k}' can only be used in paths (in 'as': 'f${k}')" },
	{ "run:\n  - pick: {var: k, count: 2}\n  - find: \"a${k}/*.x\"\n",
	  "t.yaml:3:11: path 'a${k}/*.x': a find pattern cannot use a variable" },
	{ "run:\n  - pick: {var: k, count: 2}\n  - stat: \"${k}/..\"\n",
	  "t.yaml:3:11: path '${k}/..': path names the run directory itself" },
	{ "run:\n  - pick: {var: k, count: 600000}\n  - stat: \"d/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/${k}\"\n",
	  "t.yaml:3:11: path 'd/aaa" },
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lg_workload *wl = NULL;
		int rc = load_ov(bad[i][0], NULL, 0, &wl);

		if (rc != -EINVAL || strncmp(err, bad[i][1], strlen(bad[i][1])) != 0)
			fail_msg("input %zu:\n%s\nrc %d, message:\n  %s\nwant:\n  %s", i, bad[i][0],
				 rc, err, bad[i][1]);
		assert_null(wl);
	}
	/* the byte limit has its own message */
	assert_non_null(strstr(err, "makes 600000 paths; with those of earlier file sets they "
			       "would take more than 64 MiB"));
}

/* The shipped workloads that take their number of files as a parameter. */
static void test_shipped(void **state)
{
	static const struct {
		const char *file;
		char *param;
	} shipped[] = {
		{ "fileserver", "nfiles" }, { "varmail", "nfiles" },
		{ "webserver", "nfiles" },  { "bonnie", "files" },
	};
	char path[1024], *text = malloc(1 << 20);

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
		const struct lg_param p[] = { { shipped[i].param, "3" } };
		struct lg_workload *wl = NULL;
		size_t len;
		FILE *f;

		snprintf(path, sizeof(path), "%s/loadfiles/%s.yaml", LG_SOURCE_DIR,
			 shipped[i].file);
		f = fopen(path, "rb");
		assert_non_null(f);
		len = fread(text, 1, (1 << 20) - 1, f);
		fclose(f);
		if (lg_yaml_load(path, text, len, p, 1, 2, &wl, err, sizeof(err)))
			fail_msg("%s: %s", path, err);
		/* every variable of it has the parameter's value as its count */
		assert_true(wl->nvars >= 2);
		for (size_t v = 1; v < wl->nvars; v++)
			assert_int_equal(wl->vars[v].count, 3);
		lg_workload_destroy(wl);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_compiles),
		cmocka_unit_test(test_expansion_count),
		cmocka_unit_test(test_phases_and_when),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_shipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
