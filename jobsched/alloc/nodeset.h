/* Node sets as the allocators hand them out: arrays of distinct node ids,
 * most often in increasing order with long runs of consecutive ids. These
 * helpers let per-job work follow the runs instead of the nodes. */
#ifndef JS_NODESET_H
#define JS_NODESET_H

#include "../../platforms/pairsum.h" /* struct plat_run, plat_nodes_run_end */

/* 1 when nodes[0..n) is strictly increasing (eight independent
 * comparisons a step, so that they overlap). */
static inline int js_nodes_sorted(const int *nodes, int n)
{
	int i = 1;
	for (; i + 8 <= n; i += 8) {
		const int *p = nodes + i;
		if (!((p[-1] < p[0]) & (p[0] < p[1]) & (p[1] < p[2]) & (p[2] < p[3]) &
		      (p[3] < p[4]) & (p[4] < p[5]) & (p[5] < p[6]) & (p[6] < p[7])))
			return 0;
	}
	for (; i < n; i++)
		if (nodes[i - 1] >= nodes[i])
			return 0;
	return 1;
}

/* The runs of a strictly increasing nodes[0..n) into runs (room for n);
 * their count, or -1 when nodes is not strictly increasing. */
static inline int js_nodes_to_runs(const int *nodes, int n, struct plat_run *runs)
{
	if (!js_nodes_sorted(nodes, n))
		return -1;
	int r = 0;
	for (int i = 0; i < n;) {
		int k = plat_nodes_run_end(nodes, n, i);
		runs[r].first = nodes[i];
		runs[r++].last = nodes[k];
		i = k + 1;
	}
	return r;
}

/* Writes the ids of runs[0..nr) to nodes, in order. */
static inline void js_runs_expand(const struct plat_run *runs, int nr, int *nodes)
{
	for (int r = 0; r < nr; r++)
		for (int x = runs[r].first; x <= runs[r].last; x++)
			*nodes++ = x;
}

#endif
