/* `loadgen compare` (and `loadgen history check`): who was busy beside one file's runs and
 * not beside the other's — "dd (9 processes, first pid 4121) wrote 2.7 GB during
 * busy.json's runs, nothing comparable in quiet.json".
 *
 * Each file's runs[].busy lists are added up by command name (kernel threads apart): the
 * bytes and CPU-s over every run, and the seconds the lists cover. A name is news on one
 * side when it is notable there (lg_busy_notable over that side's seconds) and the other
 * side did less than a tenth of it per second. A list holds only the top 5, so a name
 * missing from the other side may hide just below its smallest entry: the other side is
 * counted as its listed amount plus, for each of its runs whose list is full, the
 * smallest listed amount (an upper bound). Rates per second, not totals, since the two
 * files may hold different numbers of runs of different lengths. */
#include "loadgen/compare/compare_sys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/env/busy.h"

#define NOTES_PER_SIDE 5 /* names per side at most */
#define COMPARABLE 10    /* the other side's rate at 1/COMPARABLE of it or more: comparable */

/* One file's busy lists, by name. */
struct side {
	const char *name;            /* the file's name (borrowed) */
	double secs;                 /* seconds its runs' lists cover */
	size_t nruns;                /* runs with a "busy" */
	double io_floor, cpu_floor;  /* the smallest listed amount of each full list, summed
					over its runs (bytes, CPU-s) */
	struct lg_busy_group *v;     /* by name, over its runs (owned) */
	const char **comm;           /* v[i]'s name in the doc (borrowed) */
	size_t n, cap;               /* entries of v, room */
};

static double cpu_s(const struct lg_busy_group *g)
{
	return (double)g->tics / LG_BUSY_JSON_HZ;
}

/* The entry of side s named like g, or NULL. */
static struct lg_busy_group *find(const struct side *s, const struct lg_busy_group *g)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].kernel == g->kernel && strcmp(s->v[i].comm, g->comm) == 0)
			return &s->v[i];
	return NULL;
}

/* Add group g (of a run's list, its name comm in the doc) to side s. 0 or -ENOMEM. */
static int add(struct side *s, const struct lg_busy_group *g, const char *comm)
{
	struct lg_busy_group *t = find(s, g);

	if (!t) {
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 16;
			struct lg_busy_group *v = realloc(s->v, cap * sizeof(*v));
			const char **c = v ? realloc(s->comm, cap * sizeof(*c)) : NULL;

			s->v = v ? v : s->v;
			s->comm = c ? c : s->comm;
			if (!v || !c)
				return -ENOMEM;
			s->cap = cap;
		}
		s->comm[s->n] = comm;
		t = &s->v[s->n++];
		*t = *g;
		return 0;
	}
	for (unsigned i = t->processes, k = 0; i < LG_BUSY_PIDS && k < g->processes; i++, k++)
		t->pids[i] = g->pids[k];
	t->processes += g->processes;
	t->tics += g->tics;
	t->read_bytes += g->read_bytes;
	t->write_bytes += g->write_bytes;
	t->rchar += g->rchar;
	t->wchar += g->wchar;
	t->via_parent += g->via_parent;
	return 0;
}

/* The smallest amount of a full list (by I/O or CPU), or 0 when it is not full. */
static double list_floor(const json_t *list, bool io)
{
	double lo = -1;
	struct lg_busy_group g;
	const json_t *o;
	size_t i;

	if (json_array_size(list) < LG_BUSY_TOP)
		return 0;
	json_array_foreach(list, i, o) {
		double v;

		if (!lg_busy_group_from_json(o, LG_BUSY_JSON_HZ, &g))
			continue;
		v = io ? lg_busy_io_amount(&g) : cpu_s(&g);
		lo = lo < 0 || v < lo ? v : lo;
	}
	return lo > 0 ? lo : 0;
}

/* Whether the group o of by_cpu is also in the run's by_io (added from there already). */
static bool in_io(const json_t *busy, const json_t *o)
{
	const json_t *x;
	size_t i;

	json_array_foreach(json_object_get(busy, "by_io"), i, x)
		if (json_equal(json_object_get(x, "comm"), json_object_get(o, "comm")) &&
		    json_is_true(json_object_get(x, "kernel")) ==
		    json_is_true(json_object_get(o, "kernel")))
			return true;
	return false;
}

