/* Centre-based allocators for 2D and 3D meshes (seed 002 sections I and V).
 * mc1x1   (Bender et al.) every free node is a candidate centre; around it,
 *         shells by L-infinity distance give up their free nodes, nearest
 *         shells first; the score is the sum of the shell numbers of the k
 *         nodes; the lowest score wins (ties: the lower centre id). The
 *         free nodes counted inside a cube of radius s come from a
 *         summed-volume table, so a centre costs O(shells). In the last
 *         shell needed, the nodes nearest the centre in L1 are taken (ties:
 *         lower id) - our reading of the paper's "slightly more
 *         sophisticated" version.
 * genalg  (Krumke et al.) every free node is a candidate centre; it takes
 *         the k free nodes nearest in L1 (ties: lower id); the candidate
 *         with the smallest sum of pairwise L1 distances wins (ties: lower
 *         centre id).
 * mm      (Bender et al.) as genalg, with every node whose coordinates each
 *         appear among the free nodes (possibly different ones) as centre. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

enum { MC1X1, GENALG, MM };

struct center {
	int kind, n, free;
	int dims[3];
	uint8_t *busy;
	int *sat;     /* summed-volume table of free nodes, (X+1)(Y+1)(Z+1) */
	int *bucket;  /* scratch: nodes by distance */
	int *cnt;     /* scratch: counts by distance / coordinate histograms */
	int *cand;    /* scratch: a candidate's nodes */
	uint8_t *has; /* mm: coordinates present among free nodes, x | y | z */
};

static const struct cmn_param_def no_params[] = {{NULL}};

static void center_destroy(void *self)
{
	struct center *c = self;
	if (!c)
		return;
	free(c->busy);
	free(c->sat);
	free(c->bucket);
	free(c->cnt);
	free(c->cand);
	free(c->has);
	free(c);
}

static struct center *center_new(int kind, const int *dims)
{
	struct center *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->kind = kind;
	memcpy(c->dims, dims, sizeof c->dims);
	c->n = c->free = dims[0] * dims[1] * dims[2];
	size_t sat = (size_t)(dims[0] + 1) * (dims[1] + 1) * (dims[2] + 1);
	/* counting keys of nearest(): (L-inf, L1) pairs, each in 0 .. span */
	size_t span = (size_t)(dims[0] + dims[1] + dims[2] + 1);
	size_t keys = span * span + 2;
	size_t n = (size_t)c->n;
	c->busy = calloc(n, 1);
	c->sat = malloc(sat * sizeof *c->sat);
	c->bucket = malloc(n * sizeof *c->bucket);
	c->cnt = malloc((keys > n ? keys : n) * sizeof *c->cnt);
	c->cand = malloc(n * sizeof *c->cand);
	c->has = malloc((size_t)(dims[0] + dims[1] + dims[2]));
	if (!c->busy || !c->sat || !c->bucket || !c->cnt || !c->cand || !c->has) {
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
	return create_kind(m, MC1X1, self, e);
}
static int genalg_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                         struct cmn_err *e)
{
	(void)p;
	return create_kind(m, GENALG, self, e);
}
static int mm_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                     struct cmn_err *e)
{
	(void)p;
	return create_kind(m, MM, self, e);
}

static void *center_clone(const void *self)
{
	const struct center *c = self;
	struct center *k = center_new(c->kind, c->dims);
	if (k) {
		memcpy(k->busy, c->busy, (size_t)c->n);
		k->free = c->free;
	}
	return k;
}

static void center_copy(void *dst, const void *src)
{
	struct center *d = dst;
	const struct center *s = src;
	memcpy(d->busy, s->busy, (size_t)s->n);
	d->free = s->free;
}

/* Node id <-> coordinates (x slowest, z fastest, as the machine's C order). */
static void xyz(const struct center *c, int node, int *p)
{
	p[2] = node % c->dims[2];
	p[1] = (node / c->dims[2]) % c->dims[1];
	p[0] = node / (c->dims[2] * c->dims[1]);
}

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

