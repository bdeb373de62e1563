/* Unit tests of kmsg: /dev/kmsg records parsed (level, facility, time, continuation
 * lines), which are kept (warning and worse, signs of trouble at any level), an unreadable
 * log said once, and the report's box; as root, the kernel clock's offset measured by a
 * marker line and taken off the messages' times. */
#include "loadgen/env/kmsg.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/model/clock.h"
#include "skip_part.h"

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

static const struct lg_kmsg_entry *planted;
static char tag[64];

static void find_planted(const struct lg_kmsg_entry *e, void *ctx)
{
	static struct lg_kmsg_entry copy;

	(void)ctx;
	if (strstr(e->text, tag)) {
		copy = *e;
		planted = &copy;
	}
}

/* A warning written between a and b on CLOCK_MONOTONIC is read back with its time in
 * [a, b], give or take the offset's uncertainty: the kernel's own clock differs (2.8 ms
 * here an hour after boot), so without the marker it would lie outside. */
static void clock_offset(void **state)
{
	uint64_t a, b, err = 0;
	int64_t off = 0;
	struct lg_kmsg *k;
	json_t *j;
	FILE *w;

	(void)state;
	if (geteuid() != 0 || access("/dev/kmsg", W_OK) != 0) {
		LG_SKIP_PART("not root: the kernel log cannot be written");
		return;
	}
	assert_int_equal(lg_kmsg_open("/dev/kmsg", &k), 0);
	assert_false(lg_kmsg_offset(k, &off, &err));
	assert_int_equal(lg_kmsg_mark(k, "test_kmsg: measuring the clock offset"), 0);
	assert_true(lg_kmsg_offset(k, &off, &err));
	assert_true(err < 50 * 1000 * 1000ull);
	snprintf(tag, sizeof(tag), "loadgen-test-kmsg-%ld", (long)getpid());
	w = fopen("/dev/kmsg", "w");
	assert_non_null(w);
	setvbuf(w, NULL, _IONBF, 0);
	a = lg_now_ns();
	fprintf(w, "<4>%s: a warning planted by the test\n", tag);
	b = lg_now_ns();
	fclose(w);
	assert_true(lg_kmsg_poll(k, find_planted, NULL) >= 1);
	assert_non_null(planted);
	print_message("offset %.3f ms +- %.3f ms; message at %+.3f ms in [0, %.3f]\n",
		      off / 1e6, err / 1e6, ((double)planted->t_ns - (double)a) / 1e6,
		      (double)(b - a) / 1e6);
	assert_true(planted->t_ns + err + 20000 >= a);
	assert_true(planted->t_ns <= b + err + 20000);
	/* the result says what was measured */
	j = lg_kmsg_json(k, a);
	assert_float_equal(json_number_value(json_object_get(json_object_get(j, "clock_offset"),
							     "ms")), off / 1e6, 1e-9);
	json_decref(j);
	/* a second mark within LG_KMSG_MARK_S seconds writes nothing and reuses the offset */
	{
		struct lg_kmsg *k2;
		int64_t off2;
		uint64_t err2;

		assert_int_equal(lg_kmsg_open("/dev/kmsg", &k2), 0);
		assert_int_equal(lg_kmsg_mark(k2, "test_kmsg: not written"), 0);
		assert_true(lg_kmsg_offset(k2, &off2, &err2));
		assert_true(off2 == off && err2 == err);
		lg_kmsg_close(k2);
	}
	lg_kmsg_close(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_fields),
		cmocka_unit_test(what_is_kept),
		cmocka_unit_test(unreadable_said_once),
		cmocka_unit_test(entry_time),
		cmocka_unit_test(clock_offset),
	};

	return lg_test_exit(cmocka_run_group_tests(tests, NULL, NULL));
}
