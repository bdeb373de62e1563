/* Per-client counters and their merge into one run.
 *
 * A client only ever writes its own struct lg_client_stats (no locks, no atomics on the
 * hot path); the master merges them here once the clients have stopped, so nothing in
 * this file needs to be thread-safe. lg_errno_name/lg_errno_value live in errnames.c. */
#include "loadgen/counters/counters.h"
#include "loadgen/model/clock.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "loadgen/counters/client_dist.h"
#include "loadgen/counters/ranks.h"

size_t lg_client_stats_size(size_t ntypes, bool svc)
{
	size_t row = sizeof(struct lg_type_stats) + (svc ? sizeof(struct lg_histogram) : 0);

	if (ntypes > (SIZE_MAX - sizeof(struct lg_client_stats)) / row)
		return 0;
	return sizeof(struct lg_client_stats) + ntypes * row;
}

struct lg_client_stats *lg_client_stats_init(void *mem, unsigned id, size_t ntypes, bool svc)
{
	struct lg_client_stats *cs = mem;

	/* mem is all zero (see stats.h): write only what is not zero when empty, so the
	 * pages of buckets no op ever lands in are never touched (thousands of clients) */
	cs->id = id;
	cs->ntypes = ntypes;
	/* service-time rows follow the type rows in the same block */
	cs->svc = svc ? (struct lg_histogram *)&cs->types[ntypes] : NULL;
	for (size_t i = 0; i < ntypes; i++) {
		lg_histogram_init_zeroed(&cs->types[i].hist);
		if (cs->svc)
			lg_histogram_init_zeroed(&cs->svc[i]);
	}
	return cs;
}

int lg_client_stats_create(unsigned id, size_t ntypes, struct lg_client_stats **out)
{
	size_t size = lg_client_stats_size(ntypes, false);
	void *mem = size ? calloc(1, size) : NULL;

	if (!mem)
		return -ENOMEM;
	*out = lg_client_stats_init(mem, id, ntypes, false);
	return 0;
}

void lg_client_stats_reset(struct lg_client_stats *cs)
{
	cs->nnotes = 0;
	memset(cs->notes, 0, sizeof(cs->notes));
	memset(&cs->not_open, 0, sizeof(cs->not_open));
	cs->slow_count = cs->slow_total_ns = 0;
	memset(&cs->slowest, 0, sizeof(cs->slowest));
	cs->nslow = 0;
	memset(cs->slow, 0, sizeof(cs->slow));
	for (size_t i = 0; i < cs->ntypes; i++) {
		struct lg_type_stats *t = &cs->types[i];

		if (t->errors)
			memset(t->errnos, 0, sizeof(t->errnos));
		t->count = 0;
		t->errors = 0;
		memset(t->skipped, 0, sizeof(t->skipped));
		t->short_writes = 0;
		t->bytes_read = 0;
		t->bytes_written = 0;
		lg_histogram_clear(&t->hist);
		if (cs->svc)
			lg_histogram_clear(&cs->svc[i]);
	}
}

void lg_client_stats_destroy(struct lg_client_stats *cs)
{
	free(cs);
}

void lg_client_stats_sum(const struct lg_client_stats *cs, struct lg_histogram *hist,
			 uint64_t *ops, uint64_t *bytes)
{
	uint64_t n = 0, b = 0;

	lg_histogram_init(hist);
	for (size_t i = 0; i < cs->ntypes; i++) {
		const struct lg_type_stats *t = &cs->types[i];

		lg_histogram_add(hist, &t->hist);
		n += t->count;
		b += t->bytes_read + t->bytes_written;
	}
	if (ops)
		*ops = n;
	if (bytes)
		*bytes = b;
}

static void type_stats_add(struct lg_type_stats *dst, const struct lg_type_stats *src)
{
	dst->count += src->count;
	dst->errors += src->errors;
	for (size_t r = 0; r < LG_SKIP_REASONS; r++)
		dst->skipped[r] += src->skipped[r];
	dst->corruptions += src->corruptions;
	dst->short_writes += src->short_writes;
	dst->bytes_read += src->bytes_read;
	dst->bytes_written += src->bytes_written;
	for (size_t e = 0; src->errors && e < LG_ERRNO_MAX; e++)
		dst->errnos[e] += src->errnos[e];
	lg_histogram_add(&dst->hist, &src->hist);
}

