/* O_DIRECT before the run: the alignment the target needs, and the ops that cannot meet
 * it. With O_DIRECT a read or write whose size or offset is not a multiple of the
 * target's logical block size fails with EINVAL on every call; such a workload is
 * refused at load time instead, naming the op and the alignment needed. */
#ifndef LOADGEN_DIRECT_H
#define LOADGEN_DIRECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadgen/model/workload.h"

#define LG_DIRECT_MIN_ALIGN 512 /* smallest logical block size of any device */

/* The alignment O_DIRECT needs under a directory, and where it was learnt. */
struct lg_direct_align {
	uint32_t bytes;   /* offsets and sizes must be multiples of this */
	char source[160]; /* how it was found, for messages ("statx dio_offset_align ...") */
	bool assumed;     /* nothing said: bytes is LG_DIRECT_MIN_ALIGN, the smallest there is */
};

/* Find the alignment for files created under dir: statx's dio_offset_align (Linux 6.1+)
 * of dir, else of an unnamed O_TMPFILE file in it (ext4 and xfs give it for regular
 * files only; the file never has a name), else the logical_block_size of dir's block
 * device in sysfs (a partition's disk's), else LG_DIRECT_MIN_ALIGN (said to be
 * assumed). Never fails. */
void lg_direct_alignment(const char *dir, struct lg_direct_align *out);

/* Check against a every read and write that goes through an O_DIRECT open (every one
 * when all is true: --direct); where only the run can tell which open it goes through,
 * it is not checked. name/text/len: the workload's source, for "NAME:LINE:COL: message"
 * in err. Returns 0, -EINVAL, or -ENOMEM. */
int lg_direct_check(const struct lg_workload *wl, bool all, const struct lg_direct_align *a,
		    const char *name, const char *text, size_t len, char *err, size_t errlen);

#endif
