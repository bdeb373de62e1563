/* Small containers of the strace converter: growable strings, YAML quoting, and an
 * open-addressing hash table keyed by byte strings (linear probing, kept at most half
 * full, never shrunk: the converter only adds). */
#include "trace_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/hash.h"

int tr_put(struct tr_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		if (!(p = realloc(b->p, cap)))
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

int tr_puts(struct tr_buf *b, const char *s)
{
	return tr_put(b, s, strlen(s));
}

int tr_printf(struct tr_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof(small))
		return tr_put(b, small, (size_t)n);
	{
		char *big = malloc((size_t)n + 1);
		int rc;

		if (!big)
			return -1;
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		rc = tr_put(b, big, (size_t)n);
		free(big);
		return rc;
	}
}

int tr_quote(struct tr_buf *b, const char *s, size_t n)
{
	int rc = tr_put(b, "\"", 1);

	for (size_t i = 0; !rc && i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			rc = tr_printf(b, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			rc = tr_printf(b, "\\x%02x", c);
		else
			rc = tr_put(b, (const char *)&s[i], 1);
	}
	return rc ? rc : tr_put(b, "\"", 1);
}

static int grow(struct tr_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct tr_ent *e = calloc(cap, sizeof(*e));

	if (!e)
		return -1;
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->e[i].key)
			continue;
		for (j = m->e[i].h & (cap - 1); e[j].key; j = (j + 1) & (cap - 1))
			;
		e[j] = m->e[i];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
	return 0;
}

void **tr_map_at(struct tr_map *m, const void *key, size_t klen, bool make, bool *nomem)
{
	uint64_t h = lg_hash_bytes(LG_HASH_INIT, key, klen);
	size_t j;

	if (m->cap) {
		for (j = h & (m->cap - 1); m->e[j].key; j = (j + 1) & (m->cap - 1))
			if (m->e[j].h == h && m->e[j].klen == klen && !memcmp(m->e[j].key, key, klen))
				return &m->e[j].val;
	}
	if (!make)
		return NULL;
	if ((m->n + 1) * 2 > m->cap && grow(m))
		goto nomem;
	for (j = h & (m->cap - 1); m->e[j].key; j = (j + 1) & (m->cap - 1))
		;
	if (!(m->e[j].key = malloc(klen + 1)))
		goto nomem;
	memcpy(m->e[j].key, key, klen);
	m->e[j].key[klen] = '\0';
	m->e[j].klen = klen;
	m->e[j].h = h;
	m->e[j].val = NULL;
	m->n++;
	return &m->e[j].val;
nomem:
	*nomem = true;
	return NULL;
}

void tr_map_free(struct tr_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->e[i].key);
	free(m->e);
	m->e = NULL;
	m->cap = m->n = 0;
}
