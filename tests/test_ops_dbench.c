/* Unit tests of dbench's ops (ops_dbench.c) over a temporary directory: name
 * resolution in any case, the three --resolve modes, NTCreateX, Deltree leaving
 * directories, Find's entry limit and statuses, per-client buffers (the directory
 * reader they share has tests/test_dirscan.c). The calls each op makes are checked against dbench itself under strace by
 * tests/integration/test_dbench_strace.py. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/client.h"
#include "run/ops_dbench.h"

static char base[] = "/tmp/lg_ops_dbench_XXXXXX";

/* Paths the ops below use, by index (as a workload's path table). */
enum { P_DIR, P_FILE, P_UPPER, P_MISSING, P_NODIR, P_SUB, P_SUBFILE, P_PATTERN,
       P_NOMATCH, P_NEW, P_CASE, P_ESCAPED, P_CLASS, P_STARS, P_BRACKET, P_BRACE,
       P_TAILS, P_TAILS_END = P_TAILS + 12, NPATHS = P_TAILS_END };
static const char *paths[NPATHS] = {
	[P_DIR] = "d", [P_FILE] = "d/a.txt", [P_UPPER] = "d/A.TXT",
	[P_MISSING] = "d/missing", [P_NODIR] = "nodir/x", [P_SUB] = "d/sub",
	[P_SUBFILE] = "d/sub/deep.txt", [P_PATTERN] = "*.txt", [P_NOMATCH] = "*.jnk",
	[P_NEW] = "d/b.txt", [P_CASE] = "A.?X*", [P_ESCAPED] = "\\*", [P_CLASS] = "[a].TXT",
	[P_STARS] = "**a*t**", [P_BRACKET] = "d/X[1", [P_BRACE] = "d/X{1",
	/* '*' then a literal (Find's fast path), and near misses of it */
	[P_TAILS] = "*", "*.TXT", "*xT", "*A.txt", "*ba.txt", "*..", "*.", "*.txt.",
	"*?txt", "*\\.txt", "*[.]txt", "*a.tx",
};

/* One client over the temporary directory, with one file slot. */
struct fixture {
	struct lg_shared sh;
	struct lg_client c;
	struct lg_slot slots[1];
	uint64_t vars[1];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->sh.dirfd = open(base, O_RDONLY | O_DIRECTORY);
	assert_true(f->sh.dirfd >= 0);
	f->c.sh = &f->sh;
	f->c.paths = paths;
	f->c.slots = f->slots;
	f->c.vars = f->vars;
	f->slots[0].fd = -1;
	assert_int_equal(mkdirat(f->sh.dirfd, "d", 0755), 0);
	*state = f;
	return 0;
}

