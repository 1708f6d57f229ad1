/* Growth and contraction of a running job's node set (resizable jobs,
 * seed 004), through the allocator's own rules when it has them, else by
 * machine distance (see alloc.h). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Meshes and tori (their shape given): every node's distance to the
 * nearest of the job's by a breadth-first search from all of them (the
 * machine's distance is the length of a shortest path along the grid,
 * around the rings of a torus); dist gets the free nodes'. 0, or -2 out
 * of memory. */
static int grid_nearest(const struct plat_machine *m, int nd, const int *dims, const int *wrap,
                        const int *nodes, int n, const int *free_nodes, int nfree, int *dist)
{
	int stride[PLAT_MAX_DIMS], c[PLAT_MAX_DIMS];
	for (int d = 0; d < nd; d++) {
		memset(c, 0, sizeof c);
		c[d] = 1;
		stride[d] = dims[d] > 1 ? plat_grid_node(m, c) : 0;
	}
	int *all = malloc((size_t)m->nodes * sizeof *all),
	    *queue = malloc((size_t)m->nodes * sizeof *queue);
	if (!all || !queue) {
		free(all);
		free(queue);
		return -2;
	}
	for (int v = 0; v < m->nodes; v++)
		all[v] = -1;
	int head = 0, tail = 0;
	for (int i = 0; i < n; i++)
		if (all[nodes[i]] < 0) {
			all[nodes[i]] = 0;
			queue[tail++] = nodes[i];
		}
	while (head < tail) {
		int v = queue[head++];
		for (int d = 0; d < nd; d++) {
			if (dims[d] == 1)
				continue;
			int x = v / stride[d] % dims[d];
			for (int step = -1; step <= 1; step += 2) {
				int y = x + step;
				if (y < 0 || y >= dims[d]) {
					if (!wrap[d])
						continue;
					y = y < 0 ? dims[d] - 1 : 0;
				}
				int u = v + (y - x) * stride[d];
				if (all[u] < 0) {
					all[u] = all[v] + 1;
					queue[tail++] = u;
				}
			}
		}
	}
	for (int i = 0; i < nfree; i++)
		dist[i] = all[free_nodes[i]];
	free(all);
	free(queue);
	return 0;
}

/* k-ary n-trees: a free node's nearest job node is any in the smallest
 * subtree holding both (the distance follows the nearest common
 * ancestor's level): one job node kept per subtree and level. */
static int tree_nearest(const struct plat_machine *m, int k, int levels, const int *nodes, int n,
                        const int *free_nodes, int nfree, int *dist)
{
	int total = 0;
	for (int l = 1, size = k; l <= levels; l++, size *= k)
		total += m->nodes / size;
	int *rep = malloc((size_t)(total > 0 ? total : 1) * sizeof *rep);
	if (!rep)
		return -2;
	for (int i = 0; i < total; i++)
		rep[i] = -1;
	for (int i = 0; i < n; i++)
		for (int l = 1, size = k, off = 0; l <= levels;
		     off += m->nodes / size, l++, size *= k)
			if (rep[off + nodes[i] / size] < 0)
				rep[off + nodes[i] / size] = nodes[i];
	for (int c = 0; c < nfree; c++) {
		int f = free_nodes[c], near = nodes[0];
		for (int l = 1, size = k, off = 0; l <= levels;
		     off += m->nodes / size, l++, size *= k)
			if (rep[off + f / size] >= 0) {
				near = rep[off + f / size];
				break;
			}
		dist[c] = plat_distance(m, f, near);
	}
	free(rep);
	return 0;
}

/* Each free node's least distance to the job's nodes: by the family's
 * structure when the pairs would cost more than the machine, else pair by
 * pair. 0, or -2 out of memory. */
static int nearest(const struct plat_machine *m, const int *nodes, int n, const int *free_nodes,
                   int nfree, int *dist)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], k, levels;
	if ((long)n * nfree > m->nodes) {
		if (plat_grid_shape(m, &nd, dims, wrap, NULL) == 0)
			return grid_nearest(m, nd, dims, wrap, nodes, n, free_nodes, nfree, dist);
		if (plat_kary_ntree_shape(m, &k, &levels, NULL) == 0)
			return tree_nearest(m, k, levels, nodes, n, free_nodes, nfree, dist);
	}
	for (int c = 0; c < nfree; c++) {
		int best = -1;
		for (int i = 0; i < n; i++) {
			int d = plat_distance(m, free_nodes[c], nodes[i]);
			if (best < 0 || d < best)
				best = d;
		}
		dist[c] = best < 0 ? 0 : best; /* a job of no nodes: all alike */
	}
	return 0;
}

int js_alloc_grow(struct js_alloc *a, const int *nodes, int n, const int *free_nodes, int nfree,
                  int extra, int *out)
{
	if (a->ops->grow)
		return a->ops->grow(a->self, nodes, n, free_nodes, nfree, extra, out);
	if (nfree < extra)
		return -1;
	int *dist = malloc((size_t)(nfree > 0 ? nfree : 1) * sizeof *dist);
	if (!dist || nearest(a->machine, nodes, n, free_nodes, nfree, dist)) {
		free(dist);
		return -2;
	}
	/* the extra nearest, ties in node order (the free nodes are in node
	 * order already): a counting sort by distance, stable */
	int most = 0;
	for (int c = 0; c < nfree; c++)
		most = dist[c] > most ? dist[c] : most;
	int *start = calloc((size_t)most + 2, sizeof *start);
	if (!start) {
		free(dist);
		return -2;
	}
	for (int c = 0; c < nfree; c++)
		start[dist[c] + 1]++;
	for (int d = 0; d <= most; d++)
		start[d + 1] += start[d];
	for (int c = 0; c < nfree; c++) {
		int at = start[dist[c]]++;
		if (at < extra)
			out[at] = free_nodes[c];
	}
	free(start);
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
