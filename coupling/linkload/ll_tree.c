/* A job's all-pairs traffic on a k-ary n-tree for the linkload model
 * (ll_part.h), counted in aggregate: the flows of every ordered pair of its
 * nodes, without listing them (an all-to-all on 10,000 ranks has 10^8).
 *
 * With d-mod-k routing a flow a -> b whose nearest common ancestor is at
 * level L (blocks of k^l nodes: level l) crosses a's up link, the up link
 * U(l, s, c) at each level l < L, s = a's block and c = b mod k^l, and the
 * down links D(l, b) at each level l < L and b's down link: the down side
 * depends on b alone, each up link on (a's block, b's residue). So the
 * active flows (those no full link stops) on every link are counts over
 * blocks and residues: X(l, s, c) sources of block s that reach its
 * level-l switch for destinations of residue c, Y(l, s, c) destinations
 * of residue c outside s that flows from there reach; each link's count is
 * a product or a sum of these, recomputed after each round that fills one
 * of the job's links, in O(nodes x k x levels). A flow's rate is the level
 * at which the first of its links filled, the lowest over its route; the
 * slowest flow of a rank is found per (nearest-ancestor level, bytes
 * class) from the lowest rate over the same blocks, and the pairs that
 * carry more than the dense part's bytes one by one. The counts, rates
 * and times are those of the flows listed one by one (ll_flows.c) to the
 * last bit (tests/coupling/test_linkload.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linkload.h"
#include "ll_tree.h"

#define NONE -1.0 /* no flow in a set (levels are positive) */

/* Nearest-common-ancestor level of nodes a and b (the family's distance
 * goes up there and down). */
static int nca(const struct tree *t, int a, int b)
{
	return plat_distance(t->m, a, b) / 2;
}

static void tree_reset(struct ll_part *p)
{
	struct tree *t = (struct tree *)p;
	for (long i = 0; i < t->npos; i++)
		t->lam[i] = INFINITY;
	memset(t->full, 0, (size_t)t->npos);
	cpl_ll_tree_count(t);
	memcpy(p->users, p->users0, (size_t)p->nlinks * sizeof *p->users);
}

static void tree_rewind(struct ll_part *p, double level, int incl)
{
	struct tree *t = (struct tree *)p;
	for (long i = 0; i < t->npos; i++)
		if (t->lam[i] > level || (t->lam[i] == level && !incl)) {
			t->lam[i] = INFINITY;
			t->full[i] = 0;
		}
	cpl_ll_tree_count(t);
	for (int i = 0; i < p->nlinks; i++)
		p->users[i] = t->cnt[t->pos[i]];
}

static void tree_fill(struct ll_part *p, int x, double level)
{
	struct tree *t = (struct tree *)p;
	long q = t->pos[x];
	if (!t->full[q]) {
		t->lam[q] = level;
		t->full[q] = 1;
		cpl_ll_tree_filled(t, q);
	}
}

static int tree_settle(struct ll_part *p, int *x, long *by)
{
	return cpl_ll_tree_settle((struct tree *)p, x, by);
}

static double lower(double a, double b)
{
	return a == NONE ? b : b == NONE ? a : a < b ? a : b;
}

/* Each rank's slowest flow: per source, the lowest rate to each (ancestor
 * level, destination bytes class); per destination, from each (level,
 * source class); the pairs with more bytes one by one. */
