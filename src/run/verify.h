/* --verify: self-describing blocks, written by every write and checked by every read of
 * a file whose writer is known: the reading client's own (its path holds ${client}) or
 * its peer's (${peer}, written by that client, on another host by default). Private to
 * the client side (ops.c, client.c).
 *
 * A file is seen as 512-byte blocks aligned on the file offset. The block at offset o
 * that client c writes is a pure function of (c, o), apart from two informational
 * fields, so any mix of partial, unaligned, repeated or renamed writes of one client
 * leaves every block either as that function says or partly never written (zeros).
 * Layout, integers little-endian:
 *
 *   0  8  magic "LGVERIFY"
 *   8  8  checksum: XXH64 (seed 0) of bytes 28..511 (client, offset, payload)
 *  16  8  write generation: the client's write counter (informational, not checked)
 *  24  4  file id: the path index the block was written through (informational)
 *  28  4  client id
 *  32  8  file offset of the block
 *  40 472 payload: a splitmix64 stream seeded from (client, offset)
 *
 * A check of a block read back: all zero, skipped (a hole, or never written); magic,
 * client, offset and checksum right, intact; otherwise the block is compared byte by
 * byte with what the reader writes there: every byte outside the informational fields
 * must be that byte or zero (zero: a part never written), or the block is corrupt.
 *
 * A peer's file is checked against the peer as the writer; a call on it that fails with
 * ENOENT or ESTALE where the workload expects success is stale metadata (the reader's
 * view of the namespace lags the writer's), also a corruption. */
#ifndef LOADGEN_VERIFY_H
#define LOADGEN_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loadgen/counters/counters.h"
#include "loadgen/model/workload.h"

#define LG_VERIFY_UNIT 512 /* bytes per self-describing block */
#define LG_VERIFY_NO_WRITER UINT32_MAX /* lg_verify_slot.writer: reads are not checked */

/* The header fields of the blocks one write produces. */
struct lg_verify_tag {
	uint32_t client; /* the writing client: part of the checked content */
	uint32_t file;   /* path index at write time (informational) */
	uint64_t gen;    /* the client's write counter (informational) */
};

/* What a check of one read found. */
struct lg_verify_result {
	uint64_t checked; /* blocks compared (all-zero ones are not) */
	uint64_t zero;    /* all-zero blocks skipped */
	uint64_t corrupt; /* blocks not as written */
	struct lg_corruption_note first; /* the first corrupt block; line, type and path
					    are left to lg_verify_record */
};

/* Per file slot: what do_open learnt about the file bound to it. */
struct lg_verify_slot {
	int fd;         /* the descriptor do_open bound; another one in the slot (bound by
			   another op) is neither checked nor trusted for append: -1 */
	uint32_t path;  /* path index opened: the file id of blocks written through it */
	uint32_t writer; /* the client whose blocks reads must find (the path's owner),
			    LG_VERIFY_NO_WRITER: reads are not checked (a shared file) */
	uint8_t peer;   /* the path names the peer's file: reads count as peer reads */
	uint8_t append; /* opened with O_APPEND: writes land at the end of the file */
};

/* A client's verification state (NULL in struct lg_client without --verify). */
struct lg_verify_state {
	uint8_t *owner;               /* per path index: enum lg_path_owner of its
					 template (${client}: only this client writes it,
					 ${peer}: only the peer does) */
	uint32_t id;                  /* the client's id */
	uint32_t peer;                /* the id its ${peer} stands for */
	struct lg_verify_slot *slots; /* per file slot */
	size_t nslots;
	uint64_t gen;                 /* writes made so far */
};

/* Allocate the state for client id of wl, whose ${peer} is peer. 0 or -ENOMEM. */
int lg_verify_state_create(const struct lg_workload *wl, uint32_t id, uint32_t peer,
			   struct lg_verify_state **out);
/* Free. NULL is fine. */
void lg_verify_state_destroy(struct lg_verify_state *v);
/* Slot `slot` now holds fd, opened on path index `path` with open(2) flags. */
void lg_verify_bind(struct lg_verify_state *v, uint32_t slot, int fd, uint32_t path,
		    int flags);

/* Fill buf with the len bytes that tag's client writes at file offset off: exactly
 * those bytes of the blocks the range touches. */
void lg_verify_fill(void *buf, size_t len, uint64_t off, const struct lg_verify_tag *tag);
/* Check len bytes read from file offset off that client `writer` wrote: every block
 * lying entirely inside the range. *out gets the counts and the first corrupt block
 * (its note names writer). */
void lg_verify_check(const void *buf, size_t len, uint64_t off, uint32_t writer,
		     struct lg_verify_result *out);
/* Count what a check found in cs: verified bytes (also as peer_verified_bytes when
 * peer), per-type corruptions of stats row type, and the first corrupt block as a note
 * (with line and path, whose end is kept when it is too long) while there is room.
 * type must be below cs->ntypes. */
void lg_verify_record(struct lg_client_stats *cs, uint16_t type, uint32_t line,
		      const char *path, bool peer, const struct lg_verify_result *r);
/* The writer of path index `path` when it names the peer's file, else
 * LG_VERIFY_NO_WRITER: whose file a failed call did not see. */
uint32_t lg_verify_peer_writer(const struct lg_verify_state *v, uint32_t path);
/* Count stale metadata in cs: a call of stats row type (line) on the file path that
 * writer made failed with err (ENOENT, ESTALE). One corruption, and a note while there
 * is room. */
void lg_verify_stale(struct lg_client_stats *cs, uint16_t type, uint32_t line,
		     const char *path, uint32_t writer, int err);

#endif
