/* `loadgen ab`'s command line: ab's own options, the run options it forwards to every
 * run, NCLIENTS, and who the variants are (2 to LG_AB_MAX_VARIANTS, names unique). */
#include "ab_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/cli.h"

#define EXIT_USAGE 2

/* Run options that take a value (forwarded with it). */
static const char *const value_opts[] = {
	"-c", "--loadfile", "-t", "--time", "--warmup", "-p", "--param", "-R", "--rate",
	"--rate-ops", "--interval", "--stall-threshold", "--resolve", "--monitor", NULL,
};
/* Run options ab cannot forward: it writes the results itself. */
static const char *const refused_opts[] = {
	"--repeat", "--html", "--log", "--keep", NULL,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen ab [run options] (-D DIR -D DIR ... | --variant NAME=CMD ...)\n"
		"                  [--seed S] [--json FILE] [--out-dir DIR]\n"
		"                  [--fail-if-slower PCT] --rounds N NCLIENTS\n"
		"Compare 2 to %d variants run interleaved: each round runs every variant once,\n"
		"a normal measured run each, in an order that balances position (A B, B A, ...;\n"
		"for more variants a Latin square, each variant in each place once in as many\n"
		"rounds as there are variants; shuffled per round with --seed). Each variant's\n"
		"per-round differences from A, the first, are tested pair by pair (paired\n"
		"t-test, Wilcoxon signed rank), so drift of the machine that hits all alike\n"
		"cannot pass for a difference; the drift is reported apart. With more than two\n"
		"variants the t-tests' p are Holm-adjusted and the verdicts use them.\n\n"
		"  -D, --directory DIR      a variant's directory (once per variant), or with\n"
		"                           --variant the one directory all use (or one each,\n"
		"                           in the order of --variant)\n"
		"      --variant NAME=CMD   a variant (names unique): CMD runs (sh -c) before\n"
		"                           each of its runs and must exit 0; CMD may be empty\n"
		"      --variant-opts NAME=OPTIONS\n"
		"                           extra run options of the variant named NAME by\n"
		"                           an earlier --variant (split at spaces), e.g.\n"
		"                           --variant capped= --variant-opts 'capped=-R 190'\n"
		"      --rounds N           rounds to run (2 to %d)\n"
		"      --seed S             shuffle the order of each round from S (also the\n"
		"                           runs' --seed); default: balanced A B, B A, ...\n"
		"      --json FILE          write the paired analysis as JSON to FILE\n"
		"      --out-dir DIR        where the result files ab-0-NAME.json (A),\n"
		"                           ab-1-NAME.json (B), ... go (default .)\n"
		"      --fail-if-slower PCT\n"
		"                           exit %d when any variant is significantly slower\n"
		"                           than A by more than PCT %%\n"
		"  -h, --help               this help\n\n"
		"Run options are those of loadgen (-t, --warmup, -c, -p, -R, --rate-ops,\n"
		"--drop-caches, ...), except --repeat, --html, --log and --keep.\n"
		"A variant command gets LOADGEN_AB_VARIANT (its name), LOADGEN_AB_INDEX (0 for\n"
		"A, 1 for B, ...), LOADGEN_AB_ROUND (1, 2, ...), LOADGEN_AB_POSITION (its place\n"
		"in the round, 1, 2, ...), LOADGEN_AB_ROUNDS and LOADGEN_AB_DIR (its directory).\n"
		"A failed run stops ab with the run's own failure lines; a run whose measured\n"
		"phase succeeded and only its cleanup failed counts, said beside its round.\n"
		"Significance level %g (family-wise). Exit status: 0 compared, 1 a run or a\n"
		"variant command failed, 2 usage error, %d --fail-if-slower tripped, 130\n"
		"interrupted (the finished rounds are analysed).\n",
		LG_AB_MAX_VARIANTS, LG_AB_MAX_ROUNDS, LG_COMPARE_EXIT_SLOWER, LG_COMPARE_ALPHA,
		LG_COMPARE_EXIT_SLOWER);
}

static bool in_list(const char *const *list, const char *arg)
{
	size_t n = strcspn(arg, "=");

	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == n && !strncmp(list[i], arg, n))
			return true;
	return false;
}