/* Append notes src[0..ns) to dst (nd of them), as many as fit in cap. */
#define ADD_NOTES(dst, nd, src, ns, cap)                                       \
	for (size_t k_ = 0; k_ < (ns) && (nd) < (cap); k_++)                   \
		(dst)[(nd)++] = (src)[k_]

void lg_client_stats_add(struct lg_client_stats *dst, const struct lg_client_stats *src)
{
	for (size_t i = 0; i < dst->ntypes && i < src->ntypes; i++) {
		type_stats_add(&dst->types[i], &src->types[i]);
		if (dst->svc && src->svc)
			lg_histogram_add(&dst->svc[i], &src->svc[i]);
	}
	ADD_NOTES(dst->notes, dst->nnotes, src->notes, src->nnotes, LG_FIRST_ERRORS);
	ADD_NOTES(dst->slow, dst->nslow, src->slow, src->nslow, LG_SLOW_NOTES);
	ADD_NOTES(dst->corrupt, dst->ncorrupt, src->corrupt, src->ncorrupt, LG_CORRUPT_NOTES);
	dst->slow_count += src->slow_count;
	dst->slow_total_ns += src->slow_total_ns;
	if (src->slowest.lat_ns > dst->slowest.lat_ns)
		dst->slowest = src->slowest;
	dst->verified_bytes += src->verified_bytes;
	dst->peer_verified_bytes += src->peer_verified_bytes;
	if (!dst->not_open.set)
		dst->not_open = src->not_open;
	if (src->done_s > dst->done_s)
		dst->done_s = src->done_s;
	/* a phase of many clients: from the first start to the last end, their counts
	 * added (what lg_run_bphases makes of the clients' rows) */
	for (uint32_t p = 0; p < src->nbphases && p < LG_BARRIER_PHASES_MAX; p++) {
		struct lg_bphase_stats *d = &dst->bphase[p];
		const struct lg_bphase_stats *b = &src->bphase[p];

		if (p >= dst->nbphases || b->start_ns < d->start_ns)
			d->start_ns = b->start_ns;
		if (p >= dst->nbphases || b->end_ns > d->end_ns)
			d->end_ns = b->end_ns;
		d->ops += b->ops;
		d->items += b->items;
		d->bytes += b->bytes;
		d->clients += b->clients;
	}
	if (src->nbphases > dst->nbphases)
		dst->nbphases = src->nbphases;
	for (size_t p = 0; p < LG_UNTIMED_COUNT; p++) {
		struct lg_untimed_stats *d = &dst->untimed[p];
		const struct lg_untimed_stats *u = &src->untimed[p];

		d->errors += u->errors;
		for (size_t e = 0; e < LG_ERRNO_MAX; e++)
			d->errnos[e] += u->errnos[e];
		for (size_t r = 0; r < LG_SKIP_REASONS; r++)
			d->skipped[r] += u->skipped[r];
		ADD_NOTES(d->notes, d->nnotes, u->notes, u->nnotes, LG_FIRST_ERRORS);
		if (!d->not_open.set)
			d->not_open = u->not_open;
		if (!d->first_short.set)
			d->first_short = u->first_short;
		d->short_writes += u->short_writes;
	}
}

void lg_client_stats_finish(struct lg_client_stats *cs)
{
	cs->slowest.client = cs->id;
	for (uint32_t p = 0; p < cs->nbphases && p < LG_BARRIER_PHASES_MAX; p++)
		cs->bphase[p].clients = 1;
	lg_client_row_fill(cs);
}

void lg_client_row_latency(struct lg_client_row *r, const struct lg_histogram *h)
{
	r->min_ns = lg_histogram_percentile(h, 0);
	r->p50_ns = lg_histogram_percentile(h, 50);
	r->p90_ns = lg_histogram_percentile(h, 90);
	r->p99_ns = lg_histogram_percentile(h, 99);
	r->p999_ns = lg_histogram_percentile(h, 99.9);
	r->p9999_ns = lg_histogram_percentile(h, 99.99);
	r->max_ns = lg_histogram_percentile(h, 100);
	r->mean_ns = lg_histogram_mean(h);
	r->set = 1;
}

void lg_client_row_fill(struct lg_client_stats *cs)
{
	struct lg_client_row *r = &cs->row;
	struct lg_histogram *h;

	if (!cs->ntypes)
		return; /* received as a row: it is all there is */
	h = malloc(sizeof(*h)); /* ~20 KiB: not on the stack of a client thread */
	memset(r, 0, sizeof(*r));
	if (!h)
		return;
	lg_client_stats_sum(cs, h, &r->ops, &r->bytes);
	for (size_t i = 0; i < cs->ntypes; i++) {
		r->errors += cs->types[i].errors;
		for (unsigned k = 0; k < LG_SKIP_REASONS; k++)
			r->skipped += cs->types[i].skipped[k];
	}
	lg_client_row_latency(r, h);
	free(h);
}

