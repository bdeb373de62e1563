/* The workload model: what clients execute, compiled once into flat op arrays.
 *
 * A loader (YAML, dbench loadfile) fills a struct lg_workload through the builder
 * functions below. Paths, file names, parameters and stats labels are all resolved
 * at load time: an op refers to paths, file slots and stats rows by index, so the
 * client loop never parses, looks up or formats anything.
 *
 * Control flow is compiled to jumps: a repeat block is LG_OP_LOOP ... LG_OP_NEXT,
 * a weighted choice is LG_OP_CHOOSE followed by its alternatives, each ending in an
 * LG_OP_JUMP past the last one.
 *
 * A file set is one path template with a variable, "d/f${k}": the loader writes it out
 * as count consecutive entries of paths (d/f0, d/f1, ...), and an LG_OP_PICK sets the
 * client's variable k at run time; an op then uses entry path + k. So a workload picks
 * one of N files without any formatting on the hot path. */
#ifndef LOADGEN_WORKLOAD_H
#define LOADGEN_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "loadgen/model/path_tmpl.h" /* the placeholders left in paths */


/* lg_op.expect: the result an op must have to count as correct. */
#define LG_EXPECT_OK 0    /* the call succeeds */
#define LG_EXPECT_ANY (-1) /* any result is correct */
/* any value > 0 is the errno the call must fail with */

/* Phases of a workload, in the order clients run them. */
enum lg_phase {
	LG_PHASE_SETUP,   /* untimed, before the start barrier */
	LG_PHASE_RUN,     /* measured; looped until time is up, or once */
	LG_PHASE_CLEANUP, /* untimed, after the measured phase */
	LG_PHASE_COUNT
};

/* What one op does. Timed ops first; control ops are never timed or counted. */
enum lg_op_kind {
	LG_OP_OPEN,            /* openat(path, flags) binding slot */
	LG_OP_CLOSE,           /* close(slot) */
	LG_OP_WRITE,           /* count x pwrite/write of size bytes */
	LG_OP_READ,            /* count x pread/read of size bytes */
	LG_OP_FSYNC,           /* fsync(slot) */
	LG_OP_FDATASYNC,       /* fdatasync(slot) */
	LG_OP_UNLINK,          /* unlinkat(path) */
	LG_OP_MKDIR,           /* mkdirat(path) */
	LG_OP_RMDIR,           /* unlinkat(path, AT_REMOVEDIR) */
	LG_OP_RENAME,          /* renameat(path, path2) */
	LG_OP_STAT,            /* fstatat(path, AT_SYMLINK_NOFOLLOW) */
	LG_OP_FSTAT,           /* fstat(slot) */
	LG_OP_TRUNCATE,        /* ftruncate(slot, size) */
	LG_OP_READDIR,         /* open directory path and read every entry */
	LG_OP_SYNC_FILE_RANGE, /* sync_file_range(slot, offset, size, flags) */
	LG_OP_FADVISE,         /* posix_fadvise(slot, offset, size, flags) */
	LG_OP_SYNCFS,          /* syncfs(slot), or of the run directory with no slot */
	LG_OP_SLEEP,           /* think time of size nanoseconds */
	/* dbench's SMB-like ops (ops_dbench.c), one timed op each however many calls: */
	LG_OP_NTCREATE,        /* resolve, open(path, flags) into slot (or close at once
				  if slot is LG_NO_SLOT), fstat; O_DIRECTORY: mkdir first,
				  then open the directory */
	LG_OP_DELTREE,         /* unlink every file below path, leaving the directories
				  (dbench 4.0); gone already is ok */
	LG_OP_STATFS,          /* fstatvfs of the run directory */
	LG_OP_SETINFO,         /* fstat(slot), then futimens to earlier times */
	LG_OP_FIND,            /* path2 == LG_NO_SLOT: resolve(path); else read up to size
				  entries (0: all) of directory path (LG_NO_SLOT: the run
				  dir) for names matching pattern path2; none: ENOENT */
	LG_OP_LOCK,            /* OFD write lock of [offset, offset + size) on slot */
	LG_OP_UNLOCK,          /* unlock of [offset, offset + size) on slot */
	/* Calls a recorded program makes (ops_meta.c), one each. An op with a path or a
	   file takes the path when slot is LG_NO_SLOT, else the slot's file: */
	LG_OP_LINK,            /* linkat(path, path2, 0) */
	LG_OP_SYMLINK,         /* symlinkat(target path2, path) */
	LG_OP_READLINK,        /* readlinkat(path) into a buffer of size bytes */
	LG_OP_CHMOD,           /* fchmodat(path) / fchmod(slot) to mode flags */
	LG_OP_CHOWN,           /* fchownat(path, flags) / fchown(slot) to the euid, egid */
	LG_OP_UTIMENS,         /* utimensat(path, NULL, flags) / futimens(slot, NULL) */
	LG_OP_ACCESS,          /* faccessat(path, mode flags) */
	LG_OP_STATX,           /* statx(path, flags) / statx(slot, "", AT_EMPTY_PATH) */
	LG_OP_SEEK,            /* lseek(slot, offset, whence flags); pos follows */
	LG_OP_FALLOCATE,       /* fallocate(slot, mode flags, offset, size) */
	LG_OP_GETDENTS,        /* one getdents64(slot) into a buffer of size bytes */
	LG_OP_SETXATTR,        /* (l)setxattr(path) / fsetxattr(slot) of name path2, size
				  bytes of the write pattern, flags */
	LG_OP_GETXATTR,        /* (l)getxattr / fgetxattr of name path2, size bytes */
	LG_OP_LISTXATTR,       /* (l)listxattr / flistxattr, size bytes */
	LG_OP_REMOVEXATTR,     /* (l)removexattr / fremovexattr of name path2 */
	LG_OP_LOOP,            /* control: start a repeat block of count iterations */
	LG_OP_NEXT,            /* control: end of a repeat block */
	LG_OP_CHOOSE,          /* control: pick one of count alternatives by weight */
	LG_OP_JUMP,            /* control: continue at target */
	LG_OP_PICK,            /* control: set variable var to a value in [0, count), in
				  order flags (enum lg_pick_order) */
	/* A recorded program's streams (lg_workload.streams); LG_OP_AFTER first of them: */
	LG_OP_AFTER,           /* control: wait until stream slot has completed count calls
				  (LG_AFTER_END: until it has ended) */
	LG_OP_THINK,           /* control: with replay timing, wait until size ns (scaled)
				  after this stream's previous call ended */
	/* Phases across every client of every rank (mdtest's), only at the top of the run
	 * phase of a workload without streams: */
	LG_OP_BARRIER,         /* control: wait until every client of every rank is here,
				  then begin barrier phase count (1-based: phase 0 is
				  what comes before the first barrier) */
	LG_OP_KIND_COUNT
};

