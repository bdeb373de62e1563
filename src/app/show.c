/* `loadgen show [WORKLOAD]`: the workload a run would use, and its parameters.
 *
 * The text is printed as it is (so `loadgen show > my.yaml` gives an editable copy of the
 * built-in workload) and the parameters follow as YAML comments, keeping the output a
 * valid workload. The workload is compiled first, exactly as a run would, so show is
 * also a check: a workload that would not run prints its error and exits 2. A dbench
 * loadfile is summarised rather than printed (client.txt is 26 MB). */
#include "loadgen/app/show.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/builtin.h"
#include "loadgen/model/cli.h"
#include "loadgen/load/dbench_load.h"
#include "loadgen/load/loadfile.h"
#include "loadgen/load/yaml_load.h"
#include "show_streams.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loadgen show [WORKLOAD]\n"
		"Print a workload and its parameters (name, default, type, first use). WORKLOAD\n"
		"is found as -c finds it: a file, or a shipped loadfile by name (fileserver).\n"
		"Without WORKLOAD: the built-in netbench that runs when -c is not given; save it\n"
		"with 'loadgen show > netbench.yaml' to edit it, run it with -c netbench.yaml.\n"
		"The workload is compiled as a run would: errors exit 2.\n\n"
		"  -h, --help   this help\n");
}

/* What a parameter's type means for the values it takes. */
static const char *kind_note(const char *kind)
{
	static const struct {
		const char *kind;
		const char *note;
	} notes[] = {
		{ "size", "size (B, KiB, MiB, GiB, TiB; kB, MB, GB, TB)" },
		{ "duration", "duration (ns, us, ms, s, m, h)" },
		{ "number", "whole number" },
		{ "path", "path (relative to the run directory)" },
	};

	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (!strcmp(notes[i].kind, kind))
			return notes[i].note;
	return kind;
}

static void print_params(const struct lg_yparam_info *p, size_t n)
{
	int wn = 4, wv = 7;

	if (n == 0) {
		printf("\n# Parameters: none (this workload takes no -p).\n");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if ((int)strlen(p[i].name) > wn)
			wn = (int)strlen(p[i].name);
		if ((int)strlen(p[i].value) > wv)
			wv = (int)strlen(p[i].value);
	}
	printf("\n# Parameters (set with -p NAME=VALUE; ${clients} and ${client} are built in):\n"
	       "#   %-*s  %-*s  %s\n", wn, "NAME", wv, "DEFAULT", "TYPE");
	for (size_t i = 0; i < n; i++)
		printf("#   %-*s  %-*s  %s%s%s%s\n", wn, p[i].name, wv, p[i].value,
		       kind_note(p[i].kind), *p[i].key ? ", first used as '" : "", p[i].key,
		       *p[i].key ? "'" : "");
}

/* Compile and print one workload; name is how messages call it. */
static int show(const char *name, const char *text, size_t len, bool builtin)
{
	struct lg_workload *wl = NULL;
	struct lg_yparam_info *p = NULL;
	char err[1024];
	size_t n = 0;
	int rc;

	if (!builtin && lg_dbench_detect(text, len)) {
		rc = lg_loadfile_compile(name, text, len, NULL, 0, 1, &wl, err, sizeof(err));
		if (!rc)
			printf("# %s: a dbench loadfile; it takes no parameters.\n"
			       "# 'loadgen import %s' writes it as a YAML workload.\n", name, name);
		goto out;
	}
	rc = lg_yaml_describe(name, text, len, NULL, 0, 1, &wl, &p, &n, err, sizeof(err));
	if (rc)
		goto out;
	if (builtin)
		printf("# %s: the workload loadgen runs when -c is not given.\n", name);
	if (wl->nstreams) { /* a recorded program: what it does, not its many steps */
		lg_show_streams(stdout, wl);
		goto out;
	}
	fwrite(text, 1, len, stdout);
	if (len && text[len - 1] != '\n')
		putchar('\n');
	print_params(p, n);
out:
	if (rc)
		fprintf(stderr, "loadgen show: %s%s%s\n", err, builtin ? " " : "",
			builtin ? LG_SHOW_BUILTIN_HINT : "");
	lg_yparam_info_free(p, n);
	lg_workload_destroy(wl);
	return rc ? LG_EXIT_USAGE : 0;
}

int lg_show_main(int argc, char **argv)
{
	static const char *const names[] = { "help", NULL };
	const char *path = NULL;
	char *text = NULL, found[LG_LOADFILE_PATH_MAX], err[1024];
	size_t len = 0;
	bool options = true; /* until "--" */
	int rc;

	for (int i = 1; i < argc; i++) {
		if (options && !strcmp(argv[i], "--")) {
			options = false;
			continue;
		}
		if (options && (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))) {
			usage(stdout);
			return 0;
		}
		if (options && argv[i][0] == '-' && argv[i][1])
			return lg_cli_unknown_option("show", names, argv[i]);
		if (path)
			return lg_cli_usage_error("show", "unexpected argument '%s' (one workload "
						  "at a time)", argv[i]);
		path = argv[i];
	}
	if (!path)
		return show("builtin:netbench", lg_builtin_netbench, lg_builtin_netbench_len,
			    true);
	/* the lookup of -c: a file here, a path, or an installed loadfile by name */
	rc = lg_loadfile_load(path, &text, &len, found, sizeof(found), err, sizeof(err));
	if (rc) {
		fprintf(stderr, "loadgen show: %s\n", err);
		return LG_EXIT_USAGE;
	}
	rc = show(found, text, len, false);
	free(text);
	return rc;
}
