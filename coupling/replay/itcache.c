/* Iteration times by (profile, placement) (itcache.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"
#include "../../common/htab.h"
#include "itcache.h"

struct entry {
	int profile, n, nt;
	int *nodes;
	double *t; /* nt values */
};

struct key {
	int profile, n;
	const int *nodes;
};

struct cpl_itcache {
	struct cmn_htab tab; /* of struct entry */
	long lookups, hits;
};

static uint64_t hash(int profile, const int *nodes, int n)
{
	uint64_t h = CMN_FNV64_BASIS ^ (uint64_t)(unsigned)profile;
	h = cmn_fnv64(h, (unsigned)n);
	for (int i = 0; i < n; i++)
		h = cmn_fnv64(h, (unsigned)nodes[i]);
	return h ^ (h >> 29);
}

static int match(const void *entry, const void *key)
{
	const struct entry *s = entry;
	const struct key *k = key;
	return s->profile == k->profile && s->n == k->n &&
	       memcmp(s->nodes, k->nodes, (size_t)k->n * sizeof *k->nodes) == 0;
}

struct cpl_itcache *cpl_itcache_new(void)
{
	struct cpl_itcache *c = calloc(1, sizeof *c);
	if (c)
		cmn_htab_init(&c->tab, sizeof(struct entry));
	return c;
}

void cpl_itcache_free(struct cpl_itcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->tab.cap; i++) {
		struct entry *s = cmn_htab_at(&c->tab, i);
		if (s) {
			free(s->nodes);
			free(s->t);
		}
	}
	cmn_htab_free(&c->tab);
	free(c);
}

int cpl_itcache_getv(struct cpl_itcache *c, int profile, const int *nodes, int n, double *t, int nt)
{
	c->lookups++;
	struct key k = {profile, n, nodes};
	const struct entry *s = cmn_htab_find(&c->tab, hash(profile, nodes, n), match, &k);
	if (!s || s->nt != nt)
		return 0;
	c->hits++;
	memcpy(t, s->t, (size_t)nt * sizeof *t);
	return 1;
}

int cpl_itcache_putv(struct cpl_itcache *c, int profile, const int *nodes, int n, const double *t,
                     int nt)
{
	int *copy = malloc((size_t)(n ? n : 1) * sizeof *copy);
	double *tv = malloc((size_t)(nt ? nt : 1) * sizeof *tv);
	if (!copy || !tv) {
		free(copy);
		free(tv);
		return -1;
	}
	memcpy(copy, nodes, (size_t)n * sizeof *nodes);
	memcpy(tv, t, (size_t)nt * sizeof *t);
	struct key k = {profile, n, nodes};
	int added;
	struct entry *s = cmn_htab_put(&c->tab, hash(profile, nodes, n), match, &k, &added);
	if (!s || !added)
		free(copy);
	if (!s) {
		free(tv);
		return -1;
	}
	if (added) {
		*s = (struct entry){profile, n, nt, copy, tv};
	} else {
		free(s->t);
		s->t = tv;
		s->nt = nt;
	}
	return 0;
}

int cpl_itcache_has(const struct cpl_itcache *c, int profile, const int *nodes, int n)
{
	struct key k = {profile, n, nodes};
	return cmn_htab_find(&c->tab, hash(profile, nodes, n), match, &k) != NULL;
}

int cpl_itcache_get(struct cpl_itcache *c, int profile, const int *nodes, int n, double *t)
{
	return cpl_itcache_getv(c, profile, nodes, n, t, 1);
}

int cpl_itcache_put(struct cpl_itcache *c, int profile, const int *nodes, int n, double t)
{
	return cpl_itcache_putv(c, profile, nodes, n, &t, 1);
}

void cpl_itcache_counts(const struct cpl_itcache *c, long *lookups, long *hits, size_t *entries)
{
	*lookups = c->lookups;
	*hits = c->hits;
	*entries = c->tab.n;
}