/* Where a read, write, sync_file_range or fadvise starts. */
enum lg_offset_mode {
	LG_OFF_SEQ,    /* where the previous read/write on this slot ended (0 after open) */
	LG_OFF_FIXED,  /* lg_op.offset, then consecutive blocks for count > 1 */
	LG_OFF_APPEND, /* at the end of the file */
	LG_OFF_RANDOM, /* offset + align * k, uniformly, with the block inside range */
	LG_OFF_LAST,   /* where the previous read/write on this slot started */
	LG_OFF_PREV    /* one block (size) before LG_OFF_LAST; skipped when negative */
};

#define LG_NO_SLOT UINT32_MAX /* lg_op.slot / path when the op has none */
#define LG_AFTER_END UINT64_MAX /* LG_OP_AFTER's count: the stream's end ('calls: end') */

/* lg_op.flags of a STAT, UNLINK, RMDIR, MKDIR or RENAME from a dbench loadfile: resolve
 * each name first as dbench does (ops_dbench.c). No open(2) flag uses this bit. */
#define LG_OP_RESOLVE (1 << 30)

/* lg_op.flags of a READ or WRITE: the call is preadv/pwritev with one iovec. */
#define LG_OP_VECTOR (1 << 29)

/* lg_op.flags of the ops of recorded programs, beside the call's own flags: AT_*
 * flags (AT_SYMLINK_NOFOLLOW: chown, utimens, statx and the xattr calls, which are then
 * the l- forms; AT_SYMLINK_FOLLOW on a STAT: fstatat follows a last symlink), open(2)
 * flags of an OPEN, RENAME_* of a RENAME (renameat2), XATTR_CREATE/XATTR_REPLACE, the
 * mode of a CHMOD, R_OK/W_OK/X_OK of an ACCESS, FALLOC_FL_* of a FALLOCATE and SEEK_*
 * of a SEEK. */

/* How LG_OP_PICK chooses the next value of its variable (lg_op.flags). */
enum lg_pick_order {
	LG_PICK_RANDOM, /* uniformly at random, from the client's random stream */
	LG_PICK_SEQ,    /* the previous value + 1, wrapping to 0; the first pick gives 0 */
	LG_PICK_SHUFFLE /* rounds of count picks, each giving every value once, in a new
			   random order (the round's progress is kept per variable) */
};

