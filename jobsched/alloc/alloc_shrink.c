/* Contraction of a running job's node set by machine distance (resizable
 * jobs, seed 004; alloc.h): one at a time, the node with the largest sum
 * of distances to the job's other nodes still kept (ties: the higher
 * number) is released.
 *
 * By definition that is every pair's distance and then every kept node's
 * sum lowered by each release: quadratic in the job's size, minutes for a
 * job of tens of thousands of nodes. Where the family's structure gives
 * the choices directly, they are made without the pairs, and the same
 * nodes come out in the same order (tests/jobsched/test_resize.c compares
 * with the definition):
 * - flat machines: every two nodes are alike, so every sum is the same
 *   and the highest numbers go first;
 * - k-ary n-trees: two nodes are 2l apart, l the level of their nearest
 *   common ancestor, so a node's sum is 2 (n K - sum over l < n of c_l),
 *   K the kept nodes and c_l those in its subtree of level l (c_0 = 1):
 *   the largest sum is the least sum of subtree counts along a path from
 *   the top, kept per subtree (the least over its children plus its own
 *   count) and mended along the released node's path;
 * - meshes and tori: the sums start from per-dimension histograms (linear
 *   in the job and the sides), and each release lowers them from
 *   coordinates kept beside the nodes: the size times the nodes released.
 * Other families (multi-clusters, platforms read from XML) go pair by
 * pair. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* The job's nodes in increasing order, each with where it is in the
 * job's array and the reverse, so that releases in a chosen order make
 * the swaps the definition makes. */
struct order {
	int *id;    /* rank -> node, increasing */
	int *where; /* rank -> position in nodes[] */
	int *at;    /* position -> rank */
};

static int cmp_pair(const void *a, const void *b)
{
	const long *x = a, *y = b;
	return (*x > *y) - (*x < *y);
}

static int order_init(struct order *o, const int *nodes, int n)
{
	long *pair = malloc((size_t)n * sizeof *pair);
	o->id = malloc((size_t)n * sizeof *o->id);
	o->where = malloc((size_t)n * sizeof *o->where);
	o->at = malloc((size_t)n * sizeof *o->at);
	if (!pair || !o->id || !o->where || !o->at) {
		free(pair);
		return -2;
	}
	for (int i = 0; i < n; i++)
		pair[i] = (long)nodes[i] << 32 | (unsigned)i;
	qsort(pair, (size_t)n, sizeof *pair, cmp_pair);
	for (int r = 0; r < n; r++) {
		o->id[r] = (int)(pair[r] >> 32);
		o->where[r] = (int)(pair[r] & 0xffffffff);
		o->at[o->where[r]] = r;
	}
	free(pair);
	return 0;
}

static void order_free(struct order *o)
{
	free(o->id);
	free(o->where);
	free(o->at);
}

/* Releases the node of rank r: it swaps with the last kept one, as the
 * definition does. */
static void release_rank(struct order *o, int *nodes, int *keep, int r)
{
	int w = o->where[r], last = --*keep, rl = o->at[last];
	nodes[w] = nodes[last];
	o->where[rl] = w;
	o->at[w] = rl;
	nodes[last] = o->id[r];
	o->where[r] = last;
	o->at[last] = r;
}

/* Flat: the highest numbers first. */
static int shrink_flat(int *nodes, int n, int drop)
{
	struct order o;
	if (order_init(&o, nodes, n))
		return -2;
	for (int keep = n, r = n - 1; r >= n - drop; r--)
		release_rank(&o, nodes, &keep, r);
	order_free(&o);
	return 0;
}

/* Subtree s of level l's best from its count and its children's. */
static void mend(int *const *cnt, int *const *best, int k, int l, int s)
{
	int least = l == 1 ? 0 : INT_MAX;
	for (int c = 0; c < k && l > 1; c++) {
		int b = best[l - 1][s * k + c];
		least = b < least ? b : least;
	}
	best[l][s] = cnt[l][s] && least < INT_MAX ? cnt[l][s] + least : INT_MAX;
}

/* k-ary n-trees (levels = n). Subtree s of level l (1 <= l < levels)
 * holds nodes s k^l .. (s + 1) k^l - 1; cnt[l][s] of the job's kept nodes
 * are in it and best[l][s] is the least, over its kept nodes, of the sum
 * of their subtree counts at levels 1..l (INT_MAX: none kept). */
