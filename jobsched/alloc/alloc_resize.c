/* Growth of a running job's node set (resizable jobs, seed 004), through
 * the allocator's own rules when it has them, else by machine distance (see
 * alloc.h; contraction: alloc_shrink.c). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* The node-id step of one move along each dimension (0 for sides of one). */
static void grid_strides(const struct plat_machine *m, int nd, const int *dims, int *stride)
{
	int c[PLAT_MAX_DIMS];
	for (int d = 0; d < nd; d++) {
		memset(c, 0, sizeof c);
		c[d] = 1;
		stride[d] = dims[d] > 1 ? plat_grid_node(m, c) : 0;
	}
}

/* Node v's neighbours along the grid (strides: a step along each
 * dimension; rings wrap) into next (room for 2 nd); their count. */
static int grid_next(int v, int nd, const int *dims, const int *stride, const int *wrap, int *next)
{
	int n = 0;
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
			next[n++] = v + (y - x) * stride[d];
		}
	}
	return n;
}

/* Meshes and tori (their shape given): every node's distance to the
 * nearest of the job's by a breadth-first search from all of them (the
 * machine's distance is the length of a shortest path along the grid,
 * around the rings of a torus); dist gets the free nodes'. 0, or -2 out
 * of memory. */
static int grid_nearest(const struct plat_machine *m, int nd, const int *dims, const int *wrap,
                        const int *nodes, int n, const int *free_nodes, int nfree, int *dist)
{
	int stride[PLAT_MAX_DIMS];
	grid_strides(m, nd, dims, stride);
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
		int v = queue[head++], next[2 * PLAT_MAX_DIMS];
		for (int i = 0, nn = grid_next(v, nd, dims, stride, wrap, next); i < nn; i++)
			if (all[next[i]] < 0) {
				all[next[i]] = all[v] + 1;
				queue[tail++] = next[i];
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

static int nearest(const struct plat_machine *m, const int *nodes, int n, const int *free_nodes,
                   int nfree, int *dist);

/* Multi-cluster machines: inside a cluster the nested family's distance
 * (the nearest of the cluster's job nodes, by nearest() on that family),
 * across clusters the hops to the gateway (a nested cluster's first node),
 * the WAN hops and the hops from the other gateway, whose least over the
 * job's other clusters is known per cluster; flat clusters are all alike
 * inside and across (one job node of the cluster, or any, gives it). */
static int mc_nearest(const struct plat_machine *m, const int *nodes, int n, const int *free_nodes,
                      int nfree, int *dist)
{
	int C = 0;
	plat_multicluster_shape(m, &C, NULL, NULL, NULL);
	const struct plat_machine *in = plat_multicluster_inner(m);
	int *first = malloc((size_t)C * sizeof *first), *gate = malloc((size_t)C * sizeof *gate),
	    *cnt = calloc((size_t)C + 1, sizeof *cnt), *loc = malloc((size_t)n * sizeof *loc),
	    *lfree = malloc((size_t)nfree * sizeof *lfree);
	int rc = -2;
	if (!first || !gate || !cnt || !loc || !lfree)
		goto out;
	plat_multicluster_shape(m, &C, first, NULL, NULL);
	/* the job's nodes by cluster (counting sort, local ids), and each
	 * cluster's least hops from its gateway to a job node of its own */
	for (int i = 0; i < n; i++)
		cnt[plat_cluster_of(m, nodes[i]) + 1]++;
	for (int c = 0; c < C; c++)
		cnt[c + 1] += cnt[c];
	for (int c = 0; c < C; c++)
		gate[c] = INT_MAX;
	for (int i = 0; i < n; i++) {
		int c = plat_cluster_of(m, nodes[i]);
		loc[cnt[c]++] = nodes[i] - first[c];
		if (in) {
			int d = plat_distance(m, first[c], nodes[i]);
			gate[c] = d < gate[c] ? d : gate[c];
		}
	}
	for (int c = C; c > 0; c--) /* back to the starts */
		cnt[c] = cnt[c - 1];
	cnt[0] = 0;
	int best = -1, second = -1; /* the two clusters of least gate[] */
	for (int c = 0; c < C; c++)
		if (best < 0 || gate[c] < gate[best]) {
			second = best;
			best = c;
		} else if (second < 0 || gate[c] < gate[second])
			second = c;
	int wan = C > 1 ? plat_distance(m, first[0], first[1]) : 0;
	/* the free nodes are in node order, so cluster by cluster */
	for (int i = 0; i < nfree;) {
		int c = plat_cluster_of(m, free_nodes[i]), j = i;
		while (j < nfree && plat_cluster_of(m, free_nodes[j]) == c)
			j++;
		const int *own = loc + cnt[c];
		int nown = cnt[c + 1] - cnt[c];
		if (!in) {
			int rep = nown ? first[c] + own[0] : nodes[0];
			for (int f = i; f < j; f++)
				dist[f] = plat_distance(m, free_nodes[f], rep);
			i = j;
			continue;
		}
		if (nown) {
			for (int f = i; f < j; f++)
				lfree[f - i] = free_nodes[f] - first[c];
			if (nearest(in, own, nown, lfree, j - i, dist + i))
				goto out;
		}
		int other = best == c ? second : best;
		long far = other >= 0 && gate[other] < INT_MAX ? (long)wan + gate[other] : -1;
		for (int f = i; f < j; f++) {
			long d = far < 0 ? -1 : plat_distance(m, free_nodes[f], first[c]) + far;
			if (!nown || (d >= 0 && d < dist[f]))
				dist[f] = (int)d;
		}
		i = j;
	}
	rc = 0;
out:
	free(first);
	free(gate);
	free(cnt);
	free(loc);
	free(lfree);
	return rc;
}

/* Each free node's least distance to the job's nodes (free_nodes in node
 * order, none of them the job's): by the family's structure when the
 * pairs would cost more than the machine, else pair by pair. 0, or -2 out
 * of memory. */
static int nearest(const struct plat_machine *m, const int *nodes, int n, const int *free_nodes,
                   int nfree, int *dist)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], k, levels;
	if ((long)n * nfree > m->nodes) {
		if (plat_grid_shape(m, &nd, dims, wrap, NULL) == 0)
			return grid_nearest(m, nd, dims, wrap, nodes, n, free_nodes, nfree, dist);
		if (plat_kary_ntree_shape(m, &k, &levels, NULL) == 0)
			return tree_nearest(m, k, levels, nodes, n, free_nodes, nfree, dist);
		if (plat_multicluster_shape(m, &k, NULL, NULL, NULL) == 0)
			return mc_nearest(m, nodes, n, free_nodes, nfree, dist);
		if (js_alloc_all_alike(m)) {
			for (int c = 0; c < nfree; c++)
				dist[c] = plat_distance(m, free_nodes[c], nodes[0]);
			return 0;
		}
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

/* --- growth from the machine's busy map, nearest first, reading only as
 * far as the nodes it takes (the free-node list costs the machine's size
 * at every growth: minutes over a whole log at 10^5 nodes) --- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* k-ary n-trees: the free nodes at distance 2l are those of the job's
 * subtrees of level l outside its subtrees of level l - 1; each level's
 * subtrees in increasing order, each read in node order (the tie-break),
 * skipping the lower level's, until extra are taken. */
static int grow_tree(int k, int levels, const uint8_t *busy, const int *nodes, int n, int extra,
                     int *out)
{
	int *sub = malloc(2 * (size_t)n * sizeof *sub);
	if (!sub)
		return -2;
	int *cur = sub, *low = sub + n, nlow = 0, got = 0;
	memcpy(low, nodes, (size_t)n * sizeof *low);
	qsort(low, (size_t)n, sizeof *low, cmp_int);
	for (int i = 0; i < n; i++) /* level 0: the job's nodes, distinct */
		if (!nlow || low[nlow - 1] != low[i])
			low[nlow++] = low[i];
	long size = 1;
	for (int l = 1; l <= levels && got < extra; l++) {
		size *= k;
		int ncur = 0;
		for (int i = 0; i < nlow; i++) /* the level's subtrees, increasing */
			if (!ncur || cur[ncur - 1] != low[i] / k)
				cur[ncur++] = low[i] / k;
		for (int i = 0, j = 0; i < ncur && got < extra; i++) {
			long v = cur[i] * size, end = v + size;
			for (; v < end && got < extra; v++) {
				while (j < nlow && (low[j] + 1) * (size / k) <= v)
					j++;
				if (j < nlow && low[j] * (size / k) <= v) { /* a lower subtree */
					v = (low[j] + 1) * (size / k) - 1;
					continue;
				}
				if (!busy[v])
					out[got++] = (int)v;
			}
		}
		int *t = low; /* this level's subtrees are the next one's lower */
		low = cur;
		cur = t;
		nlow = ncur;
	}
	free(sub);
	return got < extra ? -1 : 0;
}

/* Meshes and tori: a breadth-first search from the job's nodes, layer by
 * layer (the machine's distance is the length of a shortest path along the
 * grid); each layer's free nodes in node order, until extra are taken. */
static int grow_grid(const struct plat_machine *m, int nd, const int *dims, const int *wrap,
                     const uint8_t *busy, const int *nodes, int n, int extra, int *out)
{
	int stride[PLAT_MAX_DIMS];
	grid_strides(m, nd, dims, stride);
	uint8_t *seen = calloc((size_t)m->nodes, 1);
	size_t cap = (size_t)n * 2 + 64;
	int *layer = malloc(cap * sizeof *layer), *next = malloc(cap * sizeof *next), rc = -2;
	if (!seen || !layer || !next)
		goto out;
	int nl = 0, got = 0;
	for (int i = 0; i < n; i++)
		if (!seen[nodes[i]]) {
			seen[nodes[i]] = 1;
			layer[nl++] = nodes[i];
		}
	while (nl > 0 && got < extra) {
		size_t nn = 0;
		for (int i = 0; i < nl; i++) {
			int next_of[2 * PLAT_MAX_DIMS];
			int cnt = grid_next(layer[i], nd, dims, stride, wrap, next_of);
			for (int q = 0; q < cnt; q++) {
				int u = next_of[q];
				if (seen[u])
					continue;
				seen[u] = 1;
				if (nn == cap) {
					int *a = realloc(layer, 2 * cap * sizeof *a),
					    *b = a ? realloc(next, 2 * cap * sizeof *b) : NULL;
					if (a)
						layer = a;
					if (!b)
						goto out;
					next = b;
					cap *= 2;
				}
				next[nn++] = u;
			}
		}
		int *t = layer; /* the new layer, its free nodes in node order */
		layer = next;
		next = t;
		nl = (int)nn;
		qsort(layer, nn, sizeof *layer, cmp_int);
		for (int i = 0; i < nl && got < extra; i++)
			if (!busy[layer[i]])
				out[got++] = layer[i];
	}
	rc = got < extra ? -1 : 0;
out:
	free(seen);
	free(layer);
	free(next);
	return rc;
}

/* Multi-clusters of flat clusters: the free nodes of the job's clusters
 * (distance 2) in node order, then the others' (across the WAN). */
static int grow_mc_flat(const struct plat_machine *m, const uint8_t *busy, const int *nodes, int n,
                        int extra, int *out)
{
	int C = 0;
	plat_multicluster_shape(m, &C, NULL, NULL, NULL);
	int *first = malloc(((size_t)C + 1) * sizeof *first),
	    *size = malloc((size_t)C * sizeof *size);
	uint8_t *mine = calloc((size_t)C, 1);
	if (!first || !size || !mine) {
		free(first);
		free(size);
		free(mine);
		return -2;
	}
	plat_multicluster_shape(m, &C, first, size, NULL);
	for (int i = 0; i < n; i++)
		mine[plat_cluster_of(m, nodes[i])] = 1;
	int got = 0;
	for (int pass = 1; pass >= 0; pass--) /* the job's clusters, then the rest */
		for (int c = 0; c < C && got < extra; c++)
			for (int v = first[c];
			     mine[c] == pass && v < first[c] + size[c] && got < extra; v++)
				if (!busy[v])
					out[got++] = v;
	free(first);
	free(size);
	free(mine);
	return got < extra ? -1 : 0;
}

int js_alloc_grow_map(struct js_alloc *a, const int *nodes, int n, const uint8_t *busy, int extra,
                      int *out)
{
	const struct plat_machine *m = a->machine;
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], k, levels;
	if (!a->ops->grow && n > 0) {
		if (js_alloc_all_alike(m)) { /* all equally near: in node order */
			int got = 0;
			for (int v = 0; v < m->nodes && got < extra; v++)
				if (!busy[v])
					out[got++] = v;
			return got < extra ? -1 : 0;
		}
		if (plat_kary_ntree_shape(m, &k, &levels, NULL) == 0)
			return grow_tree(k, levels, busy, nodes, n, extra, out);
		if (plat_grid_shape(m, &nd, dims, wrap, NULL) == 0)
			return grow_grid(m, nd, dims, wrap, busy, nodes, n, extra, out);
		if (plat_multicluster_shape(m, &k, NULL, NULL, NULL) == 0 &&
		    !plat_multicluster_inner(m))
			return grow_mc_flat(m, busy, nodes, n, extra, out);
	}
	int *free_nodes = malloc((size_t)m->nodes * sizeof *free_nodes), nfree = 0;
	if (!free_nodes)
		return -2;
	for (int v = 0; v < m->nodes; v++)
		if (!busy[v])
			free_nodes[nfree++] = v;
	int rc = js_alloc_grow(a, nodes, n, free_nodes, nfree, extra, out);
	free(free_nodes);
	return rc;
}
