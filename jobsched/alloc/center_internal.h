/* Internal to the centre-based mesh allocators (alloc_center.c): their shared
 * state, node coordinates, the summed-volume table of free nodes, and the
 * best-first search over boxes of candidate centres that mc1x1, genalg and
 * mm run with their own lower bounds. */
#ifndef JS_CENTER_INTERNAL_H
#define JS_CENTER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

enum { CENTER_MC1X1, CENTER_GENALG, CENTER_MM };

/* genalg and mm with threads=auto search on two threads for jobs of at
 * least this many nodes on meshes of at least this many: on smaller meshes
 * a search takes less than waking the kept second thread; on 320x320 even
 * jobs of 2-15 nodes take 1-3 ms (genalg) and 17-40 ms (mm) a search
 * (measured: results/bench/README.md). */
enum { CENTER_THREAD_MIN_K = 2, CENTER_THREAD_MIN_N = 4096 };

/* A box of candidate centres, lo..hi inclusive, with a lower bound on the
 * score of every centre in it; a single node's bound is its exact score. */
struct center_box {
	long lb;
	int minid; /* no centre in the box has a lower id */
	int size;  /* nodes in the box */
	int exact; /* lb is the score of the centre minid, the best in the box */
	int r;     /* a radius that no centre in the box needs less than (children inherit it) */
	long lbz;  /* no centre's share of the cuts across the last dimension is less (one
	              plane: the columns' cuts; children inherit it), or 0 */
	int lo[3], hi[3];
};

/* An L1 region (center_region.c): nodes p with
 * sum_d max(0, |2 p_d - c_d| - e_d) <= t. */
struct center_region {
	int c[3], e[3], t;
};

/* Prefix sums along the diagonals and anti-diagonals of each plane's row
 * prefix sums, for counting an L1 region's free nodes in O(1) a plane
 * (center_diag.c). */
struct center_diag {
	int *pre;  /* per plane, rows 0 .. Y: Y + Z diagonals then Y + Z anti-diagonals */
	int *tot;  /* per plane, the prefix sums of the row totals */
	int *from; /* per plane, the first row to build again (Y: none) */
};

struct center {
	int kind, n, free;
	int dims[3]; /* x slowest, z fastest (the machine's C order) */
	int d0;      /* the first dimension longer than 1 (2 for a single node) */
	uint8_t *busy;
	int *sat;                /* summed-volume table of free nodes, (X+1)(Y+1)(Z+1) */
	int stale_from;          /* lowest node changed since sat was built (n: none) */
	struct center_box *heap; /* search: at most one entry per box of the k-d split */
	int *cnt;                /* scratch: counting-sort keys, histograms */
	int *bucket;             /* scratch: nodes sorted by key */
	size_t nkeys;            /* room in cnt */
	/* genalg and mm: prefix sums of free nodes along z for every (x, y) row
	 * and along y for every (x, z) column, rebuilt where dirty */
	int *zpre, *ypre;
	uint8_t *row_dirty, *col_dirty;
	int *hist[3];  /* scratch: nodes per coordinate, by dimension */
	int *hist2[3]; /* the same for the search's second thread */
	int *spill[2]; /* each thread's scratch, zero between scores: sphere nodes by z */
	int threads;   /* genalg and mm: threads of the search (1, 2, or 0: by size) */
	struct center_pool *pool; /* the second thread, once started (center_pool.c) */
	struct center_diag diag;  /* genalg and mm */
	int *coord_free;          /* mm: free nodes per coordinate, x | y | z */
	int *coord_next; /* mm: the next coordinate at or after with a free node, x | y | z */
};

static inline int center_id(const struct center *c, int x, int y, int z)
{
	return (x * c->dims[1] + y) * c->dims[2] + z;
}

static inline void center_xyz(const struct center *c, int node, int *p)
{
	p[2] = node % c->dims[2];
	p[1] = (node / c->dims[2]) % c->dims[1];
	p[0] = node / (c->dims[2] * c->dims[1]);
}

/* Free nodes in the box lo..hi - 1 (half-open, inside the mesh, not
 * empty); the table must be current. In 2D the x = 0 plane is all zeros. */
static inline int center_count(const struct center *c, const int *lo, const int *hi)
{
	const int *t = c->sat;
	size_t sy = (size_t)c->dims[2] + 1, sx = (size_t)(c->dims[1] + 1) * sy;
	size_t y0 = (size_t)lo[1] * sy, y1 = (size_t)hi[1] * sy, z0 = (size_t)lo[2],
	       z1 = (size_t)hi[2];
	if (c->dims[0] == 1) {
		t += sx;
		return t[y1 + z1] - t[y0 + z1] - t[y1 + z0] + t[y0 + z0];
	}
	const int *u = t + (size_t)lo[0] * sx, *v = t + (size_t)hi[0] * sx;
	return v[y1 + z1] - u[y1 + z1] - v[y0 + z1] - v[y1 + z0] + u[y0 + z1] + u[y1 + z0] +
	       v[y0 + z0] - u[y0 + z0];
}

