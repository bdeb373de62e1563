/* What both fuzz targets check after a load, besides "no crash, no leak": the loader's
 * contract from yaml_load.h and dbench_load.h. A broken contract aborts, so libFuzzer
 * saves the input like any crash. */
#ifndef LOADGEN_FUZZ_COMMON_H
#define LOADGEN_FUZZ_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/workload.h"

/* rc and err of a load of fname: 0 with a workload and no message, or -EINVAL/-ENOMEM
 * with a message that starts "FNAME:" (then a line number, or " out of memory"). */
static inline void lg_fuzz_check(const char *fname, int rc, const struct lg_workload *wl,
				 const char *err)
{
	size_t n = strlen(fname);

	if (rc == 0 && wl && err[0] == '\0')
		return;
	if ((rc == -EINVAL || rc == -ENOMEM) && !strncmp(err, fname, n) && err[n] == ':' &&
	    ((err[n + 1] >= '1' && err[n + 1] <= '9') || !strcmp(err + n, ": out of memory")))
		return;
	fprintf(stderr, "loader contract broken: rc=%d wl=%p err='%s'\n", rc, (void *)wl, err);
	abort();
}

#endif
