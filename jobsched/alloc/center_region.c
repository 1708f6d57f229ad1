/* Free nodes of L1 regions of the mesh, counted row by row from prefix sums
 * (for Gen-Alg and MM, center_pairwise.c): a region is the set of nodes p
 * with sum over d of max(0, |2 p_d - c_d| - e_d) <= t, which is the L1
 * ball of radius r around v (c = 2v, e = 0, t = 2r), a box widened by r in
 * L1 (c = lo + hi, e = hi - lo, t = 2r), or a ball around a box's middle. A
 * region meets O(r) rows of a 2D mesh, O(r^2) of a 3D one, each counted in
 * O(1). */
#include <stddef.h>
#include <string.h>

#include "center_internal.h"

/* Prefix sums of free nodes again along the dirty lines of one family:
 * line l of plane x (flag x * lines + l) has len nodes, node_step apart,
 * from busy + x * Y * Z + l * line_step. */
static void update_lines(const struct center *c, uint8_t *dirty, int lines, int len,
                         size_t line_step, size_t node_step, int *pre)
{
	size_t plane = (size_t)c->dims[1] * (size_t)c->dims[2];
	for (int x = 0; x < c->dims[0]; x++)
		for (int l = 0; l < lines; l++) {
			size_t at = (size_t)x * (size_t)lines + (size_t)l;
			if (!dirty[at])
				continue;
			dirty[at] = 0;
			const uint8_t *b = c->busy + (size_t)x * plane + (size_t)l * line_step;
			int *p = pre + at * (size_t)(len + 1);
			for (int i = 0; i < len; i++)
				p[i + 1] = p[i] + !b[(size_t)i * node_step];
		}
}

/* The rows and columns whose nodes changed since the tables were built
 * get their prefix sums again. */
void js_center_region_update(struct center *c)
{
	int Y = c->dims[1], Z = c->dims[2];
	update_lines(c, c->row_dirty, Y, Z, (size_t)Z, 1, c->zpre);
	update_lines(c, c->col_dirty, Z, Y, 1, (size_t)Z, c->ypre);
}

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

/* floor(v / 2) and ceil(v / 2) for any sign. */
static inline int floor_half(int v)
{
	return v >= 0 ? v / 2 : -((1 - v) / 2);
}
static inline int ceil_half(int v)
{
	return -floor_half(-v);
}

/* The range of coordinates u in 0 .. n-1 with max(0, |2u - c| - e) <= t:
 * |2u - c| <= t + e. Returns 0 when empty. */
static int span(int c, int e, int t, int n, int *lo, int *hi)
{
	*lo = ceil_half(c - t - e);
	*lo = *lo < 0 ? 0 : *lo;
	*hi = floor_half(c + t + e);
	*hi = *hi > n - 1 ? n - 1 : *hi;
	return *lo <= *hi;
}

static int excess(int u, int c, int e)
{
	int v = iabs(2 * u - c) - e;
	return v > 0 ? v : 0;
}

/* Lines i0 .. i1 of a plane, from the prefix sums of i0 on (stride apart):
 * line i0 holds the nodes a .. b - 1 of the unclipped span (half-open),
 * each next line `grow` more at both ends (-1: fewer, 0: the same); the
 * free nodes of each span clipped to 0 .. n are added to h[i] when h is
 * given; returns their total. */
static inline long line_clipped(const int *pre, size_t stride, int i0, int i1, int a, int b,
                                int grow, int n, int *h)
{
	long total = 0;
	for (int i = i0; i <= i1; i++, pre += stride, a -= grow, b += grow) {
		int lo = a < 0 ? 0 : a, hi = b > n ? n : b;
		int got = pre[hi] - pre[lo];
		total += got;
		if (h)
			h[i] += got;
	}
	return total;
}

/* As line_clipped, the lines whose span lies inside 0 .. n (a run of them:
 * the ends move one way) counted without clipping. */
static inline long line_run(const int *pre, size_t stride, int i0, int i1, int a, int b, int grow,
                            int n, int *h)
{
	int s = i0, e = i1; /* the inside run, empty when s > e */
	if (grow == 0) {
		s = a >= 0 && b <= n ? i0 : i1 + 1;
	} else if (grow > 0) { /* inside while t <= a and t <= n - b */
		int t = a < n - b ? a : n - b;
		e = t < 0 ? i0 - 1 : i0 + t < i1 ? i0 + t : i1;
		s = e < i0 ? i1 + 1 : i0;
	} else { /* inside once t >= -a and t >= b - n */
		int t = -a > b - n ? -a : b - n;
		s = t > 0 ? i0 + t : i0;
	}
	if (s > e)
		return line_clipped(pre, stride, i0, i1, a, b, grow, n, h);
	long total = line_clipped(pre, stride, i0, s - 1, a, b, grow, n, h);
	int t = s - i0;
	const int *pa = pre + (size_t)t * stride + (a - grow * t),
	          *pb = pre + (size_t)t * stride + (b + grow * t);
	ptrdiff_t sa = (ptrdiff_t)stride - grow, sb = (ptrdiff_t)stride + grow;
	if (h)
		for (int i = s; i <= e; i++, pa += sa, pb += sb) {
			int got = *pb - *pa;
			total += got;
			h[i] += got;
		}
	else
		for (int i = s; i <= e; i++, pa += sa, pb += sb)
			total += *pb - *pa;
	t = e + 1 - i0;
	return total + line_clipped(pre + (size_t)t * stride, stride, e + 1, i1, a - grow * t,
	                            b + grow * t, grow, n, h);
}

