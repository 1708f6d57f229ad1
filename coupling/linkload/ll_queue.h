/* The levels of a linkload computation (ll_fill.c) in order: the links by
 * the level at which they fill, and the replayed drops by level. Levels
 * only rise, so a radix queue (entries by the highest bit in which their
 * key differs from the last level taken, 65 buckets; an entry moves to a
 * lower bucket only when the level gets near it) costs O(1) per entry
 * added and a few moves per entry taken. For links, an entry keeps the
 * level it was queued with, a lower bound: entries of links whose level
 * rose are moved when met, those of links left without users dropped.
 * Internal to the linkload model. */
#ifndef CPL_LL_QUEUE_H
#define CPL_LL_QUEUE_H

#include <stdint.h>

/* A used link's state in a computation (ll_fill.c), in one place for the
 * cache: the queue orders the links with users by key. */
struct ll_link {
	double key; /* the level at which it fills */
	double res; /* its residual bandwidth at level lam */
	double lam, bw;
	long users; /* active flows */
	int id;     /* the machine's link */
	int mark;
};

struct llq_entry {
	uint64_t key; /* a positive level's bits: ordered as the level */
	int u;
};

struct ll_queue {
	struct llq_entry *b[65];
	long n[65], cap[65];
	uint64_t last; /* the level taken last */
	/* the lowest key found (cpl_ll_queue_min) and its bucket, while no lower
	 * one was added and none was taken */
	uint64_t low;
	int lowb, haslow;
	int *out; /* what cpl_ll_queue_take took */
	long capout;
};

void cpl_ll_queue_free(struct ll_queue *q);
/* Empty, at level 0. */
void cpl_ll_queue_clear(struct ll_queue *q);
/* Adds entry u at level key (positive, not below the level taken last);
 * 0 or -1 out of memory. */
int cpl_ll_queue_push(struct ll_queue *q, double key, int u);
/* The lowest level queued, or INFINITY; with links l, their current
 * levels (entries of links without users dropped). A lower bound when
 * levels rose since the last call, never above the lowest. */
double cpl_ll_queue_min(struct ll_queue *q, const struct ll_link *l);
/* Takes the entries at level x, the last cpl_ll_queue_min (with l: the links
 * still there at x): their u, *n of them (none when x is not the lowest
 * level), valid until the next call; NULL out of memory. */
const int *cpl_ll_queue_take(struct ll_queue *q, const struct ll_link *l, double x, long *n);

#endif
