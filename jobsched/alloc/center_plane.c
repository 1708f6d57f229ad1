/* Passes over the lines of a mesh of one plane (1D or 2D) for Gen-Alg and
 * MM that add up the sum of pairwise distances as they go: a centre's
 * score, and the core bound of a box of centres (center_pairwise.c).
 *
 * A centre's score in two passes (center_pairwise.c scores centres of any mesh through
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
#include <stddef.h>

#include "center_internal.h"

/* A cut's share of the sum with L nodes at or before it, L possibly up to
 * slack more (the least over that range: L (k - L) is least at the end
 * farther from k / 2). */
static inline long cut_term(long L, long k, long slack)
{
	long at = 2 * L + slack <= k ? L : L + slack;
	return at * (k - at);
}

/* Lines j = 0 .. cnt - 1 (pre: the first one's prefix sums, stride
 * apart) of span [a + da j, b + db j) clipped to 0 .. n, each adding its
 * free nodes, and spill[j] (cleared) when spill is given, to L, and the
 * cut after it (cut_term) to the sum returned. In at most three runs in
 * which neither end's clipping changes, each two pointer walks. */
static long lines(const int *pre, size_t stride, int cnt, int a, int b, int da, int db, int n,
                  int *spill, int *L, long k, long slack)
{
	long sum = 0;
	int l = *L, j = 0;
	while (j < cnt) {
		int ca = a + da * j, cb = b + db * j, end = cnt;
		if (da < 0 && ca >= 0 && j + ca + 1 < end) /* a clipped from there */
			end = j + ca + 1;
		if (da > 0 && ca < 0 && j - ca < end) /* a inside from there */
			end = j - ca;
		if (db > 0 && cb <= n && j + n - cb + 1 < end)
			end = j + n - cb + 1;
		if (db < 0 && cb > n && j + cb - n < end)
			end = j + cb - n;
		const int *pa = pre + (size_t)j * stride + (ca < 0 ? 0 : ca),
		          *pb = pre + (size_t)j * stride + (cb > n ? n : cb);
		ptrdiff_t sa = (ptrdiff_t)stride + (ca < 0 ? 0 : da),
		          sb = (ptrdiff_t)stride + (cb > n ? 0 : db);
		if (slack)
			for (; j < end; j++, pa += sa, pb += sb) {
				l += *pb - *pa;
				sum += cut_term(l, k, slack);
			}
		else if (spill)
			for (; j < end; j++, pa += sa, pb += sb) {
				l += *pb - *pa + spill[j];
				spill[j] = 0;
				sum += (long)l * (k - l);
			}
		else
			for (; j < end; j++, pa += sa, pb += sb) {
				l += *pb - *pa;
				sum += (long)l * (k - l);
			}
	}
	*L = l;
	return sum;
}

/* Rows j = 0 .. cnt - 1 of rows_half (below), from pre, busy, a, b at row
 * 0; clip: whether a span end may lie at or beyond a wall (else the
 * checks are left out: inlined with a constant). Returns the rows done
 * (it stops once nothing is wanted). */
static inline int sphere_rows(const int *pre, size_t stride, int cnt, int a, int b, int da, int db,
                              int n, const uint8_t *busy, int *spill, int *L, long *want, long k,
                              long *sum, int clip)
{
	long left = *want, s = 0;
	int l = *L, j = 0;
	for (; j < cnt && left > 0; j++, pre += stride, busy += n, a += da, b += db) {
		int lo = clip && a < 0 ? 0 : a, hi = clip && b > n ? n : b;
		int h = pre[hi] - pre[lo];
		if ((!clip || a > 0) && !busy[a - 1]) {
			h++;
			spill[a - 1]++;
			left--;
		}
		if (left > 0 && (!clip || b < n) && !busy[b]) {
			h++;
			spill[b]++;
			left--;
		}
		l += h;
		s += (long)l * (k - l);
	}
	*L = l;
	*want = left;
	*sum += s;
	return j;
}

/* The rows i0 .. i1 (inside the mesh) of one half of the ball, whose
 * inner span [a, b) (unclipped, rows of length n) moves by da, db a row:
 * adds each row's free nodes of the span (from its prefix sums, pre,
 * stride apart) and the free nodes just outside it (busy: the first row's
 * flags) while *want lasts, noting their columns in spill, and each
 * cut's L (k - L) to the sum; once none is wanted, the rest by lines().
 * The rows whose span and the nodes just outside it lie inside the walls
 * (a run: the span moves one way) go without the walls' checks. */
static long rows_half(const int *pre, size_t stride, int i0, int i1, int a, int b, int da, int db,
                      int n, const uint8_t *busy, int *spill, int *L, long *want, long k)
{
	long sum = 0;
	int cnt = i1 - i0 + 1, in0 = 0, in1 = cnt; /* rows in0 .. in1 - 1: inside */
	if (da < 0 && a < in1)
		in1 = a; /* a - j >= 1 */
	if (da > 0 && 1 - a > in0)
		in0 = 1 - a;
	if (db > 0 && n - b < in1)
		in1 = n - b; /* b + j <= n - 1 */
	if (db < 0 && b - n + 1 > in0)
		in0 = b - n + 1;
	if (in1 < in0)
		in0 = in1 = cnt; /* none: all with the checks */
	int j = 0, runs[3][2] = {{0, in0}, {in0, in1}, {in1, cnt}};
	for (int r = 0; r < 3 && *want > 0; r++) {
		if (j >= runs[r][1])
			continue;
		int m = runs[r][1] - j,
		    done = r == 1 ? sphere_rows(pre + (size_t)j * stride, stride, m, a + da * j,
		                                b + db * j, da, db, n, busy + (size_t)j * (size_t)n,
		                                spill, L, want, k, &sum, 0)
		                  : sphere_rows(pre + (size_t)j * stride, stride, m, a + da * j,
		                                b + db * j, da, db, n, busy + (size_t)j * (size_t)n,
		                                spill, L, want, k, &sum, 1);
		j += done;
	}
	if (j < cnt)
		sum += lines(pre + (size_t)j * stride, stride, cnt - j, a + da * j, b + db * j, da,
		             db, n, NULL, L, k, 0);
	return sum;
}

