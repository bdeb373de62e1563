/* yaml_vocab.c: one spelling of each word, for the reader and the writer. Every word of
 * every table (open and ntcreate flags, offset modes, pick orders, sync_file_range
 * flags, fadvise advice, rename flags, access and fallocate modes, xattr flags, seek's
 * whence) loads to its value and is written back as the same word; the
 * tables are well formed; a misspelt word is refused with a suggestion and the list. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/load/yaml_load.h"
#include "loadgen/load/yaml_write.h"
#include "load/yaml/yaml_priv.h"

static char err[512];

/* Load yaml (which must load) into *wl and write it back as YAML into *text (caller
 * frees both). */
static void load_write(const char *yaml, struct lg_workload **wl, char **text)
{
	size_t len = 0;
	FILE *f;

	*wl = NULL;
	if (lg_yaml_load("t.yaml", yaml, strlen(yaml), NULL, 0, 1, wl, err, sizeof(err)))
		fail_msg("%s\n%s", yaml, err);
	f = open_memstream(text, &len);
	assert_non_null(f);
	if (lg_yaml_write(f, *wl, err, sizeof(err)))
		fail_msg("writing %s: %s", yaml, err);
	fclose(f);
}

/* yaml_fmt with the word in it loads to ops whose last (whose first, with pick) has
 * value in its flags (or off_mode), and the written text has want_fmt with the word in
 * it. */
static void round_trip(const char *yaml_fmt, const char *word, int value, bool off_mode,
		       const char *want_fmt)
{
	char yaml[256], want[64], *text;
	struct lg_workload *wl;
	const struct lg_op *op;

	snprintf(yaml, sizeof(yaml), yaml_fmt, word);
	snprintf(want, sizeof(want), want_fmt, word);
	load_write(yaml, &wl, &text);
	op = &wl->ops[LG_PHASE_RUN][strstr(yaml, "pick") ? 0 : wl->nops[LG_PHASE_RUN] - 1];
	if ((off_mode ? op->off_mode : op->flags) != value)
		fail_msg("'%s' loaded as %d, not %d", word, off_mode ? op->off_mode : op->flags,
			 value);
	if (!strstr(text, want))
		fail_msg("'%s' written as:\n%s", word, text);
	free(text);
	lg_workload_destroy(wl);
}

static void test_flags_round_trip(void **state)
{
	const struct lg_yflag *t;

	(void)state;
	for (t = lg_yfadvice; t->name; t++)
		round_trip("run: [create: {path: a, as: f}, fadvise: {file: f, advice: %s}]\n",
			   t->name, t->value, false, "advice: %s");
	for (t = lg_ysfr_flags; t->name; t++)
		round_trip("run: [create: {path: a, as: f}, "
			   "sync_file_range: {file: f, size: 4KiB, flags: [%s]}]\n",
			   t->name, t->value, false, "flags: [%s]");
	for (t = lg_yrename_flags; t->name; t++)
		round_trip("run: [rename: {from: a, to: b, flags: [%s]}]\n", t->name, t->value,
			   false, "flags: [%s]");
	for (t = lg_yaccess_modes; t->name; t++)
		round_trip("run: [access: {path: a, mode: [%s]}]\n", t->name, t->value, false,
			   "mode: [%s]");
	for (t = lg_yfalloc_modes; t->name; t++)
		round_trip("run: [create: {path: a, as: f}, "
			   "fallocate: {file: f, size: 4KiB, mode: [%s]}]\n",
			   t->name, t->value, false, "mode: [%s]");
	for (t = lg_yxattr_flags; t->name; t++)
		round_trip("run: [setxattr: {path: a, name: user.x, flags: [%s]}]\n", t->name,
			   t->value, false, "flags: [%s]");
	for (t = lg_yseek_whence; t->name; t++)
		round_trip("run: [create: {path: a, as: f}, seek: {file: f, whence: %s}]\n",
			   t->name, t->value, false, t->value == SEEK_SET ? "file: \"f\"}" :
			   "whence: %s");
	for (t = lg_yntcreate_flags; t->name; t++)
		round_trip("run: [ntcreate: {path: a, as: f, flags: [%s]}]\n", t->name,
			   t->value | (strcmp(t->name, "directory") ? O_RDWR : O_RDONLY), false,
			   "%s");
	/* open: the access words set the mode; the others add to read-write (with
	 * create, which exclusive needs, and which the writer spells as the op) */
	for (t = lg_yopen_flags; t->name; t++) {
		bool access = t - lg_yopen_flags >= LG_YOPEN_ACCESS_FIRST;

		if (access)
			round_trip("run: [open: {path: a, as: f, flags: [%s]}]\n", t->name,
				   t->value, false, t->value == O_RDWR ? "as: \"f\"}" : "%s");
		else
			round_trip("run: [open: {path: a, as: f, flags: [create, %s]}]\n", t->name,
				   t->value | O_CREAT | O_RDWR, false,
				   t->value == O_CREAT ? "create:" : "%s");
	}
}

