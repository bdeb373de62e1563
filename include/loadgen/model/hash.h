/* A hash of bytes for settings and workloads that ranks compare and that name a setup:
 * 64-bit FNV-1a, small and stable across builds, not for security. */
#ifndef LOADGEN_HASH_H
#define LOADGEN_HASH_H

#include <stddef.h>
#include <stdint.h>

/* 64-bit FNV-1a of len bytes, chained from h (start with LG_HASH_INIT). */
#define LG_HASH_INIT UINT64_C(0xcbf29ce484222325)
uint64_t lg_hash_bytes(uint64_t h, const void *p, size_t len);

#endif
