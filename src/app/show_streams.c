/* `loadgen show` of a recorded program: what was captured, per stream, instead of its
 * text (an untarred kernel tree is a hundred thousand steps; nobody reads those).
 *
 * For each stream: its calls by op, the bytes its reads and writes move, its think time
 * and how often it waits for another stream; before them the provenance ('recorded')
 * and the input tree setup builds. */
#include "show_streams.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/clock.h"

/* Counts of one op list: calls by kind, bytes, waits. */
struct tally {
	uint64_t by_kind[LG_OP_KIND_COUNT];
	uint64_t bytes_read, bytes_written, afters, think_ns, calls;
};

static void tally(const struct lg_op *ops, size_t from, size_t to, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = from; i < to; i++) {
		const struct lg_op *op = &ops[i];
		uint64_t n = op->count ? op->count : 1;

		if (op->kind == LG_OP_AFTER)
			t->afters++;
		else if (op->kind == LG_OP_THINK)
			t->think_ns += op->size;
		if (op->kind >= LG_OP_LOOP)
			continue;
		t->by_kind[op->kind] += n;
		t->calls += n;
		if (op->kind == LG_OP_READ)
			t->bytes_read += n * op->size;
		else if (op->kind == LG_OP_WRITE)
			t->bytes_written += n * op->size;
	}
}

/* "open 12, read 40, ..." in the order of enum lg_op_kind. */
static void print_kinds(FILE *f, const struct tally *t)
{
	const char *sep = "";

	for (int k = 0; k < LG_OP_LOOP; k++)
		if (t->by_kind[k]) {
			fprintf(f, "%s%s %" PRIu64, sep, lg_op_kind_name(k), t->by_kind[k]);
			sep = ", ";
		}
	putc('\n', f);
}

void lg_show_streams(FILE *f, const struct lg_workload *wl)
{
	struct tally t;

	fprintf(f, "# %s: a recorded program of %zu stream%s\n", wl->name, wl->nstreams,
		wl->nstreams == 1 ? "" : "s");
	for (size_t i = 0; i < wl->nrecorded; i++)
		fprintf(f, "#   %-18s %s\n", wl->recorded[i].name, wl->recorded[i].value);
	tally(wl->ops[LG_PHASE_SETUP], 0, wl->nops[LG_PHASE_SETUP], &t);
	fprintf(f, "# setup (the input tree, per client): %" PRIu64 " directories, %" PRIu64
		" files of %.1f MiB, %" PRIu64 " symlinks; its calls: ", t.by_kind[LG_OP_MKDIR],
		t.by_kind[LG_OP_OPEN], (double)t.bytes_written / (1 << 20),
		t.by_kind[LG_OP_SYMLINK]);
	print_kinds(f, &t);
	for (size_t s = 0; s < wl->nstreams; s++) {
		const struct lg_stream *st = &wl->streams[s];

		tally(wl->ops[LG_PHASE_RUN], st->first, st->first + st->nops, &t);
		fprintf(f, "# stream %zu \"%s\": %" PRIu64 " calls, read %.1f MiB, wrote %.1f "
			"MiB, think %.3f s, waits for other streams %" PRIu64 "\n#   ", s + 1,
			st->name, t.calls, (double)t.bytes_read / (1 << 20),
			(double)t.bytes_written / (1 << 20), (double)t.think_ns / LG_NS_PER_SEC,
			t.afters);
		print_kinds(f, &t);
	}
	tally(wl->ops[LG_PHASE_RUN], 0, wl->nops[LG_PHASE_RUN], &t);
	fprintf(f, "# all streams: %" PRIu64 " calls: ", t.calls);
	print_kinds(f, &t);
	fprintf(f, "# 'loadgen -c %s N' replays it in N clients at once, each in its own "
		"directory; --replay-timing original keeps its think time.\n", wl->source);
}
