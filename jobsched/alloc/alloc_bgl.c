/* BlueGene/L partitions (seed 003 section 2): jobs get contiguous
 * rectangular partitions of a torus (boxes that may wrap around). A job of
 * size p tries every shape a x b x c = p and every base, and takes the one
 * that leaves the largest free rectangular partition (ties: shapes in
 * lexicographic order, then bases in node order). Sizes no box can have are
 * raised to the next possible size; when no box of size p is free, the job
 * is enlarged by the minimum amount that can be placed: without limit for
 * the queue head (FCFS), by at most I nodes for a backfilled job.
 *
 * The search works on the maximal free boxes (freebox.c), not on nodes:
 * the free boxes of size p are the bases of shape s inside some maximal
 * box M, one range per dimension. The largest free box left when box B
 * is taken is, over every maximal box M, M itself when it misses B, else
 * the largest part of M beside B along one dimension i: M with its
 * interval along i cut to the longest arc outside B's. That depends on
 * B's base only through one coordinate per dimension, so for each
 * dimension i and side s_i a table T_i[o] (O(boxes x side) to fill) gives
 * the answer as max(T_0[o_0], T_1[o_1], T_2[o_2]), and the best base of a
 * range of bases comes from three range maxima. First the search looks
 * for a box that keeps the largest free partition whole (only the boxes
 * of that volume count), then, when none does, for the best one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "alloc_bgl.h"
#include "freebox.h"

/* A remembered answer: for state `version`, the best box of size p. Passes
 * between changes of the machine ask the same questions. */
struct memo {
	uint64_t version; /* 0: empty slot */
	int p, found;
	int o[3], s[3];
};
#define MEMO_SLOTS 1024

/* Every shape a x b x c of every size, shared by a state and its clones:
 * those of size p are ab[off[p]] .. ab[off[p + 1] - 1] (c = p / (a b)),
 * in lexicographic order. */
struct shapes {
	int refs;
	int *off;
	int (*ab)[2];
};

struct bgl {
	const struct plat_machine *m;
	int d[3], nd, n, I, free;
	double fn_tor, fn_max; /* migration thresholds */
	struct js_freebox *fb;
	struct shapes *sh;
	struct memo *memo;
	uint64_t version; /* of the busy set: a new value at every change */
	/* search scratch */
	const struct js_box **big, **all; /* boxes of volume >= p; every box, largest first */
	int cap;
	int *table; /* T_i for side s: table + off[i] + (s - 1) d[i] */
	long *tag;  /* per (i, s): the search that filled it */
	int off[3], toff[3];
	long search; /* a new value per search phase */
};

static const struct cmn_param_def bgl_params[] = {
    {"I", CMN_PT_INT, "1", 0, 1 << 20, NULL,
     "how many nodes a backfilled job may be enlarged by (seed 003's I)"},
    {"fn_tor", CMN_PT_DOUBLE, "0.1", 0, 1, NULL,
     "migration only when free nodes / torus size >= fn_tor"},
    {"fn_max", CMN_PT_DOUBLE, "0.7", 0, 1, NULL,
     "migration only when largest free partition / free nodes <= fn_max"},
    {NULL},
};

static void bgl_destroy(void *self)
{
	struct bgl *g = self;
	if (!g)
		return;
	js_freebox_destroy(g->fb);
	if (g->sh && --g->sh->refs == 0) {
		free(g->sh->off);
		free(g->sh->ab);
		free(g->sh);
	}
	free(g->memo);
	free(g->big);
	free(g->all);
	free(g->table);
	free(g->tag);
	free(g);
}