static void tree_comm(const struct ll_part *p, double *comm)
{
	const struct tree *t = (const struct tree *)p;
	int n = t->n, H = t->H, nv = t->nv, nw = t->nw;
	double *dm = malloc((size_t)n * (H + 1) * sizeof *dm); /* lowest down-chain level */
	double *M[MAXH + 1] = {0}, *N[MAXH + 1] = {0};
	double *best = NULL, *second = NULL, *inner = NULL;
	int *bestc = NULL, ok = dm != NULL, maxr = 1;
	for (int l = 0; l < H; l++) {
		maxr = t->lv[l].nr > maxr ? t->lv[l].nr : maxr;
		M[l] = malloc((size_t)t->lv[l].nb * t->lv[l].nr * H * nv * sizeof *M[l]);
		ok = ok && M[l];
		if (l >= 1) {
			N[l] = malloc((size_t)t->lv[l].nb * t->lv[l - 1].nr * nw * sizeof *N[l]);
			ok = ok && N[l];
		}
	}
	best = malloc((size_t)maxr * nv * sizeof *best);
	second = malloc((size_t)maxr * nv * sizeof *second);
	bestc = malloc((size_t)maxr * nv * sizeof *bestc);
	inner = malloc((size_t)maxr * H * nv * sizeof *inner);
	if (!ok || !best || !second || !bestc || !inner)
		goto out; /* out of memory: the iteration comes out as its compute */
	for (int i = 0; i < n; i++) {
		double *d = dm + (long)i * (H + 1);
		d[1] = t->lam[n + i];
		for (int L = 2; L <= H; L++) {
			double x = t->lam[t->lv[L - 1].pos_dn + i];
			d[L] = x < d[L - 1] ? x : d[L - 1];
		}
	}
	/* outgoing: M[l][s][c][L][v] the lowest rate from block s's level-l
	 * switch to destinations of residue c, ancestor level L, class v */
	for (int l = H - 1; l >= 0; l--) {
		const struct level *a = &t->lv[l], *b = &t->lv[l + 1];
		for (int q = 0; q < b->nb; q++) {
			for (int c = 0; c < a->nr * nv; c++)
				best[c] = second[c] = NONE, bestc[c] = -1;
			for (int i = b->first[q]; i < b->first[q + 1]; i++) {
				int c = a->res[i] * nv + t->cv[i];
				double x = dm[(long)i * (H + 1) + l + 1];
				if (best[c] == NONE || x < best[c]) {
					second[c] = best[c];
					best[c] = x;
					bestc[c] = a->blk[i];
				} else if (second[c] == NONE || x < second[c]) {
					second[c] = x;
				}
			}
			for (int c = 0; c < a->nr && l + 1 < H; c++)
				for (int L = l + 2; L <= H; L++)
					for (int v = 0; v < nv; v++) {
						double x = NONE;
						for (int e = a->efirst[c]; e < a->efirst[c + 1];
						     e++) {
							long r =
							    ((long)q * b->nr + a->elist[e]) * H +
							    L - 1;
							x = lower(x, M[l + 1][r * nv + v]);
						}
						inner[((long)c * H + L - 1) * nv + v] = x;
					}
			for (int s = b->cfirst[q]; s < b->cfirst[q + 1]; s++)
				for (int c = 0; c < a->nr; c++) {
					double lu = l ? t->lam[up_pos(t, l, s, c)] : INFINITY;
					double *out = M[l] + ((long)s * a->nr + c) * H * nv;
					for (int v = 0; v < nv; v++) {
						int k = c * nv + v;
						double near = bestc[k] == s ? second[k] : best[k];
						out[l * nv + v] =
						    near == NONE ? NONE : lower(lu, near);
						for (int L = l + 2; L <= H; L++) {
							double x =
							    inner[((long)c * H + L - 1) * nv + v];
							out[(L - 1) * nv + v] =
							    x == NONE ? NONE : lower(lu, x);
						}
					}
				}
		}
	}
	/* incoming: N[l][s][c][w] the lowest rate from sources of class w in
	 * block s up to its level-l switch, toward residue c (mod k^(l-1)) */
	for (int l = 1; l < H; l++) {
		const struct level *a = &t->lv[l], *z = &t->lv[l - 1];
		if (l == 1)
			for (int s = 0; s < a->nb; s++)
				for (int w = 0; w < nw; w++) {
					double x = NONE;
					for (int i = a->first[s]; i < a->first[s + 1]; i++)
						if (t->cw[i] == w)
							x = lower(x, t->lam[i]);
					N[1][(long)s * nw + w] = x;
				}
		if (l + 1 >= H)
			continue;
		const struct level *b = &t->lv[l + 1];
		for (int q = 0; q < b->nb; q++)
			for (int c = 0; c < a->nr; c++)
				for (int w = 0; w < nw; w++) {
					double x = NONE;
					for (int s = b->cfirst[q]; s < b->cfirst[q + 1]; s++) {
						double y =
						    N[l][((long)s * z->nr + a->red[c]) * nw + w];
						if (y != NONE)
							x = lower(
							    x,
							    lower(t->lam[up_pos(t, l, s, c)], y));
					}
					N[l + 1][((long)q * a->nr + c) * nw + w] = x;
				}
	}
	for (int i = 0; i < n; i++) {
		double worst = comm[t->crank[i]];
		const double *out = M[0] + (long)i * H * nv;
		for (int L = 1; L <= H; L++)
			for (int v = 0; v < nv; v++)
				if (out[(L - 1) * nv + v] != NONE) {
					double r = lower(t->lam[i], out[(L - 1) * nv + v]);
					double x =
					    cpl_traffic_dense(&t->tr, t->rank[i], t->repb[v]) / r +
					    t->lat[L];
					worst = x > worst ? x : worst;
				}
		for (int L = 1; L <= H; L++)
			for (int w = 0; w < nw; w++) {
				double x = NONE;
				if (L == 1) {
					const struct level *a = &t->lv[1];
					for (int j = a->first[a->blk[i]];
					     j < a->first[a->blk[i] + 1]; j++)
						if (j != i && t->cw[j] == w)
							x = lower(x, t->lam[j]);
				} else {
					const struct level *a = &t->lv[L - 1], *b = &t->lv[L];
					int q = b->blk[i], own = a->blk[i];
					for (int s = b->cfirst[q]; s < b->cfirst[q + 1]; s++) {
						if (s == own)
							continue;
						double y = N[L - 1][((long)s * t->lv[L - 2].nr +
						                     t->lv[L - 2].res[i]) *
						                        nw +
						                    w];
						if (y != NONE)
							x = lower(x,
							          lower(t->lam[up_pos(t, L - 1, s,
							                              a->res[i])],
							                y));
					}
				}
				if (x == NONE)
					continue;
				double r = lower(x, dm[(long)i * (H + 1) + L]);
				double y = cpl_traffic_dense(&t->tr, t->repa[w], t->rank[i]) / r +
				           t->lat[L];
				worst = y > worst ? y : worst;
			}
		comm[t->crank[i]] = worst;
	}
	for (long q = 0; q < t->nsp; q++) { /* pairs with more bytes than the dense share */
		int a = t->spa[q], b = t->spb[q], L = nca(t, t->node[a], t->node[b]);
		double r = t->lam[a];
		for (int l = 1; l < L; l++)
			r = lower(r, t->lam[up_pos(t, l, t->lv[l].blk[a], t->lv[l].res[b])]);
		r = lower(r, dm[(long)b * (H + 1) + L]);
		double x = t->spbytes[q] / r + t->lat[L];
		if (x > comm[t->crank[a]])
			comm[t->crank[a]] = x;
		if (x > comm[t->crank[b]])
			comm[t->crank[b]] = x;
	}
out:
	for (int l = 0; l <= MAXH; l++)
		free(M[l]), free(N[l]);
	free(dm), free(best), free(second), free(bestc), free(inner);
}

