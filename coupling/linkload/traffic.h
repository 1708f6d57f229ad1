/* One iteration of a job profile as the linkload model routes it: bytes
 * rank to rank (collectives expanded as trace_expand.h) and compute per
 * rank, the difference between the kernel's runs with two iterations and
 * with one (setup and verification cancel out; a recorded trace: its whole
 * run), kept compressed so that memory and time grow with the messages
 * rather than with ranks^2: the pairs that point-to-point messages and
 * rooted collectives touch as a sparse matrix, and the exchanges of
 * all-to-all type (alltoall, allgather(v), alltoallv with one count vector
 * for every rank) as a dense part of rank one. Generated kernels are summed
 * as the generator emits them (no trace in memory); a kernel whose run with
 * one iteration is that with two without its second timed iteration (gen.h's
 * same_iterations: all but lu) is generated once, that iteration's messages
 * summed and the compute of both runs kept. The numbers are those of
 * trace_stats' dense matrix: whole numbers of bytes, whose sums are exact
 * in any order (a trace with fractions of bytes takes the dense path). */
#ifndef CPL_TRAFFIC_H
#define CPL_TRAFFIC_H

#include "../../common/err.h"
#include "../profiles/jobprof.h"

struct cpl_traffic {
	int nranks;
	double *flops; /* per rank */
	long *row;     /* nranks + 1: rank a's entries are row[a] .. row[a + 1] - 1 */
	int *col;      /* destination ranks, ascending within a row */
	double *bytes; /* > 0 */
	/* NULL, or the dense part: every pair (a, b), a != b, that has no entry
	 * carries all_row[a] + all_mult[a] * all_col[b] > 0 bytes (an entry's
	 * bytes include its pair's dense share) */
	double *all_row, *all_mult, *all_col;
};

/* Kernel k of the profiles on ranks ranks. */
int cpl_traffic_profile(const struct cpl_profiles *pr, int k, int ranks, struct cpl_traffic *t,
                        struct cmn_err *e);
/* The same from runs = 2 runs of the kernel always, or runs = 1: the run
 * with two iterations alone where the kernel's runs allow it (gen.h's
 * same_iterations; what cpl_traffic_profile does). The same numbers to the
 * last bit either way. */
int cpl_traffic_profile_runs(const struct cpl_profiles *pr, int k, int ranks, int runs,
                             struct cpl_traffic *t, struct cmn_err *e);
/* From a dense matrix (n x n bytes, row sends; entries <= 0 and the
 * diagonal dropped) and compute per rank, both copied. */
int cpl_traffic_from_matrix(int n, const double *matrix, const double *flops, struct cpl_traffic *t,
                            struct cmn_err *e);
/* The bytes rank a sends rank b (0 when none, and for a == b). */
double cpl_traffic_bytes(const struct cpl_traffic *t, int a, int b);
/* The dense part's share of that (t->all_row set; any a, b). */
double cpl_traffic_dense(const struct cpl_traffic *t, int a, int b);
/* Calls fn(ctx, a, b, bytes) for every pair with bytes, sources ascending
 * and destinations ascending within a source; stops at fn's first non-zero
 * return, which it returns. */
int cpl_traffic_each(const struct cpl_traffic *t, int (*fn)(void *ctx, int a, int b, double bytes),
                     void *ctx);
/* The number of pairs with bytes (a != b). */
double cpl_traffic_pairs(const struct cpl_traffic *t);
void cpl_traffic_free(struct cpl_traffic *t);

#endif
