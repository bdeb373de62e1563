/* Tests for the fast YAML reader (src/yaml_fast.c): wherever it accepts a text, the tree
 * must be the one libyaml builds (kinds, texts, plain flags, line:column of every node);
 * what imported loadfiles look like must be accepted; anything outside its subset must
 * be handed to libyaml (-EAGAIN), never misread. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "yaml_priv.h"

static char err[512];

/* Where trees a and b first differ ("" when equal), into why. */
static void tree_diff(const struct lg_ynode *a, const struct lg_ynode *b, char *why,
		      size_t len)
{
	if (a->kind != b->kind || a->line != b->line || a->col != b->col ||
	    a->plain != b->plain || a->n != b->n || (a->text == NULL) != (b->text == NULL) ||
	    (a->text && strcmp(a->text, b->text) != 0)) {
		snprintf(why, len, "fast %d %u:%u plain %d n %u '%s' / libyaml %d %u:%u plain %d "
			 "n %u '%s'", a->kind, a->line + 1, a->col + 1, a->plain, a->n,
			 a->text ? a->text : "", b->kind, b->line + 1, b->col + 1, b->plain, b->n,
			 b->text ? b->text : "");
		return;
	}
	for (size_t i = 0; i < a->n && !*why; i++)
		tree_diff(a->items[i], b->items[i], why, len);
}

/* Parse text both ways; returns whether the fast reader took it (the trees then equal). */
static bool same_tree(const char *text)
{
	struct lg_yctx fc = { .fname = "t.yaml", .err = err, .errlen = sizeof(err) };
	struct lg_yctx sc = { .fname = "t.yaml", .err = err, .errlen = sizeof(err) };
	struct lg_ynode *fr = NULL, *sr = NULL;
	char why[512] = "";
	int rc = lg_yfast_parse(&fc, text, strlen(text), &fr);

	if (rc == -EAGAIN) {
		lg_ytree_free(&fc);
		return false;
	}
	assert_int_equal(rc, 0);
	if (lg_ytree_parse_libyaml(&sc, text, strlen(text), &sr) != 0)
		fail_msg("fast reader accepted what libyaml refuses (%s):\n%s", err, text);
	tree_diff(fr, sr, why, sizeof(why));
	if (*why)
		fail_msg("trees differ: %s\nin:\n%s", why, text);
	lg_ytree_free(&fc);
	lg_ytree_free(&sc);
	return true;
}

/* What loadgen import writes, and variations on it: taken by the fast reader. */
static const char *const fast_ok[] = {
	"# Written by loadgen from x.\nname: \"client\"\nsetup:\n"
	"  - mkdir: {path: \"clients\", expect: any, label: \"Mkdir\"}\nrun:\n"
	"  - ntcreate: {path: \"c/client${client}\", as: \"16385\", flags: [directory, create], "
	"label: \"NTCreateX\"}\n  - close: {file: \"16385\", label: \"Close\"}\n"
	"  - statfs: {label: \"Qfsinfo\"}\n  - write: {file: \"9938\", size: 1, offset: 65534}\n",
	"run:\n- stat: a\n- stat: b\n",                          /* indentless list */
	"name: x # comment\n\n  # indented comment\nrun:\n    - stat: a   # c\n    - {when: 1, "
	"stat: b}\n    - [a, b]\n    - \"q\"\n    - plain\n",
	"params:\n  bs: 4KiB\n  n: 3\n  dir: \"d/${x}\"\nrun:\n  - write: {file: f, size: \"${bs}\"}\n",
	"run:\n  - repeat: {count: 2, do: [{stat: a}, {choose: [{weight: 1, do: [stat: b]}]}]}\n",
	"run:\n  - x: {}\n  - y: []\n  - z: {a: [], b: {}}\n",
	"run: [stat: a]\n",
	"run:\n  - stat: ~\n  - stat: null\n  - stat: \"\"\n",
	"run:\n  - stat: a\n",                                       /* no final newline */
};

/* Outside the subset: libyaml reads them (and the fast reader must say so). */
static const char *const fast_no[] = {
	"",
	"# only a comment\n",
	"---\nrun: [stat: a]\n",
	"run:\n  - stat: a\n...\n",
	"name: two words\nrun: [stat: a]\n",
	"run:\n  - write: {file: f,\n           size: 1}\n",       /* flow over two lines */
	"run:\n  - repeat:\n      count: 2\n      do: [stat: a]\n", /* nested block */
	"run:\n  - stat: a\n   - stat: b\n",                         /* indentation change */
	"run:\n\t- stat: a\n",
	"run:\n  - stat: 'single'\n",
	"run:\n  - stat: \"esc\\\"aped\"\n",
	"run:\n  - stat: &a x\n",
	"run:\n  - stat: !!str x\n",
	"run:\n  - stat: {path: a, }\n",
	"run:\n  - stat: {path: a,, b: c}\n",
	"run:\n  - stat: a#b\n",
	"run:\n  - stat: a: b\n",
	"run:\r\n  - stat: a\r\n",
	"run:\n  - stat: caf\xc3\xa9\n",
	"cleanup:\nrun: [stat: a]\n",                               /* a null value */
	"run:\n  - stat:\n",
	"run:\n  - stat: a\n  x: 1\n",
	"run:\n  -stat: a\n",
	"run:\n  - stat: -1\n",
	"run:value\n",
	"run :\n  - stat: a\n",
	"  run: [stat: a]\n",
	"run: [stat: a]\n  more: 1\n",
	"run:\n  - stat: {path: [[[[[[[[[[[[[[[[[[a]]]]]]]]]]]]]]]]]]}\n",
	"run:\n  - \"q\": {a: b}\n  - ? x\n",
};

static void test_same_trees(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fast_ok) / sizeof(fast_ok[0]); i++)
		if (!same_tree(fast_ok[i]))
			fail_msg("fast reader refused:\n%s", fast_ok[i]);
	for (size_t i = 0; i < sizeof(fast_no) / sizeof(fast_no[0]); i++)
		if (same_tree(fast_no[i]))
			fail_msg("fast reader took what belongs to libyaml:\n%s", fast_no[i]);
}

/* Every prefix of an accepted text, cut anywhere: either the same tree or -EAGAIN,
 * never a different tree or a read past the end. */
static void test_prefixes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fast_ok) / sizeof(fast_ok[0]); i++) {
		size_t n = strlen(fast_ok[i]);

		for (size_t cut = 0; cut < n; cut++) {
			char *t = strndup(fast_ok[i], cut);

			assert_non_null(t);
			same_tree(t);
			free(t);
		}
	}
}

#ifdef LG_SOURCE_DIR
/* A shipped workload: the same tree when the fast reader takes it. */
static void test_shipped(void **state)
{
	static const char *const files[] = { "loadfiles/netbench.yaml", "tests/data/yaml/"
					     "all_ops.yaml", "tests/data/yaml/control.yaml" };

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[1024], *text;
		FILE *f;
		long n;

		snprintf(path, sizeof(path), "%s/%s", LG_SOURCE_DIR, files[i]);
		f = fopen(path, "rb");
		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)n + 1);
		assert_non_null(text);
		assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
		fclose(f);
		same_tree(text);
		free(text);
	}
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_trees),
		cmocka_unit_test(test_prefixes),
#ifdef LG_SOURCE_DIR
		cmocka_unit_test(test_shipped),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
