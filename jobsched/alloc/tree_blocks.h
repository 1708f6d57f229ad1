/* Free-node bookkeeping for k-ary n-trees: which nodes are busy and how
 * many are free under every switch (the block of k^l consecutive node ids
 * under a stage-l switch), kept up to date as nodes are taken and given back.
 * Shared by the tree allocators. */
#ifndef JS_TREE_BLOCKS_H
#define JS_TREE_BLOCKS_H

#include <stdint.h>

struct js_tree_blocks {
	int k, n, nodes;
	uint8_t *busy; /* per node */
	int *free;     /* free counts, level by level: level l has nodes / k^l blocks */
	int *offset;   /* start of level l in free[], l = 0 .. n */
	int *size;     /* k^l */
};

int js_tree_blocks_init(struct js_tree_blocks *t, int k, int n);
void js_tree_blocks_free(struct js_tree_blocks *t);
/* dst, initialised for the same tree, takes src's state. */
void js_tree_blocks_copy(struct js_tree_blocks *dst, const struct js_tree_blocks *src);
void js_tree_blocks_set(struct js_tree_blocks *t, const int *nodes, int n, int busy);

static inline int js_tree_free(const struct js_tree_blocks *t, int level, int block)
{
	return t->free[t->offset[level] + block];
}

/* Appends up to want free nodes of block (level, block), lowest ids first,
 * to out; returns how many. */
int js_tree_take(const struct js_tree_blocks *t, int level, int block, int want, int *out);

/* Smallest level l >= 1 whose blocks hold size nodes (k^l >= size). */
int js_tree_level(const struct js_tree_blocks *t, int size);

#endif
