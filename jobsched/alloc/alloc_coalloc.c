/* Co-allocation over multi-cluster machines (seed 001 section 4): a job of
 * size s > thres is split into k components, one of s - (k-1) floor(s/k)
 * nodes and k-1 of floor(s/k) (k is taken as s when s < k); smaller jobs
 * are one component. Worst Fit maps the i-th widest component to the i-th
 * freest cluster (ties: lower cluster index); within a cluster the lowest
 * free ids. A job waits when a component exceeds its cluster's free nodes. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

struct coalloc {
	int thres, k, clusters, n, free, words;
	int *first, *size, *cfree; /* per cluster */
	uint64_t *busy;            /* bit v set: node v busy */
	int *cluster_of;
};

static const struct cmn_param_def coalloc_params[] = {
    {"thres", CMN_PT_INT, "10", 0, PLAT_MAX_NODES, NULL, "jobs larger than this are co-allocated"},
    {"k", CMN_PT_INT, "4", 1, 4096, NULL, "components of a co-allocated job"},
    {NULL},
};

static void co_destroy(void *self)
{
	struct coalloc *c = self;
	if (!c)
		return;
	free(c->first);
	free(c->size);
	free(c->cfree);
	free(c->busy);
	free(c->cluster_of);
	free(c);
}

static struct coalloc *co_new(int clusters, int n)
{
	struct coalloc *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->clusters = clusters;
	c->n = c->free = n;
	c->first = malloc((size_t)clusters * sizeof *c->first);
	c->size = malloc((size_t)clusters * sizeof *c->size);
	c->cfree = malloc((size_t)clusters * sizeof *c->cfree);
	c->words = (n + 63) / 64;
	c->busy = calloc((size_t)c->words, sizeof *c->busy);
	c->cluster_of = malloc((size_t)n * sizeof *c->cluster_of);
	if (!c->first || !c->size || !c->cfree || !c->busy || !c->cluster_of) {
		co_destroy(c);
		return NULL;
	}
	return c;
}

static int co_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                     struct cmn_err *e)
{
	int clusters;
	int rc = plat_multicluster_shape(m, &clusters, NULL, NULL, e);
	if (rc)
		return rc;
	struct coalloc *c = co_new(clusters, m->nodes);
	if (!c)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	plat_multicluster_shape(m, &clusters, c->first, c->size, e);
	c->thres = (int)cmn_params_num(p, "thres");
	c->k = (int)cmn_params_num(p, "k");
	if (c->k > clusters) {
		co_destroy(c);
		return cmn_err_set(e, CMN_EUSAGE, "k = %d components but %d clusters",
		                   (int)cmn_params_num(p, "k"), clusters);
	}
	for (int i = 0; i < clusters; i++) {
		c->cfree[i] = c->size[i];
		for (int v = c->first[i]; v < c->first[i] + c->size[i]; v++)
			c->cluster_of[v] = i;
	}
	*self = c;
	return 0;
}

static void *co_clone(const void *self)
{
	const struct coalloc *c = self;
	struct coalloc *d = co_new(c->clusters, c->n);
	if (!d)
		return NULL;
	d->thres = c->thres;
	d->k = c->k;
	memcpy(d->first, c->first, (size_t)c->clusters * sizeof *c->first);
	memcpy(d->size, c->size, (size_t)c->clusters * sizeof *c->size);
	memcpy(d->cfree, c->cfree, (size_t)c->clusters * sizeof *c->cfree);
	memcpy(d->busy, c->busy, (size_t)c->words * sizeof *c->busy);
	memcpy(d->cluster_of, c->cluster_of, (size_t)c->n * sizeof *c->cluster_of);
	d->free = c->free;
	return d;
}

static void co_copy(void *dst, const void *src)
{
	struct coalloc *d = dst;
	const struct coalloc *s = src;
	memcpy(d->cfree, s->cfree, (size_t)s->clusters * sizeof *s->cfree);
	memcpy(d->busy, s->busy, (size_t)s->words * sizeof *s->busy);
	d->free = s->free;
}

