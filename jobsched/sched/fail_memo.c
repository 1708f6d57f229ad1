/* Remembered failures of what-if placements (see fail_memo.h): entries of
 * the project's hash table holding the job and the whole bitmap. */
#include <stdlib.h>
#include <string.h>

#include "fail_memo.h"

void js_fail_memo_init(struct js_fail_memo *m, int nodes, size_t budget)
{
	m->words = ((size_t)nodes + 63) / 64;
	size_t esize = (1 + m->words) * sizeof(uint64_t), cap = 1024;
	cmn_htab_init(&m->t, esize);
	/* the table's room, a power of two from 1,024 slots (an entry and its
	 * hash each), at most half the budget (growing holds the old table
	 * too); at most half full */
	while (cap * 2 * 2 * (esize + sizeof(uint64_t)) <= budget)
		cap *= 2;
	m->most = cap / 2;
	m->resets = 0;
}

void js_fail_memo_free(struct js_fail_memo *m)
{
	cmn_htab_free(&m->t);
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= UINT64_C(0x7fb5d329728ea185);
	x ^= x >> 27;
	x *= UINT64_C(0x81dadef4bc2dd44d);
	return x ^ (x >> 33);
}

uint64_t js_fail_memo_hash(const struct js_fail_memo *m, int j, const uint64_t *bits)
{
	uint64_t h = mix((uint64_t)(unsigned)j + UINT64_C(0x9e3779b97f4a7c15));
	for (size_t w = 0; w < m->words; w++)
		h = mix(h ^ bits[w]) + w;
	return h;
}

struct key {
	uint64_t job;
	const uint64_t *bits;
	size_t words;
};

static int match(const void *entry, const void *key)
{
	const uint64_t *e = entry;
	const struct key *k = key;
	return e[0] == k->job && memcmp(e + 1, k->bits, k->words * sizeof *k->bits) == 0;
}

int js_fail_memo_known(const struct js_fail_memo *m, uint64_t h, int j, const uint64_t *bits)
{
	struct key k = {(uint64_t)(unsigned)j, bits, m->words};
	return cmn_htab_find(&m->t, h, match, &k) != NULL;
}

void js_fail_memo_add(struct js_fail_memo *m, uint64_t h, int j, const uint64_t *bits)
{
	if (m->t.n >= m->most) { /* full: start again */
		cmn_htab_free(&m->t);
		m->resets++;
	}
	struct key k = {(uint64_t)(unsigned)j, bits, m->words};
	int added;
	uint64_t *e = cmn_htab_put(&m->t, h, match, &k, &added);
	if (e && added) {
		e[0] = k.job;
		memcpy(e + 1, bits, m->words * sizeof *bits);
	}
}