static void tree_destroy(struct ll_part *p)
{
	struct tree *t = (struct tree *)p;
	if (!t)
		return;
	cpl_ll_part_free(p);
	if (t->crank != t->rank)
		free(t->crank);
	if (t->own_tr)
		cpl_traffic_free(&t->tr);
	cpl_ll_tree_counts_free(t);
	free(t->node), free(t->rank), free(t->lam), free(t->full), free(t->cnt), free(t->pos);
	for (int l = 0; l <= MAXH; l++) {
		struct level *a = &t->lv[l];
		free(a->first), free(a->cfirst), free(a->blk), free(a->rval), free(a->res);
		free(a->red), free(a->efirst), free(a->elist), free(a->rep);
	}
	free(t->cv), free(t->cw);
	free(t->spa), free(t->spb), free(t->spbytes);
	free(t);
}

static double tree_memory(const struct ll_part *p)
{
	const struct tree *t = (const struct tree *)p;
	double b = sizeof *t + (double)t->npos * (sizeof(double) + sizeof(long) + 1) +
	           (double)p->nlinks * (2 * sizeof(int) + 3 * sizeof(long)) +
	           (double)t->nsp * (2 * sizeof(int) + sizeof(double));
	for (int l = 0; l <= t->H; l++) {
		const struct level *a = &t->lv[l];
		b += (double)t->n * 2 * sizeof(int) + (double)a->nb * 2 * sizeof(int) +
		     (double)a->nr * 6 * sizeof(int);
	}
	return b + cpl_ll_tree_counts_memory(t);
}

static const struct ll_part_ops tree_ops = {
    .reset = tree_reset,
    .rewind = tree_rewind,
    .fill = tree_fill,
    .settle = tree_settle,
    .comm = tree_comm,
    .destroy = tree_destroy,
    .memory = tree_memory,
};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int index_of(const int *v, int n, int x)
{
	const int *hit = bsearch(&x, v, (size_t)n, sizeof *v, cmp_int);
	return hit ? (int)(hit - v) : -1;
}

