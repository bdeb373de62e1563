/* Who else was busy beside a stored result, in one line for the trend: the runs' busy
 * objects (loadgen/env/busy.h) summarised by lg_busy_summary, from the first run that had
 * a notable neighbour, with how many of the result's runs had one. */
#include "history_priv.h"

#include <stdio.h>
#include <string.h>

#include "loadgen/env/busy.h"

bool hist_busy_summary(const json_t *doc, char *buf, size_t len)
{
	const json_t *runs = json_object_get(doc, "runs"), *run;
	size_t i, busy = 0, total = json_array_size(runs);
	char line[256];

	*buf = '\0';
	json_array_foreach(runs, i, run) {
		if (!lg_busy_summary(json_object_get(run, "busy"), line, sizeof(line)))
			continue;
		if (busy++ == 0)
			snprintf(buf, len, "%s", line);
	}
	if (busy && total > 1) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, " (beside %zu of %zu runs)", busy, total);
	}
	return busy > 0;
}
