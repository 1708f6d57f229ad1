/* MG (multigrid), NPB 3.x mg.f: an n^3 grid (S 32, W 128, A 256, B 256,
 * C 512, D 1024), nit = 4, 4, 4, 20, 20, 50 V-cycles over levels lt =
 * log2 n down to 1. Process grid p1 x p2 x p3, rank = i1 + p1 (i2 + p2 i3),
 * the factors of np dealt to axes 3, 2, 1, 3, ... (4 ranks: 1x2x2, 16:
 * 2x2x4, as the real kernel); local grid at level k: m_a = max(1,
 * 2^k / p_a) points per axis.
 * comm3 (the halo exchange after every grid operation): for each axis a,
 * irecv from both neighbours (periodic) into nm2-double buffers, send the
 * face to the +1 neighbour (tag 1000 a + 300) and to the -1 one (tag
 * 1000 a + 100), wait both; faces of m2 m3, (m1 + 2) m3 and (m1 + 2)(m2 + 2)
 * doubles for axes 1, 2, 3.
 * The run, as the recorded traces show it: barrier, 7 broadcasts (5 ints,
 * 8 ints, a LOGICAL), barrier, zran3 (20 x [allreduce of 1 double, of 4
 * ints], barrier, comm3 at lt), norm2u3 (2 allreduces of 1 double), resid
 * (comm3 at lt), norm2u3, one warm-up V-cycle and resid; then barrier,
 * zran3, barrier, resid, norm2u3, nit x (V-cycle, resid), norm2u3 and
 * the timer's MPI_Reduce. A V-cycle: rprj3 to levels lt-1..1 (comm3 at
 * each), psinv at level 1, then for levels 2..lt resid and psinv (comm3
 * each): 2 lt + 3 comm3 per cycle with resid.
 * Generalized: any np (prime factors dealt the same way); levels coarser
 * than the process grid keep one point per rank and axis (the real kernel
 * idles ranks there). Compute: about 4.5 flop per local point per grid
 * operation (NPB counts 58 flop per point per V-cycle). */
#include <math.h>

#include "gen.h"

static const int sizes_log2[6] = {5, 7, 8, 8, 9, 10}, nits[6] = {4, 4, 4, 20, 20, 50};

struct mg {
	int p[3], lt;
	double nm2;
};

static double local(const struct mg *m, int k, int a)
{
	double v = ldexp(1.0, k) / m->p[a];
	return v < 1 ? 1 : ceil(v);
}

static int neighbour(const struct mg *m, int r, int a, int dir)
{
	int c[3] = {r % m->p[0], (r / m->p[0]) % m->p[1], r / (m->p[0] * m->p[1])};
	c[a] = (c[a] + dir + m->p[a]) % m->p[a];
	return c[0] + m->p[0] * (c[1] + m->p[1] * c[2]);
}

static void comm3(struct gen *g, const struct mg *m, int r, int k)
{
	double m1 = local(m, k, 0), m2 = local(m, k, 1), m3 = local(m, k, 2);
	double face[3] = {m2 * m3, (m1 + 2) * m3, (m1 + 2) * (m2 + 2)};
	g_compute(g, r, 4.5 * m1 * m2 * m3);
	for (int a = 0; a < 3; a++) {
		int up = neighbour(m, r, a, 1), down = neighbour(m, r, a, -1), t = 1000 * (a + 1);
		g_irecv(g, r, up, t + 100, 8 * m->nm2);
		g_irecv(g, r, down, t + 300, 8 * m->nm2);
		g_send(g, r, up, t + 300, 8 * face[a]);
		g_send(g, r, down, t + 100, 8 * face[a]);
		g_wait(g, r, up, r, t + 100);
		g_wait(g, r, down, r, t + 300);
	}
}

static void zran3(struct gen *g, const struct mg *m, int r)
{
	for (int i = 0; i < 20; i++) {
		g_allreduce(g, r, 8, 1);
		g_allreduce(g, r, 16, 4);
	}
	g_barrier(g, r);
	comm3(g, m, r, m->lt);
}

static void norm2u3(struct gen *g, int r)
{
	g_allreduce(g, r, 8, 1);
	g_allreduce(g, r, 8, 1);
}

static void vcycle(struct gen *g, const struct mg *m, int r)
{
	for (int k = m->lt - 1; k >= 1; k--) /* rprj3 */
		comm3(g, m, r, k);
	comm3(g, m, r, 1); /* psinv at the bottom */
	for (int k = 2; k <= m->lt; k++) {
		comm3(g, m, r, k); /* resid */
		comm3(g, m, r, k); /* psinv */
	}
	comm3(g, m, r, m->lt); /* resid after the cycle */
}

static int mg_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	(void)e;
	int c = gen_class_index(g->cls), np = g->ranks,
	    iters = g->iterations ? g->iterations : nits[c];
	struct mg m = {{1, 1, 1}, sizes_log2[c], 0};
	int rest = np, axis = 2;
	for (int f = 2; rest > 1; f++) /* prime factors, smallest first */
		while (rest % f == 0) {
			m.p[axis] *= f;
			rest /= f;
			axis = (axis + 2) % 3;
		}
	*exact = gen_is_pow2(np);
	double big = fmax(local(&m, m.lt, 0), fmax(local(&m, m.lt, 1), local(&m, m.lt, 2)));
	double nm = 2 + ldexp(1.0, (int)ceil(log2(big)));
	m.nm2 = 2 * nm * nm;
	for (int r = 0; r < np; r++) {
		g_init(g, r);
		g_barrier(g, r);
		for (int i = 0; i < 5; i++)
			g_bcast(g, r, 4, 0);
		g_bcast(g, r, 32, 0);
		g_bcast(g, r, 4, 0);
		g_barrier(g, r);
		zran3(g, &m, r);
		norm2u3(g, r);
		comm3(g, &m, r, m.lt); /* resid */
		norm2u3(g, r);
		vcycle(g, &m, r); /* warm-up */
		g_barrier(g, r);
		zran3(g, &m, r);
		g_barrier(g, r);
		comm3(g, &m, r, m.lt); /* resid */
		norm2u3(g, r);
		for (int it = 0; it < iters; it++)
			vcycle(g, &m, r);
		norm2u3(g, r);
		g_reduce(g, r, 8, 0, 0);
		g_finalize(g, r);
	}
	return 0;
}

const struct trace_gen_ops trace_gen_mg_ops = {
    .base = {"mg", "multigrid V-cycles: 3-D halo exchanges at every level", gen_no_params},
    .generate = mg_generate,
};
