/* yaml_memo.c: a line kept is replayed as its op (found by its index) with the new line
 * number, and so is the same text elsewhere; a different line, a line of another length
 * or another text with the same hash, another phase or a line pushed out by a newer one
 * at its place is not; an open of a slot still open is left to the full compile. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "load/yaml/yaml_priv.h"

static struct lg_yctx ctx(struct lg_workload *wl)
{
	return (struct lg_yctx){ .fname = "t.yaml", .wl = wl, .phase = LG_PHASE_RUN };
}

static struct lg_ymemo_key key(const char *s)
{
	struct lg_ymemo_key k;

	lg_ymemo_key(s, strlen(s), &k);
	return k;
}

static void test_replay(void **state)
{
	struct lg_workload *wl = NULL;
	struct lg_ymemo *m = NULL;
	struct lg_op op = { .kind = LG_OP_STAT, .path = 3, .slot = LG_NO_SLOT, .line = 7,
			    .type = 2, .expect = ENOENT };
	struct lg_ymemo_key a = key("stat: {path: a}"), b = key("stat: {path: b}");
	struct lg_yctx c;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	c = ctx(wl);
	assert_int_equal(lg_ymemo_create(LG_PHASE_RUN, &m), 0);
	assert_int_equal(lg_ymemo_replay(&c, m, &a, 9), 0); /* empty */
	assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &op, NULL), 0);
	lg_ymemo_add(m, &a, 0);
	assert_int_equal(lg_ymemo_replay(&c, m, &b, 9), 0);
	assert_int_equal(lg_ymemo_replay(&c, m, &a, 9), 1);
	assert_int_equal(wl->nops[LG_PHASE_RUN], 2);
	op.line = 9;
	assert_memory_equal(&wl->ops[LG_PHASE_RUN][1], &op, sizeof(op));
	/* same hash, another length: not the same line */
	b = a;
	b.len++;
	assert_int_equal(lg_ymemo_replay(&c, m, &b, 9), 0);
	/* same hash and length, other text: not the same line either */
	b = key("stat: {path: z}");
	b.hash = a.hash;
	assert_int_equal(lg_ymemo_replay(&c, m, &b, 9), 0);
	/* the same text elsewhere: the same line */
	b = key(strdup("stat: {path: a}"));
	assert_int_equal(lg_ymemo_replay(&c, m, &b, 9), 1);
	free((char *)b.line);
	assert_int_equal(wl->nops[LG_PHASE_RUN], 3);
	/* another phase */
	c.phase = LG_PHASE_CLEANUP;
	assert_int_equal(lg_ymemo_replay(&c, m, &a, 9), 0);
	c.phase = LG_PHASE_RUN;
	/* a newer line at the same place pushes the older out */
	b = key("stat: {path: c}");
	b.hash = a.hash;
	op.kind = LG_OP_UNLINK;
	assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &op, NULL), 0);
	lg_ymemo_add(m, &b, 3);
	assert_int_equal(lg_ymemo_replay(&c, m, &a, 9), 0);
	assert_int_equal(lg_ymemo_replay(&c, m, &b, 10), 1);
	assert_int_equal(wl->nops[LG_PHASE_RUN], 5);
	assert_int_equal(wl->ops[LG_PHASE_RUN][4].kind, LG_OP_UNLINK); /* the op of b */
	assert_int_equal(wl->ops[LG_PHASE_RUN][4].line, 10);
	lg_ymemo_destroy(m);
	lg_ymemo_destroy(NULL);
	lg_workload_destroy(wl);
}

/* An open replayed while its slot is provably open is left to the full compile (0). */
static void test_open_still_open(void **state)
{
	struct lg_workload *wl = NULL;
	struct lg_ymemo *m = NULL;
	struct lg_ymemo_key k = key("create: {path: a, as: f}");
	struct lg_op op = { .kind = LG_OP_OPEN, .slot = 0, .path = 0, .line = 2 };
	struct lg_op close = { .kind = LG_OP_CLOSE, .slot = 0, .path = LG_NO_SLOT, .line = 3 };
	struct lg_yctx c;
	uint32_t slot;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	assert_int_equal(lg_workload_slot(wl, "f", &slot), 0);
	c = ctx(wl);
	assert_int_equal(lg_ymemo_create(LG_PHASE_RUN, &m), 0);
	assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &op, NULL), 0);
	lg_ymemo_add(m, &k, 0);
	assert_int_equal(lg_ymemo_replay(&c, m, &k, 3), 0); /* f is open: no replay */
	assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &close, NULL), 0);
	assert_int_equal(lg_ymemo_replay(&c, m, &k, 4), 1); /* closed: replayed */
	assert_int_equal(wl->nops[LG_PHASE_RUN], 3);
	assert_int_equal(wl->ops[LG_PHASE_RUN][2].line, 4);
	lg_yreopen_free(c.reopen);
	lg_ymemo_destroy(m);
	lg_workload_destroy(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_open_still_open),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