static struct shapes *shapes_new(const int *d)
{
	int n = d[0] * d[1] * d[2];
	struct shapes *sh = calloc(1, sizeof *sh);
	if (!sh)
		return NULL;
	sh->refs = 1;
	sh->off = calloc((size_t)n + 2, sizeof *sh->off);
	sh->ab = malloc((size_t)n * sizeof *sh->ab);
	if (!sh->off || !sh->ab) {
		free(sh->off);
		free(sh->ab);
		free(sh);
		return NULL;
	}
	for (int a = 1; a <= d[0]; a++) /* a counting sort by size */
		for (int b = 1; b <= d[1]; b++)
			for (int c = 1; c <= d[2]; c++)
				sh->off[a * b * c + 1]++;
	for (int p = 1; p <= n + 1; p++)
		sh->off[p] += sh->off[p - 1];
	for (int a = 1; a <= d[0]; a++)
		for (int b = 1; b <= d[1]; b++)
			for (int c = 1; c <= d[2]; c++) {
				int k = sh->off[a * b * c]++;
				sh->ab[k][0] = a;
				sh->ab[k][1] = b;
			}
	for (int p = n + 1; p > 0; p--) /* each off[p] went to off[p + 1] */
		sh->off[p] = sh->off[p - 1];
	sh->off[0] = 0;
	return sh;
}

/* Shape k of size p (k from 0 to off[p + 1] - off[p] - 1). */
static void shape_at(const struct bgl *g, int p, int k, int *s)
{
	const int *ab = g->sh->ab[g->sh->off[p] + k];
	s[0] = ab[0];
	s[1] = ab[1];
	s[2] = p / (ab[0] * ab[1]);
}

static int shape_count(const struct bgl *g, int p)
{
	return g->sh->off[p + 1] - g->sh->off[p];
}

/* A new state of torus d, with every node free; sh: the shapes of another
 * state of the same torus, or NULL. */
static struct bgl *bgl_new(const struct plat_machine *m, const int *d, int nd, int I,
                           struct shapes *sh)
{
	struct bgl *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->m = m;
	memcpy(g->d, d, sizeof g->d);
	g->nd = nd;
	g->n = g->free = d[0] * d[1] * d[2];
	g->I = I;
	g->version = 1;
	size_t cells = 0, tags = 0;
	for (int i = 0; i < 3; i++) {
		g->off[i] = (int)cells;
		g->toff[i] = (int)tags;
		cells += (size_t)d[i] * (size_t)d[i];
		tags += (size_t)d[i];
	}
	g->fb = js_freebox_create(d);
	if (sh)
		sh->refs++;
	g->sh = sh ? sh : shapes_new(d);
	g->memo = calloc(MEMO_SLOTS, sizeof *g->memo);
	g->table = malloc(cells * sizeof *g->table);
	g->tag = calloc(tags, sizeof *g->tag);
	if (!g->fb || !g->sh || !g->memo || !g->table || !g->tag) {
		bgl_destroy(g);
		return NULL;
	}
	return g;
}

static int bgl_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                      struct cmn_err *e)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	int rc = plat_grid_shape(m, &nd, dims, wrap, e);
	if (rc)
		return rc;
	if (nd > 3 || !wrap[0])
		return cmn_err_set(e, CMN_EUSAGE, "needs a torus of 1 to 3 dimensions, not %s",
		                   m->spec);
	int d[3] = {1, 1, 1};
	for (int i = 0; i < nd; i++)
		d[i] = dims[i];
	struct bgl *g = bgl_new(m, d, nd, (int)cmn_params_num(p, "I"), NULL);
	if (!g)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	g->fn_tor = cmn_params_num(p, "fn_tor");
	g->fn_max = cmn_params_num(p, "fn_max");
	*self = g;
	return 0;
}

static void bgl_copy(void *dst, const void *src)
{
	struct bgl *d = dst;
	const struct bgl *s = src;
	js_freebox_copy(d->fb, s->fb);
	d->free = s->free;
	d->version++;
}

static void *bgl_clone(const void *self)
{
	const struct bgl *g = self;
	struct bgl *c = bgl_new(g->m, g->d, g->nd, g->I, g->sh);
	if (c) {
		c->fn_tor = g->fn_tor;
		c->fn_max = g->fn_max;
		bgl_copy(c, g);
	}
	return c;
}

