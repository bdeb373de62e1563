/* Tests of the YAML writer: load -> write -> load gives the same op arrays (every field
 * but the source line) for the test workloads, the shipped ones and a dbench loadfile;
 * writing is stable; the exact text of some ops; and the errors. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/load/dbench_load.h"
#include "loadgen/load/yaml_load.h"
#include "loadgen/load/yaml_write.h"

#ifndef LG_SOURCE_DIR
#define LG_SOURCE_DIR "."
#endif

static char err[512];

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		*len = fread(buf, 1, (size_t)n, f);
		buf[*len] = '\0';
	}
	fclose(f);
	return buf;
}

/* wl as YAML text (caller frees). */
static char *write_text(const struct lg_workload *wl)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (lg_yaml_write(f, wl, err, sizeof(err)))
		fail_msg("write failed: %s", err);
	fclose(f);
	return text;
}

static struct lg_workload *load_yaml(const char *fname, const char *text)
{
	struct lg_workload *wl = NULL;

	if (lg_yaml_load(fname, text, strlen(text), NULL, 0, 4, &wl, err, sizeof(err)))
		fail_msg("load of %s failed: %s\n%s", fname, err, text);
	return wl;
}

/* Every field but the line (field by field: padding, if any, is not compared). */
static bool op_equal(const struct lg_op *x, const struct lg_op *y)
{
	return x->kind == y->kind && x->off_mode == y->off_mode && x->type == y->type &&
	       x->expect == y->expect && x->slot == y->slot && x->path == y->path &&
	       x->path2 == y->path2 && x->flags == y->flags && x->target == y->target &&
	       x->size == y->size && x->count == y->count && x->offset == y->offset &&
	       x->range == y->range && x->align == y->align;
}

/* Same ops, alternatives, paths, labels and slots, with every op field but the line. */
static void assert_same(const struct lg_workload *a, const struct lg_workload *b,
			const char *what)
{
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->nloops, b->nloops);
	assert_int_equal(a->peer_shift, b->peer_shift);
	assert_int_equal(a->max_io, b->max_io);
	assert_int_equal(a->npaths, b->npaths);
	assert_int_equal(a->ntypes, b->ntypes);
	assert_int_equal(a->nslots, b->nslots);
	assert_int_equal(a->nalts, b->nalts);
	for (size_t i = 0; i < a->npaths; i++)
		assert_string_equal(a->paths[i], b->paths[i]);
	for (size_t i = 0; i < a->ntypes; i++)
		assert_string_equal(a->types[i], b->types[i]);
	for (size_t i = 0; i < a->nslots; i++)
		assert_string_equal(a->slots[i], b->slots[i]);
	for (size_t i = 0; i < a->nalts; i++) {
		assert_int_equal(a->alts[i].cum_weight, b->alts[i].cum_weight);
		assert_int_equal(a->alts[i].target, b->alts[i].target);
	}
	assert_int_equal(a->nvars, b->nvars);
	for (size_t i = 0; i < a->nvars; i++) {
		assert_string_equal(a->vars[i].name, b->vars[i].name);
		assert_int_equal(a->vars[i].count, b->vars[i].count);
		assert_int_equal(a->vars[i].shuffle, b->vars[i].shuffle);
	}
	assert_int_equal(a->nsets, b->nsets);
	for (size_t i = 0; i < a->nsets; i++) {
		assert_string_equal(a->sets[i].tmpl, b->sets[i].tmpl);
		assert_int_equal(a->sets[i].first, b->sets[i].first);
		assert_int_equal(a->sets[i].var, b->sets[i].var);
	}
	for (int p = 0; p < LG_PHASE_COUNT; p++) {
		assert_int_equal(a->nops[p], b->nops[p]);
		for (size_t i = 0; i < a->nops[p]; i++)
			if (!op_equal(&a->ops[p][i], &b->ops[p][i]))
				fail_msg("%s: phase %d op %zu (%s, line %u) differs", what, p, i,
					 lg_op_kind_name(a->ops[p][i].kind), a->ops[p][i].line);
	}
}

/* wl -> YAML -> workload equal to wl, and writing that gives the same text. */
static void round_trip(const struct lg_workload *wl, const char *what)
{
	char *text = write_text(wl), *again;
	struct lg_workload *back = load_yaml(what, text);

	assert_same(wl, back, what);
	again = write_text(back);
	/* the same but for the leading comments (source and parameters) */
	assert_non_null(strstr(text, "\nname: "));
	assert_string_equal(strstr(text, "\nname: "), strstr(again, "\nname: "));
	lg_workload_destroy(back);
	free(again);
	free(text);
}

static void round_trip_yaml_file(const char *rel)
{
	char path[4096 + 256];
	size_t len = 0;
	char *text;
	struct lg_workload *wl;

	assert_true((size_t)snprintf(path, sizeof(path), "%s/%s", LG_SOURCE_DIR, rel) <
		    sizeof(path));
	text = slurp(path, &len);
	wl = load_yaml(rel, text);
	round_trip(wl, rel);
	lg_workload_destroy(wl);
	free(text);
}

