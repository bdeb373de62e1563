/* --log FILE: the run streamed as JSON lines (schema "loadgen-log/1") while it happens.
 *
 * Lines, each one JSON object written whole with a single write():
 *   {"type":"header", "schema":"loadgen-log/1", "loadgen", "command", "env", "config",
 *    "workload"}                          once, before the first run starts
 *   {"type":"interval", "run":R, ...}      one per timeline interval (with "sys")
 *   {"type":"kmsg", "run":R, ...}          each kernel message as it is read
 *   {"type":"result", "result":{...}}      the whole result document, last
 * The file is fdatasync'd after every interval by a small thread of its own, so a slow
 * journal commit never delays the master; after a crash everything up to the last
 * interval is on disk. A log without its result line was cut off mid-run (its process
 * or machine died): `loadgen report` and `compare` read it as a partial run
 * (compare_log.c). */
#ifndef LOADGEN_RUNLOG_H
#define LOADGEN_RUNLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#define LG_LOG_SCHEMA "loadgen-log/1"

struct lg_runlog;

/* Create (truncate) path. 0, or a negative errno with err filled ("PATH: why"). */
int lg_runlog_open(const char *path, struct lg_runlog **out, char *err, size_t errlen);
/* Write one line: obj with "type" set to type (obj is stolen). 0 or a negative errno
 * (the first write error is remembered and reported by lg_runlog_close). */
int lg_runlog_put(struct lg_runlog *log, const char *type, json_t *obj);
/* Ask for an fdatasync now (done by the log's thread; returns at once). */
void lg_runlog_sync(struct lg_runlog *log);
/* The index of the next run, counted from 0 by each call. */
unsigned lg_runlog_next_run(struct lg_runlog *log);
/* Sync and close. Returns 0, or the first error writing it had (negative errno). */
int lg_runlog_close(struct lg_runlog *log);

/* What a log file holds, as lg_runlog_read finds it. */
struct lg_runlog_info {
	bool complete;       /* it ends with its result line */
	size_t lines;        /* lines that parse */
	size_t intervals;    /* interval lines */
	size_t kmsgs;        /* kernel message lines */
	unsigned runs;       /* runs that have at least one interval */
	double last_t_s;     /* t_s of the last interval line, or 0 */
	bool torn_tail;      /* the last line is cut short (does not parse): dropped */
	size_t torn_line;    /* that line's number (from 1), when torn_tail */
	size_t torn_bytes;   /* the bytes of it that were there, when torn_tail */
};

/* Whether the file open at f (rewound afterwards) starts like a loadgen log. */
bool lg_runlog_is_log(FILE *f);
/* Read the log at path: *result gets a new reference to its result document when the
 * log is complete (else NULL), info what it holds. A last line that does not parse is
 * the write a crash cut short: dropped (info->torn_tail), never an error. With lines
 * non-NULL, *lines gets a new array of every line kept, in order (line k of the file
 * is element k - 1), so a log cut off mid-run can be read for what it holds. 0, or a
 * negative errno with err filled ("PATH:LINE:COL: why" for a bad line that is not the
 * last); *result and *lines are NULL then. */
int lg_runlog_read(const char *path, json_t **result, struct lg_runlog_info *info,
		   json_t **lines, char *err, size_t errlen);

#endif