int js_bgl_largest_free(void *self, const uint8_t *busy)
{
	const struct bgl *g = self;
	struct js_freebox *f = js_freebox_create(g->d);
	int *ids = malloc((size_t)g->n * sizeof *ids), k = 0, best = -1;
	if (f && ids) {
		for (int i = 0; i < g->n; i++)
			if (busy[i])
				ids[k++] = i;
		js_freebox_occupy_nodes(f, ids, k);
		best = js_freebox_largest(f);
	}
	js_freebox_destroy(f);
	free(ids);
	return best;
}

/* --- the search --- */

/* Room for every maximal box in the search lists; 0 or -1. */
static int reserve(struct bgl *g, int n)
{
	if (n <= g->cap)
		return 0;
	const struct js_box **b = realloc(g->big, (size_t)n * sizeof *b);
	if (b)
		g->big = b;
	const struct js_box **a = realloc(g->all, (size_t)n * sizeof *a);
	if (a)
		g->all = a;
	if (!a || !b)
		return -1;
	g->cap = n;
	return 0;
}

/* The part of maximal box m beside a box whose interval along dimension
 * i starts r positions after m's (on a ring of D) and has s positions: m
 * with that interval cut to its longest arc outside the box's; m whole
 * when the two miss. */
static int beside(const struct js_box *m, int i, int D, int r, int s)
{
	int len = m->l[i];
	if (len == D)
		return m->vol / D * (D - s);
	/* [r, r + s), and [0, a) when it wraps */
	int a = r + s > D ? r + s - D : 0, end = r < len ? r : len;
	int left = end - a, right = len - r - s, best = left > right ? left : right;
	return best > 0 ? m->vol / len * best : 0;
}

/* T_i[o] for side s: the largest free box above floor left by a box whose
 * interval along i is [o, o + s), from the boxes in all, or floor. Filled
 * once per search phase: floors only grow within one, and values above
 * the floor they were computed with stay exact. */
static const int *side_values(struct bgl *g, int nall, int i, int s, int floor)
{
	int D = g->d[i], *t = g->table + g->off[i] + (s - 1) * D;
	long *tag = g->tag + g->toff[i] + s - 1;
	if (*tag == g->search)
		return t;
	*tag = g->search;
	for (int o = 0; o < D; o++)
		t[o] = floor;
	for (int k = 0; k < nall; k++) {
		const struct js_box *m = g->all[k];
		if (m->vol <= floor)
			continue;
		for (int r = 0, o = m->s[i]; r < D; r++, o = o + 1 == D ? 0 : o + 1) {
			int v = beside(m, i, D, r, s);
			t[o] = v > t[o] ? v : t[o];
		}
	}
	return t;
}

/* The largest free box left when box (o, s) is taken, over the n boxes m. */
static int value_of(const struct bgl *g, const struct js_box *m, int n, const int *o, const int *s)
{
	int best = 0;
	for (int k = 0; k < n; k++)
		for (int i = 0; i < 3 && best < m[k].vol; i++) {
			int r = o[i] - m[k].s[i], v;
			v = beside(&m[k], i, g->d[i], r < 0 ? r + g->d[i] : r, s[i]);
			best = v > best ? v : best;
		}
	return best;
}

/* The bases of shape s inside box m along dimension i: an arc. */
static void base_arc(const struct bgl *g, const struct js_box *m, int i, int s, int *a, int *len)
{
	if (m->l[i] == g->d[i]) {
		*a = 0;
		*len = g->d[i];
	} else {
		*a = m->s[i];
		*len = m->l[i] - s + 1;
	}
}

static int arc_max(const int *t, int D, int a, int len)
{
	int best = t[a];
	for (int k = 1, o = a + 1 == D ? 0 : a + 1; k < len; k++, o = o + 1 == D ? 0 : o + 1)
		best = t[o] > best ? t[o] : best;
	return best;
}

/* The smallest position of the arc, and the smallest with t == v (-1:
 * none). */
static int arc_min(int D, int a, int len)
{
	return a + len > D ? 0 : a;
}

