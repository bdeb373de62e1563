/* The lexical half of the dbench loader: fields, numbers, and maps from a field to what
 * it compiled to. Written for the size of dbench's client.txt (26 MB, 458,000 lines):
 * one pass per line that looks only at the bytes that may end a field, fields and
 * numbers read where they are in the text, and every field that names something (a
 * path, a handle) hashed once and looked up in a map before any conversion, so a path
 * seen before costs one hash and one memcmp. */
#include "dbench_parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Byte classes of the splitters. */
enum { C_TEXT, C_BLANK, C_QUOTE, C_NUL, C_NL };

static const unsigned char byte_class[256] = {
	[' '] = C_BLANK, ['\t'] = C_BLANK, ['\r'] = C_BLANK, ['"'] = C_QUOTE, [0] = C_NUL,
	['\n'] = C_NL,
};

/* The bytes that may end a field, found a block at a time: a mask with a bit (or a
 * byte's top bit) for each byte below 0x23 -- blanks, '\n', '"' and NUL all are, and so
 * are the other control bytes and '!', which the class table then finds to be text.
 * SSE2 (every x86-64) takes sixteen bytes a step; elsewhere a 64-bit word takes eight
 * (LG_DBENCH_PORTABLE builds that path on x86-64 too, for its test). Past end, a block
 * is padded with 'x', which is text. */
#if defined(__SSE2__) && !defined(LG_DBENCH_PORTABLE)
#include <emmintrin.h>

#define STEP 16
#define BIT_SHIFT 0 /* the mask's bit i is byte i */

static uint64_t specials(const char *q, const char *end)
{
	char pad[STEP];
	__m128i x;

	if (end - q < STEP) {
		memset(pad, 'x', sizeof(pad));
		memcpy(pad, q, (size_t)(end - q));
		q = pad;
	}
	x = _mm_loadu_si128((const __m128i *)(const void *)q);
	/* x <= 0x22, unsigned: the smaller of x and 0x22 is x */
	return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x22)), x));
}
#else
#define STEP 8
#define BIT_SHIFT 3 /* the mask's bit 8i + 7 is byte i */
#define ONES UINT64_C(0x0101010101010101)
#define HIGH (ONES * 0x80)

/* Exact: no carry crosses a byte, since (b & 0x7f) + 0x5d < 0x100. */
static uint64_t specials(const char *q, const char *end)
{
	uint64_t w = ONES * 'x';

	if (end - q >= STEP)
		memcpy(&w, q, STEP);
	else
		memcpy(&w, q, (size_t)(end - q));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w); /* the first byte in the low bits */
#endif
	return ~(((w & ~HIGH) + ONES * (0x80 - 0x23)) | w) & HIGH;
}
#endif

/* Append the field [s, e) to l. */
static int add_field(struct lg_dbench_line *l, const char *s, const char *e)
{
	if (l->n == LG_DBENCH_MAX_FIELDS)
		return -E2BIG;
	l->tok[l->n] = s;
	l->len[l->n++] = (uint32_t)(e - s);
	return 0;
}

/* The line's end from p: its '\n', or end. */
static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

/* Whether a field may end at a closing quote followed by byte at (or the end). */
static bool ends_field(const char *at, const char *end)
{
	return at == end || byte_class[(unsigned char)*at] == C_BLANK ||
	       byte_class[(unsigned char)*at] == C_NL;
}

#define AT_EOL (LG_DBENCH_SPLIT_COPY + 1)

/* One special byte d of the line (start: where the next field may begin; quoted: inside
 * a field's quotes). Returns 0 to go on, AT_EOL, LG_DBENCH_SPLIT_COPY or -E2BIG. */
