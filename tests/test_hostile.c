/* Hostile inputs to the two workload loaders, in process: random bytes, mutated copies
 * of real workloads, input that ends at an unmapped page, hostile nesting and sizes, and
 * tiny or missing message buffers. Whatever comes in, a loader returns 0 with a
 * workload, or -EINVAL (-ENOMEM) with a "FILE:LINE..." message, in bounded time.
 *
 * The random streams have fixed seeds, so a failure reproduces; the mutation rounds are
 * a small fuzzer that also runs in the plain and the ASan builds (tests/fuzz/ has the
 * real ones). tests/integration/test_hostile.py runs the committed hostile files
 * (tests/data/hostile/) through the binary under memory and time limits. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "loadgen/load/dbench_load.h"
#include "loadgen/load/yaml_load.h"

#ifndef LG_SOURCE_DIR
#define LG_SOURCE_DIR "."
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) /* GCC */
#define SANITIZED 1
#elif defined(__has_feature) /* clang */
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define CPU_LIMIT 30.0 /* seconds per test: sanitizers slow the loaders ~10 times */
#else
#define CPU_LIMIT 3.0
#endif

static char err[1024];

/* xorshift64*: a fixed-seed stream, so every round is the same on every run. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read a whole file (caller frees). */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 1 << 20, f);
	assert_true(*len > 0 && *len < (1 << 20));
	fclose(f);
	return buf;
}

/* The loaders' contract: 0 and a workload and no message, or -EINVAL/-ENOMEM and a
 * message that starts with the file name and a colon. Frees the workload. */
static void check_contract(const char *fname, int rc, struct lg_workload *wl)
{
	size_t n = strlen(fname);

	if (rc == 0) {
		assert_non_null(wl);
		assert_string_equal(err, "");
		lg_workload_destroy(wl);
		return;
	}
	assert_null(wl); /* *out is only set on success */
	if (rc != -EINVAL && rc != -ENOMEM)
		fail_msg("rc %d, message '%s'", rc, err);
	if (strncmp(err, fname, n) != 0 || err[n] != ':')
		fail_msg("message without '%s:': '%s'", fname, err);
}

static int yload(const char *text, size_t len, struct lg_workload **wl)
{
	*wl = NULL;
	return lg_yaml_load("h.yaml", text, len, NULL, 0, 4, wl, err, sizeof(err));
}

static int dload(const char *text, size_t len, struct lg_workload **wl)
{
	*wl = NULL;
	return lg_dbench_load("h.txt", text, len, 4, wl, err, sizeof(err));
}

/* Random bytes are never a workload: both loaders refuse them with a message. */
static void test_random_bytes(void **state)
{
	uint64_t seed = 0x5eed;
	char *buf = malloc(65536);
	double t0 = cpu_seconds();
	struct lg_workload *wl;

	(void)state;
	assert_non_null(buf);
	for (int round = 0; round < 300; round++) {
		size_t len = (size_t)(rnd(&seed) % (round < 250 ? 512 : 65536)) + 1;

		for (size_t i = 0; i < len; i++)
			buf[i] = (char)rnd(&seed);
		assert_int_equal(yload(buf, len, &wl), -EINVAL);
		check_contract("h.yaml", -EINVAL, wl);
		assert_int_equal(dload(buf, len, &wl), -EINVAL);
		check_contract("h.txt", -EINVAL, wl);
		(void)lg_dbench_detect(buf, len);
	}
	free(buf);
	assert_true(cpu_seconds() - t0 < CPU_LIMIT);
}

/* text (len bytes, in a buffer of cap) with a few random byte changes: a bit flip, an
 * insert or overwrite with a byte that means something to YAML or dbench, a deletion.
 * Returns the new length. */
static size_t mutate(char *text, size_t len, size_t cap, uint64_t *seed)
{
	static const char special[] = ":-[]{}\"'#&*!|>\\\n\t ${}0123456789<>?";
	unsigned n = 1 + (unsigned)(rnd(seed) % 8);

	for (unsigned k = 0; k < n && len > 1 && len + 1 < cap; k++) {
		size_t at = (size_t)(rnd(seed) % len);
		uint64_t r = rnd(seed);

		switch (r % 4) {
		case 0:
			text[at] ^= (char)(1u << ((r >> 8) % 8));
			break;
		case 1:
			memmove(text + at + 1, text + at, len - at);
			text[at] = special[(r >> 8) % (sizeof(special) - 1)];
			len++;
			break;
		case 2:
			memmove(text + at, text + at + 1, len - at - 1);
			len--;
			break;
		default:
			text[at] = special[(r >> 8) % (sizeof(special) - 1)];
		}
	}
	return len;
}

/* Mutants of a real workload of each kind: some still load, most fail; all keep the
 * contract (and, under ASan, touch no memory they should not). */
