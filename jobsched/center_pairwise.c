/* Gen-Alg (Krumke et al.) and MM (Bender et al.), seed 002 section V: the
 * candidate centre whose k free nodes nearest in L1 (ties: lower id) have
 * the least sum of pairwise L1 distances wins (ties: the lower centre).
 *
 * A centre's k nearest are every free node of the L1 ball of radius R - 1
 * (R the first radius whose ball holds k free nodes) and the first of the
 * sphere of radius R; their sum of pairwise distances is, per dimension, the
 * sum over the cuts between coordinates of L (k - L), L the nodes on the
 * lower side, so it comes from per-coordinate counts of the ball's free
 * nodes (center_region.c). The best-first search bounds a box of centres:
 * every centre's k nearest include the free nodes of the core, the ball of
 * radius Rlo - 1 around every centre of the box (Rlo: the first radius at
 * which the box widened by it holds k free nodes), so at each cut L lies
 * between the core's nodes below it and k minus those above, and L (k - L)
 * is at least the smaller of its values at the two ends. A box whose
 * centres all have a ball of radius rk (the least that can hold k nodes)
 * free and inside the mesh scores exactly the canonical sum dk. */
#include <limits.h>
#include <string.h>

#include "center_internal.h"

struct pw {
	int k;
	int rk;  /* the least radius whose L1 ball (in the mesh's dimensions) holds k nodes */
	long dk; /* the score of a centre whose ball of radius rk is free and inside */
	int nd;  /* dimensions longer than 1 (at least 1) */
};

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

/* Nodes of the L1 ball of radius r in nd dimensions (r < 0: none). */
static long ball_volume(int nd, int r)
{
	if (r < 0)
		return 0;
	long v = 1;
	for (int t = 1; t <= r && nd > 0; t++) /* the sphere of radius t */
		v += nd == 1 ? 2 : nd == 2 ? 4L * t : 4L * t * t + 2;
	return v;
}

/* rk and dk: the canonical k nearest of a centre in an unbounded free
 * mesh of the same dimensions, by (L1, id). */
static void canonical(const struct center *c, struct pw *w)
{
	int nd = 0; /* active dimensions: longer than 1 */
	for (int d = 0; d < 3; d++)
		nd += c->dims[d] > 1;
	int r = 0;
	while (ball_volume(nd, r) < w->k)
		r++;
	w->rk = r;
	w->nd = nd > 0 ? nd : 1;
	/* per active dimension, nodes at offset t of the ball of radius r - 1,
	 * then the first of the sphere r in id order (offsets lexicographic) */
	int *h = c->cnt, len = 2 * r + 1, need = w->k - (int)ball_volume(nd, r - 1);
	for (int i = 0; i < 3 * len; i++)
		h[i] = 0;
	for (int i = 0; i < nd; i++)
		for (int t = -(r - 1); t <= r - 1; t++)
			h[i * len + t + r] = (int)ball_volume(nd - 1, r - 1 - iabs(t));
	int off[3] = {0, 0, 0};
	int lim0 = nd > 0 ? r : 0;
	for (off[0] = -lim0; off[0] <= lim0 && need > 0; off[0]++) {
		int r1 = r - iabs(off[0]), lim1 = nd > 1 ? r1 : 0;
		for (off[1] = -lim1; off[1] <= lim1 && need > 0; off[1]++) {
			int r2 = r1 - iabs(off[1]);
			if (nd < 3) {
				if (r2 != 0)
					continue;
				off[2] = 0;
				for (int i = 0; i < nd; i++)
					h[i * len + off[i] + r]++;
				need--;
				continue;
			}
			for (int side = 0; side < (r2 ? 2 : 1) && need > 0; side++, need--) {
				off[2] = side ? r2 : -r2;
				for (int i = 0; i < 3; i++)
					h[i * len + off[i] + r]++;
			}
		}
	}
	w->dk = 0;
	for (int i = 0; i < nd; i++)
		w->dk += center_cuts(h + i * len, 0, len - 1, w->k, 0);
}

/* Clears the histograms over the range of the ball of radius r around p
 * beyond lo .. hi (the range cleared so far), and sets lo .. hi to it. */
static void clear_hists(struct center *c, const int *p, int r, int *lo, int *hi)
{
	for (int d = 0; d < 3; d++) {
		int a = p[d] - r < 0 ? 0 : p[d] - r;
		int b = p[d] + r > c->dims[d] - 1 ? c->dims[d] - 1 : p[d] + r;
		for (int u = a; u < lo[d]; u++)
			c->hist[d][u] = 0;
		for (int u = hi[d] + 1; u <= b; u++)
			c->hist[d][u] = 0;
		lo[d] = a;
		hi[d] = b;
	}
}

