/* The writer's top-level 'labels' (yaml_write.c writes the rest): for each op name, the
 * label most of its steps have, so that those steps are written without one. */
#include "yaml_priv.h"

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>

#define CREATE LG_OP_KIND_COUNT /* index of "create" in label_of */

/* The op's index in the writer's label_of. */
size_t lg_ywrite_name_index(const struct lg_op *op)
{
	return op->kind == LG_OP_OPEN && (op->flags & O_CREAT) ? CREATE : op->kind;
}

/* Call fn on each op but control ops, with its name index. */
static void each_op(const struct lg_workload *wl, void (*fn)(size_t k, uint16_t type,
							    unsigned *votes, uint16_t *pick),
		    unsigned *votes, uint16_t *pick)
{
	for (int p = 0; p < LG_PHASE_COUNT; p++)
		for (size_t i = 0; i < wl->nops[p]; i++)
			if (wl->ops[p][i].kind < LG_OP_LOOP && wl->ops[p][i].type < wl->ntypes)
				fn(lg_ywrite_name_index(&wl->ops[p][i]), wl->ops[p][i].type,
				   votes, pick);
}

/* A majority vote per name (Boyer-Moore: one candidate, no table of counts). */
static void vote(size_t k, uint16_t type, unsigned *votes, uint16_t *pick)
{
	if (!votes[k])
		pick[k] = type;
	votes[k] = pick[k] == type ? votes[k] + 1 : votes[k] - 1;
}

/* Count the candidate's ops (votes[k]) and all ops (votes[CREATE + 1 + k]). */
static void count(size_t k, uint16_t type, unsigned *votes, uint16_t *pick)
{
	votes[k] += pick[k] == type;
	votes[CREATE + 1 + k]++;
}

/* The label that more than half of the steps of an op name have (two at least), when it
 * is not the name: into label_of and the top-level 'labels', so that those steps are
 * written without it. */
void lg_ywrite_labels(FILE *f, const struct lg_workload *wl, const char **label_of)
{
	unsigned votes[2 * (CREATE + 1)] = { 0 };
	uint16_t pick[CREATE + 1] = { 0 };
	bool any = false;

	each_op(wl, vote, votes, pick);
	memset(votes, 0, sizeof(votes));
	each_op(wl, count, votes, pick);
	for (size_t k = 0; k <= CREATE; k++) {
		const char *name = k == CREATE ? "create" : lg_op_kind_name((enum lg_op_kind)k);
		const char *label = wl->types ? wl->types[pick[k]] : NULL;

		if (votes[k] < 2 || votes[k] * 2 <= votes[CREATE + 1 + k] || !strcmp(label, name))
			continue;
		label_of[k] = label;
		fprintf(f, "%s  %s: ", any ? "" : "labels:\n", name);
		lg_ywrite_quoted(f, label);
		putc('\n', f);
		any = true;
	}
}
