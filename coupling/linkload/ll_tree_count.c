/* Active flows per position of the k-ary n-tree aggregate (ll_tree.h).
 *
 * A flow a -> b whose nearest common ancestor is at level L crosses a's
 * up link, U(l, blk_l(a), res_l(b)) for 1 <= l < L, D(l, b) for 1 <= l < L
 * and b's down link. Kept per level:
 *  - X(l, s, c) (l >= 1): the sources of level-l block s that reach its
 *    switch through open links toward residue c mod k^(l-1): X(1, s) its
 *    open up links, X(l + 1, p, c) the sum over p's blocks s with U(l, s,
 *    c) open of X(l, s, red c);
 *  - delta(b): the lowest level at which a down link to b is full (H + 1:
 *    none);
 *  - Y(l, s, c) = W(l, p, c) + Up(l, p, c) - Own(l, s, c), s in the
 *    level-(l + 1) block p: the destinations of residue c outside s that
 *    flows from s's switch reach: W those in p open from level l + 1 down,
 *    Own those in s, Up the ones beyond p, the sum over the residues c2
 *    extending c with U(l + 1, p, c2) open of Y(l + 1, p, c2).
 * Then U(l, s, c) carries X(l, s, red c) Y(l, s, c) flows, a's up link
 * Y(0, a), and D(l, b) the sources whose ancestor with b is above l and
 * not above delta(b) (from X at b's blocks). A fill changes some of these:
 * a settle recounts only the entries the positions filled since the last
 * one reach, level by level (X upwards, W, Up and Y downwards), then the
 * positions that read them, each once: the same numbers as a full count,
 * which stays for a start and a rewind. */
#include <stdlib.h>
#include <string.h>

#include "ll_tree.h"

/* Per level: the stored W, Up, Own; the nodes of each block by residue;
 * the work lists of a settle and their marks (the settle's number). */
struct counts {
	int *W[MAXH], *Up[MAXH], *Own[MAXH]; /* l < H */
	int *par[MAXH];                      /* l < H: each block's level-(l + 1) block */
	/* nodes by (level-l block, residue at level l - 1): xnode[xoff[e] ..
	 * xoff[e + 1]) for X(l)'s entry e (1 <= l <= H); by (level-l block,
	 * residue at level l): ynode[yoff[e] .. yoff[e + 1]) for Y(l)'s (1 <=
	 * l < H) */
	int *xnode[MAXH + 1], *xoff[MAXH + 1], *ynode[MAXH], *yoff[MAXH];
	long *dx[MAXH + 1], *dw[MAXH], *dp;
	long ndx[MAXH + 1], ndw[MAXH], ndp;
	int *mx[MAXH + 1], *mw[MAXH], *mp, *mn, *dn, ndn, tick;
	long *fresh, nfresh; /* positions filled since the last settle */
};

static long xsize(const struct tree *t, int l)
{
	return (long)t->lv[l].nb * t->lv[l - 1].nr;
}

static long ysize(const struct tree *t, int l)
{
	return (long)t->lv[l].nb * t->lv[l].nr;
}

static long wsize(const struct tree *t, int l)
{
	return (long)t->lv[l + 1].nb * t->lv[l].nr;
}

/* The nodes of each level-l block by residue index res[] (nr values):
 * node[] and off[nb nr + 1]. */
static int by_residue(const struct tree *t, int l, const int *res, int nr, int **node, int **off)
{
	const struct level *a = &t->lv[l];
	long ne = (long)a->nb * nr;
	*node = malloc((size_t)(t->n ? t->n : 1) * sizeof **node);
	*off = calloc((size_t)ne + 1, sizeof **off);
	if (!*node || !*off)
		return -1;
	for (int i = 0; i < t->n; i++)
		(*off)[(long)a->blk[i] * nr + res[i] + 1]++;
	for (long e = 0; e < ne; e++)
		(*off)[e + 1] += (*off)[e];
	for (int i = 0; i < t->n; i++) /* blocks' nodes are ascending: a stable fill */
		(*node)[(*off)[(long)a->blk[i] * nr + res[i]]++] = i;
	for (long e = ne; e > 0; e--)
		(*off)[e] = (*off)[e - 1];
	(*off)[0] = 0;
	return 0;
}

