/* yaml_steps.c: each step compiled to its lg_op fields through lg_yaml_load -- open
 * flags, the I/O ops' sizes, counts and offset modes, sync_file_range flags, fadvise
 * advice, sleep durations, labels and expect -- then repeat and choose compiled into
 * LOOP/NEXT and CHOOSE/JUMP with their targets, and `when` leaving steps out; and the
 * errors with their line:column. */
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

static char err[512];

static struct lg_workload *load(const char *yaml)
{
	struct lg_workload *wl = NULL;

	if (lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, 1, &wl, err, sizeof(err)))
		fail_msg("%s", err);
	return wl;
}

static int load_fails(const char *yaml)
{
	struct lg_workload *wl = NULL;
	int rc = lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, 1, &wl, err, sizeof(err));

	lg_workload_destroy(wl);
	return rc;
}

/* Load yaml with the parameters ov (-p NAME=VALUE) for 4 clients. */
static struct lg_workload *load_params(const char *yaml, const struct lg_param *ov,
				       size_t nov)
{
	struct lg_workload *wl = NULL;

	if (lg_yaml_load("t.yaml", yaml, strlen(yaml), ov, nov, 4, &wl, err, sizeof(err)))
		fail_msg("%s", err);
	return wl;
}

#define OP(wl, i) (&(wl)->ops[LG_PHASE_RUN][i])

static void test_io_fields(void **state)
{
	struct lg_workload *wl = load("run:\n"
		"  - open: {path: f, as: f, flags: [read]}\n"
		"  - create: {path: g, as: g, flags: [truncate, append]}\n"
		"  - write: {file: g, size: 64KiB, count: 4}\n"
		"  - read: {file: f, size: 4KB, offset: 1MiB}\n"
		"  - read: {file: f, size: 512, offset: random, range: 1GiB, align: 4KiB, base: 8}\n"
		"  - read: {file: f, size: 512, offset: last}\n"
		"  - write: {file: g, size: 1, offset: append}\n"
		"  - sync_file_range: {file: g, size: 8KiB, flags: [wait_before, write]}\n"
		"  - fadvise: {file: f, advice: dontneed}\n"
		"  - sleep: 1500us\n"
		"  - stat: {path: f, label: probe, expect: ENOENT}\n"
		"  - truncate: {file: g, size: 10}\n");

	(void)state;
	assert_int_equal(OP(wl, 0)->kind, LG_OP_OPEN);
	assert_int_equal(OP(wl, 0)->flags, O_RDONLY);
	assert_int_equal(OP(wl, 1)->flags, O_CREAT | O_TRUNC | O_APPEND | O_RDWR);
	assert_int_equal(OP(wl, 2)->size, 65536);
	assert_int_equal(OP(wl, 2)->count, 4);
	assert_int_equal(OP(wl, 2)->off_mode, LG_OFF_SEQ);
	assert_int_equal(OP(wl, 3)->size, 4000);         /* KB is 10^3 */
	assert_int_equal(OP(wl, 3)->off_mode, LG_OFF_FIXED);
	assert_int_equal(OP(wl, 3)->offset, 1 << 20);
	assert_int_equal(OP(wl, 4)->off_mode, LG_OFF_RANDOM);
	assert_int_equal(OP(wl, 4)->range, 1ull << 30);
	assert_int_equal(OP(wl, 4)->align, 4096);
	assert_int_equal(OP(wl, 4)->offset, 8);
	assert_int_equal(OP(wl, 5)->off_mode, LG_OFF_LAST);
	assert_int_equal(OP(wl, 6)->off_mode, LG_OFF_APPEND);
	assert_int_equal(OP(wl, 7)->flags, 1 | 2); /* SYNC_FILE_RANGE_WAIT_BEFORE | WRITE */
	assert_int_equal(OP(wl, 8)->flags, 4);     /* POSIX_FADV_DONTNEED */
	assert_int_equal(OP(wl, 9)->size, 1500000); /* ns */
	assert_string_equal(wl->types[OP(wl, 10)->type], "probe");
	assert_int_equal(OP(wl, 10)->expect, ENOENT);
	assert_int_equal(OP(wl, 11)->size, 10);
	assert_int_equal(wl->max_io, 65536);
	lg_workload_destroy(wl);
}

/* repeat: LOOP (count, target past its NEXT) ... NEXT (back to the first op). choose:
 * CHOOSE over alternatives with cumulative weights, each ending in a JUMP past them. */
