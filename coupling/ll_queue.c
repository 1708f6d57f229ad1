/* The links of a linkload computation by filling level (ll_queue.h): a
 * sorted run consumed from the front, and a 4-ary heap. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ll_queue.h"

int ll_queue_room(struct ll_queue *q, long n)
{
	n = n ? n : 1;
	if (n <= q->cap)
		return 0;
	ll_queue_free(q);
	q->run = malloc((size_t)n * sizeof *q->run);
	q->tmp = malloc((size_t)n * sizeof *q->tmp);
	q->heap = malloc((size_t)n * sizeof *q->heap);
	if (!q->run || !q->tmp || !q->heap) {
		ll_queue_free(q);
		return -1;
	}
	q->cap = n;
	return 0;
}

void ll_queue_free(struct ll_queue *q)
{
	free(q->run), free(q->tmp), free(q->heap);
	memset(q, 0, sizeof *q);
}

static uint64_t bits(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof b);
	return b; /* ordered as x for positive x */
}

/* Stable LSD radix sort of q->run by key, 8 bits a pass, passes where
 * every key has the same digit skipped. */
static void sort_run(struct ll_queue *q)
{
	long n = q->nrun, count[8][256] = {{0}};
	for (long i = 0; i < n; i++) {
		uint64_t b = bits(q->run[i].key);
		for (int d = 0; d < 8; d++)
			count[d][(b >> (8 * d)) & 255]++;
	}
	struct llq_entry *src = q->run, *dst = q->tmp;
	for (int d = 0; d < 8; d++) {
		long *c = count[d], sum = 0;
		if (c[(bits(src[0].key) >> (8 * d)) & 255] == n)
			continue;
		for (int v = 0; v < 256; v++) {
			long x = c[v];
			c[v] = sum;
			sum += x;
		}
		for (long i = 0; i < n; i++)
			dst[c[(bits(src[i].key) >> (8 * d)) & 255]++] = src[i];
		struct llq_entry *t = src;
		src = dst;
		dst = t;
	}
	if (src != q->run) {
		q->tmp = q->run;
		q->run = src;
	}
}

void ll_queue_start(struct ll_queue *q, const struct ll_link *l, const int *list, long n)
{
	q->nrun = q->at = q->nheap = 0;
	for (long i = 0; i < n; i++)
		if (l[list[i]].users > 0)
			q->run[q->nrun++] = (struct llq_entry){l[list[i]].key, list[i]};
	if (q->nrun > 1)
		sort_run(q);
}

static int before(struct llq_entry a, struct llq_entry b)
{
	return a.key < b.key || (a.key == b.key && a.u < b.u);
}

static void sift_up(struct ll_queue *q, long i)
{
	struct llq_entry *h = q->heap, x = h[i];
	while (i > 0 && before(x, h[(i - 1) / 4])) {
		h[i] = h[(i - 1) / 4];
		i = (i - 1) / 4;
	}
	h[i] = x;
}

static void sift_down(struct ll_queue *q, long i)
{
	struct llq_entry *h = q->heap, x = h[i];
	long n = q->nheap;
	for (;;) {
		long c = 4 * i + 1, end = c + 4 < n ? c + 4 : n;
		if (c >= n)
			break;
		for (long d = c + 1; d < end; d++)
			if (before(h[d], h[c]))
				c = d;
		if (!before(h[c], x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static void heap_pop(struct ll_queue *q)
{
	if (--q->nheap > 0) {
		q->heap[0] = q->heap[q->nheap];
		sift_down(q, 0);
	}
}

void ll_queue_push(struct ll_queue *q, int u, double key)
{
	q->heap[q->nheap++] = (struct llq_entry){key, u};
	sift_up(q, q->nheap - 1);
}

int ll_queue_front(struct ll_queue *q, const struct ll_link *l)
{
	for (;;) {
		if (q->at < q->nrun) { /* the run's front: gone, risen (to the heap) or right */
			struct llq_entry *r = &q->run[q->at];
			if (l[r->u].users <= 0) {
				q->at++;
				continue;
			}
			if (r->key < l[r->u].key) {
				q->at++;
				ll_queue_push(q, r->u, l[r->u].key);
				continue;
			}
		}
		if (q->nheap > 0) { /* the heap's top likewise */
			struct llq_entry *h = &q->heap[0];
			if (l[h->u].users <= 0) {
				heap_pop(q);
				continue;
			}
			if (h->key < l[h->u].key) {
				h->key = l[h->u].key;
				sift_down(q, 0);
				continue;
			}
		}
		int run = q->at<q->nrun, heap = q->nheap> 0;
		if (!run && !heap)
			return -1;
		q->from_heap = !run || (heap && before(q->heap[0], q->run[q->at]));
		return q->from_heap ? q->heap[0].u : q->run[q->at].u;
	}
}

void ll_queue_pop(struct ll_queue *q)
{
	if (q->from_heap)
		heap_pop(q);
	else
		q->at++;
}
