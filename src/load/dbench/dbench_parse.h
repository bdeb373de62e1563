/* The lexical half of the dbench loader (dbench_load.c): a line split in place into
 * fields in one pass, numbers read by length without strtoull, and small hash maps that
 * remember what a field already compiled to (a path token -> its path index, a handle
 * number -> its slot), so each of client.txt's 458,000 lines costs about a hundred
 * nanoseconds.
 * Private to the loader; no errors of its own to format: it returns negative errnos
 * and the loader words the message. */
#ifndef LOADGEN_DBENCH_PARSE_H
#define LOADGEN_DBENCH_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LG_DBENCH_MAX_FIELDS 16 /* fields on one line; dbench's ops have at most 7 */
#define LG_DBENCH_SMALL_KEYS 65536 /* number keys held in a direct array */

/* One line split into fields. */
struct lg_dbench_line {
	const char *tok[LG_DBENCH_MAX_FIELDS]; /* the fields: spans of the loadfile's text, or
						  NUL-terminated copies in a scratch
						  buffer (see terminated) */
	uint32_t len[LG_DBENCH_MAX_FIELDS]; /* their lengths in bytes */
	unsigned n;                      /* fields found */
	bool terminated;                 /* every field is a NUL-terminated copy */
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

/* lg_dbench_split's answer for a line only lg_dbench_split_copy can split. */
#define LG_DBENCH_SPLIT_COPY 1

/* Split the line that starts at p -- up to the first '\n' before end, or end, which
 * *eol is set to -- into fields of l, in place: fields are separated by blanks (space,
 * tab, CR), and double quotes are removed and group blanks into a field, as dbench's
 * next_token does. A field quoted as a whole ("a b") is the span between its quotes.
 * Returns 0, -E2BIG past LG_DBENCH_MAX_FIELDS fields, or LG_DBENCH_SPLIT_COPY for a line
 * with a quote inside a field (a"b c"d) or a NUL byte: lg_dbench_split_copy splits it. */
int lg_dbench_split(const char *p, const char *end, struct lg_dbench_line *l,
		    const char **eol);

/* Split [p, eol) like lg_dbench_split, copying each field to scratch without its quotes
 * and with a NUL after it. scratch holds (eol - p) + LG_DBENCH_MAX_FIELDS + 1 bytes.
 * Returns 0, -E2BIG past LG_DBENCH_MAX_FIELDS fields, -EINVAL for a NUL byte. */
int lg_dbench_split_copy(const char *p, const char *eol, char *scratch,
			 struct lg_dbench_line *l);

/* Copy l's fields, NUL-terminated, to scratch (which holds the line's length + 1 bytes)
 * and point l at the copies: for what needs C strings (messages, conversions of a field
 * seen for the first time). Nothing when l->terminated already. */
void lg_dbench_terminate(struct lg_dbench_line *l, char *scratch);

/* The len bytes at s as a number the way dbench reads them (strtoll base 0: decimal,
 * 0x hex, leading-0 octal), but strictly: no sign, no blanks, no trailing text. Returns
 * 0, -ENOTSUP for dbench's random or relative arguments ('*', '+'), -EINVAL for what is
 * not a number, -ERANGE past 64 bits. */
int lg_dbench_number_any(const char *s, size_t len, uint64_t *out);

/* lg_dbench_number_any, with the common case inline: up to 19 decimal digits without a
 * leading zero (below 10^19, so no overflow to check). client.txt has 1.2 million
 * numbers. */
static inline int lg_dbench_number(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len - 1 >= 19 || (unsigned)(s[0] - '1') >= 9)
		return lg_dbench_number_any(s, len, out);
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9)
			return lg_dbench_number_any(s, len, out);
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

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