static void test_test_workloads(void **state)
{
	(void)state;
	round_trip_yaml_file("tests/data/yaml/all_ops.yaml");
	round_trip_yaml_file("tests/data/yaml/control.yaml");
	round_trip_yaml_file("tests/data/yaml/recorded_ops.yaml");
	round_trip_yaml_file("tests/data/yaml/peer.yaml");
}

static void test_shipped_workloads(void **state)
{
	char dir[1024], rel[1100];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/loadfiles", LG_SOURCE_DIR);
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		snprintf(rel, sizeof(rel), "loadfiles/%s", de->d_name);
		round_trip_yaml_file(rel);
		n++;
	}
	closedir(d);
	assert_true(n >= 2); /* netbench and mix64k at least */
}

static void test_dbench_round_trip(void **state)
{
	struct lg_workload *wl = NULL;
	size_t len = 0;
	char *text = slurp(LG_SOURCE_DIR "/tests/data/dbench/mini.txt", &len), *yaml;

	(void)state;
	if (lg_dbench_load("mini.txt", text, len, 1, &wl, err, sizeof(err)))
		fail_msg("%s", err);
	round_trip(wl, "mini.txt");
	yaml = write_text(wl);
	/* dbench's labels are kept: those most steps of an op have once, at the top, the
	 * others on their steps; and so are the expected statuses */
	assert_non_null(strstr(yaml, "\nlabels:\n  close: \"Close\"\n"));
	assert_non_null(strstr(yaml, "\n  ntcreate: \"NTCreateX\"\n"));
	assert_non_null(strstr(yaml, "  - ntcreate: {path: \"clients/client${client}/missing.txt\", "
			      "expect: ENOENT}\n"));
	assert_non_null(strstr(yaml, "  - find: {path: \"clients/client${client}/*.JNK\", "
			      "max: 1366, expect: ENOENT}\n"));
	assert_non_null(strstr(yaml, "  - fstat: {file: \"1002\", label: \"Qfileinfo\"}\n"));
	assert_non_null(strstr(yaml, "  - repeat:\n      count: 3\n      do:\n"
			      "        - statfs: {}\n"));
	assert_non_null(strstr(yaml, "  - lock: {file: \"1002\", offset: 0, size: 100, "
			      "label: \"LockX\"}\n"));
	assert_non_null(strstr(yaml, "setup:\n  - mkdir: {path: \"clients\", expect: any}\n"));
	free(yaml);
	lg_workload_destroy(wl);
	free(text);
}

/* Workload in (t.yaml) is written as out, and out loads to the same workload. */
static void written_as(const char *in, const char *out)
{
	struct lg_workload *wl = load_yaml("t.yaml", in);
	char *text = write_text(wl);

	assert_string_equal(text, out);
	round_trip(wl, "t.yaml");
	free(text);
	lg_workload_destroy(wl);
}

static void test_text(void **state)
{
	static const char *const in =
		"name: w\n"
		"params: {bs: 4KiB}\n"
		"run:\n"
		"  - create: {path: \"d/${client}\", as: f, flags: [exclusive, write, sync]}\n"
		"  - write: {file: f, size: \"${bs}\", count: 2, offset: random, range: 1MiB,\n"
		"            align: 512, base: 4096}\n"
		"  - read: {file: f, size: 1, offset: last}\n"
		"  - sleep: 1500ms\n"
		"  - stat: {path: nope, expect: ENOENT, label: \"look \\\"up\\\"\\\\\"}\n"
		"  - ntcreate: {path: d, flags: [directory, create]}\n"
		"  - syncfs:\n"
		"  - sync_file_range: {file: f, flags: []}\n"
		"  - fadvise: {file: f, advice: dontneed, offset: 4096}\n";
	static const char *const out =
		"# Written by loadgen from t.yaml.\n"
		"# Its parameters, already resolved in the ops below: bs=4KiB\n"
		"name: \"w\"\n"
		"run:\n"
		"  - create: {path: \"d/${client}\", as: \"f\", flags: [exclusive, sync, write]}\n"
		"  - write: {file: \"f\", size: 4096, count: 2, offset: random, range: 1048576, "
		"align: 512, base: 4096}\n"
		"  - read: {file: \"f\", size: 1, offset: last}\n"
		"  - sleep: {duration: 1500ms}\n"
		"  - stat: {path: \"nope\", expect: ENOENT, label: \"look \\\"up\\\"\\\\\"}\n"
		"  - ntcreate: {path: \"d\", flags: [directory, create]}\n"
		"  - syncfs: {}\n"
		"  - sync_file_range: {file: \"f\", flags: []}\n"
		"  - fadvise: {file: \"f\", offset: 4096, advice: dontneed}\n";

	(void)state;
	written_as(in, out);
}

/* A label more than half of an op's steps have (two at least) goes under 'labels:';
 * the steps with another one, their op's name included, keep theirs. */