int cpl_ll_tree_counts(struct tree *t)
{
	int H = t->H;
	struct counts *cs = t->cs = calloc(1, sizeof *t->cs);
	if (!cs)
		return -1;
	t->delta = malloc((size_t)t->n * sizeof *t->delta);
	t->lidx = malloc((size_t)(t->npos ? t->npos : 1) * sizeof *t->lidx);
	cs->dp = malloc((size_t)(t->npos ? t->npos : 1) * sizeof *cs->dp);
	cs->mp = calloc((size_t)(t->npos ? t->npos : 1), sizeof *cs->mp);
	cs->fresh = malloc((size_t)(t->npos ? t->npos : 1) * sizeof *cs->fresh);
	cs->dn = malloc((size_t)t->n * sizeof *cs->dn);
	cs->mn = calloc((size_t)t->n, sizeof *cs->mn);
	if (!t->delta || !t->lidx || !cs->dp || !cs->mp || !cs->fresh || !cs->dn || !cs->mn)
		return -1;
	for (int l = 0; l <= H; l++) {
		const struct level *a = &t->lv[l];
		size_t nx = (size_t)(l ? xsize(t, l) : 1), ny = (size_t)a->nb * (l < H ? a->nr : 1);
		t->X[l] = malloc((nx ? nx : 1) * sizeof *t->X[l]);
		t->Y[l] = malloc((ny ? ny : 1) * sizeof *t->Y[l]);
		if (!t->X[l] || !t->Y[l])
			return -1;
		if (l >= 1) {
			cs->dx[l] = malloc((nx ? nx : 1) * sizeof *cs->dx[l]);
			cs->mx[l] = calloc(nx ? nx : 1, sizeof *cs->mx[l]);
			if (!cs->dx[l] || !cs->mx[l] ||
			    by_residue(t, l, t->lv[l - 1].res, t->lv[l - 1].nr, &cs->xnode[l],
			               &cs->xoff[l]))
				return -1;
		}
		if (l == H)
			break;
		size_t nw = (size_t)wsize(t, l);
		cs->W[l] = malloc((nw ? nw : 1) * sizeof *cs->W[l]);
		cs->Up[l] = malloc((nw ? nw : 1) * sizeof *cs->Up[l]);
		cs->Own[l] = malloc((ny ? ny : 1) * sizeof *cs->Own[l]);
		cs->dw[l] = malloc((nw ? nw : 1) * sizeof *cs->dw[l]);
		cs->mw[l] = calloc(nw ? nw : 1, sizeof *cs->mw[l]);
		cs->par[l] = malloc((size_t)(a->nb ? a->nb : 1) * sizeof *cs->par[l]);
		if (!cs->W[l] || !cs->Up[l] || !cs->Own[l] || !cs->dw[l] || !cs->mw[l] ||
		    !cs->par[l])
			return -1;
		for (int s = 0; s < a->nb; s++)
			cs->par[l][s] = t->lv[l + 1].blk[a->first[s]];
		if (l >= 1 && by_residue(t, l, a->res, a->nr, &cs->ynode[l], &cs->yoff[l]))
			return -1;
	}
	return 0;
}

void cpl_ll_tree_counts_free(struct tree *t)
{
	struct counts *cs = t->cs;
	free(t->delta), free(t->lidx);
	for (int l = 0; l <= MAXH; l++)
		free(t->X[l]), free(t->Y[l]);
	if (!cs)
		return;
	for (int l = 0; l <= MAXH; l++) {
		free(cs->xnode[l]), free(cs->xoff[l]), free(cs->dx[l]), free(cs->mx[l]);
		if (l < MAXH) {
			free(cs->W[l]), free(cs->Up[l]), free(cs->Own[l]), free(cs->par[l]);
			free(cs->ynode[l]), free(cs->yoff[l]), free(cs->dw[l]), free(cs->mw[l]);
		}
	}
	free(cs->dp), free(cs->mp), free(cs->fresh), free(cs->dn), free(cs->mn);
	free(cs);
}

double cpl_ll_tree_counts_memory(const struct tree *t)
{
	double b = (double)t->npos * (2 * sizeof(int) + 2 * sizeof(long)) +
	           (double)t->n * (3 * sizeof(int));
	for (int l = 1; l <= t->H; l++)
		b += (double)xsize(t, l) * (3 * sizeof(int) + sizeof(long)) +
		     (double)t->n * 2 * sizeof(int);
	for (int l = 0; l < t->H; l++)
		b += (double)wsize(t, l) * (3 * sizeof(int) + sizeof(long)) +
		     (double)ysize(t, l) * 3 * sizeof(int) + (double)t->n * sizeof(int);
	return b;
}

