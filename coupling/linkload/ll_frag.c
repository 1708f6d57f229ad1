/* The fragment of a job's flows one by one (ll_flows.h) that a linkload
 * computation computes apart (ll_part.h's split): the flows whose record
 * stops holding, moved out of their part as the levels rise, computed in
 * the part's own arrays (rates, routes, flows per link) over links of
 * their own, while the part is replayed without them; back in the part
 * after the computation. */
#include <stdlib.h>
#include <string.h>

#include "../../common/grow.h"
#include "ll_flows.h"
#include "ll_sort.h"

struct frag {
	struct ll_part base;
	struct flows *of;
	int *mine; /* its flows (indices in of) */
	long nmine, capmine;
	long *drop; /* per link: users lost this round */
	int *pending, npending;
	long cap;               /* room for links */
	int nlive;              /* links it ever had (the computation may drop the last ones) */
	struct ll_moved *moved; /* the last split's */
	long capmoved;
	struct ll_moved *by; /* scratch of moved(): capmoved */
	uint64_t *key;       /* ... 2 capmoved */
};

/* A fragment is computed from the level its flows moved at: neither
 * reset nor rewound (its flows are active when they move). */
static void frag_reset(struct ll_part *p)
{
	(void)p;
}

static void frag_rewind(struct ll_part *p, double level, int incl)
{
	(void)p, (void)level, (void)incl;
}

static void frag_fill(struct ll_part *p, int x, double level)
{
	struct frag *g = (struct frag *)p;
	struct flows *f = g->of;
	int y = p->px[x];
	for (long i = f->lstart[y]; i < f->lstart[y + 1]; i++) {
		int k = f->lflows[i];
		if (f->state[k] != AWAY || f->rate[k] > 0)
			continue;
		f->rate[k] = level;
		for (long j = f->first[k]; j < f->first[k + 1]; j++) {
			int z = f->rev[f->path[j]];
			p->users[z]--;
			if (!g->drop[z]++)
				g->pending[g->npending++] = z;
		}
	}
}

static int frag_settle(struct ll_part *p, int *x, long *by)
{
	struct frag *g = (struct frag *)p;
	return cpl_ll_flows_pending(g->drop, g->pending, &g->npending, x, by);
}

static void frag_comm(const struct ll_part *p, double *comm)
{
	(void)p, (void)comm; /* its flows' times are its part's */
}

static void frag_destroy(struct ll_part *p)
{
	struct frag *g = (struct frag *)p;
	if (!g)
		return;
	for (int x = 0; x < g->nlive; x++)
		g->of->rev[p->px[x]] = -1;
	cpl_ll_part_free(p);
	free(g->mine), free(g->drop), free(g->pending), free(g->moved), free(g->by), free(g->key);
	free(g);
}

static double frag_memory(const struct ll_part *p)
{
	const struct frag *g = (const struct frag *)p;
	return sizeof *g + (double)g->capmine * sizeof(int) +
	       (double)g->cap * (4 * sizeof(int) + 3 * sizeof(long));
}

static const struct ll_part_ops frag_ops = {
    .reset = frag_reset,
    .rewind = frag_rewind,
    .fill = frag_fill,
    .settle = frag_settle,
    .comm = frag_comm,
    .destroy = frag_destroy,
    .memory = frag_memory,
};

/* Room for n links in g; 0 or -1 out of memory. */
static int room(struct frag *g, long n)
{
	struct ll_part *p = &g->base;
	if (n <= g->cap)
		return 0;
	long c = g->cap, c1 = c, c2 = c, c3 = c, c4 = c, c5 = c;
	if (cmn_grow((void **)&p->links, &c, n, 64, sizeof *p->links) ||
	    cmn_grow((void **)&p->users, &c1, n, 64, sizeof *p->users) ||
	    cmn_grow((void **)&p->users0, &c2, n, 64, sizeof *p->users0) ||
	    cmn_grow((void **)&p->at, &c3, n, 64, sizeof *p->at) ||
	    cmn_grow((void **)&p->px, &c4, n, 64, sizeof *p->px) ||
	    cmn_grow((void **)&g->pending, &c5, n, 64, sizeof *g->pending))
		return -1;
	long *drop = realloc(g->drop, (size_t)c * sizeof *drop);
	if (!drop)
		return -1;
	memset(drop + g->cap, 0, (size_t)(c - g->cap) * sizeof *drop);
	g->drop = drop;
	g->cap = c;
	return 0;
}

static void unmark(struct flows *f)
{
	while (f->nmarked > 0)
		f->state[f->marked[--f->nmarked]] = 0;
}

void cpl_ll_flows_mark(struct ll_part *p, int x, double level, int past)
{
	struct flows *f = (struct flows *)p;
	if (!f->state && !(f->state = calloc((size_t)f->nflows, 1)))
		return; /* out of memory: none marked, the part computed whole */
	if (x < 0) {
		unmark(f);
		return;
	}
	if (cmn_grow((void **)&f->marked, &f->capmarked,
	             f->nmarked + (f->lstart[x + 1] - f->lstart[x]), 64, sizeof *f->marked))
		return;
	for (long i = f->lstart[x]; i < f->lstart[x + 1]; i++) {
		int k = f->lflows[i];
		if (!f->state[k] && (past ? f->rate[k] > level : f->rate[k] == level)) {
			f->state[k] = MARKED;
			f->marked[f->nmarked++] = k;
		}
	}
}

