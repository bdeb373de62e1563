/* 64-bit FNV-1a (see hash.h). */
#include "loadgen/model/hash.h"

uint64_t lg_hash_bytes(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++) {
		h ^= b[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}