/* Blocks and residues of every level. */
static int levels(struct tree *t)
{
	int n = t->n, H = t->H;
	for (int l = 0; l <= H; l++) {
		struct level *a = &t->lv[l];
		a->blk = malloc((size_t)n * sizeof *a->blk);
		a->first = malloc(((size_t)n + 1) * sizeof *a->first);
		if (!a->blk || !a->first)
			return -1;
		for (int i = 0; i < n; i++) {
			if (!i || t->node[i] / t->kl[l] != t->node[i - 1] / t->kl[l])
				a->first[a->nb++] = i;
			a->blk[i] = a->nb - 1;
		}
		a->first[a->nb] = n;
		if (l >= 1) {
			const struct level *z = &t->lv[l - 1];
			if (!(a->cfirst = malloc(((size_t)a->nb + 1) * sizeof *a->cfirst)))
				return -1;
			for (int s = 0; s < a->nb; s++)
				a->cfirst[s] = z->blk[a->first[s]];
			a->cfirst[a->nb] = z->nb;
		}
		if (l == H)
			break;
		a->rval = malloc((size_t)n * sizeof *a->rval);
		a->res = malloc((size_t)n * sizeof *a->res);
		if (!a->rval || !a->res)
			return -1;
		for (int i = 0; i < n; i++)
			a->rval[i] = (int)(t->node[i] % t->kl[l]);
		qsort(a->rval, (size_t)n, sizeof *a->rval, cmp_int);
		for (int i = 0; i < n; i++)
			if (!a->nr || a->rval[a->nr - 1] != a->rval[i])
				a->rval[a->nr++] = a->rval[i];
		for (int i = 0; i < n; i++)
			a->res[i] = index_of(a->rval, a->nr, (int)(t->node[i] % t->kl[l]));
		a->rep = malloc(2 * (size_t)a->nr * sizeof *a->rep);
		if (!a->rep)
			return -1;
		for (int c = 0; c < 2 * a->nr; c++)
			a->rep[c] = -1;
		for (int i = 0; i < n; i++) {
			int *r = a->rep + 2 * a->res[i];
			if (r[0] < 0)
				r[0] = i;
			else if (r[1] < 0 && a->blk[r[0]] != a->blk[i])
				r[1] = i;
		}
		if (l >= 1) {
			const struct level *z = &t->lv[l - 1];
			if (!(a->red = malloc((size_t)a->nr * sizeof *a->red)))
				return -1;
			for (int c = 0; c < a->nr; c++)
				a->red[c] =
				    index_of(z->rval, z->nr, (int)(a->rval[c] % t->kl[l - 1]));
		}
	}
	for (int l = 0; l + 1 < H; l++) { /* the extensions of each residue */
		struct level *a = &t->lv[l];
		const struct level *b = &t->lv[l + 1];
		a->efirst = calloc((size_t)a->nr + 1, sizeof *a->efirst);
		a->elist = malloc((size_t)b->nr * sizeof *a->elist);
		if (!a->efirst || !a->elist)
			return -1;
		for (int c = 0; c < b->nr; c++)
			a->efirst[b->red[c] + 1]++;
		for (int c = 0; c < a->nr; c++)
			a->efirst[c + 1] += a->efirst[c];
		for (int c = 0, *fill = a->efirst; c < b->nr; c++)
			a->elist[fill[b->red[c]]++] = c;
		for (int c = a->nr; c > 0; c--)
			a->efirst[c] = a->efirst[c - 1];
		a->efirst[0] = 0;
	}
	return 0;
}

/* Two job nodes (sorted indices) whose route crosses position p, and the
 * index of the link on that route. */
static void witness(const struct tree *t, long p, int *a, int *b, int *at)
{
	int n = t->n;
	if (p < n) {
		*a = (int)p, *b = p ? 0 : 1, *at = 0;
		return;
	}
	if (p < 2 * n) {
		*b = (int)(p - n), *a = *b ? 0 : 1;
		*at = 2 * nca(t, t->node[*a], t->node[*b]) - 1;
		return;
	}
	for (int l = 1; l < t->H; l++) {
		const struct level *x = &t->lv[l];
		if (p >= x->pos_dn && p < x->pos_dn + n) {
			*b = (int)(p - x->pos_dn);
			*a = x->blk[0] != x->blk[*b] ? 0 : n - 1;
			*at = 2 * nca(t, t->node[*a], t->node[*b]) - 1 - l;
			return;
		}
		if (p >= x->pos_up && p < x->pos_up + (long)x->nb * x->nr) {
			int s = (int)((p - x->pos_up) / x->nr), c = (int)((p - x->pos_up) % x->nr);
			const int *r = x->rep + 2 * c;
			*a = x->first[s];
			*b = x->blk[r[0]] != s ? r[0] : r[1];
			*at = l;
			return;
		}
	}
}

