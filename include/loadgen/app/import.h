/* `loadgen import`: convert a loadfile (a dbench client.txt, or a YAML workload) into
 * the YAML workload format. */
#ifndef LOADGEN_IMPORT_H
#define LOADGEN_IMPORT_H

/* Run the subcommand: argv[0] is "import", then "FILE [-o OUT]" ("-o -" or no -o:
 * standard output). Returns the exit status: 0, or 2 for a usage error, a loadfile
 * error (FILE:LINE: message on stderr) or an output error. */
int lg_import_main(int argc, char **argv);

#endif