static struct ab_variant *find_variant(struct ab_ctx *c, const char *name, size_t len)
{
	for (size_t i = 0; i < c->nvar; i++)
		if (strlen(c->v[i].name) == len && !strncmp(c->v[i].name, name, len))
			return &c->v[i];
	return NULL;
}

static int add_variant(struct ab_ctx *c, char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return lg_cli_usage_error("ab", "invalid --variant '%s': expected NAME=CMD", arg);
	if (find_variant(c, arg, (size_t)(eq - arg)))
		return lg_cli_usage_error("ab", "--variant '%.*s' given twice", (int)(eq - arg),
					  arg);
	if (c->nvar == LG_AB_MAX_VARIANTS)
		return lg_cli_usage_error("ab", "too many variants at '%s': ab compares at "
					  "most %d", arg, LG_AB_MAX_VARIANTS);
	*eq = '\0';
	c->v[c->nvar++] = (struct ab_variant){ .name = arg, .cmd = eq[1] ? eq + 1 : NULL };
	return 0;
}

/* --variant-opts NAME=OPTIONS, kept for after all variants are known. */
static int add_variant_opts(struct ab_ctx *c, char *arg)
{
	char *eq = strchr(arg, '='), *tok, *save = NULL;
	struct ab_variant *v = eq ? find_variant(c, arg, (size_t)(eq - arg)) : NULL;

	if (!eq || eq == arg)
		return lg_cli_usage_error("ab", "invalid --variant-opts '%s': expected "
					  "NAME=OPTIONS", arg);
	if (!v)
		return lg_cli_usage_error("ab", "--variant-opts '%s': no variant '%.*s' "
					  "given before it", arg, (int)(eq - arg), arg);
	free(v->optbuf);
	if (!(v->optbuf = strdup(eq + 1)))
		return EXIT_USAGE;
	v->nopts = 0;
	for (tok = strtok_r(v->optbuf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (v->nopts == AB_MAX_OPTS)
			return lg_cli_usage_error("ab", "--variant-opts '%s': too many options", arg);
		if (in_list(refused_opts, tok) || in_list((const char *const[]){ "-D",
				"--directory", "--json", "-q", NULL }, tok))
			return lg_cli_usage_error("ab", "--variant-opts '%s': %s cannot be set per "
						  "variant", arg, tok);
		v->opts[v->nopts++] = tok;
	}
	return 0;
}

static int parse_number(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !(*out >= lo && *out <= hi))
		return lg_cli_usage_error("ab", "invalid %s '%s': expected a number from %g to %g",
					  opt, arg, lo, hi);
	return 0;
}

/* One ab option at argv[*i] (its value may be the next argument); 0, -1 when it is no
 * ab option, or an exit status. */
static int ab_option(struct ab_ctx *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	size_t n = strcspn(a, "=");
	char *val = a[n] == '=' ? argv[*i] + n + 1 : NULL;
	double x;

#define IS(s) (strlen(s) == n && !strncmp(a, s, n))
	if (IS("-h") || IS("--help")) {
		usage(stdout);
		exit(0);
	}
	if (!(IS("-D") || IS("--directory") || IS("--variant") || IS("--variant-opts") ||
	      IS("--rounds") || IS("--seed") || IS("--json") || IS("--out-dir") ||
	      IS("--fail-if-slower")))
		return -1;
	if (!val && (*i + 1 >= argc))
		return lg_cli_usage_error("ab", "option '%s' needs a value", a);
	if (!val)
		val = argv[++*i];
	if (IS("-D") || IS("--directory")) {
		if (c->ndirs == LG_AB_MAX_VARIANTS)
			return lg_cli_usage_error("ab", "too many -D at '%s': ab compares at most "
						  "%d", val, LG_AB_MAX_VARIANTS);
		c->dirs[c->ndirs++] = val;
	} else if (IS("--variant")) {
		return add_variant(c, val);
	} else if (IS("--variant-opts")) {
		return add_variant_opts(c, val);
	} else if (IS("--rounds")) {
		if (parse_number("--rounds", val, 2, LG_AB_MAX_ROUNDS, &x) || x != (size_t)x)
			return x != (size_t)x ? lg_cli_usage_error("ab", "invalid --rounds '%s': "
						"expected a whole number", val) : EXIT_USAGE;
		c->rounds = (size_t)x;
	} else if (IS("--seed")) {
		if (parse_number("--seed", val, 0, 9007199254740992.0, &x))
			return EXIT_USAGE;
		c->seed = (uint64_t)x;
		c->fwd[c->nfwd++] = "--seed";
		c->fwd[c->nfwd++] = val;
	} else if (IS("--json")) {
		c->json_path = val;
	} else if (IS("--out-dir")) {
		c->out_dir = val;
	} else {
		if (parse_number("--fail-if-slower", val, 0, 100, &c->slower_pct))
			return EXIT_USAGE;
		c->fail_if_slower = true;
	}
#undef IS
	return 0;
}

