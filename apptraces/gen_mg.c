/* MG (multigrid), NPB 3.x mg.f: an n^3 grid (S 32, W 128, A 256, B 256,
 * C 512, D 1024), nit = 4, 4, 4, 20, 20, 50 V-cycles over levels lt =
 * log2 n down to 1. The communication follows NPB 3.3's mg.f for any np:
 *  - process grid (setup): log_p = floor(log2 np), p1 = 2^(log_p / 3),
 *    p2 = 2^((log_p - log_p / 3) / 2), p3 = np / (p1 p2); rank = i1 + p1 (i2
 *    + p2 i3). At level k (ng = 2^k points per axis) rank coordinate i owns
 *    m = (i + 1) ng / p - i ng / p points of an axis (integer division); a
 *    rank with no point on some axis is dead at that level. The neighbour
 *    distance `next` of an axis doubles below the first level where the
 *    rank or its neighbour has no point; give_ex/take_ex mark the ranks that
 *    hand a dead neighbour its data when the grid is refined again.
 *  - comm3 (after every grid operation at level k, skipped by dead ranks):
 *    per axis a, irecv from both neighbours (distance next, periodic) into
 *    nm2-double buffers, send the face to the +1 neighbour (tag
 *    100 (3 + 10 a)) and to the -1 one (tag 100 (1 + 10 a)), wait both;
 *    faces of m2 m3, (m1 + 2) m3 and (m1 + 2)(m2 + 2) doubles for axes 1-3.
 *  - comm3_ex (after interp to level k): per axis, a take_ex rank posts both
 *    irecvs and waits; a give_ex rank sends two layers to the +1 neighbour
 *    and one to the -1 neighbour (all ghost points included).
 * The run, as recorded: barrier, 7 broadcasts (5 ints, 8 ints, a LOGICAL),
 * barrier, zran3 (20 x [allreduce of 1 double, of 4 ints], a
 * barrier, comm3 at lt), norm2u3 (2 allreduces of 1 double), resid, norm2u3,
 * one warm-up V-cycle and resid, zran3 again, barrier, resid, norm2u3, nit x
 * (V-cycle, resid), norm2u3 and the timer's MPI_Reduce. A V-cycle: rprj3 to
 * levels lt-1..1 (comm3 at each), psinv at level 1, then for levels 2..lt:
 * interp (comm3_ex), resid and psinv (comm3 each).
 * Rank counts that are not powers of two (generalized): factors of np dealt
 * to axes 3, 2, 1, 3, ... (the same grid as NPB's for powers of two), each
 * axis's neighbours the nearest ranks that own points at that level, and no
 * comm3_ex (the coarse data is not handed back to idle ranks).
 * Compute: about 17 flop per local point per grid operation (NPB counts
 * 58 flop per point per V-cycle). */
#include <stdlib.h>

#include "gen.h"

#define MG_LEVELS 12

static const int sizes_log2[6] = {5, 7, 8, 8, 9, 10}, nits[6] = {4, 4, 4, 20, 20, 50};

/* One rank's view of every level (index k = 1..lt). */
struct mg_rank {
	int m[3][MG_LEVELS]; /* points per axis (no ghosts) */
	int dead[MG_LEVELS], give[3][MG_LEVELS], take[3][MG_LEVELS];
	int nbr[3][2][MG_LEVELS]; /* [axis][0: -1, 1: +1][k] */
};

struct mg {
	int p[3], lt;
	double nm2;
};

static int owned(int i, int ng, int p)
{
	return ((i + 1) * ng) / p - (i * ng) / p;
}

