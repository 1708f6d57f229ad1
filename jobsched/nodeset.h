/* Node sets as the allocators hand them out: arrays of distinct node ids,
 * most often in increasing order with long runs of consecutive ids. These
 * helpers let per-job work follow the runs instead of the nodes. */
#ifndef JS_NODESET_H
#define JS_NODESET_H

/* A run of consecutive node ids, first..last. */
struct js_run {
	int first, last;
};

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

/* In a strictly increasing nodes[0..n): the last index k of the run of
 * consecutive ids that starts at i (nodes[k] = nodes[i] + k - i), found by
 * galloping then bisection: a run of a million ids costs about 40 probes. */
static inline int js_nodes_run_end(const int *nodes, int n, int i)
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

/* The runs of a strictly increasing nodes[0..n) into runs (room for n);
 * their count, or -1 when nodes is not strictly increasing. */
static inline int js_nodes_to_runs(const int *nodes, int n, struct js_run *runs)
{
	if (!js_nodes_sorted(nodes, n))
		return -1;
	int r = 0;
	for (int i = 0; i < n;) {
		int k = js_nodes_run_end(nodes, n, i);
		runs[r].first = nodes[i];
		runs[r++].last = nodes[k];
		i = k + 1;
	}
	return r;
}

/* Writes the ids of runs[0..nr) to nodes, in order. */
static inline void js_runs_expand(const struct js_run *runs, int nr, int *nodes)
{
	for (int r = 0; r < nr; r++)
		for (int x = runs[r].first; x <= runs[r].last; x++)
			*nodes++ = x;
}

#endif
