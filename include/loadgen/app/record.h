/* `loadgen record`: run a program (or attach to a running process) under strace in a
 * directory and write its filesystem calls there as a YAML workload that loadgen replays
 * (setup: the directory's tree before the run; streams: each traced thread's calls). */
#ifndef LOADGEN_RECORD_H
#define LOADGEN_RECORD_H

/* Entry point; argv[0] is "record". Returns the exit status: 0 recorded (whatever the
 * program's own exit status, which is reported and kept in the workload), 2 for usage
 * errors, strace missing, a directory that does not exist or a trace that does not
 * convert, 130 interrupted (the program and strace stopped, no temporary file left). */
int lg_record_main(int argc, char **argv);

#endif
