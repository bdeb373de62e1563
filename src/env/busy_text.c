/* Who else was busy, in words: the line of the text report and the phrases `loadgen
 * compare` builds its notes from.
 *
 * A group is named only when it did enough to matter beside a run, by floors that keep
 * a quiet machine's daemons out: at least 16 MB of storage I/O at 1 MB/s or more on
 * average over the phase (of rchar + wchar when it did no storage I/O: tmpfs, pipes), or
 * at least 0.5 CPU-s at 5% of one CPU or more. A quiet run prints nothing. */
#include "loadgen/env/busy.h"

#include <math.h>
#include <string.h>

#define IO_FLOOR 16e6       /* bytes */
#define IO_RATE_FLOOR 1e6   /* bytes per second of the phase */
#define CPU_FLOOR 0.5       /* CPU-s */
#define CPU_SHARE_FLOOR 0.05 /* of one CPU, over the phase */
#define PRINT_MAX 3         /* groups on the report's line */

double lg_busy_io_amount(const struct lg_busy_group *g)
{
	uint64_t st = g->read_bytes + g->write_bytes;

	return (double)(st ? st : g->rchar + g->wchar);
}

bool lg_busy_io_notable(const struct lg_busy_group *g, double secs)
{
	double v = lg_busy_io_amount(g);

	return v >= IO_FLOOR && (!(secs > 0) || v / secs >= IO_RATE_FLOOR);
}

bool lg_busy_cpu_notable(const struct lg_busy_group *g, long hz, double secs)
{
	double v = (double)g->tics / (double)hz;

	return v >= CPU_FLOOR && (!(secs > 0) || v / secs >= CPU_SHARE_FLOOR);
}

bool lg_busy_notable(const struct lg_busy_group *g, long hz, double secs)
{
	return lg_busy_io_notable(g, secs) || lg_busy_cpu_notable(g, hz, secs);
}