/* The score of centre p, whose R is at least from (>= rk); *radius: R.
 * One pass over the ball of radius from - 1, then the spheres in id order
 * until k nodes are taken. */
static long score(struct center *c, const struct pw *w, const int *p, int from, int *radius)
{
	int k = w->k, R = from, lo[3], hi[3];
	for (int d = 0; d < 3; d++) {
		lo[d] = p[d] + 1;
		hi[d] = p[d];
	}
	clear_hists(c, p, R, lo, hi);
	long below = 0; /* free nodes nearer than R, all taken */
	if (R > 0) {
		struct center_region g;
		center_region_ball(&g, p, R - 1);
		below = center_region_rows(c, &g, c->hist[0], c->hist[1]);
		center_region_cols(c, &g, c->hist[2]);
	}
	for (;;) {
		int want = k - (int)below;
		int got = center_region_shell(c, p, R, want, c->hist[0], c->hist[1], c->hist[2]);
		if (got == want)
			break;
		below += got;
		clear_hists(c, p, ++R, lo, hi);
	}
	*radius = R;
	long sum = 0;
	for (int d = 0; d < 3; d++)
		sum += center_cuts(c->hist[d], lo[d], hi[d], k, 0);
	return sum;
}

/* Whether every centre of b has its ball of radius rk free and inside. */
static int all_canonical(const struct center *c, const struct pw *w, const struct center_box *b)
{
	int lo[3], hi[3];
	long volume = 1;
	for (int d = 0; d < 3; d++) {
		int r = c->dims[d] > 1 ? w->rk : 0;
		lo[d] = b->lo[d] - r;
		hi[d] = b->hi[d] + r + 1;
		if (lo[d] < 0 || hi[d] > c->dims[d])
			return 0;
		volume *= hi[d] - lo[d];
	}
	return center_count(c, lo, hi) == volume;
}

/* Free nodes of the box b widened by r in every dimension (L-inf). */
static long cube_free(const struct center *c, const struct center_box *b, int r)
{
	int lo[3], hi[3];
	for (int d = 0; d < 3; d++) {
		lo[d] = b->lo[d] - r < 0 ? 0 : b->lo[d] - r;
		hi[d] = b->hi[d] + r + 1 > c->dims[d] ? c->dims[d] : b->hi[d] + r + 1;
	}
	return center_count(c, lo, hi);
}

/* The bound from the core of box b (see the top). */
static long core_bound(struct center *c, const struct pw *w, struct center_box *b)
{
	int k = w->k, width = 0;
	struct center_region g;
	for (int d = 0; d < 3; d++) {
		g.c[d] = b->lo[d] + b->hi[d];
		g.e[d] = b->hi[d] - b->lo[d];
		width += g.e[d];
	}
	/* Rlo: the first radius from b->r on (the parent's Rlo, or rk: no
	 * ball holds k nodes below it) at which the widened box holds k free
	 * nodes. The core is empty unless 2 (Rlo - 1) >= width: the first
	 * radius tried is the largest that leaves it empty, or b->r; then by
	 * doubling steps and halving. */
	int empty = (width + 1) / 2, r = empty > b->r ? empty : b->r;
	g.t = 2 * r;
	/* the widened box holds the cube around the box of radius r / nd */
	if (cube_free(c, b, r / w->nd) >= k || center_region_rows(c, &g, NULL, NULL) >= k) {
		if (r > b->r) /* Rlo <= empty */
			return 0;
	} else {
		int lo = r; /* the widened box holds fewer than k free nodes at lo */
		while (cube_free(c, b, lo + 1) < k)
			lo++; /* so it does where the cube around it does */
		int step = 1;
		for (r = lo + 1, g.t = 2 * r; center_region_rows(c, &g, NULL, NULL) < k;
		     g.t = 2 * r) {
			lo = r;
			r += step;
			step *= 2;
		}
		while (r - lo > 1) {
			int mid = lo + (r - lo) / 2;
			g.t = 2 * mid;
			if (center_region_rows(c, &g, NULL, NULL) >= k)
				r = mid;
			else
				lo = mid;
		}
		b->r = r;
	}
	g.t = 2 * (r - 1) - width;
	if (g.t < 0)
		return 0;
	for (int d = 0; d < 3; d++)
		g.e[d] = 0;
	int lo[3], hi[3];
	for (int d = 0; d < 3; d++) {
		if (!center_region_span(c, &g, d, &lo[d], &hi[d]))
			return 0;
		memset(c->hist[d] + lo[d], 0, (size_t)(hi[d] - lo[d] + 1) * sizeof *c->hist[d]);
	}
	long core = center_region_rows(c, &g, c->hist[0], c->hist[1]);
	center_region_cols(c, &g, c->hist[2]);
	long sum = 0;
	for (int d = 0; d < 3; d++)
		sum += center_cuts(c->hist[d], lo[d], hi[d], k, k - core);
	return sum;
}

