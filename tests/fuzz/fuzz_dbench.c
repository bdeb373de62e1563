/* libFuzzer target: dbench loadfile detection and the dbench loader.
 *
 * Every input goes through lg_dbench_detect (which the CLI runs on any loadfile) and
 * lg_dbench_load, whatever detect said: the loader must refuse non-dbench text cleanly
 * too. The text is passed without a terminator in the copy's length, so a read past
 * len is caught by ASan. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/load/dbench_load.h"

#include "fuzz_common.h"

#define FNAME "fuzz.txt"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lg_workload *wl = NULL;
	char *text = malloc(size ? size : 1), err[1024];
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	(void)lg_dbench_detect(text, size);
	rc = lg_dbench_load(FNAME, text, size, 4, &wl, err, sizeof(err));
	lg_fuzz_check(FNAME, rc, rc ? NULL : wl, err);
	if (!rc)
		lg_workload_destroy(wl);
	free(text);
	return 0;
}
