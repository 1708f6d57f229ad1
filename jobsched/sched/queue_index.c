/* The queued jobs by job index (queue_index.h). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "queue_index.h"

int js_qindex_init(struct js_qindex *q, int n)
{
	q->n = n;
	q->leaves = 1;
	while (q->leaves < n)
		q->leaves *= 2;
	size_t nodes = 2 * (size_t)q->leaves;
	q->size = malloc(nodes * sizeof *q->size);
	q->req = malloc(nodes * sizeof *q->req);
	if (!q->size || !q->req) {
		js_qindex_free(q);
		return -1;
	}
	for (size_t i = 0; i < nodes; i++) {
		q->size[i] = INT_MAX;
		q->req[i] = INFINITY;
	}
	return 0;
}

void js_qindex_free(struct js_qindex *q)
{
	free(q->size);
	free(q->req);
	q->size = NULL;
	q->req = NULL;
}

/* Node i's minima from its children's, up to the root; stops where a node
 * keeps its values (its ancestors then keep theirs). */
static void lift(struct js_qindex *q, size_t i)
{
	for (i /= 2; i >= 1; i /= 2) {
		int s = q->size[2 * i] < q->size[2 * i + 1] ? q->size[2 * i] : q->size[2 * i + 1];
		double r = q->req[2 * i] < q->req[2 * i + 1] ? q->req[2 * i] : q->req[2 * i + 1];
		if (s == q->size[i] && r == q->req[i])
			return;
		q->size[i] = s;
		q->req[i] = r;
	}
}

void js_qindex_set(struct js_qindex *q, int j, int size, double req_s)
{
	size_t i = (size_t)q->leaves + (size_t)j;
	q->size[i] = size;
	q->req[i] = req_s;
	lift(q, i);
}

void js_qindex_clear(struct js_qindex *q, int j)
{
	js_qindex_set(q, j, INT_MAX, INFINITY);
}

/* Whether node i's range may hold a job that passes (for a leaf: whether its
 * job passes): a size at most fit that is at most small, or a size at most
 * fit and a requested time that ends in time. With the least size and the
 * least time of the range (perhaps of different jobs) this is necessary;
 * for one job it is the test itself. */
static int may_pass(const struct js_qindex *q, size_t i, int fit, int small, double now,
                    double until)
{
	return q->size[i] <= fit && (q->size[i] <= small || now + q->req[i] <= until);
}

int js_qindex_find(const struct js_qindex *q, int from, int fit, int small, double now,
                   double until)
{
	if (from < 0)
		from = 0;
	if (from >= q->n)
		return -1;
	if (fit == INT_MAX) /* INT_MAX marks an index with no queued job */
		fit = INT_MAX - 1;
	if (small > fit)
		small = fit;
	size_t leaves = (size_t)q->leaves, i = leaves + (size_t)from;
	for (;;) { /* i's range starts at or after from; ranges to its left are done */
		if (may_pass(q, i, fit, small, now, until)) {
			if (i >= leaves)
				return (int)(i - leaves);
			i *= 2; /* its left half first */
			continue;
		}
		while (i & 1) /* the next range to the right: up while i is a right half */
			i /= 2;
		if (i == 0)
			return -1;
		i++;
	}
}
