/* Gen-Alg and MM's score of one centre of a mesh of one plane (1D or 2D),
 * in two passes (center_pairwise.c scores centres of any mesh through
 * histograms of the L1 regions, center_region.c; the numbers are the
 * same). The radius R and the free nodes m of the ball of radius R - 1
 * are known (counted by diagonals, center_diag.c); the k nearest are that
 * ball's free nodes and the first k - m free nodes of the sphere of
 * radius R in id order (rows down, the lower z first). The pass down the
 * rows counts each row's share of the ball from the row prefix sums, takes
 * the row's sphere nodes (just outside that share) while some are wanted,
 * noting their columns in `spill`, and adds each cut's L (k - L) at once;
 * the pass along the columns does the same from the column prefix sums
 * and the spilled sphere nodes, and clears `spill` (zero on entry, over
 * the mesh's columns) where it read it. */
#include "center_internal.h"

/* The rows i0 .. i1 (inside the mesh) of one half of the ball, whose
 * inner span [a, b) (unclipped, rows of length n) moves by da, db a row:
 * adds each row's free nodes of the span (from its prefix sums, pre,
 * stride apart) and the free nodes just outside it (busy: the first row's
 * flags) while *want lasts, noting their columns in spill, and each
 * cut's L (k - L) to the sum. */
static long rows_half(const int *pre, size_t stride, int i0, int i1, int a, int b, int da, int db,
                      int n, const uint8_t *busy, int *spill, int *L, long *want, long k)
{
	long sum = 0, left = *want;
	int l = *L;
	for (int i = i0; i <= i1; i++, pre += stride, busy += n, a += da, b += db) {
		int lo = a < 0 ? 0 : a, hi = b > n ? n : b;
		int h = pre[hi] - pre[lo];
		if (left > 0) {
			if (a > 0 && !busy[a - 1]) {
				h++;
				spill[a - 1]++;
				left--;
			}
			if (left > 0 && b < n && !busy[b]) {
				h++;
				spill[b]++;
				left--;
			}
		}
		l += h;
		sum += (long)l * (k - l);
	}
	*L = l;
	*want = left;
	return sum;
}

/* The columns i0 .. i1 of one half of the ball, the same way from the
 * column prefix sums, with the sphere nodes spilled there (cleared). */
static long cols_half(const int *pre, size_t stride, int i0, int i1, int a, int b, int da, int db,
                      int n, int *spill, int *L, long k)
{
	long sum = 0;
	int l = *L;
	for (int i = i0; i <= i1; i++, pre += stride, a += da, b += db) {
		int lo = a < 0 ? 0 : a, hi = b > n ? n : b;
		l += pre[hi] - pre[lo] + spill[i];
		spill[i] = 0;
		sum += (long)l * (k - l);
	}
	*L = l;
	return sum;
}

/* The tip of the ball along a line (the sphere's one node there): taken
 * when free and wanted in the row pass, read from spill in the column
 * pass. */
static long tip(const uint8_t *node, int *spill, int i, int z, int *L, long *want, long k)
{
	int h = 0;
	if (node) {
		if (*want > 0 && !*node) {
			h = 1;
			spill[z]++;
			--*want;
		}
	} else {
		h = spill[i];
		spill[i] = 0;
	}
	*L += h;
	return (long)*L * (k - *L);
}

long center_score_plane(const struct center *c, long k, const int *p, int R, long m, int *spill)
{
	const int Y = c->dims[1], Z = c->dims[2], py = p[1], pz = p[2];
	long want = k - m, sum = 0;
	int L = 0;
	/* rows: the top tip, the upper half (|s| <= R - 1, span growing), the
	 * lower half, the bottom tip */
	if (py - R >= 0 && R > 0)
		sum += tip(c->busy + (size_t)(py - R) * (size_t)Z + (size_t)pz, spill, 0, pz, &L,
		           &want, k);
	int y0 = py - R + 1 < 0 ? 0 : py - R + 1, y1 = py + R - 1 > Y - 1 ? Y - 1 : py + R - 1;
	size_t zs = (size_t)Z + 1;
	if (y0 <= py && R > 0) { /* row y: span pz - w .. pz + w, w = R - 1 - (py - y) */
		int w = R - 1 - (py - y0);
		sum += rows_half(c->zpre + (size_t)y0 * zs, zs, y0, py, pz - w, pz + w + 1, -1, 1,
		                 Z, c->busy + (size_t)y0 * (size_t)Z, spill, &L, &want, k);
	}
	if (py + 1 <= y1)
		sum += rows_half(c->zpre + (size_t)(py + 1) * zs, zs, py + 1, y1, pz - R + 2,
		                 pz + R - 1, 1, -1, Z, c->busy + (size_t)(py + 1) * (size_t)Z,
		                 spill, &L, &want, k);
	if (py + R <= Y - 1 && R > 0)
		sum += tip(c->busy + (size_t)(py + R) * (size_t)Z + (size_t)pz, spill, 0, pz, &L,
		           &want, k);
	/* columns, the same way from the column prefix sums and spill */
	L = 0;
	size_t ys = (size_t)Y + 1;
	if (pz - R >= 0 && R > 0)
		sum += tip(NULL, spill, pz - R, 0, &L, &want, k);
	int z0 = pz - R + 1 < 0 ? 0 : pz - R + 1, z1 = pz + R - 1 > Z - 1 ? Z - 1 : pz + R - 1;
	if (z0 <= pz && R > 0) {
		int w = R - 1 - (pz - z0);
		sum += cols_half(c->ypre + (size_t)z0 * ys, ys, z0, pz, py - w, py + w + 1, -1, 1,
		                 Y, spill, &L, k);
	}
	if (pz + 1 <= z1)
		sum += cols_half(c->ypre + (size_t)(pz + 1) * ys, ys, pz + 1, z1, py - R + 2,
		                 py + R - 1, 1, -1, Y, spill, &L, k);
	if (pz + R <= Z - 1 && R > 0)
		sum += tip(NULL, spill, pz + R, 0, &L, &want, k);
	return sum; /* R = 0: the centre alone (k = 1), no cut between two nodes */
}
