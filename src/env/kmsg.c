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
	return ((double)e->ts_us * 1e3 - (double)t0_ns) / LG_NS_PER_SEC;
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
	return json_pack("{s:b, s:s?, s:I, s:I, s:I, s:o}", "readable", k->fd >= 0,
			 "note", k->note[0] ? k->note : NULL,
			 "count", (json_int_t)k->count, "trouble", (json_int_t)k->trouble,
			 "lost", (json_int_t)k->lost, "messages", a);
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
