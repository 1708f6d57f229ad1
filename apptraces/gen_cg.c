/* CG (conjugate gradient), NPB 3.x cg.f: na rows (S 1400, W 7000, A 14000,
 * B 75000, C 150000, D 1500000), nonzer = 7, 8, 11, 13, 15, 21, niter = 15,
 * 15, 15, 75, 75, 100 outer iterations of conj_grad, each 25 CG iterations.
 * Process grid nprows x npcols, rank = row * npcols + col: the real kernel
 * takes np a power of two, npcols = nprows (even log2 np) or 2 nprows.
 * Generalized to any np: nprows = the largest n with n^2 | np, npcols =
 * np / nprows (m = npcols / nprows columns per block).
 * Every exchange is irecv + send + wait with one partner (tag i):
 *  - a dot product: for i = 1..l2npcols, 8 bytes with the rank of column
 *    col xor npcols/2^i (tag i);
 *  - the row sum of w (in the matrix-vector product): the same partners in
 *    reverse order (i = l2npcols..1), na/nprows doubles each;
 *  - the transpose exchange: na/npcols doubles with exch_proc, tag 1, the
 *    rank at the transposed block position: q = rank / m transposed in the
 *    nprows x nprows grid, times m, plus rank mod m (NPB's formula for m = 1
 *    and 2).
 * conj_grad: a dot; 25 x (row sum, transpose, dot, dot); row sum,
 * transpose, dot (the residual norm). Per outer iteration, after conj_grad:
 * the two norms as one exchange of 2 doubles per partner. The run: bcast of
 * a LOGICAL, one untimed outer iteration, a barrier, niter timed ones, the
 * timer's MPI_Reduce (one double). When npcols is not a power of two the
 * partners of step i are col + 2^(i-1) (send) and col - 2^(i-1) (recv)
 * within the row (a dissemination pattern), ceil(log2 npcols) steps.
 * Compute: NPB's count 2 na (3 + z(z+1) + 25 (5 + z(z+1)) + 3) per outer
 * iteration (z = nonzer), split evenly; 1/25 of the CG share per CG step. */
#include <math.h>

#include "gen.h"

static const double nas[6] = {1400, 7000, 14000, 75000, 150000, 1500000};
static const int nonzers[6] = {7, 8, 11, 13, 15, 21}, niters[6] = {15, 15, 15, 75, 75, 100};

struct cg {
	int np, nprows, npcols, m, l2, pow2;
	double rowlen, trlen;
};

/* Partner of rank r at step i (1-based): send-to and receive-from. */
static void partners(const struct cg *c, int r, int i, int *to, int *from)
{
	int row = r / c->npcols, col = r % c->npcols;
	if (c->pow2) {
		*to = *from = row * c->npcols + (col ^ (c->npcols >> i));
		return;
	}
	int d = 1 << (i - 1);
	*to = row * c->npcols + (col + d) % c->npcols;
	*from = row * c->npcols + (col - d % c->npcols + c->npcols) % c->npcols;
}

static void exchange(struct gen *g, int r, int to, int from, int tag, double bytes)
{
	trace_gen_irecv(g, r, from, tag, bytes);
	trace_gen_send(g, r, to, tag, bytes);
	trace_gen_wait(g, r, from, r, tag);
}

static void dot(struct gen *g, const struct cg *c, int r, double bytes)
{
	for (int i = 1; i <= c->l2; i++) {
		int to, from;
		partners(c, r, i, &to, &from);
		exchange(g, r, to, from, i, bytes);
	}
}

static void matvec(struct gen *g, const struct cg *c, int r, double flops)
{
	trace_gen_compute(g, r, flops);
	for (int i = c->l2; i >= 1; i--) { /* the row sum */
		int to, from;
		partners(c, r, i, &to, &from);
		exchange(g, r, to, from, i, 8 * c->rowlen);
	}
	int q = r / c->m, qt = (q % c->nprows) * c->nprows + q / c->nprows;
	int ex = qt * c->m + r % c->m;
	exchange(g, r, ex, ex, 1, 8 * c->trlen);
}

/* The process grid of np ranks. */
static struct cg grid(int np)
{
	struct cg c = {np, 1, np, 1, 0, 0, 0, 0};
	for (int n = 1; n * n <= np; n++)
		if (np % (n * n) == 0)
			c.nprows = n;
	c.npcols = np / c.nprows;
	c.m = c.npcols / c.nprows;
	c.pow2 = trace_gen_is_pow2(c.npcols);
	c.l2 = c.npcols > 1 ? trace_gen_ilog2(c.npcols - 1) + 1 : 0; /* ceil(log2 npcols) */
	return c;
}

/* A rank sends to its l2 partners and its transpose partner. */
static double cg_pairs(char cls, int ranks, struct trace_gen_sets *sets)
{
	(void)cls;
	sets->n = 0;
	return (double)ranks * (grid(ranks).l2 + 1);
}

static int cg_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	(void)e;
	int k = trace_gen_class_index(g->cls), np = g->ranks,
	    iters = g->iterations ? g->iterations : niters[k];
	struct cg c = grid(np);
	c.rowlen = round(nas[k] / c.nprows);
	c.trlen = round(nas[k] / c.npcols);
	*exact = trace_gen_is_pow2(np) && (c.m == 1 || c.m == 2);
	double z = nonzers[k],
	       per_outer = 2 * nas[k] * (3 + z * (z + 1) + 25 * (5 + z * (z + 1)) + 3) / np,
	       step = per_outer / 26;
	for (int r = 0; r < np; r++) {
		trace_gen_init(g, r);
		trace_gen_compute(g, r, per_outer);
		trace_gen_bcast(g, r, 4, 0);
		for (int it = 0; it <= iters; it++) {
			if (it == 1)
				trace_gen_barrier(g, r);
			trace_gen_timed(g, r, it >= 1); /* iteration 0 is NPB's untimed one */
			dot(g, &c, r, 8);
			for (int s = 0; s < 25; s++) {
				matvec(g, &c, r, step);
				dot(g, &c, r, 8);
				dot(g, &c, r, 8);
			}
			matvec(g, &c, r, step);
			dot(g, &c, r, 8);
			dot(g, &c, r, 16); /* the two norms of the outer iteration */
			trace_gen_timed(g, r, 0);
		}
		trace_gen_reduce(g, r, 8, 0, 0);
		trace_gen_finalize(g, r);
	}
	return 0;
}

const struct trace_gen_ops trace_gen_cg_ops = {
    .base = {"cg", "conjugate gradient on a 2-D process grid: row sums, transposes, dots",
             trace_gen_no_params},
    .generate = cg_generate,
    .pairs = cg_pairs,
    .same_iterations = 1,
};
