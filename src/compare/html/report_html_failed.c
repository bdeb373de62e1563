/* The runs of a result that measured nothing, in the data object of `loadgen report`.
 *
 * A run whose setup failed (ENOSPC, EACCES, ...) or that was stopped before its measured
 * phase (SIGINT in warm-up) has no figures worth a chart, but its page is what a user
 * attaches to a bug report: the status and failure, what each phase counted, the
 * unexpected results, the kernel's messages and the system's counters. They are passed
 * on as the result holds them; only the lists of notes are cut to their first
 * NOTES_MAX entries (a full filesystem can make thousands alike), with their total. */
#include "report_html_priv.h"

#include <stdio.h>
#include <string.h>

#define NOTES_MAX 20 /* entries of a list of notes passed on */

/* Keys of a run passed on as they are, when present. */
static const char *const plain_keys[] = {
	"status", "failure", "client_count", "duration_s", "ops", "errors", "skipped",
	"phases", "cleanup_left", "lost_clients", "kernel_messages", "sys_summary",
	"vmstat_diff",
};

/* Lists of notes, cut to NOTES_MAX; "<key>_total" gives their length. */
static const char *const note_keys[] = { "error_notes", "not_open_notes" };

/* The first NOTES_MAX entries of a (an array), or NULL on -ENOMEM. */
static json_t *first_notes(const json_t *a)
{
	json_t *out = json_array();

	for (size_t i = 0; out && i < json_array_size(a) && i < NOTES_MAX; i++)
		if (!push(out, json_deep_copy(json_array_get(a, i)))) {
			json_decref(out);
			out = NULL;
		}
	return out;
}

/* {index, ...the keys above} of run r; NULL on -ENOMEM. */
static json_t *unmeasured_run(const json_t *run, size_t r)
{
	json_t *o = json_pack("{s:I}", "index", (json_int_t)r);
	bool ok = o != NULL;

	for (size_t k = 0; ok && k < sizeof(plain_keys) / sizeof(plain_keys[0]); k++) {
		const json_t *v = json_object_get(run, plain_keys[k]);

		ok = !v || json_object_set_new(o, plain_keys[k], json_deep_copy(v)) == 0;
	}
	for (size_t k = 0; ok && k < sizeof(note_keys) / sizeof(note_keys[0]); k++) {
		const json_t *v = json_object_get(run, note_keys[k]);
		char total[64];

		if (!json_is_array(v))
			continue;
		snprintf(total, sizeof(total), "%s_total", note_keys[k]);
		ok = json_object_set_new(o, note_keys[k], first_notes(v)) == 0 &&
		     json_object_set_new(o, total,
					 json_integer((json_int_t)json_array_size(v))) == 0;
	}
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *lg_report_unmeasured(const json_t *doc)
{
	json_t *a = json_array(), *run;
	size_t r;

	json_array_foreach(a ? json_object_get(doc, "runs") : NULL, r, run) {
		if (lg_cmp_run_measured_nothing(run) && !push(a, unmeasured_run(run, r))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
