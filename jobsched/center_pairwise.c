/* Gen-Alg (Krumke et al.) and MM (Bender et al.), seed 002 section V: the
 * candidate centre whose k free nodes nearest in L1 (ties: lower id) have
 * the least sum of pairwise L1 distances wins (ties: the lower centre). */
#include <string.h>

#include "center_internal.h"

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

static int l1(const int *a, const int *b)
{
	return iabs(a[0] - b[0]) + iabs(a[1] - b[1]) + iabs(a[2] - b[2]);
}

/* The k free nodes nearest centre p by (L1, id), written to out. */
static void nearest(struct center *c, const int *p, int k, int *out)
{
	int keys = c->dims[0] + c->dims[1] + c->dims[2] + 1;
	int *cnt = c->cnt;
	memset(cnt, 0, ((size_t)keys + 1) * sizeof *cnt);
	int q[3];
	for (int v = 0; v < c->n; v++)
		if (!c->busy[v]) {
			center_xyz(c, v, q);
			cnt[l1(p, q) + 1]++;
		}
	for (int i = 0; i < keys; i++)
		cnt[i + 1] += cnt[i];
	for (int v = 0; v < c->n; v++) /* stable: ids ascending within a key */
		if (!c->busy[v]) {
			center_xyz(c, v, q);
			c->bucket[cnt[l1(p, q)]++] = v;
		}
	memcpy(out, c->bucket, (size_t)k * sizeof *out);
}

/* Sum of pairwise L1 distances of k nodes: per coordinate histograms. */
static long pairwise(struct center *c, const int *nodes, int k)
{
	long sum = 0;
	int q[3];
	for (int d = 0; d < 3; d++) {
		int *h = c->cnt;
		memset(h, 0, (size_t)c->dims[d] * sizeof *h);
		for (int i = 0; i < k; i++) {
			center_xyz(c, nodes[i], q);
			h[q[d]]++;
		}
		long below = 0, seen = 0; /* sum over sorted values of v (2i - k + 1) */
		for (int v = 0; v < c->dims[d]; v++)
			for (int t = 0; t < h[v]; t++, seen++)
				below += (long)v * (2 * seen - k + 1);
		sum += below;
	}
	return sum;
}

static int is_candidate(const struct center *c, int v, const int *p)
{
	if (c->kind == CENTER_GENALG)
		return !c->busy[v];
	int X = c->dims[0], Y = c->dims[1];
	return c->has[p[0]] && c->has[X + p[1]] && c->has[X + Y + p[2]];
}

int center_place_pairwise(struct center *c, int k, int *nodes)
{
	int X = c->dims[0], Y = c->dims[1], Z = c->dims[2], p[3];
	if (c->kind == CENTER_MM) {
		memset(c->has, 0, (size_t)(X + Y + Z));
		for (int v = 0; v < c->n; v++)
			if (!c->busy[v]) {
				center_xyz(c, v, p);
				c->has[p[0]] = c->has[X + p[1]] = c->has[X + Y + p[2]] = 1;
			}
	}
	long best = -1;
	int best_v = -1;
	int *cand = nodes; /* room for every node: scratch until the winner is known */
	for (int v = 0; v < c->n; v++) {
		center_xyz(c, v, p);
		if (!is_candidate(c, v, p))
			continue;
		nearest(c, p, k, cand);
		long score = pairwise(c, cand, k);
		if (best < 0 || score < best) {
			best = score;
			best_v = v;
		}
	}
	center_xyz(c, best_v, p);
	nearest(c, p, k, nodes);
	return k;
}
