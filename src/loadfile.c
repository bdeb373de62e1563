/* Reading a loadfile, and choosing its loader by content (not by file name). */
#include "loadgen/loadfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "loadgen/dbench_load.h"
#include "loadgen/yaml_load.h"

int lg_loadfile_read(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL, *nb;
	int rc = 0;

	if (!f)
		return -errno;
	while (!rc) {
		if (!(nb = realloc(buf, cap + 1))) {
			rc = -ENOMEM;
			break;
		}
		buf = nb;
		n += fread(buf + n, 1, cap - n, f);
		if (ferror(f))
			rc = -EIO;
		else if (n < cap)
			break;
		else if (cap >= LG_LOADFILE_MAX)
			rc = -EFBIG;
		cap *= 2;
	}
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int lg_loadfile_compile(const char *name, const char *text, size_t len,
			const struct lg_param *params, size_t nparams, unsigned clients,
			struct lg_workload **wl, char *err, size_t errlen)
{
	if (!lg_dbench_detect(text, len))
		return lg_yaml_load(name, text, len, params, nparams, clients, wl, err, errlen);
	if (nparams) {
		snprintf(err, errlen, "%s: dbench loadfiles take no -p parameters", name);
		return -EINVAL;
	}
	return lg_dbench_load(name, text, len, clients, wl, err, errlen);
}