/* Limits of file sets, so a parameter cannot make a client's path table explode:
 * expanded paths of all sets together, and their bytes. */
#define LG_MAX_SET_PATHS 1000000u
#define LG_MAX_SET_BYTES (64u << 20)

/* One compiled op: fixed size, no pointers, so op arrays can be shared by all clients. */
struct lg_op {
	uint8_t kind;     /* enum lg_op_kind */
	uint8_t off_mode; /* enum lg_offset_mode, for read/write/sync_file_range/fadvise */
	uint16_t type;    /* stats row: index into lg_workload.types */
	int32_t expect;   /* LG_EXPECT_OK, LG_EXPECT_ANY or an errno value */
	uint32_t slot;    /* file slot used (or bound, for open); loop counter for LOOP/NEXT */
	uint32_t path;    /* index into lg_workload.paths (+ value of var), or LG_NO_SLOT */
	uint32_t path2;   /* rename and link destination (+ value of var2), or LG_NO_SLOT;
			     SYMLINK: its target, XATTR ops: the attribute name. Both
			     are strings of paths too (interned, expanded per client as
			     paths are: a target may hold ${client}), but never checked
			     as paths: a target may climb above its own directory */
	uint32_t line;    /* line in the source file, for error reports */
	int32_t flags;    /* open(2) flags; fadvise advice; sync_file_range flags; PICK:
			     enum lg_pick_order; see LG_OP_VECTOR and the flags of the
			     ops of recorded programs above */
	union {
		uint32_t target;  /* LOOP: index after NEXT; NEXT/JUMP: op to continue at;
				     CHOOSE: first index into lg_workload.alts */
		struct {          /* ops with paths (never control ops but PICK), so the
				     space of target is free: */
			uint16_t var;  /* variable added to path (0: none, always 0); PICK:
					  the variable it sets */
			uint16_t var2; /* variable added to path2 (0: none) */
		};
	};
	uint64_t size;    /* bytes per call (read, write, truncate, sfr, fadvise, fallocate,
			     getdents, readlink, xattr ops); ns (sleep) */
	uint64_t count;   /* calls (read, write); iterations (LOOP); alternatives (CHOOSE);
			     values (PICK) */
	uint64_t offset;  /* LG_OFF_FIXED offset; LG_OFF_RANDOM base; SEEK: an int64_t
			     (negative from the current position or the end) */
	uint64_t range;   /* LG_OFF_RANDOM: length of the region offsets are drawn from */
	uint64_t align;   /* LG_OFF_RANDOM: offsets are multiples of this (>= 1) */
};

/* One alternative of a CHOOSE op. */
struct lg_alt {
	uint64_t cum_weight; /* sum of the weights up to and including this one */
	uint32_t target;     /* index of the alternative's first op in the same phase */
};

/* A per-client integer variable, set by LG_OP_PICK and used to index file sets. */
struct lg_var {
	char *name;      /* as written in ${name} (owned); "" for the reserved entry 0 */
	uint64_t count;  /* values are in [0, count); every pick of it uses this count */
	uint8_t shuffle; /* 1 when a pick of it shuffles: clients keep a permutation */
};

/* A file set: count consecutive entries of lg_workload.paths expanded from one
 * template. Kept so the template can be written back (yaml_write.c). */
struct lg_pathset {
	char *tmpl;     /* the template, with ${name} of its variable (owned) */
	uint32_t first; /* index of the entry for value 0 */
	uint16_t var;   /* its variable: entry first + v is the path for value v */
};

/* One stream of a recorded program: a traced thread or process. A client runs all its
 * streams at once, one thread each; stream i executes ops [first, first + nops) of the
 * run phase. */
struct lg_stream {
	char *name;     /* as written ("TID COMMAND"), for messages and show (owned) */
	uint32_t first; /* index of its first op in the run phase */
	uint32_t nops;  /* its ops, control ops included */
	uint64_t calls; /* its timed ops: what LG_OP_AFTER counts */
	uint64_t think_ns; /* its think times added up, unscaled */
};

#define LG_BARRIER_PHASES_MAX 32 /* phases a workload's barriers may make (the run
				    phase before the first barrier is one) */
#define LG_ITEMS_ALL UINT16_MAX  /* lg_barrier_phase.items: every op is an item */

/* A phase between barriers: from one barrier (or the start) to the next (or the end). */
struct lg_barrier_phase {
	char *name;     /* as the barrier step that begins it names it, or "phase N" (owned) */
	uint16_t items; /* the stats row (lg_workload.types) whose ops are the phase's
			   items (mdtest counts files, not calls), or LG_ITEMS_ALL */
	uint32_t line;  /* line of the barrier that begins it (0: the start) */
};

