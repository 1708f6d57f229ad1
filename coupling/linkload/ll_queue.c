/* The levels of a linkload computation in order (ll_queue.h): a radix
 * queue over the levels' bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/grow.h"
#include "ll_queue.h"

static uint64_t bits(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof b);
	return b; /* ordered as x for positive x */
}

static double level(uint64_t b)
{
	double x;
	memcpy(&x, &b, sizeof x);
	return x;
}

/* The bucket of key k: the length of its difference from last. */
static int bucket(uint64_t last, uint64_t k)
{
	uint64_t d = k ^ last;
	return d ? 64 - __builtin_clzll(d) : 0;
}

void cpl_ll_queue_free(struct ll_queue *q)
{
	for (int i = 0; i < 65; i++)
		free(q->b[i]);
	free(q->out);
	memset(q, 0, sizeof *q);
}

void cpl_ll_queue_clear(struct ll_queue *q)
{
	memset(q->n, 0, sizeof q->n);
	q->last = 0;
	q->haslow = 0;
}

static int append(struct ll_queue *q, int i, struct llq_entry e)
{
	if (cmn_grow((void **)&q->b[i], &q->cap[i], q->n[i] + 1, 256, sizeof *q->b[i]))
		return -1;
	q->b[i][q->n[i]++] = e;
	return 0;
}

int cpl_ll_queue_push(struct ll_queue *q, double key, int u)
{
	uint64_t k = bits(key);
	int i = bucket(q->last, k);
	if (k < q->last || append(q, i, (struct llq_entry){k, u}))
		return -1;
	if (q->haslow && k < q->low) {
		q->low = k;
		q->lowb = i;
	}
	return 0;
}

/* Bucket i's entries of links without users dropped, those whose level
 * rose moved to their bucket; -1 out of memory. */
static int check(struct ll_queue *q, const struct ll_link *l, int i)
{
	long w = 0;
	for (long j = 0; j < q->n[i]; j++) {
		struct llq_entry e = q->b[i][j];
		if (l[e.u].users <= 0)
			continue;
		e.key = bits(l[e.u].key);
		int to = bucket(q->last, e.key);
		if (to == i)
			q->b[i][w++] = e;
		else if (append(q, to, e))
			return -1;
	}
	q->n[i] = w;
	return 0;
}

double cpl_ll_queue_min(struct ll_queue *q, const struct ll_link *l)
{
	if (q->haslow)
		return level(q->low);
	for (int i = 0; i < 65; i++) {
		if (q->n[i] && l && check(q, l, i))
			return NAN;
		if (!q->n[i])
			continue;
		uint64_t m = q->b[i][0].key;
		for (long j = 1; j < q->n[i]; j++)
			m = q->b[i][j].key < m ? q->b[i][j].key : m;
		q->low = m;
		q->lowb = i;
		q->haslow = 1;
		return level(m);
	}
	return INFINITY;
}

const int *cpl_ll_queue_take(struct ll_queue *q, const struct ll_link *l, double x, long *n)
{
	*n = 0;
	if (cpl_ll_queue_min(q, l) != x || !q->haslow)
		return q->out; /* nothing there */
	int i = q->lowb;
	q->haslow = 0;
	if (i > 0) { /* its entries under the new last: in lower buckets */
		q->last = bits(x);
		long m = q->n[i];
		q->n[i] = 0;
		for (long j = 0; j < m; j++) {
			struct llq_entry e = q->b[i][j];
			if (l && l[e.u].users <= 0)
				continue;
			if (l)
				e.key = bits(l[e.u].key);
			if (append(q, bucket(q->last, e.key), e))
				return NULL;
		}
	}
	if (l && !i && check(q, l, 0)) /* else bucket 0 holds just the ones moved, checked */
		return NULL;
	if (cmn_grow((void **)&q->out, &q->capout, q->n[0], 256, sizeof *q->out))
		return NULL;
	for (long j = 0; j < q->n[0]; j++)
		q->out[j] = q->b[0][j].u;
	*n = q->n[0];
	q->n[0] = 0;
	return q->out;
}
