/* Unit tests of the coordination layer without MPI: launcher detection, the single-host
 * no-op hooks, the run directory with no coordinator, the hash, --mpi refused by a
 * build without MPI, and the clock offsets and start skew with made-up offsets. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/model/config.h"
#include "loadgen/run/coord.h"
#include "loadgen/run/rundir.h"

static const char *const vars[] = {
	"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
	"MPI_LOCALRANKID", "MPI_LOCALNRANKS", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS",
};

static void clear_env(void)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
}

static void test_detect(void **state)
{
	const char *name = NULL;
	unsigned size = 99;

	(void)state;
	clear_env();
	assert_false(lg_coord_detect(&name, &size));
	setenv("OMPI_COMM_WORLD_RANK", "1", 1);
	setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
	assert_true(lg_coord_detect(&name, &size));
	assert_string_equal(name, "Open MPI");
	assert_int_equal(size, 3);
	clear_env();
	setenv("PMIX_RANK", "0", 1);
	assert_true(lg_coord_detect(&name, &size));
	assert_string_equal(name, "PMIx");
	assert_int_equal(size, 0);
	clear_env();
	setenv("PMI_RANK", "2", 1);
	setenv("PMI_SIZE", "4", 1);
	assert_true(lg_coord_detect(&name, &size));
	assert_string_equal(name, "PMI");
	assert_int_equal(size, 4);
	clear_env();
	/* a Slurm batch script has SLURM_PROCID but is no step of several tasks */
	setenv("SLURM_PROCID", "0", 1);
	assert_false(lg_coord_detect(&name, &size));
	setenv("SLURM_STEP_NUM_TASKS", "1", 1);
	assert_false(lg_coord_detect(&name, &size));
	setenv("SLURM_STEP_NUM_TASKS", "16", 1);
	assert_true(lg_coord_detect(&name, &size));
	assert_string_equal(name, "Slurm srun");
	assert_int_equal(size, 16);
	clear_env();
}

/* Built without LOADGEN_MPI: a plain run stays single-host, --mpi and a launcher of
 * several ranks are refused, one rank runs as a plain run. Built with MPI, only the
 * plain run is checked here (test_mpi.py runs the ranks); .ci/run builds both. */
static void test_open_without_mpi(void **state)
{
	struct lg_coord *c = (struct lg_coord *)1;
	char err[512] = "";

	(void)state;
	clear_env();
	if (lg_coord_built()) {
		assert_int_equal(lg_coord_open(false, &c, err, sizeof(err)), 0);
		assert_ptr_equal(c, lg_coord_single()); /* no launcher, no --mpi: MPI is not
							    touched */
		return;
	}
	assert_int_equal(lg_coord_open(false, &c, err, sizeof(err)), 0);
	assert_ptr_equal(c, lg_coord_single());
	assert_int_equal(lg_coord_open(true, &c, err, sizeof(err)), -ENOTSUP);
	assert_null(c);
	assert_non_null(strstr(err, "--mpi"));
	assert_non_null(strstr(err, "without MPI"));
	setenv("OMPI_COMM_WORLD_RANK", "0", 1);
	setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
	assert_int_equal(lg_coord_open(false, &c, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "Open MPI"));
	setenv("OMPI_COMM_WORLD_SIZE", "1", 1);
	assert_int_equal(lg_coord_open(false, &c, err, sizeof(err)), 0);
	assert_ptr_equal(c, lg_coord_single());
	clear_env();
}

/* On one host (lg_coord_single(), and lg_coord_of a config without a coordinator) every
 * hook hands back the local value. */