/* A name=value parameter, as resolved at load time (defaults and -p overrides). */
struct lg_param {
	char *name;  /* owned */
	char *value; /* owned */
};

/* Hash index of one of the workload's string tables, so interning is O(1): open
 * addressing with linear probing. Internal to workload.c. */
struct lg_intern_index {
	struct lg_intern_bucket {
		uint32_t entry; /* entry index + 1, or 0 for an empty bucket */
		uint32_t hash;  /* low half of its string's hash: most probes end on it */
	} *buckets;         /* (owned) */
	size_t nbuckets;   /* 0, or a power of two at least twice the entries */
};

/* A loaded, compiled workload. Immutable once loaded; shared by all clients. */
struct lg_workload {
	char *name;                        /* workload name (owned) */
	char *source;                      /* file path or "builtin:NAME" (owned) */
	char sha256[65];                   /* hex SHA-256 of the source text */
	struct lg_op *ops[LG_PHASE_COUNT]; /* op array per phase (owned) */
	size_t nops[LG_PHASE_COUNT];       /* ops per phase */
	size_t cap_ops[LG_PHASE_COUNT];    /* allocated ops per phase */
	uint32_t *cols[LG_PHASE_COUNT];    /* per op: 1-based column of its step's op key on
					      its line, for messages after loading; 0, or
					      past ncols: not noted (owned) */
	size_t ncols[LG_PHASE_COUNT], cap_cols[LG_PHASE_COUNT];
	struct lg_alt *alts;               /* alternatives of all CHOOSE ops (owned) */
	size_t nalts, cap_alts;
	char **paths;                      /* path templates, relative to the run dir (owned) */
	size_t npaths, cap_paths;
	char **types;                      /* stats labels, e.g. "write" or "ReadX" (owned) */
	size_t ntypes, cap_types;
	char **slots;                      /* file slot names, for messages (owned) */
	size_t nslots, cap_slots;
	uint32_t nloops;                   /* loop counters a client needs */
	struct lg_var *vars;               /* variables; entry 0 is reserved for "none"
					      (owned; NULL until the first is added) */
	size_t nvars, cap_vars;            /* nvars counts entry 0 (0 when no variables) */
	struct lg_pathset *sets;           /* file sets, in the order made (owned) */
	size_t nsets, cap_sets;
	size_t set_paths, set_bytes;       /* paths and bytes in all file sets so far */
	uint64_t max_io;                   /* largest read/write size (and of getdents and the
					      xattr ops): the client buffer size */
	uint32_t direct_align;             /* the O_DIRECT alignment of the run's target in
					      bytes, as learnt when the workload was checked
					      against it (lg_direct_alignment); 0: not learnt.
					      For the notes of EINVAL in the run */
	uint32_t peer_shift;               /* 'peer_shift': ${peer} is the client this many
					      ids on (mod all ranks' clients); 0: not
					      given, the clients per rank */
	struct lg_param *params;           /* resolved parameters (owned) */
	size_t nparams, cap_params;
	struct lg_stream *streams;         /* a recorded program's streams (owned); NULL:
					      the run phase is one stream, as always */
	size_t nstreams, cap_streams;
	struct lg_barrier_phase *bphases;  /* phases between barriers: phase 0 before the
					      first, one more per barrier (owned); NULL
					      (nbphases 0): the workload has no barrier */
	size_t nbphases;
	struct lg_param *recorded;         /* 'recorded': where it came from (owned) */
	size_t nrecorded, cap_recorded;
	struct lg_intern_index path_index; /* hash indexes of paths, types and slots */
	struct lg_intern_index type_index;
	struct lg_intern_index slot_index;
};

/* Allocate an empty workload. Returns 0 or -ENOMEM. */
int lg_workload_create(struct lg_workload **out);
/* Free a workload and all it owns. NULL is fine. */
void lg_workload_destroy(struct lg_workload *wl);

/* Append a copy of op to phase; *index (may be NULL) gets its position. Updates max_io.
 * Returns 0 or -ENOMEM. */
int lg_workload_add_op(struct lg_workload *wl, enum lg_phase phase, const struct lg_op *op,
		       uint32_t *index);
/* Make room for n ops in phase at once (a loader that can tell how many are coming:
 * half a million ops grown by doubling are copied and faulted in again and again).
 * Best effort: without memory, ops grow as they come. */