static void test_labels(void **state)
{
	static const char *const in =
		"run:\n  - stat: {path: a, label: Q}\n  - stat: {path: b, label: Q}\n"
		"  - stat: c\n  - create: {path: c, as: f}\n  - fstat: {file: f, label: F}\n"
		"  - fstat: {file: f, label: F}\n  - write: {file: f, size: 1, label: W}\n"
		"  - write: {file: f, size: 1, label: V}\n";
	static const char *const out =
		"# Written by loadgen from t.yaml.\n"
		"name: \"t\"\n"
		"labels:\n  stat: \"Q\"\n  fstat: \"F\"\n"
		"run:\n  - stat: {path: \"a\"}\n  - stat: {path: \"b\"}\n"
		"  - stat: {path: \"c\", label: \"stat\"}\n  - create: {path: \"c\", as: \"f\"}\n"
		"  - fstat: {file: \"f\"}\n  - fstat: {file: \"f\"}\n"
		"  - write: {file: \"f\", size: 1, label: \"W\"}\n"
		"  - write: {file: \"f\", size: 1, label: \"V\"}\n";

	(void)state;
	written_as(in, out);
}

/* pick steps and ${var} paths are written back as they were given. */
static void test_pick(void **state)
{
	static const char *const in =
		"params: {n: 4}\n"
		"setup:\n"
		"  - repeat:\n"
		"      count: \"${n}\"\n"
		"      do:\n"
		"        - pick: {var: k, count: \"${n}\", order: seq}\n"
		"        - create: {path: \"d${client}/f${k}\", as: f}\n"
		"run:\n"
		"  - pick: {var: k, count: \"${n}\", order: random}\n"
		"  - pick: {var: j, count: 2, order: shuffle}\n"
		"  - rename: {from: \"d${client}/f${k}\", to: \"t${j}/${j}\"}\n"
		"  - ntcreate: {path: \"d${client}/f${k}\", expect: any}\n"
		"  - find: \"d${client}/f${k}\"\n"
		"  - stat: \"d${client}/f3\"\n";
	static const char *const out =
		"name: \"t\"\n"
		"setup:\n"
		"  - repeat:\n"
		"      count: 4\n"
		"      do:\n"
		"        - pick: {var: \"k\", count: 4, order: seq}\n"
		"        - create: {path: \"d${client}/f${k}\", as: \"f\"}\n"
		"run:\n"
		"  - pick: {var: \"k\", count: 4}\n"
		"  - pick: {var: \"j\", count: 2, order: shuffle}\n"
		"  - rename: {from: \"d${client}/f${k}\", to: \"t${j}/${j}\"}\n"
		"  - ntcreate: {path: \"d${client}/f${k}\", expect: any}\n"
		"  - find: {path: \"d${client}/f${k}\"}\n"
		"  - stat: {path: \"d${client}/f3\"}\n";
	struct lg_workload *wl = load_yaml("t.yaml", in);
	char *text = write_text(wl);
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(strstr(text, "\nname: "));
	assert_string_equal(strstr(text, "\nname: ") + 1, out);
	round_trip(wl, "t.yaml");
	free(text);
	/* a variable without a file set starting at its path cannot be written */
	wl->ops[LG_PHASE_RUN][2].path++;
	text = NULL;
	f = open_memstream(&text, &len);
	assert_int_equal(lg_yaml_write(f, wl, err, sizeof(err)), -EINVAL);
	fclose(f);
	assert_string_equal(err, "run op 2 (line 11): path 1 with variable 1 is no file set");
	free(text);
	lg_workload_destroy(wl);
}

static void test_errors(void **state)
{
	struct lg_op op = { .kind = LG_OP_OPEN, .slot = 0, .path = 0, .path2 = LG_NO_SLOT,
			    .line = 3, .count = 1, .align = 1, .flags = O_RDWR | O_NONBLOCK };
	struct lg_workload *wl = NULL;
	char *text = NULL;
	size_t len = 0;
	uint32_t idx;
	uint16_t type;
	FILE *f;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	assert_int_equal(lg_workload_path(wl, "p", &idx), 0);
	assert_int_equal(lg_workload_slot(wl, "s", &idx), 0);
	assert_int_equal(lg_workload_type(wl, "open", &type), 0);
	assert_int_equal(lg_workload_add_op(wl, LG_PHASE_RUN, &op, NULL), 0);
	f = open_memstream(&text, &len);
	assert_int_equal(lg_yaml_write(f, wl, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "run op 0 (line 3): open flags 0x800 have no name");
	fclose(f);
	free(text);
	/* a write error is -EIO */
	wl->ops[LG_PHASE_RUN][0].flags = O_RDWR;
	f = fopen("/dev/full", "w");
	if (f) {
		assert_int_equal(lg_yaml_write(f, wl, err, sizeof(err)), -EIO);
		fclose(f);
	}
	lg_workload_destroy(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_test_workloads),
		cmocka_unit_test(test_shipped_workloads),
		cmocka_unit_test(test_dbench_round_trip),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
