/* Kernel messages during a run, from /dev/kmsg.
 *
 * The master opens the kernel log just before setup, positioned at its end, and drains it
 * without blocking once per interval and after cleanup. Kept are lines of warning level and
 * above and lines with a known sign of trouble (WARNING:, BUG:, Oops, hung tasks, filesystem
 * errors, I/O errors, OOM kills), whatever their level. Where the log cannot be read (not
 * root with kernel.dmesg_restrict=1, no /dev/kmsg) that is said once; it is never an error. */
#ifndef LOADGEN_KMSG_H
#define LOADGEN_KMSG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define LG_KMSG_KEEP 200     /* messages stored in the result (more are only counted) */
#define LG_KMSG_TEXT 480     /* bytes kept of one message */
#define LG_KMSG_WARNING 4    /* syslog level of a warning: this and below (worse) are kept */

/* One kept kernel message. */
struct lg_kmsg_entry {
	uint64_t seq;             /* the kernel's sequence number */
	uint64_t ts_us;           /* kernel timestamp, µs (the printk clock, see t_ns) */
	uint64_t t_ns;            /* the same on CLOCK_MONOTONIC (lg_kmsg_mark) */
	int level;                /* syslog level: 0 emerg ... 7 debug */
	int facility;             /* syslog facility: 0 kernel, 1 user, ... */
	const char *trouble;      /* the sign of trouble matched (static), or NULL */
	char text[LG_KMSG_TEXT];  /* the message, as the kernel escaped it */
};

struct lg_kmsg;

/* Called for each kept message as it is read (e.g. to stream it to --log). */
typedef void (*lg_kmsg_fn)(const struct lg_kmsg_entry *e, void *ctx);

/* Follow the kernel log at path ("/dev/kmsg") from its current end. Never fails for the
 * log's sake: when it cannot be read, *out says why (see lg_kmsg_json). 0 or -ENOMEM. */
int lg_kmsg_open(const char *path, struct lg_kmsg **out);
void lg_kmsg_close(struct lg_kmsg *k);
/* The kernel stamps its messages with its own clock (local_clock), which is not
 * CLOCK_MONOTONIC: the two drift apart by milliseconds an hour on a VM here, by seconds
 * after days of uptime (NTP slews only CLOCK_MONOTONIC). Writes one line
 * "loadgen[PID]: TEXT" to the kernel log (as xfstests marks its tests) and reads back its
 * timestamp to learn the offset, within half the write's time (about 0.1 ms); messages
 * read from then on carry t_ns on CLOCK_MONOTONIC. Once per LG_KMSG_MARK_S seconds per
 * process at most (a sweep of short runs must not fill the kernel log); in between the
 * offset last measured is used. 0, or -errno when the log cannot be written (not
 * root): then t_ns is the kernel's time as it is, offset 0. */
#define LG_KMSG_MARK_S 10
int lg_kmsg_mark(struct lg_kmsg *k, const char *text);
/* The offset measured (kernel clock minus CLOCK_MONOTONIC, ns) and its uncertainty;
 * false when none was. */
bool lg_kmsg_offset(const struct lg_kmsg *k, int64_t *off_ns, uint64_t *err_ns);
/* Read every record available now, without blocking; kept ones are stored and passed to
 * fn (may be NULL). Returns the number of messages kept by this call. */
unsigned lg_kmsg_poll(struct lg_kmsg *k, lg_kmsg_fn fn, void *ctx);
/* Parse one /dev/kmsg record ("PRI,SEQ,TS,FLAGS;text\n KEY=v\n"). The entry is filled
 * and 1 returned when it is to be kept, 0 when not, -EINVAL when malformed. */
int lg_kmsg_parse(const char *rec, struct lg_kmsg_entry *out);
/* Name of a syslog level ("emerg" ... "debug"). */
const char *lg_kmsg_level_name(int level);

/* Messages kept so far, and the stored ones. */
unsigned long lg_kmsg_count(const struct lg_kmsg *k);
/* The "kernel_messages" object: readable, note, count, trouble, lost, messages[] with
 * t_s relative to t0_ns (CLOCK_MONOTONIC, the measured phase's start). New reference or
 * NULL. */
json_t *lg_kmsg_json(const struct lg_kmsg *k, uint64_t t0_ns);
/* One message as JSON, t_s relative to t0_ns. */
json_t *lg_kmsg_entry_json(const struct lg_kmsg_entry *e, uint64_t t0_ns);
/* The box at the end of the text report: nothing when nothing was kept and the log was
 * readable; one line when it could not be read. */
void lg_kmsg_print(FILE *out, const struct lg_kmsg *k, uint64_t t0_ns);

#endif
