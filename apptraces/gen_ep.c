/* EP (embarrassingly parallel), NPB 3.x ep.f: each rank generates its share
 * of 2^(M+1) Gaussian deviates (M = 24, 25, 28, 30, 32, 36 for S W A B C D)
 * with no communication, then the sums sx, sy (one double each) and the ten
 * annulus counts q (ten doubles) are combined by MPI_Allreduce, followed by
 * the timer's max-reduction (one double). Before the work: the broadcast of
 * the timer flag (one LOGICAL, 4 bytes) and a barrier. Any rank count is the
 * real kernel's (batches are dealt out round-robin); compute is about 6.5
 * flop per random number (the magnitude the recorded traces show).
 * iterations=K repeats the work and the reductions K times. */
#include <math.h>

#include "gen.h"

static int ep_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	static const int m_of_class[] = {24, 25, 28, 30, 32, 36};
	(void)e;
	int m = m_of_class[trace_gen_class_index(g->cls)], n = g->ranks;
	double numbers = ldexp(1.0, m + 1), nb = ldexp(1.0, m - 16); /* batches of 2^16 pairs */
	int iters = g->iterations ? g->iterations : 1;
	*exact = 1;
	for (int r = 0; r < n; r++) {
		double mine = floor(nb / n) + (r < fmod(nb, n) ? 1 : 0);
		trace_gen_init(g, r);
		trace_gen_compute(g, r, 3e5);
		trace_gen_bcast(g, r, 4, 0);
		trace_gen_barrier(g, r);
		for (int it = 0; it < iters; it++) {
			trace_gen_timed(g, r, 1);
			trace_gen_compute(g, r, 6.5 * numbers * mine / nb);
			trace_gen_allreduce(g, r, 8, 0);
			trace_gen_allreduce(g, r, 8, 0);
			trace_gen_allreduce(g, r, 80, 0);
			trace_gen_allreduce(g, r, 8, 0);
			trace_gen_timed(g, r, 0);
		}
		trace_gen_finalize(g, r);
	}
	return 0;
}

/* The allreduces: every rank to 0 and the binomial tree from 0. */
static double ep_pairs(char cls, int ranks, struct trace_gen_sets *sets)
{
	(void)cls;
	sets->n = 0;
	return 2.0 * (ranks - 1);
}

const struct trace_gen_ops trace_gen_ep_ops = {
    .base = {"ep", "embarrassingly parallel: Gaussian pairs, four small allreduces",
             trace_gen_no_params},
    .generate = ep_generate,
    .pairs = ep_pairs,
    .same_iterations = 1,
};