void lg_workload_reserve(struct lg_workload *wl, enum lg_phase phase, size_t n);
/* Give back the room reserved but not used. */
void lg_workload_trim(struct lg_workload *wl);
/* Note that op index of phase was written at column col (1-based) of its line: where a
 * line holds several steps, its line alone does not say which op a message is about.
 * 0 or -ENOMEM. */
int lg_workload_set_col(struct lg_workload *wl, enum lg_phase phase, size_t index,
			uint32_t col);
/* The column noted for op index of phase, or 0. */
uint32_t lg_workload_col(const struct lg_workload *wl, enum lg_phase phase, size_t index);
/* Append an alternative; *index gets its position in wl->alts. 0 or -ENOMEM. */
int lg_workload_add_alt(struct lg_workload *wl, uint64_t cum_weight, uint32_t target,
			uint32_t *index);
/* Index of path (interned: the same string gives the same index). The path must already
 * have passed lg_path_check. 0 or -ENOMEM. */
int lg_workload_path(struct lg_workload *wl, const char *path, uint32_t *index);
/* Index of the stats label name, added if new. 0, -ENOMEM, or -E2BIG past 65535 labels. */
int lg_workload_type(struct lg_workload *wl, const char *name, uint16_t *index);
/* Index of the file slot name, added if new. 0 or -ENOMEM. */
int lg_workload_slot(struct lg_workload *wl, const char *name, uint32_t *index);
/* Index of the file slot name if it exists: 0, or -ENOENT. */
int lg_workload_find_slot(const struct lg_workload *wl, const char *name, uint32_t *index);
/* Index of variable name (len bytes, need not be NUL-terminated), added with count if
 * new (an existing one keeps its count). 0, -ENOMEM, or -E2BIG past 65535 variables. */
int lg_workload_var(struct lg_workload *wl, const char *name, size_t len, uint64_t count,
		    uint16_t *index);
/* Index of variable name (len bytes) if it exists: 0, or -ENOENT. */
int lg_workload_find_var(const struct lg_workload *wl, const char *name, size_t len,
			 uint16_t *index);
/* The file set of template tmpl (checked with lg_path_check) over variable var: its
 * first entry in wl->paths, made of wl->vars[var].count consecutive paths, each with
 * every ${name} of the variable replaced by the value in decimal, unless the same set
 * exists already. 0, -ENOMEM, or -E2BIG past LG_MAX_SET_PATHS or LG_MAX_SET_BYTES. */
int lg_workload_path_set(struct lg_workload *wl, const char *tmpl, uint16_t var,
			 uint32_t *first);
/* The template of the file set starting at path index first over var, or NULL. */
const char *lg_workload_set_template(const struct lg_workload *wl, uint32_t first,
				     uint16_t var);
/* Record a resolved parameter (copies both strings). 0 or -ENOMEM. */
int lg_workload_set_param(struct lg_workload *wl, const char *name, const char *value);
/* Set name, source and the SHA-256 of text (copies). 0 or -ENOMEM. */
int lg_workload_set_source(struct lg_workload *wl, const char *name, const char *source,
			   const char *text, size_t len);

/* Append a stream named name (copied) starting at op first of the run phase; *index gets
 * its position. 0, -ENOMEM, or -EEXIST for a name already used. */
int lg_workload_add_stream(struct lg_workload *wl, const char *name, uint32_t first,
			   uint32_t *index);
/* Append a barrier phase named name (copied; NULL: "phase N") counting ops of stats row
 * items (LG_ITEMS_ALL: all) that begins at line; phase 0 (before the first barrier) is
 * made with the first. *index gets the new phase's position. 0, -ENOMEM, or -E2BIG past
 * LG_BARRIER_PHASES_MAX phases. */
int lg_workload_add_bphase(struct lg_workload *wl, const char *name, uint16_t items,
			   uint32_t line, uint32_t *index);
/* Record one 'recorded' provenance entry (copies both). 0 or -ENOMEM. */
int lg_workload_add_recorded(struct lg_workload *wl, const char *key, const char *value);

/* OR flags (O_SYNC, O_DIRECT) into every op that opens a file for its data (not a
 * directory, nor with O_PATH). */
void lg_workload_add_open_flags(struct lg_workload *wl, int flags);

/* Check that path stays inside the run directory: non-empty, relative, and no ".."
 * climbs above its start. Returns 0, or -EINVAL with *why set to a static message. */
int lg_path_check(const char *path, const char **why);

/* Name of an op kind as written in YAML ("write", "sync_file_range", ...). */
const char *lg_op_kind_name(enum lg_op_kind kind);

#endif
