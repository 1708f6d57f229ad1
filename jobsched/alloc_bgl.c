/* BlueGene/L partitions (seed 003 section 2): jobs get contiguous
 * rectangular partitions of a torus (boxes that may wrap around). A job of
 * size p tries every shape a x b x c = p and every base, and takes the one
 * that leaves the largest free rectangular partition (ties: shapes in
 * lexicographic order, then bases in node order). Sizes no box can have are
 * raised to the next possible size; when no box of size p is free, the job
 * is enlarged by the minimum amount that can be placed: without limit for
 * the queue head (FCFS), by at most I nodes for a backfilled job. The
 * largest free partition comes from the POP algorithm (Appendix A): per
 * base, planes projected along dimension 2 one by one, and for each depth
 * the largest rectangle anchored at the base from the minima of the runs
 * of free nodes along dimension 1 - O(M^5) for an M x M x M torus. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "alloc_bgl.h"

/* A remembered answer: for the busy state `state`, the best box of size p
 * (p > 0) or the largest free partition (p = 0). Passes between changes of
 * the machine ask the same questions; POP is the expensive part. */
struct memo {
	uint64_t hash;
	int p, found, value;
	int o[3], s[3];
	uint8_t *state; /* NULL: empty slot */
};
#define MEMO_SLOTS 1024

