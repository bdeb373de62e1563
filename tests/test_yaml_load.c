/* Tests of the YAML loader: what each op compiles to, control flow, parameters, and
 * every kind of load error with its exact line and column. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"

#ifndef LG_SOURCE_DIR
#define LG_SOURCE_DIR "."
#endif

static char err[512];

/* Load text as "t.yaml" with 4 clients. */
static int load_ov(const char *text, const struct lg_param *ov, size_t nov,
		   struct lg_workload **wl)
{
	return lg_yaml_load("t.yaml", text, strlen(text), ov, nov, 4, wl, err, sizeof(err));
}

static struct lg_workload *load_ok(const char *text)
{
	struct lg_workload *wl = NULL;

	if (load_ov(text, NULL, 0, &wl) != 0)
		fail_msg("load failed: %s", err);
	return wl;
}

/* Read a file of the source tree (caller frees). */
static char *slurp(const char *rel, size_t *len)
{
	char path[1024];
	FILE *f;
	char *buf = malloc(1 << 20);

	snprintf(path, sizeof(path), "%s/%s", LG_SOURCE_DIR, rel);
	f = fopen(path, "rb");
	if (!f || !buf)
		fail_msg("cannot read %s", path);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static struct lg_workload *load_file(const char *rel, const char *fname)
{
	struct lg_workload *wl = NULL;
	size_t len;
	char *text = slurp(rel, &len);

	if (lg_yaml_load(fname, text, len, NULL, 0, 2, &wl, err, sizeof(err)) != 0)
		fail_msg("%s: %s", rel, err);
	free(text);
	return wl;
}

static const char *path_of(const struct lg_workload *wl, uint32_t i)
{
	return i == LG_NO_SLOT ? "-" : wl->paths[i];
}

static const char *slot_of(const struct lg_workload *wl, uint32_t i)
{
	return i == LG_NO_SLOT ? "-" : wl->slots[i];
}

/* What one op of all_ops.yaml must compile to. */
struct want {
	uint32_t line;
	enum lg_op_kind kind;
	const char *label, *slot, *path, *path2;
	int flags;
	uint64_t size, count;
	enum lg_offset_mode mode;
	uint64_t offset, range, align;
	int32_t expect;
};

#define RW (O_RDWR)
#define SFR_ALL (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER)
#define K(x) LG_OP_##x
#define M(x) LG_OFF_##x

static const struct want all_ops[] = {
	{ 4, K(OPEN), "open", "f", "d/f", "-", RW, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 5, K(OPEN), "create", "g", "c${client}/g", "-", O_CREAT | O_EXCL | O_WRONLY | O_SYNC,
	  0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 6, K(OPEN), "open", "r", "d/f", "-", O_RDONLY, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 7, K(OPEN), "open", "a", "d/f", "-",
	  O_APPEND | O_DSYNC | O_DIRECT | O_TRUNC | O_CREAT | RW, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 8, K(CLOSE), "close", "f", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 9, K(FSYNC), "fsync", "g", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 10, K(FDATASYNC), "fdatasync", "g", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 11, K(FSTAT), "fstat", "a", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 12, K(WRITE), "write", "f", "-", "-", 0, 4096, 1, M(SEQ), 0, 0, 1, 0 },
	{ 13, K(READ), "read", "f", "-", "-", 0, 512, 3, M(FIXED), 1 << 20, 0, 1, 0 },
	{ 14, K(WRITE), "write", "f", "-", "-", 0, 8192, 1, M(APPEND), 0, 0, 1, 0 },
	{ 15, K(READ), "read", "f", "-", "-", 0, 1, 1, M(LAST), 0, 0, 1, 0 },
	{ 16, K(WRITE), "write", "f", "-", "-", 0, 1, 1, M(PREV), 0, 0, 1, 0 },
	{ 17, K(READ), "read", "f", "-", "-", 0, 4096, 2, M(RANDOM), 0, 1 << 20, 4096, 0 },
	{ 18, K(WRITE), "write", "f", "-", "-", 0, 100, 1, M(RANDOM), 5000, 1000, 10, 0 },
	{ 19, K(UNLINK), "unlink", "-", "d/f", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 20, K(MKDIR), "mkdir", "-", "d", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 21, K(RMDIR), "rmdir", "-", "d", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 22, K(STAT), "stat", "-", "c${client}", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 23, K(READDIR), "readdir", "-", "d", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 24, K(RENAME), "rename", "-", "d/f", "d/${client}", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 25, K(TRUNCATE), "truncate", "f", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 26, K(SYNC_FILE_RANGE), "sync_file_range", "f", "-", "-", SYNC_FILE_RANGE_WRITE, 0, 1,
	  M(FIXED), 0, 0, 1, 0 },
	{ 27, K(SYNC_FILE_RANGE), "sync_file_range", "f", "-", "-", SFR_ALL, 4096, 1, M(LAST),
	  0, 0, 1, 0 },
	{ 28, K(FADVISE), "fadvise", "f", "-", "-", POSIX_FADV_DONTNEED, 0, 1, M(FIXED), 0, 0,
	  1, 0 },
	{ 29, K(FADVISE), "fadvise", "f", "-", "-", POSIX_FADV_WILLNEED, 8192, 1, M(FIXED), 4096,
	  0, 1, 0 },
	{ 30, K(SYNCFS), "syncfs", "-", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 31, K(SYNCFS), "syncfs", "f", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 32, K(SYNCFS), "syncfs", "-", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, 0 },
	{ 33, K(SLEEP), "sleep", "-", "-", "-", 0, 10000000, 1, M(SEQ), 0, 0, 1, 0 },
	{ 34, K(SLEEP), "sleep", "-", "-", "-", 0, 2000000000, 1, M(SEQ), 0, 0, 1, 0 },
	{ 35, K(STAT), "lookup", "-", "nope", "-", 0, 0, 1, M(SEQ), 0, 0, 1, ENOENT },
	{ 36, K(UNLINK), "lookup", "-", "nope", "-", 0, 0, 1, M(SEQ), 0, 0, 1, LG_EXPECT_ANY },
	{ 37, K(FSYNC), "fsync", "f", "-", "-", 0, 0, 1, M(SEQ), 0, 0, 1, LG_EXPECT_OK },
};

static void test_every_op(void **state)
{
	struct lg_workload *wl = load_file("tests/data/yaml/all_ops.yaml", "all_ops.yaml");
	size_t n = sizeof(all_ops) / sizeof(all_ops[0]);

	(void)state;
	assert_int_equal(wl->nops[LG_PHASE_RUN], n);
	assert_int_equal(wl->nops[LG_PHASE_SETUP] + wl->nops[LG_PHASE_CLEANUP], 0);
	for (size_t i = 0; i < n; i++) {
		const struct want *w = &all_ops[i];
		const struct lg_op *op = &wl->ops[LG_PHASE_RUN][i];

		assert_int_equal(op->line, w->line);
		assert_int_equal(op->kind, w->kind);
		assert_string_equal(wl->types[op->type], w->label);
		assert_string_equal(slot_of(wl, op->slot), w->slot);
		assert_string_equal(path_of(wl, op->path), w->path);
		assert_string_equal(path_of(wl, op->path2), w->path2);
		assert_int_equal(op->flags, w->flags);
		assert_int_equal(op->size, w->size);
		assert_int_equal(op->count, w->count);
		assert_int_equal(op->off_mode, w->mode);
		assert_int_equal(op->offset, w->offset);
		assert_int_equal(op->range, w->range);
		assert_int_equal(op->align, w->align);
		assert_int_equal(op->expect, w->expect);
	}
	assert_string_equal(wl->name, "all-ops");
	assert_int_equal(wl->max_io, 8192);
	assert_int_equal(wl->nloops, 0);
	lg_workload_destroy(wl);
}

static void test_control_flow(void **state)
{
	/* op:  0 stat a, 1 LOOP, 2 stat b, 3 LOOP, 4 stat c, 5 NEXT, 6 CHOOSE, 7 stat d,
	 * 8 JUMP, 9 CHOOSE, 10 stat e, 11 JUMP, 12 stat f, 13 JUMP, 14 JUMP, 15 stat g,
	 * 16 JUMP, 17 NEXT, 18 stat h */
	static const struct {
		enum lg_op_kind kind;
		uint32_t line, slot, target;
		uint64_t count;
	} want[] = {
		{ K(STAT), 3, LG_NO_SLOT, 0, 1 },  { K(LOOP), 4, 0, 18, 3 },
		{ K(STAT), 7, LG_NO_SLOT, 0, 1 },  { K(LOOP), 8, 1, 6, 0 },
		{ K(STAT), 8, LG_NO_SLOT, 0, 1 },  { K(NEXT), 8, 1, 4, 0 },
		{ K(CHOOSE), 9, LG_NO_SLOT, 0, 3 }, { K(STAT), 11, LG_NO_SLOT, 0, 1 },
		{ K(JUMP), 9, LG_NO_SLOT, 17, 0 }, { K(CHOOSE), 13, LG_NO_SLOT, 3, 2 },
		{ K(STAT), 14, LG_NO_SLOT, 0, 1 }, { K(JUMP), 13, LG_NO_SLOT, 14, 0 },
		{ K(STAT), 15, LG_NO_SLOT, 0, 1 }, { K(JUMP), 13, LG_NO_SLOT, 14, 0 },
		{ K(JUMP), 9, LG_NO_SLOT, 17, 0 }, { K(STAT), 17, LG_NO_SLOT, 0, 1 },
		{ K(JUMP), 9, LG_NO_SLOT, 17, 0 }, { K(NEXT), 4, 0, 2, 0 },
		{ K(STAT), 18, LG_NO_SLOT, 0, 1 },
	};
	static const uint64_t cum[] = { 2, 3, 10, 5, 5 };
	static const uint32_t alt_target[] = { 7, 9, 15, 10, 12 };
	struct lg_workload *wl = load_file("tests/data/yaml/control.yaml", "control.yaml");

	(void)state;
	assert_int_equal(wl->nops[LG_PHASE_RUN], sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct lg_op *op = &wl->ops[LG_PHASE_RUN][i];

		if (op->kind != want[i].kind || op->line != want[i].line ||
		    op->slot != want[i].slot || op->target != want[i].target ||
		    op->count != want[i].count)
			fail_msg("op %zu: kind %d line %u slot %u target %u count %llu", i,
				 op->kind, op->line, op->slot, op->target,
				 (unsigned long long)op->count);
	}
	assert_int_equal(wl->nalts, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(wl->alts[i].cum_weight, cum[i]);
		assert_int_equal(wl->alts[i].target, alt_target[i]);
	}
	assert_int_equal(wl->nloops, 2);
	assert_string_equal(wl->name, "control");
	lg_workload_destroy(wl);
}

static const char params_yaml[] =
	"params:\n"
	"  bs: 4KiB\n"
	"  n: 3\n"
	"  dir: data\n"
	"run:\n"
	"  - open: {path: \"${dir}/c${client}-of-${clients}\", as: f}\n"
	"  - write: {file: f, size: \"${bs}\", count: \"${n}\"}\n"
	"  - repeat: {count: \"${clients}\", do: [sleep: \"${n}ms\"]}\n"
	"  - choose: [{weight: \"${n}\", do: [close: f]}]\n";

static void test_params(void **state)
{
	const struct lg_param ov[] = { { "n", "7" }, { "bs", "1M" }, { "n", "5" } };
	struct lg_workload *wl = load_ok(params_yaml);
	const struct lg_op *op = wl->ops[LG_PHASE_RUN];

	(void)state;
	assert_string_equal(wl->paths[op[0].path], "data/c${client}-of-4");
	assert_int_equal(op[1].size, 4096);
	assert_int_equal(op[1].count, 3);
	assert_int_equal(op[2].count, 4);
	assert_int_equal(op[3].size, 3000000);
	assert_int_equal(wl->alts[0].cum_weight, 3);
	assert_int_equal(wl->nparams, 3);
	assert_string_equal(wl->params[0].name, "bs");
	assert_string_equal(wl->params[0].value, "4KiB");
	assert_string_equal(wl->params[1].name, "n");
	assert_string_equal(wl->params[2].value, "data");
	assert_string_equal(wl->name, "t");
	lg_workload_destroy(wl);

	/* -p overrides: the last one of a name wins; order stays as declared. */
	assert_int_equal(load_ov(params_yaml, ov, 3, &wl), 0);
	op = wl->ops[LG_PHASE_RUN];
	assert_int_equal(op[1].size, 1 << 20);
	assert_int_equal(op[1].count, 5);
	assert_string_equal(wl->params[0].value, "1M");
	assert_string_equal(wl->params[1].value, "5");
	lg_workload_destroy(wl);
}

/* ${peer} stays a placeholder in paths (beside ${client} and a variable); peer_shift
 * takes a parameter, and is 0 when not given. */
static void test_peer(void **state)
{
	const struct lg_param ov[] = { { "s", "3" } };
	struct lg_workload *wl = load_ok("params: {s: 1}\npeer_shift: ${s}\nrun:\n"
					 "  - pick: {var: k, count: 2}\n"
					 "  - stat: \"d${client}/f${peer}.${k}\"\n");

	(void)state;
	assert_int_equal(wl->peer_shift, 1);
	assert_string_equal(wl->paths[wl->ops[LG_PHASE_RUN][1].path], "d${client}/f${peer}.0");
	lg_workload_destroy(wl);
	assert_int_equal(load_ov("params: {s: 1}\npeer_shift: ${s}\nrun: [stat: a]\n", ov, 1,
				 &wl), 0);
	assert_int_equal(wl->peer_shift, 3);
	lg_workload_destroy(wl);
	wl = load_ok("run: [stat: \"f${peer}\"]\n");
	assert_int_equal(wl->peer_shift, 0);
	assert_string_equal(wl->paths[0], "f${peer}");
	lg_workload_destroy(wl);
}

static void test_source_and_name(void **state)
{
	static const char text[] = "run: [stat: a]\n";
	struct lg_workload *wl = NULL;

	(void)state;
	assert_int_equal(lg_yaml_load("dir/sub/my.load.yml", text, strlen(text), NULL, 0, 1,
				      &wl, NULL, 0), 0);
	assert_string_equal(wl->name, "my.load");
	assert_string_equal(wl->source, "dir/sub/my.load.yml");
	assert_string_equal(wl->sha256,
			    "7c66ed72c8b9182aa2b80a56de1cab7de78856111bdb69f841468030e6785020");
	lg_workload_destroy(wl);
	assert_int_equal(lg_yaml_load("builtin:netbench", text, strlen(text), NULL, 0, 1, &wl,
				      err, sizeof(err)), 0);
	assert_string_equal(wl->name, "netbench");
	assert_string_equal(wl->source, "builtin:netbench");
	lg_workload_destroy(wl);
}

/* An input and the start of the message it must be rejected with. */
struct bad {
	const char *text;
	const char *msg;
};

static const struct bad bad_inputs[] = {
	/* structure */
	{ "", "t.yaml:1:1: empty workload" },
	{ "# only a comment\n", "t.yaml:1:1: empty workload" },
	{ "---\n", "t.yaml:1:1: empty workload" },
	{ "- stat: a\n", "t.yaml:1:1: the workload must be a mapping" },
	{ "name: x\n", "t.yaml:1:1: the workload has no 'run' section" },
	{ "run: [stat: a]\nnmae: x\n", "t.yaml:2:1: unknown key 'nmae' in the workload; "
	  "did you mean 'name'? (expected name, description, params, labels, peer_shift, setup, run, cleanup, streams, recorded)" },
	{ "run: [stat: a]\nzzzz: x\n", "t.yaml:2:1: unknown key 'zzzz' in the workload "
	  "(expected name, description, params, labels, peer_shift, setup, run, cleanup, streams, recorded)" },
	/* did you mean: op names, keys, flags, modes, errno names, units */
	{ "run: [wirte: {file: f, size: 1}]\n", "t.yaml:1:7: unknown op 'wirte'; did you "
	  "mean 'write'?" },
	{ "run: [Stat: a]\n", "t.yaml:1:7: unknown op 'Stat'; did you mean 'stat'?" },
	{ "run: [frobnicate: a]\n", "t.yaml:1:7: unknown op 'frobnicate' (expected open," },
	{ "run: [{open: {path: f, as: f, flgas: [create]}}, {stat: f}]\n",
	  "t.yaml:1:31: unknown key 'flgas' in open; did you mean 'flags'?" },
	{ "run: [{open: {path: f, as: f, flags: [craete]}}, {stat: f}]\n",
	  "t.yaml:1:39: unknown flag 'craete' (did you mean 'create'? expected create," },
	{ "run: [{create: {path: f, as: f}}, {fadvise: {file: f, advice: dontneeed}}]\n",
	  "t.yaml:1:63: unknown advice 'dontneeed' (did you mean 'dontneed'? expected" },
	{ "run: [{create: {path: f, as: f}}, {read: {file: f, size: 1, offset: rnadom}}]\n",
	  "t.yaml:1:69: unknown offset 'rnadom'; did you mean 'random'? (expected seq," },
	{ "run: [{stat: {path: f, expect: ENOENTT}}]\n",
	  "t.yaml:1:32: unknown expect 'ENOENTT'; did you mean 'ENOENT'? (use ok, any" },
	{ "run: [{stat: {path: f, expect: enoent}}]\n",
	  "t.yaml:1:32: unknown expect 'enoent'; did you mean 'ENOENT'? (use ok, any" },
	{ "run: [{pick: {var: k, count: 2, order: shufle}}, {stat: \"f${k}\"}]\n",
	  "t.yaml:1:40: unknown order 'shufle'; did you mean 'shuffle'? (expected random," },
	{ "run: [{create: {path: f, as: f}}, {write: {file: f, size: 64kb}}]\n",
	  "t.yaml:1:59: bad size '64kb' for 'size': unknown size unit (use B, K/KiB, M/MiB, "
	  "G/GiB, T/TiB, or KB, MB, GB, TB for powers of 1000); did you mean '64KiB' (powers "
	  "of 1024) or '64kB' (powers of 1000)?" },
	{ "run: [sleep: 1.5s]\n", "t.yaml:1:14: bad duration '1.5s' for 'duration': fractions "
	  "are not allowed; did you mean '1500ms'?" },
	{ "run: [stat: a]\nrun: [stat: b]\n", "t.yaml:2:1: duplicate key 'run' in the workload" },
	{ "run: 5\n", "t.yaml:1:6: 'run' must be a list of steps, not a scalar" },
	{ "run: []\n", "t.yaml:1:6: 'run' must contain at least one op to measure" },
	{ "run: [repeat: {count: 1, do: []}]\n", "t.yaml:1:30: 'do' must contain at least" },
	{ "run:\n  - stat: a\n---\nrun: [stat: b]\n",
	  "t.yaml:3:1: a workload is one YAML document; found a second one" },
	{ "name: [x]\nrun: [stat: a]\n", "t.yaml:1:7: 'name' must be a non-empty string" },
	/* YAML features refused */
	{ "params:\n  a: &x 4K\nrun:\n  - stat: a\n",
	  "t.yaml:2:6: YAML anchors (&x) are not supported" },
	{ "run:\n  - stat: *x\n", "t.yaml:2:11: YAML aliases (*x) are not supported" },
	{ "run: !!python/object x\n",
	  "t.yaml:1:6: unsupported YAML tag '!!python/object' (loadgen takes !!str, !!int, " },
	/* standard tags that do not fit their node */
	{ "run:\n  - stat: !!map a\n",
	  "t.yaml:2:11: YAML tag '!!map' on a scalar; it fits a mapping only" },
	{ "run:\n  - stat: !!int a\n",
	  "t.yaml:2:11: YAML tag '!!int' on 'a', which is not an integer" },
	{ "run: !!map\n  - stat: a\n", "t.yaml:1:6: YAML tag '!!map' on a sequence; it fits a "
	  "mapping only" },
	{ "run:\n  - {stat: {path: a, expect: !!bool ENOENT}}\n",
	  "t.yaml:2:30: YAML tag '!!bool' on 'ENOENT', which is not a boolean" },
	{ "run: [sleep: !!null 1ms]\n", "t.yaml:1:14: YAML tag '!!null' on '1ms', which is not "
	  "null" },
	{ "run: [sleep: !!float 1ms]\n", "t.yaml:1:14: YAML tag '!!float' on '1ms'" },
	{ "run: [stat: !!timestamp 2001-12-14]\n", "t.yaml:1:13: unsupported YAML tag "
	  "'!!timestamp'" },
	{ "run: [stat: !local a]\n", "t.yaml:1:13: unsupported YAML tag '!local'" },
	/* a tag that fits is read as without it: !!str ~ is the text "~", not null */
	{ "params: !!str ~\nrun: [stat: a]\n",
	  "t.yaml:1:9: 'params' must be a mapping of name: default, not a scalar" },
	{ "run:\n  - stat: \"a\\0b\"\n", "t.yaml:2:11: NUL character in value" },
	{ "run: [{[a]: b}]\n", "t.yaml:1:8: mapping keys must be scalars" },
	/* syntax errors */
	{ "run:\n  - stat: a\n - stat: b\n",
	  "t.yaml:3:2: did not find expected key (while parsing a block mapping at 1:1)" },
	{ "run:\n  - open: {path: c${client}/f, as: f}\n",
	  "t.yaml:2:20: did not find expected ',' or '}' (while parsing a flow mapping at "
	  "2:11); quote values that contain ${...}" },
	{ "run: [stat: a]\nx: \"\xff\"\n", "t.yaml:2:5: invalid leading UTF-8 octet" },
	/* steps */
	{ "run:\n  - stat: a\n  - frobnicate: x\n", "t.yaml:3:5: unknown op 'frobnicate'" },
	{ "run:\n  - stat\n", "t.yaml:2:5: a step must be a mapping with one op" },
	{ "run:\n  - {}\n", "t.yaml:2:5: empty step: expected one op" },
	{ "run:\n  - stat: a\n    unlink: b\n",
	  "t.yaml:3:5: a step has exactly one op, but 'unlink' follows 'stat'" },
	{ "run:\n  - stat: a\n    expect: ENOENT\n",
	  "t.yaml:3:5: 'expect' goes among the arguments of 'stat'" },
	{ "run:\n  - open: {path: a, as: f}\n  - write: {file: f, sise: 4K}\n",
	  "t.yaml:3:22: unknown key 'sise' in write; did you mean 'size'? (expected file, "
	  "size, offset, range, align, base, count, vector, expect, label)" },
	{ "run:\n  - open: {path: [a, b], as: f}\n",
	  "t.yaml:2:18: 'path' must be a scalar, not a sequence" },
	{ "run:\n  - open: a\n", "t.yaml:2:11: 'open' takes a mapping of arguments, not a scalar" },
	{ "run:\n  - stat: [a]\n", "t.yaml:2:11: 'stat' takes a path or a mapping" },
	{ "run:\n  - open: {path: a}\n", "t.yaml:2:5: 'open' needs 'as'" },
	{ "run:\n  - stat:\n", "t.yaml:2:5: 'stat' needs 'path'" },
	{ "run:\n  - stat: {path: a, path: b}\n", "t.yaml:2:21: duplicate key 'path' in stat" },
	/* values */
	{ "run:\n  - open: {path: a, as: f}\n  - write:\n      file: f\n      size: 4Kb\n",
	  "t.yaml:5:13: bad size '4Kb' for 'size': unknown size unit" },
	{ "run:\n  - open: {path: a, as: f}\n  - write: {file: f, size: 0}\n",
	  "t.yaml:3:28: 'size' must be 1 byte to 1GiB" },
	{ "run:\n  - open: {path: a, as: f}\n  - write: {file: f, size: 2GiB}\n",
	  "t.yaml:3:28: 'size' must be 1 byte to 1GiB" },
	{ "run:\n  - open: {path: a, as: f}\n  - write: {file: f, size: 1GiB, count: 8Gi, "
	  "offset: 0}\n", "t.yaml:3:41: bad number '8Gi' for 'count': expected a whole number" },
	{ "run:\n  - open: {path: a, as: f}\n  - write: {file: f, size: 1GiB, count: 9000000000, "
	  "offset: 0}\n", "t.yaml:3:61: 'offset' + 'size' x 'count' is past the largest file" },
	{ "run:\n  - open: {path: a, as: f}\n  - read: {file: f, size: 1, count: 0}\n",
	  "t.yaml:3:37: 'count' must be at least 1" },
	{ "run:\n  - open: {path: a, as: f}\n  - read: {file: f, size: 1, count: -1}\n",
	  "t.yaml:3:37: bad number '-1' for 'count': negative values are not allowed" },
	{ "run:\n  - sleep: 1.5s\n", "t.yaml:2:12: bad duration '1.5s' for 'duration': "
	  "fractions are not allowed" },
	{ "run:\n  - stat: /etc/passwd\n", "t.yaml:2:11: path '/etc/passwd': absolute path" },
	{ "run:\n  - rename: {from: a, to: \"x/../../b\"}\n",
	  "t.yaml:2:27: to 'x/../../b': path leaves the run directory through '..'" },
	{ "run:\n  - mkdir: \"${client}/..\"\n", "t.yaml:2:12: path '${client}/..': path "
	  "names the run directory itself" },
	{ "run:\n  - stat: {path: a, expect: ENOPE}\n", "t.yaml:2:29: unknown expect 'ENOPE'" },
	{ "run:\n  - stat: {path: a, label: \"\"}\n", "t.yaml:2:28: 'label' must have 1 to 64" },
	/* files */
	{ "setup:\n  - mkdir: d\nrun:\n  - close: g\n",
	  "t.yaml:4:12: file 'g' used before it is opened" },
	{ "setup:\n  - fsync: f\nrun:\n  - open: {path: a, as: f}\n",
	  "t.yaml:2:12: file 'f' used before it is opened" },
	{ "run:\n  - open: {path: a, as: \"\"}\n", "t.yaml:2:25: 'as' must name a file" },
	{ "run:\n  - open: {path: a, as: f, flags: [read, write]}\n",
	  "t.yaml:2:35: flags read, write and rdwr exclude each other" },
	{ "run:\n  - open: {path: a, as: f, flags: [exclusive]}\n",
	  "t.yaml:2:35: flag 'exclusive' needs 'create'" },
	{ "run:\n  - open: {path: a, as: f, flags: [creat]}\n",
	  "t.yaml:2:36: unknown flag 'creat' (did you mean 'create'? expected create, truncate," },
	{ "run:\n  - open: {path: a, as: f, flags: {create: 1}}\n",
	  "t.yaml:2:35: 'flags' must be a flag name or a list of them, not a mapping" },
	{ "run:\n  - create: {path: a, as: f}\n  - fadvise: {file: f, advice: often}\n",
	  "t.yaml:3:32: unknown advice 'often'" },
	{ "run:\n  - create: {path: a, as: f}\n  - fadvise: f\n",
	  "t.yaml:3:14: 'fadvise' takes a mapping of arguments, not a scalar" },
	/* offsets */
	{ "run:\n  - create: {path: a, as: f}\n  - read: {file: f, size: 1, offset: random}\n",
	  "t.yaml:3:38: 'offset: random' needs 'range'" },
	{ "run:\n  - create: {path: a, as: f}\n  - read: {file: f, size: 8, offset: random, "
	  "range: 4}\n", "t.yaml:3:53: 'range' (4) is smaller than 'size' (8)" },
	{ "run:\n  - create: {path: a, as: f}\n  - read: {file: f, size: 1, range: 4}\n",
	  "t.yaml:3:37: 'range' only applies to 'offset: random'" },
	{ "run:\n  - create: {path: a, as: f}\n  - read: {file: f, size: 1, offset: append}\n",
	  "t.yaml:3:38: 'offset: append' is only for write" },
	{ "run:\n  - create: {path: a, as: f}\n  - read: {file: f, size: 1, offset: rnd}\n",
	  "t.yaml:3:38: unknown offset 'rnd'" },
	{ "run:\n  - create: {path: a, as: f}\n  - read: {file: f, size: 1, offset: random, "
	  "range: 4, align: 0}\n", "t.yaml:3:63: 'align' must be at least 1" },
	/* control flow */
	{ "run:\n  - repeat: {do: [stat: a]}\n", "t.yaml:2:5: 'repeat' needs 'count'" },
	{ "run:\n  - repeat: [stat: a]\n", "t.yaml:2:13: 'repeat' takes a mapping" },
	{ "run:\n  - choose: []\n", "t.yaml:2:13: 'choose' takes a non-empty list" },
	{ "run:\n  - choose: [{weight: 0, do: [stat: a]}]\n",
	  "t.yaml:2:13: the weights of 'choose' add up to 0" },
	{ "run:\n  - choose: [stat: a]\n", "t.yaml:2:14: unknown key 'stat' in a choose "
	  "alternative (expected weight, do)" },
	{ "run:\n  - choose: [{weight: 1}]\n", "t.yaml:2:14: a choose alternative needs 'do'" },
	{ "run:\n  - choose: [{weight: 18446744073709551615, do: [stat: a]}, {do: [stat: b]}]\n",
	  "t.yaml:2:61: the weights of 'choose' add up past 2^64" },
	/* parameters */
	{ "params:\n  bs: 4KiB\nrun:\n  - create: {path: a, as: f}\n"
	  "  - write: {file: f, size: \"${bz}\"}\n", "t.yaml:5:28: undefined parameter '${bz}'" },
	{ "run:\n  - create: {path: a, as: f}\n  - write: {file: f, size: \"${client}\"}\n",
	  "t.yaml:3:28: ${client} can only be used in paths (in 'size': '${client}')" },
	{ "run:\n  - create: {path: a, as: \"f${client}\"}\n",
	  "t.yaml:2:27: ${client} can only be used in paths (in 'as': 'f${client}')" },
	{ "run:\n  - stat: \"a${b\"\n", "t.yaml:2:11: unterminated '${' in 'a${b'" },
	{ "params:\n  bs: 4KiB\nrun:\n  - create: {path: a, as: f}\n"
	  "  - write: {file: f, size: \"${bs}x\"}\n",
	  "t.yaml:5:28: bad size '4KiBx' (from '${bs}x') for 'size': unknown size unit" },
	{ "params:\n  client: 1\nrun: [stat: a]\n",
	  "t.yaml:2:3: parameter 'client' is built in and cannot be declared" },
	{ "params:\n  2x: 1\nrun: [stat: a]\n", "t.yaml:2:3: bad parameter name '2x'" },
	{ "params:\n  a: \"${b}\"\n  b: 1\nrun: [stat: a]\n",
	  "t.yaml:2:6: default of parameter 'a' refers to a parameter" },
	{ "params:\n  a: [1]\nrun: [stat: a]\n",
	  "t.yaml:2:6: default of parameter 'a' must be a scalar, not a sequence" },
	{ "params: [a]\nrun: [stat: a]\n", "t.yaml:1:9: 'params' must be a mapping" },
	/* ${peer} and its shift */
	{ "peer_shift: 0\nrun: [stat: a]\n",
	  "t.yaml:1:13: 'peer_shift' must be 1 to 4294967295 clients, not 0" },
	{ "peer_shift: 5000000000\nrun: [stat: a]\n",
	  "t.yaml:1:13: 'peer_shift' must be 1 to 4294967295 clients, not 5000000000" },
	{ "params: {s: 0}\npeer_shift: ${s}\nrun: [stat: a]\n",
	  "t.yaml:2:13: 'peer_shift' must be 1 to 4294967295 clients, not 0" },
	{ "peer_shift: two\nrun: [stat: a]\n", "t.yaml:1:13: bad number 'two' for 'peer_shift'" },
	{ "run: [sleep: \"${peer}ms\"]\n",
	  "t.yaml:1:14: ${peer} can only be used in paths" },
	{ "params:\n  peer: 1\nrun: [stat: a]\n",
	  "t.yaml:2:3: parameter 'peer' is built in and cannot be declared" },
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
		const struct bad *b = &bad_inputs[i];
		struct lg_workload *wl = NULL;
		int rc = load_ov(b->text, NULL, 0, &wl);

		if (rc != -EINVAL || strncmp(err, b->msg, strlen(b->msg)) != 0)
			fail_msg("input %zu:\n%s\nrc %d, message:\n  %s\nwant:\n  %s", i, b->text,
				 rc, err, b->msg);
		assert_null(wl);
	}
}

