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
 * is at least the smaller of its values at the two ends. Two kinds of box
 * are scored exactly at once: one whose centres all have a ball of radius
 * rk (the least that can hold k nodes) free and inside the mesh (the box
 * widened by rk in L1 is), which scores the canonical sum dk; and one in a
 * free stretch along a wall, whose centres in a row along the stretch are
 * translates of each other (slide_box). */
#include <limits.h>
#include <string.h>

#include "center_internal.h"

struct pw {
	int k;
	int rk;       /* the least radius whose L1 ball (in the mesh's dimensions) holds k nodes */
	long dk;      /* the score of a centre whose ball of radius rk is free and inside */
	int nd;       /* dimensions longer than 1 (at least 1) */
	int *hist[3]; /* this thread's histograms by coordinate (x | y | z) */
	int *spill;   /* this thread's sphere nodes by column, zero between scores (one plane) */
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
		w->dk += js_center_cuts(h + i * len, 0, len - 1, w->k, 0);
}

/* Clears the histograms over the range of the ball of radius r around p
 * beyond lo .. hi (the range cleared so far), and sets lo .. hi to it. */
static void clear_hists(const struct center *c, int *const *hist, const int *p, int r, int *lo,
                        int *hi)
{
	for (int d = 0; d < 3; d++) {
		int a = p[d] - r < 0 ? 0 : p[d] - r;
		int b = p[d] + r > c->dims[d] - 1 ? c->dims[d] - 1 : p[d] + r;
		for (int u = a; u < lo[d]; u++)
			hist[d][u] = 0;
		for (int u = hi[d] + 1; u <= b; u++)
			hist[d][u] = 0;
		lo[d] = a;
		hi[d] = b;
	}
}

/* Free nodes of the L1 ball of radius r around p. */
static long ball_count(const struct center *c, const int *p, int r)
{
	return js_center_ball_count(c, p, r);
}

/* The score of centre p, whose R is at least from (>= rk); *radius: R.
 * R first, counting balls (doubling steps from `from`, then halving),
 * then one pass over the ball of radius R - 1 and the first free nodes
 * of the sphere R in id order until k nodes are taken. A score above cut
 * may stop early (on a mesh of one plane): a number above cut, at most
 * the score, then comes back (LONG_MAX: the score always). */
