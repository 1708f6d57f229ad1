/* MC1x1 (seed 002 section I): the free centre whose k nearest free nodes
 * by L-infinity shells have the least sum of shell numbers (ties: the lower
 * id). With F(s) the free nodes within L-inf radius s of a centre, its score
 * is sum over s >= 0 of max(0, k - F(s)); over a box of centres, F(s) is at
 * most the free nodes of the box widened by s, and at most the largest
 * cube of radius s any of them has inside the mesh, which bounds the score
 * of every centre in the box for the best-first search. */
#include <limits.h>

#include "center_internal.h"

/* Walks the shells of box b for job size k: returns the bound (a single
 * centre's exact score), or -1 when it exceeds cut or the box holds no free
 * node. *radius: the first shell that completes the job. The cube that
 * keeps the most of itself inside the mesh is, per dimension, around the
 * box's coordinate nearest the mesh's middle. */
static long shells(const struct center *c, const struct center_box *b, int k, long cut, int *radius)
{
	int lo[3], hi[3], clo[3], chi[3]; /* the widened box, half-open; the cube */
	for (int d = 0; d < 3; d++) {
		int mid = (c->dims[d] - 1) / 2;
		lo[d] = b->lo[d];
		hi[d] = b->hi[d] + 1;
		clo[d] = chi[d] = mid < b->lo[d] ? b->lo[d] : mid > b->hi[d] ? b->hi[d] : mid;
	}
	long sum = 0, known = 0; /* free nodes of the widened box at some radius <= s */
	for (int s = 0;; s++) {
		long f =
		    (long)(chi[0] - clo[0] + 1) * (chi[1] - clo[1] + 1) * (chi[2] - clo[2] + 1);
		if (known < f || s == 0) { /* else the widened box has f free nodes or more */
			known = center_count(c, lo, hi);
			if (known == 0)
				return -1;
			f = known < f ? known : f;
		}
		if (f >= k) {
			*radius = s;
			return sum;
		}
		sum += k - f;
		if (sum > cut)
			return -1;
		for (int d = c->d0; d < 3; d++) {
			int top = c->dims[d];
			lo[d] -= lo[d] > 0;
			hi[d] += hi[d] < top;
			clo[d] -= clo[d] > 0;
			chi[d] += chi[d] < top - 1;
		}
	}
}

static int mc1x1_bound(struct center *c, void *ctx, struct center_box *b, long cut)
{
	int radius;
	b->lb = shells(c, b, *(const int *)ctx, cut, &radius);
	return b->lb >= 0;
}

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

/* The k free nodes nearest p, by (L-inf, L1, id), within L-inf radius s of
 * it, in that order: a counting sort of the cube's free nodes (visited in id
 * order, so ties stay by id) on the key (L-inf, L1 - L-inf). */
static void take_nearest(struct center *c, const int *p, int s, int k, int *out)
{
	int lo[3], hi[3], extra = 0, most = 0;
	for (int d = 0; d < 3; d++) {
		lo[d] = p[d] - s < 0 ? 0 : p[d] - s;
		hi[d] = p[d] + s > c->dims[d] - 1 ? c->dims[d] - 1 : p[d] + s;
		int far = p[d] - lo[d] > hi[d] - p[d] ? p[d] - lo[d] : hi[d] - p[d];
		extra += far;
		most = far > most ? far : most;
	}
	/* L1 - L-inf, the sum of all offsets but the largest, grows with each
	 * offset: at most that of the farthest ones */
	extra -= most;
	size_t stride = (size_t)extra + 1, keys = (size_t)(s + 1) * stride;
	int *cnt = c->cnt;
	for (size_t i = 0; i <= keys; i++)
		cnt[i] = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int x = lo[0]; x <= hi[0]; x++)
			for (int y = lo[1]; y <= hi[1]; y++)
				for (int z = lo[2]; z <= hi[2]; z++) {
					int v = center_id(c, x, y, z);
					if (c->busy[v])
						continue;
					int a = iabs(x - p[0]), b = iabs(y - p[1]),
					    e = iabs(z - p[2]);
					int li = a > b ? a : b;
					li = li > e ? li : e;
					size_t key = (size_t)li * stride + (size_t)(a + b + e - li);
					if (pass == 0)
						cnt[key + 1]++;
					else
						c->bucket[cnt[key]++] = v;
				}
		if (pass == 0)
			for (size_t i = 0; i < keys; i++)
				cnt[i + 1] += cnt[i];
	}
	for (int i = 0; i < k; i++)
		out[i] = c->bucket[i];
}

int js_center_place_mc1x1(struct center *c, int k, int *nodes)
{
	js_center_sat_update(c);
	int best = js_center_search(c, mc1x1_bound, &k, NULL, 0, 1), radius = 0;
	if (best < 0) /* no candidate: the tables disagree with busy (a bug) */
		return 0;
	struct center_box b = {.minid = best, .size = 1, .exact = 1};
	center_xyz(c, best, b.lo);
	for (int d = 0; d < 3; d++)
		b.hi[d] = b.lo[d];
	shells(c, &b, k, LONG_MAX, &radius);
	take_nearest(c, b.lo, radius, k, nodes);
	return k;
}
