/* One client over a temporary directory, for the unit tests of the hot path
 * (test_ops.c, test_client.c, test_spawn.c): a YAML workload compiled by the real
 * loader, the shared state the engine would make, and the client state from
 * lg_client_init. The tests then call lg_op_exec for single ops or lg_client_main for
 * whole phases, and look at the files and the client's stats. Header-only: each test
 * executable includes it once. */
#ifndef LOADGEN_TEST_CLIENT_HARNESS_H
#define LOADGEN_TEST_CLIENT_HARNESS_H

#include <fcntl.h>
#include <ftw.h>
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

#include "run/client.h"
#include "loadgen/counters/counters.h"
#include "loadgen/load/yaml_load.h"

/* One client and everything it borrows. */
struct harness {
	char dir[64];                 /* the temporary run directory */
	struct lg_workload *wl;       /* compiled workload (owned) */
	struct lg_shared sh;          /* what the master would share */
	struct lg_live live;          /* the client's monitor counters */
	struct lg_client_stats *st;   /* the client's stats (owned) */
	struct lg_window win[LG_WINDOWS]; /* timeline windows */
	unsigned char *wbuf;          /* the write pattern (owned) */
	struct lg_client c;           /* the client */
};

static inline int h_rm(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

/* Compile yaml, make the directory and the client. rate: -R in bytes per ns (0: none);
 * svc: keep service-time histograms (as the engine does under -R). The shared state
 * says "measured phase, no deadline, one pass", and the gate is past every stage, so
 * lg_client_main runs setup, one pass of run and cleanup without waiting. */
static inline struct harness *h_new_rate(const char *yaml, double rate)
{
	struct harness *h = calloc(1, sizeof(*h));
	char err[512];
	size_t sz;
	void *mem;

	assert_non_null(h);
	if (lg_yaml_load("test.yaml", yaml, strlen(yaml), NULL, 0, 1, &h->wl, err, sizeof(err)))
		fail_msg("workload does not load: %s", err);
	strcpy(h->dir, "/tmp/lg-unit.XXXXXX");
	assert_non_null(mkdtemp(h->dir));
	h->sh.dirfd = open(h->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(h->sh.dirfd >= 0);
	h->sh.phase = LG_CLOCK_EXECUTE;
	h->sh.deadline = UINT64_MAX;
	h->sh.gate.stage = 2;
	h->sh.run_once = true;
	h->sh.stall_ns = UINT64_MAX;
	h->sh.seed = 42;
	h->sh.rate = rate;
	h->sh.paced = rate > 0;
	sz = (h->wl->max_io + 4095) & ~(size_t)4095;
	assert_int_equal(posix_memalign((void **)&h->wbuf, 4096, sz ? sz : 4096), 0);
	memset(h->wbuf, 'w', sz ? sz : 4096);
	h->sh.wbuf = h->wbuf;
	mem = calloc(1, lg_client_stats_size(h->wl->ntypes, rate > 0));
	assert_non_null(mem);
	h->st = lg_client_stats_init(mem, 0, h->wl->ntypes, rate > 0);
	assert_int_equal(lg_client_init(&h->c, 0, h->wl, &h->sh, &h->live, h->st), 0);
	h->c.win = h->win;
	return h;
}

static inline struct harness *h_new(const char *yaml)
{
	return h_new_rate(yaml, 0);
}

static inline void h_free(struct harness *h)
{
	lg_client_fini(&h->c);
	close(h->sh.dirfd);
	nftw(h->dir, h_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(h->st);
	free(h->wbuf);
	lg_workload_destroy(h->wl);
	free(h);
}

/* Run op i of phase (call 0), returning its errno; *bytes what it moved. */
static inline int h_exec(struct harness *h, enum lg_phase phase, size_t i, uint64_t call,
		  uint64_t *bytes)
{
	uint64_t b = 0;
	int rc;

	assert_true(i < h->wl->nops[phase]);
	rc = lg_op_exec(&h->c, &h->wl->ops[phase][i], call, &b);
	if (bytes)
		*bytes = b;
	return rc;
}

/* The stats row of label. */
static inline struct lg_type_stats *h_type(struct harness *h, const char *label)
{
	for (size_t i = 0; i < h->wl->ntypes; i++)
		if (!strcmp(h->wl->types[i], label))
			return &h->st->types[i];
	fail_msg("no stats row '%s'", label);
	return NULL;
}

/* Size of path (relative to the run directory), -1 when missing. */
static inline long long h_size(struct harness *h, const char *path)
{
	struct stat st;

	return fstatat(h->sh.dirfd, path, &st, 0) ? -1 : (long long)st.st_size;
}

/* Read len bytes at off of path into buf; returns what pread returned. */
static inline ssize_t h_read(struct harness *h, const char *path, void *buf, size_t len,
			     off_t off)
{
	int fd = openat(h->sh.dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	assert_true(fd >= 0);
	n = pread(fd, buf, len, off);
	close(fd);
	return n;
}

#endif
