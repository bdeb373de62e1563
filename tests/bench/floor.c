/* The floor: the least any load generator can do for a workload — the same system calls
 * on the same paths, one clock read per op and a per-thread op counter, nothing else.
 * The benchmark sets loadgen's ops/s against it, so the ratio is loadgen's overhead.
 *
 *   lg_bench_floor [-m mix64k|stat] [-t SECONDS] [-w SECONDS] -d DIR NTHREADS
 *
 * mix64k: per thread in its own directory, the 39 calls of loadfiles/mix64k.yaml:
 *   openat(O_RDWR|O_CREAT|O_TRUNC), 16 x pwrite 64 KiB, fsync, close,
 *   openat(O_RDONLY), 16 x pread 64 KiB, close, fstatat, unlinkat.
 * stat: per thread, fstatat of one existing file (tests/bench/stat1.yaml).
 * The threads run -w seconds of warm-up, then -t measured seconds; the result is one
 * JSON line: {"mode", "clients", "ops", "seconds", "ops_per_s"} (measured phase only) and
 * "ops_total" (warm-up and the ops finished after the measured phase too).
 * It works in a directory DIR/floor.XXXXXX that it removes at the end. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (64 * 1024) /* mix64k's I/O size */
#define BLOCKS 16         /* I/O calls per direction and pass */

/* One thread's state. The counter has its own cache line: it is written only by its
 * thread (relaxed store, no read-modify-write) and read by the main thread. */
struct worker {
	_Alignas(64) _Atomic uint64_t ops; /* ops completed, warm-up included */
	uint64_t last_ns;                  /* end of the previous op (the clock read) */
	pthread_t tid;
	unsigned id;
	int dirfd;                         /* the floor's run directory */
	char path[64];                     /* "client<id>/data", relative to dirfd */
	unsigned char *buf;                /* BLOCK bytes, 4 KiB aligned */
	void *(*body)(void *);
};

static _Atomic int stop;
static pthread_barrier_t start;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

