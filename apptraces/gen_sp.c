/* SP (scalar pentadiagonal), NPB 3.x sp.f: n^3 (S 12, W 36, A 64, B 102,
 * C 162, D 408), niter = 100, 400, 400, 400, 400, 500; multi-partition
 * (trace_gen_multipart.h) with forward messages of 22 doubles and backward ones
 * of 10 per point of a cell's face, cells on the global boundary one point
 * smaller per side (the boundary is not solved for), each step closed by a
 * waitall. Broadcasts: an int, a double, 3 ints, a LOGICAL. Op count per
 * iteration (NPB): 881.174 n^3 - 4683.91 n^2 + 11484.5 n - 19272.4. */
#include "gen_multipart.h"

static const int sizes[6] = {12, 36, 64, 102, 162, 408}, niters[6] = {100, 400, 400, 400, 400, 500};
static const double bcasts[] = {4, 8, 12, 4, 0};

static int sp_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	static const struct multipart mp = {.name = "sp",
	                                    .sizes = sizes,
	                                    .niters = niters,
	                                    .fwd = 22,
	                                    .bwd = 10,
	                                    .boundary = 1,
	                                    .side_add = 0,
	                                    .waitall = 1,
	                                    .bcasts = bcasts,
	                                    .c3 = 881.174,
	                                    .c2 = -4683.91,
	                                    .c1 = 11484.5,
	                                    .c0 = -19272.4};
	return trace_gen_multipart(g, &mp, exact, e);
}

const struct trace_gen_ops trace_gen_sp_ops = {
    .base = {"sp", "scalar pentadiagonal ADI on a multi-partition (square rank counts)",
             trace_gen_no_params},
    .generate = sp_generate,
    .pairs = trace_gen_multipart_pairs,
    .same_iterations = 1,
};
