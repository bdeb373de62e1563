/* --verify: blocks written into a "file image" (a zeroed array standing for the file)
 * by lg_verify_fill, checked by lg_verify_check, and corruptions carried through the
 * stats, the text report and the JSON notes. */
#include "run/verify.h"

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
#include <xxhash.h>

#include "loadgen/output/report.h"
#include "counters/result_summary.h"

#define U LG_VERIFY_UNIT
#define IMG (64 * 1024)

static unsigned char img[IMG]; /* the file */

/* A write of [off, off + len) by tag's client into the image, as do_rw makes it. */
static void write_img(uint64_t off, size_t len, uint32_t client, uint32_t file, uint64_t gen)
{
	struct lg_verify_tag tag = { client, file, gen };
	unsigned char *buf = malloc(len);

	assert_non_null(buf);
	memset(buf, 0xEE, len); /* whatever was in the client's buffer */
	lg_verify_fill(buf, len, off, &tag);
	memcpy(img + off, buf, len);
	free(buf);
}

static struct lg_verify_result check_img(uint64_t off, size_t len, uint32_t client)
{
	struct lg_verify_result r;

	memset(&r, 0x5A, sizeof(r)); /* the check must set every count */
	lg_verify_check(img + off, len, off, client, &r);
	return r;
}

