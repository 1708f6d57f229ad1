/* The BlueGene/L allocator's largest-free-partition computation, exposed
 * for tests. */
#ifndef JS_ALLOC_BGL_H
#define JS_ALLOC_BGL_H

#include <stdint.h>

/* Largest free box (volume) of the torus of a bgl allocator state `self`
 * when the nodes marked in busy (one byte per node) are taken (-1: out of
 * memory). */
int js_bgl_largest_free(void *self, const uint8_t *busy);

#endif
