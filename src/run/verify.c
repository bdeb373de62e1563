/* --verify: generate and check self-describing blocks (layout in verify.h).
 *
 * Why content depends on (client, offset) only: a client may write a block in pieces,
 * out of order, again and again, through different names; if the bytes depended on
 * which write made them, a block written in two pieces would never check. The price is
 * that a lost write of data the client had written before is not seen (the old bytes
 * are the same), which is also why the generation is informational only. The same
 * makes a peer's file checkable on another host: the reader knows the writer's id (its
 * ${peer}) and so every byte the writer put at every offset. */
#include "verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#define UNIT LG_VERIFY_UNIT
#define MAGIC "LGVERIFY" /* 8 bytes, no NUL stored */
#define AT_SUM 8         /* checksum */
#define AT_GEN 16        /* write generation */
#define AT_FILE 24       /* file id */
#define AT_CLIENT 28     /* client id; the checksum covers from here to the end */
#define AT_OFFSET 32     /* block offset */
#define AT_PAYLOAD 40    /* payload */

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* splitmix64's output function: a cheap bijective scrambler. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t block_sum(const unsigned char *b)
{
	return XXH64(b + AT_CLIENT, UNIT - AT_CLIENT, 0);
}

/* The block tag's client writes at file offset off (a multiple of UNIT) into b. */
static void make_block(unsigned char *b, uint64_t off, const struct lg_verify_tag *tag)
{
	uint64_t s = mix64(off + mix64((uint64_t)tag->client + 1));

	memcpy(b, MAGIC, 8);
	put64(b + AT_GEN, tag->gen);
	put32(b + AT_FILE, tag->file);
	put32(b + AT_CLIENT, tag->client);
	put64(b + AT_OFFSET, off);
	for (size_t i = AT_PAYLOAD; i < UNIT; i += 8)
		put64(b + i, mix64(s += UINT64_C(0x9e3779b97f4a7c15)));
	put64(b + AT_SUM, block_sum(b));
}

void lg_verify_fill(void *buf, size_t len, uint64_t off, const struct lg_verify_tag *tag)
{
	unsigned char *out = buf, tmp[UNIT];
	uint64_t end = off + len;

	for (uint64_t b = off - off % UNIT; b < end; b += UNIT) {
		uint64_t lo = b > off ? b : off, hi = b + UNIT < end ? b + UNIT : end;

		if (lo == b && hi == b + UNIT) { /* whole block: generate in place */
			make_block(out + (b - off), b, tag);
			continue;
		}
		make_block(tmp, b, tag);
		memcpy(out + (lo - off), tmp + (lo - b), hi - lo);
	}
}

static int all_zero(const unsigned char *b)
{
	uint64_t acc = 0, w;

	for (size_t i = 0; i < UNIT; i += 8) {
		memcpy(&w, b + i, 8);
		acc |= w;
	}
	return acc == 0;
}

/* The common case, one hash and no generation: a whole block of this client's. */
static int intact(const unsigned char *b, uint64_t off, uint32_t client)
{
	return memcmp(b, MAGIC, 8) == 0 && get32(b + AT_CLIENT) == client &&
	       get64(b + AT_OFFSET) == off && get64(b + AT_SUM) == block_sum(b);
}

/* Which part of the header or payload byte i belongs to, as a bit. */
enum { F_MAGIC = 1, F_SUM = 2, F_CLIENT = 4, F_OFFSET = 8, F_PAYLOAD = 16 };

static unsigned field_of(size_t i)
{
	if (i < AT_SUM)
		return F_MAGIC;
	if (i < AT_GEN)
		return F_SUM;
	if (i < AT_OFFSET)
		return F_CLIENT;
	return i < AT_PAYLOAD ? F_OFFSET : F_PAYLOAD;
}

/* The most telling reason for the fields found wrong. Client and offset only mean
 * something behind a whole magic. */
static uint8_t reason_of(unsigned bad, int magic)
{
	if ((bad & F_MAGIC) || (!magic && (bad & (F_CLIENT | F_OFFSET))))
		return LG_CORRUPT_NO_HEADER;
	if (bad & F_CLIENT)
		return LG_CORRUPT_CLIENT;
	if (bad & F_OFFSET)
		return LG_CORRUPT_OFFSET;
	return bad & F_PAYLOAD ? LG_CORRUPT_PAYLOAD : LG_CORRUPT_CHECKSUM;
}

/* Compare a block that is neither intact nor all zero with what client writes at off:
 * each byte must be that byte or zero (never written). Returns 1 and fills *note when
 * the block is corrupt, else 0 (a block written in part). */
static int examine(const unsigned char *b, uint64_t off, uint32_t client,
		   struct lg_corruption_note *note)
{
	struct lg_verify_tag tag = { client, 0, 0 };
	unsigned char want[UNIT];
	unsigned bad = 0;
	size_t first = UNIT;