static void test_modes_round_trip(void **state)
{
	(void)state;
	for (int m = 0; m <= LG_OFF_PREV; m++)
		if (lg_yoffset_names[m])
			round_trip(m == LG_OFF_RANDOM ?
				   "run: [create: {path: a, as: f}, "
				   "write: {file: f, size: 4KiB, range: 1MiB, offset: %s}]\n" :
				   "run: [create: {path: a, as: f}, "
				   "write: {file: f, size: 4KiB, offset: %s}]\n",
				   lg_yoffset_names[m], m, true,
				   m == LG_OFF_SEQ ? "size: 4096}" : "offset: %s"); /* the default */
	for (int o = 0; o <= LG_PICK_SHUFFLE; o++)
		round_trip("run: [pick: {var: k, count: 4, order: %s}, stat: \"f${k}\"]\n",
			   lg_ypick_orders[o], o, false,
			   o == LG_PICK_RANDOM ? "count: 4}" : "order: %s"); /* the default */
}

/* Names unique within a table, values distinct; the access words where the header
 * says they start. */
static void check_table(const struct lg_yflag *t)
{
	for (size_t i = 0; t[i].name; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(t[i].name, t[j].name) || t[i].value == t[j].value)
				fail_msg("'%s' and '%s' clash", t[i].name, t[j].name);
}

/* What each word means to the kernel: the same table could be wrong for reader and
 * writer alike. */
static void check_meanings(const struct lg_yflag *t, const struct lg_yflag *want)
{
	size_t i = 0;

	for (; want[i].name; i++) {
		if (!t[i].name || strcmp(t[i].name, want[i].name) || t[i].value != want[i].value)
			fail_msg("entry %zu: '%s' = %d, want '%s' = %d", i,
				 t[i].name ? t[i].name : "(end)", t[i].value, want[i].name,
				 want[i].value);
	}
	assert_null(t[i].name);
}

