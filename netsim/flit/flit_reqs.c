/* Pending requests of the flit replay's ranks (flit_reqs.h). A reversed
 * order of waits over many pending requests (post n, wait for the newest
 * first) searched and moved the rest down at every wait: 160,000 took
 * 18 s; each wait is O(1) here. */
#include <stdint.h>
#include <stdlib.h>

#include "../../common/grow.h"
#include "../../common/hash.h"
#include "flit_reqs.h"

/* A key's queue of pending requests (slots of its rank's flit_reqs). */
struct key {
	int g, src, dst, tag;
	int head, tail;
};

size_t net_flit_reqs_key_size(void)
{
	return sizeof(struct key);
}

void net_flit_reqs_init(struct flit_reqs *q)
{
	*q = (struct flit_reqs){.r = NULL, .cap = 0, .free = -1, .head = -1, .tail = -1, .live = 0};
}

void net_flit_reqs_free(struct flit_reqs *q)
{
	free(q->r);
	net_flit_reqs_init(q);
}

static uint64_t key_hash(int g, int src, int dst, int tag)
{
	uint64_t h = cmn_fnv64(cmn_fnv64(CMN_FNV64_BASIS, (uint32_t)g), (uint32_t)src);
	h = cmn_fnv64(cmn_fnv64(h, (uint32_t)dst), (uint32_t)tag);
	return h ^ (h >> 29); /* the high bits into the low ones a table's slot takes */
}

static int key_match(const void *entry, const void *key)
{
	const struct key *x = entry, *k = key;
	return x->g == k->g && x->src == k->src && x->dst == k->dst && x->tag == k->tag;
}

int net_flit_reqs_add(struct flit_reqs *q, struct cmn_htab *keys, int g, int xfer, int coll,
                      int src, int dst, int tag)
{
	int s = q->free;
	if (s < 0) {
		long n = q->cap;
		if (n >= INT32_MAX || cmn_grow((void **)&q->r, &q->cap, n + 1, 16, sizeof *q->r))
			return -1;
		for (long i = n; i < q->cap; i++) /* the new slots free, the lowest first */
			q->r[i].next = i + 1 < q->cap ? (int)(i + 1) : -1;
		q->free = s = (int)n;
	}
	struct key *k = NULL;
	if (!coll) {
		struct key want = {g, src, dst, tag, -1, -1};
		int added;
		if (!(k = cmn_htab_put(keys, key_hash(g, src, dst, tag), key_match, &want, &added)))
			return -1;
		if (added)
			*k = want;
	}
	q->free = q->r[s].next;
	q->r[s] = (struct flit_req){.xfer = xfer,
	                            .coll = coll,
	                            .src = src,
	                            .dst = dst,
	                            .tag = tag,
	                            .prev = q->tail,
	                            .next = -1,
	                            .knext = -1};
	if (q->tail >= 0)
		q->r[q->tail].next = s;
	else
		q->head = s;
	q->tail = s;
	q->live++;
	if (k) {
		if (k->tail >= 0)
			q->r[k->tail].knext = s;
		else
			k->head = s;
		k->tail = s;
	}
	return 0;
}

int net_flit_reqs_find(const struct cmn_htab *keys, int g, int src, int dst, int tag)
{
	struct key want = {g, src, dst, tag, -1, -1};
	const struct key *k = cmn_htab_find(keys, key_hash(g, src, dst, tag), key_match, &want);
	return k ? k->head : -1;
}

int net_flit_reqs_remove(struct flit_reqs *q, struct cmn_htab *keys, int g, int s)
{
	struct flit_req *r = &q->r[s];
	if (!r->coll) { /* out of its key's queue, where it is the first as a rule */
		struct key want = {g, r->src, r->dst, r->tag, -1, -1};
		struct key *k =
		    cmn_htab_find(keys, key_hash(g, r->src, r->dst, r->tag), key_match, &want);
		int prev = -1;
		for (int i = k->head; i != s; i = q->r[i].knext)
			prev = i;
		if (prev < 0)
			k->head = r->knext;
		else
			q->r[prev].knext = r->knext;
		if (k->tail == s)
			k->tail = prev;
		if (k->head < 0)
			cmn_htab_del(keys, k);
	}
	if (r->prev >= 0)
		q->r[r->prev].next = r->next;
	else
		q->head = r->next;
	if (r->next >= 0)
		q->r[r->next].prev = r->prev;
	else
		q->tail = r->prev;
	q->live--;
	int xfer = r->xfer;
	r->next = q->free;
	q->free = s;
	return xfer;
}
