/* loadgen record's snapshot of the recorded directory before the program runs: what the
 * workload's setup recreates (load/trace.h's struct lg_tree_entry). */
#ifndef LOADGEN_RECORD_TREE_H
#define LOADGEN_RECORD_TREE_H

#include <stddef.h>

#include "loadgen/load/trace.h"

/* A snapshot: entries sorted by path, so a directory comes before what it holds. */
struct lg_rec_tree {
	struct lg_tree_entry *e; /* the entries (owned, each with its owned strings) */
	size_t n;                /* entries of e */
	size_t others;           /* entries left out: FIFOs, sockets, devices */
};

/* Walk dir (absolute; symlinks not followed) into *t: directories, regular files with
 * their sizes, symlinks with their targets; dir itself and the absolute paths of skip[0..
 * nskip) (the output files, when they lie inside dir) are not entries. 0, or a negative
 * errno with err "PATH: why". */
int lg_rec_tree_snapshot(const char *dir, const char *const *skip, size_t nskip,
			 struct lg_rec_tree *t, char *err, size_t errlen);

/* Free the entries of t (a zeroed t is fine). */
void lg_rec_tree_clear(struct lg_rec_tree *t);

#endif
