/* Coordination of ranks: launch detection, the single-host coordinator, the shared run
 * directory, and the clock arithmetic of the start (offsets, skew), kept here without MPI
 * so that it is tested with made-up offsets. The MPI backend lives in mpi_coord.c and
 * mpi_result.c (LOADGEN_MPI). */
#include "loadgen/run/coord.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "loadgen/model/config.h"
#include "loadgen/run/rundir.h"
#include "mpi_coord.h"

#define TOKEN_NAME ".loadgen-rank0" /* rank 0's token in a fresh run directory */
#define TOKEN_HOST ".loadgen-host"  /* the same token, in a host's own run directory */
#define TOKEN_LEN 40                /* bytes of the token text */

/* Environment variables that MPI launchers set in each rank: the variable, the one
 * giving the number of ranks (or NULL), and the launcher's name. */
static const struct launcher {
	const char *rank_var, *size_var, *name;
} launchers[] = {
	{ .rank_var = "OMPI_COMM_WORLD_RANK", .size_var = "OMPI_COMM_WORLD_SIZE",
	  .name = "Open MPI" },
	{ .rank_var = "PMIX_RANK", .size_var = NULL, .name = "PMIx" },
	{ .rank_var = "PMI_RANK", .size_var = "PMI_SIZE", .name = "PMI" },
	{ .rank_var = "MPI_LOCALRANKID", .size_var = "MPI_LOCALNRANKS", .name = "MPICH" },
	/* srun: only a step (not the batch script, which also has SLURM_PROCID) */
	{ .rank_var = "SLURM_PROCID", .size_var = "SLURM_STEP_NUM_TASKS", .name = "Slurm srun" },
};

bool lg_coord_detect(const char **name, unsigned *size)
{
	for (size_t i = 0; i < sizeof(launchers) / sizeof(launchers[0]); i++) {
		const struct launcher *l = &launchers[i];
		const char *r = getenv(l->rank_var), *s = l->size_var ? getenv(l->size_var) : NULL;
		unsigned long n = s ? strtoul(s, NULL, 10) : 0;

		if (!r || !*r)
			continue;
		if (l->size_var && !strcmp(l->rank_var, "SLURM_PROCID") && n < 2)
			continue; /* a batch script, or a one-task step: nothing to coordinate */
		*name = l->name;
		*size = (unsigned)n;
		return true;
	}
	return false;
}

int lg_coord_open(bool force, struct lg_coord **out, char *err, size_t errlen)
{
	const char *name = "--mpi";
	unsigned size = 0;
	bool detected = lg_coord_detect(&name, &size);

	*out = lg_coord_single();
	if (!force && !detected)
		return 0;
	if (force)
		name = "--mpi";
#ifdef LOADGEN_MPI
	return lg_mpi_open(name, detected ? size : 0, out, err, errlen);
#else
	if (!force && size == 1)
		return 0; /* one rank: the same as a plain run */
	*out = NULL;
	snprintf(err, errlen, "%s: this loadgen was built without MPI (LOADGEN_MPI=OFF), so "
		 "its ranks would run separate, colliding runs; rebuild with libopenmpi-dev "
		 "installed", force ? "--mpi" : name);
	return -ENOTSUP;
#endif
}

int64_t lg_clock_offset_ns(uint64_t t0, uint64_t tr, uint64_t t1)
{
	/* the answer was read half way through the round trip, by rank 0's clock */
	return (int64_t)(tr - (t0 + (t1 - t0) / 2));
}

uint64_t lg_clock_local_ns(uint64_t at, int64_t off)
{
	return at + (uint64_t)off; /* modulo 2^64: a negative offset subtracts */
}

double lg_start_skew_ms(const uint64_t *start_ns, const int64_t *off, unsigned n)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	for (unsigned r = 0; r < n; r++) {
		int64_t t = (int64_t)start_ns[r] - off[r]; /* by rank 0's clock */

		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	return n ? (double)(hi - lo) / 1e6 : 0;
}

bool lg_coord_built(void)
{
#ifdef LOADGEN_MPI
	return true;
#else
	return false;
#endif
}

