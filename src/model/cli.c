/* Uniform usage errors (see include/loadgen/model/cli.h).
 *
 * getopt's own messages are turned off (opterr = 0) by every parser: they carry argv[0]
 * (a full path when loadgen is run as one) and differ in wording from ours. Here the
 * three ways an option can be wrong are told apart from what getopt leaves behind:
 * unknown (with a suggestion), ambiguous prefix, and a value missing or not wanted. */
#include "loadgen/model/cli.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "loadgen/model/suggest.h"

int lg_cli_usage_error(const char *sub, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "loadgen%s%s: ", sub ? " " : "", sub ? sub : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'loadgen%s%s --help' for more information.\n", sub ? " " : "",
		sub ? sub : "");
	return LG_EXIT_USAGE;
}

/* The long option named by arg ("--name" or "--name=value"), exactly; NULL if none. */
static const struct option *find_long(const struct option *opts, const char *arg,
				      size_t *nlen, unsigned *prefixed)
{
	const char *name = arg + 2;

	*nlen = strcspn(name, "=");
	*prefixed = 0;
	for (size_t i = 0; opts[i].name; i++) {
		if (strlen(opts[i].name) == *nlen && !strncmp(opts[i].name, name, *nlen))
			return &opts[i];
		if (!strncmp(opts[i].name, name, *nlen))
			(*prefixed)++;
	}
	return NULL;
}

/* "--d is ambiguous (--directory, --direct, ...)". */
static int ambiguous(const char *sub, const struct option *opts, const char *arg,
		     size_t nlen)
{
	char list[256];
	size_t o = 0;

	list[0] = '\0';
	for (size_t i = 0; opts[i].name && o < sizeof(list); i++) {
		if (strncmp(opts[i].name, arg + 2, nlen) != 0)
			continue;
		int n = snprintf(list + o, sizeof(list) - o, "%s--%s", o ? ", " : "",
				 opts[i].name);

		if (n > 0)
			o += (size_t)n;
	}
	return lg_cli_usage_error(sub, "option '%.*s' is ambiguous; it could be %s",
				  (int)nlen + 2, arg, list);
}

/* A long option typed as arg that getopt refused. */
static int bad_long(const char *sub, const struct option *opts, const char *arg, int opt)
{
	const char *names[128];
	unsigned prefixed;
	size_t nlen, n = 0;
	const struct option *o = find_long(opts, arg, &nlen, &prefixed);

	if (!o && prefixed > 1)
		return ambiguous(sub, opts, arg, nlen);
	if (!o && prefixed == 1) /* getopt took the prefix: find the option it means */
		for (size_t i = 0; opts[i].name && !o; i++)
			if (!strncmp(opts[i].name, arg + 2, nlen))
				o = &opts[i];
	if (o && opt == ':')
		return lg_cli_usage_error(sub, "option '--%s' needs a value", o->name);
	if (o && o->has_arg == no_argument && arg[2 + nlen] == '=')
		return lg_cli_usage_error(sub, "option '--%s' takes no value (in '%s')", o->name,
					  arg);
	while (opts[n].name && n + 1 < sizeof(names) / sizeof(names[0])) {
		names[n] = opts[n].name;
		n++;
	}
	names[n] = NULL;
	return lg_cli_unknown_option(sub, names, arg);
}

/* Whether getopt stopped on an unknown letter inside a word of short options ("-xq"):
 * it then stays on that word (argv[optind]), so argv[optind - 1] is the word before. A
 * long option it refused has moved it on, and an unknown long one leaves optopt 0. */
static bool inside_short_word(char **argv)
{
	const char *w = argv[optind];

	return optopt && w && w[0] == '-' && w[1] && w[1] != '-' && strchr(w + 1, optopt);
}

int lg_cli_bad_option(const char *sub, const struct option *opts, char **argv, int opt)
{
	const char *arg = argv[optind - 1];

	if (arg && arg[0] == '-' && arg[1] == '-' && arg[2] && !inside_short_word(argv))
		return bad_long(sub, opts, arg, opt);
	if (opt == ':')
		return lg_cli_usage_error(sub, "option '-%c' needs a value", optopt);
	return lg_cli_usage_error(sub, "unknown option '-%c'", optopt);
}

int lg_cli_unknown_option(const char *sub, const char *const *names, const char *arg)
{
	char word[LG_SUGGEST_MAX_LEN + 1];
	const char *name = arg + strspn(arg, "-");
	struct lg_suggest s;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(name, "="), name);
	for (size_t i = 0; names[i]; i++) /* the name itself, with one dash too few */
		if (!strcmp(names[i], word))
			return lg_cli_usage_error(sub, "unknown option '%s'; did you mean '--%s'?",
						  arg, names[i]);
	lg_suggest_init(&s, word);
	lg_suggest_add_all(&s, names);
	if (lg_suggest_best(&s))
		return lg_cli_usage_error(sub, "unknown option '%s'; did you mean '--%s'?", arg,
					  lg_suggest_best(&s));
	return lg_cli_usage_error(sub, "unknown option '%s'", arg);
}
