/* What a run of loadgen ab says when it did not exit 0: the child's own failure lines
 * (its text report goes to a file, not to /dev/null), and whether only its cleanup
 * failed — then its measured phase is as good as any other and the run counts.
 *
 * The child writes its text report (-q prints the full report when something failed)
 * to a file; ab shows from it only the paragraphs about failures: those whose first
 * line starts with "FAILURE" or is the "Unexpected results" table, and the run's
 * closing status lines ("Failed:", "Partial:", "Aborted:"). */
#include "ab_priv.h"

#include <stdio.h>
#include <string.h>

#define MAX_LINES 40 /* most lines of the child's report shown */

/* True when line (without its newline) opens a paragraph about a failure. */
static bool opens_failure(const char *line)
{
	while (*line == ' ')
		line++;
	return !strncmp(line, "FAILURE", 7) || !strncmp(line, "Unexpected results", 18);
}

/* A status line of its own: the run failed, lost clients or stopped. */
static bool status_line(const char *line)
{
	return !strncmp(line, "Failed:", 7) || !strncmp(line, "Partial:", 8) ||
	       !strncmp(line, "Aborted:", 8);
}

/* The failure lines of the report f onto to (NULL: count only). Lines shown. */
static size_t scan(FILE *f, FILE *to)
{
	char line[1024];
	bool in = false;
	size_t shown = 0, more = 0;

	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);
		bool whole = n && line[n - 1] == '\n';

		if (whole)
			line[--n] = '\0';
		if (n == 0) {
			in = false;
			continue;
		}
		in = in || opens_failure(line);
		if ((in || status_line(line)) && shown < MAX_LINES) {
			if (to)
				fprintf(to, "    %s\n", line);
			shown++;
		} else if (in || status_line(line)) {
			more++;
		}
		while (!whole && fgets(line, sizeof(line), f)) /* the rest of a long line */
			whole = strchr(line, '\n') != NULL;
	}
	if (more && to)
		fprintf(to, "    ... and %zu more lines\n", more);
	return shown;
}

void lg_ab_child_say(FILE *to, const char *head, const char *out_path)
{
	FILE *f = fopen(out_path, "r");
	size_t n = f ? scan(f, NULL) : 0;

	fprintf(to, "%s%s\n", head, n ? ":" : "");
	if (n) {
		rewind(f);
		scan(f, to);
	}
	if (f)
		fclose(f);
}

/* The count of unexpected results and of ops not executed in phase obj (a "phases"
 * entry, or the run itself for the measured phase). */
static json_int_t phase_failures(const json_t *obj, const char *skipped_key)
{
	const json_t *sk = json_object_get(obj, skipped_key);

	return json_integer_value(json_object_get(obj, "errors")) +
	       json_integer_value(json_object_get(sk, "not_open"));
}

bool lg_ab_cleanup_only(const json_t *doc, char *note, size_t len)
{
	const json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
	const json_t *ph = json_object_get(run, "phases");
	const json_t *cl = json_object_get(ph, "cleanup"), *v;
	const char *status = json_string_value(json_object_get(run, "status")), *k;
	/* a run whose only failures are in cleanup is "failed" there, and still measured */
	const char *fphase = json_string_value(json_object_get(json_object_get(run, "failure"),
							       "phase"));
	json_int_t errors = json_integer_value(json_object_get(cl, "errors"));
	json_int_t skipped = json_integer_value(
		json_object_get(json_object_get(cl, "skipped"), "not_open"));
	size_t off, i = 0;

	if (json_array_size(json_object_get(doc, "runs")) != 1 || !status ||
	    (strcmp(status, "complete") != 0 &&
	     (strcmp(status, "failed") != 0 || !fphase || strcmp(fphase, "cleanup") != 0)) ||
	    phase_failures(run, "skipped_by_reason") ||
	    json_integer_value(json_object_get(run, "corruptions")) ||
	    json_array_size(json_object_get(run, "lost_clients")) ||
	    phase_failures(json_object_get(ph, "setup"), "skipped") ||
	    phase_failures(json_object_get(ph, "warmup"), "skipped") || errors + skipped <= 0)
		return false;
	off = (size_t)snprintf(note, len, "%lld unexpected result%s", (long long)errors,
			       errors == 1 ? "" : "s");
	json_object_foreach((json_t *)json_object_get(cl, "errors_by_errno"), k, v)
		if (off < len)
			off += (size_t)snprintf(note + off, len - off, "%s%s=%lld",
						i++ ? " " : ": ", k,
						(long long)json_integer_value(v));
	if (skipped && off < len)
		snprintf(note + off, len - off, ", %lld ops not executed (slot not open)",
			 (long long)skipped);
	return true;
}
