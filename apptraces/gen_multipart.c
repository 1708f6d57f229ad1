/* The multi-partition skeleton of BT and SP (see trace_gen_multipart.h). */
#include <math.h>

#include "gen_multipart.h"

struct grid {
	int c, n;
	double cs, flops; /* cell side, per-iteration flops per rank */
};

static int at(const struct grid *gr, int i, int j)
{
	return ((i % gr->c + gr->c) % gr->c) + gr->c * ((j % gr->c + gr->c) % gr->c);
}

static void neighbours(const struct grid *gr, int r, int axis, int *pred, int *succ)
{
	static const int di[3] = {1, 0, -1}, dj[3] = {0, 1, 1};
	int i = r % gr->c, j = r / gr->c;
	*succ = at(gr, i + di[axis], j + dj[axis]);
	*pred = at(gr, i - di[axis], j - dj[axis]);
}

static void copy_faces(struct gen *g, const struct grid *gr, int r)
{
	double bytes = 8 * (gr->c - 1) * 5 * 2 * gr->cs * gr->cs;
	trace_gen_compute(g, r, 0.25 * gr->flops);
	int pred[3], succ[3];
	for (int a = 0; a < 3; a++)
		neighbours(gr, r, a, &pred[a], &succ[a]);
	for (int a = 0; a < 3; a++) {
		trace_gen_irecv(g, r, pred[a], 3000 + 2000 * a, bytes);
		trace_gen_irecv(g, r, succ[a], 2000 + 2000 * a, bytes);
	}
	for (int a = 0; a < 3; a++) {
		trace_gen_isend(g, r, pred[a], 2000 + 2000 * a, bytes);
		trace_gen_isend(g, r, succ[a], 3000 + 2000 * a, bytes);
	}
	trace_gen_waitall(g, r);
}

static void step(struct gen *g, const struct multipart *mp, int r, int to, int from, int tag,
                 double send, double recv)
{
	trace_gen_isend(g, r, to, tag, send);
	trace_gen_irecv(g, r, from, tag, recv);
	if (mp->waitall) {
		trace_gen_waitall(g, r);
	} else {
		trace_gen_wait(g, r, r, to, tag);
		trace_gen_wait(g, r, from, r, tag);
	}
}

/* Points of the face (the two sides other than axis a) of rank r's cell
 * whose a-coordinate is s. */
static double face(const struct multipart *mp, const struct grid *gr, int r, int a, int s)
{
	int p = gr->c, i = r % p, j = r / p, cell[3];
	int c = a == 0 ? s - i : a == 1 ? j - s : s; /* the cell index with coordinate s */
	c = (c % p + p) % p;
	cell[0] = (i + c) % p;
	cell[1] = ((j - c) % p + p) % p;
	cell[2] = c;
	double pts = 1;
	for (int k = 0; k < 3; k++)
		if (k != a) {
			int x = cell[k];
			double side =
			    floor((double)gr->n / p) + (x < gr->n % p ? 1 : 0) + mp->side_add;
			pts *= side - mp->boundary * ((x == 0) + (x == p - 1));
		}
	return pts;
}

static void solve(struct gen *g, const struct multipart *mp, const struct grid *gr, int r, int a)
{
	int pred, succ, p = gr->c;
	neighbours(gr, r, a, &pred, &succ);
	double per = 0.25 * gr->flops / (2 * p);
	for (int s = 0; s < p - 1; s++) {
		trace_gen_compute(g, r, per);
		step(g, mp, r, succ, pred, 3000 + 2000 * a + s, 8 * mp->fwd * face(mp, gr, r, a, s),
		     8 * mp->fwd * face(mp, gr, r, a, s + 1));
	}
	trace_gen_compute(g, r, 2 * per);
	for (int s = p - 1; s > 0; s--) {
		step(g, mp, r, pred, succ, 2000 + 2000 * a + s, 8 * mp->bwd * face(mp, gr, r, a, s),
		     8 * mp->bwd * face(mp, gr, r, a, s - 1));
		trace_gen_compute(g, r, per);
	}
}

static void iteration(struct gen *g, const struct multipart *mp, const struct grid *gr, int r)
{
	copy_faces(g, gr, r);
	for (int a = 0; a < 3; a++)
		solve(g, mp, gr, r, a);
}

double trace_gen_multipart_pairs(char cls, int ranks, struct trace_gen_sets *sets)
{
	(void)cls;
	sets->n = 0;
	return 6.0 * ranks;
}

/* The smallest face side of a c x c multi-partition of an n^3 grid (a
 * cell on the global boundary, the smaller share of n). */
static int min_side(const struct multipart *mp, int n, int c)
{
	return n / c + mp->side_add - mp->boundary * (c == 1 ? 2 : 1);
}

/* Whether c cells a side leave a cell without a grid point (NPB refuses
 * more cells than points a side; BT's faces of side + 1 do not show it). */
static int too_many_cells(const struct multipart *mp, int n, int c)
{
	return n / c < 1 || min_side(mp, n, c) < 0;
}

int trace_gen_multipart(struct gen *g, const struct multipart *mp, int *exact, struct cmn_err *e)
{
	int k = trace_gen_class_index(g->cls), np = g->ranks,
	    iters = g->iterations ? g->iterations : mp->niters[k];
	struct grid gr = {(int)floor(sqrt(np)), mp->sizes[k], 0, 0};
	while ((gr.c + 1) * (gr.c + 1) <= np)
		gr.c++;
	while (gr.c * gr.c > np)
		gr.c--;
	if (too_many_cells(mp, gr.n, gr.c)) { /* NPB: no more cells than points a side */
		int most = gr.c;
		while (most > 1 && too_many_cells(mp, gr.n, most))
			most--;
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%s class %c's %d^3 grid on %d ranks: a %dx%d multi-partition "
		                   "leaves cells of fewer than one point (NPB refuses such a run "
		                   "too): at most %d ranks for class %c",
		                   mp->name, g->cls, gr.n, np, gr.c, gr.c, most * most, g->cls);
	}
	gr.cs = ceil((double)gr.n / gr.c);
	double n = gr.n;
	gr.flops = (mp->c3 * n * n * n + mp->c2 * n * n + mp->c1 * n + mp->c0) / np;
	*exact = gr.c * gr.c == np;
	for (int r = 0; r < np; r++) {
		int active = r < gr.c * gr.c;
		trace_gen_init(g, r);
		for (const double *b = mp->bcasts; *b > 0; b++)
			trace_gen_bcast(g, r, *b, 0);
		if (active)
			iteration(g, mp, &gr, r);
		else
			trace_gen_compute(g, r, gr.flops);
		trace_gen_barrier(g, r);
		for (int it = 0; it < iters; it++) {
			trace_gen_timed(g, r, 1);
			if (active)
				iteration(g, mp, &gr, r);
			else
				trace_gen_compute(g, r, gr.flops);
			trace_gen_timed(g, r, 0);
		}
		trace_gen_allreduce(g, r, 40, 5);
		if (active)
			copy_faces(g, &gr, r);
		trace_gen_allreduce(g, r, 40, 5);
		trace_gen_reduce(g, r, 8, 0, 0);
		trace_gen_barrier(g, r);
		trace_gen_finalize(g, r);
	}
	return 0;
}
