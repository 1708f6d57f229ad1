/* The linkload model's radix sort (ll_sort.h) against qsort: keys built as
 * (value << 32 | position) sorted by the value's bits come out as qsort
 * orders (value, position), short and long arrays (insertion and passes),
 * values of one byte to 32 bits, many equal values (stability), and
 * ranges of bits that do not start at 32. */
#include <stdlib.h>

#include "../../coupling/linkload/ll_sort.h"
#include "../helpers.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* A deterministic generator (splitmix64). */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* n keys of values below 2^bits (distinct values at most span): sorted by
 * cpl_ll_sort_bits on the value's bits, compared with qsort of whole keys. */
static long check(size_t n, int bits, uint64_t span, uint64_t seed)
{
	uint64_t *a = malloc((n ? n : 1) * sizeof *a), *tmp = malloc((n ? n : 1) * sizeof *tmp),
	         *want = malloc((n ? n : 1) * sizeof *want), top = 0;
	CU_ASSERT_FATAL(a && tmp && want);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = next(&seed) % span;
		v &= bits < 64 ? (UINT64_C(1) << bits) - 1 : ~UINT64_C(0);
		top |= v;
		a[i] = want[i] = v << 32 | i;
	}
	qsort(want, n, sizeof *want, cmp_u64);
	const uint64_t *got = cpl_ll_sort_bits(a, tmp, n, 32, 32 + cpl_ll_sort_width(top));
	long bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += got[i] != want[i];
	free(a), free(tmp), free(want);
	return bad;
}

static void test_against_qsort(void)
{
	static const size_t sizes[] = {0, 1, 2, 3, 47, 48, 49, 100, 1000, 65537};
	static const int bits[] = {1, 7, 8, 9, 16, 20, 31, 32};
	static const uint64_t spans[] = {2, 5, 300, UINT64_C(1) << 40};
	uint64_t seed = 1;
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		for (size_t b = 0; b < sizeof bits / sizeof *bits; b++)
			for (size_t s = 0; s < sizeof spans / sizeof *spans; s++) {
				long bad = check(sizes[i], bits[b], spans[s], seed++);
				if (bad)
					fprintf(stderr, "n %zu, %d bits, span %llu: %ld differ\n",
					        sizes[i], bits[b], (unsigned long long)spans[s],
					        bad);
				CU_ASSERT(bad == 0);
			}
}

/* Bits lo .. hi - 1 elsewhere in the key: the rest of it ignored, the
 * order among equal fields the input's. */
static void test_bit_range(void)
{
	enum { N = 5000 };
	uint64_t a[N], tmp[N], seed = 7;
	for (int i = 0; i < N; i++) /* field bits 4 .. 14, position in 20 .. 33 */
		a[i] = (next(&seed) & 0x3ff0) | (uint64_t)i << 20 | (next(&seed) & 0xf);
	const uint64_t *got = cpl_ll_sort_bits(a, tmp, N, 4, 14);
	int ok = 1;
	for (int i = 1; i < N; i++) {
		uint64_t f0 = got[i - 1] >> 4 & 0x3ff, f1 = got[i] >> 4 & 0x3ff;
		ok &= f0 < f1 || (f0 == f1 && got[i - 1] >> 20 < got[i] >> 20);
	}
	CU_ASSERT(ok);
	CU_ASSERT(cpl_ll_sort_width(0) == 0);
	CU_ASSERT(cpl_ll_sort_width(1) == 1);
	CU_ASSERT(cpl_ll_sort_width(255) == 8);
	CU_ASSERT(cpl_ll_sort_width(256) == 9);
	CU_ASSERT(cpl_ll_sort_width(UINT64_C(1) << 63) == 64);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("ll_sort", NULL, NULL);
	CU_add_test(s, "as qsort of (value, position)", test_against_qsort);
	CU_add_test(s, "a range of bits, stable", test_bit_range);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}