static int shrink_tree(const struct plat_machine *m, int k, int levels, int *nodes, int n, int drop)
{
	if (levels < 2)
		return shrink_flat(nodes, n, drop); /* one switch: all alike */
	struct order o;
	if (order_init(&o, nodes, n))
		return -2;
	int *cnt[32] = {0}, *best[32] = {0}, *end = NULL, rc = -2;
	long size[32]; /* nodes in a subtree of level l */
	size[0] = 1;
	for (int l = 1; l < levels; l++) {
		size[l] = size[l - 1] * k;
		size_t subs = (size_t)(m->nodes / size[l]);
		cnt[l] = calloc(subs, sizeof *cnt[l]);
		best[l] = malloc(subs * sizeof *best[l]);
		if (!cnt[l] || !best[l])
			goto out;
	}
	/* end[g]: one past the highest kept rank of leaf group g (ranks are
	 * increasing by node, so a group's ranks are consecutive) */
	end = malloc((size_t)(m->nodes / k) * sizeof *end);
	if (!end)
		goto out;
	for (int r = 0; r < n; r++) {
		end[o.id[r] / k] = r + 1;
		for (int l = 1; l < levels; l++)
			cnt[l][o.id[r] / size[l]]++;
	}
	for (int l = 1; l < levels; l++) {
		int subs = (int)(m->nodes / size[l]);
		for (int s = 0; s < subs; s++)
			mend(cnt, best, k, l, s);
	}
	for (int keep = n; keep > n - drop;) {
		/* down from the top: the least best, ties the higher subtree */
		int s = 0;
		for (int l = levels - 1; l >= 1; l--) {
			int pick = -1;
			for (int c = 0; c < k; c++) {
				int v = best[l][s * k + c];
				if (v < INT_MAX && (pick < 0 || v <= best[l][s * k + pick]))
					pick = c;
			}
			s = s * k + pick;
		}
		int r = --end[s]; /* its highest kept node */
		int v = o.id[r];
		release_rank(&o, nodes, &keep, r);
		for (int l = 1; l < levels; l++) {
			int t = (int)(v / size[l]);
			cnt[l][t]--;
			mend(cnt, best, k, l, t);
		}
	}
	rc = 0;
out:
	for (int l = 1; l < levels; l++) {
		free(cnt[l]);
		free(best[l]);
	}
	free(end);
	order_free(&o);
	return rc;
}

/* The kept node (of nodes[0..keep-1]) of the largest sum, ties the
 * higher number. */
static int farthest(const long *sum, const int *nodes, int keep)
{
	int w = 0;
	for (int x = 1; x < keep; x++)
		if (sum[x] > sum[w] || (sum[x] == sum[w] && nodes[x] > nodes[w]))
			w = x;
	return w;
}

/* Swaps position w with position last (the last kept), nodes and sums. */
static void behind(int *nodes, long *sum, int w, int last)
{
	int v = nodes[w];
	long sv = sum[w];
	nodes[w] = nodes[last];
	sum[w] = sum[last];
	nodes[last] = v;
	sum[last] = sv;
}

/* Meshes and tori: a node's sum of distances is the sum over dimensions of
 * its coordinate's sum of distances to the job's coordinates there, each
 * from prefix sums of a histogram (along a ring, over two turns, the
 * nearer way within half a turn); a release then lowers every kept sum by
 * its distance, from coordinates kept beside the nodes. */
static void dim_sums(const long *h, int len, int wrap, long *g, long *p0, long *p1)
{
	int span = wrap ? 2 * len : len; /* prefix sums over one or two turns */
	p0[0] = p1[0] = 0;
	for (int i = 0; i < span; i++) {
		p0[i + 1] = p0[i] + h[i % len];
		p1[i + 1] = p1[i] + (long)i * h[i % len];
	}
	for (int c = 0; c < len; c++) {
		if (!wrap) {
			g[c] =
			    c * p0[c] - p1[c] + (p1[len] - p1[c + 1]) - c * (p0[len] - p0[c + 1]);
			continue;
		}
		int mid =
		    c + len / 2 + 1; /* c .. mid - 1: the + way; mid .. c + len - 1: the - way */
		g[c] = (p1[mid] - p1[c]) - (long)c * (p0[mid] - p0[c]) +
		       (long)(c + len) * (p0[c + len] - p0[mid]) - (p1[c + len] - p1[mid]);
	}
}