static void test_single_host_hooks(void **state)
{
	struct lg_coord_tick t = { .sum = { 1, 2, 3, 4, 5 }, .max = { 6, 1, 0, 1, 1 } };
	uint64_t v[3] = { 7, 8, 9 }, fields[2] = { 1, 2 };
	const char *const names[] = { "a", "b" };
	char err[64] = "mine", buf[4] = "abc";
	struct lg_config cfg = { .clients = 4 };
	struct lg_coord *one = lg_coord_single();

	(void)state;
	assert_ptr_equal(lg_coord_of(&cfg), one);
	assert_int_equal(lg_coord_rank(one), 0);
	assert_int_equal(lg_coord_size(one), 1);
	assert_int_equal(lg_coord_status(one, -EIO, err, sizeof(err)), -EIO);
	assert_string_equal(err, "mine");
	assert_int_equal(lg_coord_status(one, 0, err, sizeof(err)), 0);
	assert_int_equal(lg_coord_start(one, -ENOSPC, err, sizeof(err)), -ENOSPC);
	assert_int_equal(lg_coord_agree(one, fields, names, 2, err, sizeof(err)), 0);
	assert_int_equal(lg_coord_agree_config(one, &cfg, 42, err, sizeof(err)), 0);
	assert_int_equal(lg_coord_bcast(one, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "abc");
	assert_int_equal(lg_coord_tick(one, &t), 0);
	assert_int_equal(t.sum[LG_TICK_D_WR], 5);
	assert_int_equal(t.max[LG_TICK_MAX_LAT], 6);
	assert_int_equal(lg_coord_sum(one, v, 3), 0);
	assert_int_equal(v[2], 9);
	assert_int_equal(lg_coord_finish(one, NULL, NULL, 0, err, sizeof(err)), 0);
	assert_true(lg_coord_owns_rundir(one));
	lg_coord_close(one);
	lg_multi_destroy(NULL);
}

static void test_rundir_single(void **state)
{
	char base[] = "/tmp/lg_coord_testXXXXXX", err[256], *path = NULL;
	struct stat st;
	int fd = -1;

	(void)state;
	assert_non_null(mkdtemp(base));
	assert_int_equal(lg_coord_rundir(lg_coord_single(), base, &path, &fd, err, sizeof(err)), 0);
	assert_true(fd >= 0);
	assert_int_equal(strncmp(path, base, strlen(base)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(lg_rundir_remove(path, fd), 0);
	free(path);
	assert_int_equal(rmdir(base), 0);
}

static void test_hash(void **state)
{
	(void)state;
	/* FNV-1a 64 reference values */
	assert_true(lg_hash_bytes(LG_HASH_INIT, "", 0) == UINT64_C(0xcbf29ce484222325));
	assert_true(lg_hash_bytes(LG_HASH_INIT, "a", 1) == UINT64_C(0xaf63dc4c8601ec8c));
	assert_true(lg_hash_bytes(LG_HASH_INIT, "foobar", 6) == UINT64_C(0x85944171f73967e8));
	/* chaining is hashing the concatenation */
	assert_true(lg_hash_bytes(lg_hash_bytes(LG_HASH_INIT, "foo", 3), "bar", 3) ==
		    lg_hash_bytes(LG_HASH_INIT, "foobar", 6));
}

#define MS 1000000ll /* ns */

/* Clocks of ranks, with made-up offsets (on one host every offset is 0, so a sign flipped
 * anywhere would show in no run here): rank 1's clock 5 ms ahead of rank 0's, rank 2's
 * 3 ms behind. */
static void test_clock_offsets_and_skew(void **state)
{
	const uint64_t T = 1700000000000000000ull; /* a wall clock instant, ns */
	const int64_t off[3] = { 0, 5 * MS, -3 * MS };
	uint64_t start[3];

	(void)state;
	/* a ping: sent at T, 0.4 ms each way; the rank reads its clock on arrival */
	assert_int_equal(lg_clock_offset_ns(T, T + 400000 + 5 * MS, T + 800000), 5 * MS);
	assert_int_equal(lg_clock_offset_ns(T, T + 400000 - 3 * MS, T + 800000), -3 * MS);
	assert_int_equal(lg_clock_offset_ns(T, T + 400000, T + 800000), 0);

	/* rank 0 picks T; each rank sleeps until T as its own clock reads it, and reads that
	 * when it wakes: all start at the same instant, no skew */
	assert_int_equal(lg_clock_local_ns(T, 5 * MS), T + 5 * MS);
	assert_int_equal(lg_clock_local_ns(T, -3 * MS), T - 3 * MS);
	for (int r = 0; r < 3; r++)
		start[r] = lg_clock_local_ns(T, off[r]);
	assert_float_equal(lg_start_skew_ms(start, off, 3), 0, 1e-9);
	/* rank 2 starts 2 ms late, rank 1 1 ms early: 3 ms apart by rank 0's clock (by the
	 * raw clocks: 9 ms; with the offsets added rather than taken away: 19 ms) */
	start[1] = (uint64_t)((int64_t)T - 1 * MS + off[1]);
	start[2] = (uint64_t)((int64_t)T + 2 * MS + off[2]);
	assert_float_equal(lg_start_skew_ms(start, off, 3), 3.0, 1e-9);
	assert_float_equal(lg_start_skew_ms(start, off, 1), 0, 1e-9);
	assert_float_equal(lg_start_skew_ms(start, off, 0), 0, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_open_without_mpi),
		cmocka_unit_test(test_single_host_hooks),
		cmocka_unit_test(test_rundir_single),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_clock_offsets_and_skew),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
