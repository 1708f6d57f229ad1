/* A uniform draw in [0, 1) from a (seed, key) pair (splitmix64): the same
 * key always draws the same value under a seed, whatever else changes, so
 * per-job choices stay the same across schedulers and runs; and FNV-1a,
 * the hash of a sequence taken one value at a time (a byte, or a whole
 * word: the project's tables and signatures). */
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

/* FNV-1a, 64 bits: the offset basis, and one value into hash h. */
#define CMN_FNV64_BASIS UINT64_C(1469598103934665603)
static inline uint64_t cmn_fnv64(uint64_t h, uint64_t v)
{
	return (h ^ v) * UINT64_C(1099511628211);
}

/* FNV-1a, 32 bits: the offset basis, and one value into hash h. */
#define CMN_FNV32_BASIS UINT32_C(2166136261)
static inline uint32_t cmn_fnv32(uint32_t h, uint32_t v)
{
	return (h ^ v) * UINT32_C(16777619);
}

#endif
