/* A recorded program's streams: the top-level 'streams' list, the 'after' and 'think'
 * steps that only streams may hold, and the 'recorded' provenance mapping.
 *
 * Each stream compiles into a run of consecutive ops of the run phase (lg_stream.first,
 * nops), so the engine gives a client one thread per stream and each thread a range of
 * the same array. An 'after' names its stream by name, and a stream may wait for one
 * written later in the file: names are resolved once every stream is compiled. Then the
 * whole phase is executed in the abstract, calls counted, to prove that the waits end:
 * a hand-edited 'after' that closes a cycle would otherwise hang every client. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_priv.h"

/* An 'after' whose stream name is resolved once all streams are known. */
struct fixup {
	uint32_t op;                 /* its index in the run phase */
	const struct lg_ynode *name; /* the stream's name as written */
};

/* State of compiling 'streams' (lg_yctx.streams while it runs). */
struct lg_ystreams {
	struct fixup *fix;     /* the 'after' steps so far (owned) */
	size_t nfix, capfix;
	uint32_t stream;       /* the stream being compiled */
};

static struct lg_op control_op(enum lg_op_kind kind, uint32_t line)
{
	return (struct lg_op){ .kind = (uint8_t)kind, .slot = LG_NO_SLOT, .path = LG_NO_SLOT,
			       .path2 = LG_NO_SLOT, .line = line, .expect = LG_EXPECT_OK };
}

static int not_in_stream(struct lg_yctx *c, const struct lg_ynode *key)
{
	return lg_yfail(c, key, "'%s' is a step of a recorded program's streams: it belongs "
			"in a stream's 'steps' (under the top-level 'streams'), not in %s",
			key->text, c->phase == LG_PHASE_SETUP ? "'setup'" :
			c->phase == LG_PHASE_CLEANUP ? "'cleanup'" : "'run'");
}

int lg_ycompile_think(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
		      const struct lg_ynode *val)
{
	struct lg_op op = control_op(LG_OP_THINK, line);
	int rc;

	if (!c->streams)
		return not_in_stream(c, key);
	if (val->kind != LG_YSCALAR)
		return lg_yfail(c, val, "'think' takes a duration (such as 120us), not %s",
				lg_ykind_name(val));
	rc = lg_yduration(c, val, "think", &op.size);
	if (!rc && lg_workload_add_op(c->wl, c->phase, &op, NULL))
		rc = lg_ynomem(c);
	return rc;
}

int lg_ycompile_after(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
		      const struct lg_ynode *val)
{
	static const char *const keys[] = { "stream", "calls", NULL };
	struct lg_ystreams *s = c->streams;
	const struct lg_ynode *v[2];
	struct lg_op op = control_op(LG_OP_AFTER, line);
	uint32_t at;
	int rc;

	if (!s)
		return not_in_stream(c, key);
	if (val->kind != LG_YMAP)
		return lg_yfail(c, val, "'after' takes a mapping {stream: NAME, calls: N}, "
				"not %s", lg_ykind_name(val));
	rc = lg_ykeys(c, val, "after", keys, v);
	if (rc)
		return rc;
	if (!v[0] || !v[1])
		return lg_yfail(c, key, "'after' needs '%s'", v[0] ? "calls" : "stream");
	if (v[0]->kind != LG_YSCALAR)
		return lg_yfail(c, v[0], "'stream' must be a stream's name, not %s",
				lg_ykind_name(v[0]));
	if (v[1]->kind == LG_YSCALAR && !strcmp(v[1]->text, "end"))
		op.count = LG_AFTER_END; /* the whole stream, its last think time too */
	else
		rc = lg_ycount(c, v[1], "calls", &op.count);
	if (!rc && op.count == 0)
		rc = lg_yfail(c, v[1], "'calls' must be at least 1 (waiting for no call is "
			      "no wait: leave the step out)");
	if (rc)
		return rc;
	if (s->nfix == s->capfix) {
		size_t n = s->capfix ? 2 * s->capfix : 64;
		struct fixup *f = realloc(s->fix, n * sizeof(*f));

		if (!f)
			return lg_ynomem(c);
		s->fix = f;
		s->capfix = n;
	}
	if (lg_workload_add_op(c->wl, c->phase, &op, &at))
		return lg_ynomem(c);
	s->fix[s->nfix++] = (struct fixup){ at, v[0] };
	return lg_workload_set_col(c->wl, c->phase, at, key->col + 1) ? lg_ynomem(c) : 0;
}

/* Count a compiled stream's calls and think time; refuse control flow inside it (a
 * stream is the calls one thread made, in order: 'after' counts them). */