static int shrink_grid(const struct plat_machine *m, int nd, const int *dims, const int *wrap,
                       int *nodes, int n, int drop)
{
	int most = 1;
	for (int d = 0; d < nd; d++)
		most = dims[d] > most ? dims[d] : most;
	long *sum = calloc((size_t)n, sizeof *sum), *h = malloc((size_t)most * sizeof *h),
	     *g = malloc((size_t)most * sizeof *g),
	     *p0 = malloc((2 * (size_t)most + 1) * sizeof *p0),
	     *p1 = malloc((2 * (size_t)most + 1) * sizeof *p1);
	int *co = malloc((size_t)n * (size_t)nd * sizeof *co), rc = -2;
	if (!sum || !h || !g || !p0 || !p1 || !co)
		goto out;
	int c[PLAT_MAX_DIMS];
	for (int i = 0; i < n; i++) {
		plat_coords(m, nodes[i], c);
		memcpy(co + (size_t)i * (size_t)nd, c, (size_t)nd * sizeof *c);
	}
	for (int d = 0; d < nd; d++) {
		memset(h, 0, (size_t)dims[d] * sizeof *h);
		for (int i = 0; i < n; i++)
			h[co[(size_t)i * (size_t)nd + (size_t)d]]++;
		dim_sums(h, dims[d], wrap[d], g, p0, p1);
		for (int i = 0; i < n; i++)
			sum[i] += g[co[(size_t)i * (size_t)nd + (size_t)d]];
	}
	for (int keep = n; keep > n - drop;) {
		int w = farthest(sum, nodes, keep);
		const int *cv = co + (size_t)w * (size_t)nd;
		for (int x = 0; x < keep; x++) {
			const int *cx = co + (size_t)x * (size_t)nd;
			long dist = 0;
			for (int d = 0; d < nd; d++) {
				int dx = cx[d] > cv[d] ? cx[d] - cv[d] : cv[d] - cx[d];
				dist += wrap[d] && dims[d] - dx < dx ? dims[d] - dx : dx;
			}
			sum[x] -= dist;
		}
		behind(nodes, sum, w, --keep);
		for (int d = 0; d < nd; d++) {
			int t = co[(size_t)w * (size_t)nd + (size_t)d];
			co[(size_t)w * (size_t)nd + (size_t)d] =
			    co[(size_t)keep * (size_t)nd + (size_t)d];
			co[(size_t)keep * (size_t)nd + (size_t)d] = t;
		}
	}
	rc = 0;
out:
	free(sum);
	free(h);
	free(g);
	free(p0);
	free(p1);
	free(co);
	return rc;
}

/* The definition: every pair, then each release lowers the sums. */
static int shrink_pairs(const struct plat_machine *m, int *nodes, int n, int drop)
{
	long *sum = malloc((size_t)n * sizeof *sum);
	if (!sum)
		return -2;
	for (int x = 0; x < n; x++) {
		sum[x] = 0;
		for (int y = 0; y < n; y++)
			sum[x] += plat_distance(m, nodes[x], nodes[y]);
	}
	int keep = n; /* nodes[0..keep-1] still kept */
	for (int k = 0; k < drop; k++) {
		int w = farthest(sum, nodes, keep), v = nodes[w];
		for (int x = 0; x < keep; x++) /* the rest no longer counts it */
			sum[x] -= plat_distance(m, nodes[x], v);
		behind(nodes, sum, w, --keep);
	}
	free(sum);
	return 0;
}

int js_alloc_shrink(struct js_alloc *a, int *nodes, int n, int drop)
{
	if (a->ops->shrink)
		return a->ops->shrink(a->self, nodes, n, drop);
	const struct plat_machine *m = a->machine;
	int k, levels, nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	if (drop <= 0)
		return 0;
	/* the structures cost about the machine's size: worth it when the
	 * pairs cost more */
	if ((long)n * n > m->nodes) {
		if (js_alloc_all_alike(m))
			return shrink_flat(nodes, n, drop);
		if (plat_kary_ntree_shape(m, &k, &levels, NULL) == 0 && levels < 32)
			return shrink_tree(m, k, levels, nodes, n, drop);
		if (plat_grid_shape(m, &nd, dims, wrap, NULL) == 0)
			return shrink_grid(m, nd, dims, wrap, nodes, n, drop);
	}
	return shrink_pairs(m, nodes, n, drop);
}