static void test_control(void **state)
{
	struct lg_workload *wl = load("params:\n  n: 3\n  on: no\n"
		"run:\n"
		"  - repeat: {count: \"${n}\", do: [mkdir: d, rmdir: d]}\n"   /* 0..3 */
		"  - choose:\n"                                                /* 4 */
		"      - {weight: 2, do: [stat: a]}\n"
		"      - {weight: 5, do: [stat: b]}\n"
		"  - {readdir: x, when: \"${on}\"}\n"
		"  - stat: c\n");
	const struct lg_op *loop = OP(wl, 0), *next = OP(wl, 3), *ch = OP(wl, 4);

	(void)state;
	assert_int_equal(loop->kind, LG_OP_LOOP);
	assert_int_equal(loop->count, 3);
	assert_int_equal(loop->target, 4);
	assert_int_equal(next->kind, LG_OP_NEXT);
	assert_int_equal(next->target, 1);
	assert_int_equal(next->slot, loop->slot);
	assert_int_equal(ch->kind, LG_OP_CHOOSE);
	assert_int_equal(ch->count, 2);
	assert_int_equal(wl->alts[ch->target].cum_weight, 2);
	assert_int_equal(wl->alts[ch->target + 1].cum_weight, 7);
	/* each alternative: its op, then a jump to what follows the choose */
	for (int a = 0; a < 2; a++) {
		uint32_t t = wl->alts[ch->target + a].target;

		assert_int_equal(OP(wl, t)->kind, LG_OP_STAT);
		assert_int_equal(OP(wl, t + 1)->kind, LG_OP_JUMP);
		assert_string_equal(wl->paths[OP(wl, OP(wl, t + 1)->target)->path], "c");
	}
	for (size_t i = 0; i < wl->nops[LG_PHASE_RUN]; i++) /* when: false left it out */
		assert_int_not_equal(OP(wl, i)->kind, LG_OP_READDIR);
	lg_workload_destroy(wl);
}

static void test_errors(void **state)
{
	(void)state;
	assert_int_equal(load_fails("run:\n  - write: {file: nope, size: 1}\n"), -EINVAL);
	assert_non_null(strstr(err, "t.yaml:2:"));
	assert_non_null(strstr(err, "nope"));
	assert_int_equal(load_fails("run:\n  - open: {path: f, as: f, flags: [read, write]}\n"),
			 -EINVAL);
	assert_non_null(strstr(err, "exclude each other"));
	assert_int_equal(load_fails("run:\n  - sleep: forever\n"), -EINVAL);
	assert_non_null(strstr(err, "t.yaml:2:"));
	assert_int_equal(load_fails("run:\n  - mkdir: {path: d, colour: red}\n"), -EINVAL);
	assert_non_null(strstr(err, "colour"));
	assert_int_equal(load_fails("run:\n  - jump: d\n"), -EINVAL);
	assert_non_null(strstr(err, "jump"));
	assert_int_equal(load_fails("run:\n  - choose: [{weight: 0, do: [mkdir: d]}]\n"),
			 -EINVAL);
	assert_int_equal(load_fails("run:\n  - {mkdir: d, when: maybe}\n"), -EINVAL);
	assert_non_null(strstr(err, "maybe"));
	assert_int_equal(load_fails("run:\n  - read: {file: f, size: 1, offset: random}\n"),
			 -EINVAL);
	/* the first required key missing, in the op's order */
	assert_int_equal(load_fails("run:\n  - read: {offset: 0}\n"), -EINVAL);
	assert_non_null(strstr(err, "t.yaml:2:5: 'read' needs 'file'"));
	assert_int_equal(load_fails("run:\n  - create: {path: f, as: f}\n"
				    "  - read: {file: f}\n"), -EINVAL);
	assert_non_null(strstr(err, "'read' needs 'size'"));
	assert_int_equal(load_fails("run:\n  - create: {path: f, as: f}\n"
				    "  - fadvise: {file: f, size: 1}\n"), -EINVAL);
	assert_non_null(strstr(err, "'fadvise' needs 'advice'"));
}

/* Every op of the table by its name, written flat ("NAME: {...}", looked up by
 * step_flat) and as a tree ("- {NAME: ...}"), and names that are nearly an op's. */