static void mutants(const char *path, bool yaml, uint64_t seed)
{
	size_t len, cap = 1 << 20;
	char *orig = slurp(path, &len), *text = malloc(cap);
	unsigned ok = 0, bad = 0;
	double t0 = cpu_seconds();

	assert_non_null(text);
	for (int round = 0; round < 1500; round++) {
		struct lg_workload *wl;
		size_t n;
		int rc;

		memcpy(text, orig, len);
		n = mutate(text, len, cap, &seed);
		rc = yaml ? yload(text, n, &wl) : dload(text, n, &wl);
		check_contract(yaml ? "h.yaml" : "h.txt", rc, wl);
		if (rc)
			bad++;
		else
			ok++;
	}
	assert_true(ok > 0);
	assert_true(bad > 0);
	free(orig);
	free(text);
	assert_true(cpu_seconds() - t0 < CPU_LIMIT);
}

static void test_mutants(void **state)
{
	(void)state;
	mutants(LG_SOURCE_DIR "/loadfiles/netbench.yaml", true, 1);
	mutants(LG_SOURCE_DIR "/tests/data/yaml/all_ops.yaml", true, 2);
	mutants(LG_SOURCE_DIR "/tests/data/dbench/mini.txt", false, 3);
}

/* Text that ends exactly at an unmapped page: a loader that reads one byte past len
 * (looking for a terminator the caller never promised) dies here, in any build. */
static void test_no_read_past_len(void **state)
{
	static const char *const yaml[] = {
		"run:\n  - stat: a", "run: [{stat: a}]", "run:\n  - stat: \"a", "run: [",
		"run:\n  - stat: a\n#", "run:\n  - stat: a\n  - repeat: {count: 2, do: [",
		"run: [{stat: '${", "run: [{stat: \"\\", "run:\n  - stat: |", "r", "",
	};
	static const char *const dbench[] = {
		"QUERY_FS_INFORMATION 3 NT_STATUS_OK", "QUERY_FS_INFORMATION 3 NT_STATUS_",
		"QUERY_FS_INFORMATION \"3", "Mkdir \\a\\b", "LOOP 2", "# comment", "1", "",
	};
	long pg = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct lg_workload *wl;
	int rc;

	(void)state;
	assert_true(map != MAP_FAILED);
	assert_int_equal(mprotect(map + pg, (size_t)pg, PROT_NONE), 0);
	for (size_t i = 0; i < sizeof(yaml) / sizeof(yaml[0]); i++) {
		size_t len = strlen(yaml[i]);
		char *text = map + pg - len;

		memcpy(text, yaml[i], len);
		(void)lg_dbench_detect(text, len);
		rc = yload(text, len, &wl);
		assert_int_equal(rc, i == 0 || i == 1 || i == 4 ? 0 : -EINVAL);
		check_contract("h.yaml", rc, wl);
	}
	for (size_t i = 0; i < sizeof(dbench) / sizeof(dbench[0]); i++) {
		size_t len = strlen(dbench[i]);
		char *text = map + pg - len;

		memcpy(text, dbench[i], len);
		assert_true(lg_dbench_detect(text, len) == (i < 5));
		rc = dload(text, len, &wl);
		assert_int_equal(rc, i == 0 ? 0 : -EINVAL);
		check_contract("h.txt", rc, wl);
	}
	munmap(map, (size_t)pg * 2);
}

/* n copies of s, NUL-terminated (caller frees). */
static char *repeat(const char *s, size_t n, const char *head, const char *tail)
{
	size_t sl = strlen(s), hl = strlen(head), tl = strlen(tail);
	char *buf = malloc(hl + sl * n + tl + 1);

	assert_non_null(buf);
	memcpy(buf, head, hl);
	for (size_t i = 0; i < n; i++)
		memcpy(buf + hl + i * sl, s, sl);
	memcpy(buf + hl + sl * n, tail, tl + 1);
	return buf;
}

/* A YAML load of text that must fail with msg at position at ("h.yaml:L:C: "). */
static void yaml_refused(char *text, const char *at, const char *msg)
{
	struct lg_workload *wl;
	double t0 = cpu_seconds();

	assert_int_equal(yload(text, strlen(text), &wl), -EINVAL);
	assert_true(cpu_seconds() - t0 < CPU_LIMIT);
	if (strncmp(err, at, strlen(at)) != 0 || !strstr(err, msg))
		fail_msg("expected '%s...%s', got '%s'", at, msg, err);
	free(text);
}

static void test_deep_nesting(void **state)
{
	(void)state;
	yaml_refused(repeat("[", 100000, "", ""), "h.yaml:1:65: ", "nesting deeper than 64");
	yaml_refused(repeat("{a: ", 100000, "run: ", ""), "h.yaml:1:", "nesting deeper than");
	yaml_refused(repeat("- ", 100000, "run:\n  ", "stat: a\n"), "h.yaml:2:",
		     "nesting deeper than");
	yaml_refused(repeat("[", 100000, "run: ", ""), "h.yaml:1:", "nesting deeper than");
}