static int finish_stream(struct lg_yctx *c, struct lg_stream *st, const struct lg_ynode *at)
{
	const struct lg_op *ops = c->wl->ops[LG_PHASE_RUN];

	st->nops = (uint32_t)(c->wl->nops[LG_PHASE_RUN] - st->first);
	for (uint32_t i = st->first; i < st->first + st->nops; i++) {
		if (ops[i].kind < LG_OP_LOOP)
			st->calls++;
		else if (ops[i].kind == LG_OP_THINK)
			st->think_ns += ops[i].size;
		else if (ops[i].kind != LG_OP_AFTER)
			return lg_yfail_at(c, ops[i].line ? ops[i].line - 1 : at->line, 0,
					   "'%s' in stream '%s': a stream holds calls, 'after' "
					   "and 'think' only (no repeat, choose or pick)",
					   lg_op_kind_name(ops[i].kind), st->name);
	}
	return 0;
}

static int one_stream(struct lg_yctx *c, const struct lg_ynode *n)
{
	static const char *const keys[] = { "name", "steps", NULL };
	const struct lg_ynode *v[2];
	uint32_t idx;
	int rc;

	if (n->kind != LG_YMAP)
		return lg_yfail(c, n, "a stream must be a mapping {name: NAME, steps: [...]}, "
				"not %s", lg_ykind_name(n));
	rc = lg_ykeys(c, n, "a stream", keys, v);
	if (rc)
		return rc;
	if (!v[0] || v[0]->kind != LG_YSCALAR || !*v[0]->text)
		return lg_yfail(c, v[0] ? v[0] : n, "a stream needs a 'name' (a non-empty "
				"string)");
	if (!v[1])
		return lg_yfail(c, n, "stream '%s' has no 'steps'", v[0]->text);
	rc = lg_workload_add_stream(c->wl, v[0]->text,
				    (uint32_t)c->wl->nops[LG_PHASE_RUN], &idx);
	if (rc == -EEXIST)
		return lg_yfail(c, v[0], "duplicate stream name '%s'", v[0]->text);
	if (rc)
		return lg_ynomem(c);
	c->streams->stream = idx;
	lg_yreopen_reset(c); /* what another stream left open says nothing of this one */
	rc = lg_ysteps(c, v[1], "steps");
	return rc ? rc : finish_stream(c, &c->wl->streams[idx], v[0]);
}

/* Resolve the names of the 'after' steps. */
static int resolve(struct lg_yctx *c, struct lg_ystreams *s)
{
	struct lg_workload *wl = c->wl;

	for (size_t i = 0; i < s->nfix; i++) {
		struct lg_op *op = &wl->ops[LG_PHASE_RUN][s->fix[i].op];
		const char *name = s->fix[i].name->text;
		size_t j = 0, self = 0;

		while (j < wl->nstreams && strcmp(wl->streams[j].name, name))
			j++;
		while (self + 1 < wl->nstreams && wl->streams[self + 1].first <= s->fix[i].op)
			self++;
		if (j == wl->nstreams)
			return lg_yfail(c, s->fix[i].name, "'after' names stream '%s', which "
					"the workload does not have", name);
		if (j == self)
			return lg_yfail(c, s->fix[i].name, "'after' in stream '%s' waits for "
					"its own calls", name);
		if (op->count != LG_AFTER_END && op->count > wl->streams[j].calls)
			return lg_yfail(c, s->fix[i].name, "'after' waits for call %llu of "
					"stream '%s', which makes %llu",
					(unsigned long long)op->count, name,
					(unsigned long long)wl->streams[j].calls);
		op->slot = (uint32_t)j;
	}
	return 0;
}

/* Run the streams in the abstract: each advances while its waits are met. Any stream
 * left unfinished waits in a cycle. */
