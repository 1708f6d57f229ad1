/* Hop sums over a node set: the sum over its unordered pairs of their
 * distance, and the sum over its nodes of their distance to node 0. Each
 * family gives its own fast path through its ops (pair_sum, to_first),
 * following the set's runs of consecutive ids; a family without one is
 * summed pair by pair (node by node) through its distance(). Sums are
 * exact: 64-bit integers, anything past 2^64 kept in a double. */
#ifndef PLAT_PAIRSUM_H
#define PLAT_PAIRSUM_H

#include <stdint.h>

#include "platform.h"

/* A run of consecutive node ids, first..last. */
struct plat_run {
	int first, last;
};

/* In a strictly increasing nodes[0..n): the last index k of the run of
 * consecutive ids that starts at i (nodes[k] = nodes[i] + k - i), found by
 * galloping then bisection: a run of a million ids costs about 40 probes. */
static inline int plat_nodes_run_end(const int *nodes, int n, int i)
{
	int lo = i, step = 1;
	while (lo + step < n && nodes[lo + step] == nodes[lo] + step) {
		lo += step;
		step *= 2;
	}
	int hi = lo + step < n ? lo + step : n; /* nodes[hi], if any, breaks the run */
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (nodes[mid] == nodes[lo] + (mid - lo))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* An exact sum of nonnegative integers. Zero-initialise. */
struct plat_isum {
	uint64_t i;
	double d;
};
/* Adds a b; adds an integral v >= 0; the sum's value. */
void plat_isum_mul(struct plat_isum *s, uint64_t a, uint64_t b);
void plat_isum_add(struct plat_isum *s, double v);
double plat_isum_value(const struct plat_isum *s);
/* n (n - 1) / 2. */
static inline uint64_t plat_pairs(uint64_t n)
{
	return n ? n * (n - 1) / 2 : 0;
}

/* A node set as runs of consecutive ids, ascending (an array of runs, or
 * of nodes whose runs are found on the way), seen through the window of
 * ids lo..hi renumbered from lo: one cluster of a multi-cluster machine as
 * a machine of its own. */
struct plat_view {
	const struct plat_run *runs; /* runs[0..n), or when NULL */
	const int *nodes;            /* nodes[0..n) */
	int n, start;                /* start: no index before it reaches the window */
	int lo, hi;
};

/* The run at index *i or after that reaches the window, clipped to it and
 * renumbered, as a..b, and *i past it; 0 when none is left. */
static inline int plat_view_next(const struct plat_view *v, int *i, int *a, int *b)
{
	int first, last;
	do {
		if (*i >= v->n)
			return 0;
		if (v->runs) {
			first = v->runs[*i].first;
			last = v->runs[*i].last;
			++*i;
		} else {
			int k = plat_nodes_run_end(v->nodes, v->n, *i);
			first = v->nodes[*i];
			last = v->nodes[k];
			*i = k + 1;
		}
		if (first > v->hi)
			return 0;
	} while (last < v->lo);
	*a = (first > v->lo ? first : v->lo) - v->lo;
	*b = (last < v->hi ? last : v->hi) - v->lo;
	return 1;
}

/* Adds to s the sum over the view's n nodes' unordered pairs of their
 * distance on m; returns the clusters the view spans (1 on a machine of
 * one cluster). scratch has room for n ints. */
int plat_pair_sum(const struct plat_machine *m, const struct plat_view *v, int n, int *scratch,
                  struct plat_isum *s);
/* Adds to s the sum over the view's n nodes of their distance to node 0. */
void plat_sum_to_first(const struct plat_machine *m, const struct plat_view *v, int n, int *scratch,
                       struct plat_isum *s);

#endif
