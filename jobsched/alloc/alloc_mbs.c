/* Multiple Buddy Strategy allocators for meshes (seed 002 section III, after
 * Lo et al.), over a hierarchy of blocks built per variant:
 *   2d        squares with power-of-two sides covering the mesh, largest
 *             first (a 5x4 mesh: one 4x4 and four 1x1, Fig. 10), each split
 *             into 4 quadrants; block sizes are powers of 4;
 *   layered   the 2d structure over dimensions 0 and 1, on every layer
 *             along dimension 2;
 *   octet     cubes split into 8 octants; sizes are powers of 8;
 *   granular  built bottom up (Fig. 11): from single nodes, phases along
 *             dimension 0, 1, 2 in turn pair each block with the same-shaped
 *             block next to it (a block whose position along the phase's
 *             dimension, counted in its own extents, is even takes the next
 *             one), until a whole round pairs nothing; sizes are powers of 2.
 * A request for k nodes is written in base B (4, 8 or 2); for each block
 * size from the largest: a free block of that size (lowest origin first),
 * else the smallest larger free block split down to it, else the request
 * for one block becomes B requests of the next size down. Freed blocks
 * merge with their buddies whenever all are free. Dimensions are the
 * machine's as listed (2D meshes have a dimension 2 of 1). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

enum { V_2D, V_LAYERED, V_OCTET, V_GRANULAR };
enum { B_NONE, B_FREE, B_ALLOC, B_SPLIT }; /* block states */

struct block {
	int o[3], e[3];        /* origin and extents */
	int level;             /* size B^level (granular: 2^level) */
	int parent, kid, nkid; /* children: kids[kid .. kid + nkid) */
};

struct hier { /* built once, shared read-only by clones */
	int B, dims[3], n, maxlevel;
	const struct plat_machine *m;
	struct block *b;
	int nb, cap;
	int *kids, nkids, capk;
	int *leaf;   /* per node: its level-0 block */
	int *pos;    /* per block: bit index in the free bitmap (levels apart,
	              * blocks of a level in origin order) */
	int *wstart; /* first bitmap word of each level; wstart[maxlevel+1] = total */
	int *by_bit; /* block id of each bit position (words x 64 entries) */
};

struct mbs {
	struct hier *h;
	int owner, free;
	uint8_t *state, *work; /* block states; work copy for place() */
	uint64_t *fb, *wfb;    /* free blocks by level (bitmaps), and place()'s copy */
	int *cnt;              /* per block: marked nodes under it */
	int *roots;            /* scratch: top-level blocks touched */
	int *need;
};

static const struct cmn_param_def mbs_params[] = {
    {"variant", CMN_PT_CHOICE, "granular", 0, 0, "2d|layered|octet|granular",
     "block hierarchy: 2D squares, per-layer squares, cubes, or Granular's phases"},
    {NULL},
};

/* --- the hierarchy --- */

static int add_block(struct hier *h, const int *o, const int *e, int level)
{
	if (h->nb == h->cap) {
		int cap = h->cap ? 2 * h->cap : 256;
		struct block *nb = realloc(h->b, (size_t)cap * sizeof *nb);
		if (!nb)
			return -1;
		h->b = nb;
		h->cap = cap;
	}
	struct block *b = &h->b[h->nb];
	memcpy(b->o, o, sizeof b->o);
	memcpy(b->e, e, sizeof b->e);
	b->level = level;
	b->parent = b->kid = -1;
	b->nkid = 0;
	if (level > h->maxlevel)
		h->maxlevel = level;
	return h->nb++;
}

static int add_kid(struct hier *h, int parent, int kid)
{
	if (h->nkids == h->capk) {
		int cap = h->capk ? 2 * h->capk : 256;
		int *k = realloc(h->kids, (size_t)cap * sizeof *k);
		if (!k)
			return -1;
		h->kids = k;
		h->capk = cap;
	}
	if (h->b[parent].nkid == 0)
		h->b[parent].kid = h->nkids;
	h->kids[h->nkids++] = kid;
	h->b[parent].nkid++;
	h->b[kid].parent = parent;
	return 0;
}