static int arc_first(const int *t, int D, int a, int len, int v)
{
	for (int o = 0; o < a + len - D; o++) /* the part wrapped onto 0.. */
		if (t[o] == v)
			return o;
	for (int o = a; o < a + len && o < D; o++)
		if (t[o] == v)
			return o;
	return -1;
}

/* The first base (node order) of the ranges a/len with
 * max(t0[o0], t1[o1], t2[o2]) == v, given that one exists. */
static void first_base(const struct bgl *g, const int *const *t, const int *a, const int *len,
                       int v, int *o)
{
	const int *d = g->d;
	int in1 = arc_first(t[1], d[1], a[1], len[1], v) >= 0;
	int in2 = arc_first(t[2], d[2], a[2], len[2], v) >= 0;
	o[0] = in1 || in2 ? arc_min(d[0], a[0], len[0]) : arc_first(t[0], d[0], a[0], len[0], v);
	if (t[0][o[0]] == v) {
		o[1] = arc_min(d[1], a[1], len[1]);
		o[2] = arc_min(d[2], a[2], len[2]);
		return;
	}
	o[1] = in2 ? arc_min(d[1], a[1], len[1]) : arc_first(t[1], d[1], a[1], len[1], v);
	o[2] =
	    t[1][o[1]] == v ? arc_min(d[2], a[2], len[2]) : arc_first(t[2], d[2], a[2], len[2], v);
}

static int base_before(const int *x, const int *y)
{
	return x[0] != y[0] ? x[0] < y[0] : x[1] != y[1] ? x[1] < y[1] : x[2] < y[2];
}

static int holds(const struct js_box *m, const int *s)
{
	return m->l[0] >= s[0] && m->l[1] >= s[1] && m->l[2] >= s[2];
}

/* For shape s: the largest value over the free bases (-1: no free base)
 * and the first base with it. */
static int best_base(struct bgl *g, int nbig, int nall, const int *s, int floor, int *o)
{
	const int *t[3] = {NULL, NULL, NULL};
	int best = -1;
	for (int k = 0; k < nbig; k++) {
		const struct js_box *m = g->big[k];
		if (!holds(m, s))
			continue;
		int a[3], len[3], v = -1, cand[3];
		for (int i = 0; i < 3; i++) {
			if (!t[i])
				t[i] = side_values(g, nall, i, s[i], floor);
			base_arc(g, m, i, s[i], &a[i], &len[i]);
			int mx = arc_max(t[i], g->d[i], a[i], len[i]);
			v = mx > v ? mx : v;
		}
		if (v < best)
			continue;
		first_base(g, t, a, len, v, cand);
		if (v > best || base_before(cand, o)) {
			best = v;
			memcpy(o, cand, sizeof cand);
		}
	}
	return best;
}

/* Whether a box of size p is free. */
static int any_box(const struct bgl *g, int p, int nbig)
{
	for (int i = 0, s[3]; i < shape_count(g, p); i++) {
		shape_at(g, p, i, s);
		for (int k = 0; k < nbig; k++)
			if (holds(g->big[k], s))
				return 1;
	}
	return 0;
}

/* The first shape and base (in order) whose value is above floor and
 * above every earlier one's, of the best value; -1 when none is above
 * floor. Boxes in all: at least those above floor. */
static int scan(struct bgl *g, int p, int nbig, int nall, int floor, int stop, int *bo, int *bs)
{
	int s[3], best = floor, o[3];
	g->search++;
	for (int i = 0; i < shape_count(g, p); i++) {
		shape_at(g, p, i, s);
		int v = best_base(g, nbig, nall, s, best, o);
		if (v <= best)
			continue;
		best = v;
		memcpy(bo, o, sizeof o);
		memcpy(bs, s, sizeof s);
		if (best >= stop)
			break;
	}
	return best > floor ? best : -1;
}

/* The best free box of size p: the first (shapes in lexicographic order,
 * then bases in node order) of those leaving the largest free partition.
 * With evaluate = 0 whether any box of size p is free. Returns 1 when one
 * is. */