static int setup_img(void **state)
{
	(void)state;
	memset(img, 0, sizeof(img));
	return 0;
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The layout verify.h documents, byte for byte, and a pinned checksum so a change of
 * the format (which would make old files unreadable to a newer loadgen) is noticed. */
static void test_layout(void **state)
{
	(void)state;
	write_img(4096, U, 3, 7, 99);
	assert_memory_equal(img + 4096, "LGVERIFY", 8);
	assert_int_equal(le64(img + 4096 + 8), XXH64(img + 4096 + 28, U - 28, 0));
	assert_int_equal(le64(img + 4096 + 16), 99);                /* generation */
	assert_int_equal(le64(img + 4096 + 24) & 0xffffffffu, 7);   /* file id */
	assert_int_equal(le64(img + 4096 + 24) >> 32, 3);           /* client */
	assert_int_equal(le64(img + 4096 + 32), 4096);              /* offset */
	assert_int_equal(le64(img + 4096 + 8), UINT64_C(0x59de092767de8dd9));
}

static void test_aligned_round_trip(void **state)
{
	struct lg_verify_result r;

	(void)state;
	write_img(0, 32768, 0, 1, 1);
	r = check_img(0, 32768, 0);
	assert_int_equal(r.checked, 64);
	assert_int_equal(r.zero, 0);
	assert_int_equal(r.corrupt, 0);
	/* the rest of the image was never written: skipped, not corrupt */
	r = check_img(0, IMG, 0);
	assert_int_equal(r.checked, 64);
	assert_int_equal(r.zero, 64);
	assert_int_equal(r.corrupt, 0);
}

/* An unaligned write leaves partly written blocks at both ends: they check. */
static void test_unaligned_round_trip(void **state)
{
	struct lg_verify_result r;

	(void)state;
	write_img(1000, 10000, 2, 0, 5); /* blocks 1 (from byte 1000) .. 21 (to 11000) */
	r = check_img(0, IMG, 2);
	assert_int_equal(r.corrupt, 0);
	assert_int_equal(r.checked, 21); /* 512..11264: blocks 1..21 */
	assert_int_equal(r.zero, IMG / U - 21);
	/* only what lies entirely inside a read is checked: [1000, 1500) holds none */
	r = check_img(1000, 500, 2);
	assert_int_equal(r.checked + r.zero + r.corrupt, 0);
	r = check_img(100, 1000, 2); /* [100, 1100): block [512, 1024) */
	assert_int_equal(r.checked, 1);
	assert_int_equal(r.corrupt, 0);
}

/* Overlapping pieces from different writes (other generation and file id) of the same
 * client give the same checked content as one write of the whole range. */
static void test_partial_overlap(void **state)
{
	static unsigned char once[IMG];
	struct lg_verify_result r;

	(void)state;
	write_img(100, 2900, 4, 1, 1);
	write_img(2000, 3000, 4, 2, 2);
	write_img(700, 10, 4, 3, 3);
	r = check_img(0, IMG, 4);
	assert_int_equal(r.corrupt, 0);
	assert_int_equal(r.checked, 10); /* 0..5120 */
	memcpy(once, img, sizeof(once));
	memset(img, 0, sizeof(img));
	write_img(100, 4900, 4, 9, 9);
	for (size_t b = 0; b < 5120; b += U) { /* all but generation and file id agree */
		assert_memory_equal(once + b, img + b, 16);
		assert_memory_equal(once + b + 28, img + b + 28, U - 28);
	}
}

static void test_flipped_payload_byte(void **state)
{
	struct lg_verify_result r;

	(void)state;
	write_img(0, 16384, 1, 0, 1);
	img[8192 + 300] ^= 0x01;
	r = check_img(0, 16384, 1);
	assert_int_equal(r.checked, 32);
	assert_int_equal(r.corrupt, 1);
	assert_int_equal(r.first.reason, LG_CORRUPT_PAYLOAD);
	assert_int_equal(r.first.offset, 8192);
	assert_int_equal(r.first.bad_offset, 8192 + 300);
	assert_int_equal(r.first.found_byte ^ r.first.expected_byte, 0x01);
	assert_int_equal(r.first.found_magic, 1);
	assert_int_equal(r.first.found_client, 1);
	assert_int_equal(r.first.found_offset, 8192);
	assert_int_not_equal(r.first.found_hash, r.first.expected_hash);
	assert_int_equal(r.first.expected_hash, le64(img + 8192 + 8));
	/* zeroing a payload byte is taken for a part never written: documented blind spot */
	img[8192 + 300] = 0;
	assert_int_equal(check_img(0, 16384, 1).corrupt, 0);
}

/* A block written for 4096 found at 8192: a misplaced write. */
static void test_wrong_offset(void **state)
{
	struct lg_verify_result r;

	(void)state;
	write_img(4096, U, 0, 0, 1);
	memcpy(img + 8192, img + 4096, U);
	r = check_img(8192, U, 0);
	assert_int_equal(r.corrupt, 1);
	assert_int_equal(r.first.reason, LG_CORRUPT_OFFSET);
	assert_int_equal(r.first.offset, 8192);
	assert_int_equal(r.first.found_offset, 4096);
	assert_int_equal(r.first.found_client, 0);
}

static void test_wrong_client(void **state)
{
	struct lg_verify_result r;

	(void)state;
	write_img(0, 4096, 1, 0, 1);
	r = check_img(0, 4096, 0);
	assert_int_equal(r.corrupt, 8);
	assert_int_equal(r.first.reason, LG_CORRUPT_CLIENT);
	assert_int_equal(r.first.found_client, 1);
	assert_int_equal(r.first.offset, 0);
	assert_int_equal(check_img(0, 4096, 1).corrupt, 0);
}

static void test_garbage_without_magic(void **state)
{
	struct lg_verify_result r;

	(void)state;
	write_img(0, 2048, 0, 0, 1);
	memset(img + 1024, 0xAB, U);
	r = check_img(0, 2048, 0);
	assert_int_equal(r.checked, 4);
	assert_int_equal(r.corrupt, 1);
	assert_int_equal(r.first.reason, LG_CORRUPT_NO_HEADER);
	assert_int_equal(r.first.found_magic, 0);
	assert_int_equal(r.first.offset, 1024);
	assert_int_equal(r.first.bad_offset, 1024);
	assert_int_equal(r.first.found_byte, 0xAB);
	/* text in a region never written by loadgen: no header either */
	memset(img + 30000, 0, U);
	memcpy(img + 30208, "hello", 5);
	r = check_img(30208, U, 0);
	assert_int_equal(r.corrupt, 1);
	assert_int_equal(r.first.reason, LG_CORRUPT_NO_HEADER);
}

static void test_checksum_field_only(void **state)
{
	struct lg_verify_result r;

	(void)state;
	write_img(0, U, 0, 0, 1);
	img[9] ^= 0x80;
	r = check_img(0, U, 0);
	assert_int_equal(r.corrupt, 1);
	assert_int_equal(r.first.reason, LG_CORRUPT_CHECKSUM);
	assert_int_equal(r.first.bad_offset, 9);
	assert_int_equal(r.first.found_hash, r.first.expected_hash);
}

/* Generation and file id are informational: changing them is no corruption. */
static void test_informational_fields(void **state)
{
	(void)state;
	write_img(0, U, 0, 0, 1);
	img[16] ^= 0xFF;
	img[25] ^= 0xFF;
	assert_int_equal(check_img(0, U, 0).corrupt, 0);
	assert_int_equal(check_img(0, U, 0).checked, 1);
}

static void test_zero_skipped(void **state)
{
	struct lg_verify_result r;

	(void)state;
	r = check_img(0, IMG, 0);
	assert_int_equal(r.zero, IMG / U);
	assert_int_equal(r.checked, 0);
	assert_int_equal(r.corrupt, 0);
}

static void test_state_and_bind(void **state)
{
	struct lg_workload *wl;
	struct lg_verify_state *v;
	uint32_t priv, shared, peer, mixed, slot;

	(void)state;
	assert_int_equal(lg_workload_create(&wl), 0);
	assert_int_equal(lg_workload_path(wl, "c${client}/f", &priv), 0);
	assert_int_equal(lg_workload_path(wl, "shared/f", &shared), 0);
	assert_int_equal(lg_workload_path(wl, "f${peer}", &peer), 0);
	assert_int_equal(lg_workload_path(wl, "c${client}/f${peer}", &mixed), 0);
	assert_int_equal(lg_workload_slot(wl, "f", &slot), 0);
	assert_int_equal(lg_verify_state_create(wl, 1, 3, &v), 0);
	assert_int_equal(v->slots[slot].fd, -1);
	lg_verify_bind(v, slot, 5, priv, O_RDWR | O_APPEND);
	assert_int_equal(v->slots[slot].fd, 5);
	assert_int_equal(v->slots[slot].path, priv);
	assert_int_equal(v->slots[slot].writer, 1);
	assert_int_equal(v->slots[slot].peer, 0);
	assert_int_equal(v->slots[slot].append, 1);
	lg_verify_bind(v, slot, 6, shared, O_RDONLY);
	assert_int_equal(v->slots[slot].writer, LG_VERIFY_NO_WRITER);
	assert_int_equal(v->slots[slot].append, 0);
	/* the peer's file: its blocks are the peer's */
	lg_verify_bind(v, slot, 7, peer, O_RDONLY);
	assert_int_equal(v->slots[slot].writer, 3);
	assert_int_equal(v->slots[slot].peer, 1);
	lg_verify_bind(v, slot, 8, mixed, O_RDONLY); /* whose is not known: not checked */
	assert_int_equal(v->slots[slot].writer, LG_VERIFY_NO_WRITER);
	assert_int_equal(v->slots[slot].peer, 0);
	assert_int_equal(lg_verify_peer_writer(v, peer), 3);
	assert_int_equal(lg_verify_peer_writer(v, priv), LG_VERIFY_NO_WRITER);
	assert_int_equal(lg_verify_peer_writer(v, shared), LG_VERIFY_NO_WRITER);
	assert_int_equal(lg_verify_peer_writer(v, mixed), LG_VERIFY_NO_WRITER);
	lg_verify_state_destroy(v);
	lg_verify_state_destroy(NULL);
	lg_workload_destroy(wl);
}

/* A peer's file: the blocks client 3 wrote check as client 3's, not as client 4's, and
 * the same bytes at another offset do not check either. */
static void test_peer_writer(void **state)
{
	struct lg_verify_result r;

	(void)state;
	write_img(0, 2 * U, 3, 0, 1);
	r = check_img(0, 2 * U, 3);
	assert_int_equal(r.checked, 2);
	assert_int_equal(r.corrupt, 0);
	r = check_img(0, 2 * U, 4); /* read as if client 4 had written it */
	assert_int_equal(r.corrupt, 2);
	assert_int_equal(r.first.reason, LG_CORRUPT_CLIENT);
	assert_int_equal(r.first.writer, 4);
	assert_int_equal(r.first.found_client, 3);
	assert_int_equal(r.first.offset, 0);
	memcpy(img + 4096, img, U); /* client 3's block 0, at 4096 */
	r = check_img(4096, U, 3);
	assert_int_equal(r.corrupt, 1);
	/* offset 0's field reads as "not written" over 4096's (zero bytes are), the
	 * payload does not */
	assert_int_equal(r.first.reason, LG_CORRUPT_PAYLOAD);
	assert_int_equal(r.first.writer, 3);
	assert_int_equal(r.first.offset, 4096);
	assert_int_equal(r.first.found_offset, 0);
	assert_int_not_equal(r.first.expected_byte, r.first.found_byte);
}

/* Bytes read from a peer's file count twice: verified, and of them from a peer. A
 * peer's file not seen is one corruption, stale metadata, naming the writer. */
static void test_peer_record_and_stale(void **state)
{
	struct lg_client_stats *cs;
	struct lg_verify_result r;
	struct lg_run run = { .nclients = 1, .ntypes = 2, .type_names = NULL };

	(void)state;
	assert_int_equal(lg_client_stats_create(0, 2, &cs), 0);
	write_img(0, 4 * U, 1, 0, 1);
	lg_verify_check(img, 4 * U, 0, 1, &r);
	lg_verify_record(cs, 0, 5, "f1", true, &r);
	lg_verify_check(img, U, 0, 1, &r);
	lg_verify_record(cs, 0, 6, "f1", false, &r);
	assert_int_equal(cs->verified_bytes, 5 * U);
	assert_int_equal(cs->peer_verified_bytes, 4 * U);
	lg_verify_stale(cs, 1, 9, "f1", 1, ENOENT);
	assert_int_equal(cs->types[1].corruptions, 1);
	assert_int_equal(cs->ncorrupt, 1);
	assert_int_equal(cs->corrupt[0].reason, LG_CORRUPT_STALE);
	assert_int_equal(cs->corrupt[0].writer, 1);
	assert_int_equal(cs->corrupt[0].err, ENOENT);
	assert_int_equal(cs->corrupt[0].line, 9);
	assert_string_equal(cs->corrupt[0].path, "f1");
	run.clients = &cs;
	assert_int_equal(lg_run_merge(&run), 0);
	assert_int_equal(run.corruptions, 1);
	assert_int_equal(run.verified_bytes, 5 * U);
	assert_int_equal(run.peer_verified_bytes, 4 * U);
	run.clients = NULL;
	run.nclients = 0;
	lg_run_clear(&run);
	lg_client_stats_destroy(cs);
}

static const char *const names[] = { "read", "write" };

/* Client 1 finds a flipped byte in c1/data at 8192 (line 12) and, in a second read,
 * wrong-client blocks; client 0 reads clean data. */
static void make_run(struct lg_run *run)
{
	struct lg_verify_result r;

	memset(run, 0, sizeof(*run));
	run->status = LG_RUN_COMPLETE;
	run->duration_s = 1.0;
	run->nclients = 2;
	run->ntypes = 2;
	run->type_names = names;
	run->clients = calloc(2, sizeof(*run->clients));
	assert_non_null(run->clients);
	assert_int_equal(lg_client_stats_create(0, 2, &run->clients[0]), 0);
	assert_int_equal(lg_client_stats_create(1, 2, &run->clients[1]), 0);
	memset(img, 0, sizeof(img));
	write_img(0, 16384, 1, 0, 1);
	img[8192 + 300] ^= 0x01;
	lg_verify_check(img, 16384, 0, 1, &r);
	lg_verify_record(run->clients[1], 0, 12, "c1/data", false, &r);
	lg_verify_check(img, 1024, 0, 0, &r); /* client 0 reading client 1's blocks */
	lg_verify_record(run->clients[0], 0, 20, "c0/data", false, &r);
	/* warm-up ending resets the measurements, not the corruptions */
	lg_client_stats_reset(run->clients[0]);
	lg_client_stats_reset(run->clients[1]);
	assert_int_equal(lg_run_merge(run), 0);
}

static void test_record_and_merge(void **state)
{
	struct lg_run run;
	struct lg_client_stats *cs;
	struct lg_verify_result r;
	char longpath[300];

	(void)state;
	make_run(&run);
	assert_int_equal(run.corruptions, 3);
	assert_int_equal(run.totals[0].corruptions, 3);
	assert_int_equal(run.totals[1].corruptions, 0);
	assert_int_equal(run.verified_bytes, 16384 + 1024);
	assert_int_equal(run.errors, 0);
	cs = run.clients[1];
	assert_int_equal(cs->ncorrupt, 1);
	assert_string_equal(cs->corrupt[0].path, "c1/data");
	assert_int_equal(cs->corrupt[0].line, 12);
	assert_int_equal(cs->corrupt[0].type, 0);
	assert_int_equal(cs->corrupt[0].offset, 8192);
	/* notes stop at LG_CORRUPT_NOTES; a long path keeps its end */
	memset(longpath, 'd', sizeof(longpath));
	memcpy(longpath + sizeof(longpath) - 8, "/tail.x", 8);
	lg_verify_check(img, 16384, 0, 1, &r);
	for (int i = 0; i < LG_CORRUPT_NOTES + 2; i++)
		lg_verify_record(cs, 1, 30, longpath, false, &r);
	assert_int_equal(cs->ncorrupt, LG_CORRUPT_NOTES);
	assert_int_equal(cs->types[1].corruptions, LG_CORRUPT_NOTES + 2);
	assert_int_equal(strlen(cs->corrupt[1].path), LG_CORRUPT_PATH - 1);
	assert_memory_equal(cs->corrupt[1].path, "...", 3);
	assert_string_equal(cs->corrupt[1].path + LG_CORRUPT_PATH - 8, "/tail.x");
	assert_int_equal(lg_run_merge(&run), 0);
	assert_int_equal(run.corruptions, 3 + LG_CORRUPT_NOTES + 2);
	lg_run_clear(&run);
}

static char *report_of(const struct lg_run *run, bool verify)
{
	struct lg_config cfg = { .clients = run->nclients, .mode = "threads", .verify = verify };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	lg_report_print(f, &cfg, run);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_report(void **state)
{
	struct lg_run run;
	char *text, want[256];

	(void)state;
	make_run(&run);
	text = report_of(&run, true);
	assert_non_null(strstr(text, "\nData verification: 3 corrupt blocks in 17408 bytes "
				     "checked\n"));
	assert_non_null(strstr(text, "\n client 1: line 12: read c1/data at offset 8192: "
				     "payload differs; first wrong byte at 8492: "));
	assert_non_null(strstr(text, "\n   written by client 1 (rank 0), read by client 1 "
				     "(rank 0)\n"));
	assert_non_null(strstr(text, "\n   written by client 0 (rank 0), read by client 0 "
				     "(rank 0)\n"));
	snprintf(want, sizeof(want), "\n   expected client 1, offset 8192, xxh64 0x%016llx\n",
		 (unsigned long long)le64(img + 8192 + 8));
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(text, "\n client 0: line 20: read c0/data at offset 0: "
				     "written by another client;"));
	assert_non_null(strstr(text, "\n   found    client 1, offset 0, xxh64 0x"));
	assert_non_null(strstr(text, "\n ... and 1 more\n"));
	free(text);
	lg_client_stats_destroy(run.clients[0]);
	lg_client_stats_destroy(run.clients[1]);
	assert_int_equal(lg_client_stats_create(0, 2, &run.clients[0]), 0);
	assert_int_equal(lg_client_stats_create(1, 2, &run.clients[1]), 0);
	run.clients[0]->verified_bytes = 4096;
	assert_int_equal(lg_run_merge(&run), 0);
	text = report_of(&run, true);
	assert_non_null(strstr(text, "\nData verification: no corruption in 4096 bytes checked\n"));
	free(text);
	text = report_of(&run, false); /* without --verify: not a word about it */
	assert_null(strstr(text, "Data verification"));
	free(text);
	lg_run_clear(&run);
}

static void test_notes_json(void **state)
{
	struct lg_run run;
	json_t *a, *n;

	(void)state;
	make_run(&run);
	a = lg_corruption_notes_json(&run);
	assert_non_null(a);
	assert_int_equal(json_array_size(a), 2);
	n = json_array_get(a, 1); /* client 1's, after client 0's */
	assert_int_equal(json_integer_value(json_object_get(n, "client")), 1);
	assert_string_equal(json_string_value(json_object_get(n, "path")), "c1/data");
	assert_int_equal(json_integer_value(json_object_get(n, "offset")), 8192);
	assert_int_equal(json_integer_value(json_object_get(n, "line")), 12);
	assert_int_equal(json_integer_value(json_object_get(n, "bad_offset")), 8492);
	assert_string_equal(json_string_value(json_object_get(n, "type")), "read");
	assert_string_equal(json_string_value(json_object_get(n, "reason")), "payload differs");
	assert_non_null(strstr(json_string_value(json_object_get(n, "expected")),
			       "client 1, offset 8192, xxh64 0x"));
	assert_non_null(strstr(json_string_value(json_object_get(n, "found")),
			       "client 1, offset 8192, xxh64 0x"));
	assert_string_not_equal(json_string_value(json_object_get(n, "expected")),
				json_string_value(json_object_get(n, "found")));
	n = json_array_get(a, 0);
	assert_string_equal(json_string_value(json_object_get(n, "reason")),
			    "written by another client");
	json_decref(a);
	/* a path that is not UTF-8 still makes a document */
	strcpy(run.clients[1]->corrupt[0].path, "c1/\xff\xfe");
	a = lg_corruption_notes_json(&run);
	assert_non_null(a);
	assert_string_equal(json_string_value(json_object_get(json_array_get(a, 1), "path")),
			    "c1/??");
	json_decref(a);
	lg_run_clear(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_layout, setup_img),
		cmocka_unit_test_setup(test_aligned_round_trip, setup_img),
		cmocka_unit_test_setup(test_unaligned_round_trip, setup_img),
		cmocka_unit_test_setup(test_partial_overlap, setup_img),
		cmocka_unit_test_setup(test_flipped_payload_byte, setup_img),
		cmocka_unit_test_setup(test_wrong_offset, setup_img),
		cmocka_unit_test_setup(test_wrong_client, setup_img),
		cmocka_unit_test_setup(test_garbage_without_magic, setup_img),
		cmocka_unit_test_setup(test_checksum_field_only, setup_img),
		cmocka_unit_test_setup(test_informational_fields, setup_img),
		cmocka_unit_test_setup(test_zero_skipped, setup_img),
		cmocka_unit_test(test_state_and_bind),
		cmocka_unit_test_setup(test_peer_writer, setup_img),
		cmocka_unit_test_setup(test_peer_record_and_stale, setup_img),
		cmocka_unit_test(test_record_and_merge),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_notes_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