static void test_tables(void **state)
{
	static const struct lg_yflag open_flags[] = {
		{ "create", O_CREAT }, { "truncate", O_TRUNC }, { "exclusive", O_EXCL },
		{ "append", O_APPEND }, { "sync", O_SYNC }, { "dsync", O_DSYNC },
		{ "direct", O_DIRECT }, { "tmpfile", O_TMPFILE }, { "directory", O_DIRECTORY },
		{ "nofollow", O_NOFOLLOW }, { "noatime", O_NOATIME }, { "path", O_PATH },
		{ "read", O_RDONLY }, { "write", O_WRONLY }, { "rdwr", O_RDWR }, { NULL, 0 },
	};
	static const struct lg_yflag rename_flags[] = {
		{ "noreplace", RENAME_NOREPLACE }, { "exchange", RENAME_EXCHANGE },
		{ "whiteout", RENAME_WHITEOUT }, { NULL, 0 },
	};
	static const struct lg_yflag access_modes[] = {
		{ "read", R_OK }, { "write", W_OK }, { "exec", X_OK }, { NULL, 0 },
	};
	static const struct lg_yflag falloc[] = {
		{ "keep_size", FALLOC_FL_KEEP_SIZE }, { "punch_hole", FALLOC_FL_PUNCH_HOLE },
		{ "zero_range", FALLOC_FL_ZERO_RANGE },
		{ "collapse_range", FALLOC_FL_COLLAPSE_RANGE },
		{ "insert_range", FALLOC_FL_INSERT_RANGE }, { NULL, 0 },
	};
	static const struct lg_yflag xattr[] = {
		{ "create", XATTR_CREATE }, { "replace", XATTR_REPLACE }, { NULL, 0 },
	};
	static const struct lg_yflag whence[] = {
		{ "set", SEEK_SET }, { "cur", SEEK_CUR }, { "end", SEEK_END },
		{ "data", SEEK_DATA }, { "hole", SEEK_HOLE }, { NULL, 0 },
	};
	static const struct lg_yflag advice[] = {
		{ "normal", POSIX_FADV_NORMAL }, { "sequential", POSIX_FADV_SEQUENTIAL },
		{ "random", POSIX_FADV_RANDOM }, { "willneed", POSIX_FADV_WILLNEED },
		{ "dontneed", POSIX_FADV_DONTNEED }, { "noreuse", POSIX_FADV_NOREUSE },
		{ NULL, 0 },
	};
	static const struct lg_yflag sfr[] = {
		{ "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
		{ "write", SYNC_FILE_RANGE_WRITE },
		{ "wait_after", SYNC_FILE_RANGE_WAIT_AFTER }, { NULL, 0 },
	};

	(void)state;
	check_meanings(lg_yopen_flags, open_flags);
	check_meanings(lg_yfadvice, advice);
	check_meanings(lg_ysfr_flags, sfr);
	check_meanings(lg_yrename_flags, rename_flags);
	check_meanings(lg_yaccess_modes, access_modes);
	check_meanings(lg_yfalloc_modes, falloc);
	check_meanings(lg_yxattr_flags, xattr);
	check_meanings(lg_yseek_whence, whence);
	check_table(lg_yrename_flags);
	check_table(lg_yaccess_modes);
	check_table(lg_yfalloc_modes);
	check_table(lg_yxattr_flags);
	check_table(lg_yseek_whence);
	check_table(lg_yopen_flags);
	check_table(lg_yntcreate_flags);
	check_table(lg_ysfr_flags);
	check_table(lg_yfadvice);
	assert_string_equal(lg_yopen_flags[LG_YOPEN_ACCESS_FIRST].name, "read");
	assert_null(lg_yoffset_names[LG_OFF_FIXED]); /* a number, not a word */
	for (int o = 0; o <= LG_PICK_SHUFFLE; o++)
		assert_non_null(lg_ypick_orders[o]);
}

static void test_misspelt(void **state)
{
	static const char *const bad[][2] = {
		{ "run: [create: {path: a, as: f}, fadvise: {file: f, advice: dontned}]\n",
		  "t.yaml:1:60: unknown advice 'dontned' (did you mean 'dontneed'? expected "
		  "normal, sequential, random, willneed, dontneed, noreuse)" },
		{ "run: [create: {path: a, as: f, flags: [truncat]}]\n",
		  "t.yaml:1:40: unknown flag 'truncat' (did you mean 'truncate'? expected "
		  "create, truncate, exclusive, append, sync, dsync, direct, tmpfile, "
		  "directory, nofollow, noatime, path, read, write, rdwr)" },
		{ "run: [rename: {from: a, to: b, flags: [exchang]}]\n",
		  "t.yaml:1:40: unknown rename flag 'exchang' (did you mean 'exchange'? "
		  "expected noreplace, exchange, whiteout)" },
		{ "run: [open: {path: a, as: f}, seek: {file: f, whence: start}]\n",
		  "t.yaml:1:55: unknown whence 'start' (expected set, cur, end, data, hole)" },
		{ "run: [create: {path: a, as: f}, "
		  "sync_file_range: {file: f, size: 1, flags: {write: 1}}]\n",
		  "t.yaml:1:76: 'flags' must be a flag name or a list of them, not a mapping" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lg_workload *wl = NULL;

		if (lg_yaml_load("t.yaml", bad[i][0], strlen(bad[i][0]), NULL, 0, 1, &wl, err,
				 sizeof(err)) != -EINVAL || strcmp(err, bad[i][1]))
			fail_msg("input %zu: message\n  %s\nwant\n  %s", i, err, bad[i][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_round_trip),
		cmocka_unit_test(test_modes_round_trip),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_misspelt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
