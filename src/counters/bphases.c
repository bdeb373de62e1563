/* Phases between barriers over a whole run: sums of the clients' rows (bphases.h). */
#include "bphases.h"

#include <math.h>
#include <string.h>

#include "loadgen/model/clock.h"

#define I(x) ((json_int_t)(x))

/* Whether the first phase is empty in every client: the run phase opens with a
 * barrier, so there is nothing before it to show. */
static bool first_empty(const struct lg_run *run)
{
	if (run->agg)
		return !(run->agg->nbphases && run->agg->bphase[0].ops) && run->nbphases > 1;
	for (unsigned c = 0; c < run->nclients; c++)
		if (run->clients[c] && run->clients[c]->nbphases && run->clients[c]->bphase[0].ops)
			return false;
	return run->nbphases > 1;
}

size_t lg_run_bphases(const struct lg_run *run, struct lg_bphase_sum *out)
{
	size_t n = 0;

	if (!run->nbphases || (!run->clients && !run->agg))
		return 0;
	for (size_t p = first_empty(run) ? 1 : 0; p < run->nbphases; p++) {
		struct lg_bphase_sum *s = &out[n++];
		uint64_t lo = UINT64_MAX, hi = 0;

		*s = (struct lg_bphase_sum){ .name = run->bphases[p].name };
		/* the clients' rows, or the block the ranks reduced them into */
		for (unsigned c = 0; c < (run->agg ? 1 : run->nclients); c++) {
			const struct lg_client_stats *cs = run->agg ? run->agg : run->clients[c];
			const struct lg_bphase_stats *b;

			if (!cs || p >= cs->nbphases)
				continue;
			b = &cs->bphase[p];
			s->items += b->items;
			s->ops += b->ops;
			s->bytes += b->bytes;
			s->clients += run->agg ? b->clients : 1;
			lo = b->start_ns < lo ? b->start_ns : lo;
			hi = b->end_ns > hi ? b->end_ns : hi;
		}
		if (s->clients) {
			s->start_s = (double)lo / LG_NS_PER_SEC;
			s->end_s = (double)hi / LG_NS_PER_SEC;
			s->span_s = (double)(hi - lo) / LG_NS_PER_SEC;
		}
	}
	return n;
}

double lg_bphase_rate(const struct lg_bphase_sum *s, uint64_t n)
{
	double r = s->span_s > 0 ? (double)n / s->span_s : 0;

	return isfinite(r) ? r : 0;
}

json_t *lg_bphases_json(const struct lg_run *run)
{
	struct lg_bphase_sum s[LG_BARRIER_PHASES_MAX];
	size_t n = lg_run_bphases(run, s);
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_pack(
			    "{s:s, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f}",
			    "name", s[i].name, "items", I(s[i].items), "ops", I(s[i].ops),
			    "bytes", I(s[i].bytes), "clients", I(s[i].clients),
			    "start_s", s[i].start_s, "end_s", s[i].end_s, "span_s", s[i].span_s,
			    "items_per_s", lg_bphase_rate(&s[i], s[i].items),
			    "ops_per_s", lg_bphase_rate(&s[i], s[i].ops),
			    "mbps", lg_bphase_rate(&s[i], s[i].bytes) / 1e6))) {
			json_decref(a);
			a = NULL;
		}
	return a;
}

json_t *lg_client_bphases_json(const struct lg_run *run, const struct lg_client_stats *cs)
{
	json_t *a = json_array();

	for (uint32_t p = first_empty(run) ? 1 : 0; a && p < cs->nbphases; p++) {
		const struct lg_bphase_stats *b = &cs->bphase[p];

		if (json_array_append_new(a, json_pack(
			    "{s:s, s:f, s:f, s:I, s:I, s:I}", "name", run->bphases[p].name,
			    "start_s", (double)b->start_ns / LG_NS_PER_SEC,
			    "end_s", (double)b->end_ns / LG_NS_PER_SEC, "ops", I(b->ops),
			    "items", I(b->items), "bytes", I(b->bytes)))) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}
