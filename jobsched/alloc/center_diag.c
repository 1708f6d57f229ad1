/* Free nodes of an L1 region of the mesh in O(1) per plane (for Gen-Alg and
 * MM, center_pairwise.c), instead of a prefix-sum lookup per row
 * (center_region.c). A region's rows come in three runs (center_region.h):
 * above the box the span grows by one node at each end per row, across it
 * the span stays, below it the span shrinks. A run of constant span is a
 * rectangle (the summed-volume table). In a run whose span grows, the row
 * prefix sums at its right end lie on one diagonal of the plane (column -
 * row constant) and those at its left end on one anti-diagonal (column +
 * row constant), and the other way round where it shrinks: so each plane
 * keeps the prefix sums, down the rows, of its row prefix sums along every
 * diagonal and anti-diagonal that meets it (a row prefix beyond the walls
 * is 0 on the left and the row's total on the right; diagonals that miss
 * the plane are all 0 or all totals, counted from the totals' prefix). */
#include <stdlib.h>
#include <string.h>

#include "center_internal.h"

/* Diagonals a = column - row from -(Y - 1) to Z, anti-diagonals e =
 * column + row from 0 to Y + Z - 1: Y + Z each per plane. */
static size_t diag_count(const struct center *c)
{
	return (size_t)c->dims[1] + (size_t)c->dims[2];
}

/* The tables of plane x: rows 0 .. Y of the prefix sums (row y: the rows
 * before y), each diag_count() long: diagonals, then anti-diagonals. */
static int *plane_table(const struct center_diag *t, const struct center *c, int x)
{
	return t->pre + (size_t)x * ((size_t)c->dims[1] + 1) * 2 * diag_count(c);
}

int js_center_diag_init(struct center *c)
{
	struct center_diag *t = &c->diag;
	size_t X = (size_t)c->dims[0], Y = (size_t)c->dims[1];
	t->pre = calloc(X * (Y + 1) * 2 * diag_count(c), sizeof *t->pre);
	t->tot = calloc(X * (Y + 1), sizeof *t->tot);
	t->from = malloc(X * sizeof *t->from);
	if (!t->pre || !t->tot || !t->from)
		return -1;
	for (size_t x = 0; x < X; x++)
		t->from[x] = 0; /* everything to build */
	return 0;
}

void js_center_diag_free(struct center *c)
{
	free(c->diag.pre);
	free(c->diag.tot);
	free(c->diag.from);
}

void js_center_diag_mark(struct center *c, int x, int y)
{
	if (y < c->diag.from[x])
		c->diag.from[x] = y;
}

/* down[i] = up[i] + the row's prefix before column i + off (clamped to
 * 0 .. Z), i < n: a stretch before the row, one inside, one after. */
static void add_row(int *down, const int *up, const int *pre, int Z, int off, int n)
{
	int i0 = -off < 0 ? 0 : -off > n ? n : -off;                      /* first inside */
	int i1 = Z - off + 1 < 0 ? 0 : Z - off + 1 > n ? n : Z - off + 1; /* first after */
	for (int i = 0; i < i0; i++)
		down[i] = up[i];
	for (int i = i0; i < i1; i++)
		down[i] = up[i] + pre[i + off];
	for (int i = i1 > i0 ? i1 : i0; i < n; i++)
		down[i] = up[i] + pre[Z];
}

/* The diagonals (anti = 0) or the anti-diagonals (1) of the planes marked,
 * from their first marked row down: the two halves of an update touch
 * different entries, so two threads can build them at once. */
static void diag_rows(const struct center *c, int anti)
{
	const struct center_diag *t = &c->diag;
	int X = c->dims[0], Y = c->dims[1], Z = c->dims[2];
	size_t nd = diag_count(c), stride = (size_t)Z + 1;
	for (int x = 0; x < X; x++) {
		int *tab = plane_table(t, c, x) + (anti ? nd : 0);
		for (int y = t->from[x]; y < Y; y++) {
			const int *pre = c->zpre + ((size_t)x * (size_t)Y + (size_t)y) * stride;
			/* diagonal i reads column i - (Y - 1) + y, anti-diagonal i column
			 * i - y: 0 before the row, its total after, in three stretches */
			add_row(tab + ((size_t)y + 1) * 2 * nd, tab + (size_t)y * 2 * nd, pre, Z,
			        anti ? -y : y - (Y - 1), Y + Z);
		}
	}
}

