/* `loadgen show [WORKLOAD]`: print a workload (the built-in netbench by default) and
 * its parameters with their defaults and what they are used as. */
#ifndef LOADGEN_SHOW_H
#define LOADGEN_SHOW_H

/* The hint added to errors in the built-in workload, whose text the user cannot see. */
#define LG_SHOW_BUILTIN_HINT "(the built-in workload: 'loadgen show' prints it)"

/* Entry point; argv[0] is "show". Returns the exit status: 0, or 2 for usage errors and
 * workloads that do not load. */
int lg_show_main(int argc, char **argv);

#endif
