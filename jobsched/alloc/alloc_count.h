/* Counting free nodes in place of choosing them. When nothing reads which
 * nodes a job holds and the allocator is fungible (its placements succeed
 * whenever the job's size is free), the schedule depends on the number of
 * free nodes only: the core then keeps that number instead of the
 * allocator's state (see js_sim_run), the same schedule at no cost per
 * node. Not an allocator users can name: it never names a node. */
#ifndef JS_ALLOC_COUNT_H
#define JS_ALLOC_COUNT_H

#include "alloc.h"

/* A counter of real's machine with every node free, that counts its
 * decisions into real's; NULL when out of memory. Destroyed by
 * js_alloc_destroy. */
struct js_alloc *js_alloc_count_create(const struct js_alloc *real);

/* n nodes taken (they must be free) / given back. */
void js_alloc_count_take(struct js_alloc *a, int n);
void js_alloc_count_give(struct js_alloc *a, int n);

#endif