/* Splits block i into halves along the axes marked in `axes`, down to 1. */
static int split_down(struct hier *h, int i, const int *axes)
{
	if (h->b[i].level == 0)
		return 0;
	struct block b = h->b[i];
	int half[3], parts = 1, first;
	for (int d = 0; d < 3; d++) {
		half[d] = axes[d] ? b.e[d] / 2 : b.e[d];
		parts *= axes[d] ? 2 : 1;
	}
	first = h->nb;
	for (int p = 0; p < parts; p++) {
		int o[3], bit = 0;
		for (int d = 0; d < 3; d++)
			o[d] = b.o[d] + (axes[d] ? ((p >> bit++) & 1) * half[d] : 0);
		if (add_block(h, o, half, b.level - 1) < 0)
			return -1;
	}
	/* kids after all of this block's children exist (ids are stable) */
	for (int p = 0; p < parts; p++)
		if (add_kid(h, i, first + p))
			return -1;
	for (int p = 0; p < parts; p++)
		if (split_down(h, first + p, axes))
			return -1;
	return 0;
}

/* Covers the box [lo, hi) with squares (cubes) of power-of-two sides over
 * the axes marked, largest first, then the leftover strips the same way. */
static int cover(struct hier *h, const int *lo, const int *hi, const int *axes)
{
	int side = 1 << 30;
	for (int d = 0; d < 3; d++) {
		if (hi[d] <= lo[d])
			return 0;
		if (axes[d] && hi[d] - lo[d] < side)
			side = hi[d] - lo[d];
	}
	int s = 1, level = 0;
	while (2 * s <= side) {
		s *= 2;
		level++;
	}
	int cnt[3], e[3];
	for (int d = 0; d < 3; d++) {
		cnt[d] = axes[d] ? (hi[d] - lo[d]) / s : hi[d] - lo[d];
		e[d] = axes[d] ? s : 1;
	}
	for (int a = 0; a < cnt[0]; a++)
		for (int b = 0; b < cnt[1]; b++)
			for (int c = 0; c < cnt[2]; c++) {
				int o[3] = {lo[0] + a * e[0], lo[1] + b * e[1], lo[2] + c * e[2]};
				int id = add_block(h, o, e, level);
				if (id < 0 || split_down(h, id, axes))
					return -1;
			}
	int rlo[3], rhi[3];
	memcpy(rhi, hi, sizeof rhi);
	for (int d = 0; d < 3; d++) { /* the strips beyond the tiled part */
		if (!axes[d])
			continue;
		int cut = lo[d] + cnt[d] * s;
		memcpy(rlo, lo, sizeof rlo);
		rlo[d] = cut;
		if (cover(h, rlo, rhi, axes))
			return -1;
		rhi[d] = cut;
	}
	return 0;
}

static int same_row(const struct block *a, const struct block *b, int d)
{
	for (int x = 0; x < 3; x++)
		if (x != d && a->o[x] != b->o[x])
			return 0;
	return memcmp(a->e, b->e, sizeof a->e) == 0 && b->o[d] == a->o[d] + a->e[d];
}

static int granular(struct hier *h)
{
	int *roots = malloc((size_t)h->n * sizeof *roots), nr = 0, rc = 0;
	int *at = malloc((size_t)h->n * sizeof *at); /* root covering each node origin */
	if (!roots || !at) {
		free(roots);
		free(at);
		return -1;
	}
	int one[3] = {1, 1, 1};
	for (int x = 0; x < h->dims[0] && !rc; x++)
		for (int y = 0; y < h->dims[1] && !rc; y++)
			for (int z = 0; z < h->dims[2] && !rc; z++) {
				int o[3] = {x, y, z};
				rc = (roots[nr++] = add_block(h, o, one, 0)) < 0;
			}
	for (int merged = 1; merged && !rc;) {
		merged = 0;
		for (int d = 0; d < 3 && !rc; d++) {
			/* index roots by origin to find partners in O(1) */
			for (int i = 0; i < h->n; i++)
				at[i] = -1;
			for (int i = 0; i < nr; i++) {
				const struct block *b = &h->b[roots[i]];
				at[(b->o[0] * h->dims[1] + b->o[1]) * h->dims[2] + b->o[2]] =
				    roots[i];
			}
			int nn = 0;
			for (int i = 0; i < nr && !rc; i++) {
				int a = roots[i];
				const struct block *ba = &h->b[a];
				if (at[(ba->o[0] * h->dims[1] + ba->o[1]) * h->dims[2] +
				       ba->o[2]] != a)
					continue; /* a partner taken by an earlier root */
				int po[3] = {ba->o[0], ba->o[1], ba->o[2]}, partner = -1;
				po[d] += ba->e[d];
				if ((ba->o[d] / ba->e[d]) % 2 == 0 && po[d] < h->dims[d]) {
					int p =
					    at[(po[0] * h->dims[1] + po[1]) * h->dims[2] + po[2]];
					if (p >= 0 && same_row(ba, &h->b[p], d))
						partner = p;
				}
				if (partner < 0) {
					roots[nn++] = a;
					continue;
				}
				int e[3] = {ba->e[0], ba->e[1], ba->e[2]},
				    o[3] = {ba->o[0], ba->o[1], ba->o[2]};
				e[d] *= 2;
				int id = add_block(h, o, e, h->b[a].level + 1);
				rc = id < 0 || add_kid(h, id, a) || add_kid(h, id, partner);
				/* the partner is no root now: it comes later in roots (they
				 * stay in origin order, and it lies after a), which skips it
				 * by its origin (marking it there instead of searching the
				 * rest of roots, which made the build quadratic: 95 s for a
				 * 100x100x100 mesh) */
				at[(po[0] * h->dims[1] + po[1]) * h->dims[2] + po[2]] = -1;
				roots[nn++] = id;
				merged = 1;
			}
			nr = nn;
		}
	}
	free(roots);
	free(at);
	return rc ? -1 : 0;
}

