/* BT (block tridiagonal), NPB 3.x bt.f: n^3 (S 12, W 24, A 64, B 102,
 * C 162, D 408), niter = 60, 200, 200, 200, 200, 250; multi-partition
 * (trace_gen_multipart.h) with 5x5 blocks: forward messages of 30 doubles (a 5x5
 * block and a 5-vector) and backward ones of 5 per point of a
 * face of cell side + 1, each request waited for. Broadcasts: an int, a double,
 * 3 ints, 2 ints, a LOGICAL. Op count per iteration (NPB): 3478.8 n^3 -
 * 17655.7 n^2 + 28023.7 n. */
#include "gen_multipart.h"

static const int sizes[6] = {12, 24, 64, 102, 162, 408}, niters[6] = {60, 200, 200, 200, 200, 250};
static const double bcasts[] = {4, 8, 12, 4, 4, 4, 0};

static int bt_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	static const struct multipart mp = {.name = "bt",
	                                    .sizes = sizes,
	                                    .niters = niters,
	                                    .fwd = 30,
	                                    .bwd = 5,
	                                    .boundary = 0,
	                                    .side_add = 1,
	                                    .waitall = 0,
	                                    .bcasts = bcasts,
	                                    .c3 = 3478.8,
	                                    .c2 = -17655.7,
	                                    .c1 = 28023.7,
	                                    .c0 = 0};
	return trace_gen_multipart(g, &mp, exact, e);
}

const struct trace_gen_ops trace_gen_bt_ops = {
    .base = {"bt", "block tridiagonal ADI on a multi-partition (square rank counts)",
             trace_gen_no_params},
    .generate = bt_generate,
    .pairs = trace_gen_multipart_pairs,
    .same_iterations = 1,
};
