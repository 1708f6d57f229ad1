/* The links of a linkload computation by filling level (ll_queue.h): a
 * sorted run consumed from the front, and a 4-ary heap. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "ll_queue.h"

int ll_queue_room(struct ll_queue *q, long n)
{
	n = n ? n : 1;
	if (n <= q->cap)
		return 0;
	ll_queue_free(q);
	q->run = malloc((size_t)n * sizeof *q->run);
	q->tmp = malloc((size_t)n * sizeof *q->tmp);
	q->heap.e = malloc((size_t)n * sizeof *q->heap.e);
	if (!q->run || !q->tmp || !q->heap.e) {
		ll_queue_free(q);
		return -1;
	}
	q->cap = q->heap.cap = n;
	return 0;
}

void ll_queue_free(struct ll_queue *q)
{
	free(q->run), free(q->tmp);
	llq_heap_free(&q->heap);
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
	q->nrun = q->at = q->heap.n = 0;
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

static void sift_up(struct llq_entry *h, long i)
{
	struct llq_entry x = h[i];
	while (i > 0 && before(x, h[(i - 1) / 4])) {
		h[i] = h[(i - 1) / 4];
		i = (i - 1) / 4;
	}
	h[i] = x;
}

static void sift_down(struct llq_entry *h, long n, long i)
{
	struct llq_entry x = h[i];
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

int llq_heap_push(struct llq_heap *h, double key, int u)
{
	if (cmn_grow((void **)&h->e, &h->cap, h->n + 1, 1024, sizeof *h->e))
		return -1;
	h->e[h->n++] = (struct llq_entry){key, u};
	sift_up(h->e, h->n - 1);
	return 0;
}

void llq_heap_pop(struct llq_heap *h)
{
	if (--h->n > 0) {
		h->e[0] = h->e[h->n];
		sift_down(h->e, h->n, 0);
	}
}

void llq_heap_free(struct llq_heap *h)
{
	free(h->e);
	memset(h, 0, sizeof *h);
}

void ll_queue_push(struct ll_queue *q, int u, double key)
{
	(void)llq_heap_push(&q->heap, key, u); /* within the room made: no growth */
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
		struct llq_heap *h = &q->heap;
		if (h->n > 0) { /* the heap's top likewise */
			struct llq_entry *top = &h->e[0];
			if (l[top->u].users <= 0) {
				llq_heap_pop(h);
				continue;
			}
			if (top->key < l[top->u].key) {
				top->key = l[top->u].key;
				sift_down(h->e, h->n, 0);
				continue;
			}
		}
		int run = q->at<q->nrun, heap = h->n> 0;
		if (!run && !heap)
			return -1;
		q->from_heap = !run || (heap && before(h->e[0], q->run[q->at]));
		return q->from_heap ? h->e[0].u : q->run[q->at].u;
	}
}

void ll_queue_pop(struct ll_queue *q)
{
	if (q->from_heap)
		llq_heap_pop(&q->heap);
	else
		q->at++;
}
