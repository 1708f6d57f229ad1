/* Internal to the free-box set (freebox.c, freebox_nodes.c): its state and
 * the ring and box helpers both use. */
#ifndef JS_FREEBOX_INTERNAL_H
#define JS_FREEBOX_INTERNAL_H

#include "freebox.h"

/* A growable array of boxes. */
struct boxes {
	struct js_box *b;
	int n, cap;
};

struct js_freebox {
	int d[3], n;
	int wz, wy;          /* 64-bit words per line along dimension 2 / 1 */
	uint64_t *zl, *yl;   /* busy bits: line (x, y) along z; line (x, z) along y */
	uint64_t *mask;      /* scratch: wz + wy words */
	unsigned char *seen; /* scratch: d0 + d1 + d2 */
	struct boxes max;    /* the maximal free boxes, before the pending releases */
	struct boxes obs;    /* busy boxes (disjoint; their union is the busy set) */
	struct pending {
		struct js_box c;
		int found; /* a free box meeting c of this volume exists (0: none known) */
		int none;  /* no free box meeting c holds this many nodes or more */
	} * pend;          /* releases not yet applied to max, oldest first */
	int npend, pendcap;
	struct boxes undo;         /* max before the last occupy, while it is the last change */
	struct pending *undo_pend; /* and pend */
	int undo_pendcap;
	struct js_box undo_box;
	int undo_valid;
	struct boxes cut, part, tmp;
	int *order; /* scratch: obstacle order, distances, counts */
	int ordercap;
	int largest, largest_valid; /* of max */
	int broken;                 /* memory ran out: rebuilt from the bits when next asked */
};

/* x brought back onto a ring of D positions (x within one turn of it). */
static inline int wrap(int x, int D)
{
	return x >= D ? x - D : x < 0 ? x + D : x;
}

static inline void box_set_vol(struct js_box *b)
{
	b->vol = b->l[0] * b->l[1] * b->l[2];
}

#endif
