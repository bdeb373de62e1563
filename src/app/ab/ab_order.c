/* loadgen ab's schedule: the order in which the variants run in each round.
 *
 * Unseeded, the rounds follow a Williams design: a Latin square (round r runs the first
 * row shifted by r), so over k rounds each of the k variants takes each position once,
 * and whatever the machine does to the first or last run of a round falls on every
 * variant alike. Its first row, 0 1 k-1 2 k-2 ..., also balances what comes just before:
 * with an even k each variant follows every other exactly once in k rounds; with an odd
 * k the rounds k..2k-1 run the rows reversed, which balances it over 2k rounds. For two
 * variants this is A B, B A, A B, ... With a seed, each round is a shuffle of its own. */
#include "loadgen/app/ab.h"

/* splitmix64: a small, well-mixed generator for the shuffled order. */
static uint64_t mix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Entry pos of the Williams square's first row for k variants: 0, 1, k-1, 2, k-2, ... */
static size_t first_row(size_t k, size_t pos)
{
	return pos % 2 ? (pos + 1) / 2 : (k - pos / 2) % k;
}

static void balanced(size_t nvar, size_t round, size_t *order)
{
	bool mirror = nvar % 2 && round / nvar % 2;

	for (size_t pos = 0; pos < nvar; pos++) {
		size_t at = mirror ? nvar - 1 - pos : pos;

		order[pos] = (first_row(nvar, at) + round) % nvar;
	}
}

static void shuffled(size_t nvar, size_t round, uint64_t seed, size_t *order)
{
	uint64_t s = seed ^ (0xa0761d6478bd642fULL * (round + 1));

	for (size_t i = 0; i < nvar; i++)
		order[i] = i;
	for (size_t i = nvar - 1; i > 0; i--) { /* Fisher-Yates */
		size_t j = (size_t)(mix64(&s) % (i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

void lg_ab_order(size_t nvar, size_t round, uint64_t seed, size_t *order)
{
	if (seed)
		shuffled(nvar, round, seed, order);
	else
		balanced(nvar, round, order);
}