static void hier_free(struct hier *h)
{
	if (!h)
		return;
	free(h->b);
	free(h->kids);
	free(h->leaf);
	free(h->pos);
	free(h->wstart);
	free(h->by_bit);
	free(h);
}

struct by_origin {
	int node, id;
};

static int cmp_origin(const void *a, const void *b)
{
	const struct by_origin *x = a, *y = b;
	return (x->node > y->node) - (x->node < y->node);
}

/* Orders each level's blocks by origin and gives every block its bit (a
 * sort per level: the insertion sort it replaced took minutes on a 512x512
 * mesh, results/bench/README.md). */
static int index_levels(struct hier *h)
{
	struct by_origin *ids = malloc((size_t)(h->nb ? h->nb : 1) * sizeof *ids);
	int words = 0;
	if (!ids)
		return -1;
	for (int l = 0, k; l <= h->maxlevel; l++) {
		k = 0;
		for (int i = 0; i < h->nb; i++)
			if (h->b[i].level == l)
				ids[k++] = (struct by_origin){plat_grid_node(h->m, h->b[i].o), i};
		/* blocks of one level have distinct origins: the order is total */
		qsort(ids, (size_t)k, sizeof *ids, cmp_origin);
		h->wstart[l] = words;
		for (int a = 0; a < k; a++)
			h->pos[ids[a].id] = words * 64 + a;
		words += (k + 63) / 64;
	}
	h->wstart[h->maxlevel + 1] = words;
	h->by_bit = malloc((size_t)words * 64 * sizeof *h->by_bit);
	free(ids);
	if (!h->by_bit)
		return -1;
	for (int i = 0; i < h->nb; i++)
		h->by_bit[h->pos[i]] = i;
	return 0;
}

static struct hier *hier_build(const struct plat_machine *m, int variant, struct cmn_err *e)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	if (plat_grid_shape(m, &nd, dims, wrap, e))
		return NULL;
	if (nd > 3 || wrap[0] || (variant == V_2D && nd > 2)) {
		cmn_err_set(e, CMN_EUSAGE, "variant=%s needs a %s mesh, not %s",
		            variant == V_2D ? "2d" : "layered|octet|granular",
		            variant == V_2D ? "1D or 2D" : "1D to 3D", m->spec);
		return NULL;
	}
	struct hier *h = calloc(1, sizeof *h);
	if (!h) {
		cmn_err_set(e, CMN_ENOMEM, "out of memory");
		return NULL;
	}
	h->m = m;
	h->dims[0] = h->dims[1] = h->dims[2] = 1;
	for (int d = 0; d < nd; d++)
		h->dims[d] = dims[d];
	h->n = m->nodes;
	int lo[3] = {0, 0, 0}, rc;
	int sq[3] = {1, 1, 0}, cube[3] = {1, 1, 1};
	switch (variant) {
	case V_2D:
	case V_LAYERED:
		h->B = 4;
		rc = cover(h, lo, h->dims, sq);
		break;
	case V_OCTET:
		h->B = 8;
		rc = cover(h, lo, h->dims, cube);
		break;
	default: h->B = 2; rc = granular(h);
	}
	h->leaf = malloc((size_t)h->n * sizeof *h->leaf);
	h->pos = malloc((size_t)h->nb * sizeof *h->pos);
	h->wstart = malloc(((size_t)h->maxlevel + 2) * sizeof *h->wstart);
	if (rc || !h->leaf || !h->pos || !h->wstart || index_levels(h)) {
		hier_free(h);
		cmn_err_set(e, CMN_ENOMEM, "out of memory");
		return NULL;
	}
	for (int i = 0; i < h->nb; i++)
		if (h->b[i].level == 0)
			h->leaf[plat_grid_node(m, h->b[i].o)] = i;
	return h;
}

