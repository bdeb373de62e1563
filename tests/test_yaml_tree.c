/* yaml_tree.c: libyaml events to the node tree -- kinds, scalars with their positions
 * and plain/quoted flag, mapping items as key/value pairs, and the refusals with their
 * line:column: aliases and anchors, nesting past LG_YAML_MAX_DEPTH, non-scalar keys,
 * syntax errors, and more than one document; explicit tags accepted exactly where they
 * fit their node. */
#include "load/yaml/yaml_priv.h"

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

/* A standard tag is accepted exactly where it fits the node; the node is as without it,
 * except that !!str (and "!") make a plain scalar a string, never null. */
static void test_tags(void **state)
{
	static const char *const fit[] = {
		"a: !!str x", "a: !!str 12", "a: !!int 12", "a: !!int -3", "a: !!int 0x1F",
		"a: !!int 0o17", "a: !!float 1.5", "a: !!float -.5e3", "a: !!float 7",
		"a: !!float .inf", "a: !!float .NaN", "a: !!bool true", "a: !!bool FALSE",
		"a: !!null", "a: !!null ~", "a: !!null Null", "a: !!map {b: 1}", "a: !!seq [1]",
		"!!map {a: 1}", "a: ! x", "a: ! [x]", "a: !<tag:yaml.org,2002:int> 5",
		"a: !!str \"\"", NULL,
	};
	static const struct {
		const char *text, *err;
	} misfit[] = {
		{ "a: !!int a", "t.yaml:1:4: YAML tag '!!int' on 'a', which is not an integer" },
		{ "a: !!int 1.5", "t.yaml:1:4: YAML tag '!!int' on '1.5', which is not an integer" },
		{ "a: !!int 0x", "t.yaml:1:4: YAML tag '!!int' on '0x', which is not an integer" },
		{ "a: !!int 4KiB", "t.yaml:1:4: YAML tag '!!int' on '4KiB', which is not an integer" },
		{ "a: !!float 1e", "t.yaml:1:4: YAML tag '!!float' on '1e', which is not a number" },
		{ "a: !!float .", "t.yaml:1:4: YAML tag '!!float' on '.', which is not a number" },
		{ "a: !!bool yes", "t.yaml:1:4: YAML tag '!!bool' on 'yes', which is not a boolean" },
		{ "a: !!null 0", "t.yaml:1:4: YAML tag '!!null' on '0', which is not null" },
		{ "a: !!map a", "t.yaml:1:4: YAML tag '!!map' on a scalar; it fits a mapping only" },
		{ "a: !!seq {b: 1}", "t.yaml:1:4: YAML tag '!!seq' on a mapping; it fits a sequence "
				     "only" },
		{ "a: !!int [1]", "t.yaml:1:4: YAML tag '!!int' on a sequence; it fits an integer "
				  "only" },
		{ "a: !!str {b: 1}", "t.yaml:1:4: YAML tag '!!str' on a mapping; it fits a string "
				     "only" },
		{ "!!seq {a: 1}", "t.yaml:1:1: YAML tag '!!seq' on a mapping; it fits a sequence "
				  "only" },
		{ "a: !!binary aGk=", "t.yaml:1:4: unsupported YAML tag '!!binary'" },
		{ "a: !<tag:example.com,2000:x> 1", "t.yaml:1:4: unsupported YAML tag "
						    "'tag:example.com,2000:x'" },
	};
	struct lg_ynode *root;

	(void)state;
	for (size_t i = 0; fit[i]; i++)
		if (parse(fit[i], &root))
			fail_msg("'%s' refused: %s", fit[i], err);
	for (size_t i = 0; i < sizeof(misfit) / sizeof(misfit[0]); i++)
		if (parse(misfit[i].text, &root) != -EINVAL ||
		    strncmp(err, misfit[i].err, strlen(misfit[i].err)))
			fail_msg("'%s': got '%s', want '%s'", misfit[i].text, err, misfit[i].err);
	assert_int_equal(parse("a: !!str ~\nb: ~\nc: !!null ~\nd: ! ~\n", &root), 0);
	assert_false(lg_yis_null(root->items[1]));
	assert_true(lg_yis_null(root->items[3]));
	assert_true(lg_yis_null(root->items[5]));
	assert_false(lg_yis_null(root->items[7]));
	assert_string_equal(root->items[1]->text, "~");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_tags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
