/* The 'barrier' step: phases timed across every client of every rank, as mdtest's are.
 *
 *   - barrier: stat                      # the phase that begins here is "stat"
 *   - barrier: {phase: create, items: create}   # its items: the ops labelled create
 *
 * A barrier is allowed only at the top of the run phase of a workload without streams:
 * inside a repeat or choose some clients would pass it more often than others, and each
 * would wait forever for the rest; a stream's calls keep the order of a program, which
 * had no such barrier. Phases are numbered by the order of their barriers, so a
 * client's phase at any op is known when the workload is compiled. */
#include "yaml_priv.h"

#include <errno.h>
#include <string.h>

int lg_ycompile_barrier(struct lg_yctx *c, uint32_t line, const struct lg_ynode *key,
			const struct lg_ynode *val)
{
	static const char *const keys[] = { "phase", "items", NULL };
	const struct lg_ynode *v[2] = { NULL, NULL };
	struct lg_op op = { .kind = LG_OP_BARRIER, .expect = LG_EXPECT_OK, .slot = LG_NO_SLOT,
			    .path = LG_NO_SLOT, .path2 = LG_NO_SLOT, .line = line, .align = 1 };
	const char *name = NULL;
	uint16_t items = LG_ITEMS_ALL;
	uint32_t index;
	int rc;

	if (c->phase != LG_PHASE_RUN)
		return lg_yfail(c, key, "'barrier' belongs in 'run': setup and cleanup are not "
				"timed, so they have no phases");
	if (c->nest)
		return lg_yfail(c, key, "'barrier' inside 'repeat' or 'choose': every client "
				"must pass each barrier once (put it at the top of 'run')");
	if (val->kind == LG_YMAP) {
		if ((rc = lg_ykeys(c, val, "barrier", keys, v)))
			return rc;
	} else if (val->kind == LG_YSCALAR && !lg_yis_null(val)) {
		v[0] = val;
	} else if (!lg_yis_null(val)) {
		return lg_yfail(c, val, "'barrier' takes the name of the phase it begins, or "
				"{phase: NAME, items: LABEL}, not %s", lg_ykind_name(val));
	}
	if (v[0] && (rc = lg_ystring(c, v[0], "phase", false, &name)))
		return rc;
	if (name && (!*name || strlen(name) > 40))
		return lg_yfail(c, v[0], "a phase name must have 1 to 40 characters");
	if (name)
		for (size_t i = 0; i < c->wl->nbphases; i++)
			if (!strcmp(c->wl->bphases[i].name, name))
				return lg_yfail(c, v[0], "phase '%s' is named twice", name);
	if (v[1]) {
		const char *label;

		if ((rc = lg_ystring(c, v[1], "items", false, &label)))
			return rc;
		if (!*label)
			return lg_yfail(c, v[1], "'items' names the label of the ops the phase "
					"counts, not an empty string");
		if ((rc = lg_workload_type(c->wl, label, &items)))
			return rc == -ENOMEM ? lg_ynomem(c)
					     : lg_yfail(c, v[1], "too many labels");
	}
	rc = lg_workload_add_bphase(c->wl, name, items, line, &index);
	if (rc == -E2BIG)
		return lg_yfail(c, key, "more than %d barriers: at most %d phases",
				LG_BARRIER_PHASES_MAX - 1, LG_BARRIER_PHASES_MAX);
	if (rc)
		return lg_ynomem(c);
	op.count = index;
	if (lg_workload_add_op(c->wl, c->phase, &op, NULL))
		return lg_ynomem(c);
	return 0;
}

int lg_ybarriers_check(struct lg_yctx *c)
{
	const struct lg_workload *wl = c->wl;

	if (wl->nbphases && wl->nstreams)
		return lg_yfail_at(c, wl->bphases[1].line - 1, 0, "'barrier' in a workload "
				   "with 'streams': a recorded program's calls have no barrier");
	for (size_t p = 1; p < wl->nbphases; p++) {
		bool used = wl->bphases[p].items == LG_ITEMS_ALL;

		for (size_t i = 0; !used && i < wl->nops[LG_PHASE_RUN]; i++)
			used = wl->ops[LG_PHASE_RUN][i].kind < LG_OP_LOOP &&
			       wl->ops[LG_PHASE_RUN][i].type == wl->bphases[p].items;
		if (!used)
			return lg_yfail_at(c, wl->bphases[p].line - 1, 0, "phase '%s' counts the "
					   "ops labelled '%s' as its items, but no op of 'run' "
					   "has that label", wl->bphases[p].name,
					   wl->types[wl->bphases[p].items]);
	}
	return 0;
}
