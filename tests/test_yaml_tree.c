/* yaml_tree.c: libyaml events to the node tree -- kinds, scalars with their positions
 * and plain/quoted flag, mapping items as key/value pairs, and the refusals with their
 * line:column: aliases and anchors, nesting past LG_YAML_MAX_DEPTH, non-scalar keys,
 * syntax errors, and more than one document. */
#include "yaml_priv.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char err[512];
static struct lg_yctx c; /* the last parse's tree lives in its arena (lg_ytree_free) */

static int parse(const char *text, struct lg_ynode **out)
{
	lg_ytree_free(&c);
	/* the libyaml side (yaml_tree.c), not the fast reader that may stand in for it */
	c = (struct lg_yctx){ .fname = "t.yaml", .err = err, .errlen = sizeof(err),
			      .no_fast = true };
	err[0] = '\0';
	*out = NULL;
	return lg_ytree_parse(&c, text, strlen(text), out);
}

static void test_shape(void **state)
{
	struct lg_ynode *root, *run, *step;

	(void)state;
	assert_int_equal(parse("name: x\nrun:\n  - mkdir: \"d\"\n  - sleep: ~\n", &root), 0);
	assert_int_equal(root->kind, LG_YMAP);
	assert_int_equal(root->n, 4); /* two keys, two values */
	assert_string_equal(root->items[0]->text, "name");
	assert_string_equal(root->items[1]->text, "x");
	assert_true(root->items[1]->plain);
	run = root->items[3];
	assert_int_equal(run->kind, LG_YSEQ);
	assert_int_equal(run->n, 2);
	step = run->items[0];
	assert_int_equal(step->kind, LG_YMAP);
	assert_string_equal(step->items[1]->text, "d");
	assert_false(step->items[1]->plain);     /* quoted */
	assert_int_equal(step->items[1]->line, 2); /* 0-based */
	assert_int_equal(step->items[1]->col, 11);
	assert_true(lg_yis_null(run->items[1]->items[1]));
	assert_false(lg_yis_null(step->items[1]));
	assert_string_equal(lg_ykind_name(run), "a sequence");
	lg_ytree_free(&c);
	lg_ytree_free(&c); /* twice is fine */
}

static void test_refused(void **state)
{
	struct lg_ynode *root;
	char deep[200];
	size_t n = 0;

	(void)state;
	assert_int_equal(parse("a: &x 1\nb: *x\n", &root), -EINVAL);
	assert_non_null(strstr(err, "t.yaml:1:"));
	assert_non_null(strstr(err, "anchor"));
	assert_null(root);
	for (int i = 0; i < LG_YAML_MAX_DEPTH + 2; i++)
		deep[n++] = '[';
	deep[n] = '\0';
	/* the 65th '[' is level 65 */
	assert_int_equal(parse(deep, &root), -EINVAL);
	assert_string_equal(err, "t.yaml:1:65: nesting deeper than 64 levels");
	/* under the root mapping (level 1), the 64th '[' (column 5 + 64) is level 65 */
	n = (size_t)snprintf(deep, sizeof(deep), "run: ");
	for (int i = 0; i < 100; i++)
		deep[n++] = '[';
	for (int i = 0; i < 100 && n + 1 < sizeof(deep); i++)
		deep[n++] = ']';
	deep[n] = '\0';
	assert_int_equal(parse(deep, &root), -EINVAL);
	assert_string_equal(err, "t.yaml:1:69: nesting deeper than 64 levels");
	assert_int_equal(parse("? [a]\n: 1\n", &root), -EINVAL); /* a list as a key */
	assert_non_null(strstr(err, "t.yaml:1:"));
	assert_int_equal(parse("a: [1, 2\n", &root), -EINVAL);   /* syntax */
	assert_non_null(strstr(err, "t.yaml:"));
	assert_int_equal(parse("a: 1\n---\nb: 2\n", &root), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
