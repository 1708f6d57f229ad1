/* Checked arithmetic for sizes derived from user input (node counts from a
 * specification's parameters, buffer sizes from an engine's): saturating
 * operations, so a chain of them ends at the type's maximum instead of
 * wrapping around, and one comparison with a limit afterwards refuses it. */
#ifndef CMN_CHECKED_H
#define CMN_CHECKED_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* a * b, a + b and base^exp for counts (operands >= 0): LLONG_MAX when the
 * exact result does not fit. */
static inline long long cmn_sat_mul(long long a, long long b)
{
	long long r;
	return __builtin_mul_overflow(a, b, &r) ? LLONG_MAX : r;
}

static inline long long cmn_sat_add(long long a, long long b)
{
	long long r;
	return __builtin_add_overflow(a, b, &r) ? LLONG_MAX : r;
}

static inline long long cmn_sat_pow(long long base, int exp)
{
	long long r = 1;
	for (int i = 0; i < exp && r != LLONG_MAX; i++)
		r = cmn_sat_mul(r, base);
	return r;
}

/* The same for allocation sizes: SIZE_MAX when the exact result does not
 * fit, which no malloc satisfies, so the allocation fails cleanly. */
static inline size_t cmn_size_mul(size_t a, size_t b)
{
	size_t r;
	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t cmn_size_add(size_t a, size_t b)
{
	size_t r;
	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

#endif
