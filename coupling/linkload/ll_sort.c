/* Least significant digit radix sort of 64-bit keys (ll_sort.h): a pass
 * per byte of the bits sorted by, short arrays by insertion. */
#include "ll_sort.h"

/* Below this many keys insertion is cheaper than the passes. */
#define SHORT 48

int cpl_ll_sort_width(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static uint64_t field(uint64_t k, int lo, int hi)
{
	uint64_t v = k >> lo;
	return hi - lo < 64 ? v & ((UINT64_C(1) << (hi - lo)) - 1) : v;
}

uint64_t *cpl_ll_sort_bits(uint64_t *a, uint64_t *tmp, size_t n, int lo, int hi)
{
	if (n < SHORT) { /* stable: a key moves only past greater ones */
		for (size_t i = 1; i < n; i++) {
			uint64_t k = a[i], f = field(k, lo, hi);
			size_t j = i;
			for (; j > 0 && field(a[j - 1], lo, hi) > f; j--)
				a[j] = a[j - 1];
			a[j] = k;
		}
		return a;
	}
	uint64_t *src = a, *dst = tmp;
	for (int s = lo; s < hi; s += 8) {
		int w = hi - s < 8 ? hi - s : 8;
		size_t cnt[257] = {0};
		for (size_t i = 0; i < n; i++)
			cnt[field(src[i], s, s + w) + 1]++;
		if (cnt[field(src[0], s, s + w) + 1] == n)
			continue; /* one digit value: the order stays */
		for (int d = 0; d < 256; d++)
			cnt[d + 1] += cnt[d];
		for (size_t i = 0; i < n; i++)
			dst[cnt[field(src[i], s, s + w)]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	return src;
}
