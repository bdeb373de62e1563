/* Tests for the fast YAML reader (src/load/yaml/yaml_fast.c): wherever it accepts a text, the tree
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

#include "loadgen/load/yaml_load.h"
#include "load/yaml/yaml_priv.h"

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
	int rc = lg_yfast_parse(&fc, text, strlen(text), false, &fr);

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

/* text compiled through the lazy fast path equals text compiled by libyaml: "%YAML
 * 1.1" + "---" in front sends it there, moving every line down by 2. */
static void same_ops(const char *text, size_t t)
{
	struct lg_workload *a = NULL, *b = NULL;
	char *slow = NULL;

	assert_true(asprintf(&slow, "%%YAML 1.1\n---\n%s", text) > 0);
	if (lg_yaml_load("t.yaml", text, strlen(text), NULL, 0, 2, &a, err, sizeof(err)) ||
	    lg_yaml_load("t.yaml", slow, strlen(slow), NULL, 0, 2, &b, err, sizeof(err)))
		fail_msg("text %zu: %s", t, err);
	for (int ph = 0; ph < LG_PHASE_COUNT; ph++) {
		assert_int_equal(a->nops[ph], b->nops[ph]);
		for (size_t i = 0; i < a->nops[ph]; i++) {
			struct lg_op x = a->ops[ph][i], y = b->ops[ph][i];

			y.line -= 2;
			if (memcmp(&x, &y, sizeof(x)) != 0)
				fail_msg("text %zu phase %d op %zu differs", t, ph, i);
		}
	}
	assert_int_equal(a->npaths, b->npaths);
	for (size_t i = 0; i < a->npaths; i++)
		assert_string_equal(a->paths[i], b->paths[i]);
	assert_int_equal(a->nslots, b->nslots);
	assert_int_equal(a->ntypes, b->ntypes);
	for (size_t i = 0; i < a->ntypes; i++)
		assert_string_equal(a->types[i], b->types[i]);
	lg_workload_destroy(a);
	lg_workload_destroy(b);
	free(slow);
}

#ifdef LG_SOURCE_DIR
/* A shipped workload: the same tree when the fast reader takes it. */
static void test_shipped(void **state)
{
	static const char *const files[] = { "loadfiles/netbench.yaml", "tests/data/yaml/"
					     "all_ops.yaml", "tests/data/yaml/control.yaml",
					     "tests/data/yaml/imported.yaml",
					     "tests/data/yaml/recorded_ops.yaml" };

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
		same_ops(text, i);
		free(text);
	}
}
#endif

