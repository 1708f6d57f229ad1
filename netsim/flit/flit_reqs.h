/* The flit replay's pending requests (flit_replay.c): each rank's in the
 * order posted, in slots that stay put until the request is waited for,
 * and the trace's own (not a collective's) also queued per key (rank,
 * src, dst, tag) in one table for the whole replay, so that a wait finds
 * the oldest request of its key in O(1) whatever else is pending, and
 * leaves in O(1) wherever it stands. Not a public interface. */
#ifndef NET_FLIT_REQS_H
#define NET_FLIT_REQS_H

#include "../../common/htab.h"

struct flit_req {
	int xfer, coll, src, dst, tag;
	int prev, next; /* the rank's posting order (next: the free list when free) */
	int knext;      /* the next of its key (the trace's own requests) */
};

/* One rank's requests. */
struct flit_reqs {
	struct flit_req *r;
	long cap;
	int free;       /* free slots, through next (-1: none) */
	int head, tail; /* the oldest and the newest pending (-1: none) */
	int live;       /* pending requests */
};

/* No request pending, no memory. */
void net_flit_reqs_init(struct flit_reqs *q);
/* Frees a rank's slots (its keys must have left the table: none pending). */
void net_flit_reqs_free(struct flit_reqs *q);
/* The table of keys: cmn_htab_init(keys, net_flit_reqs_key_size()). */
size_t net_flit_reqs_key_size(void);

/* Rank g posts a request of transfer xfer: 0, or -1 out of memory
 * (nothing changed). */
int net_flit_reqs_add(struct flit_reqs *q, struct cmn_htab *keys, int g, int xfer, int coll,
                      int src, int dst, int tag);
/* The slot of rank g's oldest pending request of its own of key (src,
 * dst, tag), or -1. */
int net_flit_reqs_find(const struct cmn_htab *keys, int g, int src, int dst, int tag);
/* Removes pending request s of rank g (O(1) for the oldest of its key, as
 * every caller removes): returns its transfer. */
int net_flit_reqs_remove(struct flit_reqs *q, struct cmn_htab *keys, int g, int s);

#endif