static void test_op_names(void **state)
{
	static const char yaml[] = "run:\n"
		"  - create: {path: f, as: f}\n"
		"  - open: {path: f, as: g}\n"
		"  - close: {file: g}\n"
		"  - write: {file: f, size: 1}\n"
		"  - read: {file: f, size: 1}\n"
		"  - fsync: {file: f}\n"
		"  - fdatasync: {file: f}\n"
		"  - unlink: {path: x}\n"
		"  - mkdir: {path: d}\n"
		"  - rmdir: {path: d}\n"
		"  - rename: {from: a, to: b}\n"
		"  - stat: {path: a}\n"
		"  - fstat: {file: f}\n"
		"  - truncate: {file: f, size: 1}\n"
		"  - readdir: {path: d}\n"
		"  - sync_file_range: {file: f}\n"
		"  - fadvise: {file: f, advice: normal}\n"
		"  - syncfs: {}\n"
		"  - sleep: {duration: 1ms}\n"
		"  - ntcreate: {path: n, as: n}\n"
		"  - deltree: {path: d}\n"
		"  - statfs: {}\n"
		"  - setinfo: {file: f}\n"
		"  - find: {path: d}\n"
		"  - lock: {file: f}\n"
		"  - unlock: {file: f}\n"
		"  - {stat: a}\n"
		"  - {statfs: ~}\n"
		"  - link: {from: a, to: b}\n"
		"  - symlink: {target: a, path: l}\n"
		"  - readlink: {path: l}\n"
		"  - chmod: {path: a, mode: 0644}\n"
		"  - chown: {file: f}\n"
		"  - utimens: {path: a}\n"
		"  - access: {path: a}\n"
		"  - statx: {path: a}\n"
		"  - seek: {file: f}\n"
		"  - fallocate: {file: f, size: 1}\n"
		"  - getdents: {file: f, size: 1}\n"
		"  - setxattr: {path: a, name: user.a}\n"
		"  - getxattr: {file: f, name: user.a}\n"
		"  - listxattr: {path: a}\n"
		"  - removexattr: {path: a, name: user.a}\n"
		"  - {readlink: l}\n";
	static const enum lg_op_kind kinds[] = {
		LG_OP_OPEN, LG_OP_OPEN, LG_OP_CLOSE, LG_OP_WRITE, LG_OP_READ, LG_OP_FSYNC,
		LG_OP_FDATASYNC, LG_OP_UNLINK, LG_OP_MKDIR, LG_OP_RMDIR, LG_OP_RENAME,
		LG_OP_STAT, LG_OP_FSTAT, LG_OP_TRUNCATE, LG_OP_READDIR, LG_OP_SYNC_FILE_RANGE,
		LG_OP_FADVISE, LG_OP_SYNCFS, LG_OP_SLEEP, LG_OP_NTCREATE, LG_OP_DELTREE,
		LG_OP_STATFS, LG_OP_SETINFO, LG_OP_FIND, LG_OP_LOCK, LG_OP_UNLOCK, LG_OP_STAT,
		LG_OP_STATFS, LG_OP_LINK, LG_OP_SYMLINK, LG_OP_READLINK, LG_OP_CHMOD,
		LG_OP_CHOWN, LG_OP_UTIMENS, LG_OP_ACCESS, LG_OP_STATX, LG_OP_SEEK,
		LG_OP_FALLOCATE, LG_OP_GETDENTS, LG_OP_SETXATTR, LG_OP_GETXATTR,
		LG_OP_LISTXATTR, LG_OP_REMOVEXATTR, LG_OP_READLINK,
	};
	static const char *const near[] = { "rea", "reads", "fsyn", "statf", "\"\"", "s",
					    "ntcreat", "unlocks", "lockk", "truncatE", "symlinks",
					    "getxatr", "removexattrs" };
	struct lg_workload *wl = load(yaml);
	char bad[64];

	(void)state;
	assert_int_equal(wl->nops[LG_PHASE_RUN], sizeof(kinds) / sizeof(kinds[0]));
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		assert_int_equal(OP(wl, i)->kind, kinds[i]);
	assert_int_equal(OP(wl, 0)->flags & O_CREAT, O_CREAT);
	assert_int_equal(OP(wl, 1)->flags & O_CREAT, 0);
	lg_workload_destroy(wl);
	for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++) {
		snprintf(bad, sizeof(bad), "run:\n  - %s: {path: a}\n", near[i]);
		assert_int_equal(load_fails(bad), -EINVAL);
		assert_non_null(strstr(err, "t.yaml:2:5: unknown op"));
	}
}