/* Add a client's failures outside the measured phase, and --verify's bytes. */
static void merge_untimed(struct lg_run *run, const struct lg_client_stats *cs)
{
	run->verified_bytes += cs->verified_bytes;
	run->peer_verified_bytes += cs->peer_verified_bytes;
	for (size_t p = 0; p < LG_UNTIMED_COUNT; p++) {
		run->untimed_errors[p] += cs->untimed[p].errors;
		run->untimed_short[p] += cs->untimed[p].short_writes;
		for (size_t r = 0; r < LG_SKIP_REASONS; r++)
			run->untimed_skipped[p][r] += cs->untimed[p].skipped[r];
	}
}

/* Safe to call again (e.g. after more clients were attached): totals are rebuilt from
 * scratch. A client with fewer rows than the run contributes the rows it has; rows past
 * run->ntypes have no label and are ignored. NULL client slots are skipped. */
/* Merged service-time rows of the clients that have them, or NULL (no -ENOMEM: *rc). */
static struct lg_histogram *merge_svc(const struct lg_run *run, int *rc)
{
	struct lg_histogram *svc = NULL;

	for (unsigned c = 0; c < run->nclients; c++) {
		const struct lg_client_stats *cs = run->clients ? run->clients[c] : NULL;
		size_t n;

		if (!cs || !cs->svc)
			continue;
		if (!svc) {
			svc = malloc((run->ntypes ? run->ntypes : 1) * sizeof(*svc));
			if (!svc) {
				*rc = -ENOMEM;
				return NULL;
			}
			for (size_t i = 0; i < run->ntypes; i++)
				lg_histogram_init(&svc[i]);
		}
		n = cs->ntypes < run->ntypes ? cs->ntypes : run->ntypes;
		for (size_t i = 0; i < n; i++)
			lg_histogram_add(&svc[i], &cs->svc[i]);
	}
	return svc;
}

int lg_run_merge(struct lg_run *run)
{
	struct lg_type_stats *totals = NULL;
	int rc = 0;

	if (run->ntypes) {
		totals = calloc(run->ntypes, sizeof(*totals));
		if (!totals)
			return -ENOMEM;
	}
	for (size_t i = 0; i < run->ntypes; i++)
		lg_histogram_init(&totals[i].hist);
	/* the clients, or the block the ranks reduced them into (run->agg) */
	for (unsigned c = 0; c < (run->agg ? 1 : run->nclients); c++) {
		const struct lg_client_stats *cs = run->agg ? run->agg
					     : run->clients ? run->clients[c] : NULL;
		size_t n;

		if (!cs)
			continue;
		n = cs->ntypes < run->ntypes ? cs->ntypes : run->ntypes;
		for (size_t i = 0; i < n; i++)
			type_stats_add(&totals[i], &cs->types[i]);
	}
	free(run->totals);
	run->totals = totals;
	free(run->svc_totals);
	run->svc_totals = merge_svc(run, &rc);
	for (unsigned c = 0; run->clients && c < run->nclients; c++)
		if (run->clients[c] && run->clients[c]->ntypes)
			lg_client_stats_finish(run->clients[c]);
	lg_histogram_init(&run->all);
	run->ops = run->errors = run->bytes_read = run->bytes_written = 0;
	run->corruptions = run->verified_bytes = run->peer_verified_bytes = 0;
	memset(run->skipped, 0, sizeof(run->skipped));
	memset(run->untimed_errors, 0, sizeof(run->untimed_errors));
	memset(run->untimed_skipped, 0, sizeof(run->untimed_skipped));
	memset(run->untimed_short, 0, sizeof(run->untimed_short));
	run->short_writes = 0;
	if (run->agg)
		merge_untimed(run, run->agg);
	for (unsigned c = 0; !run->agg && c < run->nclients; c++)
		if (run->clients && run->clients[c])
			merge_untimed(run, run->clients[c]);
	for (size_t i = 0; i < run->ntypes; i++) {
		lg_histogram_add(&run->all, &totals[i].hist);
		run->ops += totals[i].count;
		run->errors += totals[i].errors;
		run->bytes_read += totals[i].bytes_read;
		run->bytes_written += totals[i].bytes_written;
		run->corruptions += totals[i].corruptions;
		run->short_writes += totals[i].short_writes;
		for (size_t r = 0; r < LG_SKIP_REASONS; r++)
			run->skipped[r] += totals[i].skipped[r];
	}
	return rc;
}