_Noreturn static void die(const char *what, const char *path)
{
	fprintf(stderr, "lg_bench_floor: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

/* An op finished: read the clock, as a generator timing every op must, and count it. */
static inline void done(struct worker *w)
{
	w->last_ns = now_ns();
	atomic_store_explicit(&w->ops, atomic_load_explicit(&w->ops, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

static bool stopped(void)
{
	return atomic_load_explicit(&stop, memory_order_relaxed) != 0;
}

/* n calls of 64 KiB at offsets 0, 64 KiB, ... */
static void io_blocks(struct worker *w, int fd, bool wr)
{
	for (off_t i = 0; i < BLOCKS; i++) {
		ssize_t n = wr ? pwrite(fd, w->buf, BLOCK, i * BLOCK) :
				 pread(fd, w->buf, BLOCK, i * BLOCK);

		if (n != BLOCK)
			die(wr ? "pwrite" : "pread", w->path);
		done(w);
	}
}

static void *run_mix64k(void *arg)
{
	struct worker *w = arg;
	struct stat st;
	int fd;

	pthread_barrier_wait(&start);
	w->last_ns = now_ns();
	while (!stopped()) {
		fd = openat(w->dirfd, w->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			die("create", w->path);
		done(w);
		io_blocks(w, fd, true);
		if (fsync(fd))
			die("fsync", w->path);
		done(w);
		close(fd);
		done(w);
		fd = openat(w->dirfd, w->path, O_RDONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			die("open", w->path);
		done(w);
		io_blocks(w, fd, false);
		close(fd);
		done(w);
		if (fstatat(w->dirfd, w->path, &st, AT_SYMLINK_NOFOLLOW))
			die("stat", w->path);
		done(w);
		if (unlinkat(w->dirfd, w->path, 0))
			die("unlink", w->path);
		done(w);
	}
	return NULL;
}

static void *run_stat(void *arg)
{
	struct worker *w = arg;
	struct stat st;

	pthread_barrier_wait(&start);
	w->last_ns = now_ns();
	while (!stopped()) {
		if (fstatat(w->dirfd, w->path, &st, AT_SYMLINK_NOFOLLOW))
			die("stat", w->path);
		done(w);
	}
	return NULL;
}

/* Untimed setup: the thread's directory, and for stat the file it looks at. */
static void setup(struct worker *w)
{
	char dir[32];
	int fd;

	snprintf(dir, sizeof(dir), "client%u", w->id);
	snprintf(w->path, sizeof(w->path), "%s/data", dir);
	if (mkdirat(w->dirfd, dir, 0755))
		die("mkdir", dir);
	if (w->body == run_stat) {
		fd = openat(w->dirfd, w->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			die("create", w->path);
		close(fd);
	}
	if (posix_memalign((void **)&w->buf, 4096, BLOCK))
		die("posix_memalign", "buffer");
	for (size_t i = 0; i < BLOCK; i++)
		w->buf[i] = (unsigned char)('a' + i % 26);
}

static void teardown(struct worker *w)
{
	char dir[32];

	snprintf(dir, sizeof(dir), "client%u", w->id);
	unlinkat(w->dirfd, w->path, 0); /* a stopped mix64k pass may leave it */
	if (unlinkat(w->dirfd, dir, AT_REMOVEDIR))
		die("rmdir", dir);
	free(w->buf);
}

static uint64_t total_ops(const struct worker *w, unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += atomic_load_explicit(&w[i].ops, memory_order_relaxed);
	return sum;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Release the threads, let them warm up, count the ops of the measured seconds. */
static void measure(struct worker *w, unsigned n, double warm, double secs, const char *mode)
{
	uint64_t ops0, ops1, t0, t1;

	pthread_barrier_wait(&start);
	sleep_s(warm);
	t0 = now_ns();
	ops0 = total_ops(w, n);
	sleep_s(secs);
	t1 = now_ns();
	ops1 = total_ops(w, n);
	atomic_store(&stop, 1);
	for (unsigned i = 0; i < n; i++)
		pthread_join(w[i].tid, NULL);
	printf("{\"mode\": \"%s\", \"clients\": %u, \"ops\": %llu, \"seconds\": %.6f, "
	       "\"ops_per_s\": %.1f, \"ops_total\": %llu}\n", mode, n,
	       (unsigned long long)(ops1 - ops0), (double)(t1 - t0) / 1e9,
	       (double)(ops1 - ops0) * 1e9 / (double)(t1 - t0),
	       (unsigned long long)total_ops(w, n));
}

_Noreturn static void usage(const char *why)
{
	fprintf(stderr, "lg_bench_floor: %s\nusage: lg_bench_floor [-m mix64k|stat] "
		"[-t SECONDS] [-w SECONDS] -d DIR NTHREADS\n", why);
	exit(2);
}

/* A number of seconds, fractions allowed; anything else is a usage error. */
static double seconds(const char *s, const char *opt)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0) || v > 1e6)
		usage(opt);
	return v;
}

struct args {
	const char *mode; /* "mix64k" or "stat" */
	const char *dir;  /* where the run directory is made */
	double secs;      /* measured seconds */
	double warm;      /* warm-up seconds */
	unsigned n;       /* threads */
};

static void parse_args(int argc, char **argv, struct args *a)
{
	char *end;
	unsigned long n;
	int opt;

	*a = (struct args){ .mode = "mix64k", .secs = 5 };
	while ((opt = getopt(argc, argv, "m:t:w:d:")) != -1) {
		if (opt == 'm')
			a->mode = optarg;
		else if (opt == 't')
			a->secs = seconds(optarg, "-t: bad number of seconds");
		else if (opt == 'w')
			a->warm = seconds(optarg, "-w: bad number of seconds");
		else if (opt == 'd')
			a->dir = optarg;
		else
			usage("unknown option");
	}
	if (strcmp(a->mode, "mix64k") && strcmp(a->mode, "stat"))
		usage("-m: unknown mode (mix64k or stat)");
	if (!a->dir)
		usage("-d DIR is required");
	if (optind != argc - 1)
		usage("NTHREADS is required");
	n = strtoul(argv[optind], &end, 10);
	if (*end || n == 0 || n > 100000 || a->secs == 0)
		usage("NTHREADS must be 1 to 100000 and -t above 0");
	a->n = (unsigned)n;
}

int main(int argc, char **argv)
{
	struct args a;
	char run[4096];
	struct worker *w;
	int dirfd;

	parse_args(argc, argv, &a);
	snprintf(run, sizeof(run), "%s/floor.XXXXXX", a.dir);
	if (!mkdtemp(run))
		die("mkdtemp", run);
	dirfd = open(run, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	w = calloc(a.n, sizeof(*w));
	if (dirfd < 0 || !w)
		die("open", run);
	pthread_barrier_init(&start, NULL, a.n + 1);
	for (unsigned i = 0; i < a.n; i++) {
		w[i].id = i;
		w[i].dirfd = dirfd;
		w[i].body = strcmp(a.mode, "stat") ? run_mix64k : run_stat;
		setup(&w[i]);
		errno = pthread_create(&w[i].tid, NULL, w[i].body, &w[i]);
		if (errno)
			die("pthread_create", "");
	}
	measure(w, a.n, a.warm, a.secs, a.mode);
	for (unsigned i = 0; i < a.n; i++)
		teardown(&w[i]);
	close(dirfd);
	if (rmdir(run))
		die("rmdir", run);
	free(w);
	return 0;
}