/* Sizes written as plain numbers (read inline, up to 19 digits) and longer ones (read
 * with units.h), with the largest and one past it. */
static void test_plain_sizes(void **state)
{
	struct lg_workload *wl = load("run:\n  - create: {path: f, as: f}\n"
				      "  - truncate: {file: f, size: 9999999999999999999}\n"
				      "  - truncate: {file: f, size: 18446744073709551615}\n"
				      "  - truncate: {file: f, size: 00000000000000000007}\n"
				      "  - truncate: {file: f, size: 0}\n"
				      "  - truncate: {file: f, size: 12KB}\n");

	(void)state;
	assert_true(OP(wl, 1)->size == UINT64_C(9999999999999999999));
	assert_true(OP(wl, 2)->size == UINT64_MAX);
	assert_int_equal(OP(wl, 3)->size, 7);
	assert_int_equal(OP(wl, 4)->size, 0);
	assert_int_equal(OP(wl, 5)->size, 12000);
	lg_workload_destroy(wl);
	assert_int_equal(load_fails("run:\n  - create: {path: f, as: f}\n"
				    "  - truncate: {file: f, size: 18446744073709551616}\n"), -EINVAL);
	assert_non_null(strstr(err, "t.yaml:3:31: bad size"));
}

/* Row name of op i of the run phase. */
static const char *row(const struct lg_workload *wl, size_t i)
{
	return wl->types[OP(wl, i)->type];
}

/* The top-level 'labels': the label of each op's steps that name none. */
static void test_labels(void **state)
{
	static const struct {
		const char *yaml, *msg;
	} bad[] = {
		{ "labels: {wirte: W}\nrun: [stat: a]\n",
		  "t.yaml:1:10: unknown op 'wirte'; did you mean 'write'?" },
		{ "labels: {repeat: R}\nrun: [stat: a]\n",
		  "t.yaml:1:10: 'repeat' is not an op and has no label" },
		{ "labels: {stat: S, stat: T}\nrun: [stat: a]\n",
		  "t.yaml:1:19: duplicate op 'stat' in 'labels'" },
		{ "labels: {stat: [S]}\nrun: [stat: a]\n",
		  "t.yaml:1:16: the label of 'stat' must be a string, not a sequence" },
		{ "labels: [stat]\nrun: [stat: a]\n",
		  "t.yaml:1:9: 'labels' must be a mapping of op: label, not a sequence" },
		{ "labels: {stat: \"\"}\nrun: [stat: a]\n",
		  "t.yaml:1:16: 'label' must have 1 to 64 characters" },
	};
	struct lg_workload *wl = load("params: {l: Lookup}\n"
		"labels:\n  stat: \"${l}\"\n  create: Make\n"
		"run:\n  - stat: a\n  - stat: {path: b, label: other}\n"
		"  - create: {path: c, as: f}\n  - fstat: {file: f}\n  - open: {path: c, as: g}\n");

	(void)state;
	assert_string_equal(row(wl, 0), "Lookup");
	assert_string_equal(row(wl, 1), "other");
	assert_string_equal(row(wl, 2), "Make");
	assert_string_equal(row(wl, 3), "fstat");
	assert_string_equal(row(wl, 4), "open");
	lg_workload_destroy(wl);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(load_fails(bad[i].yaml), -EINVAL);
		if (strncmp(err, bad[i].msg, strlen(bad[i].msg)) != 0)
			fail_msg("case %zu: '%s', want '%s'", i, err, bad[i].msg);
	}
}

static const char when_yaml[] =
	"params:\n"
	"  on: true\n"
	"  off: \"no\"\n"
	"run:\n"
	"  - when: \"${off}\"\n"
	"    create: {path: a, as: f}\n"
	"  - write: {file: f, size: 4KiB}\n"
	"    when: \"${off}\"\n"
	"  - {stat: b, when: \"${on}\"}\n"
	"  - when: \"${off}\"\n"
	"    repeat: {count: 2, do: [stat: c]}\n"
	"  - when: 1\n"
	"    repeat: {count: 3, do: [{stat: d, when: 0}, stat: e]}\n"
	"  - when: \"${off}\"\n"
	"    choose: [{do: [stat: f]}]\n"
	"  - choose: [{do: [{when: yes, stat: g}]}]\n";

/* when: a step switched off leaves no trace (no op, slot, loop or alternative), one
 * switched on compiles as if the key were absent; -p switches them. */
