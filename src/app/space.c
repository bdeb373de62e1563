/* Whether a workload's files fit before it starts (see space.h).
 *
 * dd writes 2 GiB per client by default, bonnie 1 GiB, overwrite 22 GiB: on a small
 * filesystem such a run fills it within seconds and measures nothing but ENOSPC. The
 * need is a lower bound (lg_footprint: the largest file a client surely writes, times
 * the clients), so the check only refuses what clearly cannot fit; the free space is
 * what this user may use (root: the reserved blocks too). The message names the
 * workload parameters that size that file, with a value that would fit. */
#include "space.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "loadgen/model/footprint.h"
#include "loadgen/model/units.h"

#define FIT 0.9 /* a suggested count leaves this fraction of the free space used */

/* bytes as "2.0 GiB", "512.0 MiB", "100 bytes" into buf. */
static const char *human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)bytes;
	int u = -1;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

/* The parameters whose value is the file's step count, repeat count, step size or
 * size, into buf ("count=131072, bs=16KiB"); the first count-like one, scaled to fit
 * by ratio, into fix ("-p count=52428"); "" when none, or when even 1 would not fit. */
static void params(const struct lg_workload *wl, const struct lg_footprint *fp, double ratio,
		   char *buf, size_t len, char *fix, size_t fixlen)
{
	size_t k = 0;

	buf[0] = fix[0] = '\0';
	for (size_t i = 0; i < wl->nparams; i++) {
		const char *v = wl->params[i].value, *why;
		uint64_t n, sz;
		bool counts = lg_parse_count(v, &n, &why) == 0 && n > 1 &&
			      (n == fp->count || n == fp->loops);
		bool sizes = lg_parse_size(v, &sz, &why) == 0 && sz > 1 &&
			     (sz == fp->size || sz == fp->bytes);

		if (!counts && !sizes)
			continue;
		if (counts && !fix[0] && (double)n * ratio >= 1)
			snprintf(fix, fixlen, "-p %s=%llu", wl->params[i].name,
				 (unsigned long long)((double)n * ratio));
		if (k < len)
			k += (size_t)snprintf(buf + k, len - k, "%s%s=%s", k ? ", " : "",
					      wl->params[i].name, v);
	}
}

int lg_space_check(const struct lg_config *cfg, const struct lg_workload *wl, char *msg,
		   size_t len)
{
	struct lg_footprint fp;
	struct statvfs sv;
	uint64_t need, avail;
	char a[32], b[32], c[32], d[32], names[256], fix[96];
	static const char *const phase[] = { "setup", "run", "cleanup" };

	if (!wl) /* no workload yet (the other preflight checks alone) */
		return 0;
	lg_footprint(wl, &fp);
	if (!fp.bytes || statvfs(cfg->directory, &sv) != 0 || sv.f_blocks == 0)
		return 0; /* nothing to tell, or a filesystem that reports no sizes (some FUSE) */
	need = fp.bytes > UINT64_MAX / cfg->clients ? UINT64_MAX : fp.bytes * cfg->clients;
	avail = (uint64_t)(geteuid() == 0 ? sv.f_bfree : sv.f_bavail) * sv.f_frsize;
	if (need <= avail)
		return 0;
	params(wl, &fp, FIT * (double)avail / (double)need, names, sizeof(names), fix,
	       sizeof(fix));
	snprintf(msg, len,
		 "%s needs at least %s of free space in %s (%s per client: the file written "
		 "at line %u in %s, %llu writes of %s), but it has %s free. "
		 "Lower it%s%s%s%s%s, run fewer clients, or give --no-space-check to run "
		 "anyway (a timed run may end before its files are that large)",
		 wl->name ? wl->name : "the workload", human(need, a, sizeof(a)),
		 cfg->directory, human(fp.bytes, b, sizeof(b)), fp.line, phase[fp.phase],
		 (unsigned long long)(fp.loops * fp.count), human(fp.size, d, sizeof(d)),
		 human(avail, c, sizeof(c)),
		 fix[0] ? " with " : "", fix, names[0] ? " (it is sized by " : "", names,
		 names[0] ? ")" : "");
	return -ENOSPC;
}
