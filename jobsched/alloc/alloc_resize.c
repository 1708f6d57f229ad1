/* Growth and contraction of a running job's node set (resizable jobs,
 * seed 004), through the allocator's own rules when it has them, else by
 * machine distance (see alloc.h). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

int js_alloc_grow(struct js_alloc *a, const int *nodes, int n, const int *free_nodes, int nfree,
                  int extra, int *out)
{
	if (a->ops->grow)
		return a->ops->grow(a->self, nodes, n, free_nodes, nfree, extra, out);
	if (nfree < extra)
		return -1;
	int *cand = malloc((size_t)nfree * sizeof *cand),
	    *dist = malloc((size_t)nfree * sizeof *dist);
	if (!cand || !dist) {
		free(cand);
		free(dist);
		return -2;
	}
	for (int c = 0; c < nfree; c++) {
		int best = -1;
		for (int i = 0; i < n; i++) {
			int d = plat_distance(a->machine, free_nodes[c], nodes[i]);
			if (best < 0 || d < best)
				best = d;
		}
		dist[c] = best;
		cand[c] = c;
	}
	/* the extra nearest: a stable insertion sort by distance (the free
	 * nodes are in node order already) */
	for (int i = 1; i < nfree; i++) {
		int v = cand[i], b = i;
		while (b > 0 && dist[cand[b - 1]] > dist[v]) {
			cand[b] = cand[b - 1];
			b--;
		}
		cand[b] = v;
	}
	for (int k = 0; k < extra; k++)
		out[k] = free_nodes[cand[k]];
	free(cand);
	free(dist);
	return 0;
}

int js_alloc_shrink(struct js_alloc *a, int *nodes, int n, int drop)
{
	if (a->ops->shrink)
		return a->ops->shrink(a->self, nodes, n, drop);
	long *sum = malloc((size_t)n * sizeof *sum);
	if (!sum)
		return -2;
	for (int x = 0; x < n; x++) {
		sum[x] = 0;
		for (int y = 0; y < n; y++)
			sum[x] += plat_distance(a->machine, nodes[x], nodes[y]);
	}
	int keep = n; /* nodes[0..keep-1] still kept */
	for (int k = 0; k < drop; k++) {
		int w = 0;
		for (int x = 1; x < keep; x++)
			if (sum[x] > sum[w] || (sum[x] == sum[w] && nodes[x] > nodes[w]))
				w = x;
		int v = nodes[w];
		for (int x = 0; x < keep; x++) /* the rest no longer counts it */
			sum[x] -= plat_distance(a->machine, nodes[x], v);
		keep--; /* swap it behind the kept ones */
		nodes[w] = nodes[keep];
		sum[w] = sum[keep];
		nodes[keep] = v;
	}
	free(sum);
	return 0;
}