/* Bytes as "2.7 GB", "312 MB", "45 kB" (10^3 units, as the report's MB/s). */
static void fmt_bytes(double v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB" };
	size_t u = 0;

	while (v >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, v < 10 && u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

/* Append ", " and what (printf-like of one phrase) to buf. */
static void add(char *buf, size_t len, const char *what)
{
	size_t at = strlen(buf);

	if (at < len)
		snprintf(buf + at, len - at, "%s%s", at ? ", " : "", what);
}

static void describe_io(const struct lg_busy_group *g, char *buf, size_t len)
{
	bool storage = g->read_bytes + g->write_bytes > 0;
	uint64_t r = storage ? g->read_bytes : g->rchar, w = storage ? g->write_bytes : g->wchar;
	char num[32], what[64];

	if (r >= 1000000 || !w) {
		fmt_bytes((double)r, num, sizeof(num));
		snprintf(what, sizeof(what), "read %s", num);
		add(buf, len, what);
	}
	if (w >= 1000000 || !r) {
		fmt_bytes((double)w, num, sizeof(num));
		snprintf(what, sizeof(what), "wrote %s", num);
		add(buf, len, what);
	}
	if (!storage) { /* "read 52 MB (no storage I/O)" */
		size_t at = strlen(buf);

		if (at < len)
			snprintf(buf + at, len - at, " (no storage I/O)");
	}
}

void lg_busy_describe(const struct lg_busy_group *g, long hz, double secs, bool with_pid,
		      char *buf, size_t len)
{
	bool io = lg_busy_io_notable(g, secs), cpu = lg_busy_cpu_notable(g, hz, secs);
	double cpu_s = (double)g->tics / (double)hz;
	char who[96], what[160] = "", num[32];

	if (!io && !cpu) { /* nothing notable: whatever it did */
		io = g->read_bytes + g->write_bytes + g->rchar + g->wchar > 0;
		cpu = g->tics > 0;
	}
	if (g->processes == 1)
		snprintf(who, sizeof(who), "pid %d", g->pids[0]);
	else if (with_pid)
		snprintf(who, sizeof(who), "%u %s, first pid %d", g->processes,
			 g->kernel ? "kernel threads" : "processes", g->pids[0]);
	else
		snprintf(who, sizeof(who), "%u %s", g->processes,
			 g->kernel ? "kernel threads" : "processes");
	if (io)
		describe_io(g, what, sizeof(what));
	if (cpu) {
		snprintf(num, sizeof(num), cpu_s < 10 ? "used %.1f CPU-s" : "used %.0f CPU-s", cpu_s);
		add(what, sizeof(what), num);
	}
	snprintf(buf, len, "%s (%s) %s", g->comm, who, what);
}

bool lg_busy_group_from_json(const json_t *o, long hz, struct lg_busy_group *g)
{
	const char *comm = json_string_value(json_object_get(o, "comm"));
	const json_t *pid;
	size_t i;

	memset(g, 0, sizeof(*g));
	if (!comm || !json_is_number(json_object_get(o, "cpu_s")))
		return false;
	snprintf(g->comm, sizeof(g->comm), "%s", comm);
	g->kernel = json_is_true(json_object_get(o, "kernel"));
	g->processes = (unsigned)json_integer_value(json_object_get(o, "processes"));
	json_array_foreach(json_object_get(o, "pids"), i, pid)
		if (i < LG_BUSY_PIDS)
			g->pids[i] = (int)json_integer_value(pid);
	g->tics = (uint64_t)llround(json_number_value(json_object_get(o, "cpu_s")) * (double)hz);
	g->read_bytes = (uint64_t)json_integer_value(json_object_get(o, "read_bytes"));
	g->write_bytes = (uint64_t)json_integer_value(json_object_get(o, "write_bytes"));
	g->rchar = (uint64_t)json_integer_value(json_object_get(o, "rchar"));
	g->wchar = (uint64_t)json_integer_value(json_object_get(o, "wchar"));
	g->io_unreadable = (unsigned)json_integer_value(json_object_get(o, "io_unreadable"));
	g->via_parent = (uint64_t)json_integer_value(json_object_get(o, "via_parent_bytes"));
	return true;
}

/* Whether a group of that name was already named on the line. */
static bool named(const struct lg_busy_group *v, size_t n, const struct lg_busy_group *g)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].kernel == g->kernel && strcmp(v[i].comm, g->comm) == 0)
			return true;
	return false;
}

size_t lg_busy_summary(const json_t *busy, char *buf, size_t len)
{
	static const char *const lists[] = { "by_io", "by_cpu" };
	double secs = json_number_value(json_object_get(busy, "seconds"));
	struct lg_busy_group v[PRINT_MAX], g;
	size_t n = 0;

	if (len)
		buf[0] = '\0';

	for (int l = 0; l < 2; l++) {
		const json_t *o;
		size_t i;

		json_array_foreach(json_object_get(busy, lists[l]), i, o)
			if (n < PRINT_MAX && lg_busy_group_from_json(o, LG_BUSY_JSON_HZ, &g) &&
			    lg_busy_notable(&g, LG_BUSY_JSON_HZ, secs) && !named(v, n, &g))
				v[n++] = g;
	}
	for (size_t i = 0; i < n; i++) {
		size_t at = strlen(buf);

		if (at + 2 < len) {
			snprintf(buf + at, len - at, "%s", i ? "; " : "");
			at = strlen(buf);
			lg_busy_describe(&v[i], LG_BUSY_JSON_HZ, secs, false, buf + at, len - at);
		}
	}
	return n;
}

void lg_busy_print(FILE *out, const json_t *busy)
{
	const char *readable = json_string_value(json_object_get(busy, "io_readable"));
	char line[PRINT_MAX * 256];

	if (!lg_busy_summary(busy, line, sizeof(line)))
		return;
	fprintf(out, "  Busy beside the run: %s", line);
	if (readable && strcmp(readable, "all") != 0)
		fprintf(out, " (the I/O of other users' processes could not be read)");
	fputc('\n', out);
}
