/* "Did you mean ...?" by edit distance (see include/loadgen/model/suggest.h).
 *
 * The distance is the optimal-string-alignment variant of Damerau-Levenshtein: the
 * usual three rows of dynamic programming, bounded by LG_SUGGEST_MAX_LEN so the rows
 * live on the stack. Words here are op names, keys, units and errno names: short, and
 * compared only on the error path, so quadratic time is nothing. */
#include "loadgen/model/suggest.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

static char fold(char ch)
{
	return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

unsigned lg_edit_distance(const char *a, const char *b, unsigned cap)
{
	unsigned rows[3][LG_SUGGEST_MAX_LEN + 1], *prev2 = rows[0], *prev = rows[1],
		*cur = rows[2];
	size_t la = strlen(a), lb = strlen(b);

	if (la > LG_SUGGEST_MAX_LEN || lb > LG_SUGGEST_MAX_LEN)
		return cap + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *t, low;

		cur[0] = (unsigned)i;
		low = cur[0];
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + sub);
			if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
			    fold(a[i - 2]) == fold(b[j - 1]) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
			if (cur[j] < low)
				low = cur[j];
		}
		if (low > cap) /* every later row is at least as far */
			return cap + 1;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb] > cap ? cap + 1 : prev[lb];
}

void lg_suggest_init(struct lg_suggest *s, const char *word)
{
	*s = (struct lg_suggest){ .word = word, .dist = UINT_MAX };
}

/* Edits allowed for a word of len characters. */
static unsigned limit(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

void lg_suggest_add(struct lg_suggest *s, const char *cand)
{
	unsigned d;

	if (!cand || !s->word || !*s->word || !strcmp(cand, s->word))
		return;
	d = lg_edit_distance(s->word, cand, limit(strlen(s->word)));
	if (d > limit(strlen(s->word)) || d > limit(strlen(cand)))
		return;
	if (d < s->dist) {
		s->best = cand;
		s->dist = d;
		s->ties = 0;
	} else if (d == s->dist && strcmp(cand, s->best) != 0) {
		s->ties++;
	}
}

void lg_suggest_add_all(struct lg_suggest *s, const char *const *cands)
{
	for (size_t i = 0; cands[i]; i++)
		lg_suggest_add(s, cands[i]);
}

const char *lg_suggest_best(const struct lg_suggest *s)
{
	return s->best;
}

const char *lg_suggest_hint(const char *word, const char *const *cands, char *buf,
			    size_t len)
{
	struct lg_suggest s;

	lg_suggest_init(&s, word);
	lg_suggest_add_all(&s, cands);
	if (len)
		buf[0] = '\0';
	if (s.best && len)
		snprintf(buf, len, "; did you mean '%s'?", s.best);
	return buf;
}