static void test_override_errors(void **state)
{
	const struct lg_param unknown[] = { { "bz", "1" } };
	const struct lg_param recursive[] = { { "bs", "${clients}" } };
	struct lg_workload *wl = NULL;

	(void)state;
	assert_int_equal(load_ov(params_yaml, unknown, 1, &wl), -EINVAL);
	assert_string_equal(err, "t.yaml:2:3: -p bz: the workload declares no parameter 'bz'; "
			    "did you mean 'bs'? (its parameters, with defaults: bs=4KiB, n=3, "
			    "dir=data)");
	assert_int_equal(load_ov(params_yaml, recursive, 1, &wl), -EINVAL);
	assert_string_equal(err, "t.yaml:2:3: -p bs: parameter values are literal and cannot "
			    "contain '${'");
	/* Without a params section the error points at the document. */
	assert_int_equal(load_ov("run: [stat: a]\n", unknown, 1, &wl), -EINVAL);
	assert_string_equal(err, "t.yaml:1:1: -p bz: the workload declares no parameters");
	/* A value that breaks an op is reported where the parameter is used. */
	assert_int_equal(load_ov(params_yaml, (struct lg_param[]){ { "n", "many" } }, 1, &wl),
			 -EINVAL);
	assert_string_equal(err, "t.yaml:7:44: bad number 'many' (from '${n}') for 'count': "
			    "expected a decimal number");
	assert_null(wl);
}