static long score(struct center *c, const struct pw *w, const int *p, int from, long cut, long lbz,
                  int *radius)
{
	int k = w->k, R = from, below_r = from - 1, step = 1, lo[3], hi[3];
	int far = c->dims[0] + c->dims[1] + c->dims[2]; /* beyond every node */
	long n, below = -1; /* the free nodes of the ball of below_r, when counted */
	while (R < far && (n = ball_count(c, p, R)) < k) {
		below_r = R;
		below = n;
		R += step;
		step *= 2;
	}
	R = R < far ? R : far;
	while (R - below_r > 1) {
		int mid = below_r + (R - below_r) / 2;
		if ((n = ball_count(c, p, mid)) >= k) {
			R = mid;
		} else {
			below_r = mid;
			below = n;
		}
	}
	*radius = R;
	if (below < 0) /* free nodes nearer than R, all taken */
		below = R > 0 ? ball_count(c, p, R - 1) : 0;
	if (c->dims[0] == 1)
		return js_center_score_plane(c, k, p, R, below, cut, lbz, w->spill);
	for (int d = 0; d < 3; d++) {
		lo[d] = p[d] + 1;
		hi[d] = p[d];
	}
	clear_hists(c, w->hist, p, R, lo, hi);
	if (R > 0) {
		struct center_region g;
		js_center_region_ball(&g, p, R - 1);
		js_center_region_rows(c, &g, w->hist[0], w->hist[1]);
		js_center_region_cols(c, &g, w->hist[2]);
	}
	js_center_region_shell(c, p, R, k - (int)below, w->hist[0], w->hist[1], w->hist[2]);
	long sum = 0;
	for (int d = 0; d < 3; d++)
		sum += js_center_cuts(w->hist[d], lo[d], hi[d], k, 0);
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

/* Nodes of the box b widened by r in L1 along the mesh's dimensions
 * longer than 1, the mesh's walls ignored: by the set S of dimensions in
 * which a node lies outside b, 2^|S| sides times C(r, |S|) offsets (|S|
 * positive numbers summing to at most r) times b's extent in the others. */
static long widened_volume(const struct center *c, const struct center_box *b, int r)
{
	long sum = 0;
	for (int set = 0; set < 8; set++) {
		long term = 1;
		int n = 0;
		for (int d = 0; d < 3 && term; d++)
			if (set >> d & 1) {
				term = c->dims[d] > 1 ? term * 2 : 0;
				n++;
			} else {
				term *= b->hi[d] - b->lo[d] + 1;
			}
		for (int i = 0; i < n && term; i++) /* C(r, n) */
			term = term * (r - i) / (i + 1);
		sum += term > 0 ? term : 0;
	}
	return sum;
}

/* Whether every centre of b has its ball of radius rk free and inside:
 * the box widened by rk in L1 is (its free nodes are all its nodes). Asked
 * after the cube test (the cube asks more), and only counted when the
 * cube inscribed in the widened box is free. */
static int canonical_box(const struct center *c, const struct pw *w, const struct center_box *b)
{
	struct center_region g;
	for (int d = 0; d < 3; d++) {
		if (c->dims[d] > 1 && (b->lo[d] < w->rk || b->hi[d] + w->rk > c->dims[d] - 1))
			return 0;
		g.c[d] = b->lo[d] + b->hi[d];
		g.e[d] = b->hi[d] - b->lo[d];
	}
	long inner = cube_free(c, b, w->rk / w->nd), size = 1;
	for (int d = 0; d < 3; d++) {
		int r = c->dims[d] > 1 ? w->rk / w->nd : 0;
		size *= b->hi[d] - b->lo[d] + 1 + 2 * r;
	}
	if (inner != size)
		return 0;
	g.t = 2 * w->rk;
	return js_center_region_count(c, &g) == widened_volume(c, b, w->rk);
}

/* Whether the box b widened by r in L-inf, clipped to the mesh in every
 * dimension but d (in which it must stay inside), holds no busy node. */
static int free_slab(const struct center *c, const struct center_box *b, int r, int d)
{
	int lo[3], hi[3];
	long volume = 1;
	for (int e = 0; e < 3; e++) {
		int re = c->dims[e] > 1 ? r : 0;
		lo[e] = b->lo[e] - re;
		hi[e] = b->hi[e] + re + 1;
		if (e == d ? lo[e] < 0 || hi[e] > c->dims[e] : 0)
			return 0;
		lo[e] = lo[e] < 0 ? 0 : lo[e];
		hi[e] = hi[e] > c->dims[e] ? c->dims[e] : hi[e];
		volume *= hi[e] - lo[e];
	}
	return center_count(c, lo, hi) == volume;
}

/* A box in a free stretch along dimension d next to a wall: if the box
 * widened by some r >= rk is free (clipped by the walls across d, inside
 * the mesh along d), the centres of b that differ only in their d
 * coordinate see the same free nodes, shifted, out to distance r: those
 * whose R <= r have the same R and score (the first nodes of the last
 * sphere too, since a shift keeps the id order). So b is scored from its
 * slice at d = lo_d, exactly, when every centre there has R <= r: each
 * one's score is that of the centres of b behind it, whose ids are
 * higher. Returns 0 when this does not apply (b at least 4 long in d; r
 * the largest with a free widened box). */
static int slide_box(struct center *c, const struct pw *w, struct center_box *b)
{
	int d = -1;
	for (int e = 0; e < 3;
	     e++) /* the longest dimension that the box widened by rk keeps inside */
		if (b->hi[e] - b->lo[e] >= 3 &&
		    (d < 0 || b->hi[e] - b->lo[e] > b->hi[d] - b->lo[d]) && b->lo[e] >= w->rk &&
		    b->hi[e] + w->rk <= c->dims[e] - 1)
			d = e;
	if (d < 0 || !free_slab(c, b, w->rk, d))
		return 0;
	int lo = w->rk,
	    hi = b->lo[d] < c->dims[d] - 1 - b->hi[d] ? b->lo[d] : c->dims[d] - 1 - b->hi[d];
	while (lo < hi) { /* the largest r with a free slab */
		int mid = lo + (hi - lo + 1) / 2;
		if (free_slab(c, b, mid, d))
			lo = mid;
		else
			hi = mid - 1;
	}
	struct center_box slice = *b;
	slice.hi[d] = b->lo[d];
	long best = -1;
	int p[3];
	for (p[0] = slice.lo[0]; p[0] <= slice.hi[0]; p[0]++)
		for (p[1] = slice.lo[1]; p[1] <= slice.hi[1]; p[1]++)
			for (p[2] = slice.lo[2]; p[2] <= slice.hi[2]; p[2]++) {
				int radius;
				long sc = score(c, w, p, b->r, LONG_MAX, 0, &radius);
				if (radius > lo)
					return 0;
				if (best < 0 || sc < best) {
					best = sc;
					b->minid = center_id(c, p[0], p[1], p[2]);
				}
			}
	b->lb = best;
	b->exact = 1;
	return 1;
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
	if (cube_free(c, b, r / w->nd) >= k || js_center_region_count(c, &g) >= k) {
		if (r > b->r) /* Rlo <= empty */
			return 0;
	} else {
		int lo = r; /* the widened box holds fewer than k free nodes at lo */
		while (cube_free(c, b, lo + 1) < k)
			lo++; /* so it does where the cube around it does */
		int step = 1;
		for (r = lo + 1, g.t = 2 * r; js_center_region_count(c, &g) < k; g.t = 2 * r) {
			lo = r;
			r += step;
			step *= 2;
		}
		while (r - lo > 1) {
			int mid = lo + (r - lo) / 2;
			g.t = 2 * mid;
			if (js_center_region_count(c, &g) >= k)
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
	if (c->dims[0] == 1) { /* one plane: the cuts as the lines are counted */
		long core = js_center_region_count(c, &g), cols,
		     sum = js_center_plane_cuts(c, &g, k, k - core, &cols);
		b->lbz = cols > b->lbz ? cols : b->lbz; /* both bound every centre of b */
		return sum;
	}
	int lo[3], hi[3];
	for (int d = 0; d < 3; d++) {
		if (!js_center_region_span(c, &g, d, &lo[d], &hi[d]))
			return 0;
		memset(w->hist[d] + lo[d], 0, (size_t)(hi[d] - lo[d] + 1) * sizeof *w->hist[d]);
	}
	long core = js_center_region_rows(c, &g, w->hist[0], w->hist[1]);
	js_center_region_cols(c, &g, w->hist[2]);
	long sum = 0;
	for (int d = 0; d < 3; d++)
		sum += js_center_cuts(w->hist[d], lo[d], hi[d], k, k - core);
	return sum;
}

static int pw_bound(struct center *c, void *ctx, struct center_box *b, long cut)
{
	struct pw *w = ctx;
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
		/* above cut it may stop early: not kept, so its lb need not be exact */
		b->lb = score(c, w, b->lo, b->r, cut, b->lbz, &b->r);
		if (b->lb > cut)
			return 0;
	} else if (all_canonical(c, w, b) || canonical_box(c, w, b)) {
		b->lb = w->dk; /* every node of b is free: its first is a candidate */
		b->exact = 1;
	} else if (!slide_box(c, w, b) &&
	           w->nd < 3) { /* in 3D the core is too small to prune (measured) */
		b->lb = core_bound(c, w, b);
	}
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
 * counting sort of the free nodes of the ball of radius r (visited in id
 * order, so ties stay by id; each line only over its span of the ball,
 * half the nodes of the cube around it in 2D). */
static void take_nearest(struct center *c, const int *p, int r, int k, int *out)
{
	int *cnt = c->cnt;
	memset(cnt, 0, (size_t)(r + 2) * sizeof *cnt);
	for (int pass = 0; pass < 2; pass++) {
		int x0 = p[0] - r < 0 ? 0 : p[0] - r,
		    x1 = p[0] + r > c->dims[0] - 1 ? c->dims[0] - 1 : p[0] + r;
		for (int x = x0; x <= x1; x++) {
			int rx = r - iabs(x - p[0]), y0 = p[1] - rx < 0 ? 0 : p[1] - rx,
			    y1 = p[1] + rx > c->dims[1] - 1 ? c->dims[1] - 1 : p[1] + rx;
			for (int y = y0; y <= y1; y++) {
				int ry = rx - iabs(y - p[1]), z0 = p[2] - ry < 0 ? 0 : p[2] - ry,
				    z1 = p[2] + ry > c->dims[2] - 1 ? c->dims[2] - 1 : p[2] + ry;
				int base = center_id(c, x, y, 0), off = r - ry; /* key - |z - p2| */
				const uint8_t *busy = c->busy + base;
				for (int z = z0; z <= z1; z++) {
					if (busy[z])
						continue;
					int key = off + iabs(z - p[2]);
					if (pass == 0)
						cnt[key + 1]++;
					else
						c->bucket[cnt[key]++] = base + z;
				}
			}
		}
		if (pass == 0)
			for (int i = 0; i <= r; i++)
				cnt[i + 1] += cnt[i];
	}
	memcpy(out, c->bucket, (size_t)k * sizeof *out);
}

/* Nodes of the summed-volume table to build again worth the second
 * thread (a hand-over costs microseconds, a node about a nanosecond). */
enum { SAT_TWO = 1 << 13 };

static void sat_task(void *arg)
{
	js_center_sat_update(arg);
}

int js_center_place_pairwise(struct center *c, int k, int *nodes)
{
	/* the tables again where nodes changed: on a mesh where the search
	 * takes two threads, the summed-volume table on the second beside the
	 * lines' prefix sums (they read busy and write apart), then half the
	 * diagonals on each (on 320x320 the updates were 4 s of a 67-second
	 * run on one thread while the other slept) */
	int mesh_two = c->threads == 2 || (c->threads == 0 && c->n >= CENTER_THREAD_MIN_N);
	struct center_pool *pool = mesh_two ? js_center_pool_get(c) : NULL;
	int beside = pool && c->n - c->stale_from >= SAT_TWO;
	if (beside)
		js_center_pool_run(pool, sat_task, c);
	else
		js_center_sat_update(c);
	js_center_region_update(c);
	if (beside)
		js_center_pool_wait(pool);
	js_center_diag_update(c, pool);
	if (c->kind == CENTER_MM)
		mm_next(c);
	struct pw w = {.k = k, .hist = {c->hist[0], c->hist[1], c->hist[2]}, .spill = c->spill[0]};
	canonical(c, &w);
	/* a second thread when the search is worth one: on a small mesh a job
	 * is placed in less time than waking the second thread takes */
	struct pw w2 = w;
	memcpy(w2.hist, c->hist2, sizeof w2.hist);
	w2.spill = c->spill[1];
	int two = mesh_two && (c->threads == 2 || k >= CENTER_THREAD_MIN_K);
	/* a box of eight centres or fewer: its halves' bounds cost about what
	 * scoring the centres does (each starting from its neighbour's radius),
	 * and seldom prune; genalg on a mesh of one plane, 32 or fewer (its
	 * centres' scores stop on the box's bound of the columns' share as
	 * well: callgrind, 320x320, 4 to 9 % fewer instructions than 8; mm's
	 * rise with 16, results/bench/README.md) */
	int spread = c->kind == CENTER_GENALG && c->dims[0] == 1 ? 32 : 8;
	int best = js_center_search(c, pw_bound, &w, two ? &w2 : NULL, w.rk, spread), p[3], radius;
	if (best < 0) /* no candidate: the tables disagree with busy (a bug) */
		return 0;
	center_xyz(c, best, p);
	score(c, &w, p, w.rk, LONG_MAX, 0, &radius);
	take_nearest(c, p, radius, k, nodes);
	return k;
}
