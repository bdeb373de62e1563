/* --verify's corruption notes as the result shows them: what a block should have been
 * and what was read, and who wrote and who read it.
 *
 * A note holds the writer's global id (the reader's own for its own files, its peer's
 * for ${peer} files); the reader is the client whose stats hold the note. Their ranks
 * and hosts are not in the note: a client's rank is its id / clients per rank, and the
 * hosts of the ranks are in run->multi, which only rank 0 has once it gathered them. */
#include "result_summary.h"

#include <inttypes.h>
#include <stdio.h>

#include "loadgen/counters/ranks.h"
#include "loadgen/model/errnames.h"

#define I(x) ((json_int_t)(x))

void lg_corruption_describe(const struct lg_corruption_note *n, char *expected,
			    size_t elen, char *found, size_t flen)
{
	if (n->reason == LG_CORRUPT_STALE) {
		snprintf(expected, elen, "client %" PRIu32 "'s file", n->writer);
		snprintf(found, flen, "%s", lg_errno_name(n->err));
		return;
	}
	snprintf(expected, elen, "client %" PRIu32 ", offset %" PRIu64 ", xxh64 0x%016" PRIx64,
		 n->writer, n->offset, n->expected_hash);
	if (n->found_magic)
		snprintf(found, flen, "client %" PRIu32 ", offset %" PRIu64 ", xxh64 0x%016" PRIx64,
			 n->found_client, n->found_offset, n->found_hash);
	else
		snprintf(found, flen, "no loadgen header, xxh64 0x%016" PRIx64, n->found_hash);
}

void lg_run_client_place(const struct lg_run *run, unsigned id, unsigned *rank,
			 const char **host)
{
	const struct lg_multi *m = run->multi;

	*rank = 0;
	*host = NULL;
	if (!m || !m->per_rank)
		return;
	*rank = id / m->per_rank;
	if (*rank < m->nranks && m->ranks)
		*host = m->ranks[*rank].host;
}

/* A path as JSON: a name need not be UTF-8 (and a kept tail may cut a character), so
 * one jansson would refuse has every non-ASCII byte made '?' rather than losing the
 * document. NULL only when out of memory. */
static json_t *path_json(const char *path)
{
	char buf[LG_CORRUPT_PATH];

	if (lg_utf8_valid(path))
		return json_string(path);
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	return json_string(buf);
}

/* {client, rank, host} of client id (host null on one host). */
static json_t *place_json(const struct lg_run *run, unsigned id)
{
	unsigned rank;
	const char *host;

	lg_run_client_place(run, id, &rank, &host);
	return json_pack("{s:I, s:I, s:o}", "client", I(id), "rank", I(rank),
			 "host", host && lg_utf8_valid(host) ? json_string(host) : json_null());
}

static json_t *corruption_json(const struct lg_run *run, unsigned client,
			       const struct lg_corruption_note *n)
{
	char exp[96], found[96];
	const char *type = run->type_names && n->type < run->ntypes ?
				   run->type_names[n->type] : NULL;

	lg_corruption_describe(n, exp, sizeof(exp), found, sizeof(found));
	return json_pack("{s:I, s:o, s:I, s:I, s:o, s:s, s:s, s:s, s:I, s:I, s:I, s:o, s:o}",
			 "client", I(client), "path", path_json(n->path),
			 "offset", I(n->offset), "line", I(n->line),
			 "type", type ? path_json(type) : json_null(),
			 "reason", lg_corruption_reason_name(n->reason),
			 "expected", exp, "found", found,
			 "bad_offset", I(n->bad_offset), "expected_byte", I(n->expected_byte),
			 "found_byte", I(n->found_byte), "writer", place_json(run, n->writer),
			 "reader", place_json(run, client));
}

json_t *lg_corruption_notes_json(const struct lg_run *run)
{
	json_t *a = json_array();

	for (unsigned c = 0; a && run->clients && c < run->nclients; c++) {
		const struct lg_client_stats *cs = run->clients[c];

		for (size_t k = 0; a && cs && k < cs->ncorrupt && k < LG_CORRUPT_NOTES; k++) {
			if (json_array_append_new(a, corruption_json(run, cs->id, &cs->corrupt[k]))) {
				json_decref(a);
				a = NULL;
			}
		}
	}
	return a;
}
