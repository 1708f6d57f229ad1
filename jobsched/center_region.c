/* Free nodes of L1 regions of the mesh, counted row by row from prefix sums
 * (for Gen-Alg and MM, center_pairwise.c): a region is the set of nodes p
 * with sum over d of max(0, |2 p_d - c_d| - e_d) <= t, which is the L1
 * ball of radius r around v (c = 2v, e = 0, t = 2r), a box widened by r in
 * L1 (c = lo + hi, e = hi - lo, t = 2r), or a ball around a box's middle. A
 * region meets O(r) rows of a 2D mesh, O(r^2) of a 3D one, each counted in
 * O(1). */
#include <string.h>

#include "center_internal.h"

/* The rows and columns whose nodes changed since the tables were built
 * get their prefix sums again. */
void center_region_update(struct center *c)
{
	int X = c->dims[0], Y = c->dims[1], Z = c->dims[2];
	for (int x = 0; x < X; x++)
		for (int y = 0; y < Y; y++) {
			size_t row = (size_t)x * (size_t)Y + (size_t)y;
			if (!c->row_dirty[row])
				continue;
			c->row_dirty[row] = 0;
			const uint8_t *b = c->busy + row * (size_t)Z;
			int *pre = c->zpre + row * (size_t)(Z + 1);
			for (int z = 0; z < Z; z++)
				pre[z + 1] = pre[z] + !b[z];
		}
	for (int x = 0; x < X; x++)
		for (int z = 0; z < Z; z++) {
			size_t col = (size_t)x * (size_t)Z + (size_t)z;
			if (!c->col_dirty[col])
				continue;
			c->col_dirty[col] = 0;
			const uint8_t *b = c->busy + (size_t)x * (size_t)Y * (size_t)Z + (size_t)z;
			int *pre = c->ypre + col * (size_t)(Y + 1);
			for (int y = 0; y < Y; y++)
				pre[y + 1] = pre[y] + !b[(size_t)y * (size_t)Z];
		}
}

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

/* The range of coordinates u in 0 .. n-1 with max(0, |2u - c| - e) <= t:
 * |2u - c| <= t + e. Returns 0 when empty. */
static int span(int c, int e, int t, int n, int *lo, int *hi)
{
	int a = c - t - e, b = c + t + e; /* 2u in [a, b] */
	*lo = a <= 0 ? 0 : (a + 1) / 2;
	*hi = b < 0 ? -1 : b / 2;
	if (*hi > n - 1)
		*hi = n - 1;
	return *lo <= *hi;
}

static int excess(int u, int c, int e)
{
	int v = iabs(2 * u - c) - e;
	return v > 0 ? v : 0;
}

long center_region_rows(const struct center *c, const struct center_region *r, int *hx, int *hy)
{
	const int Y = c->dims[1], Z = c->dims[2];
	int x0, x1, y0, y1, z0, z1;
	long total = 0;
	if (!span(r->c[0], r->e[0], r->t, c->dims[0], &x0, &x1))
		return 0;
	for (int x = x0; x <= x1; x++) {
		int tx = r->t - excess(x, r->c[0], r->e[0]);
		if (!span(r->c[1], r->e[1], tx, Y, &y0, &y1))
			continue;
		const int *plane = c->zpre + (size_t)x * (size_t)Y * (size_t)(Z + 1);
		int in_plane = 0;
		for (int y = y0; y <= y1; y++) {
			int ty = tx - excess(y, r->c[1], r->e[1]);
			if (!span(r->c[2], r->e[2], ty, Z, &z0, &z1))
				continue;
			const int *pre = plane + (size_t)y * (size_t)(Z + 1);
			int n = pre[z1 + 1] - pre[z0];
			in_plane += n;
			if (hy)
				hy[y] += n;
		}
		if (hx)
			hx[x] += in_plane;
		total += in_plane;
	}
	return total;
}

void center_region_cols(const struct center *c, const struct center_region *r, int *hz)
{
	const int Y = c->dims[1], Z = c->dims[2];
	int x0, x1, y0, y1, z0, z1;
	if (!span(r->c[0], r->e[0], r->t, c->dims[0], &x0, &x1))
		return;
	for (int x = x0; x <= x1; x++) {
		int tx = r->t - excess(x, r->c[0], r->e[0]);
		if (!span(r->c[2], r->e[2], tx, Z, &z0, &z1))
			continue;
		const int *plane = c->ypre + (size_t)x * (size_t)Z * (size_t)(Y + 1);
		for (int z = z0; z <= z1; z++) {
			int tz = tx - excess(z, r->c[2], r->e[2]);
			if (!span(r->c[1], r->e[1], tz, Y, &y0, &y1))
				continue;
			const int *pre = plane + (size_t)z * (size_t)(Y + 1);
			hz[z] += pre[y1 + 1] - pre[y0];
		}
	}
}

int center_region_span(const struct center *c, const struct center_region *r, int d, int *lo,
                       int *hi)
{
	return span(r->c[d], r->e[d], r->t, c->dims[d], lo, hi);
}

void center_region_ball(struct center_region *r, const int *p, int radius)
{
	for (int d = 0; d < 3; d++) {
		r->c[d] = 2 * p[d];
		r->e[d] = 0;
	}
	r->t = 2 * radius;
}

int center_region_shell(const struct center *c, const int *p, int radius, int want, int *hx,
                        int *hy, int *hz)
{
	int got = 0, x0 = p[0] - radius, x1 = p[0] + radius;
	x0 = x0 < 0 ? 0 : x0;
	x1 = x1 > c->dims[0] - 1 ? c->dims[0] - 1 : x1;
	for (int x = x0; x <= x1 && got < want; x++) {
		int rx = radius - iabs(x - p[0]), y0 = p[1] - rx, y1 = p[1] + rx;
		y0 = y0 < 0 ? 0 : y0;
		y1 = y1 > c->dims[1] - 1 ? c->dims[1] - 1 : y1;
		for (int y = y0; y <= y1 && got < want; y++) {
			int rz = rx - iabs(y - p[1]);
			const uint8_t *row =
			    c->busy +
			    ((size_t)x * (size_t)c->dims[1] + (size_t)y) * (size_t)c->dims[2];
			for (int side = 0; side < (rz ? 2 : 1) && got < want; side++) {
				int z = side ? p[2] + rz : p[2] - rz;
				if (z < 0 || z >= c->dims[2] || row[z])
					continue;
				hx[x]++;
				hy[y]++;
				hz[z]++;
				got++;
			}
		}
	}
	return got;
}

long center_cuts(const int *h, int lo, int hi, long k, long slack)
{
	long sum = 0, below = 0;
	for (int u = lo; u < hi; u++) {
		below += h[u];
		long more = below + slack, g = below * (k - below), g2 = more * (k - more);
		sum += g < g2 ? g : g2;
	}
	return sum;
}