static void mg_rank_setup(const struct mg *m, int r, struct mg_rank *v)
{
	int idi[3] = {r % m->p[0], (r / m->p[0]) % m->p[1], r / (m->p[0] * m->p[1])};
	int next[3] = {1, 1, 1};
	for (int k = 0; k < MG_LEVELS; k++) {
		v->dead[k] = 0;
		for (int a = 0; a < 3; a++)
			v->give[a][k] = v->take[a][k] = 0;
	}
	int pow2 = trace_gen_is_pow2(m->p[0] * m->p[1] * m->p[2]);
	for (int k = m->lt; k >= 1; k--) {
		int ng = 1 << k;
		for (int a = 0; a < 3; a++) {
			int mi = owned(idi[a], ng, m->p[a]);
			int mip = ((next[a] + idi[a] + 1) * ng) / m->p[a] -
			          ((next[a] + idi[a]) * ng) / m->p[a];
			if (mip == 0 || mi == 0)
				next[a] *= 2;
			if (pow2 && k + 1 <= m->lt) {
				if (mip == 0 && mi == 1)
					v->give[a][k + 1] = 1;
				if (mip == 1 && mi == 0)
					v->take[a][k + 1] = 1;
			}
			v->m[a][k] = mi;
			if (mi == 0)
				v->dead[k] = 1;
		}
		for (int a = 0; a < 3; a++)
			for (int d = 0; d < 2; d++) {
				int c[3] = {idi[0], idi[1], idi[2]}, step = d ? 1 : m->p[a] - 1;
				if (pow2) {
					c[a] = (idi[a] + (d ? next[a] : -next[a]) % m->p[a] +
					        m->p[a]) %
					       m->p[a];
				} else { /* generalized: the nearest rank with points, no _ex */
					do
						c[a] = (c[a] + step) % m->p[a];
					while (owned(c[a], ng, m->p[a]) == 0 && c[a] != idi[a]);
				}
				v->nbr[a][d][k] = c[0] + m->p[0] * (c[1] + m->p[1] * c[2]);
			}
	}
}

static void comm3(struct gen *g, const struct mg *m, const struct mg_rank *v, int r, int k)
{
	double m1 = v->m[0][k], m2 = v->m[1][k], m3 = v->m[2][k];
	trace_gen_compute(g, r, 17 * m1 * m2 * m3);
	if (v->dead[k])
		return;
	double face[3] = {m2 * m3, (m1 + 2) * m3, (m1 + 2) * (m2 + 2)};
	for (int a = 0; a < 3; a++) {
		int up = v->nbr[a][1][k], down = v->nbr[a][0][k], t = 1000 * (a + 1);
		trace_gen_irecv(g, r, up, t + 100, 8 * m->nm2);
		trace_gen_irecv(g, r, down, t + 300, 8 * m->nm2);
		trace_gen_send(g, r, up, t + 300, 8 * face[a]);
		trace_gen_send(g, r, down, t + 100, 8 * face[a]);
		trace_gen_wait(g, r, up, r, t + 100);
		trace_gen_wait(g, r, down, r, t + 300);
	}
}

static void comm3_ex(struct gen *g, const struct mg *m, const struct mg_rank *v, int r, int k)
{
	double n[3] = {v->m[0][k] + 2, v->m[1][k] + 2, v->m[2][k] + 2};
	for (int a = 0; a < 3; a++) {
		int up = v->nbr[a][1][k], down = v->nbr[a][0][k], t = 1000 * (a + 1);
		double layer = n[0] * n[1] * n[2] / n[a];
		if (v->take[a][k]) {
			trace_gen_irecv(g, r, up, t + 100, 8 * m->nm2);
			trace_gen_irecv(g, r, down, t + 300, 8 * m->nm2);
			trace_gen_wait(g, r, up, r, t + 100);
			trace_gen_wait(g, r, down, r, t + 300);
		}
		if (v->give[a][k]) {
			trace_gen_send(g, r, up, t + 300, 8 * 2 * layer);
			trace_gen_send(g, r, down, t + 100, 8 * layer);
		}
	}
}

static void zran3(struct gen *g, const struct mg *m, const struct mg_rank *v, int r)
{
	for (int i = 0; i < 20; i++) {
		trace_gen_allreduce(g, r, 8, 1);
		trace_gen_allreduce(g, r, 16, 4);
	}
	trace_gen_barrier(g, r);
	comm3(g, m, v, r, m->lt);
}