/* The single-host backend: nobody else to agree with, wait for or add up. */
static int single_status(struct lg_coord *c, int rc, char *err, size_t errlen)
{
	(void)c, (void)err, (void)errlen;
	return rc;
}

static int single_agree(struct lg_coord *c, const uint64_t *fields, const char *const *names,
			size_t nfields, char *err, size_t errlen)
{
	(void)c, (void)fields, (void)names, (void)nfields, (void)err, (void)errlen;
	return 0;
}

static int single_bcast(struct lg_coord *c, void *buf, size_t len)
{
	(void)c, (void)buf, (void)len;
	return 0;
}

static int single_tick(struct lg_coord *c, struct lg_coord_tick *t)
{
	(void)c, (void)t;
	return 0;
}

static int single_sum(struct lg_coord *c, uint64_t *v, size_t n)
{
	(void)c, (void)v, (void)n;
	return 0;
}

static int single_finish(struct lg_coord *c, struct lg_run *run, const void *stats,
			 size_t stride, char *err, size_t errlen)
{
	(void)c, (void)run, (void)stats, (void)stride, (void)err, (void)errlen;
	return 0;
}

static void single_close(struct lg_coord *c)
{
	c->env = NULL; /* borrowed from a config that is going away */
}

static const struct lg_coord_ops single_ops = {
	.status = single_status, .agree = single_agree, .bcast = single_bcast,
	.start = single_status, .tick = single_tick, .sum = single_sum,
	.finish = single_finish, .close = single_close,
};

struct lg_coord *lg_coord_single(void)
{
	static struct lg_coord one = { .ops = &single_ops, .size = 1, .shared = true };

	return &one;
}

struct lg_coord *lg_coord_of(const struct lg_config *cfg)
{
	return cfg->coord ? cfg->coord : lg_coord_single();
}

void lg_coord_on_lost(struct lg_coord *c, int (*stopped)(void), lg_coord_lost_fn on_lost,
		      void *arg)
{
	c->stopped = stopped;
	c->on_lost = on_lost;
	c->lost_arg = arg;
}

void lg_coord_answer(struct lg_coord *c)
{
#ifdef LOADGEN_MPI
	if (c->size > 1)
		lg_mpi_answer();
#else
	(void)c;
#endif
}

void lg_coord_close(struct lg_coord *c)
{
	c->ops->close(c);
}

unsigned lg_coord_rank(const struct lg_coord *c)
{
	return c->rank;
}

unsigned lg_coord_size(const struct lg_coord *c)
{
	return c->size;
}

int lg_coord_status(struct lg_coord *c, int rc, char *err, size_t errlen)
{
	return c->ops->status(c, rc, err, errlen);
}

int lg_coord_agree(struct lg_coord *c, const uint64_t *fields, const char *const *names,
		   size_t nfields, char *err, size_t errlen)
{
	return c->ops->agree(c, fields, names, nfields, err, errlen);
}

int lg_coord_bcast(struct lg_coord *c, void *buf, size_t len)
{
	return c->ops->bcast(c, buf, len);
}

int lg_coord_start(struct lg_coord *c, int rc, char *err, size_t errlen)
{
	return c->ops->start(c, rc, err, errlen);
}

int lg_coord_tick(struct lg_coord *c, struct lg_coord_tick *t)
{
	return c->ops->tick(c, t);
}

int lg_coord_sum(struct lg_coord *c, uint64_t *v, size_t n)
{
	return c->ops->sum(c, v, n);
}

int lg_coord_finish(struct lg_coord *c, struct lg_run *run, const void *stats, size_t stride,
		    char *err, size_t errlen)
{
	return c->ops->finish(c, run, stats, stride, err, errlen);
}

void lg_coord_warn_binding(const struct lg_coord *c, unsigned clients)
{
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (c->size == 1 || sched_getaffinity(0, sizeof(set), &set) || online <= 0 ||
	    CPU_COUNT(&set) >= online || (unsigned)CPU_COUNT(&set) >= clients)
		return;
	fprintf(stderr, "loadgen: warning: the launcher bound this rank to %d of %ld CPUs, which "
		"its %u clients share (Open MPI: mpirun --bind-to none)\n", CPU_COUNT(&set),
		online, clients);
}