static int cmp_level(const void *a, const void *b)
{
	const struct ll_moved *x = a, *y = b;
	return (x->level > y->level) - (x->level < y->level);
}

/* The marked flows' drops in f's last computation by g's link (their
 * links already g's) and level, into g->moved; how many. Sorted by link
 * (radix, ll_sort.h), then each link's by level. */
static long moved(const struct flows *f, struct frag *g)
{
	long n = 0, w = 0;
	uint64_t top = 0;
	for (long i = 0; i < f->nmarked; i++) {
		int k = f->marked[i];
		for (long j = f->first[k]; j < f->first[k + 1]; j++) {
			int x = f->rev[f->path[j]];
			g->by[n] = (struct ll_moved){x, f->rate[k], 1};
			g->key[n] = (uint64_t)(uint32_t)x << 32 | (uint64_t)n;
			top |= (uint32_t)x;
			n++;
		}
	}
	const uint64_t *key =
	    cpl_ll_sort_bits(g->key, g->key + n, (size_t)n, 32, 32 + cpl_ll_sort_width(top));
	for (long i = 0; i < n; i++)
		g->moved[i] = g->by[(uint32_t)key[i]];
	for (long b = 0, e; b < n; b = e) { /* each link's by level */
		for (e = b + 1; e < n && g->moved[e].x == g->moved[b].x; e++)
			;
		if (e - b > 16) {
			qsort(g->moved + b, (size_t)(e - b), sizeof *g->moved, cmp_level);
			continue;
		}
		for (long i = b + 1; i < e; i++) {
			struct ll_moved m = g->moved[i];
			long j = i;
			for (; j > b && g->moved[j - 1].level > m.level; j--)
				g->moved[j] = g->moved[j - 1];
			g->moved[j] = m;
		}
	}
	for (long i = 0; i < n; i++)
		if (w && g->moved[w - 1].x == g->moved[i].x &&
		    g->moved[w - 1].level == g->moved[i].level)
			g->moved[w - 1].n++;
		else
			g->moved[w++] = g->moved[i];
	return w;
}

/* Room for n moved drops and moved()'s scratch; 0 or -1. */
static int grow_moved(struct frag *g, long n)
{
	if (n <= g->capmoved)
		return 0;
	long c = g->capmoved;
	struct ll_moved *by = NULL;
	uint64_t *key = NULL;
	if (cmn_grow((void **)&g->moved, &c, n, 64, sizeof *g->moved) ||
	    !(by = malloc((size_t)c * sizeof *by)) ||
	    !(key = malloc(2 * (size_t)c * sizeof *key))) {
		free(by);
		return -1;
	}
	free(g->by), free(g->key);
	g->by = by;
	g->key = key;
	g->capmoved = c;
	return 0;
}

struct ll_part *cpl_ll_flows_split(struct ll_part *p, struct ll_part *fp, int *n0,
                                   const struct ll_moved **out, long *nout)
{
	struct flows *f = (struct flows *)p;
	struct frag *g = (struct frag *)fp;
	long nx = 0;
	for (long i = 0; i < f->nmarked; i++)
		nx += f->first[f->marked[i] + 1] - f->first[f->marked[i]];
	if (!f->nmarked)
		return NULL;
	if (!f->rev && (f->rev = malloc((size_t)p->nlinks * sizeof *f->rev)))
		for (int x = 0; x < p->nlinks; x++)
			f->rev[x] = -1;
	if (!g && f->rev && (g = calloc(1, sizeof *g))) {
		g->base.ops = &frag_ops;
		g->of = f;
	}
	if (!g || room(g, g->base.nlinks + nx) ||
	    cmn_grow((void **)&g->mine, &g->capmine, g->nmine + f->nmarked, 64, sizeof *g->mine) ||
	    grow_moved(g, nx)) {
		if (g && !fp)
			frag_destroy(&g->base);
		unmark(f);
		return NULL;
	}
	struct ll_part *q = &g->base;
	*n0 = q->nlinks;
	for (long i = 0; i < f->nmarked; i++) { /* their links new to g */
		int k = f->marked[i];
		for (long j = f->first[k]; j < f->first[k + 1]; j++) {
			int z = f->path[j];
			if (f->rev[z] < 0) {
				int x = q->nlinks++;
				f->rev[z] = x;
				q->px[x] = z;
				q->links[x] = p->links[z];
				q->users[x] = q->users0[x] = 0;
			}
		}
	}
	g->nlive = q->nlinks;
	*nout = moved(f, g);
	*out = g->moved;
	for (long i = 0; i < f->nmarked; i++) { /* moved: active in g */
		int k = f->marked[i];
		f->state[k] = AWAY;
		f->rate[k] = 0;
		g->mine[g->nmine++] = k;
		for (long j = f->first[k]; j < f->first[k + 1]; j++) {
			int z = f->path[j];
			q->users[f->rev[z]]++;
			q->users0[f->rev[z]]++;
			p->users0[z]--;
		}
	}
	f->nmarked = 0;
	return q;
}

void cpl_ll_flows_rejoin(struct ll_part *p, const struct ll_part *fp)
{
	struct flows *f = (struct flows *)p;
	const struct frag *g = (const struct frag *)fp;
	for (long i = 0; i < g->nmine; i++)
		f->state[g->mine[i]] = 0;
	for (int x = 0; x < fp->nlinks; x++)
		p->users0[fp->px[x]] += fp->users0[x];
}
