/* Seed 000's allocators for k-ary n-trees (section 3, Fig. 1).
 * contiguous: the job's level is the smallest l >= 1 with k^l >= size; the
 *   nodes come from the first block of k^l nodes (the subtree of one stage-l
 *   switch) that has enough free, lowest ids first; else the job waits.
 * quasi:qct=P: contiguous first; otherwise up to max_j = ceil(P/100 x size)
 *   tasks may come from one level up (eq. 1): in the first block of
 *   k^(l+1) nodes with enough free nodes whose fullest-free stage-l subtree
 *   leaves at most max_j tasks outside, take that subtree's free nodes, then
 *   the rest from the other subtrees of the block, most free first (ties:
 *   lower ids), so as many tasks as possible share one stage-l switch.
 * contiguous is quasi with qct = 0. */
#include <math.h>
#include <stdlib.h>

#include "alloc.h"
#include "tree_blocks.h"

struct quasi {
	double qct; /* percent */
	struct js_tree_blocks t;
	int *order; /* scratch: sub-block order */
};

static const struct cmn_param_def contiguous_params[] = {{NULL}};
static const struct cmn_param_def quasi_params[] = {
    {"qct", CMN_PT_DOUBLE, "20", 0, 100, NULL,
     "quasi-contiguity threshold: percent of the tasks that may come from one level up"},
    {NULL},
};

static struct quasi *quasi_new(int k, int n, double qct)
{
	struct quasi *q = calloc(1, sizeof *q);
	if (!q)
		return NULL;
	q->order = malloc((size_t)k * sizeof *q->order);
	if (!q->order || js_tree_blocks_init(&q->t, k, n)) {
		free(q->order);
		free(q);
		return NULL;
	}
	q->qct = qct;
	return q;
}

static int create_qct(const struct plat_machine *m, double qct, void **self, struct cmn_err *e)
{
	int k, n;
	int rc = plat_kary_ntree_shape(m, &k, &n, e);
	if (rc)
		return rc;
	if (!(*self = quasi_new(k, n, qct)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

static int contiguous_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                             struct cmn_err *e)
{
	(void)p;
	return create_qct(m, 0, self, e);
}

static int quasi_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                        struct cmn_err *e)
{
	return create_qct(m, cmn_params_num(p, "qct"), self, e);
}

static void quasi_destroy(void *self)
{
	struct quasi *q = self;
	js_tree_blocks_free(&q->t);
	free(q->order);
	free(q);
}

static void *quasi_clone(const void *self)
{
	const struct quasi *q = self;
	struct quasi *copy = quasi_new(q->t.k, q->t.n, q->qct);
	if (copy)
		js_tree_blocks_copy(&copy->t, &q->t);
	return copy;
}

static void quasi_copy(void *dst, const void *src)
{
	js_tree_blocks_copy(&((struct quasi *)dst)->t, &((const struct quasi *)src)->t);
}

static int quasi_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)flags;
	struct quasi *q = self;
	const struct js_tree_blocks *t = &q->t;
	int size = job->size;
	if (size <= 0 || size > js_tree_free(t, t->n, 0))
		return 0;
	int l = js_tree_level(t, size);
	for (int b = 0; b < t->nodes / t->size[l]; b++)
		if (js_tree_free(t, l, b) >= size)
			return js_tree_take(t, l, b, size, nodes);
	int max_j = (int)ceil(q->qct / 100.0 * size - 1e-9);
	if (max_j == 0 || l == t->n)
		return 0;
	for (int c = 0; c < t->nodes / t->size[l + 1]; c++) {
		if (js_tree_free(t, l + 1, c) < size)
			continue;
		/* sub-blocks of c by free count, most first, ties lower index */
		int *ord = q->order;
		for (int i = 0; i < t->k; i++) {
			int s = c * t->k + i, j = i;
			while (j > 0 && js_tree_free(t, l, ord[j - 1]) < js_tree_free(t, l, s)) {
				ord[j] = ord[j - 1];
				j--;
			}
			ord[j] = s;
		}
		if (size - js_tree_free(t, l, ord[0]) > max_j)
			continue;
		int got = 0;
		for (int i = 0; i < t->k && got < size; i++)
			got += js_tree_take(t, l, ord[i], size - got, nodes + got);
		return got;
	}
	return 0;
}

static void quasi_occupy(void *self, const int *nodes, int n)
{
	js_tree_blocks_set(&((struct quasi *)self)->t, nodes, n, 1);
}

static void quasi_release(void *self, const int *nodes, int n)
{
	js_tree_blocks_set(&((struct quasi *)self)->t, nodes, n, 0);
}

static int quasi_free_count(const void *self)
{
	const struct quasi *q = self;
	return js_tree_free(&q->t, q->t.n, 0);
}

/* The two entries share everything but name, parameters and create(). */
#define QUASI_OPS(sym, nm, help, params, samples, create_fn)                                       \
	const struct js_alloc_ops sym = {                                                          \
	    .base = {nm, help, params, samples},                                                   \
	    .create = create_fn,                                                                   \
	    .destroy = quasi_destroy,                                                              \
	    .clone = quasi_clone,                                                                  \
	    .copy = quasi_copy,                                                                    \
	    .place = quasi_place,                                                                  \
	    .occupy = quasi_occupy,                                                                \
	    .release = quasi_release,                                                              \
	    .free_count = quasi_free_count,                                                        \
	    .canonical = 1, /* busy flags and counts a block */                                    \
	}

static const char *const quasi_samples[] = {"quasi", "quasi:qct=0", "quasi:qct=50", NULL};

QUASI_OPS(js_alloc_contiguous_ops, "contiguous",
          "seed 000: all nodes under one switch of the job's level (k-ary n-tree)",
          contiguous_params, NULL, contiguous_create);
QUASI_OPS(js_alloc_quasi_ops, "quasi",
          "seed 000: contiguous, else up to ceil(qct% x size) tasks one level up", quasi_params,
          quasi_samples, quasi_create);
