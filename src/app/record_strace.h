/* loadgen record's use of strace: finding it, measuring its overhead per traced call on
 * this machine, and running a program (or attaching to a process) under it. */
#ifndef LOADGEN_RECORD_STRACE_H
#define LOADGEN_RECORD_STRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define LG_REC_PATH_LEN 4096

/* The calls traced: those on files and fds, the process calls that make streams, and
 * the directory reads and syncs that %file/%desc do not name. */
#define LG_REC_TRACE_SET "%file,%desc,%process,getdents64,sync"

/* The tracer as found on this machine. */
struct lg_rec_strace {
	char path[LG_REC_PATH_LEN]; /* the strace executable (from PATH) */
	char version[32];           /* "6.1", or "" when strace -V did not say */
	bool seccomp;               /* --seccomp-bpf is used (it is refused with -p) */
	char note[256];             /* why --seccomp-bpf is not used, or "" */
};

/* Set by record's signal handler (SIGINT, SIGTERM, SIGHUP): stop strace and the program. */
extern volatile sig_atomic_t lg_rec_stop;

/* Make record a child subreaper: what strace leaves behind when it stops becomes
 * record's child, for lg_rec_kill_orphans. */
void lg_rec_subreaper(void);

/* After an interrupt: kill record's children (what strace left running) until none is
 * left, for a few seconds at most. */
void lg_rec_kill_orphans(void);

/* Find strace in PATH and ask its version. 0, or -ENOENT when there is none. */
int lg_rec_strace_find(struct lg_rec_strace *s);

/* The options given to strace (without -o, -p and the command), for the provenance:
 * "-f -ttt -T -y -qq --seccomp-bpf -e trace=...". */
const char *lg_rec_strace_opts(const struct lg_rec_strace *s);

/* Measure strace's overhead per traced call: this binary's calibrate child making n
 * newfstatat calls on dir, untraced and then traced with trace written to trace_path;
 * drops --seccomp-bpf from s (saying why in s->note) when strace refuses it. 0, or a
 * negative errno with err; -EINTR when lg_rec_stop was set. */
int lg_rec_calibrate(struct lg_rec_strace *s, const char *dir, const char *trace_path,
		     uint64_t n, uint64_t *overhead_ns, char *err, size_t errlen);

/* The hidden `loadgen record --calibrate-child N DIR`: n newfstatat calls on DIR, then
 * their elapsed nanoseconds on stdout, and _exit (0, or 1 when stdout failed); returns
 * 2 for bad arguments. */
int lg_rec_calibrate_child(int argc, char **argv);

/* Run cmd (NULL-terminated) in dir under strace, writing the trace to trace_path, with
 * record's standard input, output and error. *status: the program's exit status (128 +
 * the signal that ended it). 0, a negative errno with err, or -EINTR when lg_rec_stop
 * stopped it. */
int lg_rec_strace_run(const struct lg_rec_strace *s, const char *dir, char *const *cmd,
		      const char *trace_path, int *status, char *err, size_t errlen);

/* Attach strace to process pid and its threads for for_ns, then stop (SIGINT: strace
 * detaches, the process goes on). 0, a negative errno with err, or -EINTR. */
int lg_rec_strace_attach(const struct lg_rec_strace *s, pid_t pid, uint64_t for_ns,
			 const char *trace_path, char *err, size_t errlen);

/* name's executable: looked up in PATH, or with a '/' in it a path relative to dir
 * (NULL: the current directory), into out. 0 or -ENOENT. */
int lg_rec_which(const char *name, const char *dir, char *out, size_t len);

/* Start argv[0] (a path) with argv in cwd (NULL: ours), its standard output and error
 * on out_fd and err_fd (-1: ours). 0 or a negative errno. */
int lg_rec_spawn(char *const *argv, const char *cwd, int out_fd, int err_fd, pid_t *pid);

/* Whether cmd (a name looked up in PATH, or a path relative to dir) can be run. */
bool lg_rec_command_found(const char *cmd, const char *dir);

#endif
