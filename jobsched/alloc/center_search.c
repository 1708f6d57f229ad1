/* The centre allocators' best-first search over boxes of candidate
 * centres (center_internal.h), on one thread or two. Boxes are popped by
 * (bound, lowest id); a popped box is split into its halves' halves, or
 * into its single centres when small, and each part is bounded (a single
 * centre's bound is its exact score) and kept when it may still beat the
 * best exact centre seen. The first exact box popped is the winner: the
 * least (score, id) over every candidate.
 *
 * On two threads, both workers pop from the one heap under a lock and
 * bound a box's parts outside it. A worker that finds an exact box on top
 * waits while the other still works on a box that comes before it (its
 * parts could come before too). Pruning only ever drops boxes whose bound
 * is above, or equal with higher ids than, an exact centre found, so the
 * winner is the same least (score, id) whatever the interleaving: the
 * placements do not depend on the number of threads. A worker with
 * nothing to do spins a little on the search's generation (bumped at every
 * change) before it sleeps. The second worker is a thread kept by the
 * allocator between searches (a search takes a few hundred microseconds
 * to milliseconds; starting a thread for each cost a tenth of the run in
 * system time: center_pool.c). */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "center_internal.h"

/* Search order: bound, then lowest id (the tie-break), then the smaller
 * box, which dives to single centres and so to a score that prunes. */
static int box_before(const struct center_box *a, const struct center_box *b)
{
	if (a->lb != b->lb)
		return a->lb < b->lb;
	if (a->minid != b->minid)
		return a->minid < b->minid;
	return a->size < b->size;
}