static int l1(const int *a, const int *b)
{
	return iabs(a[0] - b[0]) + iabs(a[1] - b[1]) + iabs(a[2] - b[2]);
}

static int linf(const int *a, const int *b)
{
	int d = iabs(a[0] - b[0]), e = iabs(a[1] - b[1]), f = iabs(a[2] - b[2]);
	d = d > e ? d : e;
	return d > f ? d : f;
}

#define SAT(c, x, y, z)                                                                            \
	(c)->sat[(((size_t)(x) * ((c)->dims[1] + 1)) + (y)) * ((c)->dims[2] + 1) + (z)]

static void build_sat(struct center *c)
{
	int X = c->dims[0], Y = c->dims[1], Z = c->dims[2];
	for (int x = 0; x <= X; x++)
		for (int y = 0; y <= Y; y++)
			for (int z = 0; z <= Z; z++) {
				if (!x || !y || !z) {
					SAT(c, x, y, z) = 0;
					continue;
				}
				int f = !c->busy[((x - 1) * Y + (y - 1)) * Z + (z - 1)];
				SAT(c, x, y, z) = f + SAT(c, x - 1, y, z) + SAT(c, x, y - 1, z) +
				                  SAT(c, x, y, z - 1) - SAT(c, x - 1, y - 1, z) -
				                  SAT(c, x - 1, y, z - 1) -
				                  SAT(c, x, y - 1, z - 1) +
				                  SAT(c, x - 1, y - 1, z - 1);
			}
}

/* Free nodes in the cube of radius s around p, clipped to the mesh. */
static int free_within(const struct center *c, const int *p, int s)
{
	int lo[3], hi[3];
	for (int d = 0; d < 3; d++) {
		lo[d] = p[d] - s < 0 ? 0 : p[d] - s;
		hi[d] = p[d] + s + 1 > c->dims[d] ? c->dims[d] : p[d] + s + 1;
	}
	return SAT(c, hi[0], hi[1], hi[2]) - SAT(c, lo[0], hi[1], hi[2]) -
	       SAT(c, hi[0], lo[1], hi[2]) - SAT(c, hi[0], hi[1], lo[2]) +
	       SAT(c, lo[0], lo[1], hi[2]) + SAT(c, lo[0], hi[1], lo[2]) +
	       SAT(c, hi[0], lo[1], lo[2]) - SAT(c, lo[0], lo[1], lo[2]);
}

/* The k free nodes nearest centre p by (dist, L1, id), dist = L-inf (mc1x1)
 * or L1; written to out. Counting sort by a key of bounded range. */
static void nearest(struct center *c, const int *p, int k, int use_linf, int *out)
{
	int span = c->dims[0] + c->dims[1] + c->dims[2];
	int keys = use_linf ? (span + 1) * (span + 1) : span + 1;
	int *cnt = c->cnt;
	memset(cnt, 0, ((size_t)keys + 1) * sizeof *cnt);
	int q[3];
	for (int v = 0; v < c->n; v++)
		if (!c->busy[v]) {
			xyz(c, v, q);
			int key = use_linf ? linf(p, q) * (span + 1) + l1(p, q) : l1(p, q);
			cnt[key + 1]++;
		}
	for (int i = 0; i < keys; i++)
		cnt[i + 1] += cnt[i];
	for (int v = 0; v < c->n; v++) /* stable: ids ascending within a key */
		if (!c->busy[v]) {
			xyz(c, v, q);
			int key = use_linf ? linf(p, q) * (span + 1) + l1(p, q) : l1(p, q);
			c->bucket[cnt[key]++] = v;
		}
	memcpy(out, c->bucket, (size_t)k * sizeof *out);
}

