/* What the master asks of the operating system around a run: dropping caches, probing
 * O_DIRECT, real-time scheduling for itself, the write pattern and absolute sleeps. Private to engine.c. */
#ifndef LOADGEN_ENGINE_OS_H
#define LOADGEN_ENGINE_OS_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

/* --drop-caches: sync, then drop the page cache, dentries and inodes. 0 or a negative
 * errno with err filled. */
int lg_drop_caches(char *err, size_t errlen);
/* --direct: whether the filesystem of the run directory (dirfd, named rundir) accepts
 * O_DIRECT. 0 or a negative errno with err filled. */
int lg_probe_direct(int dirfd, const char *rundir, char *err, size_t errlen);
/* Make the calling thread SCHED_FIFO where allowed. Returns its old policy (with *old
 * its parameters) to restore, or -1 when it stays as it was. */
int lg_master_realtime(struct sched_param *old);

/* The one buffer every write writes from (forked clients inherit it): a recognisable,
 * non-zero pattern of max_io bytes rounded up to 4 KiB, 4 KiB aligned, so files are not
 * zeros that compressing filesystems would shrink. *out is the caller's to free.
 * 0 or -ENOMEM. */
int lg_write_pattern(size_t max_io, const unsigned char **out);
/* Sleep until CLOCK_MONOTONIC time t (ns). */
void lg_sleep_until_ns(uint64_t t);
#endif
