/* An strace text trace of a program (strace -f -ttt -T -y) -> a YAML workload that
 * replays the program's calls in a directory, one stream per traced thread (issue 27).
 *
 * The converter only writes YAML text (the format of loadfiles/README.md with the
 * `streams:`, `after:` and `think:` keys); loading it is the YAML loader's job. */
#ifndef LOADGEN_TRACE_H
#define LOADGEN_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One entry of the recorded directory before the program ran. */
struct lg_tree_entry {
	char *rel;              /* path relative to the directory (owned) */
	char type;              /* 'd' directory, 'f' regular file, 'l' symlink */
	uint64_t size;          /* file size in bytes */
	char *target;           /* symlink target (owned), else NULL */
};

/* What the conversion needs besides the trace. */
struct lg_trace_opts {
	const char *dir;        /* absolute recorded directory (the program's cwd at start) */
	uint64_t overhead_ns;   /* tracer overhead per traced call, subtracted from think times */
	const struct lg_tree_entry *tree; size_t ntree; /* snapshot; NULL: infer from the trace */
	const char *name, *command, *kernel, *date, *tracer; int exit_status; /* provenance */
	/* think times fitted to the program's runs without the tracer (record --timing-runs):
	 * untraced_runs > 0 keeps a wait for a child that is no stream in the think time,
	 * multiplies every think time by think_scale (0: none is kept), and says so in the
	 * provenance, with the runs' median and the fitting replay's time */
	unsigned untraced_runs; double untraced_s, think_scale, fit_replay_s;
};

/* What the converter tells the user. */
struct lg_trace_summary {
	uint64_t calls_kept, calls_left_out, paths_left_out, file_mmaps, streams;
	char example_left_out[256];
	/* calls on the directory that cannot be replayed, by name, with counts */
	struct { char name[32]; uint64_t count; } not_replayed[32]; size_t n_not_replayed;
};

/* Convert an strace text trace (strace -f -ttt -T -y, any of -qq/--seccomp-bpf) read from in
 * (named in_name in messages) into the YAML workload written to out. 0, or -EINVAL with
 * "in_name:line:col: what is wrong" in err (a foreign or truncated trace), or -ENOMEM. */
int lg_trace_convert(FILE *in, const char *in_name, const struct lg_trace_opts *o, FILE *out,
		     struct lg_trace_summary *sum, char *err, size_t errlen);

/* Whether text (the start of a file, len bytes) looks like an strace -f trace: its first
 * line is "PID TIME name(". Used by `loadgen import` to tell traces from loadfiles. */
int lg_trace_sniff(const char *text, size_t len);

#endif
