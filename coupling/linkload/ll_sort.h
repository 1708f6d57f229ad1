/* Sorting for the linkload model: 64-bit keys by a range of their bits,
 * stably (least significant digit first, a byte a pass), so that keys
 * built as (what to sort by) << 32 | (their position) come out in order
 * and, among equal values, in their positions' order: what qsort gives
 * when it compares the values and then the positions. Internal to the
 * linkload model. */
#ifndef CPL_LL_SORT_H
#define CPL_LL_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Sorts a[0 .. n) by bits lo .. hi - 1 of each key (0 <= lo < hi <= 64),
 * stably; tmp has room for n keys. Returns the array that holds the
 * result: a or tmp. */
uint64_t *cpl_ll_sort_bits(uint64_t *a, uint64_t *tmp, size_t n, int lo, int hi);

/* The number of bits that hold v (0 for 0). */
int cpl_ll_sort_width(uint64_t v);

#endif