/* Bytes classes; 0, or -1 when there are more than MAXCLS. */
static int classes(struct tree *t)
{
	const struct cpl_traffic *tr = &t->tr;
	double rows[MAXCLS][2];
	for (int i = 0; i < t->n; i++) {
		int r = t->rank[i], v = 0, w = 0;
		while (v < t->nv && tr->all_col[r] != tr->all_col[t->repb[v]])
			v++;
		while (w < t->nw && (tr->all_row[r] != rows[w][0] || tr->all_mult[r] != rows[w][1]))
			w++;
		if (v == MAXCLS || w == MAXCLS)
			return -1;
		if (v == t->nv)
			t->repb[t->nv++] = r;
		if (w == t->nw) {
			t->repa[t->nw++] = r;
			rows[w][0] = tr->all_row[r];
			rows[w][1] = tr->all_mult[r];
		}
		t->cv[i] = v;
		t->cw[i] = w;
	}
	return 0;
}

/* The pairs listed in the traffic (they carry at least the dense share:
 * else -1). */
struct lister {
	struct tree *t;
	const int *pos; /* rank -> sorted index */
	int bad;
};

static int list_pair(void *ctx, int a, int b, double bytes)
{
	struct lister *c = ctx;
	struct tree *t = c->t;
	if (bytes == cpl_traffic_dense(&t->tr, a, b))
		return 0;
	if (bytes < cpl_traffic_dense(&t->tr, a, b))
		return c->bad = 1;
	t->spa[t->nsp] = c->pos[a];
	t->spb[t->nsp] = c->pos[b];
	t->spbytes[t->nsp++] = bytes;
	return 0;
}

/* 0 (*usable cleared when a pair carries less than its dense share), or
 * -1 out of memory. */
static int sparse_pairs(struct tree *t, int *usable)
{
	const struct cpl_traffic *tr = &t->tr;
	long ne = tr->row[tr->nranks];
	int *pos = malloc((size_t)t->n * sizeof *pos);
	t->spa = malloc((size_t)(ne ? ne : 1) * sizeof *t->spa);
	t->spb = malloc((size_t)(ne ? ne : 1) * sizeof *t->spb);
	t->spbytes = malloc((size_t)(ne ? ne : 1) * sizeof *t->spbytes);
	if (!pos || !t->spa || !t->spb || !t->spbytes) {
		free(pos);
		return -1;
	}
	for (int i = 0; i < t->n; i++)
		pos[t->rank[i]] = i;
	struct lister c = {t, pos, 0};
	struct cpl_traffic listed = *tr; /* the entries alone */
	listed.all_row = NULL;
	cpl_traffic_each(&listed, list_pair, &c);
	free(pos);
	*usable = !c.bad;
	return 0;
}

int cpl_ll_tree_machine(const struct plat_machine *m)
{
	int k, H;
	return !plat_kary_ntree_shape(m, &k, &H, NULL) && H <= MAXH;
}

/* Whether the aggregate applies on a machine cpl_ll_tree_machine accepts: a
 * dense part reaching every pair. */
static int applies(const struct plat_machine *m, const struct cpl_job_load *job, int *k, int *H)
{
	return job->traffic->all_row && job->nranks >= 2 && !plat_kary_ntree_shape(m, k, H, NULL);
}

struct order {
	int node, rank;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	return (x->node > y->node) - (x->node < y->node);
}

/* The positions, the initial counts and the links used (*usable cleared
 * when their latencies differ: the family gives them one). */
