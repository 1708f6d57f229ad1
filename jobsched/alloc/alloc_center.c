/* Centre-based allocators for 2D and 3D meshes (seed 002 sections I and V).
 * mc1x1   (Bender et al.) every free node is a candidate centre; around it,
 *         shells by L-infinity distance give up their free nodes, nearest
 *         shells first; the score is the sum of the shell numbers of the k
 *         nodes; the lowest score wins (ties: the lower centre id). In the
 *         last shell needed, the nodes nearest the centre in L1 are taken
 *         (ties: lower id) - our reading of the paper's "slightly more
 *         sophisticated" version.
 * genalg  (Krumke et al.) every free node is a candidate centre; it takes
 *         the k free nodes nearest in L1 (ties: lower id); the candidate
 *         with the smallest sum of pairwise L1 distances wins (ties: lower
 *         centre id).
 * mm      (Bender et al.) as genalg, with every node whose coordinates each
 *         appear among the free nodes (possibly different ones) as centre.
 * The candidates are not scored one by one: a best-first search over boxes
 * of centres (halved until single nodes) with a lower bound on the scores
 * in a box, from a summed-volume table of free nodes, finds the same
 * winner (js_center_search.c, on one thread or two; the bounds in
 * center_mc1x1.c and center_pairwise.c). This file: the state, the table
 * and the ops. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "center_internal.h"

static const struct cmn_param_def no_params[] = {{NULL}};
static const struct cmn_param_def pairwise_params[] = {
    {"threads", CMN_PT_CHOICE, "auto", 0, 0, "auto|1|2",
     "threads of the centre search, the same placements with any; auto: 2 for jobs of 2 "
     "nodes or more on meshes of 4,096 or more, else 1"},
    {NULL},
};

static void center_destroy(void *self)
{
	struct center *c = self;
	if (!c)
		return;
	free(c->busy);
	free(c->sat);
	free(c->heap);
	free(c->cnt);
	free(c->bucket);
	free(c->zpre);
	free(c->ypre);
	free(c->row_dirty);
	free(c->col_dirty);
	free(c->hist[0]);
	free(c->hist2[0]);
	free(c->spill[0]);
	free(c->spill[1]);
	free(c->coord_free);
	free(c->coord_next);
	js_center_diag_free(c);
	js_center_pool_free(c);
	free(c);
}

static struct center *center_new(int kind, const int *dims)
{
	struct center *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->kind = kind;
	memcpy(c->dims, dims, sizeof c->dims);
	for (c->d0 = 0; c->d0 < 2 && dims[c->d0] == 1; c->d0++)
		;
	c->n = c->free = dims[0] * dims[1] * dims[2];
	size_t sat = (size_t)(dims[0] + 1) * (size_t)(dims[1] + 1) * (size_t)(dims[2] + 1);
	size_t n = (size_t)c->n;
	/* counting-sort keys: (L-inf, L1 - L-inf) pairs for mc1x1, at most the
	 * largest dimension times the sum of the others; L1 for the others */
	size_t most = 0, sum = 0;
	for (int d = 0; d < 3; d++) {
		sum += (size_t)dims[d] - 1;
		most = (size_t)dims[d] - 1 > most ? (size_t)dims[d] - 1 : most;
	}
	c->nkeys = (most + 1) * (sum - most + 1) + sum + 2;
	c->nkeys = c->nkeys > n + 2 ? c->nkeys : n + 2;
	/* canonical(): 3 (2 rk + 1), rk at most the sum of the dimensions */
	c->nkeys = c->nkeys > 6 * sum + 30 ? c->nkeys : 6 * sum + 30;
	c->busy = calloc(n, 1);
	c->sat = calloc(sat, sizeof *c->sat); /* zero planes stay zero */
	c->heap = malloc(2 * n * sizeof *c->heap);
	c->cnt = malloc(c->nkeys * sizeof *c->cnt);
	c->bucket = malloc(n * sizeof *c->bucket);
	if (!c->busy || !c->sat || !c->heap || !c->cnt || !c->bucket) {
		center_destroy(c);
		return NULL;
	}
	if (kind == CENTER_MC1X1)
		return c;
	size_t X = (size_t)dims[0], Y = (size_t)dims[1], Z = (size_t)dims[2], all = X + Y + Z;
	c->zpre = calloc(X * Y * (Z + 1), sizeof *c->zpre);
	c->ypre = calloc(X * Z * (Y + 1), sizeof *c->ypre);
	c->row_dirty = malloc(X * Y);
	c->col_dirty = malloc(X * Z);
	c->hist[0] = calloc(all, sizeof *c->hist[0]);
	c->hist2[0] = calloc(all, sizeof *c->hist2[0]);
	c->spill[0] = calloc(Z, sizeof *c->spill[0]);
	c->spill[1] = calloc(Z, sizeof *c->spill[1]);
	c->coord_free = malloc(all * sizeof *c->coord_free);
	c->coord_next = malloc((all + 3) * sizeof *c->coord_next);
	if (!c->zpre || !c->ypre || !c->row_dirty || !c->col_dirty || !c->hist[0] || !c->hist2[0] ||
	    !c->spill[0] || !c->spill[1] || !c->coord_free || !c->coord_next) {
		center_destroy(c);
		return NULL;
	}
	c->hist[1] = c->hist[0] + X;
	c->hist[2] = c->hist[1] + Y;
	c->hist2[1] = c->hist2[0] + X;
	c->hist2[2] = c->hist2[1] + Y;
	memset(c->row_dirty, 1, X * Y);
	memset(c->col_dirty, 1, X * Z);
	for (int d = 0, at = 0; d < 3; at += dims[d++])
		for (int i = 0; i < dims[d]; i++)
			c->coord_free[at + i] = c->n / dims[d];
	if (js_center_diag_init(c)) {
		center_destroy(c);
		return NULL;
	}
	return c;
}