static void test_when(void **state)
{
	const struct lg_param flip[] = { { "on", "0" }, { "off", "1" } };
	struct lg_workload *wl = load_params(when_yaml, NULL, 0);
	const struct lg_op *op = wl->ops[LG_PHASE_RUN];

	(void)state;
	/* stat b; LOOP stat e NEXT; CHOOSE stat g JUMP */
	assert_int_equal(wl->nops[LG_PHASE_RUN], 7);
	assert_int_equal(op[0].kind, LG_OP_STAT);
	assert_string_equal(wl->paths[op[0].path], "b");
	assert_int_equal(op[1].kind, LG_OP_LOOP);
	assert_int_equal(op[1].count, 3);
	assert_string_equal(wl->paths[op[2].path], "e");
	assert_int_equal(op[3].kind, LG_OP_NEXT);
	assert_int_equal(op[4].kind, LG_OP_CHOOSE);
	assert_string_equal(wl->paths[op[5].path], "g");
	assert_int_equal(op[5].line, 16);
	assert_int_equal(wl->nslots, 0);
	assert_int_equal(wl->nloops, 1);
	assert_int_equal(wl->nalts, 1);
	assert_int_equal(wl->max_io, 0);
	lg_workload_destroy(wl);

	wl = load_params(when_yaml, flip, 2);
	op = wl->ops[LG_PHASE_RUN];
	/* create, write; LOOP stat c NEXT; LOOP stat e NEXT; CHOOSE stat f JUMP;
	 * CHOOSE stat g JUMP */
	assert_int_equal(wl->nops[LG_PHASE_RUN], 14);
	assert_int_equal(op[0].kind, LG_OP_OPEN);
	assert_int_equal(op[1].kind, LG_OP_WRITE);
	assert_int_equal(op[1].line, 7);
	assert_int_equal(op[2].kind, LG_OP_LOOP);
	assert_int_equal(op[2].count, 2);
	assert_string_equal(wl->paths[op[3].path], "c");
	assert_string_equal(wl->paths[op[6].path], "e");
	assert_string_equal(wl->paths[op[9].path], "f");
	assert_int_equal(wl->nslots, 1);
	assert_int_equal(wl->nloops, 2);
	assert_int_equal(wl->nalts, 2);
	assert_int_equal(wl->max_io, 4096);
	lg_workload_destroy(wl);
}

static void test_when_errors(void **state)
{
	static const char *const bad[][2] = {
		{ "run:\n  - {stat: a, when: maybe}\n",
		  "t.yaml:2:21: bad boolean 'maybe' for 'when' (expected true, false, yes, no, "
		  "1 or 0)" },
		{ "params: {x: TRUE}\nrun:\n  - {stat: a, when: \"${x}\"}\n",
		  "t.yaml:3:21: bad boolean 'TRUE' (from '${x}') for 'when'" },
		{ "run:\n  - when: true\n", "t.yaml:2:5: 'when' needs an op beside it" },
		{ "run:\n  - {stat: a, when: [1]}\n", "t.yaml:2:21: 'when' must be a scalar" },
		{ "run:\n  - {stat: a, when: 1, unlink: b}\n",
		  "t.yaml:2:24: a step has exactly one op, but 'unlink' follows 'stat'" },
		{ "run:\n  - {when: 1, stat: a, unlink: b}\n",
		  "t.yaml:2:24: a step has exactly one op, but 'unlink' follows 'stat'" },
		{ "run:\n  - {stat: a, unlink: b, when: 1}\n",
		  "t.yaml:2:15: a step has exactly one op, but 'unlink' follows 'stat'" },
		{ "run:\n  - {stat: a, when: \"${nope}\"}\n",
		  "t.yaml:2:21: undefined parameter '${nope}'" },
		{ "run:\n  - {stat: a, when: 0}\n",
		  "t.yaml:2:3: 'run' must contain at least one op to measure" },
	};
	struct lg_workload *wl;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		wl = NULL;
		if (lg_yaml_load("t.yaml", bad[i][0], strlen(bad[i][0]), NULL, 0, 1, &wl, err,
				 sizeof(err)) != -EINVAL ||
		    strncmp(err, bad[i][1], strlen(bad[i][1])) != 0)
			fail_msg("input %zu:\n%s\nmessage:\n  %s\nwant:\n  %s", i, bad[i][0],
				 err, bad[i][1]);
		assert_null(wl);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_io_fields),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_op_names),
		cmocka_unit_test(test_plain_sizes),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_when),
		cmocka_unit_test(test_when_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