	make_block(want, off, &tag);
	for (size_t i = 0; i < UNIT; i++) {
		if (i == AT_GEN) /* generation and file id: informational */
			i = AT_CLIENT;
		if (b[i] == want[i] || b[i] == 0)
			continue;
		bad |= field_of(i);
		if (first == UNIT)
			first = i;
	}
	if (!bad)
		return 0;
	memset(note, 0, sizeof(*note));
	note->writer = client;
	note->offset = off;
	note->bad_offset = off + first;
	note->expected_hash = get64(want + AT_SUM);
	note->found_hash = block_sum(b);
	note->found_magic = memcmp(b, MAGIC, 8) == 0;
	note->found_client = get32(b + AT_CLIENT);
	note->found_offset = get64(b + AT_OFFSET);
	note->reason = reason_of(bad, note->found_magic);
	note->expected_byte = want[first];
	note->found_byte = b[first];
	return 1;
}

void lg_verify_check(const void *buf, size_t len, uint64_t off, uint32_t writer,
		     struct lg_verify_result *out)
{
	const unsigned char *in = buf;
	uint64_t end = off + len, b = off % UNIT ? off + (UNIT - off % UNIT) : off;
	struct lg_corruption_note note;

	out->checked = out->zero = out->corrupt = 0;
	for (; b >= off && b + UNIT <= end; b += UNIT) {
		const unsigned char *p = in + (b - off);

		if (intact(p, b, writer)) {
			out->checked++;
			continue;
		}
		if (all_zero(p)) {
			out->zero++;
			continue;
		}
		out->checked++;
		if (!examine(p, b, writer, &note))
			continue;
		if (out->corrupt++ == 0)
			out->first = note;
	}
}

/* Keep the end of path, where the file name is, when it does not fit. */
static void copy_path(char *dst, const char *path)
{
	size_t n = strlen(path);

	if (n < LG_CORRUPT_PATH) {
		memcpy(dst, path, n + 1);
		return;
	}
	memcpy(dst, "...", 3);
	memcpy(dst + 3, path + n - (LG_CORRUPT_PATH - 4), LG_CORRUPT_PATH - 3);
}

/* The next free note of cs, or NULL when they are all taken. */
static struct lg_corruption_note *next_note(struct lg_client_stats *cs)
{
	return cs->ncorrupt < LG_CORRUPT_NOTES ? &cs->corrupt[cs->ncorrupt++] : NULL;
}

void lg_verify_record(struct lg_client_stats *cs, uint16_t type, uint32_t line,
		      const char *path, bool peer, const struct lg_verify_result *r)
{
	struct lg_corruption_note *n;

	cs->verified_bytes += r->checked * UNIT;
	if (peer)
		cs->peer_verified_bytes += r->checked * UNIT;
	if (!r->corrupt)
		return;
	cs->types[type].corruptions += r->corrupt;
	if (!(n = next_note(cs)))
		return;
	*n = r->first;
	n->line = line;
	n->type = type;
	copy_path(n->path, path ? path : "?");
}

void lg_verify_stale(struct lg_client_stats *cs, uint16_t type, uint32_t line,
		     const char *path, uint32_t writer, int err)
{
	struct lg_corruption_note *n;

	cs->types[type].corruptions++;
	if (!(n = next_note(cs)))
		return;
	memset(n, 0, sizeof(*n));
	n->reason = LG_CORRUPT_STALE;
	n->writer = writer;
	n->err = err;
	n->line = line;
	n->type = type;
	copy_path(n->path, path ? path : "?");
}

uint32_t lg_verify_peer_writer(const struct lg_verify_state *v, uint32_t path)
{
	return v->owner[path] == LG_OWNER_PEER ? v->peer : LG_VERIFY_NO_WRITER;
}

int lg_verify_state_create(const struct lg_workload *wl, uint32_t id, uint32_t peer,
			   struct lg_verify_state **out)
{
	struct lg_verify_state *v = calloc(1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	v->nslots = wl->nslots;
	v->id = id;
	v->peer = peer;
	v->owner = calloc(wl->npaths ? wl->npaths : 1, 1);
	v->slots = calloc(wl->nslots ? wl->nslots : 1, sizeof(*v->slots));
	if (!v->owner || !v->slots) {
		lg_verify_state_destroy(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < wl->npaths; i++)
		v->owner[i] = (uint8_t)lg_path_owner(wl->paths[i]);
	for (size_t i = 0; i < wl->nslots; i++)
		v->slots[i].fd = -1;
	*out = v;
	return 0;
}

void lg_verify_state_destroy(struct lg_verify_state *v)
{
	if (!v)
		return;
	free(v->owner);
	free(v->slots);
	free(v);
}

void lg_verify_bind(struct lg_verify_state *v, uint32_t slot, int fd, uint32_t path,
		    int flags)
{
	struct lg_verify_slot *s = &v->slots[slot];
	uint8_t owner = v->owner[path];

	s->fd = fd;
	s->path = path;
	s->writer = owner == LG_OWNER_CLIENT ? v->id
		    : owner == LG_OWNER_PEER ? v->peer : LG_VERIFY_NO_WRITER;
	s->peer = owner == LG_OWNER_PEER;
	s->append = (flags & O_APPEND) != 0;
}
