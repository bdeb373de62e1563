/* Time and memory constants, and the clock every measurement reads: CLOCK_MONOTONIC, in
 * nanoseconds. Inline, so the client loop, the ops and the engine share one definition
 * without the ops calling into the client loop for it. */
#ifndef LOADGEN_CLOCK_H
#define LOADGEN_CLOCK_H

#include <stdint.h>
#include <time.h>

#define LG_NS_PER_SEC UINT64_C(1000000000) /* nanoseconds in a second */
#define LG_NS_PER_MS UINT64_C(1000000)     /* nanoseconds in a millisecond */
#define LG_PAGE_SIZE 4096                  /* alignment of I/O buffers (O_DIRECT) */
#define LG_CACHE_LINE 64                   /* alignment that keeps writers apart */

/* Current CLOCK_MONOTONIC time in ns. */
static inline uint64_t lg_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * LG_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* ns as a struct timespec (for nanosleep, clock_nanosleep). */
static inline struct timespec lg_ns_timespec(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / LG_NS_PER_SEC), (long)(ns % LG_NS_PER_SEC) };

	return ts;
}

/* splitmix64: the next number of the stream with state *s. A 64-bit generator whose
 * streams are cheap to seed per client, written here because glibc's reentrant
 * generators (rand_r, *rand48_r) give 31-32 bits per call and offsets in large files
 * need 64. */
static inline uint64_t lg_rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#endif