struct bgl {
	const struct plat_machine *m;
	int d[3], nd, n, I, free;
	double fn_tor, fn_max; /* migration thresholds */
	uint8_t *busy, *work;
	int *run;      /* runs of free nodes along dimension 1 */
	int *possible; /* per size 0..n: some box has it */
	int *proj;     /* POP scratch, d[0] entries */
	struct memo *memo;
	uint64_t busy_hash; /* of busy, when hash_valid */
	int hash_valid;
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

static int idx(const struct bgl *g, int x, int y, int z)
{
	return (x * g->d[1] + y) * g->d[2] + z; /* = the machine's C-order node id */
}

static void bgl_destroy(void *self)
{
	struct bgl *g = self;
	if (!g)
		return;
	free(g->busy);
	free(g->work);
	free(g->run);
	free(g->possible);
	free(g->proj);
	for (int i = 0; g->memo && i < MEMO_SLOTS; i++)
		free(g->memo[i].state);
	free(g->memo);
	free(g);
}

static struct bgl *bgl_new(const struct plat_machine *m, const int *d, int nd, int I)
{
	struct bgl *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->m = m;
	memcpy(g->d, d, sizeof g->d);
	g->nd = nd;
	g->n = g->free = d[0] * d[1] * d[2];
	g->I = I;
	g->busy = calloc((size_t)g->n, 1);
	g->work = calloc((size_t)g->n, 1);
	g->run = malloc((size_t)g->n * sizeof *g->run);
	g->possible = calloc((size_t)g->n + 1, sizeof *g->possible);
	g->proj = malloc((size_t)d[0] * sizeof *g->proj);
	g->memo = calloc(MEMO_SLOTS, sizeof *g->memo);
	if (!g->busy || !g->work || !g->run || !g->possible || !g->proj || !g->memo) {
		bgl_destroy(g);
		return NULL;
	}
	for (int a = 1; a <= d[0]; a++)
		for (int b = 1; b <= d[1]; b++)
			for (int c = 1; c <= d[2]; c++)
				g->possible[a * b * c] = 1;
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
		return cmn_err_set(e, CMN_EUSAGE, "bgl needs a torus of 1 to 3 dimensions, not %s",
		                   m->spec);
	int d[3] = {1, 1, 1};
	for (int i = 0; i < nd; i++)
		d[i] = dims[i];
	struct bgl *g = bgl_new(m, d, nd, (int)cmn_params_num(p, "I"));
	if (!g)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	g->fn_tor = cmn_params_num(p, "fn_tor");
	g->fn_max = cmn_params_num(p, "fn_max");
	*self = g;
	return 0;
}

static void *bgl_clone(const void *self)
{
	const struct bgl *g = self;
	struct bgl *c = bgl_new(g->m, g->d, g->nd, g->I);
	if (c) {
		c->fn_tor = g->fn_tor;
		c->fn_max = g->fn_max;
		memcpy(c->busy, g->busy, (size_t)g->n);
		c->free = g->free;
	}
	return c;
}

static void bgl_copy(void *dst, const void *src)
{
	struct bgl *d = dst;
	const struct bgl *s = src;
	memcpy(d->busy, s->busy, (size_t)s->n);
	d->free = s->free;
	d->hash_valid = 0;
}

/* Free runs along dimension 1 from every node, cyclic, capped at d[1]. */
static void runs(struct bgl *g, const uint8_t *busy)
{
	int Y = g->d[1];
	for (int x = 0; x < g->d[0]; x++)
		for (int z = 0; z < g->d[2]; z++) {
			int any_busy = 0;
			for (int y = 0; y < Y; y++)
				any_busy |= busy[idx(g, x, y, z)];
			if (!any_busy) {
				for (int y = 0; y < Y; y++)
					g->run[idx(g, x, y, z)] = Y;
				continue;
			}
			int r = 0; /* walk backwards twice round so runs wrap */
			for (int t = 2 * Y - 1; t >= 0; t--) {
				int y = t % Y;
				r = busy[idx(g, x, y, z)] ? 0 : r + 1;
				if (t < Y)
					g->run[idx(g, x, y, z)] = r < Y ? r : Y;
			}
		}
}

/* The largest free box of busy when it holds more than floor nodes, else
 * floor (a search for something better than floor prunes more). */
static int largest_free_above(struct bgl *g, const uint8_t *busy, int floor)
{
	runs(g, busy);
	int X = g->d[0], Z = g->d[2], YZ = g->d[1] * g->d[2], best = floor, nfree = 0;
	for (int i = 0; i < g->n; i++)
		nfree += !busy[i];
	/* Exact pruning (the maximum is unchanged): a box from base (i, j, k)
	 * is at most X wide, run[base] long and Z deep, and once a depth's
	 * first projection p0 is known, deeper boxes hold at most X p0 Z
	 * nodes; no box holds more than the free nodes. */
	for (int i = 0; i < X && best < nfree; i++)
		for (int j = 0; j < g->d[1]; j++)
			for (int k = 0; k < Z; k++) {
				if (busy[idx(g, i, j, k)] ||
				    X * g->run[idx(g, i, j, k)] * Z <= best)
					continue;
				for (int w = 0; w < X; w++)
					g->proj[w] = 1 << 30;
				for (int depth = 1; depth <= Z;
				     depth++) { /* project one more plane */
					int z = k + depth - 1, m = 1 << 30;
					z -= z >= Z
					         ? Z
					         : 0; /* (k + depth - 1) mod Z without a division */
					const int *col =
					    g->run + idx(g, 0, j, z); /* x = 0; x steps by YZ */
					for (int w = 0; w < X; w++) {
						int x = i + w >= X ? i + w - X : i + w;
						int r = col[x * YZ];
						if (r < g->proj[w])
							g->proj[w] = r;
						if (g->proj[w] < m)
							m = g->proj[w];
						if (m == 0)
							break;
						if ((w + 1) * m * depth > best)
							best = (w + 1) * m * depth;
					}
					if (g->proj[0] == 0 || X * g->proj[0] * Z <= best)
						break;
				}
			}
	return best;
}

int js_bgl_largest_free(void *self, const uint8_t *busy)
{
	return largest_free_above(self, busy, 0);
}

static int box_free(const struct bgl *g, const uint8_t *busy, const int *o, const int *s)
{
	for (int a = 0; a < s[0]; a++)
		for (int b = 0; b < s[1]; b++)
			for (int c = 0; c < s[2]; c++)
				if (busy[idx(g, (o[0] + a) % g->d[0], (o[1] + b) % g->d[1],
				             (o[2] + c) % g->d[2])])
					return 0;
	return 1;
}

static void box_set(const struct bgl *g, uint8_t *busy, const int *o, const int *s, uint8_t v)
{
	for (int a = 0; a < s[0]; a++)
		for (int b = 0; b < s[1]; b++)
			for (int c = 0; c < s[2]; c++)
				busy[idx(g, (o[0] + a) % g->d[0], (o[1] + b) % g->d[1],
				         (o[2] + c) % g->d[2])] = v;
}

static uint64_t state_hash(struct bgl *g)
{
	if (!g->hash_valid) {
		uint64_t h = 1469598103934665603ull; /* FNV-1a */
		for (int i = 0; i < g->n; i++)
			h = (h ^ g->busy[i]) * 1099511628211ull;
		g->busy_hash = h;
		g->hash_valid = 1;
	}
	return g->busy_hash;
}

/* The slot for (state, p), and whether it holds the answer. */
static struct memo *memo_slot(struct bgl *g, int p, int *hit)
{
	uint64_t h = state_hash(g);
	struct memo *m = &g->memo[(h ^ (uint64_t)p * 0x9e3779b97f4a7c15ull) % MEMO_SLOTS];
	*hit =
	    m->state && m->hash == h && m->p == p && memcmp(m->state, g->busy, (size_t)g->n) == 0;
	return m;
}

/* Claims the slot for (current state, p); 0 when no memory (not remembered). */
static int memo_store(struct bgl *g, struct memo *m, int p)
{
	if (!m->state && !(m->state = malloc((size_t)g->n)))
		return 0;
	memcpy(m->state, g->busy, (size_t)g->n);
	m->hash = g->busy_hash;
	m->p = p;
	return 1;
}

/* The largest free partition of the current state, remembered. */
static int current_lfp(struct bgl *g)
{
	int hit;
	struct memo *m = memo_slot(g, 0, &hit);
	if (hit)
		return m->value;
	int v = js_bgl_largest_free(g, g->busy);
	if (memo_store(g, m, 0))
		m->value = v;
	return v;
}

/* The best free box of size p (shape and base), by the largest free
 * partition it leaves; with evaluate = 0 the first free box. Returns 1 when
 * one exists. */
static int search_box(struct bgl *g, int p, int evaluate, int *bo, int *bs);

static int best_box(struct bgl *g, int p, int evaluate, int *bo, int *bs)
{
	if (!evaluate)
		return search_box(g, p, 0, bo, bs);
	int hit;
	struct memo *m = memo_slot(g, p, &hit);
	if (hit) {
		memcpy(bo, m->o, sizeof m->o);
		memcpy(bs, m->s, sizeof m->s);
		return m->found;
	}
	int found = search_box(g, p, 1, bo, bs);
	if (memo_store(g, m, p)) {
		m->found = found;
		memcpy(m->o, bo, sizeof m->o);
		memcpy(m->s, bs, sizeof m->s);
	}
	return found;
}

static int search_box(struct bgl *g, int p, int evaluate, int *bo, int *bs)
{
	int found = 0, best = -1, bound = evaluate ? current_lfp(g) : 0;
	int s[3], o[3];
	for (s[0] = 1; s[0] <= g->d[0]; s[0]++)
		for (s[1] = 1; s[1] <= g->d[1]; s[1]++) {
			if (p % (s[0] * s[1]) || p / (s[0] * s[1]) > g->d[2])
				continue;
			s[2] = p / (s[0] * s[1]);
			for (o[0] = 0; o[0] < g->d[0]; o[0]++)
				for (o[1] = 0; o[1] < g->d[1]; o[1]++)
					for (o[2] = 0; o[2] < g->d[2]; o[2]++) {
						if (!box_free(g, g->busy, o, s))
							continue;
						if (!evaluate) {
							memcpy(bo, o, sizeof o);
							memcpy(bs, s, sizeof s);
							return 1;
						}
						memcpy(g->work, g->busy, (size_t)g->n);
						box_set(g, g->work, o, s, 1);
						/* only a partition larger than the best so far
						 * matters */
						int lfp = largest_free_above(g, g->work,
						                             best < 0 ? 0 : best);
						if (lfp > best) {
							best = lfp;
							memcpy(bo, o, sizeof o);
							memcpy(bs, s, sizeof s);
							found = 1;
							/* placing a box never enlarges the largest
							 * free partition: nothing can beat keeping
							 * it whole */
							if (best == bound)
								return 1;
						}
					}
		}
	return found;
}

/* Smallest possible size >= p, or 0 when none. */
static int next_size(const struct bgl *g, int p)
{
	for (; p <= g->n; p++)
		if (g->possible[p])
			return p;
	return 0;
}

/* Writes box (o, s) as node ids; returns their count. */
static int box_nodes(const struct bgl *g, const int *o, const int *s, int *nodes)
{
	int n = 0;
	for (int a = 0; a < s[0]; a++)
		for (int b = 0; b < s[1]; b++)
			for (int c = 0; c < s[2]; c++)
				nodes[n++] = idx(g, (o[0] + a) % g->d[0], (o[1] + b) % g->d[1],
				                 (o[2] + c) % g->d[2]);
	return n;
}

static int bgl_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	struct bgl *g = self;
	int p0 = next_size(g, job->size > 0 ? job->size : 1);
	if (job->size <= 0 || !p0 || p0 > g->free)
		return 0;
	int limit = flags & JS_PLACE_BACKFILL ? p0 + g->I : g->n;
	int o[3], s[3];
	for (int p = p0; p <= limit && p <= g->free; p++) {
		if (g->possible[p] && best_box(g, p, 1, o, s))
			return box_nodes(g, o, s, nodes);
	}
	return 0;
}

