/* Hop sums over node sets (see pairsum.h): the exact sum, and the paths
 * for a family without a fast path of its own. */
#include "pairsum.h"

void plat_isum_mul(struct plat_isum *s, uint64_t a, uint64_t b)
{
	uint64_t p;
	if (__builtin_mul_overflow(a, b, &p)) {
		s->d += (double)a * (double)b;
		return;
	}
	if (s->i > UINT64_MAX - p) {
		s->d += (double)s->i;
		s->i = 0;
	}
	s->i += p;
}

void plat_isum_add(struct plat_isum *s, double v)
{
	if (v >= 0 && v < 0x1p64)
		plat_isum_mul(s, (uint64_t)v, 1);
	else
		s->d += v;
}

double plat_isum_value(const struct plat_isum *s)
{
	return s->d + (double)s->i;
}

int plat_pair_sum(const struct plat_machine *m, const struct plat_view *v, int n, int *scratch,
                  struct plat_isum *s)
{
	if (m->ops->pair_sum)
		return m->ops->pair_sum(m, v, n, scratch, s);
	for (int i = v->start, next = i, a, b; plat_view_next(v, &next, &a, &b); i = next)
		for (int x = a; x <= b; x++)
			for (int j = i, c, e; plat_view_next(v, &j, &c, &e);)
				for (int y = c > x ? c : x + 1; y <= e; y++)
					plat_isum_mul(s, 1, (uint64_t)plat_distance(m, x, y));
	return 1;
}

void plat_sum_to_first(const struct plat_machine *m, const struct plat_view *v, int n, int *scratch,
                       struct plat_isum *s)
{
	if (m->ops->to_first) {
		m->ops->to_first(m, v, n, scratch, s);
		return;
	}
	for (int i = v->start, a, b; plat_view_next(v, &i, &a, &b);)
		for (int x = a; x <= b; x++)
			plat_isum_mul(s, 1, (uint64_t)plat_distance(m, x, 0));
}
