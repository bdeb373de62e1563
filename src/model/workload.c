/* The workload model: builder functions used by the loaders, path rules, kind names. */
#include "loadgen/model/workload.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include <nettle/sha2.h>

#define HUGE_PAGE (2u << 20) /* bytes of a huge page (x86-64, arm64 with 4 KiB pages) */

static const char *const kind_names[LG_OP_KIND_COUNT] = {
	[LG_OP_OPEN] = "open",         [LG_OP_CLOSE] = "close",
	[LG_OP_WRITE] = "write",       [LG_OP_READ] = "read",
	[LG_OP_FSYNC] = "fsync",       [LG_OP_FDATASYNC] = "fdatasync",
	[LG_OP_UNLINK] = "unlink",     [LG_OP_MKDIR] = "mkdir",
	[LG_OP_RMDIR] = "rmdir",       [LG_OP_RENAME] = "rename",
	[LG_OP_STAT] = "stat",         [LG_OP_FSTAT] = "fstat",
	[LG_OP_TRUNCATE] = "truncate", [LG_OP_READDIR] = "readdir",
	[LG_OP_SYNC_FILE_RANGE] = "sync_file_range",
	[LG_OP_FADVISE] = "fadvise",   [LG_OP_SYNCFS] = "syncfs",
	[LG_OP_SLEEP] = "sleep",
	[LG_OP_NTCREATE] = "ntcreate", [LG_OP_DELTREE] = "deltree",
	[LG_OP_STATFS] = "statfs",     [LG_OP_SETINFO] = "setinfo",
	[LG_OP_FIND] = "find",         [LG_OP_LOCK] = "lock",
	[LG_OP_UNLOCK] = "unlock",
	[LG_OP_LINK] = "link",         [LG_OP_SYMLINK] = "symlink",
	[LG_OP_READLINK] = "readlink", [LG_OP_CHMOD] = "chmod",
	[LG_OP_CHOWN] = "chown",       [LG_OP_UTIMENS] = "utimens",
	[LG_OP_ACCESS] = "access",     [LG_OP_STATX] = "statx",
	[LG_OP_SEEK] = "seek",         [LG_OP_FALLOCATE] = "fallocate",
	[LG_OP_GETDENTS] = "getdents", [LG_OP_SETXATTR] = "setxattr",
	[LG_OP_GETXATTR] = "getxattr", [LG_OP_LISTXATTR] = "listxattr",
	[LG_OP_REMOVEXATTR] = "removexattr",
	[LG_OP_LOOP] = "repeat",
	[LG_OP_NEXT] = "next",         [LG_OP_CHOOSE] = "choose",
	[LG_OP_JUMP] = "jump",         [LG_OP_PICK] = "pick", [LG_OP_AFTER] = "after",
	[LG_OP_THINK] = "think",       [LG_OP_BARRIER] = "barrier",
};

const char *lg_op_kind_name(enum lg_op_kind kind)
{
	return (unsigned)kind < LG_OP_KIND_COUNT ? kind_names[kind] : "?";
}

int lg_workload_create(struct lg_workload **out)
{
	struct lg_workload *wl = calloc(1, sizeof(*wl));

	if (!wl)
		return -ENOMEM;
	*out = wl;
	return 0;
}

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void lg_workload_destroy(struct lg_workload *wl)
{
	if (!wl)
		return;
	for (int p = 0; p < LG_PHASE_COUNT; p++) {
		free(wl->ops[p]);
		free(wl->cols[p]);
	}
	free(wl->alts);
	free_strings(wl->paths, wl->npaths);
	free_strings(wl->types, wl->ntypes);
	free_strings(wl->slots, wl->nslots);
	free(wl->path_index.buckets);
	free(wl->type_index.buckets);
	free(wl->slot_index.buckets);
	for (size_t i = 0; i < wl->nvars; i++)
		free(wl->vars[i].name);
	free(wl->vars);
	for (size_t i = 0; i < wl->nsets; i++)
		free(wl->sets[i].tmpl);
	free(wl->sets);
	for (size_t i = 0; i < wl->nparams; i++) {
		free(wl->params[i].name);
		free(wl->params[i].value);
	}
	free(wl->params);
	for (size_t i = 0; i < wl->nstreams; i++)
		free(wl->streams[i].name);
	free(wl->streams);
	for (size_t i = 0; i < wl->nrecorded; i++) {
		free(wl->recorded[i].name);
		free(wl->recorded[i].value);
	}
	free(wl->recorded);
	for (size_t i = 0; i < wl->nbphases; i++)
		free(wl->bphases[i].name);
	free(wl->bphases);
	free(wl->name);
	free(wl->source);
	free(wl);
}