static int bgl_fits(void *self, const struct js_job *job, int flags)
{
	struct bgl *g = self;
	int p0 = next_size(g, job->size > 0 ? job->size : 1);
	if (job->size <= 0 || !p0 || p0 > g->free)
		return 0;
	if (!(flags & JS_PLACE_BACKFILL)) /* any free box of p0 nodes or more */
		return current_lfp(g) >= p0;
	int o[3], s[3];
	for (int p = p0; p <= p0 + g->I && p <= g->free; p++)
		if (g->possible[p] && best_box(g, p, 0, o, s))
			return 1;
	return 0;
}

static void set_busy(struct bgl *g, const int *nodes, int n, uint8_t v)
{
	for (int i = 0; i < n; i++)
		g->busy[nodes[i]] = v;
	g->free += v ? -n : n;
	g->hash_valid = 0;
}

static void bgl_occupy(void *self, const int *nodes, int n)
{
	set_busy(self, nodes, n, 1);
}

static void bgl_release(void *self, const int *nodes, int n)
{
	set_busy(self, nodes, n, 0);
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
	int lfp = current_lfp(g);
	if ((double)g->free / g->n < g->fn_tor || (double)lfp / g->free > g->fn_max)
		return -1;
	struct bgl *t = bgl_new(g->m, g->d, g->nd, 0);
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
		memset(t->busy, 0, (size_t)t->n);
		t->free = t->n;
		t->hash_valid = 0;
		for (int i = 0; i < count; i++)
			if (fixed[i]) {
				memcpy(out[i], nodes[i], (size_t)n[i] * sizeof **out);
				set_busy(t, nodes[i], n[i], 1);
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
			box_nodes(t, o, sz, out[i]);
			set_busy(t, out[i], n[i], 1);
		}
	}
	result = current_lfp(t) > lfp;
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

const struct js_alloc_ops js_alloc_bgl_ops = {
    .base = {"bgl", "seed 003: contiguous boxes of a torus, maximal free partition kept",
             bgl_params},
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
};
