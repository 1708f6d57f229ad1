/* Binary heap of events (see eventq.h for the order). */
#include <assert.h>
#include <stdlib.h>

#include "eventq.h"

static int less(const struct js_event *a, const struct js_event *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	if (a->job != b->job)
		return a->job < b->job;
	return a->version < b->version;
}

void js_eventq_init(struct js_eventq *q)
{
	q->h = NULL;
	q->n = q->cap = 0;
}

void js_eventq_free(struct js_eventq *q)
{
	free(q->h);
	js_eventq_init(q);
}

int js_eventq_push(struct js_eventq *q, struct js_event ev)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 256;
		struct js_event *h = realloc(q->h, cap * sizeof *h);
		if (!h)
			return -1;
		q->h = h;
		q->cap = cap;
	}
	size_t i = q->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!less(&ev, &q->h[parent]))
			break;
		q->h[i] = q->h[parent];
		i = parent;
	}
	q->h[i] = ev;
	return 0;
}

void js_eventq_pop(struct js_eventq *q, struct js_event *ev)
{
	assert(q->n > 0);
	*ev = q->h[0];
	struct js_event last = q->h[--q->n];
	size_t i = 0, n = q->n;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && less(&q->h[c + 1], &q->h[c]))
			c++;
		if (!less(&q->h[c], &last))
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	if (n)
		q->h[i] = last;
}
