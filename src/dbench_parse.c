/* The lexical half of the dbench loader: fields, numbers, and maps from a field to what
 * it compiled to. Written for the size of dbench's client.txt (26 MB, 458,000 lines):
 * one pass per line with a byte-class table, numbers read in place, and every field
 * that names something (a path, a handle) hashed once and looked up in a map before
 * any conversion, so a path seen before costs one hash and one memcmp. */
#include "dbench_parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Byte classes of the splitter. */
enum { C_TEXT, C_BLANK, C_QUOTE, C_NUL };

static const unsigned char byte_class[256] = {
	[' '] = C_BLANK, ['\t'] = C_BLANK, ['\r'] = C_BLANK, ['"'] = C_QUOTE, [0] = C_NUL,
};

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Of eight bytes loaded from memory (little-endian), the 0x80 bits of those below
 * 0x23 -- space, tab, CR, '"' and NUL all are -- where the lowest set bit is exactly
 * the first such byte (higher ones may be false alarms). 0: eight bytes of text. */
static uint64_t special_bytes(uint64_t w)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);

	return (w - ones * 0x23) & ~w & ones * 0x80;
}
#define WORD_AT_A_TIME 1
#else
#define WORD_AT_A_TIME 0
#endif

/* Copy the text bytes at *p (before end) to *o, eight at a time where it can, up to the
 * first byte that may be special; scratch has room for the over-copy (see the header). */
static void copy_text(const char **p, const char *end, char **o)
{
	uint64_t w, m;

	while (WORD_AT_A_TIME && end - *p >= 8) {
		memcpy(&w, *p, 8);
		memcpy(*o, &w, 8);
#if WORD_AT_A_TIME
		m = special_bytes(w);
#else
		m = 1;
#endif
		if (m) {
			size_t i = (size_t)__builtin_ctzll(m) >> 3;

			*o += i;
			*p += i;
			return;
		}
		*o += 8;
		*p += 8;
	}
	while (*p < end && byte_class[(unsigned char)**p] == C_TEXT)
		*(*o)++ = *(*p)++;
}

int lg_dbench_split(const char *p, const char *end, char *scratch, struct lg_dbench_line *l)
{
	char *o = scratch;

	l->n = 0;
	for (;;) {
		bool quoted = false;
		char *start;

		while (p < end && byte_class[(unsigned char)*p] == C_BLANK)
			p++;
		if (p == end)
			return 0;
		if (l->n == LG_DBENCH_MAX_FIELDS)
			return -E2BIG;
		start = o;
		while (p < end) {
			unsigned char k;

			copy_text(&p, end, &o);
			if (p == end)
				break;
			k = byte_class[(unsigned char)*p];
			if (k == C_QUOTE)
				quoted = !quoted;
			else if (k == C_NUL)
				return -EINVAL;
			else if (k == C_BLANK && !quoted)
				break;
			else
				*o++ = *p;
			p++;
		}
		l->tok[l->n] = start;
		l->len[l->n++] = (uint32_t)(o - start);
		*o++ = '\0';
	}
}

static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f')
		return (ch | 0x20) - 'a' + 10;
	return -1;
}

/* 0x... in place. */
static int hex_number(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int d;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if ((d = hex_digit(*s)) < 0)
			return -EINVAL;
		if (v > UINT64_MAX >> 4)
			return -ERANGE;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* Leading-0 octal: rare enough for strtoull. */
static int octal_number(const char *tok, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(tok, &end, 8);
	if (errno == ERANGE)
		return -ERANGE;
	return errno || *end ? -EINVAL : 0;
}

int lg_dbench_number(const char *tok, uint64_t *out)
{
	uint64_t v = 0;

	if (*tok == '*' || *tok == '+')
		return -ENOTSUP;
	if (*tok < '0' || *tok > '9')
		return -EINVAL;
	if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
		return hex_number(tok + 2, out);
	if (tok[0] == '0' && tok[1])
		return octal_number(tok, out);
	for (const char *s = tok; *s; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (d > 9)
			return -EINVAL;
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))
			return -ERANGE;
	}
	*out = v;
	return 0;
}

uint64_t lg_dbench_hash(const char *s, size_t len)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325) ^ len, w;

	/* eight bytes a step (a multiply and a shift each), then the tail */
	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
	return (h ^ (h >> 32)) | 1;
}

/* A number key's hash (splitmix64's finaliser), never 0. */
static uint64_t hash_num(uint64_t x)
{
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return (x ^ (x >> 31)) | 1;
}