/* The components (widest first) of a job of size s; returns their count. */
static int components(const struct coalloc *c, int s, int *comp)
{
	if (s <= c->thres)
		return comp[0] = s, 1;
	int k = c->k < s ? c->k : s, part = s / k;
	comp[0] = s - (k - 1) * part;
	for (int i = 1; i < k; i++)
		comp[i] = part;
	return k;
}

/* Clusters by free nodes, most first (ties: lower index), into order. */
static void freest(const struct coalloc *c, int *order)
{
	for (int i = 0; i < c->clusters; i++) {
		int j = i;
		while (j > 0 && c->cfree[order[j - 1]] < c->cfree[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
}

/* Whether Worst Fit can map the job; order and comp filled. */
static int mapping(const struct coalloc *c, int s, int *comp, int *ncomp, int *order)
{
	if (s <= 0 || s > c->free)
		return 0;
	*ncomp = components(c, s, comp);
	freest(c, order);
	for (int i = 0; i < *ncomp; i++)
		if (comp[i] > c->cfree[order[i]])
			return 0;
	return 1;
}

static int co_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)flags;
	struct coalloc *c = self;
	int comp[4096], order[4096], ncomp, got = 0;
	if (c->clusters > 4096 || !mapping(c, job->size, comp, &ncomp, order))
		return 0;
	for (int i = 0; i < ncomp; i++) { /* the cluster's lowest free ids, a word at a time */
		int cl = order[i], need = comp[i], lo = c->first[cl], hi = lo + c->size[cl];
		for (int w = lo / 64; w <= (hi - 1) / 64 && need; w++) {
			uint64_t bits = ~c->busy[w];
			if (w == lo / 64)
				bits &= ~UINT64_C(0) << (lo % 64);
			if (w == (hi - 1) / 64 && hi % 64)
				bits &= (UINT64_C(1) << (hi % 64)) - 1;
			for (; bits && need; bits &= bits - 1, need--)
				nodes[got++] = w * 64 + __builtin_ctzll(bits);
		}
	}
	return got;
}

static int co_fits(void *self, const struct js_job *job, int flags)
{
	(void)flags;
	struct coalloc *c = self;
	int comp[4096], order[4096], ncomp;
	return c->clusters <= 4096 && mapping(c, job->size, comp, &ncomp, order);
}

/* Marks nodes busy (v = 1) or free, one word write per run of nodes in the
 * same word and cluster (placements come in increasing order within each
 * component). */
static void set_busy(struct coalloc *c, const int *nodes, int n, int v)
{
	for (int i = 0; i < n;) {
		int w = nodes[i] / 64, cl = c->cluster_of[nodes[i]], k = i;
		int end = c->first[cl] + c->size[cl]; /* the cluster's ids end before it */
		uint64_t mask = 0;
		for (; k < n && nodes[k] / 64 == w && (k == i || nodes[k] > nodes[k - 1]) &&
		       nodes[k] < end;
		     k++)
			mask |= UINT64_C(1) << (nodes[k] % 64);
		assert(__builtin_popcountll(mask) == k - i);
		assert(v ? !(c->busy[w] & mask) : (c->busy[w] & mask) == mask);
		c->busy[w] = v ? c->busy[w] | mask : c->busy[w] & ~mask;
		c->cfree[cl] += v ? -(k - i) : k - i;
		i = k;
	}
	c->free += v ? -n : n;
}

static void co_occupy(void *self, const int *nodes, int n)
{
	set_busy(self, nodes, n, 1);
}

static void co_release(void *self, const int *nodes, int n)
{
	set_busy(self, nodes, n, 0);
}

static int co_free_count(const void *self)
{
	return ((const struct coalloc *)self)->free;
}

static const char *const coalloc_samples[] = {"coalloc", "coalloc:thres=3", "coalloc:thres=3,k=2",
                                              NULL};

const struct js_alloc_ops js_alloc_coalloc_ops = {
    .base = {"coalloc",
             "seed 001: jobs above thres split in k components, Worst Fit (multicluster)",
             coalloc_params, coalloc_samples},
    .create = co_create,
    .destroy = co_destroy,
    .clone = co_clone,
    .copy = co_copy,
    .place = co_place,
    .fits = co_fits,
    .occupy = co_occupy,
    .release = co_release,
    .free_count = co_free_count,
};
