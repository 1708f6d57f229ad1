/* A cache of iteration times keyed by (profile, placement): the placement
 * as given (callers pass canonical ones, plat_canon, so that equal-shaped
 * allocations share an entry). Open addressing on a 64-bit hash of the
 * key, every key stored whole and compared on a hit. Counts lookups and
 * hits. An entry holds one time (get/put) or several (getv/putv: one per
 * job of a group replayed together, the key then describing the group). */
#ifndef CPL_ITCACHE_H
#define CPL_ITCACHE_H

#include <stddef.h>

struct cpl_itcache;

struct cpl_itcache *cpl_itcache_new(void);
void cpl_itcache_free(struct cpl_itcache *c);
/* 1 and *t when present, 0 when absent (counted as a lookup either way). */
int cpl_itcache_get(struct cpl_itcache *c, int profile, const int *nodes, int n, double *t);
/* Whether an entry is present (not counted). */
int cpl_itcache_has(const struct cpl_itcache *c, int profile, const int *nodes, int n);
/* 0, or -1 out of memory. */
int cpl_itcache_put(struct cpl_itcache *c, int profile, const int *nodes, int n, double t);
/* The same with nt times per entry (an entry of another count is absent). */
int cpl_itcache_getv(struct cpl_itcache *c, int profile, const int *nodes, int n, double *t,
                     int nt);
int cpl_itcache_putv(struct cpl_itcache *c, int profile, const int *nodes, int n, const double *t,
                     int nt);
void cpl_itcache_counts(const struct cpl_itcache *c, long *lookups, long *hits, size_t *entries);

#endif
