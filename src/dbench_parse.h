/* The lexical half of the dbench loader (dbench_load.c): a line split into fields in
 * one pass, numbers read without strtoull, and small hash maps that remember what a
 * field already compiled to (a path token -> its path index, a handle number -> its
 * slot), so each of client.txt's 458,000 lines costs a few hundred nanoseconds.
 * Private to the loader; no errors of its own to format: it returns negative errnos
 * and the loader words the message. */
#ifndef LOADGEN_DBENCH_PARSE_H
#define LOADGEN_DBENCH_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define LG_DBENCH_MAX_FIELDS 16 /* fields on one line; dbench's ops have at most 7 */
#define LG_DBENCH_SMALL_KEYS 65536 /* number keys held in a direct array */

/* One line split into fields. */
struct lg_dbench_line {
	char *tok[LG_DBENCH_MAX_FIELDS]; /* the fields, NUL-terminated, in the caller's
					    scratch buffer */
	uint32_t len[LG_DBENCH_MAX_FIELDS]; /* their lengths in bytes */
	unsigned n;                      /* fields found */
};

/* One entry of a map. */
struct lg_dbench_entry {
	uint64_t hash;  /* the key's hash with the low bit set; 0: an empty entry */
	uint64_t key;   /* a number key, or a string key's offset in the map's arena */
	uint32_t klen;  /* a string key's length (0 for number keys) */
	uint32_t v[2];  /* what the key compiled to */
};

/* An open-addressing hash map from a string or a number to two uint32 values. Each map
 * holds one kind of key. Zero-initialised is empty; lg_dbench_map_free frees it. */
struct lg_dbench_map {
	struct lg_dbench_entry *e; /* cap entries (owned), at most half of them used */
	size_t cap;                /* power of two, or 0 before the first insert */
	size_t n;                  /* entries used */
	char *arena;               /* string keys, back to back (owned) */
	uint32_t *small;           /* number keys below LG_DBENCH_SMALL_KEYS: value + 1,
				      0 when absent (owned; allocated by the first) */
	size_t arena_len, arena_cap;
};

/* Split [p, end) into l: fields separated by blanks (space, tab, CR), double quotes
 * removed (they group blanks into a field), as dbench's next_token does. scratch holds
 * (end - p) + LG_DBENCH_MAX_FIELDS + 1 bytes: the fields and their NULs, plus room for
 * the eight-byte copies, which may write up to 7 bytes past a field's end (never past
 * that size) before its NUL goes there. Returns 0, -E2BIG past
 * LG_DBENCH_MAX_FIELDS fields, -EINVAL for a NUL byte in the line. */
int lg_dbench_split(const char *p, const char *end, char *scratch, struct lg_dbench_line *l);

/* tok as a number the way dbench reads it (strtoll base 0: decimal, 0x hex, leading-0
 * octal), but strictly: no sign, no trailing text. Returns 0, -ENOTSUP for dbench's
 * random or relative arguments ('*', '+'), -EINVAL for what is not a number, -ERANGE
 * past 64 bits. Decimal without a leading zero is read in place. */
int lg_dbench_number(const char *tok, uint64_t *out);

/* Hash of the len bytes at s (eight at a time): the hash the string maps take. */
uint64_t lg_dbench_hash(const char *s, size_t len);

/* The values of string key s (len bytes, hash h from lg_dbench_hash) into v. Returns 0,
 * or -ENOENT when the key is not in the map. */
int lg_dbench_map_get(const struct lg_dbench_map *m, const char *s, size_t len, uint64_t h,
		      uint32_t v[2]);
/* Add string key s (not in the map yet) with values v. 0 or -ENOMEM. */
int lg_dbench_map_put(struct lg_dbench_map *m, const char *s, size_t len, uint64_t h,
		      const uint32_t v[2]);
/* The same for number keys, with one value. Keys below LG_DBENCH_SMALL_KEYS (dbench's
 * handles are) index an array: neighbouring handles share a cache line. */
int lg_dbench_map_get_num(const struct lg_dbench_map *m, uint64_t key, uint32_t *v);
int lg_dbench_map_put_num(struct lg_dbench_map *m, uint64_t key, uint32_t v);
/* Free what the map holds and empty it. */
void lg_dbench_map_free(struct lg_dbench_map *m);

#endif