static int create_kind(const struct plat_machine *m, int kind, void **self, struct cmn_err *e)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	int rc = plat_grid_shape(m, &nd, dims, wrap, e);
	if (rc)
		return rc;
	if (nd > 3 || wrap[0])
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "centre-based allocators need a mesh of 1 to 3 dimensions, not %s", m->spec);
	int d3[3] = {1, 1, 1};
	for (int d = 0; d < nd; d++) /* C order: the last dimension is the fastest */
		d3[3 - nd + d] = dims[d];
	if (!(*self = center_new(kind, d3)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

static int mc1x1_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                        struct cmn_err *e)
{
	(void)p;
	return create_kind(m, CENTER_MC1X1, self, e);
}
static int pairwise_create(const struct plat_machine *m, const struct cmn_params *p, int kind,
                           void **self, struct cmn_err *e)
{
	int rc = create_kind(m, kind, self, e);
	if (!rc)
		((struct center *)*self)->threads =
		    atoi(cmn_params_str(p, "threads")); /* auto: 0 */
	return rc;
}
static int genalg_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                         struct cmn_err *e)
{
	return pairwise_create(m, p, CENTER_GENALG, self, e);
}
static int mm_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                     struct cmn_err *e)
{
	return pairwise_create(m, p, CENTER_MM, self, e);
}

static void center_copy(void *dst, const void *src)
{
	struct center *d = dst;
	const struct center *s = src;
	memcpy(d->busy, s->busy, (size_t)s->n);
	d->free = s->free;
	d->stale_from = 0;
	if (d->kind == CENTER_MC1X1)
		return;
	memset(d->row_dirty, 1, (size_t)d->dims[0] * (size_t)d->dims[1]);
	memset(d->col_dirty, 1, (size_t)d->dims[0] * (size_t)d->dims[2]);
	memcpy(d->coord_free, s->coord_free,
	       (size_t)(d->dims[0] + d->dims[1] + d->dims[2]) * sizeof *d->coord_free);
	for (int x = 0; x < d->dims[0]; x++)
		js_center_diag_mark(d, x, 0);
}

static void *center_clone(const void *self)
{
	const struct center *c = self;
	struct center *k = center_new(c->kind, c->dims);
	if (k) {
		k->threads = c->threads;
		center_copy(k, c);
	}
	return k;
}