static int sat(const struct tree *t, long p)
{
	return t->full[p];
}

/* X(l)'s entry for level-l block s and residue c at level l - 1. */
static long xi(const struct tree *t, int l, int s, int c)
{
	return (long)s * t->lv[l - 1].nr + c;
}

/* Y(l)'s (and Own(l)'s) entry for level-l block s and residue c at
 * level l; W(l)'s and Up(l)'s for a level-(l + 1) block s. */
static long yi(const struct tree *t, int l, int s, int c)
{
	return (long)s * t->lv[l].nr + c;
}

/* Node b's down links from the source counts. */
static void chain(struct tree *t, int b)
{
	int n = t->n, H = t->H;
	long v[MAXH + 2], sum = 0;
	v[1] = t->X[1][t->lv[1].blk[b]] - !sat(t, b);
	for (int L = 2; L <= H; L++) { /* the sources whose ancestor with b is at L */
		const struct level *a = &t->lv[L - 1];
		long own = sat(t, up_pos(t, L - 1, a->blk[b], a->res[b]))
		               ? 0
		               : t->X[L - 1][xi(t, L - 1, a->blk[b], t->lv[L - 2].res[b])];
		v[L] = t->X[L][xi(t, L, t->lv[L].blk[b], a->res[b])] - own;
	}
	int top = t->delta[b] < H ? t->delta[b] : H;
	for (int l = H - 1; l >= 0; l--) {
		if (l + 1 <= top)
			sum += v[l + 1];
		long p = l ? t->lv[l].pos_dn + b : n + b;
		t->cnt[p] = t->delta[b] > l ? sum : 0;
	}
}

/* X(l, s, c) from its definition. */
static int x_of(const struct tree *t, int l, int s, int c)
{
	int x = 0;
	if (l == 1) {
		for (int i = t->lv[1].first[s]; i < t->lv[1].first[s + 1]; i++)
			x += !sat(t, i);
		return x;
	}
	const struct level *a = &t->lv[l - 1], *b = &t->lv[l];
	for (int s2 = b->cfirst[s]; s2 < b->cfirst[s + 1]; s2++)
		if (!sat(t, up_pos(t, l - 1, s2, c)))
			x += t->X[l - 1][xi(t, l - 1, s2, a->red[c])];
	return x;
}

/* Up(l, p, c) from its definition. */
static int up_of(const struct tree *t, int l, int p, int c)
{
	const struct level *a = &t->lv[l];
	int x = 0;
	for (int e = l + 1 < t->H ? a->efirst[c] : 0; l + 1 < t->H && e < a->efirst[c + 1]; e++)
		if (!sat(t, up_pos(t, l + 1, p, a->elist[e])))
			x += t->Y[l + 1][yi(t, l + 1, p, a->elist[e])];
	return x;
}