static void test_huge_values(void **state)
{
	size_t big = 10u << 20;

	(void)state;
	/* 10 MB on one line: a path, a key, a comment without an end of line. */
	yaml_refused(repeat("a", big, "run: [{stat: ", "}]\n"), "h.yaml:1:14: ",
		     "path longer than 2048 bytes");
	yaml_refused(repeat("k", big, "run: [{stat: a}]\n", ": 1\n"), "h.yaml:2:10485761: ",
		     "could not find expected ':'");
	yaml_refused(repeat("k", big, "run: [{stat: {path: a, expect: ", "}}]"),
		     "h.yaml:1:32: ", "unknown expect 'kkkk");
	assert_int_equal(strlen(err), sizeof(err) - 1);
	yaml_refused(repeat("#", big, "", ""), "h.yaml:1:1: ", "empty workload");
	/* Numbers past 64 bits, in every kind of value. */
	yaml_refused(strdup("run: [{create: {path: f, as: f}}, {write: {file: f, "
			    "size: 99999999999999999999999}}]"), "h.yaml:1:", "value too large");
	yaml_refused(strdup("run: [{sleep: 18446744073709551615h}]"), "h.yaml:1:",
		     "value too large");
	yaml_refused(strdup("run: [{repeat: {count: 18446744073709551616, do: [{stat: a}]}}]"),
		     "h.yaml:1:", "value too large");
}

/* A dbench load of text that must fail at line 'line' with msg; frees text. The
 * message stays short whatever the size of the line. */
static void dbench_refused(char *text, const char *at, const char *msg)
{
	struct lg_workload *wl;
	double t0 = cpu_seconds();

	assert_int_equal(dload(text, strlen(text), &wl), -EINVAL);
	assert_true(cpu_seconds() - t0 < CPU_LIMIT);
	if (strncmp(err, at, strlen(at)) != 0 || !strstr(err, msg))
		fail_msg("expected '%s...%s', got '%s'", at, msg, err);
	assert_true(strlen(err) < 300);
	free(text);
}

static void test_dbench_hostile(void **state)
{
	(void)state;
	dbench_refused(repeat("a", 1u << 20, "NTCreateX \"\\clients\\client1\\",
			      "\" 0x0 2 1 NT_STATUS_OK\n"),
		       "h.txt:1: path '\\clients\\client1\\aaaa", "...' is 1048593 bytes long");
	dbench_refused(repeat("<", 1u << 20, "FIND_FIRST \"\\", "\" 1 2 3 NT_STATUS_OK\n"),
		       "h.txt:1: path '\\<<<<", "bytes long (at most 2048)");
	dbench_refused(repeat("1 ", 5u << 20, "QUERY_FS_INFORMATION 3 NT_STATUS_OK\nClose ", "\n"),
		       "h.txt:2: ", "more than 16 fields");
	dbench_refused(repeat("9", 1u << 20, "QUERY_FS_INFORMATION ", " NT_STATUS_OK\n"),
		       "h.txt:1: argument '9999", "...' is not a number (more than 64 bits)");
	dbench_refused(strdup("NTCreateX \\f 0 2 1 NT_STATUS_OK\nReadX 1 -1 4 4 NT_STATUS_OK\n"),
		       "h.txt:2: ", "argument '-1' is not a number (negative)");
	dbench_refused(strdup("NTCreateX \\f 0 2 18446744073709551616 NT_STATUS_OK\n"),
		       "h.txt:1: ", "handle '18446744073709551616' is not a number (more than");
	dbench_refused(strdup("LOOP 0x10000000000000000\nClose 1 NT_STATUS_OK\nENDLOOP\n"),
		       "h.txt:1: ", "LOOP '0x10000000000000000' is not a number (more than 64");
	dbench_refused(strdup("SLEEP 18446744073709551615\n"), "h.txt:1: ", "too long");
	dbench_refused(repeat("LOOP 1\n", 100000, "", ""), "h.txt:17: ",
		       "LOOPs nested deeper than 16");
}

/* No buffer, a 1-byte buffer and a short one: still -EINVAL, never a write past it. */
static void test_message_buffers(void **state)
{
	static const char bad_yaml[] = "run: [{frobnicate: x}]";
	static const char bad_dbench[] = "Frobnicate 1 NT_STATUS_OK";
	struct lg_workload *wl = NULL;
	char small[12];

	(void)state;
	assert_int_equal(lg_yaml_load("h.yaml", bad_yaml, sizeof(bad_yaml) - 1, NULL, 0, 4, &wl,
				      NULL, 0), -EINVAL);
	assert_int_equal(lg_dbench_load("h.txt", bad_dbench, sizeof(bad_dbench) - 1, 4, &wl,
					NULL, 0), -EINVAL);
	memset(small, 'x', sizeof(small));
	assert_int_equal(lg_yaml_load("h.yaml", bad_yaml, sizeof(bad_yaml) - 1, NULL, 0, 4, &wl,
				      small, 1), -EINVAL);
	assert_int_equal(small[0], '\0');
	assert_int_equal(small[1], 'x');
	assert_int_equal(lg_dbench_load("h.txt", bad_dbench, sizeof(bad_dbench) - 1, 4, &wl,
					small, 8), -EINVAL);
	assert_string_equal(small, "h.txt:1");
	assert_int_equal(small[8], 'x');
	assert_null(wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_mutants),
		cmocka_unit_test(test_no_read_past_len),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_huge_values),
		cmocka_unit_test(test_dbench_hostile),
		cmocka_unit_test(test_message_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
