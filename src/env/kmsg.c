/* Following /dev/kmsg (see loadgen/kmsg.h). Each read() of /dev/kmsg returns one record;
 * EAGAIN means none is left, EPIPE that records were overwritten before we read them
 * (counted as lost, and reading goes on). */
#include "loadgen/env/kmsg.h"
#include "loadgen/model/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lg_kmsg {
	int fd;                                    /* /dev/kmsg, or -1 when unreadable */
	char path[128];                            /* what fd is */
	bool have_off;                             /* off_ns was measured */
	int64_t off_ns;                            /* kernel clock - CLOCK_MONOTONIC */
	uint64_t off_err_ns;                       /* half the marker's write time */
	char note[160];                            /* why it cannot be read, or "" */
	unsigned long count;                       /* messages kept */
	unsigned long trouble;                     /* of them, with a sign of trouble */
	unsigned long lost;                        /* records overwritten before being read */
	size_t nstored;                            /* entries in stored */
	struct lg_kmsg_entry stored[LG_KMSG_KEEP]; /* the first kept messages */
};

/* Signs of trouble, looked for in every line whatever its level. */
static const struct {
	const char *needle; /* substring of the message */
	const char *also;   /* a second substring the line must hold too, or NULL */
} signs[] = {
	{ "WARNING:", NULL },           { "BUG:", NULL },
	{ "Oops", NULL },               { "blocked for more than", NULL },
	{ "INFO: task", NULL },         { "EXT4-fs error", NULL },
	{ "XFS", "Corruption" },        { "BTRFS error", NULL },
	{ "I/O error", NULL },          { "Out of memory", NULL },
	{ "oom-kill", NULL },           { "Killed process", NULL },
	{ "general protection fault", NULL }, { "soft lockup", NULL },
	{ "hard LOCKUP", NULL },        { "Call Trace:", NULL },
};

static const char *const level_names[] = {
	"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

const char *lg_kmsg_level_name(int level)
{
	return level >= 0 && level < 8 ? level_names[level] : "?";
}

static const char *trouble_of(const char *text)
{
	for (size_t i = 0; i < sizeof(signs) / sizeof(signs[0]); i++)
		if (strstr(text, signs[i].needle) && (!signs[i].also || strstr(text, signs[i].also)))
			return signs[i].needle;
	return NULL;
}

int lg_kmsg_parse(const char *rec, struct lg_kmsg_entry *out)
{
	unsigned long long pri, seq, ts;
	const char *semi = strchr(rec, ';');
	size_t len;
	int used = 0;

	memset(out, 0, sizeof(*out));
	if (!semi || sscanf(rec, "%llu,%llu,%llu%n", &pri, &seq, &ts, &used) != 3 ||
	    rec + used > semi)
		return -EINVAL;
	len = strcspn(semi + 1, "\n"); /* continuation lines (" KEY=value") are dropped */
	if (len >= sizeof(out->text))
		len = sizeof(out->text) - 1;
	memcpy(out->text, semi + 1, len);
	out->text[len] = '\0';
	out->seq = seq;
	out->ts_us = ts;
	out->t_ns = ts * 1000; /* lg_kmsg_poll puts it on CLOCK_MONOTONIC */
	out->level = (int)(pri & 7);
	out->facility = (int)(pri >> 3);
	out->trouble = trouble_of(out->text);
	return out->level <= LG_KMSG_WARNING || out->trouble ? 1 : 0;
}

int lg_kmsg_open(const char *path, struct lg_kmsg **out)
{
	struct lg_kmsg *k = calloc(1, sizeof(*k));

	*out = k;
	if (!k)
		return -ENOMEM;
	snprintf(k->path, sizeof(k->path), "%s", path);
	k->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		int e = errno;

		snprintf(k->note, sizeof(k->note), "%s cannot be read: %s%s", path, strerror(e),
			 e == EPERM || e == EACCES ?
			 " (not root, and kernel.dmesg_restrict is set); kernel messages not watched" :
			 "; kernel messages not watched");
		return 0;
	}
	/* only what happens from now on */
	if (lseek(k->fd, 0, SEEK_END) < 0) {
		snprintf(k->note, sizeof(k->note), "%s: seek to the end: %s", path, strerror(errno));
		close(k->fd);
		k->fd = -1;
	}
	return 0;
}

void lg_kmsg_close(struct lg_kmsg *k)
{
	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	free(k);
}

/* The offset last measured in this process, shared by the runs' monitors (they run one
 * after another in the master). */
static struct {
	bool have;
	int64_t off_ns;
	uint64_t err_ns, at_ns;
} last_mark;

/* Our marker's record among those readable on rfd (positioned just before it was
 * written): its timestamp in µs, or -1. */
static long long find_mark(int rfd, const char *line)
{
	char rec[8192];

	for (int tries = 0; tries < 256; tries++) {
		unsigned long long pri, seq, ts;
		const char *semi;
		ssize_t n = read(rfd, rec, sizeof(rec) - 1);

		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		if (n <= 0)
			return -1;
		rec[n] = '\0';
		semi = strchr(rec, ';');
		if (semi && sscanf(rec, "%llu,%llu,%llu", &pri, &seq, &ts) == 3 &&
		    strncmp(semi + 1, line, strlen(line)) == 0 && semi[1 + strlen(line)] == '\n')
			return (long long)ts;
	}
	return -1;
}