/* Entries of an update worth the second thread (a hand-over costs
 * microseconds, an entry about a nanosecond). */
enum { DIAG_TWO = 1 << 15 };

static void anti_task(void *arg)
{
	diag_rows(arg, 1);
}

void js_center_diag_update(struct center *c, struct center_pool *pool)
{
	struct center_diag *t = &c->diag;
	int X = c->dims[0], Y = c->dims[1], Z = c->dims[2];
	size_t stride = (size_t)Z + 1;
	long rows = 0;
	for (int x = 0; x < X; x++) {
		int *tot = t->tot + (size_t)x * ((size_t)Y + 1);
		for (int y = t->from[x]; y < Y; y++, rows++)
			tot[y + 1] =
			    tot[y] + c->zpre[((size_t)x * (size_t)Y + (size_t)y) * stride + Z];
	}
	if (!rows)
		return;
	if (rows * (Y + Z) < DIAG_TWO) /* less than handing half over costs */
		pool = NULL;
	if (pool)
		js_center_pool_run(pool, anti_task, c);
	else
		diag_rows(c, 1);
	diag_rows(c, 0);
	if (pool)
		js_center_pool_wait(pool);
	for (int x = 0; x < X; x++)
		t->from[x] = Y;
}

static inline long sum_diag(const struct center *c, int x, int a, int y0, int y1)
{
	const struct center_diag *t = &c->diag;
	int Y = c->dims[1], Z = c->dims[2];
	if (a <= -(Y - 1)) /* left of the plane on every row */
		return 0;
	if (a >= Z) { /* right of it: the rows' totals */
		const int *tot = t->tot + (size_t)x * ((size_t)Y + 1);
		return tot[y1 + 1] - tot[y0];
	}
	const int *tab = plane_table(t, c, x);
	size_t nd = diag_count(c), i = (size_t)(a + Y - 1);
	return (long)tab[((size_t)y1 + 1) * 2 * nd + i] - tab[(size_t)y0 * 2 * nd + i];
}

static inline long sum_anti(const struct center *c, int x, int e, int y0, int y1)
{
	const struct center_diag *t = &c->diag;
	int Y = c->dims[1], Z = c->dims[2];
	if (e <= 0)
		return 0;
	if (e >= Y + Z - 1) {
		const int *tot = t->tot + (size_t)x * ((size_t)Y + 1);
		return tot[y1 + 1] - tot[y0];
	}
	const int *tab = plane_table(t, c, x);
	size_t nd = diag_count(c), i = nd + (size_t)e;
	return (long)tab[((size_t)y1 + 1) * 2 * nd + i] - tab[(size_t)y0 * 2 * nd + i];
}

static inline int floor_half(int v)
{
	return v >= 0 ? v / 2 : -((1 - v) / 2);
}

static inline int ceil_half(int v)
{
	return -floor_half(-v);
}

static inline int excess(int u, int c, int e)
{
	int v = (2 * u - c < 0 ? c - 2 * u : 2 * u - c) - e;
	return v > 0 ? v : 0;
}

/* Free nodes of plane x in the rows of the region whose budget is t:
 * rows y with excess(y) <= t, each the columns z with
 * |2z - c2| <= t - excess(y) + e2. */