static bool same_key(const struct lg_dbench_map *m, const struct lg_dbench_entry *e,
		     const char *s, size_t len)
{
	return s ? e->klen == len && !memcmp(m->arena + e->key, s, len) : true;
}

/* The entry of key (string s/len, or number key when s is NULL) with hash h, or the
 * empty one where it would go. m->cap must not be 0. */
static struct lg_dbench_entry *slot_of(const struct lg_dbench_map *m, const char *s,
				       size_t len, uint64_t key, uint64_t h)
{
	size_t mask = m->cap - 1, i = (size_t)(h >> 7) & mask;

	for (;; i = (i + 1) & mask) {
		struct lg_dbench_entry *e = &m->e[i];

		if (!e->hash || (e->hash == h && (s ? same_key(m, e, s, len) : e->key == key)))
			return e;
	}
}

/* Room for one more entry: twice the entries when it would be over half full. */
static int grow(struct lg_dbench_map *m)
{
	struct lg_dbench_map n = *m;

	if ((m->n + 1) * 2 <= m->cap)
		return 0;
	n.cap = m->cap ? m->cap * 2 : 1024;
	n.e = calloc(n.cap, sizeof(*n.e));
	if (!n.e)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		size_t j = (size_t)(m->e[i].hash >> 7) & (n.cap - 1);

		if (!m->e[i].hash)
			continue;
		while (n.e[j].hash) /* keys are unique: the first empty entry is the one */
			j = (j + 1) & (n.cap - 1);
		n.e[j] = m->e[i];
	}
	free(m->e);
	*m = n;
	return 0;
}

int lg_dbench_map_get(const struct lg_dbench_map *m, const char *s, size_t len, uint64_t h,
		      uint32_t v[2])
{
	const struct lg_dbench_entry *e;

	if (!m->cap)
		return -ENOENT;
	e = slot_of(m, s, len, 0, h);
	if (!e->hash)
		return -ENOENT;
	v[0] = e->v[0];
	v[1] = e->v[1];
	return 0;
}

int lg_dbench_map_put(struct lg_dbench_map *m, const char *s, size_t len, uint64_t h,
		      const uint32_t v[2])
{
	struct lg_dbench_entry *e;

	if (len > UINT32_MAX || grow(m))
		return -ENOMEM;
	if (m->arena_len + len > m->arena_cap) {
		size_t cap = (m->arena_len + len) * 2 + 4096;
		char *a = realloc(m->arena, cap);

		if (!a)
			return -ENOMEM;
		m->arena = a;
		m->arena_cap = cap;
	}
	e = slot_of(m, s, len, 0, h);
	memcpy(m->arena + m->arena_len, s, len);
	*e = (struct lg_dbench_entry){ .hash = h, .key = m->arena_len, .klen = (uint32_t)len,
				       .v = { v[0], v[1] } };
	m->arena_len += len;
	m->n++;
	return 0;
}

int lg_dbench_map_get_num(const struct lg_dbench_map *m, uint64_t key, uint32_t *v)
{
	const struct lg_dbench_entry *e;

	if (key < LG_DBENCH_SMALL_KEYS) {
		if (!m->small || !m->small[key])
			return -ENOENT;
		*v = m->small[key] - 1;
		return 0;
	}
	if (!m->cap)
		return -ENOENT;
	e = slot_of(m, NULL, 0, key, hash_num(key));
	if (!e->hash)
		return -ENOENT;
	*v = e->v[0];
	return 0;
}

int lg_dbench_map_put_num(struct lg_dbench_map *m, uint64_t key, uint32_t v)
{
	struct lg_dbench_entry *e;
	uint64_t h = hash_num(key);

	if (key < LG_DBENCH_SMALL_KEYS && v < UINT32_MAX) {
		if (!m->small && !(m->small = calloc(LG_DBENCH_SMALL_KEYS, sizeof(*m->small))))
			return -ENOMEM;
		m->small[key] = v + 1;
		return 0;
	}
	if (grow(m))
		return -ENOMEM;
	e = slot_of(m, NULL, 0, key, h);
	*e = (struct lg_dbench_entry){ .hash = h, .key = key, .v = { v, v } };
	m->n++;
	return 0;
}

void lg_dbench_map_free(struct lg_dbench_map *m)
{
	free(m->e);
	free(m->arena);
	free(m->small);
	*m = (struct lg_dbench_map){ 0 };
}
