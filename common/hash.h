/* A uniform draw in [0, 1) from a (seed, key) pair (splitmix64): the same
 * key always draws the same value under a seed, whatever else changes, so
 * per-job choices stay the same across schedulers and runs. */
#ifndef CMN_HASH_H
#define CMN_HASH_H

#include <stdint.h>

static inline double cmn_hash_unit(uint64_t seed, uint64_t key)
{
	uint64_t z = seed * 0x9E3779B97F4A7C15ULL + key + 1;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1.0p-53;
}

#endif