static void test_phase_order_and_slots(void **state)
{
	/* cleanup written first still compiles after run, where f is opened */
	struct lg_workload *wl = load_ok("cleanup:\n  - close: f\nrun:\n"
					 "  - create: {path: a, as: f}\n  - close: f\n");

	(void)state;
	assert_int_equal(wl->nops[LG_PHASE_CLEANUP], 1);
	assert_int_equal(wl->ops[LG_PHASE_CLEANUP][0].slot, 0);
	assert_int_equal(wl->ops[LG_PHASE_CLEANUP][0].line, 2);
	assert_int_equal(wl->nslots, 1);
	lg_workload_destroy(wl);
}

static void test_error_buffer(void **state)
{
	char small[16];
	struct lg_workload *wl = NULL;

	(void)state;
	assert_int_equal(lg_yaml_load("t.yaml", "run: 5", 6, NULL, 0, 1, &wl, small,
				      sizeof(small)), -EINVAL);
	assert_string_equal(small, "t.yaml:1:6: 'ru");
	assert_int_equal(lg_yaml_load("t.yaml", "run: 5", 6, NULL, 0, 1, &wl, NULL, 0),
			 -EINVAL);
	assert_int_equal(lg_yaml_load("t.yaml", NULL, 0, NULL, 0, 1, &wl, err, sizeof(err)),
			 -EINVAL);
}