/* Sum of pairwise L1 distances of k nodes: per coordinate histograms. */
static long pairwise(struct center *c, const int *nodes, int k)
{
	long sum = 0;
	int q[3];
	for (int d = 0; d < 3; d++) {
		int *h = c->cnt;
		memset(h, 0, (size_t)c->dims[d] * sizeof *h);
		for (int i = 0; i < k; i++) {
			xyz(c, nodes[i], q);
			h[q[d]]++;
		}
		long below = 0, seen = 0; /* sum over sorted values of v (2i - k + 1) */
		for (int v = 0; v < c->dims[d]; v++)
			for (int t = 0; t < h[v]; t++, seen++)
				below += (long)v * (2 * seen - k + 1);
		sum += below;
	}
	return sum;
}

static int place_mc1x1(struct center *c, int k, int *nodes)
{
	build_sat(c);
	long best = -1;
	int best_v = -1, p[3];
	int maxs = c->dims[0] > c->dims[1] ? c->dims[0] : c->dims[1];
	maxs = maxs > c->dims[2] ? maxs : c->dims[2];
	for (int v = 0; v < c->n; v++) {
		if (c->busy[v])
			continue;
		xyz(c, v, p);
		/* score = S k - sum_{s < S} F(s), S the first radius with F(S) >= k */
		long sum = 0;
		int s = 0, f;
		while ((f = free_within(c, p, s)) < k && s <= maxs) {
			sum += f;
			s++;
		}
		long score = (long)s * k - sum;
		if (best < 0 || score < best) {
			best = score;
			best_v = v;
		}
	}
	xyz(c, best_v, p);
	nearest(c, p, k, 1, nodes);
	return k;
}

/* genalg and mm: candidates judged by the pairwise sum of their k nearest. */
static int is_candidate(const struct center *c, int v, const int *p)
{
	if (c->kind == GENALG)
		return !c->busy[v];
	int X = c->dims[0], Y = c->dims[1];
	return c->has[p[0]] && c->has[X + p[1]] && c->has[X + Y + p[2]];
}

static int place_pairwise(struct center *c, int k, int *nodes)
{
	int X = c->dims[0], Y = c->dims[1], Z = c->dims[2], p[3];
	if (c->kind == MM) {
		memset(c->has, 0, (size_t)(X + Y + Z));
		for (int v = 0; v < c->n; v++)
			if (!c->busy[v]) {
				xyz(c, v, p);
				c->has[p[0]] = c->has[X + p[1]] = c->has[X + Y + p[2]] = 1;
			}
	}
	long best = -1;
	int best_v = -1;
	for (int v = 0; v < c->n; v++) {
		xyz(c, v, p);
		if (!is_candidate(c, v, p))
			continue;
		nearest(c, p, k, 0, c->cand);
		long score = pairwise(c, c->cand, k);
		if (best < 0 || score < best) {
			best = score;
			best_v = v;
		}
	}
	xyz(c, best_v, p);
	nearest(c, p, k, 0, nodes);
	return k;
}

static int center_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)flags;
	struct center *c = self;
	int k = job->size;
	if (k <= 0 || k > c->free)
		return 0;
	return c->kind == MC1X1 ? place_mc1x1(c, k, nodes) : place_pairwise(c, k, nodes);
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

#define CENTER_OPS(sym, nm, help, create_fn)                                                       \
	const struct js_alloc_ops sym = {                                                          \
	    .base = {nm, help, no_params},                                                         \
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

CENTER_OPS(js_alloc_mc1x1_ops, "mc1x1",
           "seed 002: shells by L-inf distance around the best free centre (mesh)", mc1x1_create);
CENTER_OPS(js_alloc_genalg_ops, "genalg",
           "Krumke et al.: L1 diamonds around free centres, least pairwise sum (mesh)",
           genalg_create);
CENTER_OPS(js_alloc_mm_ops, "mm",
           "Bender et al.: as genalg over every centre sharing coordinates with free nodes",
           mm_create);