static int links(struct tree *t, int *usable)
{
	int n = t->n;
	long np = 2L * n;
	for (int l = 1; l < t->H; l++) {
		t->lv[l].pos_dn = np;
		np += n;
		t->lv[l].pos_up = np;
		np += (long)t->lv[l].nb * t->lv[l].nr;
	}
	t->npos = np;
	t->lam = malloc((size_t)np * sizeof *t->lam);
	t->full = calloc((size_t)np, 1);
	t->cnt = malloc((size_t)np * sizeof *t->cnt);
	if (!t->lam || !t->full || !t->cnt || cpl_ll_tree_counts(t))
		return -1;
	for (long p = 0; p < np; p++)
		t->lam[p] = INFINITY;
	cpl_ll_tree_count(t);
	struct ll_part *part = &t->base;
	int nl = 0;
	for (long p = 0; p < np; p++)
		nl += t->cnt[p] > 0;
	t->pos = malloc((size_t)(nl ? nl : 1) * sizeof *t->pos);
	int *route = malloc((size_t)plat_max_route(t->m) * sizeof *route);
	if (cpl_ll_part_links(part, nl) || !t->pos || !route) {
		free(route);
		return -1;
	}
	int x = 0;
	for (long p = 0; p < np; p++) {
		if (t->cnt[p] <= 0)
			continue;
		int a = 0, b = 1, at = 0;
		witness(t, p, &a, &b, &at);
		plat_route(t->m, t->node[a], t->node[b], route);
		*usable &= t->m->links[route[at]].lat_s == t->m->links[0].lat_s;
		t->pos[x] = p;
		part->users0[x] = t->cnt[p];
		part->links[x++] = route[at];
	}
	free(route);
	for (long p = 0; p < np; p++)
		t->lidx[p] = -1;
	for (int i = 0; i < nl; i++)
		t->lidx[t->pos[i]] = i;
	return 0;
}

int cpl_ll_tree_part(const struct plat_machine *m, const struct cpl_job_load *job,
                     struct ll_part **out)
{
	return cpl_ll_tree_group(m, job, NULL, NULL, out);
}

int cpl_ll_tree_group(const struct plat_machine *m, const struct cpl_job_load *job,
                      const int *jrank, struct cpl_traffic *own, struct ll_part **out)
{
	int k, H;
	*out = NULL;
	if (!applies(m, job, &k, &H)) {
		if (own)
			cpl_traffic_free(own);
		return 0;
	}
	struct tree *t = calloc(1, sizeof *t);
	struct order *o = malloc((size_t)job->nranks * sizeof *o);
	if (!t || !o) {
		free(t), free(o);
		if (own)
			cpl_traffic_free(own);
		return -1;
	}
	t->base.ops = &tree_ops;
	t->base.aggregate = 1;
	t->m = m;
	t->tr = *job->traffic;
	if (own) { /* ours from here on */
		t->own_tr = 1;
		memset(own, 0, sizeof *own);
	}
	t->k = k, t->H = H, t->n = job->nranks;
	t->kl[0] = 1;
	for (int l = 1; l <= H; l++)
		t->kl[l] = t->kl[l - 1] * k;
	for (int r = 0; r < t->n; r++)
		o[r] = (struct order){job->nodes[r], r};
	qsort(o, (size_t)t->n, sizeof *o, cmp_order);
	int rc = 0, usable = 1;
	t->node = malloc((size_t)t->n * sizeof *t->node);
	t->rank = malloc((size_t)t->n * sizeof *t->rank);
	t->cv = malloc((size_t)t->n * sizeof *t->cv);
	t->cw = malloc((size_t)t->n * sizeof *t->cw);
	t->crank = jrank ? malloc((size_t)t->n * sizeof *t->crank) : t->rank;
	if (!t->node || !t->rank || !t->cv || !t->cw || !t->crank)
		rc = -1;
	for (int i = 0; !rc && i < t->n; i++) {
		t->node[i] = o[i].node;
		t->rank[i] = o[i].rank;
		t->crank[i] = jrank ? jrank[o[i].rank] : o[i].rank;
		usable &= !i || o[i].node != o[i - 1].node;
	}
	free(o);
	usable = usable && !rc && !classes(t);
	if (!rc && usable)
		rc = levels(t);
	if (!rc && usable)
		rc = sparse_pairs(t, &usable);
	if (!rc && usable)
		rc = links(t, &usable);
	for (int l = 1; !rc && usable && l <= H; l++) {
		double x = 0; /* the route's links one by one, as ll_flows.c sums them */
		for (int i = 0; i < 2 * l; i++)
			x += m->links[0].lat_s;
		t->lat[l] = x;
	}
	if (rc || !usable) {
		tree_destroy(&t->base);
		return rc;
	}
	*out = &t->base;
	return 0;
}
