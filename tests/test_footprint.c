/* Unit tests of lg_footprint: the lower bound of the largest file one client writes,
 * on workloads built op by op. What counts: sequential and appended writes since the
 * file's open, repeats multiplied; what does not: random and in-place writes, files
 * shared by the clients, steps inside a choose of several alternatives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/model/footprint.h"

/* A workload under construction, with file slot 0 named "f". */
static struct lg_workload *wl_new(void)
{
	struct lg_workload *wl;
	uint32_t slot;

	assert_int_equal(lg_workload_create(&wl), 0);
	assert_int_equal(lg_workload_slot(wl, "f", &slot), 0);
	assert_int_equal(slot, 0);
	return wl;
}

static uint32_t add(struct lg_workload *wl, struct lg_op op)
{
	uint32_t i;

	assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &op, &i), 0);
	return i;
}

static void open_file(struct lg_workload *wl, const char *path)
{
	uint32_t p;

	assert_int_equal(lg_workload_path(wl, path, &p), 0);
	add(wl, (struct lg_op){ .kind = LG_OP_OPEN, .slot = 0, .path = p, .path2 = LG_NO_SLOT });
}

static void write_op(struct lg_workload *wl, uint8_t mode, uint64_t size, uint64_t count,
		     uint32_t line)
{
	add(wl, (struct lg_op){ .kind = LG_OP_WRITE, .slot = 0, .path = LG_NO_SLOT,
				.path2 = LG_NO_SLOT, .off_mode = mode, .size = size,
				.count = count, .range = 1 << 20, .align = 1, .line = line });
}

/* A repeat of n around the ops that body adds. */
static void repeat(struct lg_workload *wl, uint64_t n, void (*body)(struct lg_workload *))
{
	uint32_t loop = add(wl, (struct lg_op){ .kind = LG_OP_LOOP, .count = n });

	body(wl);
	add(wl, (struct lg_op){ .kind = LG_OP_NEXT, .target = loop + 1 });
	wl->ops[LG_PHASE_RUN][loop].target = (uint32_t)wl->nops[LG_PHASE_RUN];
}

static void seq_1k(struct lg_workload *wl)
{
	write_op(wl, LG_OFF_SEQ, 1024, 1, 7);
}

static void fixed_1k(struct lg_workload *wl)
{
	write_op(wl, LG_OFF_FIXED, 1024, 1, 8);
}

static void test_sequential(void **state)
{
	struct lg_workload *wl = wl_new();
	struct lg_footprint fp;

	(void)state;
	open_file(wl, "dd${client}.out");
	write_op(wl, LG_OFF_SEQ, 16384, 131072, 30);
	add(wl, (struct lg_op){ .kind = LG_OP_CLOSE, .slot = 0 });
	lg_footprint(wl, &fp);
	assert_int_equal(fp.bytes, 16384ull * 131072);
	assert_int_equal(fp.line, 30);
	assert_int_equal(fp.size, 16384);
	assert_int_equal(fp.count, 131072);
	assert_int_equal(fp.loops, 1);
	assert_int_equal(fp.phase, LG_PHASE_RUN);
	lg_workload_destroy(wl);
}

static void test_repeat_counts(void **state)
{
	struct lg_workload *wl = wl_new();
	struct lg_footprint fp;

	(void)state;
	open_file(wl, "o${client}");
	repeat(wl, 10, seq_1k);
	lg_footprint(wl, &fp);
	assert_int_equal(fp.bytes, 10 * 1024);
	assert_int_equal(fp.loops, 10);
	lg_workload_destroy(wl);
	/* a repeat around the open makes new files, not a larger one */
	wl = wl_new();
	repeat(wl, 10, seq_1k); /* no open in the phase: the slot's file is not known */
	lg_footprint(wl, &fp);
	assert_int_equal(fp.bytes, 0);
	lg_workload_destroy(wl);
}

static void test_not_counted(void **state)
{
	struct lg_workload *wl = wl_new();
	struct lg_footprint fp;

	(void)state;
	open_file(wl, "shared"); /* every client's file: not per client */
	write_op(wl, LG_OFF_SEQ, 1 << 20, 4, 1);
	open_file(wl, "r${client}");
	write_op(wl, LG_OFF_RANDOM, 4096, 1000, 2);
	write_op(wl, LG_OFF_LAST, 4096, 1, 3);
	lg_footprint(wl, &fp);
	assert_int_equal(fp.bytes, 0);
	lg_workload_destroy(wl);
	/* a fixed write repeated writes the same blocks: once */
	wl = wl_new();
	open_file(wl, "x${client}");
	repeat(wl, 50, fixed_1k);
	lg_footprint(wl, &fp);
	assert_int_equal(fp.bytes, 1024);
	lg_workload_destroy(wl);
	/* sequential writes after an in-place one may overlap: the largest step only */
	wl = wl_new();
	open_file(wl, "y${client}");
	write_op(wl, LG_OFF_SEQ, 4096, 3, 4);
	write_op(wl, LG_OFF_LAST, 4096, 1, 5);
	write_op(wl, LG_OFF_SEQ, 4096, 2, 6);
	lg_footprint(wl, &fp);
	assert_int_equal(fp.bytes, 3 * 4096);
	lg_workload_destroy(wl);
	/* so may those after a seek (back to 0 here) */
	wl = wl_new();
	open_file(wl, "z${client}");
	write_op(wl, LG_OFF_SEQ, 4096, 3, 7);
	add(wl, (struct lg_op){ .kind = LG_OP_SEEK, .slot = 0, .path = LG_NO_SLOT,
				.path2 = LG_NO_SLOT, .flags = SEEK_SET });
	write_op(wl, LG_OFF_SEQ, 4096, 2, 8);
	lg_footprint(wl, &fp);
	assert_int_equal(fp.bytes, 3 * 4096);
	lg_workload_destroy(wl);
}

static void test_choose_skipped(void **state)
{
	struct lg_workload *wl = wl_new();
	struct lg_footprint fp;
	uint32_t choose, alt, j0, j1;

	(void)state;
	open_file(wl, "c${client}");
	choose = add(wl, (struct lg_op){ .kind = LG_OP_CHOOSE, .count = 2 });
	assert_int_equal(lg_workload_add_alt(wl, 1, choose + 1, &alt), 0);
	write_op(wl, LG_OFF_SEQ, 1 << 20, 1, 9);
	j0 = add(wl, (struct lg_op){ .kind = LG_OP_JUMP });
	assert_int_equal(lg_workload_add_alt(wl, 2, j0 + 1, &(uint32_t){ 0 }), 0);
	write_op(wl, LG_OFF_SEQ, 1 << 20, 1, 10);
	j1 = add(wl, (struct lg_op){ .kind = LG_OP_JUMP });
	wl->ops[LG_PHASE_RUN][choose].target = alt;
	wl->ops[LG_PHASE_RUN][j0].target = j1 + 1;
	wl->ops[LG_PHASE_RUN][j1].target = j1 + 1;
	write_op(wl, LG_OFF_APPEND, 100, 1, 11); /* after the choose: counted */
	lg_footprint(wl, &fp);
	assert_int_equal(fp.bytes, 100);
	assert_int_equal(fp.line, 11);
	lg_workload_destroy(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_repeat_counts),
		cmocka_unit_test(test_not_counted),
		cmocka_unit_test(test_choose_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