bool lg_run_has_failures(const struct lg_run *run)
{
	uint64_t n = run->skipped[LG_SKIP_NOT_OPEN];

	for (size_t p = 0; p < LG_UNTIMED_COUNT; p++)
		n += run->untimed_errors[p] + run->untimed_skipped[p][LG_SKIP_NOT_OPEN];
	return n > 0 || run->status == LG_RUN_FAILED;
}

const char *lg_untimed_name(unsigned phase)
{
	static const char *const names[] = {
		[LG_UNTIMED_SETUP] = "setup",
		[LG_UNTIMED_WARMUP] = "warmup",
		[LG_UNTIMED_CLEANUP] = "cleanup",
	};

	return phase < LG_UNTIMED_COUNT ? names[phase] : "?";
}

const char *lg_skip_reason_name(unsigned reason)
{
	static const char *const names[] = {
		[LG_SKIP_PREV] = "prev_offset",
		[LG_SKIP_NOT_OPEN] = "not_open",
		[LG_SKIP_CUT_OFF] = "cut_off",
	};

	return reason < LG_SKIP_REASONS ? names[reason] : "?";
}

const char *lg_slot_event_name(unsigned event)
{
	static const char *const names[] = {
		[LG_SLOT_NEVER] = "never opened",
		[LG_SLOT_OPEN_FAILED] = "open failed",
		[LG_SLOT_CLOSED] = "closed",
	};

	return event < sizeof(names) / sizeof(names[0]) ? names[event] : "?";
}


const char *lg_corruption_reason_name(unsigned reason)
{
	static const char *const names[] = {
		[LG_CORRUPT_NO_HEADER] = "no loadgen header",
		[LG_CORRUPT_CLIENT] = "written by another client",
		[LG_CORRUPT_OFFSET] = "written for another offset",
		[LG_CORRUPT_PAYLOAD] = "payload differs",
		[LG_CORRUPT_CHECKSUM] = "checksum field differs",
		[LG_CORRUPT_STALE] = "stale metadata",
	};

	return reason < sizeof(names) / sizeof(names[0]) ? names[reason] : "unknown";
}