/* Rebuilds the table if busy changed since. */
void js_center_sat_update(struct center *c);

/* The search: pops boxes by (lb, minid), splits them, asks bound() for the
 * children's bounds until an exact box comes out: returns its minid. bound
 * sets b->lb, may raise b->minid and set b->exact (a single node's bound
 * must be exact); it returns 0 to drop a box that holds no candidate or
 * whose bound exceeds cut. The caller guarantees a candidate exists; r0
 * is the root box's r. A box of at most `spread` centres is split into
 * its single centres at once (no bounds of the boxes between), in id
 * order, each given as r the larger of the box's and the last centre's
 * r less their L1 distance (a ball of radius r' around it lies in the
 * last one's ball of r' + distance, so it needs no less). With ctx2 (the
 * bound's context for a second thread: its own scratch), two threads
 * search together and find the same centre (js_center_search.c). */
typedef int (*center_bound_fn)(struct center *c, void *ctx, struct center_box *b, long cut);
int js_center_search(struct center *c, center_bound_fn bound, void *ctx, void *ctx2, int r0,
                     int spread);

/* The allocator's second thread (center_pool.c), kept between tasks: get
 * starts it on first use (NULL when none can start); run hands it one
 * task, wait returns once that task is done; free stops it, if any. */
struct center_pool *js_center_pool_get(struct center *c);
void js_center_pool_run(struct center_pool *p, void (*fn)(void *), void *arg);
void js_center_pool_wait(struct center_pool *p);
void js_center_pool_free(struct center *c);

/* center_region.c: tables, counts of a region's free nodes, adding to
 * per-coordinate histograms when given (hx, hy from rows; hz from
 * columns), the region's range in dimension d, the first `want` free nodes
 * (by id) at L1 distance exactly radius from p added to the histograms
 * (returns how many), and the sum over the cuts between lo and hi of
 * L (k - L), L the nodes at or below the cut: a dimension's share of the
 * sum of pairwise distances; with slack > 0, L may be up to slack more,
 * and each cut counts the least of L (k - L) over that range. */
void js_center_region_update(struct center *c);
long js_center_region_rows(const struct center *c, const struct center_region *r, int *hx, int *hy);
void js_center_region_cols(const struct center *c, const struct center_region *r, int *hz);
int js_center_region_span(const struct center *c, const struct center_region *r, int d, int *lo,
                          int *hi);
void js_center_region_ball(struct center_region *r, const int *p, int radius);
int js_center_region_shell(const struct center *c, const int *p, int radius, int want, int *hx,
                           int *hy, int *hz);
long js_center_cuts(const int *h, int lo, int hi, long k, long slack);

/* center_diag.c (genalg and mm): the tables (init: -1 out of memory;
 * mark: row y of plane x changed; update: after js_center_region_update,
 * the planes marked, half on the second thread when pool is given) and
 * the free nodes of a region, as
 * js_center_region_rows counts them without histograms. */
int js_center_diag_init(struct center *c);
void js_center_diag_free(struct center *c);
void js_center_diag_mark(struct center *c, int x, int y);
void js_center_diag_update(struct center *c, struct center_pool *pool);
long js_center_region_count(const struct center *c, const struct center_region *r);
long js_center_ball_count(const struct center *c, const int *p, int r); /* the ball of radius r */

/* center_plane.c: the score of centre p of a mesh of one plane
 * (dims[0] == 1) whose radius is R and whose ball of radius R - 1 holds m
 * free nodes; spill: Z zeros, left zero. A score above cut may stop
 * early: then a number above cut that is no more than the score comes
 * back (LONG_MAX: always the score). lbz: a lower bound on the score's
 * share of the cuts between columns (its box's, center_box), which lets
 * it stop after the rows. */
long js_center_score_plane(const struct center *c, long k, const int *p, int R, long m, long cut,
                           long lbz, int *spill);
/* The sum over the cuts between the lines of both dimensions of a mesh of
 * one plane of L (k - L), L the free nodes of region g up to the cut and
 * up to slack more (the least over that range), as js_center_cuts sums them
 * from the region's histograms; *cols: the share of the cuts between
 * columns. */
long js_center_plane_cuts(const struct center *c, const struct center_region *g, long k, long slack,
                          long *cols);

/* The allocators' searches and node choices (k <= free nodes). */
int js_center_place_mc1x1(struct center *c, int k, int *nodes);
int js_center_place_pairwise(struct center *c, int k, int *nodes);

#endif
