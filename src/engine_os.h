/* What the master asks of the operating system around a run: dropping caches, probing
 * O_DIRECT, and real-time scheduling for itself. Private to engine.c. */
#ifndef LOADGEN_ENGINE_OS_H
#define LOADGEN_ENGINE_OS_H

#include <sched.h>
#include <stddef.h>

/* --drop-caches: sync, then drop the page cache, dentries and inodes. 0 or a negative
 * errno with err filled. */
int lg_drop_caches(char *err, size_t errlen);
/* --direct: whether the filesystem of the run directory (dirfd, named rundir) accepts
 * O_DIRECT. 0 or a negative errno with err filled. */
int lg_probe_direct(int dirfd, const char *rundir, char *err, size_t errlen);
/* Make the calling thread SCHED_FIFO where allowed. Returns its old policy (with *old
 * its parameters) to restore, or -1 when it stays as it was. */
int lg_master_realtime(struct sched_param *old);

#endif