/* Calls one pass of the run phase makes: read/write count each call. */
static uint64_t timed_calls(const struct lg_workload *wl)
{
	uint64_t n = 0;

	for (size_t i = 0; i < wl->nops[LG_PHASE_RUN]; i++)
		if (wl->ops[LG_PHASE_RUN][i].kind < LG_OP_LOOP)
			n += wl->ops[LG_PHASE_RUN][i].count;
	return n;
}

static void test_shipped_workloads(void **state)
{
	struct lg_workload *wl = load_file("loadfiles/mix64k.yaml", "loadfiles/mix64k.yaml");
	const struct lg_op *run = wl->ops[LG_PHASE_RUN];

	(void)state;
	assert_string_equal(wl->name, "mix64k");
	/* create, 16 writes, fsync, close, open, 16 reads, close, stat, unlink */
	assert_int_equal(timed_calls(wl), 39);
	assert_int_equal(wl->nops[LG_PHASE_RUN], 9);
	assert_int_equal(run[0].flags, O_CREAT | O_TRUNC | O_RDWR);
	assert_int_equal(run[1].size, 65536);
	assert_int_equal(run[1].count, 16);
	assert_int_equal(run[1].off_mode, LG_OFF_FIXED);
	assert_int_equal(run[1].offset, 0);
	assert_string_equal(wl->paths[run[0].path], "client${client}/data");
	assert_int_equal(wl->ops[LG_PHASE_SETUP][0].kind, LG_OP_MKDIR);
	assert_int_equal(wl->ops[LG_PHASE_CLEANUP][wl->nops[LG_PHASE_CLEANUP] - 1].kind,
			 LG_OP_RMDIR);
	lg_workload_destroy(wl);

	wl = load_file("loadfiles/netbench.yaml", "builtin:netbench");
	assert_string_equal(wl->name, "netbench");
	assert_true(wl->nparams >= 3);
	assert_int_equal(wl->ops[LG_PHASE_RUN][0].kind, LG_OP_CHOOSE);
	for (size_t i = 0; i < wl->npaths; i++)
		assert_non_null(strstr(wl->paths[i], "client${client}"));
	lg_workload_destroy(wl);
}