/* Remove the tree below base (two levels are all the tests make). */
static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	if (f->slots[0].fd >= 0)
		close(f->slots[0].fd);
	for (size_t i = 0; i < LG_DIR_LEVELS; i++)
		free(f->c.dirbufs[i]);
	close(f->sh.dirfd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s/d", base);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static struct lg_op op_of(enum lg_op_kind kind, uint32_t path, uint32_t path2)
{
	return (struct lg_op){ .kind = (uint8_t)kind, .path = path, .path2 = path2,
			       .slot = LG_NO_SLOT, .flags = LG_OP_RESOLVE };
}

static int exec(struct fixture *f, const struct lg_op *op)
{
	uint64_t bytes = 0;

	switch (op->kind) {
	case LG_OP_NTCREATE: return lg_op_ntcreate(&f->c, op, 0, &bytes);
	case LG_OP_DELTREE: return lg_op_deltree(&f->c, op, 0, &bytes);
	case LG_OP_FIND: return lg_op_find(&f->c, op, 0, &bytes);
	default: return lg_op_resolved(&f->c, op, 0, &bytes);
	}
}

static void touch(struct fixture *f, const char *path)
{
	int fd = openat(f->sh.dirfd, path, O_CREAT | O_WRONLY, 0644);

	assert_true(fd >= 0);
	close(fd);
}

static bool exists(struct fixture *f, const char *path)
{
	struct stat st;

	return fstatat(f->sh.dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Qpathinfo: a name found by stat, or by a case-insensitive search of its directory
 * (SMB's case-insensitive names); NOT_FOUND for a missing name or directory. */
static void test_resolve(void **state)
{
	struct fixture *f = *state;
	struct lg_op q = op_of(LG_OP_STAT, P_FILE, LG_NO_SLOT);

	touch(f, "d/a.txt");
	assert_int_equal(exec(f, &q), 0);
	q.path = P_UPPER;
	assert_int_equal(exec(f, &q), 0);
	q.path = P_MISSING;
	assert_int_equal(exec(f, &q), ENOENT);
	q.path = P_NODIR;
	assert_int_equal(exec(f, &q), ENOENT);
	/* letters only: '[' and '{' differ in the case bit as 'X' and 'x' do */
	touch(f, "d/x[1");
	q.path = P_BRACKET;
	assert_int_equal(exec(f, &q), 0);
	q.path = P_BRACE;
	assert_int_equal(exec(f, &q), ENOENT);
	/* --resolve stat: only the stat, so the other case is not found */
	f->sh.resolve = LG_RESOLVE_STAT;
	q.path = P_UPPER;
	assert_int_equal(exec(f, &q), ENOENT);
}

/* Unlink, Mkdir, Rmdir, Rename through the resolution keep their calls' results. */
static void test_named_ops(void **state)
{
	struct fixture *f = *state;
	struct lg_op o = op_of(LG_OP_MKDIR, P_SUB, LG_NO_SLOT);

	assert_int_equal(exec(f, &o), 0);
	assert_int_equal(exec(f, &o), EEXIST);
	o.kind = LG_OP_RMDIR;
	assert_int_equal(exec(f, &o), 0);
	assert_int_equal(exec(f, &o), ENOENT);
	touch(f, "d/a.txt");
	o = op_of(LG_OP_RENAME, P_FILE, P_NEW);
	assert_int_equal(exec(f, &o), 0);
	assert_true(exists(f, "d/b.txt") && !exists(f, "d/a.txt"));
	assert_int_equal(exec(f, &o), ENOENT);
	o = op_of(LG_OP_UNLINK, P_NEW, LG_NO_SLOT);
	assert_int_equal(exec(f, &o), 0);
	assert_int_equal(exec(f, &o), ENOENT);
	o.kind = LG_OP_KIND_COUNT; /* never flagged by the loader */
	assert_int_equal(exec(f, &o), EINVAL);
}

/* NTCreateX: a created file bound to its slot, a directory made and opened, an open
 * of a directory as a file retried as a directory, a missing file not created. */
static void test_ntcreate(void **state)
{
	struct fixture *f = *state;
	struct lg_op o = op_of(LG_OP_NTCREATE, P_FILE, LG_NO_SLOT);
	struct stat st;

	o.flags = O_RDWR | O_CREAT;
	o.slot = 0;
	assert_int_equal(exec(f, &o), 0);
	assert_true(f->slots[0].fd >= 0);
	assert_int_equal(fstat(f->slots[0].fd, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	o = op_of(LG_OP_NTCREATE, P_SUB, LG_NO_SLOT);
	o.flags = O_RDONLY | O_DIRECTORY | O_CREAT;
	assert_int_equal(exec(f, &o), 0);
	assert_int_equal(exec(f, &o), 0); /* existing: fine */
	o.flags = O_RDWR; /* options 0, FILE_OPEN of a directory */
	assert_int_equal(exec(f, &o), 0);
	o = op_of(LG_OP_NTCREATE, P_MISSING, LG_NO_SLOT);
	o.flags = O_RDWR;
	assert_int_equal(exec(f, &o), ENOENT);
	assert_false(exists(f, "d/missing"));
}

/* Deltree as dbench 4.0: files at every level unlinked, directories left; a missing
 * tree is no error. */
static void test_deltree(void **state)
{
	struct fixture *f = *state;
	struct lg_op o = op_of(LG_OP_DELTREE, P_DIR, LG_NO_SLOT);

	assert_int_equal(mkdirat(f->sh.dirfd, "d/sub", 0755), 0);
	touch(f, "d/a.txt");
	touch(f, "d/sub/deep.txt");
	assert_int_equal(symlinkat("/", f->sh.dirfd, "d/sub/root"), 0);
	assert_int_equal(exec(f, &o), 0);
	assert_true(exists(f, "d") && exists(f, "d/sub"));
	assert_false(exists(f, "d/a.txt") || exists(f, "d/sub/deep.txt") ||
		     exists(f, "d/sub/root"));
	assert_non_null(f->c.dirbufs[1]); /* one buffer per level */
	o.path = P_NODIR;
	assert_int_equal(exec(f, &o), 0);
	o.path = P_FILE;
	touch(f, "d/a.txt");
	assert_int_equal(exec(f, &o), ENOTDIR);
}

/* Find: a match among the entries read is success, none is NO_SUCH_FILE; only the
 * first MAXCOUNT entries are read (".", ".." come first); a missing directory fails;
 * a name without wildcard is resolved. Each --resolve mode lists the same. */
static void test_find(void **state)
{
	struct fixture *f = *state;
	struct lg_op o = op_of(LG_OP_FIND, P_DIR, P_PATTERN);

	touch(f, "d/a.txt");
	for (int mode = LG_RESOLVE_DBENCH; mode <= LG_RESOLVE_STAT; mode++) {
		f->sh.resolve = mode;
		o.size = 0;
		o.path2 = P_PATTERN;
		assert_int_equal(exec(f, &o), 0);
		o.path2 = P_NOMATCH;
		assert_int_equal(exec(f, &o), ENOENT);
		o.path2 = P_PATTERN;
		o.size = 2;
		assert_int_equal(exec(f, &o), ENOENT);
		o.size = 3;
		assert_int_equal(exec(f, &o), 0);
	}
	o.size = 0;
	for (uint32_t p = P_CASE; p <= P_STARS; p++) { /* matched ignoring case, escapes */
		o.path2 = p;
		assert_int_equal(exec(f, &o), p == P_ESCAPED ? ENOENT : 0);
	}
	o = op_of(LG_OP_FIND, P_NODIR, P_PATTERN);
	assert_int_equal(exec(f, &o), ENOENT);
	o = op_of(LG_OP_FIND, P_FILE, LG_NO_SLOT);
	assert_int_equal(exec(f, &o), 0);
	o.path = P_MISSING;
	assert_int_equal(exec(f, &o), ENOENT);
}

/* Find's patterns of '*' then a literal (matched by the name's end) and their near
 * misses: each result is fnmatch(3)'s with FNM_CASEFOLD over the entries listed. */
static void test_find_tails(void **state)
{
	static const char *names[] = { ".", "..", "a.txt" };
	struct fixture *f = *state;
	struct lg_op o = op_of(LG_OP_FIND, P_DIR, P_TAILS);

	touch(f, "d/a.txt");
	for (uint32_t p = P_TAILS; p < P_TAILS_END; p++) {
		bool want = false;

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			want = want || fnmatch(paths[p], names[i], FNM_CASEFOLD) == 0;
		o.path2 = p;
		if (exec(f, &o) != (want ? 0 : ENOENT))
			fail_msg("Find of %s: %s expected", paths[p], want ? "a match" : "none");
	}
}

/* Buffers are made once per level and kept; levels are bounded. */
static void test_dirbuf(void **state)
{
	struct fixture *f = *state;
	char *a, *b;

	assert_int_equal(lg_op_dirbuf(&f->c, 0, &a), 0);
	assert_int_equal(lg_op_dirbuf(&f->c, 0, &b), 0);
	assert_ptr_equal(a, b);
	assert_int_equal((uintptr_t)a % 8, 0);
	assert_int_equal(lg_op_dirbuf(&f->c, LG_DIR_LEVELS, &a), ELOOP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_resolve, setup, teardown),
		cmocka_unit_test_setup_teardown(test_named_ops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ntcreate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deltree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_find, setup, teardown),
		cmocka_unit_test_setup_teardown(test_find_tails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dirbuf, setup, teardown),
	};
	int rc;

	if (!mkdtemp(base))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(base);
	return rc;
}