static void heap_push(struct center_box *h, size_t *len, const struct center_box *b)
{
	size_t i = (*len)++;
	while (i > 0 && box_before(b, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = *b;
}

/* The top box into *top (written in place: a box returned by value was
 * copied through the stack, and stalled on store forwarding). */
static void heap_pop(struct center_box *h, size_t *len, struct center_box *top)
{
	*top = h[0];
	const struct center_box *last = &h[--*len];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		const struct center_box *mb = last;
		if (l < *len && box_before(&h[l], mb))
			mb = &h[m = l];
		if (l + 1 < *len && box_before(&h[l + 1], mb))
			mb = &h[m = l + 1];
		if (m == i)
			break;
		h[i] = h[m];
		i = m;
	}
	if (&h[i] != last)
		h[i] = *last;
}

static int box_size(const struct center_box *b)
{
	return (b->hi[0] - b->lo[0] + 1) * (b->hi[1] - b->lo[1] + 1) * (b->hi[2] - b->lo[2] + 1);
}

/* Splits b across its longest dimension (the first of the longest). */
static void halve(const struct center_box *b, struct center_box *half)
{
	int d = 0;
	for (int e = 1; e < 3; e++)
		if (b->hi[e] - b->lo[e] > b->hi[d] - b->lo[d])
			d = e;
	half[0] = half[1] = *b;
	half[0].hi[d] = half[1].lo[d] = b->lo[d] + (b->hi[d] - b->lo[d]) / 2;
	half[1].lo[d]++;
}

/* What the workers share; the lock is taken only with two workers. The
 * fields read for every centre bounded (the first four, never written
 * during a search) have a cache line of their own: on the line that the
 * other worker writes at each pop they were a cache miss a centre. */
struct search {
	struct center *c;
	center_bound_fn bound;
	int spread, threads;
	_Alignas(64) pthread_mutex_t lock;
	pthread_cond_t changed;
	size_t len; /* boxes on the heap (c->heap) */
	long best;  /* the best exact centre seen: score and id */
	int best_id;
	int working[2]; /* a worker is bounding the parts of key[i] */
	struct center_box key[2];
	int done, winner;
	atomic_uint gen; /* bumped (under the lock) at every change of the above */
	int sleepers;    /* workers waiting on `changed` */
};

struct worker {
	struct search *s;
	void *ctx;
	int me;
};

/* Keeps a bounded box when it may hold a centre better than the best so
 * far (and records it as the best when exact). */
static void keep(struct search *s, const struct center_box *h)
{
	if (h->lb > s->best || (h->lb == s->best && h->minid > s->best_id))
		return;
	if (h->exact) {
		s->best = h->lb;
		s->best_id = h->minid;
	}
	heap_push(s->c->heap, &s->len, h);
}

/* A box's bounded parts, at most MAX_PARTS of them. */
enum { MAX_PARTS = 64 };

/* Bounds the part h; on one thread keeps it at once (the best so far as
 * the cut), on two returns whether to keep it later under the lock (the
 * best when the box was popped as the cut). */
static int part_keep(struct search *s, void *ctx, struct center_box *h, long cut)
{
	struct center *c = s->c;
	h->minid = center_id(c, h->lo[0], h->lo[1], h->lo[2]);
	h->size = box_size(h);
	h->exact = h->size == 1;
	int kept = s->bound(c, ctx, h, s->threads > 1 ? cut : s->best);
	if (kept && s->threads == 1) {
		keep(s, h);
		return 0;
	}
	return kept;
}

/* Bounds the parts of b: its single centres when it holds at most spread
 * (each given as r the larger of b's and the last centre's r less their
 * L1 distance: a ball of radius r' around it lies in the last one's ball
 * of r' + distance, so it needs no less), else its halves' halves (a half
 * of at most spread stays whole: the bounds of the halves cost about as
 * much as they save, measured). Of the single centres only the best is a
 * part: an exact box behind another can never win (the search ends when
 * an exact box is on top), and the best so far is each next centre's cut
 * (the centres come in id order, so a tie loses to it). Returns how many
 * are left in part to keep. */
static int bound_parts(struct search *s, void *ctx, const struct center_box *b, long cut,
                       struct center_box *part)
{
	int n = 0;
	if (b->size <= s->spread) {
		/* each field written on its own: a copy of the box and of the
		 * coordinates from an array just stored stalled on store
		 * forwarding (a tenth of a two-thread search) */
		int last = b->r, a0 = b->lo[0], a1 = b->lo[1], a2 = b->lo[2];
		long lim = s->threads > 1 ? cut : s->best;
		for (int x = b->lo[0]; x <= b->hi[0]; x++)
			for (int y = b->lo[1]; y <= b->hi[1]; y++)
				for (int z = b->lo[2]; z <= b->hi[2]; z++) {
					struct center_box *one = &part[n]; /* part[0]: the best */
					int near = last - abs(x - a0) - abs(y - a1) - abs(z - a2);
					one->lb = b->lb;
					one->lbz = b->lbz;
					one->r = near > b->r ? near : b->r;
					one->lo[0] = one->hi[0] = x;
					one->lo[1] = one->hi[1] = y;
					one->lo[2] = one->hi[2] = z;
					one->minid = center_id(s->c, x, y, z);
					one->size = one->exact = 1;
					if (s->bound(s->c, ctx, one, lim) &&
					    (!n || one->lb < lim)) {
						lim = one->lb;
						if (n)
							part[0] = *one;
						n = 1;
					}
					last = one->r;
					a0 = x;
					a1 = y;
					a2 = z;
				}
		if (n && s->threads == 1) {
			keep(s, part);
			return 0;
		}
		return n;
	}
	struct center_box half[2], cand[4];
	int parts = 0;
	halve(b, half);
	for (int i = 0; i < 2; i++) {
		if (box_size(&half[i]) <= s->spread) {
			cand[parts++] = half[i];
			continue;
		}
		halve(&half[i], cand + parts);
		parts += 2;
	}
	for (int i = 0; i < parts; i++) {
		part[n] = cand[i];
		n += part_keep(s, ctx, &part[n], cut);
	}
	return n;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* The lock, with two workers: tried a little before sleeping on it (it is
 * held for a heap operation or two, microseconds apart). */
static void hold(struct search *s)
{
	if (s->threads < 2)
		return;
	for (int i = 0; i < 100; i++) {
		if (!pthread_mutex_trylock(&s->lock))
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&s->lock);
}

static void release(struct search *s)
{
	if (s->threads > 1)
		pthread_mutex_unlock(&s->lock);
}

/* Under the lock, with two workers: the state changed. */
static void changed(struct search *s)
{
	/* only changed under the lock: a plain store, no locked add */
	atomic_store_explicit(&s->gen, atomic_load_explicit(&s->gen, memory_order_relaxed) + 1,
	                      memory_order_release);
	if (s->sleepers)
		pthread_cond_broadcast(&s->changed);
}

/* Under the lock, with two workers: waits for a change, spinning a
 * little without the lock before sleeping. */
static void await(struct search *s)
{
	unsigned gen = atomic_load_explicit(&s->gen, memory_order_relaxed);
	release(s);
	for (unsigned i = 0; i < 300 && atomic_load_explicit(&s->gen, memory_order_acquire) == gen;
	     i++)
		cpu_relax();
	hold(s);
	if (atomic_load_explicit(&s->gen, memory_order_relaxed) == gen) {
		s->sleepers++;
		pthread_cond_wait(&s->changed, &s->lock);
		s->sleepers--;
	}
}

static void *work(void *arg)
{
	const struct worker *w = arg;
	struct search *s = w->s;
	struct center_box part[MAX_PARTS];
	int other = 1 - w->me;
	hold(s);
	while (!s->done) {
		if (s->len == 0 || (s->c->heap[0].exact && s->working[other] &&
		                    box_before(&s->key[other], &s->c->heap[0]))) {
			if (!s->working[other]) { /* nothing left anywhere */
				s->done = 1;
				s->winner = -1;
				break;
			}
			await(s); /* two workers only */
			continue;
		}
		if (s->c->heap[0].exact) { /* nothing left, nor being bounded, beats it */
			s->done = 1;
			s->winner = s->c->heap[0].minid;
			break;
		}
		struct center_box b;
		heap_pop(s->c->heap, &s->len, &b);
		long cut = s->best;
		s->working[w->me] = 1;
		s->key[w->me] = b;
		release(s);
		int n = bound_parts(s, w->ctx, &b, cut, part);
		hold(s);
		for (int i = 0; i < n; i++)
			keep(s, &part[i]);
		s->working[w->me] = 0;
		if (s->threads > 1)
			changed(s);
	}
	if (s->threads > 1)
		changed(s);
	release(s);
	return NULL;
}

/* The second worker's task: a search until done. */
static void work_task(void *arg)
{
	work(arg);
}

int js_center_search(struct center *c, center_bound_fn bound, void *ctx, void *ctx2, int r0,
                     int spread)
{
	if (spread > MAX_PARTS)
		spread = MAX_PARTS;
	struct search s = {.c = c,
	                   .bound = bound,
	                   .spread = spread,
	                   .threads = ctx2 ? 2 : 1,
	                   .best = LONG_MAX,
	                   .best_id = INT_MAX};
	struct center_box root = {.size = c->n,
	                          .exact = c->n == 1,
	                          .r = r0,
	                          .hi = {c->dims[0] - 1, c->dims[1] - 1, c->dims[2] - 1}};
	if (!bound(c, ctx, &root, LONG_MAX))
		return -1;
	heap_push(c->heap, &s.len, &root);
	struct worker w[2] = {{&s, ctx, 0}, {&s, ctx2, 1}};
	struct center_pool *p = s.threads > 1 ? js_center_pool_get(c) : NULL;
	if (!p) {
		s.threads = 1; /* no second thread: the same search on one */
		work(&w[0]);
		return s.winner;
	}
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.changed, NULL);
	atomic_init(&s.gen, 0);
	js_center_pool_run(p, work_task, &w[1]);
	work(&w[0]);
	js_center_pool_wait(p);
	pthread_cond_destroy(&s.changed);
	pthread_mutex_destroy(&s.lock);
	return s.winner;
}