void cpl_ll_tree_count(struct tree *t)
{
	int n = t->n, H = t->H;
	struct counts *cs = t->cs;
	for (int i = 0; i < n; i++) { /* the lowest full link down to each node */
		int d = sat(t, n + i) ? 0 : H + 1;
		for (int l = 1; l < H && d > H; l++)
			if (sat(t, t->lv[l].pos_dn + i))
				d = l;
		t->delta[i] = d;
	}
	for (int s = 0; s < t->lv[1].nb; s++)
		t->X[1][s] = x_of(t, 1, s, 0);
	for (int l = 2; l <= H; l++) /* X upwards */
		for (int p = 0; p < t->lv[l].nb; p++)
			for (int c = 0; c < t->lv[l - 1].nr; c++)
				t->X[l][xi(t, l, p, c)] = x_of(t, l, p, c);
	for (int l = H - 1; l >= 0; l--) { /* W, Up, Own, Y downwards */
		const struct level *a = &t->lv[l], *b = &t->lv[l + 1];
		for (int p = 0; p < b->nb; p++) {
			int *W = cs->W[l] + yi(t, l, p, 0), *up = cs->Up[l] + yi(t, l, p, 0);
			for (int c = 0; c < a->nr; c++) {
				W[c] = 0;
				up[c] = up_of(t, l, p, c);
			}
			for (int i = b->first[p]; i < b->first[p + 1]; i++)
				if (t->delta[i] >= l + 1)
					W[a->res[i]]++;
			for (int s = b->cfirst[p]; s < b->cfirst[p + 1]; s++) {
				int *y = t->Y[l] + yi(t, l, s, 0), *o = cs->Own[l] + yi(t, l, s, 0);
				memset(o, 0, (size_t)a->nr * sizeof *o);
				for (int i = a->first[s]; i < a->first[s + 1]; i++)
					if (t->delta[i] >= l + 1)
						o[a->res[i]]++;
				for (int c = 0; c < a->nr; c++)
					y[c] = W[c] + up[c] - o[c];
			}
		}
	}
	for (int i = 0; i < n; i++)
		t->cnt[i] = sat(t, i) ? 0 : t->Y[0][i];
	for (int l = 1; l < H; l++) {
		const struct level *a = &t->lv[l];
		for (int s = 0; s < a->nb; s++)
			for (int c = 0; c < a->nr; c++) {
				long p = up_pos(t, l, s, c);
				t->cnt[p] = sat(t, p) ? 0
				                      : (long)t->X[l][xi(t, l, s, a->red[c])] *
				                            t->Y[l][yi(t, l, s, c)];
			}
	}
	for (int i = 0; i < n; i++) /* down links: sources by their ancestor level */
		chain(t, i);
	cs->nfresh = 0;
}

void cpl_ll_tree_filled(struct tree *t, long p)
{
	t->cs->fresh[t->cs->nfresh++] = p;
}

/* The entry marked for this settle, once. */
static void mark_x(struct counts *cs, int l, long e)
{
	if (cs->mx[l][e] != cs->tick) {
		cs->mx[l][e] = cs->tick;
		cs->dx[l][cs->ndx[l]++] = e;
	}
}

static void mark_w(struct counts *cs, int l, long e)
{
	if (cs->mw[l][e] != cs->tick) {
		cs->mw[l][e] = cs->tick;
		cs->dw[l][cs->ndw[l]++] = e;
	}
}

static void mark_p(struct counts *cs, long p)
{
	if (cs->mp[p] != cs->tick) {
		cs->mp[p] = cs->tick;
		cs->dp[cs->ndp++] = p;
	}
}

static void mark_n(struct counts *cs, int b)
{
	if (cs->mn[b] != cs->tick) {
		cs->mn[b] = cs->tick;
		cs->dn[cs->ndn++] = b;
	}
}

/* Position p's level l (0 for the nodes' links), kind (0 a node's up
 * link, 1 a down link, 2 an up link U(l, s, c)) and node b or (s, c). */
static int decode(const struct tree *t, long p, int *l, int *b, int *s, int *c)
{
	int n = t->n;
	*l = 0;
	if (p < n) {
		*b = (int)p;
		return 0;
	}
	if (p < 2L * n) {
		*b = (int)(p - n);
		return 1;
	}
	for (*l = 1; *l < t->H - 1 && p >= t->lv[*l + 1].pos_dn; (*l)++)
		;
	const struct level *a = &t->lv[*l];
	if (p < a->pos_up) {
		*b = (int)(p - a->pos_dn);
		return 1;
	}
	*s = (int)((p - a->pos_up) / a->nr);
	*c = (int)((p - a->pos_up) % a->nr);
	return 2;
}

/* The entries the fresh fills reach, marked; delta, W and Own updated. */
static void seed(struct tree *t)
{
	struct counts *cs = t->cs;
	int H = t->H;
	for (long f = 0; f < cs->nfresh; f++) {
		long p = cs->fresh[f];
		int l, b = 0, s = 0, c = 0, kind = decode(t, p, &l, &b, &s, &c);
		if (kind == 0) { /* b's up link: X(1) of its block */
			mark_p(cs, p);
			mark_x(cs, 1, t->lv[1].blk[b]);
		} else if (kind == 1 && l < t->delta[b]) { /* W, Own from l on */
			int old = t->delta[b] < H ? t->delta[b] : H;
			t->delta[b] = l;
			mark_n(cs, b);
			for (int k = l; k < old; k++) {
				const struct level *a = &t->lv[k];
				long e = yi(t, k, t->lv[k + 1].blk[b], a->res[b]);
				cs->W[k][e]--;
				cs->Own[k][yi(t, k, a->blk[b], a->res[b])]--;
				mark_w(cs, k, e);
			}
		} else if (kind == 2) { /* X above, Up below, the sources' down links */
			mark_p(cs, p);
			mark_x(cs, l + 1, xi(t, l + 1, cs->par[l][s], c));
			mark_w(cs, l - 1, yi(t, l - 1, s, t->lv[l].red[c]));
			long e = yi(t, l, s, c);
			for (int i = cs->yoff[l][e]; i < cs->yoff[l][e + 1]; i++)
				mark_n(cs, cs->ynode[l][i]);
		}
	}
	cs->nfresh = 0;
}

