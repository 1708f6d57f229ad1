/* The project's one hash table: open addressing with linear probing, at
 * most half full, entries of a fixed size stored in the table itself. The
 * caller hashes its key and says when an entry matches it; each slot keeps
 * its entry's hash (growth never hashes a key again; a probe compares
 * hashes before it calls match). Entries move when the table grows or an
 * entry is deleted: a pointer to one holds until the next put or del.
 * Lookups and insertions are static inline, so that match inlines where
 * the caller passes a function of its own file. Determinism: a walk over
 * the slots (cmn_htab_at) follows the hashes, so it may answer only
 * questions that do not depend on order (a minimum, freeing). */
#ifndef CMN_HTAB_H
#define CMN_HTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cmn_htab {
	unsigned char *e; /* cap entries of esize bytes */
	uint64_t *h;      /* per slot: its entry's hash, top bit set; 0: empty */
	size_t esize, cap, n;
};

/* An empty table of entries of esize bytes (no memory until the first put). */
static inline void cmn_htab_init(struct cmn_htab *t, size_t esize)
{
	*t = (struct cmn_htab){NULL, NULL, esize, 0, 0};
}
void cmn_htab_free(struct cmn_htab *t);

/* Room for one more entry (doubling, from 1024 slots): 0, or -1 out of
 * memory (the table unchanged). */
int cmn_htab_grow(struct cmn_htab *t);

/* What a slot keeps of hash h: never 0, and h's low bits (where its probe
 * starts) as they are. */
static inline uint64_t cmn_htab_tag(uint64_t h)
{
	return h | UINT64_C(1) << 63;
}

/* The entry of hash h that match(entry, key) accepts, or NULL. */
static inline void *cmn_htab_find(const struct cmn_htab *t, uint64_t h,
                                  int (*match)(const void *entry, const void *key), const void *key)
{
	if (!t->cap)
		return NULL;
	uint64_t tag = cmn_htab_tag(h);
	for (size_t i = tag & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		if (!t->h[i])
			return NULL;
		if (t->h[i] == tag && match(t->e + i * t->esize, key))
			return t->e + i * t->esize;
	}
}

/* The entry of hash h that match accepts, or a new one (all bytes 0,
 * *added = 1) where it goes; NULL when out of memory. */
static inline void *cmn_htab_put(struct cmn_htab *t, uint64_t h,
                                 int (*match)(const void *entry, const void *key), const void *key,
                                 int *added)
{
	*added = 0;
	void *found = cmn_htab_find(t, h, match, key);
	if (found)
		return found;
	if (2 * (t->n + 1) > t->cap && cmn_htab_grow(t))
		return NULL;
	size_t i = cmn_htab_tag(h) & (t->cap - 1);
	while (t->h[i])
		i = (i + 1) & (t->cap - 1);
	t->h[i] = cmn_htab_tag(h);
	t->n++;
	*added = 1;
	void *entry = t->e + i * t->esize;
	memset(entry, 0, t->esize);
	return entry;
}

/* Deletes an entry (a pointer into the table): the entries after it that
 * probed past it move up (backward-shift deletion, no tombstones). */
void cmn_htab_del(struct cmn_htab *t, void *entry);

/* Slot i's entry (0 <= i < cap), or NULL when the slot is empty. */
static inline void *cmn_htab_at(const struct cmn_htab *t, size_t i)
{
	return t->h[i] ? t->e + i * t->esize : NULL;
}

#endif
