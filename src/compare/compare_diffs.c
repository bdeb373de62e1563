/* The setup differences behind `loadgen compare`: every key of the setup objects
 * (env, workload, config, loadgen) present in both results whose value differs. */
#include "loadgen/compare/compare.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 8    /* nesting followed when comparing setup objects */
#define KEY_MAX 256    /* longest dotted key reported ("env.mount_options") */

/* Keys that differ between any two runs, so listing them would hide the differences
 * that matter. */
static const char *const volatile_keys[] = {
	"env.start_time", "env.command_line", "workload.source",
};

/* The top-level objects whose keys describe the setup. */
static const char *const setup_sections[] = { "env", "workload", "config", "loadgen" };

struct diff_walk {
	lg_cmp_diff_fn fn; /* the caller's callback */
	void *ctx;         /* its argument */
	size_t n;          /* differences found */
};

static bool is_volatile(const char *key)
{
	for (size_t i = 0; i < sizeof(volatile_keys) / sizeof(volatile_keys[0]); i++)
		if (strcmp(key, volatile_keys[i]) == 0)
			return true;
	return false;
}

/* 10 and 10.0 are the same number, though jansson's json_equal says otherwise. */
static bool same_value(const json_t *a, const json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal((json_t *)a, (json_t *)b);
}

static void diff_objects(struct diff_walk *w, const char *prefix, const json_t *a,
			 const json_t *b, int depth)
{
	const char *k;
	json_t *va;

	json_object_foreach((json_t *)a, k, va) {
		const json_t *vb = json_object_get(b, k);
		char key[KEY_MAX];

		if (!vb)
			continue;
		snprintf(key, sizeof(key), "%s.%s", prefix, k);
		if (is_volatile(key))
			continue;
		if (json_is_object(va) && json_is_object(vb) && depth < MAX_DEPTH) {
			diff_objects(w, key, va, vb, depth + 1);
		} else if (!same_value(va, vb)) {
			w->fn(key, va, vb, w->ctx);
			w->n++;
		}
	}
}

size_t lg_cmp_setup_diffs(const struct lg_cmp_file *base, const struct lg_cmp_file *other,
			  lg_cmp_diff_fn fn, void *ctx)
{
	struct diff_walk w = { .fn = fn, .ctx = ctx };

	for (size_t i = 0; i < sizeof(setup_sections) / sizeof(setup_sections[0]); i++) {
		const json_t *a = json_object_get(base->doc, setup_sections[i]);
		const json_t *b = json_object_get(other->doc, setup_sections[i]);

		if (json_is_object(a) && json_is_object(b))
			diff_objects(&w, setup_sections[i], a, b, 1);
	}
	return w.n;
}