static int check_waits(struct lg_yctx *c)
{
	const struct lg_workload *wl = c->wl;
	const struct lg_op *ops = wl->ops[LG_PHASE_RUN];
	uint32_t *pc = calloc(wl->nstreams, sizeof(*pc));
	uint64_t *done = calloc(wl->nstreams, sizeof(*done));
	bool moved = true;
	int rc = 0;

	if (!pc || !done) {
		free(pc);
		free(done);
		return lg_ynomem(c);
	}
	while (moved) {
		moved = false;
		for (size_t s = 0; s < wl->nstreams; s++) {
			const struct lg_stream *st = &wl->streams[s];

			while (pc[s] < st->nops) {
				const struct lg_op *op = &ops[st->first + pc[s]];

				if (op->kind == LG_OP_AFTER && (op->count == LG_AFTER_END ?
				    pc[op->slot] < wl->streams[op->slot].nops :
				    done[op->slot] < op->count))
					break;
				done[s] += op->kind < LG_OP_LOOP;
				pc[s]++;
				moved = true;
			}
		}
	}
	for (size_t s = 0; !rc && s < wl->nstreams; s++) {
		const struct lg_stream *st = &wl->streams[s];
		const struct lg_op *op;

		if (pc[s] == st->nops)
			continue;
		op = &ops[st->first + pc[s]];
		rc = lg_yfail_at(c, op->line ? op->line - 1 : 0,
				 lg_workload_col(wl, LG_PHASE_RUN, st->first + pc[s]) ?
				 lg_workload_col(wl, LG_PHASE_RUN, st->first + pc[s]) - 1 : 0,
				 "stream '%s' would wait forever: its 'after' waits for %s %llu "
				 "of stream '%s', which waits in turn (the waits form a cycle)",
				 st->name, op->count == LG_AFTER_END ? "the end, after call" : "call",
				 (unsigned long long)(op->count == LG_AFTER_END ?
				 wl->streams[op->slot].calls : op->count), wl->streams[op->slot].name);
	}
	free(pc);
	free(done);
	return rc;
}

/* Every file a stream uses must be opened somewhere: by setup, or by some stream (not
 * necessarily one compiled before it: a thread may use a file its sibling opens). */
static int check_slots(struct lg_yctx *c)
{
	const struct lg_workload *wl = c->wl;
	bool *bound = calloc(wl->nslots + 1, sizeof(*bound));
	int rc = 0;

	if (!bound)
		return lg_ynomem(c);
	for (int ph = LG_PHASE_SETUP; ph <= LG_PHASE_RUN; ph++)
		for (size_t i = 0; i < wl->nops[ph]; i++) {
			const struct lg_op *op = &wl->ops[ph][i];

			if ((op->kind == LG_OP_OPEN || op->kind == LG_OP_NTCREATE) &&
			    op->slot != LG_NO_SLOT)
				bound[op->slot] = true;
		}
	for (size_t i = 0; !rc && i < wl->nops[LG_PHASE_RUN]; i++) {
		const struct lg_op *op = &wl->ops[LG_PHASE_RUN][i];
		uint32_t col = lg_workload_col(wl, LG_PHASE_RUN, i);

		if (op->kind < LG_OP_LOOP && op->slot != LG_NO_SLOT && !bound[op->slot])
			rc = lg_yfail_at(c, op->line ? op->line - 1 : 0, col ? col - 1 : 0,
					 "file '%s' is used, but no step of setup or of any "
					 "stream opens it (no 'as: %s')", wl->slots[op->slot],
					 wl->slots[op->slot]);
	}
	free(bound);
	return rc;
}

int lg_ycompile_streams(struct lg_yctx *c, const struct lg_ynode *seq)
{
	struct lg_ystreams s = { 0 };
	int rc = 0;

	if (lg_yfast_is_lazy(seq))
		return -EAGAIN; /* nested lists: libyaml reads the text again */
	if (seq->kind != LG_YSEQ || seq->n == 0)
		return lg_yfail(c, seq, "'streams' must be a non-empty list of streams "
				"{name: NAME, steps: [...]}, not %s",
				seq->kind == LG_YSEQ ? "an empty list" : lg_ykind_name(seq));
	c->phase = LG_PHASE_RUN;
	c->streams = &s;
	for (size_t i = 0; !rc && i < seq->n; i++)
		rc = one_stream(c, seq->items[i]);
	c->streams = NULL;
	if (!rc)
		rc = resolve(c, &s);
	if (!rc)
		rc = check_slots(c);
	if (!rc)
		rc = check_waits(c);
	free(s.fix);
	if (rc)
		return rc;
	for (size_t i = 0; i < c->wl->nstreams; i++)
		if (c->wl->streams[i].calls)
			return 0;
	return lg_yfail(c, seq, "'streams' must contain at least one call to measure");
}

int lg_yrecorded(struct lg_yctx *c, const struct lg_ynode *map)
{
	if (!map || lg_yis_null(map))
		return 0;
	if (map->kind != LG_YMAP)
		return lg_yfail(c, map, "'recorded' must be a mapping of key: value, not %s",
				lg_ykind_name(map));
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct lg_ynode *v = map->items[i + 1];

		if (v->kind != LG_YSCALAR)
			return lg_yfail(c, v, "'recorded: %s' must be a scalar, not %s",
					map->items[i]->text, lg_ykind_name(v));
		if (lg_workload_add_recorded(c->wl, map->items[i]->text, v->text))
			return lg_ynomem(c);
	}
	return 0;
}
