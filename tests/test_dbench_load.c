/* Tests of the dbench loadfile loader: detection by content, what each line compiles
 * to (tests/data/dbench/mini.txt, op by op), the name conversions, every kind of load
 * error with its exact line, and that Debian's 458,000-line client.txt loads fast
 * with the op counts of the file. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "load/dbench/dbench_names.h"
#include "loadgen/load/dbench_load.h"

#ifndef LG_SOURCE_DIR
#define LG_SOURCE_DIR "."
#endif
#define CLIENT_TXT "/usr/share/dbench/client.txt"

static char err[512];

static int load(const char *text, struct lg_workload **wl)
{
	return lg_dbench_load("t.txt", text, strlen(text), 4, wl, err, sizeof(err));
}

/* Read a whole file (caller frees); NULL if it cannot be opened. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		*len = fread(buf, 1, (size_t)n, f);
		buf[*len] = '\0';
	}
	fclose(f);
	return buf;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_detect(void **state)
{
	static const char *const yes[] = {
		"NTCreateX \"\\a\" 0x40 0x2 1 NT_STATUS_OK\n",
		"\n  # comment\n\t\nDeltree \"\\clients\\client1\" NT_STATUS_OK\n",
		"ntcreatex \"\\a\" 0x40 0x2 1 NT_STATUS_OK",  /* dbench ignores case */
		"0.025 ReadX 1 0 10 10 NT_STATUS_OK\n",        /* timed loadfile */
		"LOOP 3\r\nClose 1 NT_STATUS_OK\r\n",
		"QUERY_FS_INFORMATION",                        /* no newline, no NUL */
	};
	static const char *const no[] = {
		"", "\n\n# only comments\n", "name: x\nrun:\n  - stat: a\n",
		"# NTCreateX\nrun: []\n", "NTCreateX: {path: a}\n", "NTCreateXY a\n",
		"- Close 1 NT_STATUS_OK\n", "12 13\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!lg_dbench_detect(yes[i], strlen(yes[i])))
			fail_msg("not detected: %s", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (lg_dbench_detect(no[i], strlen(no[i])))
			fail_msg("detected: %s", no[i]);
	/* len bounds the text: the op word after it does not count */
	assert_false(lg_dbench_detect("\nClose 1 NT_STATUS_OK", 1));
}

/* Expected fields of one run op of mini.txt. */
struct want {
	uint32_t line;
	enum lg_op_kind kind;
	const char *label; /* NULL for control ops, whose label means nothing */
	const char *path, *path2, *slot;
	int32_t expect;
};

static void check_op(const struct lg_workload *wl, size_t i, const struct want *w)
{
	const struct lg_op *op = &wl->ops[LG_PHASE_RUN][i];

	if (op->line != w->line || op->kind != w->kind || op->expect != w->expect ||
	    (w->label && strcmp(wl->types[op->type], w->label) != 0))
		fail_msg("op %zu: line %u kind %d expect %d label %s", i, op->line, op->kind,
			 op->expect, wl->types[op->type]);
	if (w->path)
		assert_string_equal(wl->paths[op->path], w->path);
	else
		assert_int_equal(op->path, LG_NO_SLOT);
	if (w->path2)
		assert_string_equal(wl->paths[op->path2], w->path2);
	else
		assert_int_equal(op->path2, LG_NO_SLOT);
	if (w->slot)
		assert_string_equal(wl->slots[op->slot], w->slot);
	else if (w->kind != LG_OP_LOOP && w->kind != LG_OP_NEXT)
		assert_int_equal(op->slot, LG_NO_SLOT);
	if (w->kind < LG_OP_LOOP)
		assert_int_equal(op->count, 1);
}

#define C "clients/client${client}"

static void test_mini(void **state)
{
	static const struct want w[] = {
		{ 5, LG_OP_DELTREE, "Deltree", C, NULL, NULL, 0 },
		{ 6, LG_OP_MKDIR, "Mkdir", "clients", NULL, NULL, LG_EXPECT_ANY },
		{ 7, LG_OP_NTCREATE, "NTCreateX", C, NULL, "1000", 0 },
		{ 8, LG_OP_CLOSE, "Close", NULL, NULL, "1000", 0 },
		{ 9, LG_OP_NTCREATE, "NTCreateX", C "/missing.txt", NULL, NULL, ENOENT },
		{ 10, LG_OP_NTCREATE, "NTCreateX", C "/data.bin", NULL, "1002", 0 },
		{ 11, LG_OP_STATFS, "Qfsinfo", NULL, NULL, NULL, 0 },
		{ 12, LG_OP_WRITE, "WriteX", NULL, NULL, "1002", 0 },
		{ 13, LG_OP_WRITE, "WriteX", NULL, NULL, "1002", 0 },
		{ 14, LG_OP_FSTAT, "Qfileinfo", NULL, NULL, "1002", 0 },
		{ 15, LG_OP_SETINFO, "Sfileinfo", NULL, NULL, "1002", 0 },
		{ 16, LG_OP_LOCK, "LockX", NULL, NULL, "1002", 0 },
		{ 17, LG_OP_UNLOCK, "UnlockX", NULL, NULL, "1002", 0 },
		{ 18, LG_OP_FSYNC, "Flush", NULL, NULL, "1002", 0 },
		{ 19, LG_OP_READ, "ReadX", NULL, NULL, "1002", 0 },
		{ 20, LG_OP_READ, "ReadX", NULL, NULL, "1002", 0 },
		{ 21, LG_OP_CLOSE, "Close", NULL, NULL, "1002", 0 },
		{ 22, LG_OP_STAT, "Qpathinfo", C "/data.bin", NULL, NULL, 0 },
		{ 23, LG_OP_STAT, "Qpathinfo", C "/nodir/x", NULL, NULL, ENOENT },
		{ 24, LG_OP_FIND, "Find", C, "*", NULL, 0 },
		{ 25, LG_OP_FIND, "Find", C, "*.JNK", NULL, ENOENT },
		{ 26, LG_OP_FIND, "Find", C, "DATA.*", NULL, 0 },
		{ 27, LG_OP_FIND, "Find", C "/data.bin", NULL, NULL, 0 },
		{ 28, LG_OP_RENAME, "Rename", C "/data.bin", C "/renamed.bin", NULL, 0 },
		{ 29, LG_OP_UNLINK, "Unlink", C "/renamed.bin", NULL, NULL, 0 },
		{ 30, LG_OP_UNLINK, "Unlink", C "/renamed.bin", NULL, NULL, ENOENT },
		{ 31, LG_OP_NTCREATE, "NTCreateX", C "/sub", NULL, "1003", 0 },
		{ 32, LG_OP_CLOSE, "Close", NULL, NULL, "1003", 0 },
		{ 33, LG_OP_RMDIR, "Rmdir", C "/sub", NULL, NULL, 0 },
		{ 34, LG_OP_LOOP, NULL, NULL, NULL, NULL, 0 },
		{ 35, LG_OP_STATFS, "Qfsinfo", NULL, NULL, NULL, 0 },
		{ 35, LG_OP_NEXT, NULL, NULL, NULL, NULL, 0 },
		{ 36, LG_OP_LOOP, NULL, NULL, NULL, NULL, 0 },
		{ 37, LG_OP_SLEEP, "Sleep", NULL, NULL, NULL, 0 },
		{ 38, LG_OP_NEXT, NULL, NULL, NULL, NULL, 0 },
		{ 39, LG_OP_STATFS, "Qfsinfo", NULL, NULL, NULL, 0 },
		{ 40, LG_OP_DELTREE, "Deltree", C, NULL, NULL, 0 },
	};
	const struct lg_op *ops;
	struct lg_workload *wl = NULL;
	size_t len = 0;
	char *text = slurp(LG_SOURCE_DIR "/tests/data/dbench/mini.txt", &len);

	(void)state;
	assert_non_null(text);
	if (lg_dbench_load("dir/mini.txt", text, len, 2, &wl, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(wl->name, "mini");
	assert_string_equal(wl->source, "dir/mini.txt");
	assert_int_equal(wl->nops[LG_PHASE_RUN], sizeof(w) / sizeof(w[0]));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		check_op(wl, i, &w[i]);
	ops = wl->ops[LG_PHASE_RUN];
	/* setup makes the shared and the client's directory, unchecked */
	assert_int_equal(wl->nops[LG_PHASE_SETUP], 2);
	assert_string_equal(wl->paths[wl->ops[LG_PHASE_SETUP][1].path], C);
	assert_int_equal(wl->ops[LG_PHASE_SETUP][1].expect, LG_EXPECT_ANY);
	assert_int_equal(wl->nops[LG_PHASE_CLEANUP], 0);
	/* NTCreateX flags: directory create, open, create */
	assert_int_equal(ops[2].flags, O_RDONLY | O_DIRECTORY | O_CREAT);
	assert_int_equal(ops[4].flags, O_RDWR);
	assert_int_equal(ops[5].flags, O_RDWR | O_CREAT);
	/* WriteX/ReadX: fixed offset and size; ret_size is not kept */
	assert_int_equal(ops[8].off_mode, LG_OFF_FIXED);
	assert_int_equal(ops[8].offset, 65536);
	assert_int_equal(ops[8].size, 4096);
	assert_int_equal(ops[15].offset, 69632);
	assert_int_equal(wl->max_io, 65536);
	assert_int_equal(ops[11].offset, 0);
	assert_int_equal(ops[11].size, 100);
	assert_int_equal(ops[19].size, 1366); /* FIND_FIRST's max count */
	assert_int_equal(ops[21].size, 10);
	/* REPEAT 3 and LOOP 2 as repeat blocks */
	assert_int_equal(ops[29].count, 3);
	assert_int_equal(ops[29].target, 32);
	assert_int_equal(ops[31].target, 30);
	assert_int_equal(ops[32].count, 2);
	assert_int_equal(ops[32].target, 35);
	assert_int_equal(ops[34].target, 33);
	assert_int_not_equal(ops[29].slot, ops[32].slot);
	assert_int_equal(wl->nloops, 2);
	assert_int_equal(ops[33].size, 1000000); /* SLEEP is in microseconds */
	assert_int_equal(wl->nslots, 3);         /* 1001 is expected to fail: no slot */
	assert_int_equal(strlen(wl->sha256), 64);
	lg_workload_destroy(wl);
	free(text);
}

static void test_names(void **state)
{
	char out[LG_DBENCH_MAX_PATH + 1], dir[64], pat[64];
	const char *why = NULL;
	int32_t expect, flags;
	bool ok;

	(void)state;
	assert_int_equal(lg_dbench_path("\\clients\\client1\\a b\\c", out, sizeof(out), &why), 0);
	assert_string_equal(out, "clients/client${client}/a b/c");
	assert_int_equal(lg_dbench_path("/client1/client10/xclient1", out, sizeof(out), &why), 0);
	assert_string_equal(out, "client${client}/client10/xclient1");
	assert_int_equal(lg_dbench_path("\\a\\..\\..\\etc", out, sizeof(out), &why), -EINVAL);
	assert_string_equal(why, "path leaves the run directory through '..'");
	assert_int_equal(lg_dbench_path("\\\\", out, sizeof(out), &why), -EINVAL);
	assert_int_equal(lg_dbench_path("\\a${x}", out, sizeof(out), &why), -EINVAL);
	assert_int_equal(lg_dbench_path("\\abcdef", out, 5, &why), -EINVAL);
	assert_string_equal(why, "too long");

	assert_true(lg_dbench_wildcard("\\d\\e\\<x>.[1]", dir, pat));
	assert_string_equal(dir, "\\d\\e");
	assert_string_equal(pat, "*x?.\\[1]");
	assert_true(lg_dbench_wildcard("*", dir, pat));
	assert_string_equal(dir, "");
	assert_false(lg_dbench_wildcard("\\d*\\e", dir, pat)); /* only the last component */

	assert_int_equal(lg_dbench_status("NT_STATUS_OK", &expect, &ok), 0);
	assert_true(ok && expect == LG_EXPECT_OK);
	assert_int_equal(lg_dbench_status("NT_STATUS_OBJECT_NAME_COLLISION", &expect, &ok), 0);
	assert_true(!ok && expect == EEXIST);
	assert_int_equal(lg_dbench_status("0xC0000034", &expect, &ok), 0);
	assert_int_equal(expect, ENOENT);
	assert_int_equal(lg_dbench_status("0x0", &expect, &ok), 0);
	assert_true(ok && expect == LG_EXPECT_OK);
	assert_int_equal(lg_dbench_status("SUCCESS", &expect, &ok), 0);
	assert_true(ok && expect == LG_EXPECT_OK);
	assert_int_equal(lg_dbench_status("ERROR", &expect, &ok), 0);
	assert_true(!ok && expect == LG_EXPECT_ANY);
	assert_int_equal(lg_dbench_status("*", &expect, &ok), 0);
	assert_int_equal(expect, LG_EXPECT_ANY);
	assert_int_equal(lg_dbench_status("NT_STATUS_SHARING_VIOLATION", &expect, &ok), 0);
	assert_int_equal(expect, LG_EXPECT_ANY);
	assert_int_equal(lg_dbench_status("NT_STATUS_NOPE", &expect, &ok), -EINVAL);
	assert_int_equal(lg_dbench_status("0x12345", &expect, &ok), -EINVAL);
	assert_int_equal(lg_dbench_status("0x", &expect, &ok), -EINVAL);
	assert_true(lg_dbench_status_like("0xzz") && !lg_dbench_status_like("16385"));

	assert_int_equal(lg_dbench_create_flags(0x40, 1, &flags), 0);
	assert_int_equal(flags, O_RDWR);
	assert_int_equal(lg_dbench_create_flags(0x40, 2, &flags), 0);
	assert_int_equal(flags, O_RDWR | O_CREAT);
	assert_int_equal(lg_dbench_create_flags(0, 3, &flags), 0);
	assert_int_equal(flags, O_RDWR | O_CREAT);
	assert_int_equal(lg_dbench_create_flags(0, 4, &flags), 0);
	assert_int_equal(flags, O_RDWR | O_TRUNC);
	assert_int_equal(lg_dbench_create_flags(0, 5, &flags), 0);
	assert_int_equal(flags, O_RDWR | O_CREAT | O_TRUNC);
	assert_int_equal(lg_dbench_create_flags(0, 0, &flags), 0);
	assert_int_equal(flags, O_RDWR | O_CREAT | O_TRUNC);
	assert_int_equal(lg_dbench_create_flags(1, 1, &flags), 0);
	assert_int_equal(flags, O_RDONLY | O_DIRECTORY);
	assert_int_equal(lg_dbench_create_flags(1, 5, &flags), 0);
	assert_int_equal(flags, O_RDONLY | O_DIRECTORY | O_CREAT);
	assert_int_equal(lg_dbench_create_flags(0, 6, &flags), -EINVAL);
}

#define OPEN1 "NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 1 NT_STATUS_OK\n"

static void test_errors(void **state)
{
	static const char *const bad[][2] = {
		{ "\nBogus 1 NT_STATUS_OK\n", "t.txt:2: unknown op 'Bogus' (expected NTCreateX," },
		{ "Close NT_STATUS_OK\n",
		  "t.txt:1: 'Close' takes 1 argument before the status (Close FNUM STATUS), not 0" },
		{ OPEN1 "WriteX 1 0 10 NT_STATUS_OK\n",
		  "t.txt:2: 'WriteX' takes 4 arguments before the status (WriteX FNUM OFFSET SIZE "
		  "RET_SIZE STATUS), not 3" },
		{ "Unlink \"\\a\" 1 2 NT_STATUS_OK\n",
		  "t.txt:1: 'Unlink' takes up to 2 arguments before the status" },
		{ "Close 1\n", "t.txt:1: 'Close' needs a status at the end of the line (Close FNUM "
		  "STATUS, STATUS like NT_STATUS_OK)" },
		{ OPEN1 "ReadX 1 0 ten 10 NT_STATUS_OK\n", "t.txt:2: argument 'ten' is not a number" },
		{ OPEN1 "ReadX 1 0x1g 10 10 NT_STATUS_OK\n",
		  "t.txt:2: argument '0x1g' is not a number" },
		{ OPEN1 "ReadX 1 -1 10 10 NT_STATUS_OK\n", "t.txt:2: argument '-1' is not a number" },
		{ OPEN1 "ReadX 1 *%1024 10 10 NT_STATUS_OK\n",
		  "t.txt:2: argument '*%1024': dbench's random and relative arguments" },
		{ OPEN1 "ReadX 1 99999999999999999999 1 1 NT_STATUS_OK\n",
		  "t.txt:2: argument '99999999999999999999' is not a number" },
		{ OPEN1 "ReadX 1 0 0 0 NT_STATUS_OK\n", "t.txt:2: size 0: must be 1 byte to 1 GiB" },
		{ OPEN1 "WriteX 1 9223372036854775807 10 10 NT_STATUS_OK\n",
		  "t.txt:2: offset 9223372036854775807 + size is past the largest file offset" },
		{ OPEN1 "Close 1 NT_STATUS_BOGUS\n", "t.txt:2: unknown status 'NT_STATUS_BOGUS'" },
		{ OPEN1 "Close 1 0xZZ\n", "t.txt:2: unknown status '0xZZ'" },
		{ "\n\nClose 16385 NT_STATUS_OK\n", "t.txt:3: handle 16385 used before it is opened" },
		{ OPEN1 "Close 1 NT_STATUS_OK\nFlush 1 NT_STATUS_OK\n",
		  "t.txt:3: handle 1 used after it is closed" },
		{ "NTCreateX \"\\f\" 0x40 0x1 7 NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		  "Close 7 NT_STATUS_OK\n", "t.txt:2: handle 7 used before it is opened" },
		{ "Unlink \"\\..\\x\" NT_STATUS_OK\n",
		  "t.txt:1: path '\\..\\x': path leaves the run directory through '..'" },
		{ "Mkdir \"\\\" NT_STATUS_OK\n",
		  "t.txt:1: path '\\': empty path" },
		{ "Unlink \"\\a${b}\" NT_STATUS_OK\n",
		  "t.txt:1: path '\\a${b}': contains '${', which loadgen reserves" },
		{ "NTCreateX \"\\f\" 0x40 9 1 NT_STATUS_OK\n",
		  "t.txt:1: bad create disposition 9 (expected 0 to 5)" },
		{ "LOOP 2\nClose 1 NT_STATUS_OK\n", "t.txt:2: handle 1 used before it is opened" },
		{ "\nLOOP 2\nQUERY_FS_INFORMATION 1 NT_STATUS_OK\n", "t.txt:2: LOOP without ENDLOOP" },
		{ "ENDLOOP\n", "t.txt:1: ENDLOOP without LOOP" },
		{ "LOOP 2\nENDLOOP\n", "t.txt:2: no op between LOOP and ENDLOOP" },
		{ "LOOP x\n", "t.txt:1: LOOP 'x' is not a number" },
		{ "LOOP\n", "t.txt:1: 'LOOP' takes one number" },
		{ "QUERY_FS_INFORMATION 1 NT_STATUS_OK\nREPEAT 2\n",
		  "t.txt:2: REPEAT without an op after it" },
		{ "REPEAT 2\nLOOP 2\n", "t.txt:2: REPEAT must be followed by an op, not 'LOOP'" },
		{ "WAITSP 1 2\n", "t.txt:1: dbench's 'WAITSP' is not supported by loadgen" },
		{ "0.5\n", "t.txt:1: a timestamp without an op" },
		{ "# nothing\n\n", "t.txt:1: no dbench ops in the file" },
		{ "Close 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n", "t.txt:1: more than 16 fields" },
		{ "FIND_FIRST \"\\a${x}\\*\" 1 2 3 NT_STATUS_OK\n",
		  "t.txt:1: path '\\a${x}': contains '${'" },
		{ OPEN1 "LockX 1 9223372036854775807 2 NT_STATUS_OK\n",
		  "t.txt:2: lock range 9223372036854775807+2 is past the largest file offset" },
	};
	struct lg_workload *wl;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		wl = NULL;
		if (load(bad[i][0], &wl) != -EINVAL ||
		    strncmp(err, bad[i][1], strlen(bad[i][1])) != 0)
			fail_msg("input %zu:\n%s\nmessage:\n  %s\nwant:\n  %s", i, bad[i][0], err,
				 bad[i][1]);
		assert_null(wl);
	}
	/* a NUL inside the text is an error, not the end of the file */
	wl = NULL;
	assert_int_equal(lg_dbench_load("t.txt", "Close\0 1 NT_STATUS_OK\n", 21, 1, &wl, err,
					sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.txt:1: NUL byte in the line");
	/* a message cut short by a small buffer, still NUL-terminated */
	assert_int_equal(lg_dbench_load("t.txt", "Bogus 1 x\n", 10, 1, &wl, err, 8), -EINVAL);
	assert_string_equal(err, "t.txt:1");
	assert_int_equal(lg_dbench_load("t.txt", "Bogus 1 x\n", 10, 1, &wl, NULL, 0), -EINVAL);
}

/* Lines dbench accepts in forms client.txt does not use. */
/* A status saying a directory the file makes is missing is not checked: dbench's
 * Deltree leaves directories, so on the next pass through the file it exists. A missing
 * file, which Deltree does remove, is still checked. */
static void test_made_dirs(void **state)
{
	const char *text =
		"Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\d\" 1004 "
		"NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"QUERY_PATH_INFORMATION \"\\clients\\client1\\f\" 1004 "
		"NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
		"NTCreateX \"\\clients\\client1\\d\" 0x1 0x2 7 NT_STATUS_OK\n"
		"Close 7 NT_STATUS_OK\n"
		"NTCreateX \"\\clients\\client1\\f\" 0x40 0x2 8 NT_STATUS_OK\n"
		"Close 8 NT_STATUS_OK\n"
		/* an open that makes the directory, and says it is missing, is relaxed too */
		"NTCreateX \"\\clients\\client1\\e\" 0x1 0x2 9 "
		"NT_STATUS_OBJECT_NAME_NOT_FOUND\n";
	struct lg_workload *wl = NULL;
	const struct lg_op *ops;

	(void)state;
	if (load(text, &wl))
		fail_msg("%s", err);
	ops = wl->ops[LG_PHASE_RUN];
	assert_int_equal(ops[1].kind, LG_OP_STAT);
	assert_int_equal(ops[1].expect, LG_EXPECT_ANY);
	assert_int_equal(ops[2].expect, ENOENT);
	assert_int_equal(ops[7].kind, LG_OP_NTCREATE);
	assert_int_equal(ops[7].expect, LG_EXPECT_ANY);
	lg_workload_destroy(wl);
}

static void test_variants(void **state)
{
	const char *text =
		"ntcreatex \\clients\\client1\\u 0 5 0x10 SUCCESS\r\n"  /* unquoted, CRLF */
		"writex 16 010 1 1 0x0\n"                                 /* octal, hex status */
		"QUERY_PATH_INFORMATION \"\\with space\" 1 *\n"
		"NTCreateX \"\\x\" 0 1 3 ERROR\n"
		"FIND_FIRST \"\\*\" 1 0 0 NT_STATUS_NO_MORE_FILES\n"
		"Close 16 NT_STATUS_INVALID_HANDLE";                      /* no final newline */
	struct lg_workload *wl = NULL;
	const struct lg_op *ops;

	(void)state;
	if (load(text, &wl))
		fail_msg("%s", err);
	ops = wl->ops[LG_PHASE_RUN];
	assert_int_equal(wl->nops[LG_PHASE_RUN], 6);
	assert_string_equal(wl->paths[ops[0].path], "clients/client${client}/u");
	assert_int_equal(ops[0].flags, O_RDWR | O_CREAT | O_TRUNC);
	assert_string_equal(wl->slots[ops[0].slot], "16");
	assert_int_equal(ops[1].offset, 8);
	assert_int_equal(ops[1].slot, ops[0].slot);
	assert_string_equal(wl->paths[ops[2].path], "with space");
	assert_int_equal(ops[2].expect, LG_EXPECT_ANY);
	assert_int_equal(ops[3].expect, LG_EXPECT_ANY);
	assert_int_equal(ops[3].slot, LG_NO_SLOT);
	assert_int_equal(ops[4].path, LG_NO_SLOT); /* a pattern in the run directory */
	assert_string_equal(wl->paths[ops[4].path2], "*");
	assert_int_equal(ops[4].expect, ENOENT);
	assert_int_equal(ops[5].expect, EBADF);
	assert_int_equal(ops[5].line, 6);
	lg_workload_destroy(wl);
}

/* Labels in the order client.txt has them, with the number of lines of each. */
static const struct {
	const char *label;
	uint64_t count;
} client_txt_counts[] = {
	{ "ReadX", 124199 }, { "NTCreateX", 79230 }, { "Qpathinfo", 71814 },
	{ "Close", 58200 },  { "WriteX", 39502 },    { "Find", 27765 },
	{ "Unlink", 16000 }, { "Qfsinfo", 13168 },   { "Qfileinfo", 12585 },
	{ "Sfileinfo", 6454 }, { "Flush", 5553 },    { "Rename", 3355 },
	{ "UnlockX", 258 },  { "LockX", 258 },       { "Deltree", 2 },
	{ "Mkdir", 1 },
};

static void test_client_txt(void **state)
{
	struct lg_workload *wl = NULL;
	uint64_t counts[64] = { 0 };
	size_t len = 0;
	char *text = slurp(CLIENT_TXT, &len);
	double t0, secs;

	(void)state;
	if (!text) {
		printf("skipped: %s is not installed (apt-get install dbench)\n", CLIENT_TXT);
		return;
	}
	t0 = cpu_seconds();
	if (lg_dbench_load(CLIENT_TXT, text, len, 48, &wl, err, sizeof(err)))
		fail_msg("%s", err);
	secs = cpu_seconds() - t0;
	printf("loaded %zu ops in %.3f s of CPU\n", wl->nops[LG_PHASE_RUN], secs);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
	assert_true(secs < 1.0); /* no O(n^2): hashed paths, labels and handles */
#endif
	assert_int_equal(wl->nops[LG_PHASE_RUN], 458344);
	assert_true(wl->ntypes <= 64);
	for (size_t i = 0; i < wl->nops[LG_PHASE_RUN]; i++)
		counts[wl->ops[LG_PHASE_RUN][i].type]++;
	for (size_t i = 0; i < sizeof(client_txt_counts) / sizeof(client_txt_counts[0]); i++) {
		uint16_t t;

		assert_int_equal(lg_workload_type(wl, client_txt_counts[i].label, &t), 0);
		if (counts[t] != client_txt_counts[i].count)
			fail_msg("%s: %llu ops, want %llu", client_txt_counts[i].label,
				 (unsigned long long)counts[t],
				 (unsigned long long)client_txt_counts[i].count);
	}
	assert_int_equal(wl->max_io, 65536);
	lg_workload_destroy(wl);
	free(text);
}

/* Interning is hashed: 200,000 distinct names stay fast and keep their indexes. */
static void test_intern_many(void **state)
{
	struct lg_workload *wl = NULL;
	char name[32];
	uint32_t idx;
	double t0 = cpu_seconds();

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	for (uint32_t i = 0; i < 200000; i++) {
		snprintf(name, sizeof(name), "h%u", i);
		assert_int_equal(lg_workload_slot(wl, name, &idx), 0);
		assert_int_equal(idx, i);
		assert_int_equal(lg_workload_path(wl, name, &idx), 0);
		assert_int_equal(idx, i);
	}
	for (uint32_t i = 0; i < 200000; i += 7) {
		snprintf(name, sizeof(name), "h%u", i);
		assert_int_equal(lg_workload_find_slot(wl, name, &idx), 0);
		assert_int_equal(idx, i);
		assert_int_equal(lg_workload_path(wl, name, &idx), 0); /* again: same index */
		assert_int_equal(idx, i);
	}
	assert_int_equal(lg_workload_find_slot(wl, "h200000", &idx), -ENOENT);
	assert_int_equal(wl->nslots, 200000);
	assert_int_equal(wl->npaths, 200000);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
	assert_true(cpu_seconds() - t0 < 1.0);
#else
	(void)t0;
#endif
	lg_workload_destroy(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_mini),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_made_dirs),
		cmocka_unit_test(test_client_txt),
		cmocka_unit_test(test_intern_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
