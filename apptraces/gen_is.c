/* IS (integer sort), NPB 3.x is.c: 2^k keys (k = 16, 20, 23, 25, 27, 31 for
 * S W A B C D), 2^b buckets (b = 9 for S, 10 otherwise), niter = 10 plus the
 * untimed first ranking. Rank program: broadcast of one int; per ranking
 * (niter + 1): local bucket counting, MPI_Allreduce of the bucket sizes and
 * the 5 test keys ((2^b + 5) ints), MPI_Alltoall of one int (how many keys
 * go where), MPI_Alltoallv of the keys (ints; the real kernel balances
 * buckets so each rank gets about keys / np: the generator sends keys / np^2
 * to every rank, the remainder to the first ones), local ranking. Then the
 * timer's MPI_Reduce (one double to rank 0), full_verify's boundary check
 * (rank r > 0 receives one int from r - 1, tag 1000, rank r < np - 1 sends
 * one to r + 1) and the MPI_Reduce of the verification count (one int). Any
 * rank count follows the same pattern (the real kernel wants a power of
 * two). Compute: about 10 integer operations per key and ranking (key
 * generation, counting, ranking), split evenly. */
#include <math.h>
#include <stdlib.h>

#include "gen.h"

static const int keys_log2[6] = {16, 20, 23, 25, 27, 31};

static int is_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	int c = trace_gen_class_index(g->cls), np = g->ranks,
	    iters = g->iterations ? g->iterations : 10;
	double keys = ldexp(1.0, keys_log2[c]), buckets = ldexp(1.0, c == 0 ? 9 : 10);
	double *send = malloc(2 * (size_t)np * sizeof *send);
	if (!send)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	double *recv = send + np;
	*exact = trace_gen_is_pow2(np);
	double per_rank = floor(keys / np), share = floor(per_rank / np),
	       extra = per_rank - share * np;
	for (int r = 0; r < np; r++) {
		for (int j = 0; j < np; j++) {
			send[j] = 4 * (share + (j < extra ? 1 : 0));
			recv[j] = 4 * (share + (r < extra ? 1 : 0));
		}
		trace_gen_init(g, r);
		trace_gen_compute(g, r, 4 * per_rank);
		trace_gen_bcast(g, r, 4, 0);
		for (int it = 0; it <= iters; it++) {
			trace_gen_timed(g, r, it >= 1); /* iteration 0 is NPB's untimed one */
			trace_gen_compute(g, r, 3 * per_rank);
			trace_gen_allreduce(g, r, 4 * (buckets + 5), buckets + 5);
			trace_gen_alltoall(g, r, 4);
			trace_gen_alltoallv(g, r, send, recv);
			trace_gen_compute(g, r, 3 * per_rank);
			trace_gen_timed(g, r, 0);
		}
		trace_gen_reduce(g, r, 8, 0, 0);
		if (r > 0)
			trace_gen_irecv(g, r, r - 1, 1000, 4);
		if (r < np - 1)
			trace_gen_send(g, r, r + 1, 1000, 4);
		if (r > 0)
			trace_gen_wait(g, r, r - 1, r, 1000);
		trace_gen_reduce(g, r, 4, 0, 0);
		trace_gen_finalize(g, r);
	}
	free(send);
	return 0;
}

/* Every pair (the alltoall(v)), the allreduce's among them. */
static double is_pairs(char cls, int ranks, struct trace_gen_sets *sets)
{
	(void)cls;
	*sets = (struct trace_gen_sets){1, {{1, ranks}, {0, 0}}};
	return (double)ranks * (ranks - 1);
}

const struct trace_gen_ops trace_gen_is_ops = {
    .base = {"is", "integer sort: bucket allreduce, all-to-all(v) of the keys",
             trace_gen_no_params},
    .generate = is_generate,
    .pairs = is_pairs,
    .same_iterations = 1,
};