static long plane_count(const struct center *c, int x, const struct center_region *r, int t)
{
	int Y = c->dims[1], Z = c->dims[2];
	int c1 = r->c[1], e1 = r->e[1], c2 = r->c[2], e2 = r->e[2];
	/* rows with excess <= t: |2y - c1| <= t + e1 */
	int y0 = ceil_half(c1 - e1 - t), y1 = floor_half(c1 + e1 + t);
	y0 = y0 < 0 ? 0 : y0;
	y1 = y1 > Y - 1 ? Y - 1 : y1;
	if (y0 > y1)
		return 0;
	/* the band without excess: |2y - c1| <= e1 */
	int b0 = ceil_half(c1 - e1), b1 = floor_half(c1 + e1);
	long n = 0;
	/* above the band: rows y0 .. min(b0 - 1, y1), the span growing */
	int hi = b0 - 1 < y1 ? b0 - 1 : y1;
	if (y0 <= hi) {
		int tr = t - excess(y0, c1, e1); /* the first row's budget */
		int l = ceil_half(c2 - e2 - tr), rr = floor_half(c2 + e2 + tr) + 1;
		/* row y: columns l - (y - y0) .. rr - 1 + (y - y0) */
		n += sum_diag(c, x, rr - y0, y0, hi) - sum_anti(c, x, l + y0, y0, hi);
	}
	/* the band: a rectangle */
	int lo = b0 > y0 ? b0 : y0;
	hi = b1 < y1 ? b1 : y1;
	if (lo <= hi) {
		int l = ceil_half(c2 - e2 - t), rr = floor_half(c2 + e2 + t) + 1;
		l = l < 0 ? 0 : l;
		rr = rr > Z ? Z : rr;
		if (l < rr) {
			int blo[3] = {x, lo, l}, bhi[3] = {x + 1, hi + 1, rr};
			n += center_count(c, blo, bhi);
		}
	}
	/* below it: rows max(b1 + 1, y0) .. y1, the span shrinking */
	lo = b1 + 1 > y0 ? b1 + 1 : y0;
	if (lo <= y1) {
		int tr = t - excess(lo, c1, e1);
		int l = ceil_half(c2 - e2 - tr), rr = floor_half(c2 + e2 + tr) + 1;
		/* row y: columns l + (y - lo) .. rr - 1 - (y - lo) */
		n += sum_anti(c, x, rr + lo, lo, y1) - sum_diag(c, x, l - lo, lo, y1);
	}
	return n;
}

/* The free nodes of the ball of radius rx around (py, pz) in plane x:
 * rows py - rx .. py, span pz - w .. pz + w, w = rx - (py - y), growing;
 * rows py + 1 .. py + rx, shrinking. */
static inline long disc_count(const struct center *c, int x, int py, int pz, int rx)
{
	int Y = c->dims[1];
	int y0 = py - rx < 0 ? 0 : py - rx, y1 = py + rx > Y - 1 ? Y - 1 : py + rx;
	long n = sum_diag(c, x, pz + rx + 1 - py, y0, py) - sum_anti(c, x, pz - rx + py, y0, py);
	if (py < y1)
		n += sum_anti(c, x, pz + rx + 1 + py, py + 1, y1) -
		     sum_diag(c, x, pz - rx - py, py + 1, y1);
	return n;
}

long js_center_ball_count(const struct center *c, const int *p, int r)
{
	if (c->dims[0] == 1) /* one plane: no loop (its set-up cost more than the plane) */
		return disc_count(c, 0, p[1], p[2], r);
	int X = c->dims[0], x0 = p[0] - r < 0 ? 0 : p[0] - r,
	    x1 = p[0] + r > X - 1 ? X - 1 : p[0] + r;
	long n = 0;
	for (int x = x0; x <= x1; x++)
		n += disc_count(c, x, p[1], p[2], r - (x < p[0] ? p[0] - x : x - p[0]));
	return n;
}

long js_center_region_count(const struct center *c, const struct center_region *r)
{
	if (c->dims[0] == 1) { /* one plane: no loop */
		int t = r->t - excess(0, r->c[0], r->e[0]);
		return t < 0 ? 0 : plane_count(c, 0, r, t);
	}
	int X = c->dims[0], x0 = ceil_half(r->c[0] - r->e[0] - r->t),
	    x1 = floor_half(r->c[0] + r->e[0] + r->t);
	x0 = x0 < 0 ? 0 : x0;
	x1 = x1 > X - 1 ? X - 1 : x1;
	long n = 0;
	for (int x = x0; x <= x1; x++)
		n += plane_count(c, x, r, r->t - excess(x, r->c[0], r->e[0]));
	return n;
}