/* Workloads compiled through the lazy fast path equal the same compiled by libyaml. */
static void test_lazy_same_ops(void **state)
{
	static const char *const texts[] = {
		"# imported\nname: \"client\"\nsetup:\n  - mkdir: {path: \"clients\", expect: any, "
		"label: \"Mkdir\"}\nrun:\n  - ntcreate: {path: \"c${client}\", as: \"16385\", "
		"flags: [directory, create], label: \"NTCreateX\"}\n  - close: {file: \"16385\", "
		"label: \"Close\"}\n  - statfs: {label: \"Qfsinfo\"}\n  - create: {path: f, as: "
		"\"9\"}\n  - write: {file: \"9\", size: 1, offset: 65534}\n  - close: \"9\"\n"
		"cleanup:\n- deltree: \"c${client}\"\n",
		"params:\n  bs: 4KiB\n  n: 3\nrun:\n  - create: {path: \"d${client}\", as: f}\n"
		"  - repeat: {count: \"${n}\", do: [{write: {file: f, size: \"${bs}\"}}]}\n"
		"  - choose: [{weight: 2, do: [stat: a]}, {do: [{fsync: f}]}]\n  - close: f\n"
		"  - pick: {var: k, count: 4, order: shuffle}\n  - stat: \"x${k}\"\n",
		/* lines written again (replayed from the memo), keys in any order (read
		 * flat), steps that make no op or several (never replayed) */
		"params:\n  on: \"true\"\n  off: \"false\"\nrun:\n"
		"  - create: {path: \"f${client}\", as: f, flags: [rdwr]}\n"
		"  - write: {size: 4KiB, file: f, offset: 0, label: \"W\"}\n"
		"  - write: {file: f, size: 4KiB, offset: 0, label: \"W\"}\n"
		"  - write: {file: f, size: 4KiB, offset: 0, label: \"W\"}\n"
		"  - read: {file: f, size: 100, offset: 7, expect: any}\n"
		"  - read: {file: f, size: 100, offset: 7, expect: any}\n"
		"  - {when: \"${off}\", stat: f}\n  - {when: \"${off}\", stat: f}\n"
		"  - {when: \"${on}\", stat: f}\n  - {when: \"${on}\", stat: f}\n"
		"  - close: {file: f}\n  - create: {path: \"f${client}\", as: f, flags: [rdwr]}\n"
		"  - close: {file: f}\n  - create: {path: \"f${client}\", as: f, flags: [rdwr]}\n"
		"  - close: {file: f}\n  - repeat: {count: 2, do: [{stat: a}]}\n"
		"  - repeat: {count: 2, do: [{stat: a}]}\n  - pick: {var: k, count: 4}\n"
		"  - pick: {var: k, count: 4}\n  - stat: \"x${k}\"\n  - stat: \"x${k}\"\n"
		"  - read: {file: f, size: 100, offset: 7, expect: any}\n"
		"cleanup:\n  - read: {file: f, size: 100, offset: 7, expect: any}\n"
		"  - unlink: \"f${client}\"\n  - unlink: \"f${client}\"\n",
		/* a line more indented than the items continues a plain scalar ("a more"):
		 * the first look at the list passes over it, reading its steps gives up */
		"run:\n  - stat: a\n      more\n  - stat: b\n# end\ncleanup:\n  - stat: c\n",
		/* blank and comment lines between items; a line replayed last, with no
		 * line end after it */
		"run:\n  - stat: a\n\n  # a comment\n  - stat: a  # another\n# at column 0\n"
		"  - stat: a\n\n\n  - stat: a",
	};

	(void)state;
	for (size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++)
		same_ops(texts[t], t);
}

/* An error in a step read lazily is the error libyaml's reading gives. */
static void test_lazy_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "run:\n  - stat: a\n  - wirte: {file: f}\n",
		  "t.yaml:3:5: unknown op 'wirte'; did you mean 'write'?" },
		/* a semantic error before a syntax error: libyaml reports the syntax error */
		{ "run:\n  - wirte: a\n  - stat: [a\n", "t.yaml:4:1: " },
		/* read flat: what the tree's way says of unknown and duplicate keys */
		{ "run:\n  - create: {path: a, as: f}\n  - write: {file: f, sise: 4}\n",
		  "t.yaml:3:22: unknown key 'sise' in write; did you mean 'size'?" },
		{ "run:\n  - create: {path: a, as: f}\n  - write: {file: f, file: f, size: 1}\n",
		  "t.yaml:3:22: duplicate key 'file' in write" },
		/* a line written again is still an open of a slot that is open */
		{ "run:\n  - create: {path: a, as: f}\n  - close: f\n  - create: {path: a, as: f}\n"
		  "  - create: {path: a, as: f}\n",
		  "t.yaml:5:27: file 'f' is opened again while still open: the open at line 4 is "
		  "not closed" },
		/* a line less indented than the items, which the first look at the list
		 * passes over: the error libyaml finds, not the unknown op before it */
		{ "run:\n  - wirte: a\n x: 1\n  - stat: b\n",
		  "t.yaml:3:2: did not find expected key" },
		/* a step beyond the fast reader after many it took */
		{ "run:\n  - stat: a\n  - stat: 'b'\n  - stat: c\n", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lg_workload *wl = NULL;
		int rc = lg_yaml_load("t.yaml", cases[i].text, strlen(cases[i].text), NULL, 0, 1,
				      &wl, err, sizeof(err));

		if (!cases[i].msg) {
			assert_int_equal(rc, 0);
			assert_int_equal(wl->nops[LG_PHASE_RUN], 3);
			lg_workload_destroy(wl);
			continue;
		}
		if (rc != -EINVAL || strncmp(err, cases[i].msg, strlen(cases[i].msg)) != 0)
			fail_msg("case %zu: rc %d '%s', want '%s'", i, rc, err, cases[i].msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_trees),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_lazy_same_ops),
		cmocka_unit_test(test_lazy_errors),
#ifdef LG_SOURCE_DIR
		cmocka_unit_test(test_shipped),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