/* The shipped dd.yaml: sync=true adds a syncfs of the run directory on each side. */
static void test_when_dd(void **state)
{
	const struct lg_param sync[] = { { "sync", "true" } };
	struct lg_workload *wl = load_file("loadfiles/dd.yaml", "dd.yaml");
	const struct lg_op *op;
	size_t len;
	char *text;

	(void)state;
	assert_int_equal(wl->nops[LG_PHASE_RUN], 3);
	assert_int_equal(wl->ops[LG_PHASE_RUN][1].count, 131072);
	lg_workload_destroy(wl);
	text = slurp("loadfiles/dd.yaml", &len);
	assert_int_equal(lg_yaml_load("dd.yaml", text, len, sync, 1, 1, &wl, err, sizeof(err)),
			 0);
	free(text);
	op = wl->ops[LG_PHASE_RUN];
	assert_int_equal(wl->nops[LG_PHASE_RUN], 5);
	assert_int_equal(op[0].kind, LG_OP_SYNCFS);
	assert_int_equal(op[0].slot, LG_NO_SLOT);
	assert_int_equal(op[4].kind, LG_OP_SYNCFS);
	lg_workload_destroy(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_op),
		cmocka_unit_test(test_control_flow),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_peer),
		cmocka_unit_test(test_source_and_name),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_override_errors),
		cmocka_unit_test(test_phase_order_and_slots),
		cmocka_unit_test(test_error_buffer),
		cmocka_unit_test(test_shipped_workloads),
		cmocka_unit_test(test_when_dd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