/* Make room for one more element of size sz in *v (n used, *cap allocated). */
static int grow(void **v, size_t n, size_t *cap, size_t sz)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	nv = realloc(*v, ncap * sz);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* Whether ops of kind move size bytes through the client's buffer or the write
 * pattern (readlink's 4 KiB fit in any: buffers are whole pages). */
static bool uses_buffer(uint8_t kind)
{
	switch (kind) {
	case LG_OP_READ: case LG_OP_WRITE: case LG_OP_GETDENTS: case LG_OP_SETXATTR:
	case LG_OP_GETXATTR: case LG_OP_LISTXATTR:
		return true;
	default:
		return false;
	}
}

int lg_workload_add_op(struct lg_workload *wl, enum lg_phase phase, const struct lg_op *op,
		       uint32_t *index)
{
	if (grow((void **)&wl->ops[phase], wl->nops[phase], &wl->cap_ops[phase], sizeof(*op)))
		return -ENOMEM;
	wl->ops[phase][wl->nops[phase]] = *op;
	if (index)
		*index = (uint32_t)wl->nops[phase];
	wl->nops[phase]++;
	if (uses_buffer(op->kind) && op->size > wl->max_io)
		wl->max_io = op->size;
	return 0;
}

void lg_workload_reserve(struct lg_workload *wl, enum lg_phase phase, size_t n)
{
	size_t bytes = n * sizeof(struct lg_op);
	void *v;

	if (n <= wl->cap_ops[phase] || n > SIZE_MAX / sizeof(struct lg_op))
		return;
	/* Tens of megabytes of ops are written once, in order: in huge pages they take a
	 * few page faults instead of thousands. */
	bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	v = aligned_alloc(HUGE_PAGE, bytes);
	if (!v)
		return;
	madvise(v, bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
	if (wl->nops[phase])
		memcpy(v, wl->ops[phase], wl->nops[phase] * sizeof(struct lg_op));
	free(wl->ops[phase]);
	wl->ops[phase] = v;
	wl->cap_ops[phase] = bytes / sizeof(struct lg_op);
}

void lg_workload_trim(struct lg_workload *wl)
{
	for (int p = 0; p < LG_PHASE_COUNT; p++) {
		void *v;

		if (!wl->nops[p] || wl->cap_ops[p] == wl->nops[p])
			continue;
		v = realloc(wl->ops[p], wl->nops[p] * sizeof(struct lg_op));
		if (v) { /* else the bigger block stays: no harm */
			wl->ops[p] = v;
			wl->cap_ops[p] = wl->nops[p];
		}
	}
}

int lg_workload_set_col(struct lg_workload *wl, enum lg_phase phase, size_t index,
			uint32_t col)
{
	size_t n = wl->ncols[phase];

	if (index >= wl->cap_cols[phase]) {
		size_t ncap = index < 32 ? 64 : index * 2;
		uint32_t *v = realloc(wl->cols[phase], ncap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		wl->cols[phase] = v;
		wl->cap_cols[phase] = ncap;
	}
	if (index >= n) { /* ops in between (noted by no one) have none */
		memset(wl->cols[phase] + n, 0, (index - n) * sizeof(uint32_t));
		wl->ncols[phase] = index + 1;
	}
	wl->cols[phase][index] = col;
	return 0;
}

uint32_t lg_workload_col(const struct lg_workload *wl, enum lg_phase phase, size_t index)
{
	return index < wl->ncols[phase] ? wl->cols[phase][index] : 0;
}

int lg_workload_add_alt(struct lg_workload *wl, uint64_t cum_weight, uint32_t target,
			uint32_t *index)
{
	if (grow((void **)&wl->alts, wl->nalts, &wl->cap_alts, sizeof(*wl->alts)))
		return -ENOMEM;
	wl->alts[wl->nalts] = (struct lg_alt){ .cum_weight = cum_weight, .target = target };
	if (index)
		*index = (uint32_t)wl->nalts;
	wl->nalts++;
	return 0;
}

/* FNV-1a, then a multiply that spreads every bit upwards: index_find takes the bucket
 * from bits 32 and up, which FNV-1a alone barely varies for names that differ in their
 * last characters (slot names "10081", "10082", ...: long runs of probes). */
static uint64_t hash_str(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	while (*s)
		h = (h ^ (unsigned char)*s++) * UINT64_C(0x100000001b3);
	return (h ^ (h >> 32)) * UINT64_C(0x9e3779b97f4a7c15);
}

/* The bucket holding s (hash h), or the empty bucket where it would go. ix must not be
 * empty. */
static size_t index_find(const struct lg_intern_index *ix, char *const *v, const char *s,
			 uint64_t h)
{
	size_t mask = ix->nbuckets - 1, b = (size_t)(h >> 32) & mask;

	while (ix->buckets[b].entry && (ix->buckets[b].hash != (uint32_t)h ||
					strcmp(v[ix->buckets[b].entry - 1], s) != 0))
		b = (b + 1) & mask;
	return b;
}

/* Make room in ix for entry n + 1 of v, rebuilding it at twice the size when it would
 * be more than half full (short probe sequences). 0 or -ENOMEM. */
static int index_grow(struct lg_intern_index *ix, char *const *v, size_t n)
{
	struct lg_intern_index nix = { NULL, ix->nbuckets ? ix->nbuckets : 64 };

	if ((n + 1) * 2 <= ix->nbuckets)
		return 0;
	while (nix.nbuckets < (n + 1) * 2)
		nix.nbuckets *= 2;
	nix.buckets = calloc(nix.nbuckets, sizeof(*nix.buckets));
	if (!nix.buckets)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		uint64_t h = hash_str(v[i]);

		nix.buckets[index_find(&nix, v, v[i], h)] =
			(struct lg_intern_bucket){ (uint32_t)i + 1, (uint32_t)h };
	}
	free(ix->buckets);
	*ix = nix;
	return 0;
}

/* Find s in v[0..n) through ix, or append a copy. Hashed, because a dbench loadfile
 * has hundreds of thousands of lines and thousands of distinct handles. */
static int intern(char ***v, size_t *n, size_t *cap, struct lg_intern_index *ix,
		  const char *s, uint32_t *index)
{
	uint64_t h = hash_str(s);
	size_t b;
	char *copy;

	if (*n >= UINT32_MAX - 1)
		return -ENOMEM;
	if (index_grow(ix, *v, *n) || grow((void **)v, *n, cap, sizeof(char *)))
		return -ENOMEM;
	b = index_find(ix, *v, s, h);
	if (ix->buckets[b].entry) {
		*index = ix->buckets[b].entry - 1;
		return 0;
	}
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	(*v)[*n] = copy;
	ix->buckets[b] = (struct lg_intern_bucket){ (uint32_t)*n + 1, (uint32_t)h };
	*index = (uint32_t)(*n)++;
	return 0;
}

int lg_workload_path(struct lg_workload *wl, const char *path, uint32_t *index)
{
	return intern(&wl->paths, &wl->npaths, &wl->cap_paths, &wl->path_index, path, index);
}

int lg_workload_type(struct lg_workload *wl, const char *name, uint16_t *index)
{
	uint32_t i;
	int rc = intern(&wl->types, &wl->ntypes, &wl->cap_types, &wl->type_index, name, &i);

	if (rc)
		return rc;
	if (i > UINT16_MAX)
		return -E2BIG;
	*index = (uint16_t)i;
	return 0;
}

int lg_workload_slot(struct lg_workload *wl, const char *name, uint32_t *index)
{
	return intern(&wl->slots, &wl->nslots, &wl->cap_slots, &wl->slot_index, name, index);
}

int lg_workload_find_slot(const struct lg_workload *wl, const char *name, uint32_t *index)
{
	size_t b;

	if (!wl->slot_index.nbuckets)
		return -ENOENT;
	b = index_find(&wl->slot_index, wl->slots, name, hash_str(name));
	if (!wl->slot_index.buckets[b].entry)
		return -ENOENT;
	*index = wl->slot_index.buckets[b].entry - 1;
	return 0;
}

int lg_workload_find_var(const struct lg_workload *wl, const char *name, size_t len,
			 uint16_t *index)
{
	for (size_t i = 1; i < wl->nvars; i++) {
		if (strlen(wl->vars[i].name) == len && !memcmp(wl->vars[i].name, name, len)) {
			*index = (uint16_t)i;
			return 0;
		}
	}
	return -ENOENT;
}

/* Append a variable named name (len bytes) with count. */
static int add_var(struct lg_workload *wl, const char *name, size_t len, uint64_t count)
{
	char *copy = strndup(name, len);

	if (!copy || grow((void **)&wl->vars, wl->nvars, &wl->cap_vars, sizeof(*wl->vars))) {
		free(copy);
		return -ENOMEM;
	}
	wl->vars[wl->nvars++] = (struct lg_var){ copy, count, 0 };
	return 0;
}

int lg_workload_var(struct lg_workload *wl, const char *name, size_t len, uint64_t count,
		    uint16_t *index)
{
	int rc;

	if (lg_workload_find_var(wl, name, len, index) == 0)
		return 0;
	if (wl->nvars > UINT16_MAX - 1)
		return -E2BIG;
	/* Entry 0 stands for "no variable": its value stays 0, so c->paths[path + vars[var]]
	 * needs no test for ops without one. */
	if (wl->nvars == 0 && (rc = add_var(wl, "", 0, 1)))
		return rc;
	if ((rc = add_var(wl, name, len, count)))
		return rc;
	*index = (uint16_t)(wl->nvars - 1);
	return 0;
}

const char *lg_workload_set_template(const struct lg_workload *wl, uint32_t first,
				     uint16_t var)
{
	for (size_t i = 0; i < wl->nsets; i++)
		if (wl->sets[i].first == first && wl->sets[i].var == var)
			return wl->sets[i].tmpl;
	return NULL;
}

/* tmpl with every "${name}" replaced by value v, as a new string (NULL: no memory). */
static char *set_entry(const char *tmpl, const char *name, uint64_t v)
{
	size_t nlen = strlen(name), n = 0, o = 0;
	char num[24], *out;
	int numlen = snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	const char *t;

	for (t = tmpl; (t = strstr(t, "${")); t += 2)
		n++;
	out = malloc(strlen(tmpl) + n * (size_t)numlen + 1);
	if (!out)
		return NULL;
	for (t = tmpl; *t;) {
		if (t[0] == '$' && t[1] == '{' && !strncmp(t + 2, name, nlen) && t[2 + nlen] == '}') {
			memcpy(out + o, num, (size_t)numlen);
			o += (size_t)numlen;
			t += nlen + 3;
		} else {
			out[o++] = *t++;
		}
	}
	out[o] = '\0';
	return out;
}

/* Append the count entries of a new file set to wl->paths. They bypass interning, as
 * they must be consecutive; a path written literally elsewhere may equal one of them
 * and get an entry of its own or, once the index is rebuilt, share theirs: both are
 * harmless, the string is the same. */
static int append_set(struct lg_workload *wl, const char *tmpl, const char *name,
		      uint64_t count)
{
	for (uint64_t v = 0; v < count; v++) {
		char *p;

		if (grow((void **)&wl->paths, wl->npaths, &wl->cap_paths, sizeof(char *)))
			return -ENOMEM;
		p = set_entry(tmpl, name, v);
		if (!p)
			return -ENOMEM;
		wl->set_bytes += strlen(p) + 1;
		wl->paths[wl->npaths++] = p;
	}
	wl->set_paths += count;
	return 0;
}

int lg_workload_path_set(struct lg_workload *wl, const char *tmpl, uint16_t var,
			 uint32_t *first)
{
	const struct lg_var *v = &wl->vars[var];
	size_t start = wl->npaths, bytes;
	char *copy;
	int rc;

	for (size_t i = 0; i < wl->nsets; i++) {
		if (wl->sets[i].var == var && !strcmp(wl->sets[i].tmpl, tmpl)) {
			*first = wl->sets[i].first;
			return 0;
		}
	}
	if (v->count > LG_MAX_SET_PATHS - wl->set_paths || wl->npaths + v->count >= UINT32_MAX)
		return -E2BIG;
	/* An upper bound: within the limit a value has at most 7 digits, so each ${name}
	 * (4 bytes or more) grows by at most 3. */
	bytes = v->count * (2 * strlen(tmpl) + 1);
	if (bytes > LG_MAX_SET_BYTES - wl->set_bytes)
		return -E2BIG;
	copy = strdup(tmpl);
	if (!copy || grow((void **)&wl->sets, wl->nsets, &wl->cap_sets, sizeof(*wl->sets))) {
		free(copy);
		return -ENOMEM;
	}
	rc = append_set(wl, tmpl, v->name, v->count);
	if (rc) {
		free(copy);
		return rc;
	}
	wl->sets[wl->nsets++] = (struct lg_pathset){ copy, (uint32_t)start, var };
	*first = (uint32_t)start;
	return 0;
}

/* Append a copy of name=value to the pairs *v (n of them, room for *cap). */
static int add_pair(struct lg_param **v, size_t *n, size_t *cap, const char *name,
		    const char *value)
{
	struct lg_param p = { strdup(name), strdup(value) };

	if (!p.name || !p.value || grow((void **)v, *n, cap, sizeof(p))) {
		free(p.name);
		free(p.value);
		return -ENOMEM;
	}
	(*v)[(*n)++] = p;
	return 0;
}

int lg_workload_set_param(struct lg_workload *wl, const char *name, const char *value)
{
	return add_pair(&wl->params, &wl->nparams, &wl->cap_params, name, value);
}

int lg_workload_add_recorded(struct lg_workload *wl, const char *key, const char *value)
{
	return add_pair(&wl->recorded, &wl->nrecorded, &wl->cap_recorded, key, value);
}

int lg_workload_add_stream(struct lg_workload *wl, const char *name, uint32_t first,
			   uint32_t *index)
{
	struct lg_stream st = { .first = first };

	for (size_t i = 0; i < wl->nstreams; i++)
		if (!strcmp(wl->streams[i].name, name))
			return -EEXIST;
	st.name = strdup(name);
	if (!st.name || grow((void **)&wl->streams, wl->nstreams, &wl->cap_streams,
			     sizeof(st))) {
		free(st.name);
		return -ENOMEM;
	}
	if (index)
		*index = (uint32_t)wl->nstreams;
	wl->streams[wl->nstreams++] = st;
	return 0;
}

int lg_workload_set_source(struct lg_workload *wl, const char *name, const char *source,
			   const char *text, size_t len)
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char *n = strdup(name), *s = strdup(source);

	if (!n || !s) {
		free(n);
		free(s);
		return -ENOMEM;
	}
	free(wl->name);
	free(wl->source);
	wl->name = n;
	wl->source = s;
	sha256_init(&ctx);
	sha256_update(&ctx, len, (const uint8_t *)text);
	sha256_digest(&ctx, sizeof(digest), digest);
	for (size_t i = 0; i < sizeof(digest); i++)
		snprintf(wl->sha256 + 2 * i, 3, "%02x", digest[i]);
	return 0;
}

/* Whether op opens a file for its data: not a directory, nor a name only (O_PATH); an
 * unnamed file (O_TMPFILE, which holds O_DIRECTORY's bit) is one. */
static bool opens_data(const struct lg_op *op)
{
	if (op->kind != LG_OP_OPEN && op->kind != LG_OP_NTCREATE)
		return false;
	if ((op->flags & O_TMPFILE) == O_TMPFILE)
		return true;
	return !(op->flags & (O_DIRECTORY | O_PATH));
}

void lg_workload_add_open_flags(struct lg_workload *wl, int flags)
{
	if (!flags) /* the usual case: no pass over every op */
		return;
	for (int p = 0; p < LG_PHASE_COUNT; p++)
		for (size_t i = 0; i < wl->nops[p]; i++)
			if (opens_data(&wl->ops[p][i]))
				wl->ops[p][i].flags |= flags;
}

int lg_path_check(const char *path, const char **why)
{
	long depth = 0;
	const char *p = path;

	if (!*path) {
		*why = "empty path";
		return -EINVAL;
	}
	if (*path == '/') {
		*why = "absolute path: workload paths are relative to the run directory";
		return -EINVAL;
	}
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0) {
				*why = "path leaves the run directory through '..'";
				return -EINVAL;
			}
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		p += strspn(p, "/");
	}
	if (depth == 0) {
		*why = "path names the run directory itself";
		return -EINVAL;
	}
	return 0;
}
