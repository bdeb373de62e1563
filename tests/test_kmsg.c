/* Unit tests of kmsg: /dev/kmsg records parsed (level, facility, time, continuation
 * lines), which are kept (warning and worse, signs of trouble at any level), an unreadable
 * log said once, and the report's box. */
#include "loadgen/env/kmsg.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void record_fields(void **state)
{
	struct lg_kmsg_entry e;

	(void)state;
	/* pri 12 = facility 1 (user) << 3 | level 4 (warning) */
	assert_int_equal(lg_kmsg_parse("12,357,1300714897,-;loadgen: hello\n SUBSYSTEM=x\n", &e), 1);
	assert_int_equal(e.level, 4);
	assert_int_equal(e.facility, 1);
	assert_int_equal(e.seq, 357);
	assert_int_equal(e.ts_us, 1300714897);
	assert_string_equal(e.text, "loadgen: hello"); /* continuation dropped */
	assert_null(e.trouble);
	assert_string_equal(lg_kmsg_level_name(e.level), "warning");
}

static void what_is_kept(void **state)
{
	struct lg_kmsg_entry e;

	(void)state;
	assert_int_equal(lg_kmsg_parse("6,1,5,-;eth0: link up\n", &e), 0);          /* info */
	assert_int_equal(lg_kmsg_parse("3,2,5,-;something failed\n", &e), 1);       /* err */
	/* signs of trouble at info level are kept */
	assert_int_equal(lg_kmsg_parse("6,3,5,-;INFO: task kworker:12 blocked for more than 120 seconds.\n",
				       &e), 1);
	assert_string_equal(e.trouble, "blocked for more than");
	assert_int_equal(lg_kmsg_parse("6,4,5,-;XFS (vdb): Metadata Corruption detected\n", &e), 1);
	assert_string_equal(e.trouble, "XFS");
	assert_int_equal(lg_kmsg_parse("6,5,5,-;XFS (vdb): Mounting V5 Filesystem\n", &e), 0);
	assert_int_equal(lg_kmsg_parse("6,6,5,-;EXT4-fs error (device vda1): bad block\n", &e), 1);
	assert_int_equal(lg_kmsg_parse("6,7,5,-;blk_update_request: I/O error, dev sdb\n", &e), 1);
	assert_int_equal(lg_kmsg_parse("6,8,5,-;Out of memory: Killed process 123 (x)\n", &e), 1);
	assert_int_equal(lg_kmsg_parse("garbage without fields\n", &e), -EINVAL);
	assert_int_equal(lg_kmsg_parse("1,2;x\n", &e), -EINVAL);
}

static void unreadable_said_once(void **state)
{
	struct lg_kmsg *k;
	char buf[1024] = "";
	FILE *f;
	json_t *j;

	(void)state;
	assert_int_equal(lg_kmsg_open("/nonexistent/kmsg", &k), 0);
	assert_int_equal(lg_kmsg_poll(k, NULL, NULL), 0);
	j = lg_kmsg_json(k, 0);
	assert_false(json_is_true(json_object_get(j, "readable")));
	assert_non_null(strstr(json_string_value(json_object_get(j, "note")), "cannot be read"));
	assert_int_equal(json_integer_value(json_object_get(j, "count")), 0);
	json_decref(j);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	lg_kmsg_print(f, k, 0);
	fclose(f);
	assert_non_null(strstr(buf, "Kernel log: /nonexistent/kmsg cannot be read"));
	lg_kmsg_close(k);
}

static void entry_time(void **state)
{
	struct lg_kmsg_entry e;
	json_t *j;

	(void)state;
	lg_kmsg_parse("4,9,12500000,-;WARNING: CPU: 1 PID: 2 at fs/x.c:10\n", &e);
	j = lg_kmsg_entry_json(&e, 10000000000ull); /* measured phase began at 10 s */
	assert_float_equal(json_number_value(json_object_get(j, "t_s")), 2.5, 1e-9);
	assert_string_equal(json_string_value(json_object_get(j, "level_name")), "warning");
	assert_string_equal(json_string_value(json_object_get(j, "trouble")), "WARNING:");
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_fields),
		cmocka_unit_test(what_is_kept),
		cmocka_unit_test(unreadable_said_once),
		cmocka_unit_test(entry_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
