/* Iteration times by (profile, placement) (itcache.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "itcache.h"

struct entry {
	uint64_t h;
	int profile, n;
	int *nodes; /* NULL: empty slot */
	double t;
};

struct cpl_itcache {
	struct entry *slot;
	size_t cap, used; /* cap a power of two, used <= cap / 2 */
	long lookups, hits;
};

static uint64_t hash(int profile, const int *nodes, int n)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)(unsigned)profile;
	h = (h ^ (uint64_t)(unsigned)n) * 1099511628211ULL;
	for (int i = 0; i < n; i++)
		h = (h ^ (uint64_t)(unsigned)nodes[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

struct cpl_itcache *cpl_itcache_new(void)
{
	struct cpl_itcache *c = calloc(1, sizeof *c);
	if (c && !(c->slot = calloc(c->cap = 64, sizeof *c->slot))) {
		free(c);
		return NULL;
	}
	return c;
}

void cpl_itcache_free(struct cpl_itcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		free(c->slot[i].nodes);
	free(c->slot);
	free(c);
}

/* The slot of the key, or the empty slot where it would go. */
static struct entry *find(const struct cpl_itcache *c, uint64_t h, int profile, const int *nodes,
                          int n)
{
	for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
		struct entry *s = &c->slot[i];
		if (!s->nodes || (s->h == h && s->profile == profile && s->n == n &&
		                  memcmp(s->nodes, nodes, (size_t)n * sizeof *nodes) == 0))
			return s;
	}
}

int cpl_itcache_get(struct cpl_itcache *c, int profile, const int *nodes, int n, double *t)
{
	c->lookups++;
	struct entry *s = find(c, hash(profile, nodes, n), profile, nodes, n);
	if (!s->nodes)
		return 0;
	c->hits++;
	*t = s->t;
	return 1;
}

static int grow(struct cpl_itcache *c)
{
	struct cpl_itcache bigger = {calloc(2 * c->cap, sizeof *c->slot), 2 * c->cap, 0, 0, 0};
	if (!bigger.slot)
		return -1;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slot[i].nodes)
			*find(&bigger, c->slot[i].h, c->slot[i].profile, c->slot[i].nodes,
			      c->slot[i].n) = c->slot[i];
	free(c->slot);
	c->slot = bigger.slot;
	c->cap = bigger.cap;
	return 0;
}

int cpl_itcache_put(struct cpl_itcache *c, int profile, const int *nodes, int n, double t)
{
	if (2 * (c->used + 1) > c->cap && grow(c))
		return -1;
	uint64_t h = hash(profile, nodes, n);
	struct entry *s = find(c, h, profile, nodes, n);
	if (s->nodes) {
		s->t = t;
		return 0;
	}
	int *copy = malloc((size_t)(n ? n : 1) * sizeof *copy);
	if (!copy)
		return -1;
	memcpy(copy, nodes, (size_t)n * sizeof *nodes);
	*s = (struct entry){h, profile, n, copy, t};
	c->used++;
	return 0;
}

void cpl_itcache_counts(const struct cpl_itcache *c, long *lookups, long *hits, size_t *entries)
{
	*lookups = c->lookups;
	*hits = c->hits;
	*entries = c->used;
}
