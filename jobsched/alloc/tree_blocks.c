/* Free-node bookkeeping for k-ary n-trees (see tree_blocks.h). */
#include <stdlib.h>
#include <string.h>

#include "tree_blocks.h"

int js_tree_blocks_init(struct js_tree_blocks *t, int k, int n)
{
	memset(t, 0, sizeof *t);
	t->k = k;
	t->n = n;
	t->offset = malloc((size_t)(n + 1) * sizeof *t->offset);
	t->size = malloc((size_t)(n + 1) * sizeof *t->size);
	if (!t->offset || !t->size) {
		js_tree_blocks_free(t);
		return -1;
	}
	int s = 1;
	for (int l = 0; l <= n; l++) {
		t->size[l] = s;
		if (l < n)
			s *= k;
	}
	t->nodes = s;
	int total = 0;
	for (int l = 0; l <= n; l++) {
		t->offset[l] = total;
		total += t->nodes / t->size[l];
	}
	t->busy = calloc((size_t)t->nodes, 1);
	t->free = malloc((size_t)total * sizeof *t->free);
	if (!t->busy || !t->free) {
		js_tree_blocks_free(t);
		return -1;
	}
	for (int l = 0; l <= n; l++)
		for (int b = 0; b < t->nodes / t->size[l]; b++)
			t->free[t->offset[l] + b] = t->size[l];
	return 0;
}

void js_tree_blocks_free(struct js_tree_blocks *t)
{
	free(t->busy);
	free(t->free);
	free(t->offset);
	free(t->size);
	memset(t, 0, sizeof *t);
}

void js_tree_blocks_copy(struct js_tree_blocks *dst, const struct js_tree_blocks *src)
{
	memcpy(dst->busy, src->busy, (size_t)src->nodes);
	int total = src->offset[src->n] + 1;
	memcpy(dst->free, src->free, (size_t)total * sizeof *src->free);
}

void js_tree_blocks_set(struct js_tree_blocks *t, const int *nodes, int n, int busy)
{
	int delta = busy ? -1 : 1, total = t->offset[t->n] + 1;
	if ((long)n * (t->n + 1) * 8 > total) {
		/* many nodes (a scheduler's what-if state): the counts again from
		 * the bits, a sum a block, rather than a division a node and level */
		for (int i = 0; i < n; i++)
			t->busy[nodes[i]] = (uint8_t)busy;
		for (int i = 0; i < t->nodes; i++)
			t->free[i] = !t->busy[i];
		for (int l = 1; l <= t->n; l++) {
			const int *below = t->free + t->offset[l - 1];
			int *at = t->free + t->offset[l], blocks = t->nodes / t->size[l];
			for (int b = 0; b < blocks; b++) {
				int sum = 0;
				for (int c = 0; c < t->k; c++)
					sum += below[b * t->k + c];
				at[b] = sum;
			}
		}
		return;
	}
	for (int i = 0; i < n; i++) {
		t->busy[nodes[i]] = (uint8_t)busy;
		for (int l = 0; l <= t->n; l++)
			t->free[t->offset[l] + nodes[i] / t->size[l]] += delta;
	}
}

int js_tree_take(const struct js_tree_blocks *t, int level, int block, int want, int *out)
{
	int got = 0, first = block * t->size[level];
	for (int i = first; i < first + t->size[level] && got < want; i++)
		if (!t->busy[i])
			out[got++] = i;
	return got;
}

int js_tree_level(const struct js_tree_blocks *t, int size)
{
	int l = 1;
	while (l < t->n && t->size[l] < size)
		l++;
	return l;
}
