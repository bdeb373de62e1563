/* Path templates: ${client} and ${peer} expanded, whose file a template names, and the
 * peer of a client across ranks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "loadgen/model/path_tmpl.h"

static void test_expand_client(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(lg_path_expand("c${client}/f${client}", 42, 7, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "c42/f42");
	assert_int_equal(lg_path_expand("shared/x", 7, 8, buf, sizeof(buf)), 8);
	assert_string_equal(buf, "shared/x");
	assert_int_equal(lg_path_expand("${client}", 123456, 0, buf, 4), -ENAMETOOLONG);
	assert_int_equal(lg_path_expand("abcdef", 0, 0, buf, 6), -ENAMETOOLONG);
	assert_int_equal(lg_path_expand("abcde", 0, 0, buf, 6), 5);
}

static void test_expand_peer(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(lg_path_expand("f${peer}", 1, 3, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "f3");
	assert_int_equal(lg_path_expand("d${client}/f${peer}.${client}", 12, 305, buf,
					sizeof(buf)), 11);
	assert_string_equal(buf, "d12/f305.12");
	/* a lookalike is no placeholder */
	assert_int_equal(lg_path_expand("${pee}${peers", 1, 2, buf, sizeof(buf)), 13);
	assert_string_equal(buf, "${pee}${peers");
	assert_int_equal(lg_path_expand("${peer}", 0, 123456, buf, 4), -ENAMETOOLONG);
	assert_int_equal(lg_path_expand("${peer}", 0, 123, buf, 4), 3);
}

static void test_owner(void **state)
{
	(void)state;
	assert_int_equal(lg_path_owner("shared/x"), LG_OWNER_SHARED);
	assert_int_equal(lg_path_owner("f${client}"), LG_OWNER_CLIENT);
	assert_int_equal(lg_path_owner("d/f${peer}"), LG_OWNER_PEER);
	assert_int_equal(lg_path_owner("d${client}/f${peer}"), LG_OWNER_MIXED);
	assert_false(lg_path_per_client("x"));
	assert_true(lg_path_per_client("x${peer}"));
	assert_true(lg_path_per_client("x${client}"));
}

static void test_peer_id(void **state)
{
	(void)state;
	/* 2 ranks x 2 clients, default shift 2: the same index on the next rank */
	assert_int_equal(lg_peer_id(0, 2, 4), 2);
	assert_int_equal(lg_peer_id(1, 2, 4), 3);
	assert_int_equal(lg_peer_id(2, 2, 4), 0);
	assert_int_equal(lg_peer_id(3, 2, 4), 1);
	/* one rank, default shift (its clients): the client itself */
	assert_int_equal(lg_peer_id(1, 2, 2), 1);
	assert_int_equal(lg_peer_id(0, 1, 2), 1);
	assert_int_equal(lg_peer_id(1, 1, 2), 0);
	assert_int_equal(lg_peer_id(5, 7, 0), 5); /* no count: itself */
	assert_int_equal(lg_peer_id(4000000000u, 4000000000u, 4000000001u), 3999999999u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand_client),
		cmocka_unit_test(test_expand_peer),
		cmocka_unit_test(test_owner),
		cmocka_unit_test(test_peer_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
