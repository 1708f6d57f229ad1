/* The k-ary n-tree aggregate of the linkload model (ll_tree.c): its
 * blocks, residues and positions, and the counts of active flows per
 * position (cpl_ll_tree_count.c). Internal to the linkload model. */
#ifndef CPL_LL_TREE_H
#define CPL_LL_TREE_H

#include "ll_part.h"
#include "traffic.h"

#define MAXH   12   /* the family's largest n */
#define MAXCLS 4    /* distinct bytes per destination (per source) handled */
#define NONE   -1.0 /* no flow in a set (levels are positive) */

struct level {
	int nb;      /* blocks of k^l nodes that hold job nodes */
	int *first;  /* nb + 1: block s holds sorted job nodes first[s] .. first[s + 1] - 1 */
	int *cfirst; /* l >= 1, nb + 1: its blocks at level l - 1 */
	int *blk;    /* per job node: its block */
	int nr;      /* l < H: the residues mod k^l of the job nodes */
	int *rval;   /* ascending */
	int *res;    /* per job node: its residue's index */
	int *red;    /* l >= 1: index of rval mod k^(l-1) at level l - 1 */
	int *efirst, *elist; /* l < H - 1: the residues at level l + 1 extending each */
	int *rep;            /* l < H, 2 per residue: job nodes with it in two blocks, or -1 */
	long pos_up,
	    pos_dn; /* 1 <= l < H: U(l, s, c) at pos_up + s nr + c, D(l, i) at pos_dn + i */
};

struct tree {
	struct ll_part base;
	const struct plat_machine *m;
	struct cpl_traffic tr; /* its arrays borrowed while the job runs, or owned */
	int own_tr;
	int k, H, n;
	long kl[MAXH + 1]; /* k^l */
	int *node, *rank;  /* job nodes ascending, the rank on each */
	int *crank;        /* the rank comm[] counts it as (a group's: the job's) */
	struct level lv[MAXH + 1];
	/* positions: every link the pattern could use (up and down links of
	 * the nodes at 0..n-1 and n..2n-1, then per level) */
	long npos;
	double *lam;         /* per position: the level at which it filled, or INFINITY */
	unsigned char *full; /* per position: filled (the same, denser for count()) */
	long *cnt;           /* per position: its active flows (cpl_ll_tree_count.c) */
	long *pos;           /* per local link: its position */
	int *lidx;           /* per position: its local link, or -1 (none: no flow) */
	int *X[MAXH + 1], *Y[MAXH + 1]; /* counts of nodes (cpl_ll_tree_count.c): at most 2^20 */
	int *delta;
	struct counts *cs;
	/* bytes classes: destinations by all_col, sources by (all_row, all_mult) */
	int nv, nw, *cv, *cw, repb[MAXCLS], repa[MAXCLS];
	/* the pairs whose bytes exceed the dense share (sorted node indices) */
	long nsp;
	int *spa, *spb;
	double *spbytes;
	double lat[MAXH + 1]; /* a route's latency by nearest-ancestor level */
};

/* U(l, s, c)'s position. */
static inline long up_pos(const struct tree *t, int l, int s, int c)
{
	return t->lv[l].pos_up + (long)s * t->lv[l].nr + c;
}

/* The counts' arrays for t's levels (after its blocks and positions);
 * 0 or -1 out of memory. */
int cpl_ll_tree_counts(struct tree *t);
void cpl_ll_tree_counts_free(struct tree *t);
/* Every position's count from the filled ones (full[]); the counts kept
 * from here on. */
void cpl_ll_tree_count(struct tree *t);
/* Position p filled (full[p] set): counted at the next settle. */
void cpl_ll_tree_filled(struct tree *t, long p);
/* The counts after the positions filled since the last count or settle:
 * the local links whose count changed into x[], the drop into by[], users
 * updated; how many. Only what the fills change is counted again. */
int cpl_ll_tree_settle(struct tree *t, int *x, long *by);
double cpl_ll_tree_counts_memory(const struct tree *t);

#endif
