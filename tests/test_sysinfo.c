/* Unit tests of sysinfo.c: the env object of this machine and the text header (the
 * /proc and /sys parsers it uses are tested in test_sysinfo_probe.c). */
#include "loadgen/env/sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

/* --- the env object of this machine --- */

static const char *gets_(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	assert_non_null(s);
	return s;
}

static void assert_filled(const json_t *env, const char *key)
{
	const char *s = gets_(env, key);

	assert_true(s[0] != '\0');
	assert_string_not_equal(s, "unknown");
}

static void check_env(const char *dir)
{
	static char *argv[] = { "loadgen", "-D", "/tmp/a b", "it's", "", NULL };
	struct timespec start = { 1700000000, 5 };
	struct utsname u;
	json_t *env = NULL;

	assert_int_equal(lg_sysinfo_json(dir, 5, argv, &start, &env), 0);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(gets_(env, "kernel"), u.release);
	assert_string_equal(gets_(env, "kernel_version"), u.version);
	assert_string_equal(gets_(env, "arch"), u.machine);
	assert_string_equal(gets_(env, "loadgen_version"), LOADGEN_VERSION);
	assert_string_equal(gets_(env, "command_line"), "loadgen -D '/tmp/a b' 'it'\\''s' ''");
	assert_string_equal(gets_(env, "start_time"), "2023-11-14T22:13:20Z");
	assert_true(json_integer_value(json_object_get(env, "cpus")) ==
		    sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(json_integer_value(json_object_get(env, "cpus_allowed")) >= 1);
	assert_true(json_integer_value(json_object_get(env, "mem_total_bytes")) >= 1 << 20);
	const char *const keys[] = { "hostname", "compiler", "cpu_model", "fs_type",
				     "mount_point", "mount_options", "device", "target_dir" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_filled(env, keys[i]);
	assert_true(gets_(env, "target_dir")[0] == '/');
	assert_non_null(json_object_get(env, "git_describe"));
	json_decref(env);
}

static void test_env_here(void **state)
{
	(void)state;
	check_env("/tmp");
	check_env("/");
	check_env(".");
}

static void test_env_missing_target(void **state)
{
	json_t *env = NULL;

	(void)state;
	assert_int_equal(lg_sysinfo_json("/nonexistent/lg-test", 0, NULL, NULL, &env), 0);
	assert_string_equal(gets_(env, "target_dir"), "/nonexistent/lg-test");
	assert_string_equal(gets_(env, "fs_type"), "unknown");
	assert_string_equal(gets_(env, "mount_options"), "unknown");
	assert_string_equal(gets_(env, "device"), "unknown");
	assert_string_equal(gets_(env, "block_device"), "unknown");
	assert_string_equal(gets_(env, "command_line"), "unknown");
	assert_true(json_is_null(json_object_get(env, "rotational")));
	assert_true(json_is_null(json_object_get(env, "queue_depth")));
	assert_true(json_is_null(json_object_get(env, "block_chain")));
	assert_int_equal(strlen(gets_(env, "start_time")), 20); /* now: YYYY-MM-DDTHH:MM:SSZ */
	json_decref(env);
}

/* --- the text header --- */

static char *print_to_string(const json_t *env)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lg_sysinfo_print(f, env);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_print(void **state)
{
	json_t *env = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:s, s:I, s:s, s:s, s:s,"
				" s:s, s:s, s:i, s:s, s:s, s:s, s:b, s:s, s:i}",
				"loadgen_version", "0.1.0", "git_describe", "v0.1-3-gabc",
				"kernel", "6.1.0-18-amd64", "arch", "x86_64", "cpus", 2,
				"cpus_allowed", 2, "cpu_model", "Intel Xeon",
				"mem_total_bytes", (json_int_t)24 << 30,
				"target_dir", "/tmp/x", "fs_type", "ext4",
				"mount_options", "rw,relatime", "device", "/dev/vda1",
				"block_device", "vda", "block_members", 0, "vendor", "0x1af4",
				"model", "unknown", "driver", "virtio_blk", "rotational", 0,
				"scheduler", "mq-deadline", "queue_depth", 256);
	char *s;

	(void)state;
	assert_non_null(env);
	s = print_to_string(env);
	assert_string_equal(s,
		"loadgen 0.1.0 (v0.1-3-gabc)  kernel 6.1.0-18-amd64  x86_64  2 CPUs (Intel Xeon)"
		"  24.0 GiB\n"
		"target /tmp/x: ext4 (rw,relatime) on /dev/vda1, disk vda: 0x1af4 (virtio_blk),"
		" rotational no, scheduler mq-deadline, queue depth 256\n");
	free(s);
	/* an affinity mask narrower than the machine, a RAID, a tmpfs */
	json_object_set_new(env, "cpus_allowed", json_integer(1));
	json_object_set_new(env, "block_members", json_integer(2));
	json_object_set_new(env, "vendor", json_string("unknown"));
	json_object_set_new(env, "driver", json_string("unknown"));
	json_object_set_new(env, "rotational", json_true());
	s = print_to_string(env);
	assert_non_null(strstr(s, "2 CPUs (1 allowed) (Intel Xeon)"));
	assert_non_null(strstr(s, ", disk vda (2 members), rotational yes,"));
	free(s);
	json_object_set_new(env, "block_device", json_string("unknown"));
	s = print_to_string(env);
	assert_non_null(strstr(s, "on /dev/vda1, block device unknown\n"));
	free(s);
	json_decref(env);
}

static void test_print_empty(void **state)
{
	json_t *env = json_object();
	char *s;

	(void)state;
	s = print_to_string(env);
	assert_string_equal(s,
		"loadgen unknown  kernel unknown  unknown  CPUs unknown (unknown)  memory unknown\n"
		"target unknown: unknown (unknown) on unknown, block device unknown\n");
	free(s);
	s = print_to_string(NULL); /* no object at all: the same, no crash */
	assert_non_null(strstr(s, "kernel unknown"));
	free(s);
	json_decref(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_here),
		cmocka_unit_test(test_env_missing_target),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_print_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