static int search_box(struct bgl *g, int p, int evaluate, int *bo, int *bs)
{
	int nmax, lfp = js_freebox_largest(g->fb);
	const struct js_box *mx = js_freebox_maximal(g->fb, &nmax);
	if (p > lfp || reserve(g, nmax))
		return 0;
	int nbig = 0, nall = 0;
	for (int k = 0; k < nmax; k++)
		if (mx[k].vol >= p)
			g->big[nbig++] = &mx[k];
	if (!evaluate || !any_box(g, p, nbig))
		return any_box(g, p, nbig);
	/* a box that leaves a largest free box whole: only those count */
	for (int k = 0; k < nmax; k++)
		if (mx[k].vol == lfp)
			g->all[nall++] = &mx[k];
	if (scan(g, p, nbig, nall, lfp - 1, lfp, bo, bs) == lfp)
		return 1;
	/* else the best value is at least that of any free box, say the
	 * first of each shape: only boxes of that volume or more count */
	int s[3], low = 0;
	for (int i = 0; i < shape_count(g, p); i++) {
		shape_at(g, p, i, s);
		for (int k = 0; k < nbig; k++)
			if (holds(g->big[k], s)) {
				int a[3], len[3];
				for (int j = 0; j < 3; j++)
					base_arc(g, g->big[k], j, s[j], &a[j], &len[j]);
				int v = value_of(g, mx, nmax, a, s);
				low = v > low ? v : low;
				break;
			}
	}
	nall = 0;
	for (int k = 0; k < nmax; k++)
		if (mx[k].vol >= low)
			g->all[nall++] = &mx[k];
	return scan(g, p, nbig, nall, low - 1, lfp, bo, bs) >= low;
}

/* The best box of size p, remembered per state; with evaluate = 0 whether
 * one is free. */
static int best_box(struct bgl *g, int p, int evaluate, int *bo, int *bs)
{
	if (!evaluate)
		return search_box(g, p, 0, bo, bs);
	struct memo *m = &g->memo[(g->version * 0x9e3779b97f4a7c15ull ^ (uint64_t)p) % MEMO_SLOTS];
	if (m->version == g->version && m->p == p) {
		memcpy(bo, m->o, sizeof m->o);
		memcpy(bs, m->s, sizeof m->s);
		return m->found;
	}
	int found = search_box(g, p, 1, bo, bs);
	m->version = g->version;
	m->p = p;
	m->found = found;
	memcpy(m->o, bo, sizeof m->o);
	memcpy(m->s, bs, sizeof m->s);
	return found;
}

/* --- the allocator --- */

/* Smallest possible size >= p, or 0 when none. */
static int next_size(const struct bgl *g, int p)
{
	for (; p <= g->n; p++)
		if (shape_count(g, p))
			return p;
	return 0;
}

static struct js_box box_of(const int *o, const int *s)
{
	struct js_box b = {{o[0], o[1], o[2]}, {s[0], s[1], s[2]}, s[0] * s[1] * s[2]};
	return b;
}

static int bgl_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	struct bgl *g = self;
	int p0 = next_size(g, job->size > 0 ? job->size : 1);
	if (job->size <= 0 || !p0 || p0 > g->free)
		return 0;
	/* no free box holds more than the largest free partition */
	if (!js_freebox_at_least(g->fb, p0))
		return 0;
	int lfp = js_freebox_largest(g->fb);
	int limit = flags & JS_PLACE_BACKFILL ? p0 + g->I : g->n;
	int o[3], s[3];
	for (int p = p0; p <= limit && p <= g->free && p <= lfp; p++) {
		if (shape_count(g, p) && best_box(g, p, 1, o, s)) {
			struct js_box b = box_of(o, s);
			return js_freebox_nodes(g->fb, &b, nodes);
		}
	}
	return 0;
}

