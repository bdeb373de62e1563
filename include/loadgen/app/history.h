/* `loadgen history`: a store of results (SQLite), their series and change points. */
#ifndef LOADGEN_HISTORY_H
#define LOADGEN_HISTORY_H

/* loadgen history COMMAND ...: argc/argv from "history" on. Returns the exit status
 * (0 done, 1 the store could not be written, 2 usage error or a file refused, 3 and 5
 * from check --fail-if-slower: slower, cannot tell). */
int lg_history_main(int argc, char **argv);

#endif