static int pw_bound(struct center *c, void *ctx, struct center_box *b, long cut)
{
	struct pw *w = ctx;
	(void)cut;
	if (c->kind == CENTER_GENALG) {
		int hi[3] = {b->hi[0] + 1, b->hi[1] + 1, b->hi[2] + 1};
		if (!center_count(c, b->lo, hi))
			return 0;
	} else {
		int q[3];
		for (int d = 0, at = 0; d < 3; at += c->dims[d++] + 1) {
			q[d] = c->coord_next[at + b->lo[d]];
			if (q[d] > b->hi[d])
				return 0;
		}
		b->minid = center_id(c, q[0], q[1], q[2]);
	}
	if (b->exact) {
		b->lb = score(c, w, b->lo, b->r, &b->r);
	} else if (all_canonical(c, w, b)) {
		b->lb = w->dk; /* every node of b is free: its first is a candidate */
		b->exact = 1;
	} else if (w->nd < 3) /* in 3D the core is too small to prune (measured) */
		b->lb = core_bound(c, w, b);
	return 1;
}

/* MM's candidates: per dimension, the next coordinate with a free node. */
static void mm_next(struct center *c)
{
	for (int d = 0, at = 0, nx = 0; d < 3; at += c->dims[d], nx += c->dims[d] + 1, d++) {
		int next = c->dims[d];
		c->coord_next[nx + c->dims[d]] = next;
		for (int i = c->dims[d] - 1; i >= 0; i--) {
			if (c->coord_free[at + i] > 0)
				next = i;
			c->coord_next[nx + i] = next;
		}
	}
}

/* The k free nodes nearest p by (L1, id), all within L1 radius r: a
 * counting sort of the free nodes of the cube of radius r (visited in id
 * order, so ties stay by id). */
static void take_nearest(struct center *c, const int *p, int r, int k, int *out)
{
	int lo[3], hi[3], *cnt = c->cnt;
	for (int d = 0; d < 3; d++) {
		lo[d] = p[d] - r < 0 ? 0 : p[d] - r;
		hi[d] = p[d] + r > c->dims[d] - 1 ? c->dims[d] - 1 : p[d] + r;
	}
	memset(cnt, 0, (size_t)(r + 2) * sizeof *cnt);
	for (int pass = 0; pass < 2; pass++) {
		for (int x = lo[0]; x <= hi[0]; x++)
			for (int y = lo[1]; y <= hi[1]; y++)
				for (int z = lo[2]; z <= hi[2]; z++) {
					int v = center_id(c, x, y, z);
					int key = iabs(x - p[0]) + iabs(y - p[1]) + iabs(z - p[2]);
					if (c->busy[v] || key > r)
						continue;
					if (pass == 0)
						cnt[key + 1]++;
					else
						c->bucket[cnt[key]++] = v;
				}
		if (pass == 0)
			for (int i = 0; i <= r; i++)
				cnt[i + 1] += cnt[i];
	}
	memcpy(out, c->bucket, (size_t)k * sizeof *out);
}

int center_place_pairwise(struct center *c, int k, int *nodes)
{
	center_sat_update(c);
	center_region_update(c);
	if (c->kind == CENTER_MM)
		mm_next(c);
	struct pw w = {.k = k};
	canonical(c, &w);
	/* a box of four centres or fewer: its halves' bounds cost about what
	 * scoring the centres does, and seldom prune */
	int best = center_search(c, pw_bound, &w, w.rk, 4), p[3], radius;
	if (best < 0) /* no candidate: the tables disagree with busy (a bug) */
		return 0;
	center_xyz(c, best, p);
	score(c, &w, p, w.rk, &radius);
	take_nearest(c, p, radius, k, nodes);
	return k;
}
