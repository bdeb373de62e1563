/* Files a command reads and writes, told apart before anything is written: a result, a
 * report or a log given the path of another output, or of an input, would replace it
 * (`--json r.json --html r.json` left only the report; `report r.json -o r.json` and
 * `import client.txt -o client.txt` overwrote their input). */
#ifndef LOADGEN_PATHS_H
#define LOADGEN_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* One file named on the command line. */
struct lg_named_path {
	const char *what; /* how the user named it: "--json", "-o", "the loadfile" */
	const char *path; /* as given; NULL (not given) and "-" (standard output) are skipped */
	bool output;      /* written by the command (an input is only read) */
};

/* Whether a and b name the same file: the same inode when both exist, else the same
 * name in the same (real) directory, so "r.json" and "./d/../r.json" are one file before
 * either is written. */
bool lg_path_same(const char *a, const char *b);

/* Check that no output of p[0..n) names the same file as another entry (an input or
 * another output). 0, or -EINVAL with err "WHAT PATH and WHAT PATH name the same file:
 * ...". */
int lg_paths_distinct(const struct lg_named_path *p, size_t n, char *err, size_t errlen);

/* Check that path can take an output written atomically (a temporary file beside it,
 * renamed over it): not empty, a regular file or nothing yet (a rename would replace a
 * device node such as /dev/null, or a FIFO, rather than write to it), in a directory
 * that exists and can be written. 0, or a negative errno with err "PATH: why". */
int lg_path_check_output(const char *path, char *err, size_t errlen);

/* The user's data file NAME of loadgen: $XDG_DATA_HOME/loadgen/NAME, else
 * ~/.local/share/loadgen/NAME (the calibration store, the history). 0, -ENOENT when
 * neither variable is set, or -ENAMETOOLONG. */
int lg_path_user_data(const char *name, char *buf, size_t len);

/* mkdir -p of path's directory (mode 0755). 0 or a negative errno. */
int lg_path_make_parents(const char *path);

#endif
