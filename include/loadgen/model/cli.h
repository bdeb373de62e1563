/* Usage errors of loadgen and its subcommands, all in one form:
 *
 *   loadgen[ SUBCOMMAND]: what is wrong
 *   Try 'loadgen[ SUBCOMMAND] --help' for more information.
 *
 * on stderr, exit status 2, with "did you mean" for a misspelt option. The program is
 * always called "loadgen", whatever path argv[0] holds. */
#ifndef LOADGEN_CLI_H
#define LOADGEN_CLI_H

#include <getopt.h>

#define LG_EXIT_USAGE 2 /* bad usage or workload: nothing ran */

/* Print the two lines for sub (NULL for loadgen itself) and return LG_EXIT_USAGE. */
int lg_cli_usage_error(const char *sub, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* After getopt_long (optstring starting with ':', so a missing value is ':') returned
 * opt '?' or ':': say which option is wrong and how, suggesting the closest of opts
 * (NULL-terminated like getopt's) for an unknown one. Returns LG_EXIT_USAGE. */
int lg_cli_bad_option(const char *sub, const struct option *opts, char **argv, int opt);

/* An unknown option arg (as typed, "--bogus=1" or "-x") for a hand-written parser:
 * the message, with the closest of the NULL-terminated long option names (without
 * dashes) suggested. Returns LG_EXIT_USAGE. */
int lg_cli_unknown_option(const char *sub, const char *const *names, const char *arg);

#endif
