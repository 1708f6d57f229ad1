/* Remembered failures of what-if placements (see fail_memo.h): an open
 * addressing table with linear probing, keyed by a hash of (job, bitmap)
 * and checked against the stored bitmap. */
#include <stdlib.h>
#include <string.h>

#include "fail_memo.h"

enum { MEMO_FIRST = 1024 };

void js_fail_memo_init(struct js_fail_memo *m, int nodes, size_t budget)
{
	memset(m, 0, sizeof *m);
	m->words = ((size_t)nodes + 63) / 64;
	size_t slot = m->words * sizeof *m->bits + sizeof *m->hash + sizeof *m->job;
	m->max_cap = MEMO_FIRST;
	while (m->max_cap * 2 * slot <= budget)
		m->max_cap *= 2;
}

void js_fail_memo_free(struct js_fail_memo *m)
{
	free(m->hash);
	free(m->job);
	free(m->bits);
	m->hash = m->bits = NULL;
	m->job = NULL;
	m->cap = m->used = 0;
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
	return h ? h : 1;
}

static size_t slot_of(const struct js_fail_memo *m, uint64_t h, int j, const uint64_t *bits,
                      int *found)
{
	size_t mask = m->cap - 1, s = (size_t)h & mask;
	for (; m->hash[s]; s = (s + 1) & mask)
		if (m->hash[s] == h && m->job[s] == j &&
		    memcmp(m->bits + s * m->words, bits, m->words * sizeof *bits) == 0) {
			*found = 1;
			return s;
		}
	*found = 0;
	return s;
}

int js_fail_memo_known(const struct js_fail_memo *m, uint64_t h, int j, const uint64_t *bits)
{
	int found = 0;
	if (m->cap)
		slot_of(m, h, j, bits, &found);
	return found;
}

/* A table of cap slots holding the old one's entries; -1 out of memory. */
static int resize(struct js_fail_memo *m, size_t cap)
{
	struct js_fail_memo n = *m;
	n.cap = cap;
	n.used = 0;
	n.hash = calloc(cap, sizeof *n.hash);
	n.job = malloc(cap * sizeof *n.job);
	n.bits = malloc(cap * m->words * sizeof *n.bits);
	if (!n.hash || !n.job || !n.bits) {
		free(n.hash);
		free(n.job);
		free(n.bits);
		return -1;
	}
	for (size_t s = 0; s < m->cap; s++) {
		if (!m->hash[s])
			continue;
		int found;
		size_t t = slot_of(&n, m->hash[s], m->job[s], m->bits + s * m->words, &found);
		n.hash[t] = m->hash[s];
		n.job[t] = m->job[s];
		memcpy(n.bits + t * n.words, m->bits + s * m->words, m->words * sizeof *m->bits);
		n.used++;
	}
	js_fail_memo_free(m);
	*m = n;
	return 0;
}

void js_fail_memo_add(struct js_fail_memo *m, uint64_t h, int j, const uint64_t *bits)
{
	if (2 * (m->used + 1) > m->cap) {
		if (m->cap < m->max_cap) {
			if (resize(m, m->cap ? 2 * m->cap : MEMO_FIRST))
				return;
		} else { /* full: start again */
			memset(m->hash, 0, m->cap * sizeof *m->hash);
			m->used = 0;
			m->resets++;
		}
	}
	int found;
	size_t s = slot_of(m, h, j, bits, &found);
	if (found)
		return;
	m->hash[s] = h;
	m->job[s] = j;
	memcpy(m->bits + s * m->words, bits, m->words * sizeof *bits);
	m->used++;
}
