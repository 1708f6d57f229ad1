/* Curve-based allocation (seed 002 section II, after Lo et al. and Leung
 * et al.): the nodes are ranked along a curve (curve.h) and a job takes
 * free ranks chosen by a 1D strategy over the intervals (maximal runs) of
 * free ranks:
 *   freelist  the first k free ranks;
 *   ff        First Fit: the first interval of length >= k, from its start;
 *   bf        Best Fit: the shortest interval of length >= k (ties: first);
 *   sos       Sum of Squares: the interval of length >= k after whose use the
 *             sum over lengths s of N(s)^2 (N(s): intervals of length s) is
 *             smallest (ties: first).
 * When no interval is long enough (ff, bf, sos), the k free ranks whose
 * ranks span least (ties: first) - the paper's rule. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "curve.h"

enum { SEL_FREELIST, SEL_FF, SEL_BF, SEL_SOS };

struct curve {
	int n, free, select;
	int *rank_node, *node_rank; /* shared, read-only, owned by the first */
	int owner;
	uint8_t *busy; /* by rank */
	int *scratch;  /* interval lengths histogram / free ranks */
};

static const struct cmn_param_def curve_params[] = {
    {"order", CMN_PT_CHOICE, "snake-col", 0, 0, "row|snake-row|snake-col|hilbert",
     "curve through the nodes, dimensions taken longest first"},
    {"select", CMN_PT_CHOICE, "bf", 0, 0, "freelist|ff|bf|sos",
     "free list, or First Fit, Best Fit, Sum of Squares over free intervals"},
    {NULL},
};

static void curve_destroy(void *self)
{
	struct curve *c = self;
	if (!c)
		return;
	if (c->owner) {
		free(c->rank_node);
		free(c->node_rank);
	}
	free(c->busy);
	free(c->scratch);
	free(c);
}

static struct curve *curve_new(int n, int select)
{
	struct curve *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->n = c->free = n;
	c->select = select;
	c->busy = calloc((size_t)n, 1);
	c->scratch = malloc(((size_t)n + 1) * sizeof *c->scratch);
	if (!c->busy || !c->scratch) {
		curve_destroy(c);
		return NULL;
	}
	return c;
}

static int curve_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                        struct cmn_err *e)
{
	static const char *const sel[] = {"freelist", "ff", "bf", "sos"};
	int select = 0;
	while (strcmp(sel[select], cmn_params_str(p, "select")) != 0)
		select++;
	struct curve *c = curve_new(m->nodes, select);
	if (!c)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	c->owner = 1;
	c->rank_node = malloc((size_t)m->nodes * sizeof *c->rank_node);
	c->node_rank = malloc((size_t)m->nodes * sizeof *c->node_rank);
	if (!c->rank_node || !c->node_rank) {
		curve_destroy(c);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	int rc = js_curve_build(m, js_curve_parse(cmn_params_str(p, "order")), c->rank_node, e);
	if (rc) {
		curve_destroy(c);
		return rc;
	}
	for (int r = 0; r < m->nodes; r++)
		c->node_rank[c->rank_node[r]] = r;
	*self = c;
	return 0;
}

static void *curve_clone(const void *self)
{
	const struct curve *c = self;
	struct curve *k = curve_new(c->n, c->select);
	if (!k)
		return NULL;
	k->rank_node = c->rank_node; /* clones never outlive the original */
	k->node_rank = c->node_rank;
	memcpy(k->busy, c->busy, (size_t)c->n);
	k->free = c->free;
	return k;
}

static void curve_copy(void *dst, const void *src)
{
	struct curve *d = dst;
	const struct curve *s = src;
	memcpy(d->busy, s->busy, (size_t)s->n);
	d->free = s->free;
}

/* Writes the nodes of k ranks from `start` on, skipping busy ones. */
static int take(const struct curve *c, int start, int k, int *nodes)
{
	int got = 0;
	for (int r = start; r < c->n && got < k; r++)
		if (!c->busy[r])
			nodes[got++] = c->rank_node[r];
	return got;
}

/* The k free ranks spanning least (no interval long enough). */
static int min_span(struct curve *c, int k, int *nodes)
{
	int *f = c->scratch, nf = 0;
	for (int r = 0; r < c->n; r++)
		if (!c->busy[r])
			f[nf++] = r;
	int best = 0;
	for (int i = 1; i + k - 1 < nf; i++)
		if (f[i + k - 1] - f[i] < f[best + k - 1] - f[best])
			best = i;
	for (int i = 0; i < k; i++)
		nodes[i] = c->rank_node[f[best + i]];
	return k;
}

static int curve_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)flags;
	struct curve *c = self;
	int k = job->size;
	if (k <= 0 || k > c->free)
		return 0;
	if (c->select == SEL_FREELIST)
		return take(c, 0, k, nodes);
	int *count = c->scratch; /* intervals per length, for sos */
	if (c->select == SEL_SOS) {
		memset(count, 0, ((size_t)c->n + 1) * sizeof *count);
		for (int r = 0; r < c->n;) {
			int s = r;
			while (r < c->n && !c->busy[r])
				r++;
			count[r - s] += r > s;
			r += r == s;
		}
	}
	int best = -1, best_len = 0;
	long best_delta = 0;
	for (int r = 0; r < c->n;) {
		int s = r;
		while (r < c->n && !c->busy[r])
			r++;
		int len = r - s;
		r += len == 0;
		if (len < k)
			continue;
		if (c->select == SEL_FF) {
			best = s;
			break;
		}
		if (c->select == SEL_BF) {
			if (best < 0 || len < best_len) {
				best = s;
				best_len = len;
			}
			continue;
		}
		/* sos: change of sum N(s)^2 when an interval of len becomes len - k */
		long delta = -2L * count[len] + 1;
		if (len > k)
			delta += 2L * count[len - k] + 1 - 2 * (len - k == len);
		if (best < 0 || delta < best_delta) {
			best = s;
			best_delta = delta;
		}
	}
	if (best < 0)
		return min_span(c, k, nodes);
	return take(c, best, k, nodes);
}

static int curve_fits(void *self, const struct js_job *job, int flags)
{
	(void)flags;
	const struct curve *c = self;
	return job->size > 0 && job->size <= c->free; /* any free ranks serve */
}

static void set_busy(struct curve *c, const int *nodes, int n, uint8_t busy)
{
	for (int i = 0; i < n; i++)
		c->busy[c->node_rank[nodes[i]]] = busy;
	c->free += busy ? -n : n;
}

static void curve_occupy(void *self, const int *nodes, int n)
{
	set_busy(self, nodes, n, 1);
}

static void curve_release(void *self, const int *nodes, int n)
{
	set_busy(self, nodes, n, 0);
}

static int curve_free_count(const void *self)
{
	return ((const struct curve *)self)->free;
}

static const char *const curve_samples[] = {"curve", "curve:order=row,select=freelist",
                                            "curve:order=snake-row,select=ff",
                                            "curve:order=hilbert,select=sos", NULL};

const struct js_alloc_ops js_alloc_curve_ops = {
    .base = {"curve", "seed 002: free ranks along a curve chosen by a 1D strategy (mesh, torus)",
             curve_params, curve_samples},
    .create = curve_create,
    .destroy = curve_destroy,
    .clone = curve_clone,
    .copy = curve_copy,
    .place = curve_place,
    .fits = curve_fits,
    .occupy = curve_occupy,
    .release = curve_release,
    .free_count = curve_free_count,
    .fungible = 1,
};