int lg_kmsg_mark(struct lg_kmsg *k, const char *text)
{
	char line[256], out[264];
	uint64_t a, b, now = lg_now_ns();
	long long ts;
	int rfd, wfd, len, rc = 0;

	if (!k || k->fd < 0)
		return -EBADF;
	if (last_mark.have && now - last_mark.at_ns < (uint64_t)LG_KMSG_MARK_S * LG_NS_PER_SEC) {
		k->have_off = true;
		k->off_ns = last_mark.off_ns;
		k->off_err_ns = last_mark.err_ns;
		return 0;
	}
	snprintf(line, sizeof(line), "loadgen[%ld]: %s", (long)getpid(), text);
	/* facility user, level info: the kernel would make facility 0 (kernel) user anyway */
	len = snprintf(out, sizeof(out), "<14>%s\n", line);
	rfd = open(k->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rfd < 0)
		return -errno;
	wfd = open(k->path, O_WRONLY | O_CLOEXEC);
	if (wfd < 0 || lseek(rfd, 0, SEEK_END) < 0) {
		rc = -errno;
		goto out;
	}
	a = lg_now_ns();
	if (write(wfd, out, (size_t)len) != len) {
		rc = errno ? -errno : -EIO;
		goto out;
	}
	b = lg_now_ns();
	ts = find_mark(rfd, line);
	if (ts < 0) {
		rc = -ENOMSG; /* rate-limited, or the log is not a kernel log */
		goto out;
	}
	k->have_off = true;
	k->off_ns = ts * 1000 - (int64_t)(a / 2 + b / 2);
	k->off_err_ns = (b - a) / 2;
	last_mark.have = true;
	last_mark.off_ns = k->off_ns;
	last_mark.err_ns = k->off_err_ns;
	last_mark.at_ns = b;
out:
	close(rfd);
	if (wfd >= 0)
		close(wfd);
	return rc;
}

bool lg_kmsg_offset(const struct lg_kmsg *k, int64_t *off_ns, uint64_t *err_ns)
{
	if (!k || !k->have_off)
		return false;
	*off_ns = k->off_ns;
	*err_ns = k->off_err_ns;
	return true;
}

unsigned lg_kmsg_poll(struct lg_kmsg *k, lg_kmsg_fn fn, void *ctx)
{
	char rec[8192];
	unsigned kept = 0;

	while (k && k->fd >= 0) {
		struct lg_kmsg_entry e;
		ssize_t n = read(k->fd, rec, sizeof(rec) - 1);

		if (n < 0 && errno == EPIPE) {
			k->lost++;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* EAGAIN: nothing more now */
		rec[n] = '\0';
		if (lg_kmsg_parse(rec, &e) != 1)
			continue;
		if (k->have_off)
			e.t_ns = (uint64_t)((int64_t)e.t_ns - k->off_ns);
		kept++;
		k->count++;
		k->trouble += e.trouble != NULL;
		if (k->nstored < LG_KMSG_KEEP)
			k->stored[k->nstored++] = e;
		if (fn)
			fn(&e, ctx);
	}
	return kept;
}

unsigned long lg_kmsg_count(const struct lg_kmsg *k)
{
	return k ? k->count : 0;
}

static double rel_s(const struct lg_kmsg_entry *e, uint64_t t0_ns)
{
	return ((double)e->t_ns - (double)t0_ns) / LG_NS_PER_SEC;
}

json_t *lg_kmsg_entry_json(const struct lg_kmsg_entry *e, uint64_t t0_ns)
{
	return json_pack("{s:f, s:i, s:s, s:i, s:s?, s:s%}", "t_s", rel_s(e, t0_ns),
			 "level", e->level, "level_name", lg_kmsg_level_name(e->level),
			 "facility", e->facility, "trouble", e->trouble,
			 "text", e->text, strlen(e->text));
}

json_t *lg_kmsg_json(const struct lg_kmsg *k, uint64_t t0_ns)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < k->nstored; i++) {
		if (json_array_append_new(a, lg_kmsg_entry_json(&k->stored[i], t0_ns))) {
			json_decref(a);
			a = NULL;
		}
	}
	return json_pack("{s:b, s:s?, s:I, s:I, s:I, s:o, s:o}", "readable", k->fd >= 0,
			 "note", k->note[0] ? k->note : NULL,
			 "count", (json_int_t)k->count, "trouble", (json_int_t)k->trouble,
			 "lost", (json_int_t)k->lost, "messages", a,
			 /* kernel clock - CLOCK_MONOTONIC, ms, and its uncertainty */
			 "clock_offset", k->have_off ?
			 json_pack("{s:f, s:f}", "ms", (double)k->off_ns / 1e6,
				   "uncertainty_ms", (double)k->off_err_ns / 1e6) : json_null());
}

void lg_kmsg_print(FILE *out, const struct lg_kmsg *k, uint64_t t0_ns)
{
	static const char bar[] = "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
				  "!!!!!!!!!!!!!!!!!!!!";

	if (!k)
		return;
	if (k->fd < 0) {
		fprintf(out, "\nKernel log: %s\n", k->note);
		return;
	}
	if (!k->count && !k->lost)
		return;
	fprintf(out, "\n%s\n!! KERNEL: %lu message%s of warning level or worse / signs of "
		"trouble during this run (%lu with trouble)\n", bar, k->count,
		k->count == 1 ? "" : "s", k->trouble);
	if (k->lost)
		fprintf(out, "!! %lu records were overwritten before loadgen read them\n", k->lost);
	for (size_t i = 0; i < k->nstored; i++) {
		const struct lg_kmsg_entry *e = &k->stored[i];

		fprintf(out, "!! %+10.3fs %-7s %s\n", rel_s(e, t0_ns), lg_kmsg_level_name(e->level),
			e->text);
	}
	if (k->count > k->nstored)
		fprintf(out, "!! ... and %lu more (see the JSON result / --log)\n",
			k->count - k->nstored);
	fprintf(out, "!! (times: seconds from the start of the measured phase)\n%s\n", bar);
}