/* Free nodes of the region along the lines of one plane: line i (0 .. m-1)
 * has what is left of t after its excess, its nodes counted from its
 * prefix sums (pre, stride apart) over the span in the other dimension
 * (ci, ei, length n); the counts are added to h[i] when h is given. The
 * lines go in three runs - the excess falling by 2 a line, none, rising by
 * 2 a line - in which the span grows, stays or shrinks by one at each end. */
static long plane_lines(const int *pre, size_t stride, int m, int cl, int el, int t, int ci, int ei,
                        int n, int *h)
{
	int i0, i1;
	if (!span(cl, el, t, m, &i0, &i1))
		return 0;
	int flat[2] = {ceil_half(cl - el), floor_half(cl + el)}; /* no excess */
	int runs[3][2] = {{i0, flat[0] - 1}, {flat[0], flat[1]}, {flat[1] + 1, i1}};
	long total = 0;
	for (int r = 0; r < 3; r++) {
		int a = runs[r][0] > i0 ? runs[r][0] : i0, b = runs[r][1] < i1 ? runs[r][1] : i1;
		if (a > b)
			continue;
		int ti = t - excess(a, cl, el);
		total += line_run(pre + (size_t)a * stride, stride, a, b, ceil_half(ci - ei - ti),
		                  floor_half(ci + ei + ti) + 1, 1 - r, n, h);
	}
	return total;
}

long js_center_region_rows(const struct center *c, const struct center_region *r, int *hx, int *hy)
{
	const int Y = c->dims[1], Z = c->dims[2];
	const size_t stride = (size_t)Z + 1;
	int x0, x1;
	long total = 0;
	if (!span(r->c[0], r->e[0], r->t, c->dims[0], &x0, &x1))
		return 0;
	for (int x = x0; x <= x1; x++) {
		long n = plane_lines(c->zpre + (size_t)x * (size_t)Y * stride, stride, Y, r->c[1],
		                     r->e[1], r->t - excess(x, r->c[0], r->e[0]), r->c[2], r->e[2],
		                     Z, hy);
		if (hx)
			hx[x] += (int)n;
		total += n;
	}
	return total;
}

void js_center_region_cols(const struct center *c, const struct center_region *r, int *hz)
{
	const int Y = c->dims[1], Z = c->dims[2];
	const size_t stride = (size_t)Y + 1;
	int x0, x1;
	if (!span(r->c[0], r->e[0], r->t, c->dims[0], &x0, &x1))
		return;
	for (int x = x0; x <= x1; x++)
		plane_lines(c->ypre + (size_t)x * (size_t)Z * stride, stride, Z, r->c[2], r->e[2],
		            r->t - excess(x, r->c[0], r->e[0]), r->c[1], r->e[1], Y, hz);
}

int js_center_region_span(const struct center *c, const struct center_region *r, int d, int *lo,
                          int *hi)
{
	return span(r->c[d], r->e[d], r->t, c->dims[d], lo, hi);
}

void js_center_region_ball(struct center_region *r, const int *p, int radius)
{
	for (int d = 0; d < 3; d++) {
		r->c[d] = 2 * p[d];
		r->e[d] = 0;
	}
	r->t = 2 * radius;
}

int js_center_region_shell(const struct center *c, const int *p, int radius, int want, int *hx,
                           int *hy, int *hz)
{
	const int X = c->dims[0], Y = c->dims[1], Z = c->dims[2];
	int got = 0, x0 = p[0] - radius, x1 = p[0] + radius;
	if (want <= 0)
		return 0;
	x0 = x0 < 0 ? 0 : x0;
	x1 = x1 > X - 1 ? X - 1 : x1;
	for (int x = x0; x <= x1; x++) {
		int rx = radius - iabs(x - p[0]), y0 = p[1] - rx, y1 = p[1] + rx;
		y0 = y0 < 0 ? 0 : y0;
		y1 = y1 > Y - 1 ? Y - 1 : y1;
		const uint8_t *row = c->busy + ((size_t)x * (size_t)Y + (size_t)y0) * (size_t)Z;
		for (int y = y0; y <= y1; y++, row += Z) {
			int rz = rx - iabs(y - p[1]), z = p[2] - rz;
			/* in id order: the lower z first, then the upper if distinct */
			if (z >= 0 && !row[z]) {
				hx[x]++;
				hy[y]++;
				hz[z]++;
				if (++got == want)
					return got;
			}
			z = p[2] + rz;
			if (rz && z < Z && !row[z]) {
				hx[x]++;
				hy[y]++;
				hz[z]++;
				if (++got == want)
					return got;
			}
		}
	}
	return got;
}

long js_center_cuts(const int *h, int lo, int hi, long k, long slack)
{
	long sum = 0, below = 0;
	if (slack == 0) {
		for (int u = lo; u < hi; u++) {
			below += h[u];
			sum += below * (k - below);
		}
		return sum;
	}
	/* L (k - L) is least at the end of the range farther from k / 2: the
	 * lower end while 2 L + slack <= k, the upper one after */
	for (int u = lo; u < hi; u++) {
		below += h[u];
		long at = 2 * below + slack <= k ? below : below + slack;
		sum += at * (k - at);
	}
	return sum;
}
