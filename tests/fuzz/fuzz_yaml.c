/* libFuzzer target: the YAML workload loader.
 *
 * Each input is loaded as a workload for 4 clients, first as it is, then again with
 * two -p overrides of parameters the workload itself declares (so the override path is
 * reached for any input that loads, not only for inputs that happen to declare the
 * names a fixed list would use). The override values come from a small table chosen by
 * the input's first and last bytes: edge cases of every value kind. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/load/yaml_load.h"

#include "fuzz_common.h"

#define FNAME "fuzz.yaml"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const values[] = {
	"0", "1", "4KiB", "18446744073709551615", "18446744073709551616", "-1", "1e30",
	"${bs}", "", "client${client}/../..", "99999999999999999999999", "1.5",
};
#define NVALUES (sizeof(values) / sizeof(values[0]))

/* Load text with the overrides, check the contract; returns the workload or NULL. */
static struct lg_workload *load(const char *text, size_t len, const struct lg_param *ov,
				size_t nov)
{
	struct lg_workload *wl = NULL;
	char err[1024];
	int rc = lg_yaml_load(FNAME, text, len, ov, nov, 4, &wl, err, sizeof(err));

	lg_fuzz_check(FNAME, rc, rc ? NULL : wl, err);
	return rc ? NULL : wl;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes, no terminator: the loader takes a length, so a
	 * read past it is a bug that ASan reports here. */
	char *text = malloc(size ? size : 1);
	struct lg_workload *wl;
	struct lg_param ov[2];
	size_t nov = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	wl = load(text, size, NULL, 0);
	if (wl) {
		for (size_t i = 0; i < wl->nparams && nov < 2; i++, nov++) {
			size_t pick = size ? data[nov ? size - 1 : 0] : 0;

			ov[nov] = (struct lg_param){ wl->params[i].name,
						     (char *)values[pick % NVALUES] };
		}
		lg_workload_destroy(load(text, size, ov, nov));
		lg_workload_destroy(wl);
	}
	free(text);
	return 0;
}