/* --- instances --- */

static void mbs_destroy(void *self)
{
	struct mbs *s = self;
	if (!s)
		return;
	if (s->owner)
		hier_free(s->h);
	free(s->state);
	free(s->work);
	free(s->fb);
	free(s->wfb);
	free(s->cnt);
	free(s->roots);
	free(s->need);
	free(s);
}

/* Sets block i's state, keeping its level's free bitmap in step. */
static void set_state(const struct hier *h, uint8_t *st, uint64_t *fb, int i, uint8_t v)
{
	int p = h->pos[i];
	if (v == B_FREE)
		fb[p / 64] |= UINT64_C(1) << (p % 64);
	else if (st[i] == B_FREE)
		fb[p / 64] &= ~(UINT64_C(1) << (p % 64));
	st[i] = v;
}

static struct mbs *mbs_new(struct hier *h)
{
	struct mbs *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->h = h;
	s->free = h->n;
	size_t words = (size_t)h->wstart[h->maxlevel + 1];
	s->state = calloc((size_t)h->nb, 1);
	s->work = calloc((size_t)h->nb, 1);
	s->fb = calloc(words, sizeof *s->fb);
	s->wfb = calloc(words, sizeof *s->wfb);
	s->cnt = calloc((size_t)h->nb, sizeof *s->cnt);
	s->roots = malloc((size_t)h->nb * sizeof *s->roots);
	s->need = calloc((size_t)h->maxlevel + 1, sizeof *s->need);
	if (!s->state || !s->work || !s->fb || !s->wfb || !s->cnt || !s->roots || !s->need) {
		mbs_destroy(s);
		return NULL;
	}
	for (int i = 0; i < h->nb; i++)
		if (h->b[i].parent < 0)
			set_state(h, s->state, s->fb, i, B_FREE);
	return s;
}

static int mbs_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                      struct cmn_err *e)
{
	static const char *const names[] = {"2d", "layered", "octet", "granular"};
	int v = 0;
	while (strcmp(names[v], cmn_params_str(p, "variant")) != 0)
		v++;
	struct hier *h = hier_build(m, v, e);
	if (!h)
		return e ? e->code : CMN_EUSAGE;
	struct mbs *s = mbs_new(h);
	if (!s) {
		hier_free(h);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	s->owner = 1;
	*self = s;
	return 0;
}

static void mbs_copy(void *dst, const void *src);

static void *mbs_clone(const void *self)
{
	const struct mbs *s = self;
	struct mbs *c = mbs_new(s->h); /* clones never outlive the original */
	if (c)
		mbs_copy(c, s);
	return c;
}

static void mbs_copy(void *dst, const void *src)
{
	struct mbs *d = dst;
	const struct mbs *s = src;
	memcpy(d->state, s->state, (size_t)s->h->nb);
	memcpy(d->fb, s->fb, (size_t)s->h->wstart[s->h->maxlevel + 1] * sizeof *s->fb);
	d->free = s->free;
}

static int block_size(const struct block *b)
{
	return b->e[0] * b->e[1] * b->e[2];
}

/* Appends block i's nodes to out. */
static int block_nodes(const struct hier *h, int i, int *out)
{
	const struct block *b = &h->b[i];
	int n = 0, c[3];
	for (c[0] = b->o[0]; c[0] < b->o[0] + b->e[0]; c[0]++)
		for (c[1] = b->o[1]; c[1] < b->o[1] + b->e[1]; c[1]++)
			for (c[2] = b->o[2]; c[2] < b->o[2] + b->e[2]; c[2]++)
				out[n++] = plat_grid_node(h->m, c);
	return n;
}

/* The free block of `level` with the lowest origin, or -1. */
static int find_free(const struct hier *h, const uint64_t *fb, int level)
{
	for (int w = h->wstart[level]; w < h->wstart[level + 1]; w++)
		if (fb[w])
			return h->by_bit[w * 64 + __builtin_ctzll(fb[w])];
	return -1;
}

static int mbs_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)flags;
	struct mbs *s = self;
	const struct hier *h = s->h;
	int k = job->size;
	if (k <= 0 || k > s->free)
		return 0;
	memcpy(s->work, s->state, (size_t)h->nb);
	memcpy(s->wfb, s->fb, (size_t)h->wstart[h->maxlevel + 1] * sizeof *s->fb);
	int *need = s->need, got = 0;
	for (int l = 0, rest = k; l <= h->maxlevel; l++, rest /= h->B)
		need[l] = l == h->maxlevel ? rest : rest % h->B;
	for (int l = h->maxlevel; l >= 0; l--)
		while (need[l] > 0) {
			int b = find_free(h, s->wfb, l);
			if (b >= 0) {
				set_state(h, s->work, s->wfb, b, B_ALLOC);
				got += block_nodes(h, b, nodes + got);
				need[l]--;
				continue;
			}
			int up = -1;
			for (int u = l + 1; u <= h->maxlevel && up < 0; u++)
				up = find_free(h, s->wfb, u);
			if (up >= 0) { /* split it one level; its children become free */
				set_state(h, s->work, s->wfb, up, B_SPLIT);
				for (int c = 0; c < h->b[up].nkid; c++)
					set_state(h, s->work, s->wfb, h->kids[h->b[up].kid + c],
					          B_FREE);
				continue;
			}
			need[l]--; /* no block this size or larger: B of the next size */
			if (l > 0)
				need[l - 1] += h->B;
		}
	return got;
}

