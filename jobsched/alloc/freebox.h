/* The maximal free boxes of a torus of 1 to 3 dimensions (the missing ones
 * of size 1), kept up to date as boxes of nodes are taken and given back:
 * the data structure behind the bgl allocator's searches (alloc_bgl.c). */
#ifndef JS_FREEBOX_H
#define JS_FREEBOX_H

#include <stdint.h>

/* A box of the torus: per dimension the cyclic interval of l[i] positions
 * from s[i] (1 <= l[i] <= size; a whole ring has s[i] = 0); vol = its node
 * count. */
struct js_box {
	int s[3], l[3], vol;
};

/* Every inclusion-maximal free box of the current busy set, once each. */
struct js_freebox;

/* All nodes free (one maximal box: the torus); NULL when out of memory. */
struct js_freebox *js_freebox_create(const int *d);
void js_freebox_destroy(struct js_freebox *f);
/* dst takes src's state (same dimensions). */
void js_freebox_copy(struct js_freebox *dst, const struct js_freebox *src);
/* Every node free again. */
void js_freebox_clear(struct js_freebox *f);

/* Marks the nodes of box b busy (they must be free) / free (they must be
 * busy); O(maximal boxes + box area / 64) plus the boxes that change. */
void js_freebox_occupy(struct js_freebox *f, const struct js_box *b);
void js_freebox_release(struct js_freebox *f, const struct js_box *b);
/* The same for any node set (C-order ids: (x * d1 + y) * d2 + z), taken
 * as one box when it is one, else run by run along dimension 2. */
void js_freebox_occupy_nodes(struct js_freebox *f, const int *nodes, int n);
void js_freebox_release_nodes(struct js_freebox *f, const int *nodes, int n);

/* The maximal free boxes (order unspecified), and the largest volume (0
 * when every node is busy). */
const struct js_box *js_freebox_maximal(struct js_freebox *f, int *count);
int js_freebox_largest(struct js_freebox *f);
/* Whether some free box holds p nodes or more: largest >= p, often
 * without applying pending releases. */
int js_freebox_at_least(struct js_freebox *f, int p);
/* Whether every node of b is free. */
int js_freebox_is_free(const struct js_freebox *f, const struct js_box *b);

/* Writes box b's node ids, dimension 2 fastest from the base; returns
 * their count. */
int js_freebox_nodes(const struct js_freebox *f, const struct js_box *b, int *nodes);

#endif