/* Side s (zeroed) from the runs of doc. 0 or -ENOMEM. */
static int load(struct side *s, const json_t *doc, const char *name)
{
	static const char *const lists[] = { "by_io", "by_cpu" };
	const json_t *run;
	size_t i;

	s->name = name;
	json_array_foreach(json_object_get(doc, "runs"), i, run) {
		const json_t *busy = json_object_get(run, "busy");

		if (!json_is_object(busy))
			continue;
		s->nruns++;
		s->secs += json_number_value(json_object_get(busy, "seconds"));
		s->io_floor += list_floor(json_object_get(busy, "by_io"), true);
		s->cpu_floor += list_floor(json_object_get(busy, "by_cpu"), false);
		for (int l = 0; l < 2; l++) {
			const json_t *o;
			size_t k;

			json_array_foreach(json_object_get(busy, lists[l]), k, o) {
				struct lg_busy_group g;

				if ((l == 1 && in_io(busy, o)) ||
				    !lg_busy_group_from_json(o, LG_BUSY_JSON_HZ, &g))
					continue;
				if (add(s, &g, json_string_value(json_object_get(o, "comm"))))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

/* The note of group g of side s when it is busy there and not in t, else false. */
static bool note_of(const struct side *s, size_t i, const struct side *t,
		    struct lg_cmp_busy_note *n)
{
	const struct lg_busy_group *g = &s->v[i], *e = find(t, g);
	struct lg_busy_group none = { .tics = 0 };
	double io = lg_busy_io_amount(g), cpu = cpu_s(g);
	char what[256];

	e = e ? e : &none;
	memset(n, 0, sizeof(*n));
	if (lg_busy_io_notable(g, s->secs) &&
	    COMPARABLE * (lg_busy_io_amount(e) + t->io_floor) / t->secs < io / s->secs) {
		n->io = true;
		n->amount = io;
		n->elsewhere = lg_busy_io_amount(e);
	} else if (lg_busy_cpu_notable(g, LG_BUSY_JSON_HZ, s->secs) &&
		   COMPARABLE * (cpu_s(e) + t->cpu_floor) / t->secs < cpu / s->secs) {
		n->amount = cpu;
		n->elsewhere = cpu_s(e);
	} else {
		return false;
	}
	n->comm = s->comm[i];
	n->kernel = g->kernel;
	n->processes = g->processes;
	n->first_pid = g->pids[0];
	lg_busy_describe(g, LG_BUSY_JSON_HZ, s->secs, true, what, sizeof(what));
	snprintf(n->text, sizeof(n->text), "%s during %s's runs, nothing comparable in %s",
		 what, s->name, t->name);
	return true;
}

static int by_amount(const void *pa, const void *pb)
{
	const struct lg_cmp_busy_note *a = pa, *b = pb;

	if (a->io != b->io) /* I/O first: the disk is what a filesystem run shares */
		return a->io ? -1 : 1;
	return (a->amount < b->amount) - (a->amount > b->amount);
}

/* The notes of the names busy in s and not in t, largest first, to fn. How many. */
static size_t side_notes(const struct side *s, const struct side *t,
			 void (*fn)(const struct lg_cmp_busy_note *note, void *ctx), void *ctx)
{
	struct lg_cmp_busy_note *v = malloc((s->n ? s->n : 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		n += note_of(s, i, t, &v[n]);
	qsort(v, n, sizeof(*v), by_amount);
	n = n < NOTES_PER_SIDE ? n : NOTES_PER_SIDE;
	for (size_t i = 0; i < n; i++)
		fn(&v[i], ctx);
	free(v);
	return n;
}

/* Passes each note on with in_base set. */
struct relay {
	bool in_base;
	void (*fn)(const struct lg_cmp_busy_note *note, void *ctx);
	void *ctx;
};

static void relay(const struct lg_cmp_busy_note *note, void *ctx)
{
	const struct relay *r = ctx;
	struct lg_cmp_busy_note n = *note;

	n.in_base = r->in_base;
	r->fn(&n, r->ctx);
}

size_t lg_cmp_busy_notes(const json_t *base_doc, const char *base_name,
			 const json_t *other_doc, const char *other_name,
			 void (*fn)(const struct lg_cmp_busy_note *note, void *ctx), void *ctx)
{
	struct side b = { 0 }, o = { 0 };
	size_t n = 0;

	if (load(&b, base_doc, base_name) == 0 && load(&o, other_doc, other_name) == 0 &&
	    b.secs > 0 && o.secs > 0) { /* both sides were watched */
		struct relay rb = { true, fn, ctx }, ro = { false, fn, ctx };

		n = side_notes(&b, &o, relay, &rb);
		n += side_notes(&o, &b, relay, &ro);
	}
	free(b.v);
	free(b.comm);
	free(o.v);
	free(o.comm);
	return n;
}