/* Sort the arguments: ab's own, the run options to forward, NCLIENTS. */
static int parse_args(struct ab_ctx *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int rc = ab_option(c, argc, argv, &i);

		if (rc >= 0) {
			if (rc)
				return rc;
			continue;
		}
		if (c->nfwd + 3 > AB_MAX_FWD)
			return lg_cli_usage_error("ab", "too many options at '%s'", argv[i]);
		if (argv[i][0] != '-' || !argv[i][1]) {
			if (c->nclients)
				return lg_cli_usage_error("ab", "unexpected argument '%s' (only "
							  "NCLIENTS follows the options)", argv[i]);
			c->nclients = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
			continue; /* the runs are quiet anyway: ab prints one line each */
		if (in_list(refused_opts, argv[i]))
			return lg_cli_usage_error("ab", "%s cannot be used with ab (it runs each "
						  "run once and writes the results itself)", argv[i]);
		c->fwd[c->nfwd++] = argv[i];
		if (in_list(value_opts, argv[i]) && !strchr(argv[i], '=') &&
		    !(argv[i][1] != '-' && argv[i][2]) && i + 1 < argc)
			c->fwd[c->nfwd++] = argv[++i];
	}
	return 0;
}

/* The variants' directories: -D once per variant, once for all, or none (.). */
static int set_dirs(struct ab_ctx *c)
{
	if (c->ndirs > 1 && c->ndirs != c->nvar)
		return lg_cli_usage_error("ab", "%zu -D for %zu variants: give one for all, or "
					  "one per variant", c->ndirs, c->nvar);
	for (size_t i = 0; i < c->nvar; i++)
		c->v[i].dir = c->ndirs > 1 ? c->dirs[i] : c->ndirs ? c->dirs[0] : ".";
	return 0;
}

/* Who the variants are, once every option is read. */
static int check_args(struct ab_ctx *c)
{
	if (!c->nclients)
		return lg_cli_usage_error("ab", "%s", "missing NCLIENTS (the number of clients)");
	if (!c->rounds)
		return lg_cli_usage_error("ab", "%s", "missing --rounds N");
	if (c->nvar == 0) {
		if (c->ndirs < 2)
			return lg_cli_usage_error("ab", "%s", "at least two variants are needed: "
						  "-D DIR -D DIR ..., or --variant NAME=CMD twice "
						  "or more");
		for (size_t i = 0; i < c->ndirs; i++)
			c->v[i] = (struct ab_variant){ .name = c->dirs[i], .dir = c->dirs[i] };
		c->nvar = c->ndirs;
	} else if (c->nvar < 2) {
		return lg_cli_usage_error("ab", "%s", "at least two variants are needed: "
					  "--variant NAME=CMD twice or more");
	} else if (set_dirs(c)) {
		return EXIT_USAGE;
	}
	for (size_t i = 1; i < c->nvar; i++)
		if (find_variant(c, c->v[i].name, strlen(c->v[i].name)) != &c->v[i])
			return lg_cli_usage_error("ab", "two variants are named '%s': names must "
						  "be unique", c->v[i].name);
	return 0;
}

int lg_ab_parse(struct ab_ctx *c, int argc, char **argv)
{
	int status = parse_args(c, argc, argv);

	return status ? status : check_args(c);
}
