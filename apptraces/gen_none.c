/* "none": a control profile with no communication at all, for studies
 * that need a job whose run time cannot depend on placement or contention
 * (every emergent run-time model must give it its log run time). Each rank
 * computes 1e6 x 4^c flops per iteration ( for class index c = 0..5 of
 * S W A B C D) between init and finalize; the class's own count is one
 * iteration. Any rank count. */
#include <math.h>

#include "gen.h"

static int none_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	(void)e;
	int iters = g->iterations ? g->iterations : 1;
	double flops = 1e6 * pow(4, trace_gen_class_index(g->cls));
	*exact = 1;
	for (int r = 0; r < g->ranks; r++) {
		trace_gen_init(g, r);
		for (int it = 0; it < iters; it++) {
			trace_gen_timed(g, r, 1);
			trace_gen_compute(g, r, flops);
			trace_gen_timed(g, r, 0);
		}
		trace_gen_finalize(g, r);
	}
	return 0;
}

static double none_pairs(char cls, int ranks, struct trace_gen_sets *sets)
{
	(void)cls, (void)ranks;
	sets->n = 0;
	return 0;
}

const struct trace_gen_ops trace_gen_none_ops = {
    .base = {"none", "control profile: compute only, no communication", trace_gen_no_params},
    .generate = none_generate,
    .pairs = none_pairs,
    .same_iterations = 1,
};
