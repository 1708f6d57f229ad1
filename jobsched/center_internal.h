/* Internal to the centre-based mesh allocators (alloc_center.c): their shared
 * state, node coordinates, the summed-volume table of free nodes, and the
 * best-first search over boxes of candidate centres that mc1x1, genalg and
 * mm run with their own lower bounds. */
#ifndef JS_CENTER_INTERNAL_H
#define JS_CENTER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

enum { CENTER_MC1X1, CENTER_GENALG, CENTER_MM };

/* A box of candidate centres, lo..hi inclusive, with a lower bound on the
 * score of every centre in it; a single node's bound is its exact score. */
struct center_box {
	long lb;
	int minid; /* lo's id: no centre in the box has a lower one */
	int lo[3], hi[3];
};

struct center {
	int kind, n, free;
	int dims[3]; /* x slowest, z fastest (the machine's C order) */
	uint8_t *busy;
	int *sat;                /* summed-volume table of free nodes, (X+1)(Y+1)(Z+1) */
	int sat_stale;           /* busy changed since sat was built */
	struct center_box *heap; /* search: at most one entry per box of the k-d split */
	int *cnt;                /* scratch: counting-sort keys, histograms */
	int *bucket;             /* scratch: nodes sorted by key */
	size_t nkeys;            /* room in cnt */
	uint8_t *has;            /* mm: coordinates present among free nodes, x | y | z */
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

static inline int center_sat(const struct center *c, int x, int y, int z)
{
	return c
	    ->sat[((size_t)x * (size_t)(c->dims[1] + 1) + (size_t)y) * (size_t)(c->dims[2] + 1) +
	          (size_t)z];
}

/* Free nodes in the box lo..hi (inclusive), each clipped to the mesh;
 * 0 when the box misses it. The table must be current. */
int center_free_in(const struct center *c, const int *lo, const int *hi);

/* Rebuilds the table if busy changed since. */
void center_sat_update(struct center *c);

/* The search: pops boxes by (lb, minid), splits them, asks bound() for the
 * children's bounds (bound returns 0 and leaves *lb alone to drop a box
 * whose bound exceeds cut, or when it holds no candidate) until a single
 * centre comes out: returns its id. The caller guarantees one exists. */
typedef int (*center_bound_fn)(struct center *c, void *ctx, const struct center_box *b, long cut,
                               long *lb);
int center_search(struct center *c, center_bound_fn bound, void *ctx);

/* The allocators' searches and node choices (k <= free nodes). */
int center_place_mc1x1(struct center *c, int k, int *nodes);
int center_place_pairwise(struct center *c, int k, int *nodes);

#endif