static void norm2u3(struct gen *g, int r)
{
	trace_gen_allreduce(g, r, 8, 1);
	trace_gen_allreduce(g, r, 8, 1);
}

static void vcycle(struct gen *g, const struct mg *m, const struct mg_rank *v, int r)
{
	for (int k = m->lt - 1; k >= 1; k--) /* rprj3 */
		comm3(g, m, v, r, k);
	comm3(g, m, v, r, 1); /* psinv at the bottom */
	for (int k = 2; k <= m->lt; k++) {
		comm3_ex(g, m, v, r, k); /* interp */
		comm3(g, m, v, r, k);    /* resid */
		comm3(g, m, v, r, k);    /* psinv */
	}
	comm3(g, m, v, r, m->lt); /* resid after the cycle */
}

/* The process grid of np ranks in class index c. */
static struct mg grid(int c, int np)
{
	struct mg m = {{1, 1, 1}, sizes_log2[c], 0};
	int rest = np, axis = 2;       /* factors dealt to axes 3, 2, 1, 3, ...: NPB's grid */
	for (int f = 2; rest > 1; f++) /* for powers of two */
		while (rest % f == 0) {
			m.p[axis] *= f;
			rest /= f;
			axis = (axis + 2) % 3;
		}
	return m;
}

/* Per axis and direction one neighbour per level, among the p - 1 other
 * ranks of the axis; the norms' allreduces. */
static double mg_pairs(char cls, int ranks, struct trace_gen_sets *sets)
{
	struct mg m = grid(trace_gen_class_index(cls), ranks);
	double per = 0;
	for (int a = 0; a < 3; a++)
		per += 2 * (m.p[a] - 1 < m.lt ? m.p[a] - 1 : m.lt);
	sets->n = 0;
	return ranks * per + 2.0 * (ranks - 1);
}

static int mg_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	int c = trace_gen_class_index(g->cls), np = g->ranks,
	    iters = g->iterations ? g->iterations : nits[c];
	struct mg m = grid(c, np);
	*exact = trace_gen_is_pow2(np);
	/* buffers: nm2 = 2 nm^2 doubles, nm = 2 + the largest local side rounded
	 * up to a power of two */
	int big = 1;
	for (int a = 0; a < 3; a++) {
		int side = ((1 << m.lt) + m.p[a] - 1) / m.p[a];
		while (big < side)
			big *= 2;
	}
	m.nm2 = 2.0 * (2 + big) * (2 + big);
	struct mg_rank *v = malloc(sizeof *v);
	if (!v)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int r = 0; r < np; r++) {
		mg_rank_setup(&m, r, v);
		trace_gen_init(g, r);
		trace_gen_barrier(g, r);
		for (int i = 0; i < 5; i++)
			trace_gen_bcast(g, r, 4, 0);
		trace_gen_bcast(g, r, 32, 0);
		trace_gen_bcast(g, r, 4, 0);
		trace_gen_barrier(g, r);
		zran3(g, &m, v, r);
		norm2u3(g, r);
		comm3(g, &m, v, r, m.lt); /* resid */
		norm2u3(g, r);
		vcycle(g, &m, v, r); /* warm-up */
		trace_gen_barrier(g, r);
		zran3(g, &m, v, r);
		trace_gen_barrier(g, r);
		comm3(g, &m, v, r, m.lt); /* resid */
		norm2u3(g, r);
		for (int it = 0; it < iters; it++) {
			trace_gen_timed(g, r, 1);
			vcycle(g, &m, v, r);
			trace_gen_timed(g, r, 0);
		}
		norm2u3(g, r);
		trace_gen_reduce(g, r, 8, 0, 0);
		trace_gen_finalize(g, r);
	}
	free(v);
	return 0;
}

const struct trace_gen_ops trace_gen_mg_ops = {
    .base = {"mg", "multigrid V-cycles: 3-D halo exchanges at every level", trace_gen_no_params},
    .generate = mg_generate,
    .pairs = mg_pairs,
    .same_iterations = 1,
};