int lg_run_add_interval(struct lg_run *run, const struct lg_interval *iv)
{
	if (run->ntimeline == run->cap_timeline) {
		size_t cap = run->cap_timeline ? 2 * run->cap_timeline : 64;
		struct lg_interval *t;

		if (cap > SIZE_MAX / sizeof(*t))
			return -ENOMEM;
		t = realloc(run->timeline, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		run->timeline = t;
		run->cap_timeline = cap;
	}
	run->timeline[run->ntimeline++] = *iv;
	return 0;
}

void lg_run_lose_ranks(struct lg_run *run, unsigned nclients, struct lg_lost_rank *lost,
		       size_t n)
{
	double t = run->ntimeline ? run->timeline[run->ntimeline - 1].t_s : -1;

	run->status = LG_RUN_PARTIAL;
	run->lost_ranks = lost;
	run->nlost_ranks = n;
	for (size_t i = 0; i < n; i++)
		lost[i].time_s = t;
	/* rows this rank may hold already are its own clients' only: dropped, not freed
	 * (they may be in the engine's mapping, and the process is about to leave) */
	run->clients = NULL;
	run->nclients = nclients;
	run->nthreads = 0;
	free(run->totals);
	free(run->svc_totals);
	run->totals = NULL;
	run->svc_totals = NULL;
	run->ntypes = 0;
	lg_histogram_init(&run->all);
	run->ops = run->errors = run->bytes_read = run->bytes_written = 0;
	run->short_writes = run->corruptions = run->verified_bytes = 0;
	run->peer_verified_bytes = 0;
	memset(run->skipped, 0, sizeof(run->skipped));
	for (size_t k = 0; k < run->ntimeline; k++) {
		const struct lg_interval *iv = &run->timeline[k];

		run->ops += iv->ops;
		run->bytes_read += iv->bytes_read;
		run->bytes_written += iv->bytes_written;
		if (iv->max_latency_ns > run->all.max_ns) /* maxed over every rank */
			run->all.max_ns = iv->max_latency_ns;
	}
	run->duration_s = t > 0 ? t : 0;
	run->end_sync_s = 0;
}

void lg_run_clear(struct lg_run *run)
{
	if (!run)
		return;
	if (run->clients && !run->shm)
		for (unsigned c = 0; c < run->nclients; c++)
			lg_client_stats_destroy(run->clients[c]);
	if (run->shm)
		munmap(run->shm, run->shm_len);
	free(run->clients);
	free(run->agg);
	free(run->dist);
	run->agg = NULL;
	run->dist = NULL;
	free(run->totals);
	free(run->svc_totals);
	free(run->timeline);
	free(run->lost);
	free(run->lost_ranks);
	run->lost_ranks = NULL;
	run->nlost_ranks = 0;
	if (run->failure_owned)
		free((void *)run->failure);
	run->failure = NULL;
	run->failure_owned = false;
	lg_multi_destroy(run->multi);
	run->multi = NULL;
	run->lost = NULL;
	run->nlost = 0;
	run->clients = NULL;
	run->nclients = 0;
	run->totals = NULL;
	run->svc_totals = NULL;
	run->timeline = NULL;
	run->ntimeline = run->cap_timeline = 0;
	run->shm = NULL;
	run->shm_len = 0;
}

/* Idle intervals: a stretch of consecutive ones counts as one stall. */
static void idle_stalls(const struct lg_run *run, struct lg_stalls *out)
{
	double run_len = 0, run_at = 0;

	for (size_t i = 0; i < run->ntimeline; i++) {
		const struct lg_interval *iv = &run->timeline[i];

		if (iv->ops) {
			run_len = 0;
			continue;
		}
		out->idle_intervals++;
		out->idle_s += iv->len_s;
		if (run_len == 0)
			run_at = iv->t_s - iv->len_s;
		run_len += iv->len_s;
		if (run_len > out->longest_idle_s) {
			out->longest_idle_s = run_len;
			out->longest_idle_at_s = run_at;
		}
	}
}

void lg_run_stalls(const struct lg_run *run, struct lg_stalls *out)
{
	memset(out, 0, sizeof(*out));
	idle_stalls(run, out);
	for (unsigned c = 0; c < (run->agg ? 1 : run->nclients); c++) {
		const struct lg_client_stats *cs = run->agg ? run->agg
					     : run->clients ? run->clients[c] : NULL;

		if (!cs || !cs->slow_count)
			continue;
		out->slow_ops += cs->slow_count;
		out->slow_total_s += (double)cs->slow_total_ns / LG_NS_PER_SEC;
		if (cs->slowest.lat_ns > out->slowest_ns) {
			out->slowest_ns = cs->slowest.lat_ns;
			out->slowest_at_s = (double)(cs->slowest.end_ns - run->t0_ns) / LG_NS_PER_SEC;
			out->slowest_client = cs->slowest.client;
			out->slowest_type = cs->slowest.type;
			out->slowest_line = cs->slowest.line;
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int lg_run_fairness(const struct lg_run *run, struct lg_fairness *out)
{
	bool bytes = run->bytes_read + run->bytes_written > 0;
	double *v, sum = 0, sq = 0;
	unsigned n = 0;

	if (run->dist) { /* no row per client: their distribution */
		lg_client_dist_fairness(run->dist, run->duration_s, bytes, out);
		return 0;
	}
	memset(out, 0, sizeof(*out));
	out->metric = bytes ? "throughput_mbps" : "ops_per_s";
	v = malloc((run->nclients ? run->nclients : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (unsigned c = 0; c < run->nclients; c++) {
		const struct lg_client_stats *cs = run->clients ? run->clients[c] : NULL;
		uint64_t ops, b;

		if (!cs)
			continue;
		if (cs->row.set || !cs->ntypes) {
			ops = cs->row.ops;
			b = cs->row.bytes;
		} else { /* a run not merged (lg_run_merge fills the rows) */
			struct lg_histogram *h = malloc(sizeof(*h));

			if (!h) {
				free(v);
				return -ENOMEM;
			}
			lg_client_stats_sum(cs, h, &ops, &b);
			free(h);
		}
		v[n] = (double)(bytes ? b : ops) / (run->duration_s > 0 ? run->duration_s : 1);
		if (bytes)
			v[n] /= 1e6;
		sum += v[n];
		sq += v[n] * v[n];
		n++;
	}
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		out->min = v[0];
		out->max = v[n - 1];
		out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		out->jain = sq > 0 ? sum * sum / ((double)n * sq) : 1;
	}
	free(v);
	return 0;
}
