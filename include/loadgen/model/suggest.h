/* "Did you mean ...?": the closest known word to a misspelt one.
 *
 * Words are compared by their Damerau-Levenshtein distance (optimal string alignment:
 * insertions, deletions, substitutions and swaps of two neighbours each cost 1), with a
 * change of letter case costing nothing, so "Wirte" still finds "write". A candidate
 * is only proposed when it is close for the word's length (see lg_suggest_add), so a
 * word that is nothing like any candidate gets no suggestion rather than a silly one.
 *
 * Usage: init with the misspelt word, add every candidate, then read the best. No
 * allocation; words longer than LG_SUGGEST_MAX_LEN are never matched. */
#ifndef LOADGEN_SUGGEST_H
#define LOADGEN_SUGGEST_H

#include <stddef.h>

#define LG_SUGGEST_MAX_LEN 64 /* longest word compared (bytes) */

/* A search for the closest candidate to one word. */
struct lg_suggest {
	const char *word; /* the misspelt word (borrowed) */
	const char *best; /* closest candidate so far (borrowed), NULL for none */
	unsigned dist;    /* distance of best; UINT_MAX while there is none */
	unsigned ties;    /* other candidates as close as best: the match is ambiguous */
};

/* Distance between a and b, ignoring ASCII case; returns cap + 1 when it exceeds cap or
 * either word is longer than LG_SUGGEST_MAX_LEN. */
unsigned lg_edit_distance(const char *a, const char *b, unsigned cap);

/* Start a search for word (borrowed for the life of s). */
void lg_suggest_init(struct lg_suggest *s, const char *word);
/* Consider cand (borrowed; NULL ignored). It is kept if it is closer than every earlier
 * one and within the word's limit: 1 edit for words of up to 4 characters, 2 up to 8,
 * 3 beyond. A candidate equal to the word ignoring case always wins. */
void lg_suggest_add(struct lg_suggest *s, const char *cand);
/* Add each string of the NULL-terminated array cands. */
void lg_suggest_add_all(struct lg_suggest *s, const char *const *cands);
/* The suggestion, or NULL when no candidate is close enough. */
const char *lg_suggest_best(const struct lg_suggest *s);

/* Convenience: "; did you mean 'X'?" for the best of cands into buf, or "" when there
 * is none. Returns buf. */
const char *lg_suggest_hint(const char *word, const char *const *cands, char *buf,
			    size_t len);

#endif