int cpl_ll_tree_settle(struct tree *t, int *x, long *by)
{
	struct counts *cs = t->cs;
	struct ll_part *part = &t->base;
	int H = t->H, m = 0;
	cs->tick++;
	cs->ndp = cs->ndn = 0;
	for (int l = 0; l <= H; l++)
		cs->ndx[l] = l < H ? (cs->ndw[l] = 0) : 0;
	seed(t);
	for (int l = 1; l <= H; l++) /* X upwards */
		for (long i = 0; i < cs->ndx[l]; i++) {
			long e = cs->dx[l][i];
			int s = (int)(e / t->lv[l - 1].nr), c = (int)(e % t->lv[l - 1].nr);
			int x0 = x_of(t, l, s, c);
			if (x0 == t->X[l][e])
				continue;
			t->X[l][e] = x0;
			for (int j = cs->xoff[l][e]; j < cs->xoff[l][e + 1]; j++)
				mark_n(cs, cs->xnode[l][j]);
			if (l == H)
				continue;
			const struct level *z = &t->lv[l - 1];
			for (int k = z->efirst[c]; k < z->efirst[c + 1]; k++) {
				int c2 = z->elist[k];
				mark_p(cs, up_pos(t, l, s, c2));
				mark_x(cs, l + 1, xi(t, l + 1, cs->par[l][s], c2));
			}
		}
	for (int l = H - 1; l >= 0; l--) /* Up and Y downwards */
		for (long i = 0; i < cs->ndw[l]; i++) {
			long e = cs->dw[l][i];
			const struct level *a = &t->lv[l], *b = &t->lv[l + 1];
			int p = (int)(e / a->nr), c = (int)(e % a->nr);
			cs->Up[l][e] = up_of(t, l, p, c);
			for (int s = b->cfirst[p]; s < b->cfirst[p + 1]; s++) {
				long f = yi(t, l, s, c);
				int y = cs->W[l][e] + cs->Up[l][e] - cs->Own[l][f];
				if (y == t->Y[l][f])
					continue;
				t->Y[l][f] = y;
				if (!l) {
					mark_p(cs, s); /* level-0 blocks are the nodes */
				} else {
					mark_p(cs, up_pos(t, l, s, c));
					mark_w(cs, l - 1, yi(t, l - 1, s, a->red[c]));
				}
			}
		}
	for (long i = 0; i < cs->ndp; i++) { /* the positions reached */
		long p = cs->dp[i];
		int l, b = 0, s = 0, c = 0, kind = decode(t, p, &l, &b, &s, &c);
		t->cnt[p] = sat(t, p)   ? 0
		            : kind == 0 ? t->Y[0][b]
		                        : (long)t->X[l][xi(t, l, s, t->lv[l].red[c])] *
		                              t->Y[l][yi(t, l, s, c)];
	}
	for (int i = 0; i < cs->ndn; i++)
		chain(t, cs->dn[i]);
	for (long i = 0; i < cs->ndp + cs->ndn * (long)H; i++) { /* the changes */
		long p = i < cs->ndp ? cs->dp[i]
		         : (i - cs->ndp) % H
		             ? t->lv[(i - cs->ndp) % H].pos_dn + cs->dn[(i - cs->ndp) / H]
		             : t->n + cs->dn[(i - cs->ndp) / H];
		int k = t->lidx[p];
		if (k >= 0 && t->cnt[p] != part->users[k]) {
			x[m] = k;
			by[m++] = part->users[k] - t->cnt[p];
			part->users[k] = t->cnt[p];
		}
	}
	return m;
}