static int bgl_fits(void *self, const struct js_job *job, int flags)
{
	struct bgl *g = self;
	int p0 = next_size(g, job->size > 0 ? job->size : 1);
	if (job->size <= 0 || !p0 || p0 > g->free)
		return 0;
	/* any free box of p0 nodes or more; else none of p0 .. p0 + I */
	if (!js_freebox_at_least(g->fb, p0) || !(flags & JS_PLACE_BACKFILL))
		return js_freebox_at_least(g->fb, p0);
	int o[3], s[3];
	for (int p = p0; p <= p0 + g->I && p <= g->free; p++)
		if (shape_count(g, p) && best_box(g, p, 0, o, s))
			return 1;
	return 0;
}

static void bgl_occupy(void *self, const int *nodes, int n)
{
	struct bgl *g = self;
	js_freebox_occupy_nodes(g->fb, nodes, n);
	g->free -= n;
	g->version++;
}

static void bgl_release(void *self, const int *nodes, int n)
{
	struct bgl *g = self;
	js_freebox_release_nodes(g->fb, nodes, n);
	g->free += n;
	g->version++;
}

static void take_box(struct bgl *g, const int *o, const int *s)
{
	struct js_box b = box_of(o, s);
	js_freebox_occupy(g->fb, &b);
	g->free -= b.vol;
	g->version++;
}

/* Seed 003's migration: when FN_tor >= fn_tor and FN_max <= fn_max, the
 * running jobs, largest first (ties: their order), are placed again with
 * the same heuristic in an empty torus, at their own size; a job that finds
 * no box stays where it is and the others start over. The result is kept
 * when the largest free partition grows. */
static int bgl_migrate(void *self, int count, const int *const *nodes, const int *n, int **out)
{
	struct bgl *g = self;
	if (g->free == 0)
		return -1;
	int lfp = js_freebox_largest(g->fb);
	if ((double)g->free / g->n < g->fn_tor || (double)lfp / g->free > g->fn_max)
		return -1;
	struct bgl *t = bgl_new(g->m, g->d, g->nd, 0, g->sh);
	int *order = malloc((size_t)count * sizeof *order);
	uint8_t *fixed = calloc((size_t)count, 1);
	int result = 0;
	if (!t || !order || !fixed)
		goto done;                /* no memory: no migration */
	for (int i = 0; i < count; i++) { /* largest first, stable */
		int j = i;
		while (j > 0 && n[order[j - 1]] < n[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (int again = 1; again;) {
		again = 0;
		js_freebox_clear(t->fb);
		t->free = t->n;
		t->version++;
		for (int i = 0; i < count; i++)
			if (fixed[i]) {
				memcpy(out[i], nodes[i], (size_t)n[i] * sizeof **out);
				bgl_occupy(t, nodes[i], n[i]);
			}
		for (int k = 0; k < count && !again; k++) {
			int i = order[k], o[3], sz[3];
			if (fixed[i])
				continue;
			if (!best_box(t, n[i], 1, o, sz)) {
				fixed[i] = 1; /* stays in its partition; start over */
				again = 1;
				break;
			}
			struct js_box b = box_of(o, sz);
			js_freebox_nodes(t->fb, &b, out[i]);
			take_box(t, o, sz);
		}
	}
	result = js_freebox_largest(t->fb) > lfp;
done:
	bgl_destroy(t);
	free(order);
	free(fixed);
	return result;
}

static int bgl_free_count(const void *self)
{
	return ((const struct bgl *)self)->free;
}

static const char *const bgl_samples[] = {"bgl", "bgl:I=0", "bgl:fn_tor=0,fn_max=1", NULL};

const struct js_alloc_ops js_alloc_bgl_ops = {
    .base = {"bgl", "seed 003: contiguous boxes of a torus, maximal free partition kept",
             bgl_params, bgl_samples},
    .create = bgl_create,
    .destroy = bgl_destroy,
    .clone = bgl_clone,
    .copy = bgl_copy,
    .place = bgl_place,
    .fits = bgl_fits,
    .occupy = bgl_occupy,
    .release = bgl_release,
    .free_count = bgl_free_count,
    .migrate = bgl_migrate,
    .canonical = 1, /* its choice follows the free nodes alone (test_bgl: = brute force) */
};