bool lg_coord_owns_rundir(const struct lg_coord *c)
{
	return c->rank == 0 || c->made;
}

/* One hash per setting that shapes the load, and what to call it when ranks differ. */
#define H(x) lg_hash_bytes(LG_HASH_INIT, &(x), sizeof(x))

int lg_coord_agree_config(struct lg_coord *c, const struct lg_config *cfg, uint64_t workload,
			  char *err, size_t errlen)
{
	uint64_t params = LG_HASH_INIT;
	unsigned flags = (unsigned)cfg->run_once | (unsigned)cfg->processes << 1 |
			 (unsigned)cfg->sync_open << 2 | (unsigned)cfg->sync_dirs << 3 |
			 (unsigned)cfg->fsync_writes << 4 | (unsigned)cfg->direct << 5 |
			 (unsigned)cfg->end_sync << 6 | (unsigned)cfg->drop_caches << 7 |
			 (unsigned)cfg->verify << 8 | (unsigned)cfg->abort_on_error << 9 |
			 (unsigned)cfg->keep << 10; /* who removes what, and the counts of it */
	double times[] = { cfg->time_s, cfg->warmup_s, cfg->interval_s, cfg->stall_threshold_s };
	/* the whole sweep (a rank with other counts would run other collectives) and
	 * --repeat's rule, field by field (the struct has padding) */
	uint64_t counts = lg_hash_bytes(H(cfg->clients), cfg->sweep,
					cfg->nsweep * sizeof(cfg->sweep[0]));
	double rates[] = { cfg->rate_mbps, cfg->rate_ops };
	double repeat[] = { cfg->repeat_rule.max, cfg->repeat_rule.is_auto,
			    cfg->repeat_rule.pct, cfg->repeat };
	int resolve = cfg->resolve;
	/* which collectives end the run: --per-client, and the benchmark's gather */
	const char *merge = getenv("LOADGEN_MPI_MERGE");
	unsigned ends = cfg->per_client | (unsigned)(merge && !strcmp(merge, "gather")) << 8;

	if (c->size == 1) /* nobody to differ from */
		return 0;
	for (size_t i = 0; i < cfg->nparams; i++) {
		params = lg_hash_bytes(params, cfg->params[i].name, strlen(cfg->params[i].name) + 1);
		params = lg_hash_bytes(params, cfg->params[i].value,
				       strlen(cfg->params[i].value) + 1);
	}
	{
		const uint64_t fields[] = { workload, params, counts, H(flags),
					    H(times), H(cfg->seed), H(rates), H(repeat),
					    H(resolve), H(ends) };
		static const char *const names[] = {
			"the workload (-c file content)", "parameters (-p)",
			"NCLIENTS (the client counts of a sweep)",
			("flags (--run-once --processes -s -S -F --direct --end-sync --drop-caches "
			 "--verify --abort-on-error --keep)"),
			"times (-t --warmup --interval --stall-threshold)", "--seed",
			"--rate/--rate-ops", "--repeat", "--resolve",
			"--per-client (or LOADGEN_MPI_MERGE)" };

		return lg_coord_agree(c, fields, names, sizeof(fields) / sizeof(fields[0]), err,
				      errlen);
	}
}

/* Rank 0: a token nobody else can have written. */
static void make_token(char *token, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(token, len, "%016llx-%08x-%012lld", (unsigned long long)lg_hash_bytes(
			 LG_HASH_INIT, &ts, sizeof(ts)), (unsigned)getpid(), (long long)ts.tv_nsec);
}

/* Write token into the new file name of the directory open as dirfd. */
static int write_token(int dirfd, const char *name, const char *token)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, token, strlen(token));
	if (n < 0 || fsync(fd) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return close(fd) < 0 ? -errno : 0;
}

/* Whether the directory open as dirfd holds the token in its file name. */
static bool has_token(int dirfd, const char *name, const char *token)
{
	char buf[TOKEN_LEN + 8] = { 0 };
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 && strcmp(buf, token) == 0;
}

