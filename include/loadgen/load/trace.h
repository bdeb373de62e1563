/* Recorded traces -> the workload model: an strace text trace (strace -f -ttt -T -y, any
 * of -qq/--seccomp-bpf) of a program run in a directory becomes a YAML workload whose
 * setup holds the directory's tree before the run and whose streams replay each traced
 * thread's calls on that directory (the shared spec of issue 27). */
#ifndef LOADGEN_TRACE_H
#define LOADGEN_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lg_tree_entry {          /* one entry of the recorded directory before the program ran */
	char *rel;              /* path relative to the directory (owned) */
	char type;              /* 'd' directory, 'f' regular file, 'l' symlink */
	uint64_t size;          /* file size in bytes */
	char *target;           /* symlink target (owned), else NULL */
};
struct lg_trace_opts {
	const char *dir;        /* absolute recorded directory (the program's cwd at start) */
	uint64_t overhead_ns;   /* tracer overhead per traced call, subtracted from think times */
	const struct lg_tree_entry *tree; size_t ntree; /* snapshot; NULL: infer from the trace */
	const char *name, *command, *kernel, *date, *tracer; int exit_status; /* provenance */
};
struct lg_trace_summary {       /* what the converter tells the user */
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

#endif
