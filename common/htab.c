/* The hash table's growth and deletion (htab.h). */
#include "htab.h"

#include <stdlib.h>

void cmn_htab_free(struct cmn_htab *t)
{
	free(t->e);
	free(t->h);
	cmn_htab_init(t, t->esize);
}

int cmn_htab_grow(struct cmn_htab *t)
{
	size_t cap = t->cap ? 2 * t->cap : 1024;
	unsigned char *e = malloc(cap * t->esize);
	uint64_t *h = calloc(cap, sizeof *h);
	if (!e || !h) {
		free(e), free(h);
		return -1;
	}
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->h[i])
			continue;
		size_t j = t->h[i] & (cap - 1);
		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = t->h[i];
		memcpy(e + j * t->esize, t->e + i * t->esize, t->esize);
	}
	free(t->e), free(t->h);
	t->e = e, t->h = h, t->cap = cap;
	return 0;
}

void cmn_htab_del(struct cmn_htab *t, void *entry)
{
	size_t mask = t->cap - 1, i = (size_t)((unsigned char *)entry - t->e) / t->esize, j = i;
	t->h[i] = 0;
	t->n--;
	for (;;) {
		j = (j + 1) & mask;
		if (!t->h[j])
			return;
		size_t home = t->h[j] & mask;
		/* the entry at j may move to i unless its home lies cyclically in (i, j] */
		if (i <= j ? home <= i || home > j : home <= i && home > j) {
			t->h[i] = t->h[j];
			memcpy(t->e + i * t->esize, t->e + j * t->esize, t->esize);
			t->h[j] = 0;
			i = j;
		}
	}
}