static int mbs_fits(void *self, const struct js_job *job, int flags)
{
	(void)flags;
	const struct mbs *s = self;
	return job->size > 0 && job->size <= s->free; /* blocks break down to nodes */
}

/* Occupies (from = FREE, to = ALLOC) or releases (the reverse) the marked
 * nodes under block i (cnt[i] of them): whole blocks when all their nodes
 * are marked, splitting the others; free buddies merge. */
static void change(struct mbs *s, int i, uint8_t from, uint8_t to)
{
	const struct hier *h = s->h;
	const struct block *b = &h->b[i];
	if (s->cnt[i] == 0)
		return;
	if (s->state[i] == from && s->cnt[i] == block_size(b)) {
		set_state(h, s->state, s->fb, i, to);
		return;
	}
	if (s->state[i] == from) { /* part of it: split */
		set_state(h, s->state, s->fb, i, B_SPLIT);
		for (int c = 0; c < b->nkid; c++)
			set_state(h, s->state, s->fb, h->kids[b->kid + c], from);
	}
	if (s->state[i] != B_SPLIT)
		return;
	int all_free = 1;
	for (int c = 0; c < b->nkid; c++) {
		int kid = h->kids[b->kid + c];
		change(s, kid, from, to);
		all_free = all_free && s->state[kid] == B_FREE;
	}
	if (all_free) { /* buddies merge */
		for (int c = 0; c < b->nkid; c++)
			set_state(h, s->state, s->fb, h->kids[b->kid + c], B_NONE);
		set_state(h, s->state, s->fb, i, B_FREE);
	}
}

static void apply(struct mbs *s, const int *nodes, int n, uint8_t from, uint8_t to)
{
	const struct hier *h = s->h;
	int nroots = 0;
	for (int i = 0; i < n; i++) { /* count the nodes under every block */
		for (int b = h->leaf[nodes[i]]; b >= 0; b = h->b[b].parent)
			if (s->cnt[b]++ == 0 && h->b[b].parent < 0)
				s->roots[nroots++] = b;
	}
	for (int r = 0; r < nroots; r++)
		change(s, s->roots[r], from, to);
	for (int i = 0; i < n; i++)
		for (int b = h->leaf[nodes[i]]; b >= 0; b = h->b[b].parent)
			s->cnt[b] = 0;
	s->free += to == B_ALLOC ? -n : n;
}

static void mbs_occupy(void *self, const int *nodes, int n)
{
	apply(self, nodes, n, B_FREE, B_ALLOC);
}

static void mbs_release(void *self, const int *nodes, int n)
{
	apply(self, nodes, n, B_ALLOC, B_FREE);
}

static int mbs_free_count(const void *self)
{
	return ((const struct mbs *)self)->free;
}

static const char *const mbs_samples[] = {"mbs", "mbs:variant=2d", "mbs:variant=layered",
                                          "mbs:variant=octet", NULL};

const struct js_alloc_ops js_alloc_mbs_ops = {
    .base = {"mbs", "seed 002: Multiple Buddy Strategy, 2d / layered / octet / granular (mesh)",
             mbs_params, mbs_samples},
    .create = mbs_create,
    .destroy = mbs_destroy,
    .clone = mbs_clone,
    .copy = mbs_copy,
    .place = mbs_place,
    .fits = mbs_fits,
    .occupy = mbs_occupy,
    .release = mbs_release,
    .free_count = mbs_free_count,
    .fungible = 1,
};
