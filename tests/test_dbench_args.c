/* dbench_args.c: the arguments of a dbench line with the loader's state -- numbers and
 * their messages, paths converted once and then found by their text, FIND_FIRST
 * patterns, handles opened, used, closed and reopened (with the messages for a handle
 * used before it is opened or after it is closed), and the line splitter growing its
 * buffer. */
#include "load/dbench/dbench_args.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char err[512];

/* A C string as the field lg_dbench_arg_* take: its bytes and its length. */
#define S(str) (str), strlen(str)

static struct dctx *ctx_new(void)
{
	struct dctx *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	assert_int_equal(lg_workload_create(&c->wl), 0);
	c->fname = "client.txt";
	c->err = err;
	c->errlen = sizeof(err);
	c->line = 7;
	c->last_slot = LG_NO_SLOT;
	return c;
}

static void ctx_free(struct dctx *c)
{
	lg_dbench_map_free(&c->paths);
	lg_dbench_map_free(&c->finds);
	lg_dbench_map_free(&c->handles);
	lg_workload_destroy(c->wl);
	free(c->scratch);
	free(c->open);
	free(c->made);
	free(c->missing);
	free(c);
}

static void test_numbers(void **state)
{
	struct dctx *c = ctx_new();
	uint64_t v;

	(void)state;
	assert_int_equal(lg_dbench_arg_number(c, S("0x40"), "argument", &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(lg_dbench_arg_number(c, S("-1"), "argument", &v), -EINVAL);
	assert_string_equal(err, "client.txt:7: argument '-1' is not a number (negative)");
	assert_int_equal(lg_dbench_arg_number(c, S("99999999999999999999"), "size", &v), -EINVAL);
	assert_string_equal(err, "client.txt:7: size '99999999999999999999' is not a number "
			    "(more than 64 bits)");
	assert_int_equal(lg_dbench_arg_number(c, S("*"), "handle", &v), -EINVAL);
	assert_non_null(strstr(err, "random and relative arguments"));
	ctx_free(c);
}

static void test_paths(void **state)
{
	struct dctx *c = ctx_new();
	uint32_t a, b, d;
	char longp[LG_DBENCH_MAX_PATH + 10];

	(void)state;
	assert_int_equal(lg_dbench_arg_path(c, S("\\clients\\client1\\f"), &a), 0);
	assert_string_equal(c->wl->paths[a], "clients/client${client}/f");
	assert_int_equal(lg_dbench_arg_path(c, S("\\clients\\client1\\f"), &b), 0); /* remembered */
	assert_int_equal(a, b);
	assert_int_equal(lg_dbench_arg_path(c, S("clients/client1/f"), &d), 0); /* same path */
	assert_int_equal(a, d);
	assert_int_equal(c->wl->npaths, 1);
	/* a field is its length of bytes, not up to a NUL */
	assert_int_equal(lg_dbench_arg_path(c, "\\clients\\client1\\g NT_STATUS_OK", 18, &d), 0);
	assert_string_equal(c->wl->paths[d], "clients/client${client}/g");
	assert_int_equal(lg_dbench_arg_path(c, S("\\a\\${x}"), &a), -EINVAL);
	assert_non_null(strstr(err, "client.txt:7: path '\\a\\${x}': contains '${'"));
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	assert_int_equal(lg_dbench_arg_path(c, S(longp), &a), -EINVAL);
	assert_non_null(strstr(err, "bytes long (at most 2048)"));
	assert_non_null(strstr(err, "...'")); /* a long path is cut in the message */
	ctx_free(c);
}

static void test_find(void **state)
{
	struct dctx *c = ctx_new();
	struct lg_op op = { .path = LG_NO_SLOT, .path2 = LG_NO_SLOT };
	struct lg_op again = op;

	(void)state;
	assert_int_equal(lg_dbench_arg_find(c, S("\\clients\\client1\\<.TMP"), &op), 0);
	assert_string_equal(c->wl->paths[op.path], "clients/client${client}");
	assert_string_equal(c->wl->paths[op.path2], "*.TMP");
	again.path = again.path2 = LG_NO_SLOT;
	assert_int_equal(lg_dbench_arg_find(c, "\\clients\\client1\\<.TMP\" 1", 22, &again), 0);
	assert_int_equal(again.path, op.path);
	assert_int_equal(again.path2, op.path2);
	assert_int_equal(lg_dbench_arg_find(c, S("\\clients\\client1\\<.TMP"), &again), 0);
	assert_int_equal(again.path, op.path);
	assert_int_equal(again.path2, op.path2);
	op.path = op.path2 = LG_NO_SLOT;
	assert_int_equal(lg_dbench_arg_find(c, S("\\clients\\client1\\f"), &op), 0); /* no wildcard */
	assert_string_equal(c->wl->paths[op.path], "clients/client${client}/f");
	assert_int_equal(op.path2, LG_NO_SLOT);
	op.path = op.path2 = LG_NO_SLOT;
	assert_int_equal(lg_dbench_arg_find(c, S("\\*"), &op), 0); /* in the run directory */
	assert_int_equal(op.path, LG_NO_SLOT);
	assert_string_equal(c->wl->paths[op.path2], "*");
	ctx_free(c);
}

static void test_handles(void **state)
{
	struct dctx *c = ctx_new();
	uint32_t s1, s2, s;

	(void)state;
	assert_int_equal(lg_dbench_arg_handle(c, S("9938"), &s), -EINVAL);
	assert_string_equal(err, "client.txt:7: handle 9938 used before it is opened");
	assert_int_equal(lg_dbench_arg_open_handle(c, S("9938"), false, &s), 0); /* fails: no bind */
	assert_int_equal(s, LG_NO_SLOT);
	assert_int_equal(lg_dbench_arg_handle(c, S("9938"), &s), -EINVAL);
	assert_int_equal(lg_dbench_arg_open_handle(c, S("9938"), true, &s1), 0);
	assert_string_equal(c->wl->slots[s1], "9938");
	assert_int_equal(lg_dbench_arg_open_handle(c, S("70000"), true, &s2), 0); /* a big one */
	assert_int_not_equal(s1, s2);
	assert_int_equal(lg_dbench_arg_handle(c, S("9938"), &s), 0);
	assert_int_equal(s, s1);
	assert_int_equal(lg_dbench_arg_handle(c, S("70000"), &s), 0);
	assert_int_equal(s, s2);
	assert_int_equal(lg_dbench_arg_handle(c, S("9938"), &s), 0); /* the one-entry cache */
	assert_int_equal(s, s1);
	assert_int_equal(lg_dbench_set_open(c, s1, false), 0);
	assert_int_equal(lg_dbench_arg_handle(c, S("9938"), &s), -EINVAL);
	assert_string_equal(err, "client.txt:7: handle 9938 used after it is closed");
	assert_int_equal(lg_dbench_arg_open_handle(c, S("9938"), true, &s), 0); /* reopened */
	assert_int_equal(s, s1);                                           /* same slot */
	assert_int_equal(lg_dbench_arg_handle(c, S("9938"), &s), 0);
	assert_int_equal(c->wl->nslots, 2);
	ctx_free(c);
}

static void test_tokenize(void **state)
{
	struct dctx *c = ctx_new();
	char line[5000];
	const char *eol;

	(void)state;
	memset(line, 'p', sizeof(line));
	memcpy(line, "Unlink ", 7);
	assert_int_equal(lg_dbench_tokenize(c, line, line + sizeof(line), &eol), 0);
	assert_ptr_equal(eol, line + sizeof(line));
	assert_int_equal(c->fields.n, 2);
	assert_int_equal(c->fields.len[1], sizeof(line) - 7);
	assert_true(c->cap >= sizeof(line));
	/* C strings on demand, in the scratch buffer */
	lg_dbench_cstrings(c);
	assert_string_equal(c->fields.tok[0], "Unlink");
	assert_int_equal(strlen(c->fields.tok[1]), sizeof(line) - 7);
	line[100] = '\0';
	assert_int_equal(lg_dbench_tokenize(c, line, line + sizeof(line), &eol), -EINVAL);
	assert_string_equal(err, "client.txt:7: NUL byte in the line");
	strcpy(line, "1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7");
	assert_int_equal(lg_dbench_tokenize(c, line, line + strlen(line), &eol), -EINVAL);
	assert_string_equal(err, "client.txt:7: more than 16 fields");
	/* a line the copying splitter takes: quotes inside a field */
	strcpy(line, "Unlink a\"b c\"d\nnext");
	assert_int_equal(lg_dbench_tokenize(c, line, line + strlen(line), &eol), 0);
	assert_ptr_equal(eol, strchr(line, '\n'));
	assert_int_equal(c->fields.n, 2);
	assert_string_equal(c->fields.tok[1], "ab cd");
	ctx_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_handles),
		cmocka_unit_test(test_tokenize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