static int special(struct lg_dbench_line *l, const char *d, const char *end,
		   const char **start, bool *quoted)
{
	unsigned k = byte_class[(unsigned char)*d];

	if (k == C_BLANK) { /* the most common by far */
		if (*quoted)
			return 0;
		if (d > *start && add_field(l, *start, d))
			return -E2BIG;
		*start = d + 1;
		return 0;
	}
	if (k == C_NL)
		return AT_EOL;
	if (k == C_NUL)
		return LG_DBENCH_SPLIT_COPY;
	if (k != C_QUOTE) /* a control byte or '!': text */
		return 0;
	if (!*quoted) {
		if (d != *start) /* a quote inside a field */
			return LG_DBENCH_SPLIT_COPY;
		*quoted = true;
		*start = d + 1;
		return 0;
	}
	if (!ends_field(d + 1, end)) /* "a"b: the field goes on */
		return LG_DBENCH_SPLIT_COPY;
	*quoted = false;
	if (add_field(l, *start, d))
		return -E2BIG;
	*start = d + 1;
	return 0;
}

/* A block a step: the bytes that may end a field are found with a few vector or word
 * operations, and each is looked at once; the text between them is not touched. */
int lg_dbench_split(const char *p, const char *end, struct lg_dbench_line *l,
		    const char **eol)
{
	const char *start = p, *d;
	bool quoted = false;
	int rc = 0;

	l->n = 0;
	l->terminated = false;
	for (const char *q = p; q < end; q += STEP) {
		for (uint64_t m = specials(q, end); m; m &= m - 1) {
			d = q + ((unsigned)__builtin_ctzll(m) >> BIT_SHIFT);
			if ((rc = special(l, d, end, &start, &quoted)))
				goto out;
		}
	}
	d = end;
out:
	if (rc < 0 || rc == LG_DBENCH_SPLIT_COPY) {
		*eol = line_end(p, end);
		return rc;
	}
	*eol = d;
	/* the last field; an unclosed quote runs to the line's end */
	return (d > start || quoted) && add_field(l, start, d) ? -E2BIG : 0;
}

int lg_dbench_split_copy(const char *p, const char *eol, char *scratch,
			 struct lg_dbench_line *l)
{
	char *o = scratch;

	l->n = 0;
	l->terminated = true;
	for (;;) {
		bool quoted = false;
		char *start;

		while (p < eol && byte_class[(unsigned char)*p] == C_BLANK)
			p++;
		if (p == eol)
			return 0;
		if (l->n == LG_DBENCH_MAX_FIELDS)
			return -E2BIG;
		start = o;
		for (; p < eol; p++) {
			unsigned char k = byte_class[(unsigned char)*p];

			if (k == C_QUOTE)
				quoted = !quoted;
			else if (k == C_NUL)
				return -EINVAL;
			else if (k == C_BLANK && !quoted)
				break;
			else
				*o++ = *p;
		}
		l->tok[l->n] = start;
		l->len[l->n++] = (uint32_t)(o - start);
		*o++ = '\0';
	}
}

void lg_dbench_terminate(struct lg_dbench_line *l, char *scratch)
{
	if (l->terminated)
		return;
	for (unsigned i = 0; i < l->n; i++) {
		memcpy(scratch, l->tok[i], l->len[i]);
		scratch[l->len[i]] = '\0';
		l->tok[i] = scratch;
		scratch += l->len[i] + 1;
	}
	l->terminated = true;
}

/* The number in base (8 or 16) of the len digits at s. */
static int based_number(const char *s, size_t len, unsigned shift, uint64_t *out)
{
	uint64_t v = 0;

	if (!len)
		return -EINVAL;
	for (; len; s++, len--) {
		unsigned d = (unsigned)(*s - '0');

		if (d > 9)
			d = ((unsigned)*s | 0x20) - 'a' < 6 ? ((unsigned)*s | 0x20) - 'a' + 10 : 99;
		if (d >> shift)
			return -EINVAL;
		if (v > UINT64_MAX >> shift)
			return -ERANGE;
		v = v << shift | d;
	}
	*out = v;
	return 0;
}

int lg_dbench_number_any(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len && (*s == '*' || *s == '+'))
		return -ENOTSUP;
	if (!len || *s < '0' || *s > '9')
		return -EINVAL;
	if (len > 1 && s[0] == '0')
		return (s[1] | 0x20) == 'x' ? based_number(s + 2, len - 2, 4, out)
					    : based_number(s + 1, len - 1, 3, out);
	for (; len; s++, len--) {
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
