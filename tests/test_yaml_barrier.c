/* Tests of the 'barrier' step (yaml_barrier.c): what it compiles to (the phase it
 * begins, its name and items), that the writer gives it back, and each load error with
 * its line and column. */
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
#include "loadgen/load/yaml_write.h"

static char err[512];

static int load(const char *text, struct lg_workload **wl)
{
	return lg_yaml_load("t.yaml", text, strlen(text), NULL, 0, 4, wl, err, sizeof(err));
}

static struct lg_workload *load_ok(const char *text)
{
	struct lg_workload *wl = NULL;

	if (load(text, &wl) != 0)
		fail_msg("load failed: %s", err);
	return wl;
}

static void load_fails(const char *text, const char *want)
{
	struct lg_workload *wl = NULL;

	assert_int_equal(load(text, &wl), -EINVAL);
	assert_null(wl);
	if (strncmp(err, want, strlen(want)))
		fail_msg("got   '%s'\nwant  '%s...'", err, want);
}

static const char md[] =
	"run:\n"
	"  - stat: a\n"
	"  - barrier: {phase: create, items: create}\n"
	"  - create: {path: \"f${client}\", as: f}\n"
	"  - close: f\n"
	"  - barrier: stat\n"
	"  - stat: \"f${client}\"\n"
	"  - barrier:\n"
	"  - unlink: \"f${client}\"\n";

/* Phase 0 is before the first barrier; each barrier's op holds the phase it begins;
 * names as given or "phase N"; items the label's row, or every op. */
static void test_compile(void **state)
{
	struct lg_workload *wl = load_ok(md);
	const struct lg_op *run = wl->ops[LG_PHASE_RUN];

	(void)state;
	assert_int_equal(wl->nbphases, 4);
	assert_string_equal(wl->bphases[0].name, "phase 1");
	assert_string_equal(wl->bphases[1].name, "create");
	assert_string_equal(wl->bphases[2].name, "stat");
	assert_string_equal(wl->bphases[3].name, "phase 4");
	assert_int_equal(wl->bphases[0].items, LG_ITEMS_ALL);
	assert_string_equal(wl->types[wl->bphases[1].items], "create");
	assert_int_equal(wl->bphases[2].items, LG_ITEMS_ALL);
	assert_int_equal(wl->bphases[1].line, 3);
	assert_int_equal(run[1].kind, LG_OP_BARRIER);
	assert_int_equal(run[1].count, 1);
	assert_int_equal(run[4].kind, LG_OP_BARRIER);
	assert_int_equal(run[4].count, 2);
	assert_int_equal(run[6].kind, LG_OP_BARRIER);
	assert_int_equal(run[6].count, 3);
	lg_workload_destroy(wl);
}

/* What the writer writes loads to the same barriers, names and items. */
static void test_write_round_trip(void **state)
{
	struct lg_workload *a = load_ok(md), *b = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(lg_yaml_write(f, a, err, sizeof(err)), 0);
	fclose(f);
	if (load(text, &b))
		fail_msg("reload failed: %s\n%s", err, text);
	assert_int_equal(b->nbphases, a->nbphases);
	for (size_t i = 0; i < a->nbphases; i++) {
		assert_string_equal(b->bphases[i].name, a->bphases[i].name);
		assert_int_equal(b->bphases[i].items == LG_ITEMS_ALL,
				 a->bphases[i].items == LG_ITEMS_ALL);
	}
	assert_int_equal(b->nops[LG_PHASE_RUN], a->nops[LG_PHASE_RUN]);
	for (size_t i = 0; i < a->nops[LG_PHASE_RUN]; i++) {
		assert_int_equal(b->ops[LG_PHASE_RUN][i].kind, a->ops[LG_PHASE_RUN][i].kind);
		assert_int_equal(b->ops[LG_PHASE_RUN][i].count, a->ops[LG_PHASE_RUN][i].count);
	}
	free(text);
	lg_workload_destroy(a);
	lg_workload_destroy(b);
}

static void test_errors(void **state)
{
	(void)state;
	load_fails("setup:\n  - barrier: x\nrun:\n  - stat: a\n",
		   "t.yaml:2:5: 'barrier' belongs in 'run'");
	load_fails("run:\n  - stat: a\ncleanup:\n  - barrier: x\n",
		   "t.yaml:4:5: 'barrier' belongs in 'run'");
	load_fails("run:\n  - repeat:\n      count: 2\n      do:\n        - barrier: x\n"
		   "        - stat: a\n",
		   "t.yaml:5:11: 'barrier' inside 'repeat' or 'choose'");
	load_fails("run:\n  - choose:\n      - weight: 1\n        do: [barrier: x, stat: a]\n",
		   "t.yaml:4:14: 'barrier' inside 'repeat' or 'choose'");
	load_fails("run:\n  - barrier: x\n  - stat: a\n  - barrier: x\n  - stat: b\n",
		   "t.yaml:4:14: phase 'x' is named twice");
	load_fails("run:\n  - barrier: {phase: x, items: create}\n  - stat: a\n",
		   "t.yaml:2:1: phase 'x' counts the ops labelled 'create' as its items, but "
		   "no op of 'run' has that label");
	load_fails("run:\n  - barrier: [x]\n  - stat: a\n",
		   "t.yaml:2:14: 'barrier' takes the name of the phase it begins");
	load_fails("run:\n  - barrier: {phase: x, count: 2}\n  - stat: a\n",
		   "t.yaml:2:");
	load_fails("run:\n  - barrier: \"\"\n  - stat: a\n",
		   "t.yaml:2:14: a phase name must have 1 to 40 characters");
}

/* More barriers than LG_BARRIER_PHASES_MAX phases: refused, not overrun. */
static void test_too_many(void **state)
{
	char text[4096] = "run:\n";

	(void)state;
	for (int i = 0; i < LG_BARRIER_PHASES_MAX; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "  - barrier: p%d\n  - stat: a\n", i);
	load_fails(text, "t.yaml:64:5: more than 31 barriers");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile),
		cmocka_unit_test(test_write_round_trip),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
