/* What the master asks of the operating system around a run (see engine_os.h). */
#include "engine_os.h"
#include "loadgen/model/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LG_DROP_CACHES "/proc/sys/vm/drop_caches"

/* --drop-caches: write back dirty data and drop the page cache, dentries and inodes,
 * so the measured phase starts cold. */
int lg_drop_caches(char *err, size_t errlen)
{
	int fd, rc = 0;

	sync();
	fd = open(LG_DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1)
		rc = -errno;
	if (fd >= 0)
		close(fd);
	if (rc)
		snprintf(err, errlen, "--drop-caches: %s: %s", LG_DROP_CACHES, strerror(-rc));
	return rc;
}

/* --direct: find out before the run whether the filesystem accepts O_DIRECT. */
int lg_probe_direct(int dirfd, const char *rundir, char *err, size_t errlen)
{
	const char *name = ".loadgen-direct-probe";
	int fd = openat(dirfd, name, O_CREAT | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);

	if (fd < 0) {
		int e = errno; /* before snprintf can change it */

		snprintf(err, errlen, "--direct: the filesystem of %s refuses O_DIRECT: %s",
			 rundir, strerror(e));
		return -e;
	}
	close(fd);
	unlinkat(dirfd, name, 0);
	return 0;
}

/* The master must keep time while thousands of clients compete for a few CPUs: under
 * the fair scheduler a master preempted in the middle of an interval waits for every
 * runnable client's slice (seconds at 4096 clients), so progress lines and the stop come
 * late. Where allowed (root, CAP_SYS_NICE) it runs as a real-time thread while it
 * watches; it sleeps almost all the time, so it takes nothing from the clients. The
 * clients were started before, so they do not inherit this. Returns the old policy. */
int lg_master_realtime(struct sched_param *old)
{
	struct sched_param rt = { .sched_priority = 1 };
	int policy;

	if (pthread_getschedparam(pthread_self(), &policy, old) != 0)
		return -1;
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &rt) != 0)
		return -1;
	return policy;
}

int lg_write_pattern(size_t max_io, const unsigned char **out)
{
	size_t len = ((max_io ? max_io : 1) + 4095) & ~(size_t)4095;
	unsigned char *p;

	if (posix_memalign((void **)&p, LG_PAGE_SIZE, len))
		return -ENOMEM;
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)('a' + i % 26);
	*out = p;
	return 0;
}

void lg_sleep_until_ns(uint64_t t)
{
	struct timespec ts = lg_ns_timespec(t);

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}
