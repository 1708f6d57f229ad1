/* The 32-bit Mersenne twister MT19937 (Matsumoto and Nishimura 1998, with
 * their 2002 seeding), drawing the same numbers as GSL's gsl_rng_mt19937
 * for the same seed: cmn_mt_uniform is gsl_rng_uniform and
 * cmn_mt_uniform_int gsl_rng_uniform_int (tests/common/test_mt19937.c
 * compares them draw for draw). Inline, for loops that draw once per node
 * and cycle, where GSL's calls through its generator type cost several
 * times the draw itself. */
#ifndef CMN_MT19937_H
#define CMN_MT19937_H

#include <stdint.h>

enum { CMN_MT_N = 624, CMN_MT_M = 397 };

struct cmn_mt {
	uint32_t mt[CMN_MT_N];
	int mti;
};

/* Seed 0 is GSL's default seed, 4357. */
static inline void cmn_mt_seed(struct cmn_mt *r, unsigned long seed)
{
	if (seed == 0)
		seed = 4357;
	r->mt[0] = (uint32_t)(seed & 0xffffffffUL);
	for (int i = 1; i < CMN_MT_N; i++)
		r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
	r->mti = CMN_MT_N;
}

/* The next N words at once. */
void cmn_mt_refill(struct cmn_mt *r);

static inline uint32_t cmn_mt_next(struct cmn_mt *r)
{
	if (r->mti >= CMN_MT_N)
		cmn_mt_refill(r);
	uint32_t k = r->mt[r->mti++];
	k ^= k >> 11;
	k ^= (k << 7) & 0x9d2c5680u;
	k ^= (k << 15) & 0xefc60000u;
	k ^= k >> 18;
	return k;
}

/* In [0, 1), a multiple of 2^-32. */
static inline double cmn_mt_uniform(struct cmn_mt *r)
{
	return cmn_mt_next(r) / 4294967296.0;
}

/* In [0, n) for 0 < n <= 2^32 - 1: the word over (2^32 - 1) / n, words
 * whose quotient is n or more drawn again. */
static inline unsigned long cmn_mt_uniform_int(struct cmn_mt *r, unsigned long n)
{
	unsigned long scale = 0xffffffffUL / n, k;
	do
		k = cmn_mt_next(r) / scale;
	while (k >= n);
	return k;
}

#endif
