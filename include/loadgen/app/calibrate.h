/* `loadgen calibrate`: take A/A batches of a setup and store this machine's spread
 * between batches for `loadgen compare` (calibration.h). */
#ifndef LOADGEN_CALIBRATE_H
#define LOADGEN_CALIBRATE_H

/* `loadgen calibrate [options] [run options] NCLIENTS` or `--from FILES`, argv[0] =
 * "calibrate". Returns the exit status: 0, 1 (a batch failed), 2 (usage), 130. */
int lg_calibrate_main(int argc, char **argv);

#endif
