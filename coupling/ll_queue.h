/* The links of a linkload computation by filling level (linkload.c): the
 * next link to fill, with levels that only rise. Built sorted (a radix
 * sort of the initial levels), then a heap for the links whose level rose
 * before their turn: a link's entry keeps the level it was queued with, a
 * lower bound, set right when it comes to the front. Ties go to the lower
 * link index, so the order never depends on the order of updates.
 * Internal to the linkload model. */
#ifndef CPL_LL_QUEUE_H
#define CPL_LL_QUEUE_H

/* A used link's state in a computation (linkload.c), in one place for
 * the cache: the queue orders the links with users by key. */
struct ll_link {
	double key; /* the level at which it fills */
	double res; /* its residual bandwidth at level lam */
	double lam, bw;
	long users; /* active flows */
	int id;     /* the machine's link */
	int mark;
};

struct llq_entry {
	double key;
	int u;
};

/* A 4-ary min-heap of entries by (key, u): the top at e[0]. */
struct llq_heap {
	struct llq_entry *e;
	long n, cap;
};

/* Adds (key, u); 0 or -1 out of memory. */
int llq_heap_push(struct llq_heap *h, double key, int u);
/* Removes the top (n > 0). */
void llq_heap_pop(struct llq_heap *h);
void llq_heap_free(struct llq_heap *h);

struct ll_queue {
	struct llq_entry *run, *tmp;
	struct llq_heap heap;
	long cap, nrun, at;
	int from_heap; /* where the front is (ll_queue_front) */
};

/* Room for n links; -1 when out of memory. */
int ll_queue_room(struct ll_queue *q, long n);
void ll_queue_free(struct ll_queue *q);
/* Links list[0 .. n) with users, at their keys (positive). */
void ll_queue_start(struct ll_queue *q, const struct ll_link *l, const int *list, long n);
/* The link with the lowest key among those with users (their current
 * keys), or -1; it stays queued until ll_queue_pop. */
int ll_queue_front(struct ll_queue *q, const struct ll_link *l);
/* Removes the front (after ll_queue_front). */
void ll_queue_pop(struct ll_queue *q);
/* Queues link u (not queued) at level key (room made by ll_queue_room). */
void ll_queue_push(struct ll_queue *q, int u, double key);

#endif