/* The columns i0 .. i1 of one half of the ball, the same way from the
 * column prefix sums, with the sphere nodes spilled there (cleared). */
static long cols_half(const int *pre, size_t stride, int i0, int i1, int a, int b, int da, int db,
                      int n, int *spill, int *L, long k)
{
	return lines(pre, stride, i1 - i0 + 1, a, b, da, db, n, spill + i0, L, k, 0);
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

/* A score stopped above cut: spill cleared over columns lo .. hi (the
 * rest of the ball's, where sphere nodes may lie), the sum so far. */
static long stop(int *spill, int lo, int hi, int Z, long sum)
{
	lo = lo < 0 ? 0 : lo;
	hi = hi > Z - 1 ? Z - 1 : hi;
	for (int z = lo; z <= hi; z++)
		spill[z] = 0;
	return sum;
}

long js_center_score_plane(const struct center *c, long k, const int *p, int R, long m, long cut,
                           long lbz, int *spill)
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
	/* every cut's term is at least 0, and the columns' share at least lbz:
	 * the score is above cut */
	if (sum + lbz > cut)
		return stop(spill, pz - R, pz + R, Z, sum + lbz);
	if (py + 1 <= y1)
		sum += rows_half(c->zpre + (size_t)(py + 1) * zs, zs, py + 1, y1, pz - R + 2,
		                 pz + R - 1, 1, -1, Z, c->busy + (size_t)(py + 1) * (size_t)Z,
		                 spill, &L, &want, k);
	if (py + R <= Y - 1 && R > 0)
		sum += tip(c->busy + (size_t)(py + R) * (size_t)Z + (size_t)pz, spill, 0, pz, &L,
		           &want, k);
	if (sum + lbz > cut)
		return stop(spill, pz - R, pz + R, Z, sum + lbz);
	/* columns, the same way from the column prefix sums and spill */
	long rows = sum;
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
	if (sum > cut || rows + lbz > cut) /* the columns up to pz read (and cleared) */
		return stop(spill, pz + 1, pz + R, Z, sum > rows + lbz ? sum : rows + lbz);
	if (pz + 1 <= z1)
		sum += cols_half(c->ypre + (size_t)(pz + 1) * ys, ys, pz + 1, z1, py - R + 2,
		                 py + R - 1, 1, -1, Y, spill, &L, k);
	if (pz + R <= Z - 1 && R > 0)
		sum += tip(NULL, spill, pz + R, 0, &L, &want, k);
	return sum; /* R = 0: the centre alone (k = 1), no cut between two nodes */
}

static inline int floor_half(int v)
{
	return v >= 0 ? v / 2 : -((1 - v) / 2);
}

static inline int ceil_half(int v)
{
	return -floor_half(-v);
}

/* The cuts between lines i0 .. i1 of a plane (nl lines of n nodes, their
 * prefix sums pre, stride apart) of a region (center_internal.h) whose
 * excess along the lines is |2i - cl| - el and whose span across them is
 * |2u - cs| <= t - excess + es: each cut's cut_term with the region's
 * free nodes up to it. Three runs: the span growing, flat, shrinking. */
static long region_cuts(const int *pre, size_t stride, int nl, int n, int cl, int el, int cs,
                        int es, int t, long k, long slack)
{
	int i0 = ceil_half(cl - el - t), i1 = floor_half(cl + el + t);
	i0 = i0 < 0 ? 0 : i0;
	i1 = i1 > nl - 1 ? nl - 1 : i1;
	if (i0 > i1)
		return 0;
	int b0 = ceil_half(cl - el), b1 = floor_half(cl + el); /* no excess */
	int runs[3][3] = {{i0, b0 - 1, -1}, {b0, b1, 0}, {b1 + 1, i1, 1}}, L = 0;
	long sum = 0;
	for (int r = 0; r < 3; r++) {
		int lo = runs[r][0] > i0 ? runs[r][0] : i0, hi = runs[r][1] < i1 ? runs[r][1] : i1;
		if (lo > hi)
			continue;
		int ex = 2 * lo - cl < 0 ? cl - 2 * lo : 2 * lo - cl,
		    tr = t - (ex > el ? ex - el : 0);
		int a = ceil_half(cs - es - tr), b = floor_half(cs + es + tr) + 1, g = runs[r][2];
		sum += lines(pre + (size_t)lo * stride, stride, hi - lo + 1, a, b, g, -g, n, NULL,
		             &L, k, slack);
	}
	return sum - cut_term(L, k, slack); /* no cut after the last line */
}

long js_center_plane_cuts(const struct center *c, const struct center_region *g, long k, long slack,
                          long *cols)
{
	int Y = c->dims[1], Z = c->dims[2];
	*cols = region_cuts(c->ypre, (size_t)Y + 1, Z, Y, g->c[2], g->e[2], g->c[1], g->e[1], g->t,
	                    k, slack);
	return region_cuts(c->zpre, (size_t)Z + 1, Y, Z, g->c[1], g->e[1], g->c[2], g->e[2], g->t,
	                   k, slack) +
	       *cols;
}