static int open_dir(const char *path)
{
	return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* err gets path and the text of errno; returns -errno. */
static int fail(const char *path, char *err, size_t errlen)
{
	int rc = -errno;

	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return rc;
}

/* Ranks > 0, first step: open rank 0's directory, or make the same path here when it is
 * not there and leave the token in it for the other ranks of this host. *later: the path
 * is here without rank 0's token, perhaps made by another rank of this host in this
 * same step; the second step looks again once every rank has taken the first. */
static int join_rundir(struct lg_coord *c, const char *path, const char *token, int *fd,
		       bool *later, char *err, size_t errlen)
{
	int rc;

	*later = false;
	*fd = open_dir(path);
	if (*fd < 0 && errno == ENOENT) {
		if (mkdir(path, 0755) < 0) {
			*later = errno == EEXIST;
			return *later ? 0 : fail(path, err, errlen);
		}
		c->made = true;
		c->shared = false;
		*fd = open_dir(path);
		if (*fd < 0)
			return fail(path, err, errlen);
		rc = write_token(*fd, TOKEN_HOST, token); /* *fd stays: teardown removes it */
		if (rc)
			snprintf(err, errlen, "%s/%s: %s", path, TOKEN_HOST, strerror(-rc));
		return rc;
	}
	if (*fd < 0)
		return fail(path, err, errlen);
	c->shared = has_token(*fd, TOKEN_NAME, token);
	if (!c->shared) {
		close(*fd);
		*fd = -1;
		*later = true;
	}
	return 0;
}

/* Ranks > 0, second step, when the first found the path without rank 0's token: it is
 * the directory another rank of this host made, or one nobody of this run made. */
static int join_host_rundir(struct lg_coord *c, const char *path, const char *token, int *fd,
			    char *err, size_t errlen)
{
	*fd = open_dir(path);
	if (*fd < 0)
		return fail(path, err, errlen);
	c->shared = false;
	if (has_token(*fd, TOKEN_HOST, token))
		return 0;
	snprintf(err, errlen, "%s exists here but is not the run directory rank 0 "
		 "created (no token); refusing to use it", path);
	close(*fd);
	*fd = -1;
	return -EEXIST;
}

int lg_coord_rundir(struct lg_coord *c, const char *parent, char **path, int *fd, char *err,
		    size_t errlen)
{
	char msg[4096 + TOKEN_LEN + 8] = { 0 }; /* rank 0's path, NUL, token */
	bool later = false;
	int rc = 0;

	c->shared = true;
	c->made = false;
	if (c->size == 1) /* no rank to share it with: no token */
		return lg_rundir_create(parent, path, fd, err, errlen);
	*path = NULL;
	*fd = -1;
	if (c->rank == 0) {
		make_token(msg + 4096, TOKEN_LEN + 1);
		rc = lg_rundir_create(parent, path, fd, err, errlen);
		if (!rc && strlen(*path) >= 4096)
			rc = -ENAMETOOLONG;
		if (!rc && (rc = write_token(*fd, TOKEN_NAME, msg + 4096)))
			snprintf(err, errlen, "%s/%s: %s", *path, TOKEN_NAME, strerror(-rc));
		if (!rc)
			memcpy(msg, *path, strlen(*path) + 1);
	}
	/* each status is agreed: once one fails, every rank skips the next steps alike */
	rc = lg_coord_status(c, rc, err, errlen);
	if (!rc) {
		rc = lg_coord_bcast(c, msg, sizeof(msg));
		if (!rc && c->rank != 0) {
			*path = strdup(msg);
			rc = *path ? join_rundir(c, msg, msg + 4096, fd, &later, err, errlen)
				   : -ENOMEM;
		}
		rc = lg_coord_status(c, rc, err, errlen);
	}
	if (!rc) { /* every directory a rank made now holds its token */
		if (later)
			rc = join_host_rundir(c, msg, msg + 4096, fd, err, errlen);
		rc = lg_coord_status(c, rc, err, errlen);
	}
	/* every rank looked: the workload must not see the tokens */
	if (*fd >= 0 && (c->rank == 0 || c->made))
		unlinkat(*fd, c->rank == 0 ? TOKEN_NAME : TOKEN_HOST, 0);
	return rc;
}
