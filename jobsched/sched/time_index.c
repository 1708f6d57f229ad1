/* A time per job index (time_index.h). */
#include <math.h>
#include <stdlib.h>

#include "time_index.h"

int js_tindex_init(struct js_tindex *x, int n)
{
	x->n = n;
	x->leaves = 1;
	while (x->leaves < n)
		x->leaves *= 2;
	size_t nodes = 2 * (size_t)x->leaves;
	if (!(x->t = malloc(nodes * sizeof *x->t)))
		return -1;
	for (size_t i = 0; i < nodes; i++)
		x->t[i] = INFINITY;
	return 0;
}

void js_tindex_free(struct js_tindex *x)
{
	free(x->t);
	x->t = NULL;
}

void js_tindex_set(struct js_tindex *x, int j, double t)
{
	size_t i = (size_t)x->leaves + (size_t)j;
	x->t[i] = isnan(t) ? INFINITY : t;
	for (i /= 2; i >= 1; i /= 2) { /* up while the least time changes */
		double m = x->t[2 * i] < x->t[2 * i + 1] ? x->t[2 * i] : x->t[2 * i + 1];
		if (m == x->t[i])
			return;
		x->t[i] = m;
	}
}

int js_tindex_first_due(const struct js_tindex *x, double now)
{
	if (!(x->t[1] <= now))
		return -1;
	size_t i = 1;
	while (i < (size_t)x->leaves)
		i = x->t[2 * i] <= now ? 2 * i : 2 * i + 1;
	return (int)(i - (size_t)x->leaves);
}

double js_tindex_min(const struct js_tindex *x)
{
	return x->t[1];
}