void js_center_sat_update(struct center *c)
{
	if (c->stale_from >= c->n)
		return;
	/* entries beyond every changed node in scan order: the planes after the
	 * first changed one, and its next plane from the row after it on */
	int p[3];
	center_xyz(c, c->stale_from, p);
	c->stale_from = c->n;
	int X = c->dims[0], Y = c->dims[1], Z = c->dims[2];
	size_t sy = (size_t)Z + 1, sx = (size_t)(Y + 1) * sy;
	for (int x = p[0] + 1; x <= X; x++) {
		int *plane = c->sat + (size_t)x * sx;
		const int *prev = plane - sx; /* x - 1 (all zeros at x = 1) */
		for (int y = x == p[0] + 1 ? p[1] + 1 : 1; y <= Y; y++) {
			size_t r = (size_t)y * sy;
			int *row = plane + r;
			const int *up = row - sy, *prow = prev + r, *pup = prow - sy;
			const uint8_t *b =
			    c->busy + ((size_t)(x - 1) * (size_t)Y + (size_t)(y - 1)) * (size_t)Z;
			int run = 0; /* free nodes of this row so far */
			if (x == 1)
				for (int z = 1; z <= Z; z++) {
					run += !b[z - 1];
					row[z] = run + up[z];
				}
			else
				for (int z = 1; z <= Z; z++) {
					run += !b[z - 1];
					row[z] = run + up[z] + prow[z] - pup[z];
				}
		}
	}
}

static int center_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)flags;
	struct center *c = self;
	int k = job->size;
	if (k <= 0 || k > c->free)
		return 0;
	return c->kind == CENTER_MC1X1 ? js_center_place_mc1x1(c, k, nodes)
	                               : js_center_place_pairwise(c, k, nodes);
}

static int center_fits(void *self, const struct js_job *job, int flags)
{
	(void)flags;
	const struct center *c = self;
	return job->size > 0 && job->size <= c->free; /* any free nodes serve */
}

static void set_busy(struct center *c, const int *nodes, int n, uint8_t busy)
{
	for (int i = 0; i < n; i++)
		c->busy[nodes[i]] = busy;
	c->free += busy ? -n : n;
	for (int i = 0; i < n; i++)
		c->stale_from = nodes[i] < c->stale_from ? nodes[i] : c->stale_from;
	if (c->kind == CENTER_MC1X1)
		return;
	int X = c->dims[0], Y = c->dims[1], Z = c->dims[2], p[3];
	for (int i = 0; i < n; i++) {
		center_xyz(c, nodes[i], p);
		c->row_dirty[p[0] * Y + p[1]] = 1;
		js_center_diag_mark(c, p[0], p[1]);
		c->col_dirty[p[0] * Z + p[2]] = 1;
		int step = busy ? -1 : 1;
		c->coord_free[p[0]] += step;
		c->coord_free[X + p[1]] += step;
		c->coord_free[X + Y + p[2]] += step;
	}
}

static void center_occupy(void *self, const int *nodes, int n)
{
	set_busy(self, nodes, n, 1);
}

static void center_release(void *self, const int *nodes, int n)
{
	set_busy(self, nodes, n, 0);
}

static int center_free_count(const void *self)
{
	return ((const struct center *)self)->free;
}

#define CENTER_OPS(sym, nm, help, params, samples, create_fn)                                      \
	const struct js_alloc_ops sym = {                                                          \
	    .base = {nm, help, params, samples},                                                   \
	    .create = create_fn,                                                                   \
	    .destroy = center_destroy,                                                             \
	    .clone = center_clone,                                                                 \
	    .copy = center_copy,                                                                   \
	    .place = center_place,                                                                 \
	    .fits = center_fits,                                                                   \
	    .occupy = center_occupy,                                                               \
	    .release = center_release,                                                             \
	    .free_count = center_free_count,                                                       \
	    .fungible = 1,                                                                         \
	}

static const char *const genalg_samples[] = {"genalg", "genalg:threads=1", "genalg:threads=2",
                                             NULL};
static const char *const mm_samples[] = {"mm", "mm:threads=1", "mm:threads=2", NULL};

CENTER_OPS(js_alloc_mc1x1_ops, "mc1x1",
           "seed 002: shells by L-inf distance around the best free centre (mesh)", no_params, NULL,
           mc1x1_create);
CENTER_OPS(js_alloc_genalg_ops, "genalg",
           "Krumke et al.: L1 diamonds around free centres, least pairwise sum (mesh)",
           pairwise_params, genalg_samples, genalg_create);
CENTER_OPS(js_alloc_mm_ops, "mm",
           "Bender et al.: as genalg over every centre sharing coordinates with free nodes",
           pairwise_params, mm_samples, mm_create);
