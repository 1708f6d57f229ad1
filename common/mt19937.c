/* MT19937's next block of words (mt19937.h). */
#include "mt19937.h"

static uint32_t twist(uint32_t a, uint32_t b, uint32_t m)
{
	uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);
	return m ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

void cmn_mt_refill(struct cmn_mt *r)
{
	uint32_t *mt = r->mt;
	int k = 0;
	for (; k < CMN_MT_N - CMN_MT_M; k++)
		mt[k] = twist(mt[k], mt[k + 1], mt[k + CMN_MT_M]);
	for (; k < CMN_MT_N - 1; k++)
		mt[k] = twist(mt[k], mt[k + 1], mt[k + CMN_MT_M - CMN_MT_N]);
	mt[CMN_MT_N - 1] = twist(mt[CMN_MT_N - 1], mt[0], mt[CMN_MT_M - 1]);
	r->mti = 0;
}
